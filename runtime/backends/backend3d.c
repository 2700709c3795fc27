/* An open 3D backend over the entry points the registry pairs with a
 * table entry (backend3d.h), and the reference's and the cpu kernel's
 * entry points (cuda's are in runtime/gpu/cuda3d.c). */
#include "backend3d.h"

#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "cpu3d.h"
#include "reference3d.h"

struct gg_backend3d {
    const gg_backend_info *info;
    const gg_backend3d_info *ops;
    void *state;
    bool torus; /* the rule's topology: every step keeps it */
};

/* ---- the reference: the rule is its whole state ---- */

static int ref_open(const gg_rule3d *rule, const gg_backend_opts *o,
                    void **state, gg_fail_kind *why, gg_err *err)
{
    (void)o;
    *why = GG_FAIL_ENV;
    gg_rule3d *r = gg_alloc(1, sizeof *r, err, "3D reference");
    if (!r)
        return -1;
    *r = *rule;
    *state = r;
    return 0;
}

static int64_t ref_step_until(void *state, gg_grid3d *g, bool torus,
                              int64_t gens, gg_stop_flag *stop, gg_err *err)
{
    return gg_ref3d_run_until(state, torus, g, gens, stop, err);
}

static void ref_describe(void *state, gg_backend_desc *d)
{
    (void)state;
    memset(d, 0, sizeof *d);
    snprintf(d->what, sizeof d->what, "scalar");
    d->threads = 1;
}

const gg_backend3d_info gg_backend3d_reference = {
    .open = ref_open,
    .step_until = ref_step_until,
    .describe = ref_describe,
    .close = free,
};

/* ---- the cpu kernel (runtime/backends/cpu3d.h) ---- */

static int cpu_open(const gg_rule3d *rule, const gg_backend_opts *o,
                    void **state, gg_fail_kind *why, gg_err *err)
{
    gg_cpu3d_opts co = {.config = o->config, .threads = o->threads};
    bool check_failed = false;
    if (gg_cpu3d_open(rule, &co, (gg_cpu3d **)state, &check_failed, err)) {
        *why = check_failed ? GG_FAIL_INVALID : GG_FAIL_ENV;
        return -1;
    }
    return 0;
}

static int64_t cpu_step_until(void *state, gg_grid3d *g, bool torus,
                              int64_t gens, gg_stop_flag *stop, gg_err *err)
{
    return gg_cpu3d_run_until(state, g, torus, gens, stop, err);
}

static void cpu_describe(void *state, gg_backend_desc *d)
{
    memset(d, 0, sizeof *d);
    snprintf(d->what, sizeof d->what, "%s", gg_cpu3d_isa(state));
    d->threads = gg_cpu3d_threads(state);
}

static void cpu_close(void *state) { gg_cpu3d_close(state); }

const gg_backend3d_info gg_backend3d_cpu = {
    .open = cpu_open,
    .step_until = cpu_step_until,
    .describe = cpu_describe,
    .close = cpu_close,
};

/* ---- an open 3D backend ---- */

static int open_one(const gg_backend_info *info, const gg_rule3d *rule,
                    const gg_backend_opts *o, gg_backend3d **out,
                    gg_fail_kind *why, gg_err *err)
{
    *why = GG_FAIL_INPUT;
    if (gg_backend_takes(info, GG_FAMILY_3D, GG_FEATURE_RUN, err))
        return -1;
    gg_backend3d *b = gg_alloc(1, sizeof *b, err, "3D backend");
    if (!b)
        return -1;
    *b = (gg_backend3d){.info = info, .ops = gg_backend3d_of(info),
                        .torus = rule->topo != GG_TOPO3D_BOX};
    if (b->ops->open(rule, o, &b->state, why, err)) {
        free(b);
        return -1;
    }
    *out = b;
    return 0;
}

typedef struct auto3d {
    const gg_rule3d *rule;
    const gg_backend_opts *o;
    gg_backend3d *opened;
} auto3d;

/* Auto's try of one candidate: probed first, as the 2D table's auto does
 * (one line on why a GPU backend cannot run). */
static int auto_open(void *ctx, const char *name, gg_fail_kind *why,
                     gg_err *err)
{
    auto3d *a = ctx;
    const gg_backend_info *info = gg_backend_find(name, err);
    *why = GG_FAIL_ENV;
    if (!info || info->probe(a->o, err))
        return -1;
    return open_one(info, a->rule, a->o, &a->opened, why, err);
}

int gg_backend3d_open(const gg_backend_info *info, const gg_rule3d *rule,
                      const gg_backend_opts *o, gg_backend3d **out,
                      gg_auto_line *line, gg_fail_kind *why, gg_err *err)
{
    static const gg_backend_opts defaults;
    o = o ? o : &defaults;
    *out = NULL;
    if (info)
        return open_one(info, rule, o, out, why, err);
    const char *names[32];
    int n = 0;
    for (int i = 0; gg_backends_auto[i] && n < 32; i++)
        if (gg_backend3d_of(gg_backends_auto[i]))
            names[n++] = gg_backends_auto[i]->name;
    auto3d a = {rule, o, NULL};
    if (gg_auto_choose(names, n, auto_open, &a, line, why, err) < 0)
        return -1;
    *out = a.opened;
    return 0;
}

int64_t gg_backend3d_step_until(gg_backend3d *b, gg_grid3d *g, int64_t gens,
                                gg_stop_flag *stop, gg_err *err)
{
    return b->ops->step_until(b->state, g, b->torus, gens, stop, err);
}

static double clock_s(clockid_t id)
{
    struct timespec ts;
    clock_gettime(id, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

int gg_backend3d_bench(gg_backend3d *b, gg_grid3d *g, int64_t gens,
                       gg_backend_timing *t, gg_err *err)
{
    memset(t, 0, sizeof *t);
    double c0 = clock_s(CLOCK_PROCESS_CPUTIME_ID);
    if (b->ops->timed_step) {
        int bad = b->ops->timed_step(b->state, g, b->torus, gens,
                                     &t->seconds, err);
        t->cpu_seconds = clock_s(CLOCK_PROCESS_CPUTIME_ID) - c0;
        return bad;
    }
    /* one untimed generation: first-touch page faults, thread start-up */
    if (gg_backend3d_step_until(b, g, 1, NULL, err) < 0)
        return -1;
    double t0 = clock_s(CLOCK_MONOTONIC);
    c0 = clock_s(CLOCK_PROCESS_CPUTIME_ID);
    int64_t ran = gg_backend3d_step_until(b, g, gens, NULL, err);
    t->seconds = clock_s(CLOCK_MONOTONIC) - t0;
    t->cpu_seconds = clock_s(CLOCK_PROCESS_CPUTIME_ID) - c0;
    return ran < 0 ? -1 : 0;
}

bool gg_backend3d_on_device(const gg_backend3d *b)
{
    return b->ops->timed_step != NULL;
}

void gg_backend3d_describe(gg_backend3d *b, gg_backend_desc *d)
{
    b->ops->describe(b->state, d);
}

const gg_backend_info *gg_backend3d_table(const gg_backend3d *b)
{
    return b->info;
}

void gg_backend3d_close(gg_backend3d *b)
{
    if (!b)
        return;
    b->ops->close(b->state);
    free(b);
}

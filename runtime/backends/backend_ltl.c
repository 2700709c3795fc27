#include "backend_ltl.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cpu_ltl.h"
#include "cuda_ltl.h"
#include "reference_ltl.h"

extern const gg_backend_info gg_backend_reference, gg_backend_cpu,
    gg_backend_cuda, gg_backend_ptx;

/* ---- cpu: the compiled kernel ---- */

static int cpu_open(const gg_ltl_rule *rule, const gg_backend_opts *o,
                    void **state, gg_fail_kind *why, gg_err *err)
{
    gg_cpu_ltl_opts co = {.isa = o ? o->isa : NULL,
                          .threads = o ? o->threads : 0,
                          .config = o ? o->config : NULL};
    return gg_cpu_ltl_open(rule, &co, (gg_cpu_ltl **)state, why, err);
}

static int64_t cpu_step(void *state, uint8_t *cells, int64_t w, int64_t h,
                        bool torus, int64_t gens, gg_stop_flag *stop,
                        gg_err *err)
{
    (void)stop; /* calls are kept short by the universe's batches */
    return gg_cpu_ltl_step(state, cells, w, h, torus, gens, err) ? -1 : gens;
}

static void cpu_describe(void *state, gg_backend_desc *d)
{
    gg_cpu_ltl *k = state;
    snprintf(d->what, sizeof d->what, "%s", gg_cpu_ltl_isa(k));
    d->threads = gg_cpu_ltl_threads(k);
    d->cache_hit = gg_cpu_ltl_cache_hit(k);
}

static void cpu_close(void *state) { gg_cpu_ltl_close(state); }

static const gg_backend_ltl_info ltl_cpu = {cpu_open, cpu_step,
                                            cpu_describe, cpu_close, true};

/* ---- reference: a generation at a time ---- */

typedef struct ref_state {
    gg_ltl_ref ref;
    uint8_t *next;
    size_t cap;
} ref_state;

static int ref_open(const gg_ltl_rule *rule, const gg_backend_opts *o,
                    void **state, gg_fail_kind *why, gg_err *err)
{
    (void)o;
    *why = GG_FAIL_INPUT;
    ref_state *s = gg_alloc(1, sizeof *s, err, "Larger than Life reference");
    if (!s)
        return -1;
    if (gg_ltl_ref_init(&s->ref, rule, err)) {
        free(s);
        return -1;
    }
    *state = s;
    return 0;
}

static int64_t ref_step(void *state, uint8_t *cells, int64_t w, int64_t h,
                        bool torus, int64_t gens, gg_stop_flag *stop,
                        gg_err *err)
{
    ref_state *s = state;
    size_t n = (size_t)(w * h);
    if (n > s->cap) {
        uint8_t *t = realloc(s->next, n);
        if (!t)
            return gg_fail(err, "out of memory for a %lldx%lld Larger than "
                           "Life grid", (long long)w, (long long)h);
        s->next = t;
        s->cap = n;
    }
    for (int64_t g = 0; g < gens; g++) {
        int rc = gg_ltl_ref_step(&s->ref, cells, s->next, w, h, torus, stop,
                                 err);
        if (rc < 0)
            return -1;
        if (rc > 0) /* stopped: the last whole generation stays */
            return g;
        memcpy(cells, s->next, n);
    }
    return gens;
}

static void ref_describe(void *state, gg_backend_desc *d)
{
    (void)state;
    snprintf(d->what, sizeof d->what, "scalar");
    d->threads = 1;
}

static void ref_close(void *state)
{
    ref_state *s = state;
    gg_ltl_ref_free(&s->ref);
    free(s->next);
    free(s);
}

static const gg_backend_ltl_info ltl_reference = {
    ref_open, ref_step, ref_describe, ref_close, false};

/* ---- cuda and ptx: the CUDA C kernel as a cubin, or as PTX for the
 * driver's JIT (runtime/gpu/cuda_ltl.h) ---- */

static int gpu_open(const gg_ltl_rule *rule, const gg_backend_opts *o,
                    bool ptx, void **state, gg_fail_kind *why, gg_err *err)
{
    gg_cuda_ltl_opts co = {.device = o ? o->device : 0, .ptx = ptx,
                           .config = o ? o->config : NULL};
    return gg_cuda_ltl_open(rule, &co, (gg_cuda_ltl **)state, why, err);
}

static int cuda_open(const gg_ltl_rule *rule, const gg_backend_opts *o,
                     void **state, gg_fail_kind *why, gg_err *err)
{
    return gpu_open(rule, o, false, state, why, err);
}

static int ptx_open(const gg_ltl_rule *rule, const gg_backend_opts *o,
                    void **state, gg_fail_kind *why, gg_err *err)
{
    return gpu_open(rule, o, true, state, why, err);
}

static int64_t gpu_step(void *state, uint8_t *cells, int64_t w, int64_t h,
                        bool torus, int64_t gens, gg_stop_flag *stop,
                        gg_err *err)
{
    return gg_cuda_ltl_step(state, cells, w, h, torus, gens, stop, err);
}

static void gpu_describe(void *state, gg_backend_desc *d)
{
    snprintf(d->what, sizeof d->what, "%s", gg_cuda_ltl_device(state));
    d->threads = 1;
    d->cache_hit = gg_cuda_ltl_cache_hit(state);
}

static void gpu_close(void *state) { gg_cuda_ltl_close(state); }

static const gg_backend_ltl_info ltl_cuda = {cuda_open, gpu_step,
                                             gpu_describe, gpu_close, true};
static const gg_backend_ltl_info ltl_ptx = {ptx_open, gpu_step,
                                            gpu_describe, gpu_close, true};

/* ---- the pairing ---- */

static const struct {
    const gg_backend_info *info;
    const gg_backend_ltl_info *ops;
} runs_ltl[] = {
    {&gg_backend_cpu, &ltl_cpu},
    {&gg_backend_reference, &ltl_reference},
    {&gg_backend_cuda, &ltl_cuda},
    {&gg_backend_ptx, &ltl_ptx},
};

const gg_backend_ltl_info *gg_backend_ltl_of(const gg_backend_info *info)
{
    for (size_t i = 0; i < sizeof runs_ltl / sizeof *runs_ltl; i++)
        if (runs_ltl[i].info == info)
            return runs_ltl[i].ops;
    return NULL;
}

void gg_backend_ltl_names(char *buf, size_t size)
{
    size_t n = 0;
    buf[0] = 0;
    for (int i = 0; gg_backends[i] && n < size; i++)
        if (gg_backend_ltl_of(gg_backends[i]))
            n += (size_t)snprintf(buf + n, size - n, "%s%s", n ? ", " : "",
                                  gg_backends[i]->name);
}

struct gg_backend_ltl {
    const gg_backend_info *info;
    const gg_backend_ltl_info *ops;
    void *state;
};

static int open_one(const gg_backend_info *info, const gg_ltl_rule *rule,
                    const gg_backend_opts *o, gg_backend_ltl **out,
                    gg_fail_kind *why, gg_err *err)
{
    const gg_backend_ltl_info *ops = gg_backend_ltl_of(info);
    if (gg_backend_takes(info, GG_FAMILY_LTL, GG_FEATURE_RUN, err)) {
        *why = GG_FAIL_INPUT;
        return -1;
    }
    gg_backend_ltl *b = gg_alloc(1, sizeof *b, err, "Larger than Life "
                                 "backend");
    if (!b) {
        *why = GG_FAIL_ENV;
        return -1;
    }
    b->info = info;
    b->ops = ops;
    if (ops->open(rule, o, &b->state, why, err)) {
        free(b);
        return -1;
    }
    *out = b;
    return 0;
}

int gg_backend_ltl_open(const gg_backend_info *info, const gg_ltl_rule *rule,
                        const gg_backend_opts *o, gg_backend_ltl **out,
                        char *note, size_t note_size, gg_fail_kind *why,
                        gg_err *err)
{
    *out = NULL;
    if (note && note_size)
        note[0] = 0;
    if (info)
        return open_one(info, rule, o, out, why, err);
    /* auto: the table's auto order, those with LtL entry points, first
     * that opens (a kernel that fails validation never does) */
    size_t n = 0;
    for (int i = 0; gg_backends_auto[i]; i++) {
        if (!gg_backend_ltl_of(gg_backends_auto[i]))
            continue;
        if (!open_one(gg_backends_auto[i], rule, o, out, why, err))
            return 0;
        if (note && n < note_size)
            n += (size_t)snprintf(note + n, note_size - n, "%s%s: %s",
                                  n ? "; " : "", gg_backends_auto[i]->name,
                                  err->msg);
    }
    *why = GG_FAIL_ENV;
    return -1;
}

int64_t gg_backend_ltl_step_until(gg_backend_ltl *b, uint8_t *cells,
                                  int64_t w, int64_t h, bool torus,
                                  int64_t gens, gg_stop_flag *stop,
                                  gg_err *err)
{
    return b->ops->step_until(b->state, cells, w, h, torus, gens, stop, err);
}

void gg_backend_ltl_describe(gg_backend_ltl *b, gg_backend_desc *d)
{
    memset(d, 0, sizeof *d);
    b->ops->describe(b->state, d);
}

bool gg_backend_ltl_batched(const gg_backend_ltl *b)
{
    return b->ops->batched;
}

const gg_backend_info *gg_backend_ltl_table(const gg_backend_ltl *b)
{
    return b->info;
}

void gg_backend_ltl_close(gg_backend_ltl *b)
{
    if (!b)
        return;
    b->ops->close(b->state);
    free(b);
}

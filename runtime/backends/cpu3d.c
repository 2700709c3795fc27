#include "cpu3d.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "choose.h"
#include "emit_c3d.h"
#include "gg_config.h"
#include "jit.h"
#include "net_build.h"
#include "reference3d.h"
#include "synth.h"

/* templates/c3d's ABI 2 */
typedef int (*gg3d_step_fn)(uint64_t *a, uint64_t *b, int64_t sx,
                            int64_t sy, int64_t sz, int64_t stride,
                            int torus, int64_t gens, int threads,
                            gg_stop_flag *stop, int64_t *done);

struct gg_cpu3d {
    gg_rule3d rule;
    gg_jit_lib lib;
    gg3d_step_fn step;
    const char *(*isa)(void);
    int (*max_threads)(void);
    int threads;
    int gates;
    char source[160];
};

int gg_cpu3d_choose_final(const gg_rule3d *rule, gg_net *net, char *source,
                          size_t size, gg_err *err)
{
    gg_tt t;
    gg_c3d_final_tt(rule, &t);
    if (gg_net_build_from_tt(&t, GG_LIB_GATE2, net, err))
        return -1;
    snprintf(source, size, "a decision diagram (gen/circuits/net_build.h)");
#if GG_HAVE_SAT
    gg_synth_result *res = gg_alloc(1, sizeof *res, err, "synthesis result");
    if (!res)
        return -1;
    /* the same bounded work as every uncached 2D rule (sat/choose/choose.h), so
     * every machine emits the same kernel */
    gg_synth_opts so = {.lib = GG_LIB_GATE2,
                        .time_limit = GG_CHOOSE_GUARD_SECONDS,
                        .work_limit = GG_CHOOSE_WORK,
                        .upper = net};
    gg_err e2;
    if (gg_synth_run(&t, &so, res, &e2) == 0 && res->exact &&
        gg_net_check(&res->net, 0, &t, NULL) == 0 &&
        gg_synth_cost(&res->net, GG_LIB_GATE2) <
            gg_synth_cost(net, GG_LIB_GATE2)) {
        *net = res->net;
        snprintf(source, size, "exact synthesis within %d solver work "
                 "(%s)", GG_CHOOSE_WORK,
                 res->proven ? "proven minimal" : "not proven minimal");
    }
    free(res);
#endif
    if (gg_net_check(net, 0, &t, NULL))
        return gg_fail(err, "3D final stage for the rule is wrong; a bug in "
                       "the network builder");
    return 0;
}

/* Odd sizes, word-boundary widths, tiny tori (sides 1 and 2 count a cell
 * more than once) and boxes; 3 generations each. */
static const int64_t vsizes[][4] = {
    /* sx, sy, sz, torus */
    {67, 5, 7, 1},  {67, 5, 7, 0}, {64, 3, 4, 1}, {130, 9, 3, 0},
    {129, 4, 5, 1}, {3, 3, 3, 1},  {1, 2, 3, 1},  {5, 1, 1, 0},
    {2, 6, 2, 1},   {33, 7, 6, 0},
};

static int validate(gg_cpu3d *k, bool *check_failed, gg_err *err)
{
    char rs[256];
    gg_rule3d_format_transition(&k->rule, rs, sizeof rs);
    for (size_t s = 0; s < sizeof vsizes / sizeof vsizes[0]; s++) {
        gg_grid3d a, b;
        if (gg_grid3d_init(&a, vsizes[s][0], vsizes[s][1], vsizes[s][2],
                           err))
            return -1;
        if (gg_grid3d_init(&b, vsizes[s][0], vsizes[s][1], vsizes[s][2],
                           err)) {
            gg_grid3d_free(&a);
            return -1;
        }
        bool torus = vsizes[s][3];
        double dens = s % 2 ? 0.3 : 0.5;
        gg_grid3d_random(&a, dens, 0x3d3d + s);
        memcpy(b.bits, a.bits, (size_t)gg_grid3d_words(&a) * 8);
        int rc = gg_ref3d_run(&k->rule, torus, &a, 3, err);
        if (!rc)
            rc = gg_cpu3d_run(k, &b, torus, 3, err);
        int64_t x, y, z;
        if (!rc && gg_grid3d_first_diff(&a, &b, &x, &y, &z)) {
            *check_failed = true;
            rc = gg_fail(err, "the cpu kernel for %s disagrees with the 3D "
                         "reference on a %lldx%lldx%lld %s soup after 3 "
                         "generations at cell (%lld,%lld,%lld); the kernel "
                         "is not used", rs, (long long)vsizes[s][0],
                         (long long)vsizes[s][1], (long long)vsizes[s][2],
                         torus ? "torus" : "box", (long long)x, (long long)y,
                         (long long)z);
        }
        gg_grid3d_free(&a);
        gg_grid3d_free(&b);
        if (rc)
            return -1;
    }
    return 0;
}

int gg_cpu3d_open(const gg_rule3d *rule, const gg_cpu3d_opts *o,
                  gg_cpu3d **out, bool *check_failed, gg_err *err)
{
    gg_cpu3d_opts def = {0};
    bool cf = false;
    if (!check_failed)
        check_failed = &cf;
    *check_failed = false;
    if (!o)
        o = &def;
    *out = NULL;
    gg_cpu3d *k = gg_alloc(1, sizeof *k, err, "3D kernel");
    if (!k)
        return -1;
    k->rule = *rule;
    k->threads = o->threads;
    gg_net *net = gg_alloc(1, sizeof *net, err, "3D network");
    if (!net) {
        free(k);
        return -1;
    }
    int rc;
    if (o->final) {
        *net = *o->final;
        snprintf(k->source, sizeof k->source, "the caller");
        rc = 0;
    } else
        rc = gg_cpu3d_choose_final(rule, net, k->source, sizeof k->source,
                                   err);
    char *src = NULL;
    size_t len = 0;
    if (!rc) {
        k->gates = gg_net_count(net, (int[GG_OP_COUNT]){0});
        rc = gg_emit_c3d(rule, net, k->source, &src, &len, err);
    }
    free(net);
    if (!rc) {
        const gg_config *cfg = gg_config_or_default(o->config);
        gg_jit_opts jo = {0};
        jo.cc = cfg->cc;
        jo.cache_dir = *cfg->cache_dir ? cfg->cache_dir : NULL;
        rc = gg_jit_load(src, len, &jo, &k->lib, err);
    }
    free(src);
    if (!rc) {
        int (*abi)(void) =
            (int (*)(void))gg_jit_sym(&k->lib, "gg3d_kernel_abi", err);
        k->step = (gg3d_step_fn)gg_jit_sym(&k->lib, "gg3d_kernel_step", err);
        k->isa = (const char *(*)(void))gg_jit_sym(&k->lib,
                                                   "gg3d_kernel_isa", err);
        k->max_threads = (int (*)(void))gg_jit_sym(&k->lib,
                                                   "gg3d_kernel_threads",
                                                   err);
        if (!abi || !k->step || !k->isa || !k->max_threads)
            rc = -1;
        else if (abi() != 2)
            rc = gg_fail(err, "3D kernel ABI %d, expected 2", abi());
    }
    if (!rc)
        rc = validate(k, check_failed, err);
    if (rc) {
        gg_cpu3d_close(k);
        return -1;
    }
    *out = k;
    return 0;
}

int64_t gg_cpu3d_run_until(gg_cpu3d *k, gg_grid3d *g, bool torus,
                           int64_t gens, gg_stop_flag *stop, gg_err *err)
{
    if (gens <= 0)
        return 0;
    gg_grid3d tmp;
    if (gg_grid3d_init(&tmp, g->sx, g->sy, g->sz, err))
        return -1;
    int64_t done = 0;
    int rc = k->step(g->bits, tmp.bits, g->sx, g->sy, g->sz, g->stride,
                     torus ? 1 : 0, gens, k->threads, stop, &done);
    if (rc < 0) {
        gg_grid3d_free(&tmp);
        return gg_fail(err, "3D kernel: out of memory for its plane sums");
    }
    if (rc == 1) {
        uint64_t *t = g->bits;
        g->bits = tmp.bits;
        tmp.bits = t;
    }
    gg_grid3d_free(&tmp);
    return done;
}

int gg_cpu3d_run(gg_cpu3d *k, gg_grid3d *g, bool torus, int64_t gens,
                 gg_err *err)
{
    return gg_cpu3d_run_until(k, g, torus, gens, NULL, err) < 0 ? -1 : 0;
}

const char *gg_cpu3d_isa(const gg_cpu3d *k) { return k->isa(); }
int gg_cpu3d_threads(const gg_cpu3d *k)
{
    return k->threads > 0 ? k->threads : k->max_threads();
}
int gg_cpu3d_final_gates(const gg_cpu3d *k) { return k->gates; }
const char *gg_cpu3d_final_source(const gg_cpu3d *k) { return k->source; }

void gg_cpu3d_close(gg_cpu3d *k)
{
    if (!k)
        return;
    if (k->lib.handle)
        gg_jit_close(&k->lib);
    free(k);
}

/* golgen_bench_ltl (include/golgen.h, golgen_0.4): what `golgen bench`
 * does for a Larger than Life rule, a soup stepped by a backend with LtL
 * entry points (runtime/backends/backend_ltl.h) and timed. */
#include "golgen.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "backend.h"
#include "backend_ltl.h"
#include "config.h"
#include "net_common.h"
#include "rule_ltl.h"

static double wall_now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static double cpu_now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static int fail_code(gg_fail_kind why)
{
    return why == GG_FAIL_ENV       ? GOLGEN_ERR_ENV
           : why == GG_FAIL_INVALID ? GOLGEN_ERR_CHECK
                                    : GOLGEN_ERR_INPUT;
}

/* The soup the header promises, so that a caller can build it too. */
static void soup(uint8_t *cells, size_t n, int64_t seed)
{
    uint64_t s = (uint64_t)seed * 0x9e3779b97f4a7c15ull + 1;
    for (size_t i = 0; i < n; i++) {
        s ^= s << 13;
        s ^= s >> 7;
        s ^= s << 17;
        cells[i] = (uint8_t)(s >> 63);
    }
}

/* The options with their defaults filled in, the rule parsed and the
 * backend opened (auto's passed-over ones in res->auto_note). */
static int open_bench(const char *text, const golgen_bench_opts *opts,
                      golgen_bench_opts *o, gg_ltl_rule *rule,
                      gg_config *cfg, gg_backend_ltl **b,
                      golgen_bench_result *res, gg_err *err)
{
    *o = opts ? *opts : (golgen_bench_opts){0};
    if (!o->gens)
        o->gens = 100;
    if (!text) {
        gg_fail(err, "golgen_bench_ltl: no rule given");
        return GOLGEN_ERR_INPUT;
    }
    if (gg_ltl_parse(text, rule, err))
        return GOLGEN_ERR_INPUT;
    const int64_t side = INT64_C(1) << 20;
    if (o->width < 0 || o->height < 0 || o->width > side ||
        o->height > side || !o->width != !o->height || o->gens < 1 ||
        o->seed < 0 || o->threads < 0) {
        gg_fail(err, "golgen_bench_ltl: width and height 1..1048576 (both "
                "or neither), gens 1.., seed and threads 0..");
        return GOLGEN_ERR_INPUT;
    }
    if (!o->width) { /* the rule's grid, else 1024x1024 */
        o->width = rule->topo == GG_TOPO_UNBOUNDED ? 1024 : rule->width;
        o->height = rule->topo == GG_TOPO_UNBOUNDED ? 1024 : rule->height;
    }
    const gg_backend_info *info = NULL;
    if (o->backend && strcmp(o->backend, "auto") &&
        !(info = gg_backend_find(o->backend, err)))
        return GOLGEN_ERR_INPUT;
    if (gg_config_from_env(cfg, err))
        return GOLGEN_ERR_INPUT;
    gg_backend_opts bo = {.config = cfg, .threads = o->threads,
                          .isa = o->isa};
    gg_fail_kind why = GG_FAIL_INPUT;
    double t0 = wall_now();
    if (gg_backend_ltl_open(info, rule, &bo, b, res->auto_note,
                            sizeof res->auto_note, &why, err))
        return fail_code(why);
    res->open_seconds = wall_now() - t0;
    if (info) /* a note is auto's alone */
        res->auto_note[0] = 0;
    return GOLGEN_OK;
}

/* One untimed warm-up generation, then o->gens timed in one call. */
static int run_bench(gg_backend_ltl *b, const golgen_bench_opts *o,
                     bool torus, golgen_bench_result *res, gg_err *err)
{
    size_t n = (size_t)(o->width * o->height);
    uint8_t *cells = malloc(n);
    if (!cells) {
        gg_fail(err, "out of memory for a %lldx%lld grid",
                (long long)o->width, (long long)o->height);
        return GOLGEN_ERR_INPUT;
    }
    soup(cells, n, o->seed);
    int64_t ran = gg_backend_ltl_step_until(b, cells, o->width, o->height,
                                            torus, 1, NULL, err);
    double c0 = cpu_now(), w0 = wall_now();
    if (ran == 1)
        ran = gg_backend_ltl_step_until(b, cells, o->width, o->height,
                                        torus, o->gens, NULL, err);
    res->seconds = wall_now() - w0;
    res->cpu_seconds = cpu_now() - c0;
    res->population = 0;
    for (size_t i = 0; i < n; i++)
        res->population += cells[i] != 0;
    free(cells);
    return ran < 0 ? GOLGEN_ERR_INPUT : GOLGEN_OK;
}

int golgen_bench_ltl(const char *rule, const golgen_bench_opts *opts,
                     golgen_bench_result *res, char *errbuf, size_t errlen)
{
    gg_err err = {{0}};
    golgen_bench_opts o;
    gg_ltl_rule r;
    gg_config cfg;
    gg_backend_ltl *b;
    if (errbuf && errlen)
        errbuf[0] = 0;
    memset(res, 0, sizeof *res);
    int code = open_bench(rule, opts, &o, &r, &cfg, &b, res, &err);
    if (code)
        return gg_lib_fail(code, &err, errbuf, errlen);
    snprintf(res->backend, sizeof res->backend, "%s",
             gg_backend_ltl_table(b)->name);
    if (o.on_open)
        o.on_open(o.ctx, res);
    bool torus = !o.plane && r.topo != GG_TOPO_PLANE;
    code = run_bench(b, &o, torus, res, &err);
    gg_backend_desc d;
    gg_backend_ltl_describe(b, &d);
    gg_backend_ltl_close(b);
    if (code)
        return gg_lib_fail(code, &err, errbuf, errlen);
    snprintf(res->what, sizeof res->what, "%s", d.what);
    res->threads = d.threads;
    res->kernel_cached = d.cache_hit;
    res->torus = torus;
    res->width = o.width;
    res->height = o.height;
    res->gens = o.gens;
    r.topo = GG_TOPO_UNBOUNDED; /* the size is said apart */
    gg_ltl_format(&r, res->rule, sizeof res->rule);
    return GOLGEN_OK;
}

int golgen_rule_is_ltl(const char *text)
{
    return text && gg_ltl_looks_like(text);
}

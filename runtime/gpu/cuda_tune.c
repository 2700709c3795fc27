/* The CUDA backend's autotuner: the launch shapes it tries per language
 * and rule, the tuning cache's key, the timed soup, and the choice between
 * a given shape (options or GOLGEN_GPU_TUNE), a cached one and a new
 * tune. */
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "cuda_internal.h"
#include "gpu_layout.h"
#include "gpu_tune.h"
#include "emit_cuda.h"
#include "emit_net.h"
#include "emit_ptx.h"
#include "kernel_source.h"

/* The autotuner's launch shapes per language (autotune() says why
 * these). The last of each list, T16 without the 168-register cap (8
 * warps an SM instead of 12), is tried only for kernels whose register
 * ring is heavier than Life's (heavy_ring): capped, their T16 ring spills
 * (on the H100, Maze's 7-LUT rowsum-lr network 3.41e13 capped and 4.05e13
 * not; Life loses 7.5% uncapped; BENCHMARKS.md, session 22). */
static const gg_gpu_tune ptx_candidates[] = {
    {16, 1, 4, 1, 0, 0, 0, 0, 0}, {8, 1, 4, 1, 0, 0, 0, 0, 0},
    {16, 0, 4, 1, 0, 0, 0, 0, 0}, {16, 1, 4, 1, 0, 6, 3, 8, 0},
    {16, 1, 4, 1, 0, 6, 2, 6, 0}, {16, 1, 4, 1, 2, 6, 3, 8, 0},
    {16, 1, 4, 1, 0, 6, 3, 8, 255}};
static const gg_gpu_tune cuda_candidates[] = {
    {16, 1, 4, 1, 0, 6, 2, 6, 0}, {16, 1, 4, 1, 0, 6, 3, 8, 0},
    {16, 1, 4, 1, 0, 6, 1, 8, 0}, {16, 1, 4, 1, 0, 6, 2, 6, 255}};

/* Generations kernels keep a ring of extra planes per level: at T16 and
 * 168 registers they spill (/2/3 1.43e13 on the H100 against 2.37e13 at
 * T8 with the same turn and rows ahead; BENCHMARKS.md, session 11), and
 * uncapped T16 beats T8 (/2/3 3.43e13 against 2.45e13, session 22). */
static const gg_gpu_tune gen_candidates[] = {
    {8, 1, 4, 1, 0, 6, 2, 6, 0}, {8, 1, 4, 1, 0, 3, 1, 0, 0},
    {16, 1, 4, 1, 0, 3, 1, 0, 0}, {16, 1, 4, 1, 0, 6, 2, 6, 255}};

/* More values a level than Life's row sum keeps between ticks: more row
 * features than a row sum's two (rowsum-lr's W and E, Hensel's cells) or
 * a Generations rule's planes. */
static bool heavy_ring(const gg_cuda *c)
{
    gg_kplan plan;
    gg_err ignored;
    if (c->np > 1)
        return true;
    return c->parts.circuit &&
           gg_kplan_build(c->parts.circuit, &plan, &ignored) == 0 &&
           plan.row.n_outputs > 2;
}

static const gg_gpu_tune *candidates(const gg_cuda *c, size_t *n)
{
    const gg_gpu_tune *cand;
    bool ptx = c->o.lang == GG_CUDA_LANG_PTX;
    if (c->np > 1) {
        cand = gen_candidates;
        *n = sizeof gen_candidates / sizeof *gen_candidates;
    } else if (ptx) {
        cand = ptx_candidates;
        *n = sizeof ptx_candidates / sizeof *ptx_candidates;
    } else {
        cand = cuda_candidates;
        *n = sizeof cuda_candidates / sizeof *cuda_candidates;
    }
    if (!heavy_ring(c))
        (*n)--; /* the uncapped shape, last */
    return cand;
}

/* Side of the autotuner's soup (autotune() says why). */
enum { TUNE_SOUP = 32768 };

/* Tuning-cache key: device, rule, language, the template text, the
 * shapes the autotuner tries and its soup (a new candidate or soup means
 * a new tune). */
static uint64_t tune_key(const gg_cuda *c)
{
    char rule[128];
    gg_rule_format_transition(&c->rule, rule, sizeof rule);
    uint64_t h = gg_gpu_hash(0, c->name, strlen(c->name));
    h = gg_gpu_hash(h, rule, strlen(rule));
    h = gg_gpu_hash(h, &c->o.lang, sizeof c->o.lang);
    h = gg_gpu_hash(h, gg_template_cuda_kernel, gg_template_cuda_kernel_len);
    size_t n;
    const gg_gpu_tune *cand = candidates(c, &n);
    h = gg_gpu_hash(h, cand, n * sizeof *cand);
    int side = TUNE_SOUP;
    h = gg_gpu_hash(h, &side, sizeof side);
    return gg_gpu_hash(h, gg_template_ptx_kernel, gg_template_ptx_kernel_len);
}

enum { TUNE_GENS = 128 };

/* The layout of the grid the caller hinted (gg_cuda_opts.width_hint and
 * height_hint); false when none was hinted. */
bool gg_cuda_hinted_layout(const gg_cuda *c, gg_gpu_geom *g)
{
    gg_err ignored;
    return c->o.width_hint > 0 && c->o.height_hint > 0 && !c->given &&
           gg_cuda_layout(c, c->o.width_hint, c->o.height_hint, g,
                          &ignored) == 0;
}

/* The row stride of the module for the hinted grid; 0 when none was
 * hinted or that grid runs the generic module. */
int gg_cuda_hinted_stride(const gg_cuda *c)
{
    gg_gpu_geom g;
    return gg_cuda_hinted_layout(c, &g) ? gg_cuda_wanted_stride(c, &g) : 0;
}

/* The autotuner's soup: TUNE_SOUP^2 cells, as wide as the hinted grid
 * when that is wide (its candidates are then built for the width the run
 * needs: no second build), else square. */
static void tune_soup_size(const gg_cuda *c, int64_t *w, int64_t *h)
{
    int64_t cells = (int64_t)TUNE_SOUP * TUNE_SOUP, hint = c->o.width_hint;
    *w = *h = TUNE_SOUP;
    if (hint >= 4096 && hint <= cells / GG_PTX_KSTRIDE_ROWS &&
        gg_cuda_hinted_stride(c)) {
        *w = hint;
        *h = cells / hint;
    }
}

/* Device seconds of TUNE_GENS generations of the current module on a
 * torus (the better of two runs, after a warm-up launch). */
static int time_candidate(gg_cuda *c, gg_grid *soup, double *sec,
                          gg_err *err)
{
    if (gg_cuda_prepare(c, soup, 0, err) || gg_cuda_upload(c, soup, err) ||
        gg_cuda_run(c, GG_TOPO_TORUS, c->tune.tmax, err))
        return -1;
    *sec = 1e30;
    for (int rep = 0; rep < 2; rep++) {
        double t0 = gg_cuda_now();
        if (gg_cuda_run(c, GG_TOPO_TORUS, TUNE_GENS, err))
            return -1;
        double s = gg_cuda_now() - t0;
        *sec = s < *sec ? s : *sec;
    }
    return 0;
}

/* Measure a few launch shapes on a TUNE_SOUP^2 soup; keep the fastest.
 * Its buffers (128 MiB each) do not fit in L2, as in the runs that
 * matter: at 16384^2 (32 MiB, inside the H100's 50 MB L2) the tuner chose
 * a HighLife shape 1.7% slower at 65536^2 (BENCHMARKS.md, session 6).
 * Both targets try six-tick loop turns (fewer register moves) with rows warmed in L1
 * ahead of their loads, rows loaded 3 or 2 ticks ahead (Life and Seeds
 * like the first, HighLife and Day & Night the second); PTX also the
 * three-tick shapes and once with an eighth of the levels' shifts as
 * multiply-adds, CUDA C rows loaded 1 tick ahead (HighLife's 8-gate
 * final stage spills at 168 registers with 2): the compilers schedule
 * each rule their own way (BENCHMARKS.md, sessions 4-6). Rings heavier
 * than Life's also try T16 without the register cap (candidates()). */
static int autotune(gg_cuda *c, gg_err *err)
{
    gg_grid soup;
    int64_t sw, sh;
    tune_soup_size(c, &sw, &sh);
    if (gg_grid_init(&soup, sw, sh, err))
        return -1;
    gg_grid_random(&soup, 0.5, 7);
    gg_gpu_geom g;
    if (gg_cuda_layout(c, soup.width, soup.height, &g, err)) {
        gg_grid_free(&soup);
        return -1;
    }
    c->kns = gg_cuda_wanted_stride(c, &g); /* one build per candidate */
    size_t n;
    const gg_gpu_tune *cand = candidates(c, &n);
    if (c->o.announce) /* a JIT build per candidate: seconds each */
        fprintf(stderr, "golgen: tuning %zu %s launch shapes on %s (once "
                "per device and rule; cached in %s)\n", n,
                c->o.lang == GG_CUDA_LANG_PTX ? "PTX" : "CUDA C", c->name,
                c->cache_dir);
    double t0 = gg_cuda_now();
    if (c->o.lang != GG_CUDA_LANG_PTX)
        gg_cuda_precompile_cuda(c, cand, n);
    else
        gg_cuda_precompile_ptx(c, cand, n);
    c->phase[GG_PH_COMPILE] = gg_cuda_now() - t0;
    gg_gpu_tune best = cand[0];
    double best_s = 1e30;
    int bad = 0;
    c->tuning = true;
    for (size_t i = 0; !bad && i < n; i++) {
        double s;
        c->tune = cand[i];
        bad = gg_cuda_build(c, NULL, err) || time_candidate(c, &soup, &s, err);
        if (!bad && s < best_s) {
            best_s = s;
            best = cand[i];
        }
    }
    c->tuning = false;
    gg_grid_free(&soup);
    c->tune = best;
    if (!bad && c->o.announce)
        fprintf(stderr, "golgen: chose T%d, %d warps per block, %d-tick "
                "turns, rows %d ahead, warmed %d ahead (%.2f ms per %d "
                "generations of %d^2)\n", best.tmax, best.wpb,
                best.turn == 6 ? 6 : 3,
                gg_gpu_tune_rows_ahead(&best,
                                       c->o.lang == GG_CUDA_LANG_PTX),
                best.warm, best_s * 1e3, TUNE_GENS, TUNE_SOUP);
    if (!bad)
        gg_gpu_tune_save(c->cache_dir, tune_key(c), &best);
    return bad;
}

/* Build the module the caller runs first, once the launch shape is
 * chosen: the one for the hinted width, else the generic one. */
static int build_first(gg_cuda *c, gg_err *err)
{
    c->kns = gg_cuda_hinted_stride(c);
    return gg_cuda_build(c, NULL, err);
}

int gg_cuda_choose_tune(gg_cuda *c, gg_err *err)
{
    /* GOLGEN_GPU_TUNE:
     * "tmax,funnel,wpb[,wpl[,fma[,turn[,pf,warm[,nreg]]]]][,generic]" */
    const char *env = c->cfg->gpu_tune;
    gg_gpu_tune t = c->o.tune;
    if (!t.tmax && env && *env && gg_gpu_tune_parse(env, &t, err))
        return -1;
    if (t.tmax) {
        if (!gg_gpu_tune_ok(&t))
            return gg_fail(err, "launch shape %d,%d,%d,%d,%d,%d,%d,%d,%d: "
                           "generations per launch must be a power of two "
                           "up to %d, warps per block 1..32, words per lane "
                           "1, 2 or 4, multiply-add levels 0..16 "
                           "(sixteenths), ticks per loop turn 3 or 6, rows "
                           "loaded ahead 0..8, rows warmed ahead 0 or "
                           "more than those, up to 8, and registers a "
                           "thread 0 (the default cap) or 64..255",
                           t.tmax, t.funnel, t.wpb, t.wpl, t.fma, t.turn,
                           t.pf, t.warm, t.nreg, GG_GPU_TMAX);
        if (t.wpl < 1 || c->o.lang != GG_CUDA_LANG_PTX)
            t.wpl = 1;
        if (c->o.lang != GG_CUDA_LANG_PTX)
            t.fma = 0;
        if (t.wpl > 1)
            t.funnel = 1;
        c->tune = t;
        return build_first(c, err);
    }
    if (gg_gpu_tune_load(c->cache_dir, tune_key(c), &c->tune))
        return build_first(c, err);
    double t0 = gg_cuda_now();
    int bad = autotune(c, err);
    c->phase[GG_PH_TUNE] += gg_cuda_now() - t0;
    return bad || build_first(c, err) ? -1 : 0;
}

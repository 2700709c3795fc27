#include "cpu_backend.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backend.h"
#include "cpu_table.h"
#include "emit_c.h"
#include "kernel_source.h"
#include "rule_gen.h"
#include "jit.h"
#include "validate.h"
#include "validate_gen.h"

/* A Generations kernel's entry (templates/c/kernel.c.in). */
typedef int (*step_planes_fn)(uint64_t *a, uint64_t *b, int64_t pw,
                              int64_t width, int64_t height, int64_t stride,
                              int torus, int64_t gens, int threads,
                              int tblock, int64_t band);

/* A Generations rule's state planes, contiguous as the kernel takes them:
 * plane p of buffer i at buf[i] + p * pw. */
typedef struct cpu_planes {
    uint64_t *buf[2];
    int cur;       /* the buffer holding the cells */
    int n;         /* planes */
    int64_t width, height, stride, pw;
    gg_gen_cells *cells; /* the uploaded cells (backend table) */
} cpu_planes;

/* The kernels' watched entries (optional: NULL in kernels built before
 * them). */
typedef int (*step_watched_fn)(uint64_t *a, uint64_t *b, int64_t width,
                               int64_t height, int64_t stride, int torus,
                               int64_t gens, int threads, int tblock,
                               int64_t band, const gg_step_watch *w);
typedef int (*step_watched_planes_fn)(uint64_t *a, uint64_t *b, int64_t pw,
                                      int64_t width, int64_t height,
                                      int64_t stride, int torus, int64_t gens,
                                      int threads, int tblock, int64_t band,
                                      const gg_step_watch *w);

struct gg_cpu {
    gg_rule rule;
    gg_rule odd;          /* a pair's rule b (step_pair) */
    gg_kernel_pair_fn step_pair; /* two rules by parity; NULL: one rule */
    gg_cpu_opts opts;
    gg_jit_lib lib;
    gg_kernel_step_fn step;
    step_planes_fn step_planes; /* Generations kernels (planes > 1) */
    step_watched_fn step_watched;
    step_watched_planes_fn step_watched_planes;
    int planes;
    cpu_planes pl;
    const char *(*isa)(void);
    int (*threads)(void);
    gg_kernel_stages stages; /* the networks (none: a kernel from source) */
    gg_grid tmp; /* the second buffer, kept between steps */
    gg_grid *grid; /* the uploaded grid (backend table), stepped in place */
    gg_topo topo;
};

/* A narrower ISA also takes the wider instructions away from the compiler:
 * with -march=native alone, gcc turns an AVX2 path's and/or/xor into
 * AVX-512VL vpternlog on an AVX-512 machine, so the path would not run
 * what an AVX2 machine runs (the flags exist on x86 only). */
#if defined(__x86_64__) || defined(__i386__)
#define GG_NO_AVX512 " -mno-avx512f"
#define GG_NO_AVX2 " -mno-avx2"
#else
#define GG_NO_AVX512 ""
#define GG_NO_AVX2 ""
#endif

int gg_cpu_isa_extra(const char *isa, const char **extra, gg_err *err)
{
    if (!isa || !strcmp(isa, "native") || !strcmp(isa, "avx512"))
        *extra = NULL;
    else if (!strcmp(isa, "avx2"))
        *extra = "-DGG_FORCE_AVX2" GG_NO_AVX512;
    else if (!strcmp(isa, "portable"))
        *extra = "-DGG_FORCE_PORTABLE" GG_NO_AVX512 GG_NO_AVX2;
    else
        return gg_fail(err, "unknown ISA '%s'; use native, avx2 or portable",
                       isa);
    return 0;
}

int gg_cpu_jit_opts(const char *isa, const gg_config *config,
                    const char *cache_dir, gg_jit_opts *jo, gg_err *err)
{
    memset(jo, 0, sizeof *jo);
    if (gg_cpu_isa_extra(isa, &jo->extra, err))
        return -1;
    const gg_config *cfg = gg_config_or_default(config);
    jo->cc = cfg->cc;
    jo->cache_dir = cache_dir ? cache_dir
                    : *cfg->cache_dir ? cfg->cache_dir : NULL;
    return 0;
}

/* What a kernel's stamp says passed: the rule's transition (a kernel and
 * its checks are the same on every topology: a torus run and a plane run
 * must not overwrite each other's stamp) and this check's version (raise
 * it when validation grows, so old stamps no longer count). */
static void validation_tag(const gg_rule *rule, const gg_rule *odd,
                           char *tag, size_t size)
{
    char text[256], b[256];
    gg_rule_format_transition(rule, text, sizeof text);
    if (!odd) {
        snprintf(tag, size, "validated v1 %s", text);
        return;
    }
    gg_rule_format_transition(odd, b, sizeof b);
    snprintf(tag, size, "validated pair v1 %s %s", text, b);
}

static int load_symbols(gg_cpu *c, bool pair, gg_err *err)
{
    int (*abi)(void) = (int (*)(void))gg_jit_sym(&c->lib, "gg_kernel_abi",
                                                 err);
    if (!abi)
        return -1;
    if (abi() != 1)
        return gg_fail(err, "kernel %s has ABI %d, expected 1", c->lib.path,
                       abi());
    int (*planes)(void) = (int (*)(void))gg_jit_sym(&c->lib,
                                                    "gg_kernel_planes", err);
    if (!planes)
        return -1;
    c->planes = planes();
    if (c->planes > 1)
        c->step_planes = (step_planes_fn)gg_jit_sym(
            &c->lib, "gg_kernel_step_planes", err);
    else
        c->step = (gg_kernel_step_fn)gg_jit_sym(&c->lib, "gg_kernel_step",
                                                err);
    gg_err none; /* optional: absent from kernels built before them */
    if (c->planes > 1)
        c->step_watched_planes = (step_watched_planes_fn)gg_jit_sym(
            &c->lib, "gg_kernel_step_watched_planes", &none);
    else
        c->step_watched = (step_watched_fn)gg_jit_sym(
            &c->lib, "gg_kernel_step_watched", &none);
    c->isa = (const char *(*)(void))gg_jit_sym(&c->lib, "gg_kernel_isa", err);
    c->threads = (int (*)(void))gg_jit_sym(&c->lib, "gg_kernel_threads", err);
    if (pair && !(c->step_pair = (gg_kernel_pair_fn)gg_jit_sym(
                      &c->lib, "gg_kernel_step_pair", err)))
        return -1;
    return (c->step || c->step_planes) && c->isa && c->threads ? 0 : -1;
}

/* The kernel validated once for rule (a kernel of one rule) or for the
 * pair rule, odd (two rules by parity). */
static int validate_once(gg_cpu *c, const gg_rule *rule, const gg_rule *odd,
                         gg_err *err)
{
    char tag[600];
    validation_tag(rule, odd, tag, sizeof tag);
    if (gg_jit_stamped(&c->lib, tag))
        return 0;
    /* the cases are small, which threads 0 steps on one thread: two, so
     * that the parallel schedule is checked too (gg_validate_kernel does
     * the same) */
    int threads = c->opts.threads;
    if (threads <= 0)
        c->opts.threads = 2;
    int bad = odd ? gg_validate_pair(rule, odd, c->step_pair, threads,
                                     0x5eed, err)
              : c->step_planes
                  ? gg_validate_gen(rule, gg_cpu_step_cells, c,
                                    "the cpu kernel", 0x5eed, err)
                  : gg_validate_kernel(rule, c->step, threads, 0x5eed, err);
    c->opts.threads = threads;
    if (!bad)
        gg_jit_stamp(&c->lib, tag);
    return bad;
}

/* gg_cpu_open_source, or its pair form where odd is not NULL. */
static int open_source(const gg_rule *rule, const gg_rule *odd,
                       const char *src, size_t len, const gg_cpu_opts *o,
                       gg_cpu **out, gg_fail_kind *why, gg_err *err)
{
    static const gg_cpu_opts defaults;
    gg_jit_opts jo;
    *out = NULL;
    *why = GG_FAIL_INPUT;
    o = o ? o : &defaults;
    if (gg_cpu_jit_opts(o->isa, o->config, o->cache_dir, &jo, err))
        return -1;
    gg_cpu *c = gg_alloc(1, sizeof *c, err, "CPU backend");
    if (!c)
        return -1;
    c->rule = *rule;
    if (odd)
        c->odd = *odd;
    c->opts = *o;
    *why = GG_FAIL_ENV;
    if (gg_jit_load(src, len, &jo, &c->lib, err) ||
        load_symbols(c, odd != NULL, err)) {
        gg_cpu_close(c);
        return -1;
    }
    /* Validation runs on every compile and on a cached .so unless this
     * very file passed it before (its stamp, runtime/backends/jit.h): the check
     * costs 50-90 ms, most of a small run's start. */
    *why = GG_FAIL_INVALID;
    if (c->planes != gg_gen_planes_of(rule)) {
        gg_fail(err, "kernel %s has %d state planes, the rule needs %d",
                c->lib.path, c->planes, gg_gen_planes_of(rule));
        gg_cpu_close(c);
        return -1;
    }
    if (validate_once(c, rule, odd, err)) {
        gg_cpu_close(c);
        return -1;
    }
    *out = c;
    return 0;
}

int gg_cpu_open_source(const gg_rule *rule, const char *src, size_t len,
                       const gg_cpu_opts *o, gg_cpu **out, gg_fail_kind *why,
                       gg_err *err)
{
    return open_source(rule, NULL, src, len, o, out, why, err);
}

int gg_cpu_open_pair_source(const gg_rule *even, const gg_rule *odd,
                            const char *src, size_t len,
                            const gg_cpu_opts *o, gg_cpu **out,
                            gg_fail_kind *why, gg_err *err)
{
    return open_source(even, odd, src, len, o, out, why, err);
}

/* Whether the kernel compiled for isa takes the AVX-512 path, so that it
 * needs no 2-input network: -march=native with the default compiler on a
 * machine with AVX-512F (the template's test). A compiler given by CC may
 * cap the ISA (CI's AVX2 runs do): it gets the full kernel. */
static bool avx512_here(const char *isa, const gg_config *cfg)
{
#if defined(__x86_64__) && defined(__GNUC__)
    return (!isa || !strcmp(isa, "native") || !strcmp(isa, "avx512")) &&
           !(cfg->cc && *cfg->cc) && __builtin_cpu_supports("avx512f");
#else
    (void)isa;
    (void)cfg;
    return false;
#endif
}

/* The kernel from the source gg_kernel_c makes (avx512: its AVX-512
 * form), or gg_kernel_c_pair's where odd is not NULL. */
static int open_made(const gg_rule *rule, const gg_rule *odd,
                     const gg_cpu_opts *o, bool avx512, gg_cpu **out,
                     gg_fail_kind *why, gg_err *err)
{
    char *src;
    size_t len;
    gg_kernel_stages st;
    const gg_config *cfg = gg_config_or_default(o ? o->config : NULL);
    /* the rule is parsed already: what fails here is the circuit's check
     * (a cached network that is rejected), as verify and emit say */
    *why = GG_FAIL_INVALID;
    if (odd ? gg_kernel_c_pair(rule, odd, &cfg->choose, avx512, &src, &len,
                               &st, err)
            : gg_kernel_c_staged(rule, &cfg->choose, avx512, &src, &len, &st,
                                 err))
        return -1;
    int bad = open_source(rule, odd, src, len, o, out, why, err);
    if (!bad)
        (*out)->stages = st;
    free(src);
    return bad;
}

/* gg_cpu_open, or gg_cpu_open_pair where odd is not NULL. */
static int open_rules(const gg_rule *rule, const gg_rule *odd,
                      const gg_cpu_opts *o, gg_cpu **out, gg_fail_kind *why,
                      gg_err *err)
{
    *out = NULL;
    const gg_config *cfg = gg_config_or_default(o ? o->config : NULL);
    if (!avx512_here(o ? o->isa : NULL, cfg))
        return open_made(rule, odd, o, false, out, why, err);
    if (!open_made(rule, odd, o, true, out, why, err))
        return 0;
    /* a compiler that does not target AVX-512 after all stops at the
     * kernel's #error: the full kernel, once */
    return *why == GG_FAIL_ENV ? open_made(rule, odd, o, false, out, why, err)
                               : -1;
}

int gg_cpu_open(const gg_rule *rule, const gg_cpu_opts *o, gg_cpu **out,
                gg_fail_kind *why, gg_err *err)
{
    return open_rules(rule, NULL, o, out, why, err);
}

int gg_cpu_open_pair(const gg_rule *even, const gg_rule *odd,
                     const gg_cpu_opts *o, gg_cpu **out, gg_fail_kind *why,
                     gg_err *err)
{
    return open_rules(even, odd, o, out, why, err);
}

const char *gg_cpu_isa(const gg_cpu *c) { return c->isa(); }

int gg_cpu_threads(const gg_cpu *c)
{
    int n = c->threads();
    return c->opts.threads > 0 && c->opts.threads < n ? c->opts.threads : n;
}

bool gg_cpu_cache_hit(const gg_cpu *c) { return c->lib.cache_hit; }

int gg_cpu_gates_per_word(const gg_cpu *c)
{
    /* the AVX-512 path runs the lut3 network (stage 0), others gate2 */
    bool lut3 = !strcmp(gg_cpu_isa(c), "avx512");
    for (int i = 0; i < c->stages.n; i++)
        if ((c->stages.stage[i].lib == GG_LIB_LUT3) == lut3)
            return c->stages.stage[i].gates_per_word;
    return 0;
}

/* ---- Generations rules: state planes ---- */

static void planes_free(cpu_planes *p)
{
    free(p->buf[0]);
    free(p->buf[1]);
    p->buf[0] = p->buf[1] = NULL;
}

/* Copy cells into the kernel's buffers (sized for them). */
static int planes_upload(gg_cpu *c, gg_gen_cells *cells, gg_err *err)
{
    cpu_planes *p = &c->pl;
    const gg_grid *g0 = &cells->plane[0];
    if (cells->n_planes != c->planes)
        return gg_fail(err, "the cpu kernel has %d state planes, the cells "
                       "%d", c->planes, cells->n_planes);
    int64_t pw = g0->stride * g0->height;
    if (!p->buf[0] || p->width != g0->width || p->height != g0->height) {
        planes_free(p);
        size_t words = (size_t)(pw * c->planes);
        p->buf[0] = gg_alloc(words ? words : 1, 8, err, "state planes");
        p->buf[1] = p->buf[0] ? gg_alloc(words ? words : 1, 8, err,
                                         "state planes")
                              : NULL;
        if (!p->buf[1])
            return -1;
    }
    p->n = c->planes;
    p->width = g0->width;
    p->height = g0->height;
    p->stride = g0->stride;
    p->pw = pw;
    p->cur = 0;
    for (int k = 0; k < p->n; k++)
        memcpy(p->buf[0] + k * pw, cells->plane[k].bits,
               (size_t)pw * sizeof(uint64_t));
    return 0;
}

static void planes_download(const cpu_planes *p, gg_gen_cells *cells)
{
    for (int k = 0; k < p->n; k++)
        memcpy(cells->plane[k].bits, p->buf[p->cur] + k * p->pw,
               (size_t)p->pw * sizeof(uint64_t));
}

static int no_watch(const gg_cpu *c, gg_err *err)
{
    return gg_fail(err, "the cpu kernel %s has no watched step (built "
                   "before it): remove it from the kernel cache",
                   c->lib.path);
}

static int planes_step(gg_cpu *c, gg_topo topo, int64_t gens,
                       const gg_step_watch *w, gg_err *err)
{
    cpu_planes *p = &c->pl;
    if (gens <= 0)
        return 0;
    uint64_t *a = p->buf[p->cur], *b = p->buf[p->cur ^ 1];
    int torus = topo == GG_TOPO_TORUS;
    const gg_cpu_opts *o = &c->opts;
    if (w && !(c->step_planes ? !!c->step_watched_planes : !!c->step_watched))
        return no_watch(c, err);
    /* C = 2 is the two-state kernel, one plane */
    int where =
        w ? (c->step_planes
                 ? c->step_watched_planes(a, b, p->pw, p->width, p->height,
                                          p->stride, torus, gens, o->threads,
                                          o->tblock, o->band, w)
                 : c->step_watched(a, b, p->width, p->height, p->stride,
                                   torus, gens, o->threads, o->tblock,
                                   o->band, w))
        : c->step_planes
            ? c->step_planes(a, b, p->pw, p->width, p->height, p->stride,
                             torus, gens, o->threads, o->tblock, o->band)
            : c->step(a, b, p->width, p->height, p->stride, torus, gens,
                      o->threads, o->tblock, o->band);
    if (where < 0)
        return gg_fail(err, "CPU kernel ran out of memory for its tiles");
    p->cur ^= where;
    return 0;
}

int gg_cpu_step_cells(void *ctx, gg_topo topo, gg_gen_cells *cells,
                      int64_t gens, gg_err *err)
{
    gg_cpu *c = ctx;
    if (planes_upload(c, cells, err) ||
        planes_step(c, topo, gens, NULL, err))
        return -1;
    planes_download(&c->pl, cells);
    return 0;
}

int gg_cpu_step(gg_cpu *c, gg_topo topo, gg_grid *grid, int64_t gens,
                gg_err *err)
{
    return gg_cpu_step_watched(c, topo, grid, gens, NULL, err);
}

/* The grid stepped by one of the kernel's entries: watched (w), from a
 * parity (parity >= 0: a pair's), or plain. */
static int grid_step(gg_cpu *c, gg_topo topo, gg_grid *grid, int64_t gens,
                     const gg_step_watch *w, int parity, gg_err *err)
{
    if (gens <= 0)
        return 0;
    if (w && !c->step_watched)
        return no_watch(c, err);
    if (c->tmp.width != grid->width || c->tmp.height != grid->height) {
        gg_grid_free(&c->tmp);
        if (gg_grid_init(&c->tmp, grid->width, grid->height, err))
            return -1;
    }
    int torus = topo == GG_TOPO_TORUS;
    const gg_cpu_opts *o = &c->opts;
    int where = w ? c->step_watched(grid->bits, c->tmp.bits, grid->width,
                                    grid->height, grid->stride, torus, gens,
                                    o->threads, o->tblock, o->band, w)
                : parity >= 0
                    ? c->step_pair(grid->bits, c->tmp.bits, grid->width,
                                   grid->height, grid->stride, torus, gens,
                                   o->threads, o->tblock, o->band, parity)
                    : c->step(grid->bits, c->tmp.bits, grid->width,
                              grid->height, grid->stride, torus, gens,
                              o->threads, o->tblock, o->band);
    if (where < 0)
        return gg_fail(err, "CPU kernel ran out of memory for its tiles");
    if (where == 1) { /* both buffers come from gg_grid_init: swap them */
        uint64_t *t = grid->bits;
        grid->bits = c->tmp.bits;
        c->tmp.bits = t;
    }
    return 0;
}

int gg_cpu_step_watched(gg_cpu *c, gg_topo topo, gg_grid *grid, int64_t gens,
                        const gg_step_watch *w, gg_err *err)
{
    return grid_step(c, topo, grid, gens, w, -1, err);
}

int gg_cpu_step_pair(gg_cpu *c, gg_topo topo, gg_grid *grid, int64_t gens,
                     int parity, gg_err *err)
{
    if (!c->step_pair)
        return gg_fail(err, "the cpu kernel %s steps one rule, not two by "
                       "parity (gg_cpu_open_pair)", c->lib.path);
    return grid_step(c, topo, grid, gens, NULL, parity & 1, err);
}

static int cpu_stepper_step(void *ctx, const gg_rule *rule, gg_topo topo,
                            gg_grid *grid, int64_t gens, gg_err *err)
{
    gg_cpu *c = ctx;
    if (!gg_rule_same_transition(rule, &c->rule))
        return gg_fail(err, "the CPU kernel was built for another rule");
    return gg_cpu_step(c, topo, grid, gens, err);
}

gg_stepper gg_cpu_stepper(gg_cpu *c)
{
    /* 256: as table_max_batch below */
    gg_stepper s = {.name = "cpu", .step = cpu_stepper_step, .ctx = c,
                    .max_batch = 256};
    return s;
}

void gg_cpu_close(gg_cpu *c)
{
    if (!c)
        return;
    gg_grid_free(&c->tmp);
    planes_free(&c->pl);
    gg_jit_close(&c->lib);
    free(c);
}

/* ---- the backend table (runtime/backends/backend.h) ---- */

static gg_jit_opts jit_opts_of(const gg_backend_opts *o)
{
    gg_jit_opts jo;
    gg_err never; /* the native ISA has no flags to refuse */
    gg_cpu_jit_opts(NULL, o->config, NULL, &jo, &never);
    return jo;
}

/* A cache directory and a compiler that runs: what every first use needs
 * (cached kernels still need the directory). */
static int table_probe(const gg_backend_opts *o, gg_err *err)
{
    gg_jit_opts jo = jit_opts_of(o);
    char dir[4096];
    return gg_jit_cache_dir(&jo, dir, sizeof dir, err) ||
                   gg_jit_probe(&jo, err)
               ? -1
               : 0;
}

static int table_open(const gg_rule *rule, const gg_backend_opts *o,
                      void **state, gg_fail_kind *why, gg_err *err)
{
    gg_cpu_opts co = {0};
    co.isa = o->isa;
    co.threads = o->threads;
    co.config = o->config;
    return open_rules(rule, o->odd_rule, &co, (gg_cpu **)state, why, err);
}

static int table_upload(void *state, gg_grid *grid, gg_topo topo,
                        gg_err *err)
{
    (void)err;
    gg_cpu *c = state;
    c->grid = grid;
    c->topo = topo;
    return 0;
}

static int table_step(void *state, int64_t gens, gg_err *err)
{
    gg_cpu *c = state;
    if (c->pl.cells)
        return planes_step(c, c->topo, gens, NULL, err);
    return gg_cpu_step(c, c->topo, c->grid, gens, err);
}

static int table_step_parity(void *state, int64_t gens, int parity,
                             gg_err *err)
{
    gg_cpu *c = state;
    return gg_cpu_step_pair(c, c->topo, c->grid, gens, parity, err);
}

static int table_step_watched(void *state, int64_t gens,
                              const gg_step_watch *w, gg_err *err)
{
    gg_cpu *c = state;
    if (c->pl.cells)
        return planes_step(c, c->topo, gens, w, err);
    return gg_cpu_step_watched(c, c->topo, c->grid, gens, w, err);
}

static int table_upload_cells(void *state, gg_gen_cells *cells,
                              gg_topo topo, gg_err *err)
{
    gg_cpu *c = state;
    if (planes_upload(c, cells, err))
        return -1;
    c->pl.cells = cells;
    c->topo = topo;
    return 0;
}

static int table_download_cells(void *state, gg_gen_cells *cells,
                                gg_err *err)
{
    (void)err;
    gg_cpu *c = state;
    planes_download(&c->pl, cells);
    c->pl.cells = NULL;
    return 0;
}

static int table_download(void *state, gg_grid *grid, gg_err *err)
{
    (void)grid; /* stepped in place: it holds the cells already */
    (void)err;
    ((gg_cpu *)state)->grid = NULL;
    return 0;
}

/* 256 generations per call: long passes for bounded grids, while an
 * unbounded universe regrows with a margin of at most 257 cells. */
static int64_t table_max_batch(void *state)
{
    (void)state;
    return 256;
}

static void table_describe(void *state, gg_backend_desc *d)
{
    gg_cpu *c = state;
    snprintf(d->what, sizeof d->what, "%s", gg_cpu_isa(c));
    d->threads = gg_cpu_threads(c);
    d->cache_hit = gg_cpu_cache_hit(c);
    d->gates_per_word = gg_cpu_gates_per_word(c);
    d->pass_gens = GG_CPU_PASS_GENS;
}

static void table_close(void *state) { gg_cpu_close(state); }

const gg_backend_info gg_backend_cpu = {
    .name = "cpu",
    .open_table = gg_cpu_table_open_kernel,
    .options = GG_BACKEND_OPT_ISA | GG_BACKEND_OPT_THREADS,
    .probe = table_probe,
    .open = table_open,
    .upload = table_upload,
    .step = table_step,
    .step_watched = table_step_watched,
    .step_parity = table_step_parity,
    .download = table_download,
    .max_batch = table_max_batch,
    .describe = table_describe,
    .close = table_close,
    .upload_cells = table_upload_cells,
    .download_cells = table_download_cells,
};

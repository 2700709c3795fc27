/* The CUDA backend's kernel modules: CUDA C compiled by NVRTC and PTX by
 * ptxas (or the driver's JIT) into the kernel cache, the candidates'
 * side-by-side precompiles for the autotuner, loading and unloading the
 * entries, and which module (generic or constant-stride) a grid gets,
 * validated before its first real run. */
#include <pthread.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "atomic_file.h"
#include "cuda_api.h"
#include "cuda_internal.h"
#include "ptxas.h"
#include "gpu_layout.h"
#include "gpu_validate.h"
#include "emit_cuda.h"
#include "emit_ptx.h"
#include "kernel_source.h"
#include "validate_gen.h"

/* ---- modules ---- */

enum { N_DEFINES = 9 };

/* NVRTC options for the CUDA C template: the launch shape (turn, pf and
 * warm as the PTX target reads them; pf 0: 2; nreg 0: the template's
 * register cap), the row stride as a
 * constant (gg_cuda_module_for) and GOLGEN_CUDA_DEFINE, one more -D for
 * experiments (e.g. -DGG_MAXREG=176). */
static void tune_defines(const gg_gpu_tune *t, int kns, const char *extra,
                         char d[N_DEFINES][48])
{
    if (kns)
        snprintf(d[4], 48, "-DGG_NS=%d", kns);
    else /* a harmless define keeps the option count fixed */
        snprintf(d[4], 48, "-DGG_GENERIC_NS=1");
    int npf = gg_gpu_tune_rows_ahead(t, false);
    snprintf(d[3], 48, "-DGG_PF=%d", npf);
    snprintf(d[0], 48, "-DGG_T=%d", t->tmax);
    snprintf(d[1], 48, "-DGG_SHIFT_IMAD=%d", /* 2: hybrid */
             t->funnel == 2 ? 2 : t->funnel ? 0 : 1);
    snprintf(d[2], 48, "-DGG_WPB=%d", t->wpb);
    snprintf(d[5], 48, "-DGG_TURN=%d", t->turn == 6 ? 6 : 3);
    snprintf(d[6], 48, "-DGG_WARM=%d", t->warm > npf ? t->warm : 0);
    snprintf(d[7], 48, "%s",
             extra && !strncmp(extra, "-D", 2) ? extra : "-DGG_NONE=1");
    if (t->nreg)
        snprintf(d[8], 48, "-DGG_MAXREG=%d", t->nreg);
    else
        snprintf(d[8], 48, "-DGG_TEMPLATE_MAXREG=1");
}

/* A cached module image (cubin), whole; -1 when there is none. */
static int read_image(const char *path, char **img, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return -1;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    *img = n > 0 ? malloc((size_t)n) : NULL;
    bool ok = *img && fread(*img, 1, (size_t)n, f) == (size_t)n;
    fclose(f);
    if (ok) {
        *len = (size_t)n;
        return 0;
    }
    free(*img);
    *img = NULL;
    return -1;
}

int gg_cuda_nvrtc_image(const gg_cuda *c, const char *prefix,
                        const char *src, const char *const *opts, int nopts,
                        char **img, size_t *len, bool *hit, gg_err *err)
{
    char arch[16];
    gg_fail_kind why;
    snprintf(arch, sizeof arch, "sm_%d", c->cc);
    return gg_nvrtc_cached(c->cache_dir, prefix, c->cfg->nvrtc, src, arch,
                           true, opts, nopts, img, len, hit, &why, err);
}

/* The cubin of src at launch shape t (and c's row stride), from the
 * kernel cache or compiled by NVRTC into it; *hit says which. */
static int image_for(const gg_cuda *c, const gg_gpu_tune *t, const char *src,
                     char **img, size_t *len, bool *hit, gg_err *err)
{
    char d[N_DEFINES][48];
    const char *opts[N_DEFINES];
    tune_defines(t, c->kns, c->cfg->cuda_define, d);
    for (int i = 0; i < N_DEFINES; i++)
        opts[i] = d[i];
    return gg_cuda_nvrtc_image(c, "cuda", src, opts, N_DEFINES, img, len,
                               hit, err);
}

static int cuda_image(gg_cuda *c, const char *src, char **img, size_t *len,
                      gg_err *err)
{
    return image_for(c, &c->tune, src, img, len, &c->cache_hit, err);
}

/* One candidate's cubin into the cache (autotune's side-by-side
 * compiles); a failure is left for the timed build to report. */
typedef struct precompile {
    const gg_cuda *c;
    const gg_gpu_tune *t;
    const char *src;
} precompile;

static void *precompile_one(void *arg)
{
    const precompile *p = arg;
    char *img = NULL;
    size_t len;
    bool hit;
    gg_err ignored;
    if (image_for(p->c, p->t, p->src, &img, &len, &hit, &ignored) == 0)
        free(img);
    return NULL;
}

/* NVRTC takes 10-15 s per CUDA C candidate on the H100 host and the tuner
 * times them one by one, so their cubins are compiled side by side first
 * (NVRTC allows concurrent compiles of distinct programs); the timed
 * builds then find them in the cache. (PTX candidates loaded side by
 * side to warm the driver's JIT cache made a first use slower, 21 -> 26
 * s: BENCHMARKS.md, session 9.) */
void gg_cuda_precompile_cuda(const gg_cuda *c, const gg_gpu_tune *cand,
                             size_t n)
{
    enum { MAX_CAND = 8 };
    char *src = NULL;
    size_t len;
    gg_err ignored;
    if (n > MAX_CAND || gg_kernel_cuda_parts(&c->parts, &src, &len, &ignored))
        return;
    pthread_t th[MAX_CAND];
    precompile job[MAX_CAND];
    bool started[MAX_CAND] = {false};
    for (size_t i = 0; i < n; i++) {
        job[i] = (precompile){c, &cand[i], src};
        started[i] = pthread_create(&th[i], NULL, precompile_one,
                                    &job[i]) == 0;
    }
    for (size_t i = 0; i < n; i++)
        if (started[i])
            pthread_join(th[i], NULL);
    free(src);
}

static gg_ptx_opts ptx_opts_for(const gg_cuda *c, const gg_gpu_tune *t);

/* The PTX candidates' cubins into the cache with ptxas, side by side,
 * each at the tuner's row stride and generic (the winner's generic module
 * is the one validated next); without ptxas the driver's JIT builds them
 * one by one as they are timed. */
void gg_cuda_precompile_ptx(const gg_cuda *c, const gg_gpu_tune *cand,
                            size_t n)
{
    enum { MAX_PTX = 16 };
    char ptxas[4200], *src[MAX_PTX] = {NULL};
    char *part[MAX_PTX][GG_PTXAS_PARTS], *jobs[MAX_PTX * GG_PTXAS_PARTS];
    int m = 0, np[MAX_PTX] = {0}, nj = 0;
    gg_err ignored;
    bool hinted = gg_cuda_hinted_stride(c) != 0;
    if (2 * n > MAX_PTX || !gg_ptxas_find(c->cfg->ptxas, ptxas, sizeof ptxas))
        return;
    for (size_t i = 0; i < n; i++) {
        for (int generic = 0; generic < 2; generic++) {
            gg_ptx_opts po = ptx_opts_for(c, &cand[i]);
            if (generic && (!po.kstride || hinted))
                continue; /* a hinted width: its module comes first */
            if (generic)
                po.kstride = 0;
            size_t len;
            if (gg_kernel_ptx_parts(&c->parts, &po, &src[m], &len,
                                    &ignored) == 0) {
                np[m] = gg_ptxas_split(src[m], part[m]);
                m++;
            }
        }
    }
    /* the longest parts of every module first: they bound the wave */
    for (int k = 0; k < GG_PTXAS_PARTS; k++)
        for (int i = 0; i < m; i++)
            if (k < np[i])
                jobs[nj++] = part[i][k];
    gg_ptxas_compile(ptxas, c->cache_dir, c->cc, (const char *const *)jobs,
                     nj, &ignored);
    for (int i = 0; i < m; i++) {
        for (int k = 0; k < np[i]; k++)
            free(part[i][k]);
        free(src[i]);
    }
}

/* Entry name of whichever loaded module has it. */
static int entry(gg_cuda *c, const char *name, CUfunction *f, gg_err *err)
{
    CUresult r = 1;
    for (int i = 0; i < c->n_mod && r; i++)
        r = c->cu.cuModuleGetFunction(f, c->mod[i], name);
    return gg_cuda_check(c, r, name, err);
}

/* Load the n module images (of len[i] bytes) that together hold the
 * kernel's entries; c->image_hash becomes their bytes' hash (what a
 * validation stamp names). */
static int load_images(gg_cuda *c, const void *const *img,
                       const size_t *len, int n, gg_err *err)
{
    char log[1024] = "";
    int opt[2] = {GG_CU_JIT_ERROR_LOG_BUFFER,
                  GG_CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES};
    void *val[2] = {log, (void *)(size_t)sizeof log};
    gg_cuda_unload(c);
    c->image_hash = gg_gpu_hash(0, &n, sizeof n);
    for (int i = 0; i < n; i++) {
        c->image_hash = gg_gpu_hash(c->image_hash, &len[i], sizeof len[i]);
        c->image_hash = gg_gpu_hash(c->image_hash, img[i], len[i]);
    }
    for (int i = 0; i < n; i++) {
        CUresult r = c->cu.cuModuleLoadDataEx(&c->mod[i], img[i], 2, opt,
                                              val);
        if (r) {
            gg_cuda_unload(c);
            return gg_fail(err, "the CUDA driver refused the kernel module "
                           "(error %d): %.400s", r, log);
        }
        c->n_mod = i + 1;
    }
    char name[32];
    for (int i = 0; i < N_ENTRIES && (1 << i) <= c->tune.tmax; i++) {
        snprintf(name, sizeof name, "gg_step_%d", 1 << i);
        if (entry(c, name, &c->step[i], err))
            return -1;
    }
    return entry(c, "gg_ghost", &c->ghost, err);
}

static int load_module(gg_cuda *c, const void *img, size_t len, gg_err *err)
{
    return load_images(c, &img, &len, 1, err);
}

/* A PTX module: its cubin from the kernel cache, compiled into it by
 * ptxas when missing (runtime/gpu/ptxas.h); else, or when the driver refuses
 * that cubin (a ptxas newer than the driver), the driver's JIT. */
/* The cached cubins of the parts not read yet into img; how many of the
 * n parts are read. */
static int read_parts(const gg_cuda *c, char *const *part, int n, void **img,
                      size_t *len)
{
    char path[4200];
    int have = 0;
    for (int i = 0; i < n; i++) {
        if (!img[i]) {
            gg_ptxas_cubin_path(c->cache_dir, c->cc, part[i], path,
                                sizeof path);
            read_image(path, (char **)&img[i], &len[i]);
        }
        have += img[i] != NULL;
    }
    return have;
}

static int load_ptx(gg_cuda *c, const char *ptx, gg_err *err)
{
    char ptxas[4200], *part[GG_PTXAS_PARTS];
    void *img[GG_PTXAS_PARTS] = {NULL};
    size_t len[GG_PTXAS_PARTS] = {0};
    gg_err ignored;
    int n = gg_ptxas_split(ptx, part), bad = -1;
    int have = read_parts(c, part, n, img, len);
    c->cache_hit = n && have == n;
    if (n && have < n && gg_ptxas_find(c->cfg->ptxas, ptxas, sizeof ptxas)) {
        gg_ptxas_compile(ptxas, c->cache_dir, c->cc,
                         (const char *const *)part, n, &ignored);
        have = read_parts(c, part, n, img, len);
    }
    if (n && have == n)
        bad = load_images(c, (const void *const *)img, len, n, &ignored);
    for (int i = 0; i < n; i++) {
        free(img[i]);
        free(part[i]);
    }
    /* the driver's JIT: the text, its NUL too, is the image */
    return bad ? load_module(c, ptx, strlen(ptx) + 1, err) : 0;
}

/* Occupancy of the main kernel: the cost model's wave size. */
static int measure_kernel(gg_cuda *c, gg_err *err)
{
    int top = 0, blocks = 0;
    while ((2 << top) <= c->tune.tmax)
        top++;
    if (gg_cuda_check(c, c->cu.cuFuncGetAttribute(&c->regs, GG_CU_FUNC_NUM_REGS,
                                             c->step[top]),
                 "cuFuncGetAttribute", err) ||
        gg_cuda_check(c, c->cu.cuOccupancyMaxActiveBlocksPerMultiprocessor(
                        &blocks, c->step[top], c->tune.wpb * 32, 0),
                 "occupancy query", err))
        return -1;
    c->resident = (int64_t)blocks * c->tune.wpb * c->sms;
    return 0;
}

void gg_cuda_unload(gg_cuda *c)
{
    for (int i = 0; i < c->n_mod; i++)
        c->cu.cuModuleUnload(c->mod[i]);
    c->n_mod = 0;
    memset(c->step, 0, sizeof c->step);
}

/* The PTX emitter's options for launch shape t at c's row stride. */
static gg_ptx_opts ptx_opts_for(const gg_cuda *c, const gg_gpu_tune *t)
{
    gg_ptx_opts po = gg_ptx_tuned(t->tmax, t->funnel != 0, t->wpb, t->wpl);
    po.fma = t->fma;
    po.turn = t->turn;
    if (t->pf)
        po.prefetch = t->pf;
    po.warm = t->warm;
    if (t->nreg)
        po.maxnreg = t->nreg;
    po.kstride = c->kns;
    return po;
}

/* Build and load the module for c->tune from source (CUDA C or PTX; NULL:
 * emit the rule's). */
int gg_cuda_build(gg_cuda *c, const char *given, gg_err *err)
{
    char *src = NULL, *img = NULL;
    size_t len = 0;
    int bad;
    double t0 = gg_cuda_now();
    c->cache_hit = false;
    c->kns_valid = false;
    gg_cuda_unload(c);
    if (c->o.lang == GG_CUDA_LANG_PTX) {
        gg_ptx_opts po = ptx_opts_for(c, &c->tune);
        bad = !given && gg_kernel_ptx_parts(&c->parts, &po, &src, &len, err);
        if (!bad)
            bad = load_ptx(c, given ? given : src, err);
    } else {
        bad = !given && gg_kernel_cuda_parts(&c->parts, &src, &len, err);
        if (!bad)
            bad = cuda_image(c, given ? given : src, &img, &len, err) ||
                  load_module(c, img, len, err);
    }
    free(src);
    free(img);
    bad = bad || measure_kernel(c, err);
    if (!c->tuning) { /* the tuner's builds count as tuning */
        c->phase[GG_PH_BUILD] += gg_cuda_now() - t0;
        c->builds++;
    }
    return bad ? -1 : 0;
}

/* Words per lane of the loaded kernel (only the PTX target has more than
 * one). */
static int words_per_lane(const gg_cuda *c)
{
    return c->o.lang == GG_CUDA_LANG_PTX && c->tune.wpl > 1 ? c->tune.wpl
                                                             : 1;
}

/* The device layout of a grid (geometry without the plan). */
int gg_cuda_layout(const gg_cuda *c, int64_t width, int64_t height,
                  gg_gpu_geom *g, gg_err *err)
{
    if (gg_gpu_geom_init(g, width, height, err))
        return -1;
    gg_gpu_geom_windows(g, words_per_lane(c));
    gg_gpu_geom_ghost_rows(g, words_per_lane(c), GG_GPU_GHOST_TOP,
                           GG_GPU_GHOST_BOTTOM);
    return 0;
}

/* The row stride the module should have as a constant for a grid of
 * layout g: big grids get their own (rows at constant offsets from two
 * pointers per loop turn: no per-row address arithmetic, BENCHMARKS.md
 * session 5), small ones the generic module; GOLGEN_GPU_TUNE=generic or
 * SHAPE,generic (config gpu_kstride false) keeps the generic one always. */
int gg_cuda_wanted_stride(const gg_cuda *c, const gg_gpu_geom *g)
{
    /* Generations kernels keep the generic module: the constant-stride
     * one's validation at its width (gg_gpu_validate_width) is two-state */
    if (c->given || words_per_lane(c) > 1 || !c->cfg->gpu_kstride ||
        c->np > 1 ||
        g->ns > GG_PTX_KSTRIDE_MAX)
        return 0;
    return g->height >= GG_PTX_KSTRIDE_ROWS || c->checking == g->ns ? g->ns
                                                                     : 0;
}

/* ---- validation stamps ----
 *
 * Checking a module against the reference costs more than the rest of an
 * open once its cubin is cached (at 131072 cells wide, six reference runs
 * of 131072 x 80..200 cells: 0.3-1.3 s on H200 hosts, against 0.12 s for
 * the context and 0.02 s for the module's load; BENCHMARKS.md, sessions
 * 27 and 28). A module that passed its cases leaves a stamp in the
 * kernel cache, and a later open of the same module skips them. The
 * stamp's name hashes everything the verdict depends on: the bytes of the
 * loaded images (a cubin rebuilt, changed or damaged in the cache is
 * another module), the device (its name, compute capability and
 * multiprocessors) and driver version (PTX is JIT-compiled by the
 * driver), the rule, the cases (gg_gpu_validate_key, their seeds) and
 * which check (the generic cases, or one width's). A module that failed
 * gets no stamp and is checked, and refused, at every open. */
#define STAMP_FORMAT "golgen validation stamp 1"

static void stamp_path(const gg_cuda *c, int64_t width, char *path,
                       size_t size)
{
    char rule[128];
    int driver = 0;
    struct {
        uint64_t image, cases;
        int64_t width;
        int driver, np, lang, seed;
    } k;
    memset(&k, 0, sizeof k);
    c->cu.cuDriverGetVersion(&driver);
    gg_rule_format_transition(&c->rule, rule, sizeof rule);
    k.image = c->image_hash;
    k.cases = c->np > 1 ? gg_validate_gen_key() : gg_gpu_validate_key();
    k.width = width; /* 0: the generic cases */
    k.driver = driver;
    k.np = c->np;
    k.lang = (int)c->o.lang;
    k.seed = width ? 4242 : 12345;
    uint64_t h = gg_gpu_hash(0, STAMP_FORMAT, sizeof STAMP_FORMAT);
    h = gg_gpu_hash(h, &k, sizeof k);
    h = gg_gpu_hash(h, c->name, strlen(c->name));
    h = gg_gpu_hash(h, rule, strlen(rule));
    snprintf(path, size, "%s/valid-%016llx.txt", c->cache_dir,
             (unsigned long long)h);
}

/* Whether the loaded module passed these cases before: its stamp is in
 * the cache and says what it was made for. */
static bool stamped(const gg_cuda *c, int64_t width)
{
    char path[4200], line[64] = "";
    if (c->given)
        return false; /* a caller's source: checked at every open */
    stamp_path(c, width, path, sizeof path);
    FILE *f = fopen(path, "r");
    if (!f)
        return false;
    bool ok = fgets(line, sizeof line, f) &&
              !strncmp(line, STAMP_FORMAT, strlen(STAMP_FORMAT));
    fclose(f);
    return ok;
}

/* The loaded module passed: its stamp (a cache miss next time at worst). */
static void stamp(const gg_cuda *c, int64_t width)
{
    char path[4200], rule[128], text[1024];
    gg_atomic_file af;
    gg_err ignored;
    if (c->given)
        return;
    stamp_path(c, width, path, sizeof path);
    gg_rule_format_transition(&c->rule, rule, sizeof rule);
    int n = snprintf(text, sizeof text,
                     STAMP_FORMAT "\nrule %s\ndevice %s\nimage %016llx\n"
                     "cases %s %lld\n", rule, c->name,
                     (unsigned long long)c->image_hash,
                     width ? "width" : "generic", (long long)width);
    if (n > 0 && (size_t)n < sizeof text &&
        !gg_atomic_open_lazy(path, &af, &ignored) &&
        !gg_atomic_write(&af, text, (size_t)n, &ignored))
        gg_atomic_commit(&af, &ignored);
}

/* The generic module's validation cases (every width and remainder; a
 * Generations kernel's own), before its first real run: at open, or later
 * when a caller that hinted a wide grid (gg_cuda_opts.width_hint) first
 * steps a small one. */
int gg_cuda_validate_generic(gg_cuda *c, gg_err *err)
{
    if (stamped(c, 0)) {
        c->generic_valid = true;
        c->stamps++;
        return 0;
    }
    double t0 = gg_cuda_now();
    c->checking_generic = true;
    int bad = c->np > 1
                  ? gg_validate_gen(&c->rule, gg_cuda_step_cells, c,
                                    c->o.lang == GG_CUDA_LANG_PTX
                                        ? "the PTX kernel"
                                        : "the CUDA kernel",
                                    12345, err)
                  : gg_gpu_validate(&c->rule, gg_cuda_step_strip, c, 12345,
                                    err);
    c->checking_generic = false;
    c->generic_valid = !bad;
    c->phase[GG_PH_VALIDATE] += gg_cuda_now() - t0;
    if (!bad)
        stamp(c, 0);
    return bad;
}

/* Load the module g's grid wants; a module with a constant stride runs
 * only after it passed the validation cases of that width. */
int gg_cuda_module_for(gg_cuda *c, const gg_gpu_geom *g, gg_err *err)
{
    int want = gg_cuda_wanted_stride(c, g);
    if (want != c->kns) {
        c->kns = want;
        if (gg_cuda_build(c, NULL, err))
            return -1;
    }
    /* The autotuner's timing runs keep no cells, so its candidates go
     * unchecked here; the winner is rebuilt (kns_valid false) and so
     * validated at its width before its first real run. */
    if (c->checking || c->checking_generic || c->tuning)
        return 0;
    if (!want)
        return c->generic_valid ? 0 : gg_cuda_validate_generic(c, err);
    if (c->kns_valid)
        return 0;
    if (stamped(c, g->width)) {
        c->kns_valid = true;
        c->stamps++;
        return 0;
    }
    c->checking = want;
    double t0 = gg_cuda_now();
    int bad = gg_gpu_validate_width(&c->rule, gg_cuda_step_strip, c, 4242,
                                    g->width, err);
    c->phase[GG_PH_WIDTH] += gg_cuda_now() - t0;
    c->checking = 0;
    c->kns_valid = !bad;
    if (!bad)
        stamp(c, g->width);
    return bad;
}

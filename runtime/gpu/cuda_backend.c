#include "cuda_backend.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "atomic_file.h"
#include "backend.h"
#include "cuda_api.h"
#include "cuda_device.h"
#include "cuda_internal.h"
#include "ptxas.h"
#include "gpu_layout.h"
#include "gpu_validate.h"
#include "emit_cuda.h"
#include "emit_net.h"
#include "emit_ptx.h"
#include "kernel_source.h"
#include "rule_gen.h"
#include "validate_gen.h"

#if defined(__SANITIZE_ADDRESS__)
#include <sanitizer/lsan_interface.h>
/* NVRTC keeps internal allocations past nvrtcDestroyProgram that
 * LeakSanitizer reports as leaks of an unknown module; they are not
 * golgen's, so its calls run with leak tracking off. */
#define GG_LSAN_OFF() __lsan_disable()
#define GG_LSAN_ON() __lsan_enable()
#else
#define GG_LSAN_OFF() ((void)0)
#define GG_LSAN_ON() ((void)0)
#endif

/* ---- loading the libraries ---- */

static int load_nvrtc(gg_nvrtc_api *nv, const char *given, gg_err *err)
{
    const char *const libs[] = {
        given, "libnvrtc.so", "libnvrtc.so.13", "libnvrtc.so.12",
        "libnvrtc.so.11.2", "/usr/local/cuda/lib64/libnvrtc.so",
        "/usr/local/cuda/lib64/libnvrtc.so.13",
        "/usr/local/cuda/lib64/libnvrtc.so.12"};
    static const char *const names[] = {
        "nvrtcVersion", "nvrtcCreateProgram", "nvrtcCompileProgram",
        "nvrtcGetProgramLogSize", "nvrtcGetProgramLog", "nvrtcGetPTXSize",
        "nvrtcGetPTX", "nvrtcGetCUBINSize", "nvrtcGetCUBIN",
        "nvrtcDestroyProgram", "nvrtcGetErrorString"};
    memset(nv, 0, sizeof *nv);
    nv->lib = gg_cu_open_first(libs, (int)(sizeof libs / sizeof *libs));
    if (!nv->lib)
        return gg_fail(err, "NVRTC (libnvrtc.so) not found: install the "
                       "CUDA toolkit or set GOLGEN_NVRTC to the library");
    const char *miss = gg_cu_resolve(nv->lib, names, &nv->nvrtcVersion,
                               (int)(sizeof names / sizeof *names));
    if (miss) {
        dlclose(nv->lib);
        return gg_fail(err, "NVRTC lacks %s (older than CUDA 11.1?)", miss);
    }
    return 0;
}

/* Check a driver call; the message names the call and the error. */
int gg_cuda_check(const gg_cuda *c, CUresult r, const char *what,
                  gg_err *err)
{
    return gg_cu_check(&c->cu, r, what, err);
}

/* ---- NVRTC ---- */

static int nvrtc_log_fail(gg_nvrtc_api *nv, nvrtcProgram p, gg_err *err)
{
    size_t n = 0;
    char log[400] = "";
    if (!nv->nvrtcGetProgramLogSize(p, &n) && n > 1) {
        char *full = malloc(n);
        if (full && !nv->nvrtcGetProgramLog(p, full))
            snprintf(log, sizeof log, "%s", full);
        free(full);
    }
    return gg_fail(err, "NVRTC could not compile the kernel: %s", log);
}

static int nvrtc_result(gg_nvrtc_api *nv, nvrtcProgram p, bool cubin,
                        char **out, size_t *len, gg_err *err)
{
    size_t n = 0;
    int r = cubin ? nv->nvrtcGetCUBINSize(p, &n) : nv->nvrtcGetPTXSize(p, &n);
    if (r || n == 0)
        return gg_fail(err, "NVRTC gave no %s (error %d)",
                       cubin ? "cubin" : "PTX", r);
    *out = malloc(n + 1);
    if (!*out)
        return gg_fail(err, "out of memory for the compiled kernel");
    r = cubin ? nv->nvrtcGetCUBIN(p, *out) : nv->nvrtcGetPTX(p, *out);
    if (r) {
        free(*out);
        *out = NULL;
        return gg_fail(err, "NVRTC could not hand over the kernel (error %d)",
                       r);
    }
    (*out)[n] = 0;
    *len = n;
    return 0;
}

int gg_nvrtc_compile(const char *nvrtc_lib, const char *src,
                     const char *arch, bool cubin,
                     const char *const *opts, int nopts, char **out,
                     size_t *len, gg_fail_kind *why, gg_err *err)
{
    gg_nvrtc_api nv;
    *why = GG_FAIL_ENV;
    GG_LSAN_OFF(); /* from dlopen on: NVRTC's constructors allocate too */
    if (load_nvrtc(&nv, nvrtc_lib, err)) {
        GG_LSAN_ON();
        return -1;
    }
    const char *all[24];
    char archopt[64];
    int n = 0;
    snprintf(archopt, sizeof archopt, "-arch=%s", arch);
    all[n++] = archopt;
    all[n++] = "-std=c++14";
    for (int i = 0; i < nopts && n < 24; i++)
        all[n++] = opts[i];
    nvrtcProgram p;
    int bad = 0;
    if (nv.nvrtcCreateProgram(&p, src, "golgen_kernel.cu", 0, NULL, NULL)) {
        bad = gg_fail(err, "NVRTC could not create a program");
    } else {
        if (nv.nvrtcCompileProgram(p, n, all))
            bad = nvrtc_log_fail(&nv, p, err);
        else
            bad = nvrtc_result(&nv, p, cubin, out, len, err);
        nv.nvrtcDestroyProgram(&p);
    }
    dlclose(nv.lib);
    GG_LSAN_ON();
    return bad ? -1 : 0;
}

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

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

/* The cubin of src at launch shape t (and c's row stride), from the
 * kernel cache or compiled by NVRTC into it; *hit says which. */
static int image_for(const gg_cuda *c, const gg_gpu_tune *t, const char *src,
                     char **img, size_t *len, bool *hit, gg_err *err)
{
    char d[N_DEFINES][48], arch[16], path[4200];
    const char *opts[N_DEFINES];
    *hit = false;
    tune_defines(t, c->kns, c->cfg->cuda_define, d);
    for (int i = 0; i < N_DEFINES; i++)
        opts[i] = d[i];
    snprintf(arch, sizeof arch, "sm_%d", c->cc);
    uint64_t h = gg_gpu_hash(0, src, strlen(src));
    for (int i = 0; i < N_DEFINES; i++)
        h = gg_gpu_hash(h, d[i], strlen(d[i]));
    h = gg_gpu_hash(h, arch, strlen(arch));
    snprintf(path, sizeof path, "%s/cuda-%016llx.cubin", c->cache_dir,
             (unsigned long long)h);
    if (read_image(path, img, len) == 0) {
        *hit = true;
        return 0;
    }
    gg_fail_kind why;
    if (gg_nvrtc_compile(c->cfg->nvrtc, src, arch, true, opts, N_DEFINES,
                         img, len, &why, err))
        return -1;
    gg_atomic_file af;
    gg_err ignored;
    if (!gg_atomic_open(path, &af, &ignored) &&
        !gg_atomic_write(&af, *img, *len, &ignored))
        gg_atomic_commit(&af, &ignored); /* a cache miss next time at worst */
    return 0;
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
static void precompile_candidates(const gg_cuda *c, const gg_gpu_tune *cand,
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
static int hinted_stride(const gg_cuda *c);

/* The PTX candidates' cubins into the cache with ptxas, side by side,
 * each at the tuner's row stride and generic (the winner's generic module
 * is the one validated next); without ptxas the driver's JIT builds them
 * one by one as they are timed. */
static void precompile_ptx(const gg_cuda *c, const gg_gpu_tune *cand,
                           size_t n)
{
    enum { MAX_PTX = 16 };
    char ptxas[4200], *src[MAX_PTX] = {NULL};
    char *part[MAX_PTX][GG_PTXAS_PARTS], *jobs[MAX_PTX * GG_PTXAS_PARTS];
    int m = 0, np[MAX_PTX] = {0}, nj = 0;
    gg_err ignored;
    bool hinted = hinted_stride(c) != 0;
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

static void unload(gg_cuda *c);

/* Entry name of whichever loaded module has it. */
static int entry(gg_cuda *c, const char *name, CUfunction *f, gg_err *err)
{
    CUresult r = 1;
    for (int i = 0; i < c->n_mod && r; i++)
        r = c->cu.cuModuleGetFunction(f, c->mod[i], name);
    return gg_cuda_check(c, r, name, err);
}

/* Load the n module images that together hold the kernel's entries. */
static int load_images(gg_cuda *c, const void *const *img, int n,
                       gg_err *err)
{
    char log[1024] = "";
    int opt[2] = {GG_CU_JIT_ERROR_LOG_BUFFER,
                  GG_CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES};
    void *val[2] = {log, (void *)(size_t)sizeof log};
    unload(c);
    for (int i = 0; i < n; i++) {
        CUresult r = c->cu.cuModuleLoadDataEx(&c->mod[i], img[i], 2, opt,
                                              val);
        if (r) {
            unload(c);
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

static int load_module(gg_cuda *c, const void *img, gg_err *err)
{
    return load_images(c, &img, 1, err);
}

/* A PTX module: its cubin from the kernel cache, compiled into it by
 * ptxas when missing (runtime/gpu/ptxas.h); else, or when the driver refuses
 * that cubin (a ptxas newer than the driver), the driver's JIT. */
/* The cached cubins of the parts not read yet into img; how many of the
 * n parts are read. */
static int read_parts(const gg_cuda *c, char *const *part, int n, void **img)
{
    char path[4200];
    size_t len;
    int have = 0;
    for (int i = 0; i < n; i++) {
        if (!img[i]) {
            gg_ptxas_cubin_path(c->cache_dir, c->cc, part[i], path,
                                sizeof path);
            read_image(path, (char **)&img[i], &len);
        }
        have += img[i] != NULL;
    }
    return have;
}

static int load_ptx(gg_cuda *c, const char *ptx, gg_err *err)
{
    char ptxas[4200], *part[GG_PTXAS_PARTS];
    void *img[GG_PTXAS_PARTS] = {NULL};
    gg_err ignored;
    int n = gg_ptxas_split(ptx, part), bad = -1;
    int have = read_parts(c, part, n, img);
    c->cache_hit = n && have == n;
    if (n && have < n && gg_ptxas_find(c->cfg->ptxas, ptxas, sizeof ptxas)) {
        gg_ptxas_compile(ptxas, c->cache_dir, c->cc,
                         (const char *const *)part, n, &ignored);
        have = read_parts(c, part, n, img);
    }
    if (n && have == n)
        bad = load_images(c, (const void *const *)img, n, &ignored);
    for (int i = 0; i < n; i++) {
        free(img[i]);
        free(part[i]);
    }
    return bad ? load_module(c, ptx, err) : 0;
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

static void unload(gg_cuda *c)
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
static int build(gg_cuda *c, const char *given, gg_err *err)
{
    char *src = NULL, *img = NULL;
    size_t len = 0;
    int bad;
    double t0 = now();
    c->cache_hit = false;
    c->kns_valid = false;
    unload(c);
    if (c->o.lang == GG_CUDA_LANG_PTX) {
        gg_ptx_opts po = ptx_opts_for(c, &c->tune);
        bad = !given && gg_kernel_ptx_parts(&c->parts, &po, &src, &len, err);
        if (!bad)
            bad = load_ptx(c, given ? given : src, err);
    } else {
        bad = !given && gg_kernel_cuda_parts(&c->parts, &src, &len, err);
        if (!bad)
            bad = cuda_image(c, given ? given : src, &img, &len, err) ||
                  load_module(c, img, err);
    }
    free(src);
    free(img);
    bad = bad || measure_kernel(c, err);
    if (!c->tuning) { /* the tuner's builds count as tuning */
        c->phase[GG_PH_BUILD] += now() - t0;
        c->builds++;
    }
    return bad ? -1 : 0;
}

/* ---- device buffers and stepping ---- */

void gg_cuda_free_buffers(gg_cuda *c)
{
    for (int i = 0; i < 2; i++)
        if (c->buf[i])
            c->cu.cuMemFree(c->buf[i]);
    c->buf[0] = c->buf[1] = 0;
}

/* Words per lane of the loaded kernel (only the PTX target has more than
 * one). */
static int words_per_lane(const gg_cuda *c)
{
    return c->o.lang == GG_CUDA_LANG_PTX && c->tune.wpl > 1 ? c->tune.wpl
                                                             : 1;
}

/* Device buffers for grid's size, zeroed (ghosts of the plane stay 0),
 * with the ghost rows and row padding that both kernels read away from
 * plane edges. */
static int step_strip(void *ctx, gg_topo topo, gg_grid *grid, int64_t gens,
                      int strip, gg_err *err);

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

/* Grids of at least this many rows get a module (PTX or CUDA C) with
 * their row stride as a constant (the validation cases have fewer). */
#define GG_PTX_KSTRIDE_ROWS 512

/* The row stride the module should have as a constant for a grid of
 * layout g: big grids get their own (rows at constant offsets from two
 * pointers per loop turn: no per-row address arithmetic, BENCHMARKS.md
 * session 5), small ones the generic module; GOLGEN_GPU_KSTRIDE=0
 * (config gpu_kstride false) keeps the generic one always. */
static int wanted_stride(const gg_cuda *c, const gg_gpu_geom *g)
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

static int step_cells(void *ctx, gg_topo topo, gg_gen_cells *cells,
                      int64_t gens, gg_err *err);

/* The generic module's validation cases (every width and remainder; a
 * Generations kernel's own), before its first real run: at open, or later
 * when a caller that hinted a wide grid (gg_cuda_opts.width_hint) first
 * steps a small one. */
static int validate_generic(gg_cuda *c, gg_err *err)
{
    double t0 = now();
    c->checking_generic = true;
    int bad = c->np > 1
                  ? gg_validate_gen(&c->rule, step_cells, c,
                                    c->o.lang == GG_CUDA_LANG_PTX
                                        ? "the PTX kernel"
                                        : "the CUDA kernel",
                                    12345, err)
                  : gg_gpu_validate(&c->rule, step_strip, c, 12345, err);
    c->checking_generic = false;
    c->generic_valid = !bad;
    c->phase[GG_PH_VALIDATE] += now() - t0;
    return bad;
}

/* Load the module g's grid wants; a module with a constant stride runs
 * only after it passed the validation cases of that width. */
int gg_cuda_module_for(gg_cuda *c, const gg_gpu_geom *g, gg_err *err)
{
    int want = wanted_stride(c, g);
    if (want != c->kns) {
        c->kns = want;
        if (build(c, NULL, err))
            return -1;
    }
    /* The autotuner's timing runs keep no cells, so its candidates go
     * unchecked here; the winner is rebuilt (kns_valid false) and so
     * validated at its width before its first real run. */
    if (c->checking || c->checking_generic || c->tuning)
        return 0;
    if (!want)
        return c->generic_valid ? 0 : validate_generic(c, err);
    if (c->kns_valid)
        return 0;
    c->checking = want;
    double t0 = now();
    int bad = gg_gpu_validate_width(&c->rule, step_strip, c, 4242,
                                    g->width, err);
    c->phase[GG_PH_WIDTH] += now() - t0;
    c->checking = 0;
    c->kns_valid = !bad;
    return bad;
}

static int prepare(gg_cuda *c, const gg_grid *grid, int strip, gg_err *err)
{
    gg_gpu_geom g;
    if (gg_cuda_layout(c, grid->width, grid->height, &g, err) ||
        gg_cuda_module_for(c, &g, err))
        return -1;
    size_t pbytes = gg_gpu_geom_bytes(&g), bytes = pbytes * (size_t)c->np;
    if (!c->buf[0] || c->pbytes != pbytes) {
        gg_cuda_free_buffers(c);
        if (gg_cuda_check(c, c->cu.cuMemAlloc(&c->buf[0], bytes),
                          "cuMemAlloc", err) ||
            gg_cuda_check(c, c->cu.cuMemAlloc(&c->buf[1], bytes),
                          "cuMemAlloc", err))
            return -1;
    }
    gg_gpu_geom_plan(&g, c->tune.tmax, strip, c->resident);
    c->geom = g;
    c->pbytes = pbytes;
    c->cur = 0;
    return gg_cuda_check(c, c->cu.cuMemsetD8(c->buf[1], 0, bytes), "cuMemset",
                    err);
}

/* planes[0 .. n-1] into the device's state planes, the rest 0 (a
 * two-state soup timed by a Generations kernel: autotune). Rows go
 * straight from the grid into the device rows (2D copies: a device row is
 * the host row one ghost word in); ghosts and padding start at 0. */
static int upload_planes(gg_cuda *c, const gg_grid *planes, int n,
                         gg_err *err)
{
    CUdeviceptr row0 = c->buf[c->cur] + gg_gpu_geom_row0(&c->geom);
    if (gg_cuda_check(c, c->cu.cuMemsetD8(c->buf[c->cur], 0,
                                          c->pbytes * (size_t)c->np),
                      "cuMemset", err))
        return -1;
    for (int p = 0; p < n && p < c->np; p++)
        if (gg_cuda_copy_rows(c, NULL, true,
                              row0 + (CUdeviceptr)((size_t)p * c->pbytes),
                              planes[p].bits, &planes[p], planes[p].height,
                              err))
            return -1;
    return gg_cuda_check(c, c->cu.cuCtxSynchronize(), "upload", err);
}

static int download_planes(gg_cuda *c, gg_grid *planes, int n, gg_err *err)
{
    CUdeviceptr row0 = c->buf[c->cur] + gg_gpu_geom_row0(&c->geom);
    for (int p = 0; p < n && p < c->np; p++)
        if (gg_cuda_copy_rows(c, NULL, false,
                              row0 + (CUdeviceptr)((size_t)p * c->pbytes),
                              planes[p].bits, &planes[p], planes[p].height,
                              err))
            return -1;
    if (gg_cuda_check(c, c->cu.cuCtxSynchronize(), "download", err))
        return -1;
    for (int p = 0; p < n && p < c->np; p++)
        gg_gpu_clear_tail(&planes[p]); /* torus ghost cells land there */
    return 0;
}

static int upload(gg_cuda *c, const gg_grid *grid, gg_err *err)
{
    return upload_planes(c, grid, 1, err);
}

static int download(gg_cuda *c, gg_grid *grid, gg_err *err)
{
    return download_planes(c, grid, 1, err);
}

/* Torus: rows -gtop .. -1 and h .. h + gbottom - 1 of buffer `row0`
 * become the rows they wrap to, ghost words included (after gg_ghost).
 * One copy per side when the grid is that tall, else one per row. */
static int refresh_ghost_rows(gg_cuda *c, CUdeviceptr row0, gg_err *err)
{
    const gg_gpu_geom *g = &c->geom;
    int64_t h = g->height;
    size_t rb = (size_t)g->ns * sizeof(uint32_t);
    struct { int64_t dst, src, n; } part[2] = {
        {-g->gtop, h - g->gtop, g->gtop}, {h, 0, g->gbottom}};
    for (int i = 0; i < 2; i++) {
        if (part[i].n <= h) {
            if (part[i].n > 0 &&
                gg_cuda_check(c, c->cu.cuMemcpyDtoDAsync(
                                row0 + (CUdeviceptr)(part[i].dst * (int64_t)rb),
                                row0 + (CUdeviceptr)(part[i].src * (int64_t)rb),
                                (size_t)part[i].n * rb, c->stream),
                         "ghost rows", err))
                return -1;
            continue;
        }
        for (int64_t k = 0; k < part[i].n; k++) {
            int64_t y = part[i].dst + k, src = ((y % h) + h) % h;
            if (gg_cuda_check(c, c->cu.cuMemcpyDtoDAsync(
                                row0 + (CUdeviceptr)(y * (int64_t)rb),
                                row0 + (CUdeviceptr)(src * (int64_t)rb), rb,
                                c->stream),
                         "ghost rows", err))
                return -1;
        }
    }
    return 0;
}

/* One launch of 2^e generations (plus the ghost refresh on the torus). */
static int launch(gg_cuda *c, int e, bool torus, gg_err *err)
{
    gg_gpu_geom *g = &c->geom;
    int h = (int)g->height, width = (int)g->width, plane = !torus;
    CUdeviceptr in = c->buf[c->cur] + gg_gpu_geom_row0(g);
    CUdeviceptr out = c->buf[c->cur ^ 1] + gg_gpu_geom_row0(g);
    for (int p = 0; torus && p < c->np; p++) {
        CUdeviceptr pin = in + (CUdeviceptr)((size_t)p * c->pbytes);
        void *ga[] = {&pin, &h, &g->ns, &g->nwi, &width};
        unsigned blocks = (unsigned)((h + 127) / 128);
        if (gg_cuda_check(c, c->cu.cuLaunchKernel(c->ghost, blocks, 1, 1, 128, 1,
                                             1, 0, c->stream, ga, NULL),
                     "gg_ghost launch", err) ||
            refresh_ghost_rows(c, pin, err))
            return -1;
    }
    long long ps = (long long)(c->pbytes / sizeof(uint32_t));
    void *a[] = {&in, &out, &h, &g->ns, &g->nwi, &width, &plane, &g->strip,
                 &g->nx, &g->ntasks, &ps};
    unsigned blocks = (unsigned)((g->ntasks + c->tune.wpb - 1) / c->tune.wpb);
    if (gg_cuda_check(c, c->cu.cuLaunchKernel(c->step[e], blocks, 1, 1,
                                         (unsigned)c->tune.wpb * 32, 1, 1, 0,
                                         c->stream, a, NULL),
                 "gg_step launch", err))
        return -1;
    c->cur ^= 1;
    return 0;
}

/* gens generations on the device: full launches, then the remainder in
 * powers of two. */
int gg_cuda_launches(gg_cuda *c, gg_topo topo, int64_t gens, gg_err *err)
{
    int top = 0;
    while ((2 << top) <= c->tune.tmax)
        top++;
    while (gens > 0) {
        int e = top;
        while ((int64_t)1 << e > gens)
            e--;
        if (launch(c, e, topo == GG_TOPO_TORUS, err))
            return -1;
        gens -= (int64_t)1 << e;
    }
    return 0;
}

static int run(gg_cuda *c, gg_topo topo, int64_t gens, gg_err *err)
{
    return gg_cuda_launches(c, topo, gens, err) ||
           gg_cuda_check(c, c->cu.cuCtxSynchronize(), "kernel run", err);
}

static int step_strip(void *ctx, gg_topo topo, gg_grid *grid, int64_t gens,
                      int strip, gg_err *err)
{
    gg_cuda *c = ctx;
    if (topo != GG_TOPO_TORUS && topo != GG_TOPO_PLANE)
        return gg_fail(err, "the CUDA backend needs a torus or a plane");
    return prepare(c, grid, strip, err) || upload(c, grid, err) ||
                   run(c, topo, gens, err) || download(c, grid, err)
               ? -1
               : 0;
}

int gg_cuda_step(gg_cuda *c, gg_topo topo, gg_grid *grid, int64_t gens,
                 gg_err *err)
{
    return step_strip(c, topo, grid, gens, c->o.strip, err);
}

/* The uploaded grid's topology (the backend table's upload). */
static int table_topo(gg_cuda *c, gg_topo topo, gg_err *err)
{
    if (topo != GG_TOPO_TORUS && topo != GG_TOPO_PLANE)
        return gg_fail(err, "the CUDA backend needs a torus or a plane");
    c->topo = topo;
    return 0;
}

int gg_cuda_current(gg_cuda *c, gg_err *err)
{
    return gg_cuda_check(c, c->cu.cuCtxSetCurrent(c->ctx), "cuCtxSetCurrent",
                         err);
}

int gg_cuda_table_upload(void *state, gg_grid *grid, gg_topo topo,
                         gg_err *err)
{
    gg_cuda *c = state;
    return gg_cuda_current(c, err) || table_topo(c, topo, err) ||
                   prepare(c, grid, c->o.strip, err) || upload(c, grid, err)
               ? -1
               : 0;
}

int gg_cuda_table_step(void *state, int64_t gens, gg_err *err)
{
    gg_cuda *c = state;
    return gg_cuda_current(c, err) || run(c, c->topo, gens, err) ? -1 : 0;
}

int gg_cuda_table_download(void *state, gg_grid *grid, gg_err *err)
{
    return gg_cuda_current(state, err) || download(state, grid, err) ? -1 : 0;
}

int gg_cuda_table_rows(void *state, gg_grid *grid, int64_t y, int64_t n,
                       bool up, gg_err *err)
{
    gg_cuda *c = state;
    size_t rb = (size_t)c->geom.ns * sizeof(uint32_t);
    CUdeviceptr row = c->buf[c->cur] + gg_gpu_geom_row0(&c->geom) +
                      (CUdeviceptr)((size_t)y * rb);
    return gg_cuda_current(c, err) ||
                   gg_cuda_copy_rows(c, NULL, up, row, gg_grid_row(grid, y),
                                     grid, n, err) ||
                   gg_cuda_check(c, c->cu.cuCtxSynchronize(), "row copy",
                                 err)
               ? -1
               : 0;
}

/* Generations rules: every state plane of cells. */
int gg_cuda_table_upload_cells(void *state, gg_gen_cells *cells,
                               gg_topo topo, gg_err *err)
{
    gg_cuda *c = state;
    if (cells->n_planes != c->np)
        return gg_fail(err, "the CUDA kernel has %d state planes, the cells "
                       "%d", c->np, cells->n_planes);
    return table_topo(c, topo, err) ||
                   prepare(c, &cells->plane[0], c->o.strip, err) ||
                   upload_planes(c, cells->plane, cells->n_planes, err)
               ? -1
               : 0;
}

int gg_cuda_table_download_cells(void *state, gg_gen_cells *cells,
                                 gg_err *err)
{
    return download_planes(state, cells->plane, cells->n_planes, err);
}

/* The step runtime/backends/validate_gen.h checks: cells in, gens, cells out. */
static int step_cells(void *ctx, gg_topo topo, gg_gen_cells *cells,
                      int64_t gens, gg_err *err)
{
    gg_cuda *c = ctx;
    return gg_cuda_table_upload_cells(c, cells, topo, err) ||
                   run(c, topo, gens, err) ||
                   gg_cuda_table_download_cells(c, cells, err)
               ? -1
               : 0;
}

/* Device time of gens generations after one untimed launch of tmax. */
int gg_cuda_table_timed_step(void *state, int64_t gens, int64_t *warm,
                             double *seconds, gg_err *err)
{
    gg_cuda *c = state;
    *warm = c->tune.tmax;
    if (run(c, c->topo, *warm, err))
        return -1;
    double t0 = now();
    if (run(c, c->topo, gens, err))
        return -1;
    *seconds = now() - t0;
    return 0;
}

/* Bounded grids stay one call (one upload, one download); the unbounded
 * plane regrows between batches. */
int64_t gg_cuda_table_max_batch(void *state)
{
    gg_cuda *c = state;
    return gg_rule_is_bounded(&c->rule) ? 0 : 1024;
}

/* ---- opening ---- */

static int open_device(gg_cuda *c, gg_fail_kind *why, gg_err *err)
{
    gg_cu_device d;
    memset(&d, 0, sizeof d);
    *why = GG_FAIL_ENV;
    int bad = gg_cu_device_open(&d, c->o.device, err);
    /* whatever was opened is released by close, after a failure too */
    c->cu = d.cu;
    c->dev = d.dev;
    c->ctx = d.ctx;
    c->sms = d.sms;
    c->cc = d.cc;
    snprintf(c->name, sizeof c->name, "%s", d.name);
    return bad;
}

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
static bool hinted_layout(const gg_cuda *c, gg_gpu_geom *g)
{
    gg_err ignored;
    return c->o.width_hint > 0 && c->o.height_hint > 0 && !c->given &&
           gg_cuda_layout(c, c->o.width_hint, c->o.height_hint, g,
                          &ignored) == 0;
}

/* The row stride of the module for the hinted grid; 0 when none was
 * hinted or that grid runs the generic module. */
static int hinted_stride(const gg_cuda *c)
{
    gg_gpu_geom g;
    return hinted_layout(c, &g) ? wanted_stride(c, &g) : 0;
}

/* The autotuner's soup: TUNE_SOUP^2 cells, as wide as the hinted grid
 * when that is wide (its candidates are then built for the width the run
 * needs: no second build), else square. */
static void tune_soup_size(const gg_cuda *c, int64_t *w, int64_t *h)
{
    int64_t cells = (int64_t)TUNE_SOUP * TUNE_SOUP, hint = c->o.width_hint;
    *w = *h = TUNE_SOUP;
    if (hint >= 4096 && hint <= cells / GG_PTX_KSTRIDE_ROWS &&
        hinted_stride(c)) {
        *w = hint;
        *h = cells / hint;
    }
}

/* Device seconds of TUNE_GENS generations of the current module on a
 * torus (the better of two runs, after a warm-up launch). */
static int time_candidate(gg_cuda *c, gg_grid *soup, double *sec,
                          gg_err *err)
{
    if (prepare(c, soup, 0, err) || upload(c, soup, err) ||
        run(c, GG_TOPO_TORUS, c->tune.tmax, err))
        return -1;
    *sec = 1e30;
    for (int rep = 0; rep < 2; rep++) {
        double t0 = now();
        if (run(c, GG_TOPO_TORUS, TUNE_GENS, err))
            return -1;
        double s = now() - t0;
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
    c->kns = wanted_stride(c, &g); /* one build per candidate */
    size_t n;
    const gg_gpu_tune *cand = candidates(c, &n);
    if (c->o.announce) /* a JIT build per candidate: seconds each */
        fprintf(stderr, "golgen: tuning %zu %s launch shapes on %s (once "
                "per device and rule; cached in %s)\n", n,
                c->o.lang == GG_CUDA_LANG_PTX ? "PTX" : "CUDA C", c->name,
                c->cache_dir);
    double t0 = now();
    if (c->o.lang != GG_CUDA_LANG_PTX)
        precompile_candidates(c, cand, n);
    else
        precompile_ptx(c, cand, n);
    c->phase[GG_PH_COMPILE] = now() - t0;
    gg_gpu_tune best = cand[0];
    double best_s = 1e30;
    int bad = 0;
    c->tuning = true;
    for (size_t i = 0; !bad && i < n; i++) {
        double s;
        c->tune = cand[i];
        bad = build(c, NULL, err) || time_candidate(c, &soup, &s, err);
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
    c->kns = hinted_stride(c);
    return build(c, NULL, err);
}

static int choose_tune(gg_cuda *c, gg_err *err)
{
    /* GOLGEN_GPU_TUNE: "tmax,funnel,wpb[,wpl[,fma[,turn[,pf,warm[,nreg]]]]]" */
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
    double t0 = now();
    int bad = autotune(c, err);
    c->phase[GG_PH_TUNE] += now() - t0;
    return bad || build_first(c, err) ? -1 : 0;
}

/* The kernel's circuit, chosen once for every module this open builds;
 * it builds and passes its check, or a rejected cache entry is a failed
 * check (exit 1, as verify and the CPU backend say), not lost among the
 * environment failures of the build that follows. */
static int choose_parts(gg_cuda *c, gg_fail_kind *why, gg_err *err)
{
    int bad = gg_gpu_parts_init(&c->rule, &c->cfg->choose, &c->parts, err);
    *why = bad ? GG_FAIL_INVALID : GG_FAIL_ENV;
    return bad;
}

/* The module the caller will run first passes its validation cases
 * before open returns: the one for the hinted width when there is one
 * (its cubin came from the autotuner: no generic build), else the generic
 * module (always for Generations kernels: they have no other). */
static int validate_first(gg_cuda *c, gg_err *err)
{
    gg_gpu_geom g;
    if (hinted_layout(c, &g) && wanted_stride(c, &g))
        return gg_cuda_module_for(c, &g, err);
    return validate_generic(c, err);
}

static int open_common(const gg_rule *rule, const char *src,
                       const gg_cuda_opts *o, gg_cuda **out, gg_fail_kind *why,
                       gg_err *err)
{
    static const gg_cuda_opts defaults;
    *out = NULL;
    gg_cuda *c = gg_alloc(1, sizeof *c, err, "CUDA backend");
    if (!c) {
        *why = GG_FAIL_ENV;
        return -1;
    }
    c->rule = *rule;
    c->np = gg_gen_planes_of(rule);
    c->o = o ? *o : defaults;
    c->cfg = gg_config_or_default(c->o.config);
    const char *dir = c->o.cache_dir ? c->o.cache_dir : c->cfg->cache_dir;
    double t0 = now();
    int bad = open_device(c, why, err) ||
              gg_gpu_cache_dir(dir, c->cache_dir, sizeof c->cache_dir, err);
    c->phase[GG_PH_DEVICE] = now() - t0;
    c->given = src != NULL;
    if (!bad && src) {
        c->tune = c->o.tune.tmax
                      ? c->o.tune
                      : (gg_gpu_tune){.tmax = 16, .funnel = 0, .wpb = 4,
                                      .wpl = 1};
        bad = build(c, src, err);
    } else if (!bad) {
        t0 = now();
        bad = choose_parts(c, why, err);
        c->phase[GG_PH_CIRCUIT] = now() - t0;
        bad = bad || choose_tune(c, err);
    }
    if (!bad) {
        *why = GG_FAIL_INVALID;
        bad = validate_first(c, err);
    }
    if (bad) {
        gg_cuda_close(c);
        return -1;
    }
    *out = c;
    return 0;
}

int gg_cuda_open(const gg_rule *rule, const gg_cuda_opts *o, gg_cuda **out,
                 gg_fail_kind *why, gg_err *err)
{
    return open_common(rule, NULL, o, out, why, err);
}

int gg_cuda_open_source(const gg_rule *rule, const char *src,
                        const gg_cuda_opts *o, gg_cuda **out,
                        gg_fail_kind *why, gg_err *err)
{
    return open_common(rule, src, o, out, why, err);
}

const char *gg_cuda_device(const gg_cuda *c) { return c->name; }
gg_gpu_tune gg_cuda_tune(const gg_cuda *c) { return c->tune; }
bool gg_cuda_cache_hit(const gg_cuda *c) { return c->cache_hit; }
int gg_cuda_registers(const gg_cuda *c) { return c->regs; }

void gg_cuda_close(gg_cuda *c)
{
    if (!c)
        return;
    if (c->cu.lib) {
        gg_cuda_stream_free(c);
        gg_cuda_bands_free(c);
        gg_cuda_free_buffers(c);
        unload(c);
        if (c->ctx)
            c->cu.cuDevicePrimaryCtxRelease(c->dev);
        dlclose(c->cu.lib);
    }
    gg_gpu_parts_free(&c->parts);
    free(c);
}

/* ---- the backend table (runtime/backends/backend.h; ptx_backend.c) ---- */

int gg_cuda_table_probe(gg_cuda_lang lang, const gg_config *config,
                        gg_err *err)
{
    gg_cuda *c = gg_alloc(1, sizeof *c, err, "CUDA probe");
    gg_fail_kind why;
    if (!c)
        return -1;
    c->cfg = gg_config_or_default(config);
    int bad = open_device(c, &why, err);
    if (!bad && lang == GG_CUDA_LANG_CUDA) {
        gg_nvrtc_api nv;
        GG_LSAN_OFF();
        bad = load_nvrtc(&nv, c->cfg->nvrtc, err);
        if (!bad)
            dlclose(nv.lib);
        GG_LSAN_ON();
    }
    gg_cuda_close(c);
    return bad;
}

int gg_cuda_table_open(gg_cuda_lang lang, const gg_rule *rule,
                       const gg_backend_opts *bo, void **state,
                       gg_fail_kind *why, gg_err *err)
{
    gg_cuda_opts o = {0};
    o.lang = lang;
    o.device = bo->device;
    o.config = bo->config;
    o.announce = bo->announce;
    o.width_hint = bo->width_hint;
    o.height_hint = bo->height_hint;
    return gg_cuda_open(rule, &o, (gg_cuda **)state, why, err);
}

/* The device and launch shape, "NVIDIA H100 ..., T16 shf wpb4 wpl1". */
static void describe_shape(const gg_cuda *c, char *what, size_t size)
{
    gg_gpu_tune t = c->tune;
    char extra[64] = ""; /* PTX: multiply-add share, turn, rows */
    size_t n = 0;
    if (t.fma)
        n += (size_t)snprintf(extra + n, sizeof extra - n, " fma%d/16",
                              t.fma);
    if (t.turn == 6)
        n += (size_t)snprintf(extra + n, sizeof extra - n, " turn6");
    if (t.warm)
        n += (size_t)snprintf(extra + n, sizeof extra - n, " pf%d warm%d",
                              gg_gpu_tune_rows_ahead(
                                  &t, c->o.lang == GG_CUDA_LANG_PTX),
                              t.warm);
    if (t.nreg)
        snprintf(extra + n, sizeof extra - n, " nreg%d", t.nreg);
    snprintf(what, size, "%s, T%d %s%s wpb%d wpl%d, %d regs", c->name,
             t.tmax, t.funnel == 2 ? "hyb" : t.funnel ? "shf" : "mad", extra,
             t.wpb, t.wpl > 1 ? t.wpl : 1, c->regs);
}

/* Seconds by phase of opening so far, in words. */
static void describe_open(const gg_cuda *c, char *buf, size_t size)
{
    const double *p = c->phase;
    snprintf(buf, size, "device %.2f s, circuit %.2f s, tuning %.2f s "
             "(compiles %.2f s), %d build%s %.2f s, checks %.2f s + %.2f s at "
             "the grid's width",
             p[GG_PH_DEVICE], p[GG_PH_CIRCUIT], p[GG_PH_TUNE],
             p[GG_PH_COMPILE], c->builds,
             c->builds == 1 ? "" : "s", p[GG_PH_BUILD], p[GG_PH_VALIDATE],
             p[GG_PH_WIDTH]);
}

void gg_cuda_table_describe(void *state, gg_backend_desc *d)
{
    describe_shape(state, d->what, sizeof d->what);
    describe_open(state, d->open, sizeof d->open);
}

void gg_cuda_table_close(void *state) { gg_cuda_close(state); }

int gg_cuda_table_stream(void *state, gg_grid *grid, gg_topo topo,
                         int64_t gens, int64_t max_bytes,
                         gg_stream_stats *stats, gg_err *err)
{
    gg_cuda *c = state;
    return table_topo(c, topo, err) ||
                   gg_cuda_stream_step(c, topo, grid, gens, max_bytes, stats,
                                       err)
               ? -1
               : 0;
}

static int cuda_probe(const gg_backend_opts *o, gg_err *err)
{
    return gg_cuda_table_probe(GG_CUDA_LANG_CUDA, o->config, err);
}

static int cuda_open(const gg_rule *rule, const gg_backend_opts *o,
                     void **state, gg_fail_kind *why, gg_err *err)
{
    return gg_cuda_table_open(GG_CUDA_LANG_CUDA, rule, o, state, why, err);
}

const gg_backend_info gg_backend_cuda = {
    .name = "cuda",
    .probe = cuda_probe,
    .open = cuda_open,
    .upload = gg_cuda_table_upload,
    .step = gg_cuda_table_step,
    .download = gg_cuda_table_download,
    .stream = gg_cuda_table_stream,
    .rows = gg_cuda_table_rows,
    .peer_rows = gg_cuda_table_peer_rows,
    .queue_step = gg_cuda_table_queue_step,
    .queue_peer_rows = gg_cuda_table_queue_peer_rows,
    .finish = gg_cuda_table_finish,
    .timed_step = gg_cuda_table_timed_step,
    .max_batch = gg_cuda_table_max_batch,
    .describe = gg_cuda_table_describe,
    .close = gg_cuda_table_close,
    .upload_cells = gg_cuda_table_upload_cells,
    .download_cells = gg_cuda_table_download_cells,
};

#include "autotune.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "jit.h"
#include "reference.h"

int gg_gpu_geom_init(gg_gpu_geom *g, int64_t width, int64_t height,
                     gg_err *err)
{
    memset(g, 0, sizeof *g);
    if (width < 1 || height < 1)
        return gg_fail(err, "grid size %lldx%lld is empty", (long long)width,
                       (long long)height);
    int64_t nwi = (width + 31) / 32 + 2;
    /* Word indices times 32 and row offsets stay inside 32-bit ints. */
    if (nwi * 32 + 64 > INT32_MAX || height > INT32_MAX / 4)
        return gg_fail(err, "grid %lldx%lld is too large for the GPU "
                       "kernels' 32-bit indices", (long long)width,
                       (long long)height);
    g->width = width;
    g->height = height;
    g->nwi = (int)nwi;
    g->ns = (int)nwi;
    /* Windows cover the interior words 1 .. nwi-2 (see kernel.cu.in). */
    g->nx = (g->nwi - 2) / 31 + 1;
    return 0;
}

void gg_gpu_geom_windows(gg_gpu_geom *g, int wpl)
{
    wpl = wpl > 1 ? wpl : 1;
    g->nx = (g->nwi - 2) / (32 * wpl - 1) + 1;
}

void gg_gpu_geom_ghost_rows(gg_gpu_geom *g, int wpl, int top, int bottom)
{
    wpl = wpl > 1 ? wpl : 1;
    int last = g->nx * (32 * wpl - 1) + 1; /* one past the last window */
    g->ns = last > g->nwi ? last : g->nwi;
    g->gtop = top;
    g->gbottom = bottom;
}

size_t gg_gpu_geom_row0(const gg_gpu_geom *g)
{
    return (size_t)g->gtop * (size_t)g->ns * sizeof(uint32_t);
}

/* Expected throughput of strip height s, relative: useful rows over row
 * ticks, times the busy fraction of the waves. */
static double plan_score(const gg_gpu_geom *g, int t, int64_t s,
                         int64_t resident)
{
    int64_t ny = (g->height + s - 1) / s;
    int64_t tasks = ny * g->nx;
    int64_t waves = (tasks + resident - 1) / resident;
    double fill = (double)g->height / (double)(ny * (s + 3 * t));
    return fill * (double)tasks / (double)(waves * resident);
}

void gg_gpu_geom_plan(gg_gpu_geom *g, int t, int strip, int64_t resident)
{
    int64_t best = strip > 0 ? strip : g->height;
    if (strip <= 0 && resident > 0) {
        double score = plan_score(g, t, best, resident);
        /* Strip counts that fill k waves just under or just over. */
        for (int64_t k = 1; k <= 256; k++)
            for (int up = 0; up < 2; up++) {
                int64_t ny = (k * resident + (up ? g->nx - 1 : 0)) / g->nx;
                if (ny < 1)
                    continue;
                int64_t s = (g->height + ny - 1) / ny;
                double sc = plan_score(g, t, s, resident);
                if (sc > score * 1.0001) {
                    score = sc;
                    best = s;
                }
            }
    }
    if (best > g->height)
        best = g->height;
    g->strip = (int)best;
    g->ny = (int)((g->height + best - 1) / best);
    g->ntasks = g->ny * g->nx;
}

size_t gg_gpu_geom_bytes(const gg_gpu_geom *g)
{
    size_t rows = (size_t)g->gtop + (size_t)g->height + (size_t)g->gbottom;
    return (size_t)g->ns * rows * sizeof(uint32_t);
}

/* Row y of a host copy of the device layout. */
static size_t dev_row(const gg_gpu_geom *g, int64_t y)
{
    return ((size_t)g->gtop + (size_t)y) * (size_t)g->ns;
}

void gg_gpu_pack(const gg_grid *grid, const gg_gpu_geom *g, uint32_t *dev)
{
    size_t words = (size_t)(g->width + 31) / 32;
    memset(dev, 0, gg_gpu_geom_bytes(g));
    for (int64_t y = 0; y < g->height; y++)
        memcpy(dev + dev_row(g, y) + 1, gg_grid_row(grid, y),
               words * sizeof(uint32_t));
}

void gg_gpu_unpack(const uint32_t *dev, const gg_gpu_geom *g, gg_grid *grid)
{
    size_t words = (size_t)(g->width + 31) / 32;
    for (int64_t y = 0; y < g->height; y++)
        memcpy(gg_grid_row(grid, y), dev + dev_row(g, y) + 1,
               words * sizeof(uint32_t));
    gg_gpu_clear_tail(grid);
}

void gg_gpu_clear_tail(gg_grid *grid)
{
    uint64_t m = gg_grid_tail_mask(grid);
    for (int64_t y = 0; y < grid->height; y++)
        gg_grid_row(grid, y)[grid->stride - 1] &= m;
}

/* ---- validation ---- */

typedef struct vcase {
    int64_t width, height, gens;
    gg_topo topo;
    int strip;
} vcase;

/* Partial words, one word, several windows (31 words apart), the torus
 * wrap inside one word; strips of 1..11 rows and the plan's own. */
static const vcase cases[] = {
    {1, 1, 3, GG_TOPO_TORUS, 0},      {3, 5, 17, GG_TOPO_TORUS, 2},
    {31, 7, 7, GG_TOPO_PLANE, 3},     {32, 9, 16, GG_TOPO_TORUS, 0},
    {33, 40, 37, GG_TOPO_TORUS, 7},   {63, 17, 2, GG_TOPO_PLANE, 1},
    {64, 33, 33, GG_TOPO_TORUS, 5},   {65, 12, 19, GG_TOPO_PLANE, 4},
    {100, 3, 37, GG_TOPO_PLANE, 0},   {130, 70, 21, GG_TOPO_TORUS, 6},
    {992, 20, 16, GG_TOPO_TORUS, 3},  {1000, 18, 17, GG_TOPO_PLANE, 5},
    {2048, 24, 35, GG_TOPO_TORUS, 7}, {2100, 31, 23, GG_TOPO_PLANE, 0},
    {1985, 2, 9, GG_TOPO_TORUS, 1},   {1023, 50, 31, GG_TOPO_PLANE, 11},
    /* Strips and windows away from every edge, so the kernels' interior
     * copies run: fill only, one to two rows past whole three-tick turns,
     * one and two launches. */
    {3000, 90, 35, GG_TOPO_TORUS, 7}, {3000, 96, 33, GG_TOPO_PLANE, 8},
    {2500, 80, 16, GG_TOPO_TORUS, 2}, {2100, 70, 20, GG_TOPO_PLANE, 4},
    {2200, 60, 17, GG_TOPO_TORUS, 1}, {2900, 84, 48, GG_TOPO_TORUS, 6},
    /* and three or five rows past whole six-tick turns */
    {2300, 80, 19, GG_TOPO_PLANE, 9}, {2700, 90, 16, GG_TOPO_TORUS, 11},
};
#define N_CASES ((int)(sizeof cases / sizeof *cases))

static int compare(const vcase *c, const gg_grid *got, const gg_grid *want,
                   gg_err *err)
{
    int64_t x, y;
    if (gg_grid_equal(got, want))
        return 0;
    if (gg_grid_first_diff(got, want, &x, &y))
        return gg_fail(err, "GPU kernel validation failed: %s %lldx%lld, "
                       "%lld generations (strip %d) differs from the "
                       "reference first at cell (%lld, %lld); the kernel is "
                       "not used",
                       c->topo == GG_TOPO_TORUS ? "torus" : "plane",
                       (long long)c->width, (long long)c->height,
                       (long long)c->gens, c->strip, (long long)x,
                       (long long)y);
    return gg_fail(err, "GPU kernel validation failed: %lldx%lld grid has "
                   "live bits past the width; the kernel is not used",
                   (long long)c->width, (long long)c->height);
}

/* The soup of case c and, in want, the reference's answer. */
static int reference_case(const gg_rule *rule, const vcase *c, uint64_t seed,
                          gg_grid *soup, gg_grid *want, gg_err *err)
{
    if (gg_grid_init(soup, c->width, c->height, err))
        return -1;
    gg_grid_random(soup, (seed & 1) ? 0.5 : 0.3, seed);
    if (gg_grid_copy(want, soup, err)) {
        gg_grid_free(soup);
        return -1;
    }
    if (gg_reference_run_threads(rule, c->topo, want, c->gens, err)) {
        gg_grid_free(soup);
        gg_grid_free(want);
        return -1;
    }
    return 0;
}

/* The reference runs take most of the time of opening a GPU backend; each
 * one shares its rows among the cores (one case per core left a 200-row
 * case of a 32768-wide kernel to one core: 16 s on the H100 host). They
 * all run first, and the device then checks case by case. */
static int run_cases(const gg_rule *rule, const vcase *list, int n,
                     gg_gpu_step_fn step, void *ctx, uint64_t seed,
                     gg_err *err)
{
    /* n <= N_CASES: the width cases are fewer */
    gg_grid soup[N_CASES], want[N_CASES];
    gg_err errs[N_CASES];
    int ok[N_CASES];
    for (int i = 0; i < n; i++)
        ok[i] = reference_case(rule, &list[i], seed + (uint64_t)i, &soup[i],
                               &want[i], &errs[i]) == 0;
    int bad = 0;
    for (int i = 0; i < n; i++) {
        if (!ok[i]) {
            if (!bad)
                *err = errs[i];
            bad = 1;
            continue;
        }
        if (!bad)
            bad = step(ctx, list[i].topo, &soup[i], list[i].gens,
                       list[i].strip, err) ||
                  compare(&list[i], &soup[i], &want[i], err);
        gg_grid_free(&soup[i]);
        gg_grid_free(&want[i]);
    }
    return bad ? -1 : 0;
}

int gg_gpu_validate(const gg_rule *rule, gg_gpu_step_fn step, void *ctx,
                    uint64_t seed, gg_err *err)
{
    return run_cases(rule, cases, N_CASES, step, ctx, seed, err);
}

/* Cases of one width for a kernel built for it (the PTX module with a
 * constant row stride): interior copies on the torus and the plane,
 * strips of every remainder mod 6 past a whole turn and the plan's. */
static const vcase width_cases[] = {
    {0, 90, 35, GG_TOPO_TORUS, 7},  {0, 96, 33, GG_TOPO_PLANE, 8},
    {0, 80, 19, GG_TOPO_PLANE, 9},  {0, 90, 16, GG_TOPO_TORUS, 11},
    {0, 84, 20, GG_TOPO_TORUS, 10}, {0, 200, 33, GG_TOPO_TORUS, 0},
};
#define N_WIDTH_CASES ((int)(sizeof width_cases / sizeof *width_cases))

int gg_gpu_validate_width(const gg_rule *rule, gg_gpu_step_fn step,
                          void *ctx, uint64_t seed, int64_t width,
                          gg_err *err)
{
    vcase cs[N_WIDTH_CASES];
    for (int i = 0; i < N_WIDTH_CASES; i++) {
        cs[i] = width_cases[i];
        cs[i].width = width;
    }
    return run_cases(rule, cs, N_WIDTH_CASES, step, ctx, seed, err);
}

/* ---- tuning cache ---- */

uint64_t gg_gpu_hash(uint64_t h, const void *data, size_t len)
{
    const unsigned char *p = data;
    if (!h)
        h = 1469598103934665603ull;
    for (size_t i = 0; i < len; i++)
        h = (h ^ p[i]) * 1099511628211ull;
    return h;
}

int gg_gpu_cache_dir(const char *given, char *buf, size_t size, gg_err *err)
{
    gg_jit_opts jo = {0};
    jo.cache_dir = given;
    if (gg_jit_cache_dir(&jo, buf, size, err))
        return -1;
    for (char *p = buf + 1;; p++) { /* mkdir -p */
        char saved = *p;
        if (saved && saved != '/')
            continue;
        *p = 0;
        int bad = mkdir(buf, 0777) && errno != EEXIST;
        *p = saved;
        if (bad)
            return gg_fail(err, "cannot create the kernel cache directory "
                           "%s: %s (set GOLGEN_CACHE_DIR)", buf,
                           strerror(errno));
        if (!saved)
            return 0;
    }
}

int gg_gpu_tune_rows_ahead(const gg_gpu_tune *t, bool ptx)
{
    return t->pf ? t->pf : ptx ? 3 : 2;
}

bool gg_gpu_tune_ok(const gg_gpu_tune *t)
{
    int pf = gg_gpu_tune_rows_ahead(t, true);
    return t->tmax >= 1 && t->tmax <= 16 && !(t->tmax & (t->tmax - 1)) &&
           t->wpb >= 1 && t->wpb <= 32 &&
           (t->wpl <= 1 || t->wpl == 2 || t->wpl == 4) && t->fma >= 0 &&
           t->fma <= 16 && (!t->turn || t->turn == 3 || t->turn == 6) &&
           t->pf >= 0 && t->pf <= 8 && t->warm >= 0 && t->warm <= 8 &&
           (!t->warm || t->warm > pf);
}

int gg_gpu_tune_parse(const char *text, gg_gpu_tune *t, gg_err *err)
{
    int v[8] = {0, 0, 0, 1, 0, 0, 0, 0}, n = 0;
    const char *s = text;
    for (;;) {
        char *end;
        errno = 0;
        long x = strtol(s, &end, 10);
        if (end == s || errno || x < INT_MIN || x > INT_MAX || n == 8 ||
            (*end && *end != ','))
            return gg_fail(err, "GOLGEN_GPU_TUNE='%s' is not a launch shape: "
                           "write 3 to 8 integers, tmax,funnel,wpb[,wpl[,fma"
                           "[,turn[,pf,warm]]]], e.g. 16,1,4; or unset it to "
                           "autotune", text);
        v[n++] = (int)x;
        if (!*end)
            break;
        s = end + 1;
    }
    if (n < 3)
        return gg_fail(err, "GOLGEN_GPU_TUNE='%s' has %d number%s; it needs "
                       "at least tmax,funnel,wpb, e.g. 16,1,4", text, n,
                       n == 1 ? "" : "s");
    *t = (gg_gpu_tune){v[0], v[1], v[2], v[3], v[4], v[5], v[6], v[7]};
    return 0;
}

static void tune_path(char *buf, size_t size, const char *dir, uint64_t key)
{
    snprintf(buf, size, "%s/gpu-tune-%016llx.txt", dir,
             (unsigned long long)key);
}

bool gg_gpu_tune_load(const char *cache_dir, uint64_t key, gg_gpu_tune *t)
{
    char path[4200];
    tune_path(path, sizeof path, cache_dir, key);
    FILE *f = fopen(path, "r");
    if (!f)
        return false;
    gg_gpu_tune r = {0, 0, 0, 1, 0, 0, 0, 0};
    int n = fscanf(f, "tmax %d funnel %d wpb %d wpl %d fma %d turn %d pf %d "
                   "warm %d", &r.tmax, &r.funnel, &r.wpb, &r.wpl, &r.fma,
                   &r.turn, &r.pf, &r.warm);
    fclose(f);
    if (n == 3)
        r.wpl = 1;
    if (n < 5)
        r.fma = 0;
    if (n < 6)
        r.turn = 0;
    if (n < 8)
        r.pf = r.warm = 0;
    if (n < 3 || r.wpl < 1 || !gg_gpu_tune_ok(&r))
        return false;
    if (r.wpl > 1) /* several words per lane: funnel shifts only */
        r.funnel = 1;
    *t = r;
    return true;
}

/* Best effort: a cache that cannot be written only costs a re-tune. */
void gg_gpu_tune_save(const char *cache_dir, uint64_t key,
                      const gg_gpu_tune *t)
{
    char path[4200], tmp[4300];
    tune_path(path, sizeof path, cache_dir, key);
    snprintf(tmp, sizeof tmp, "%s.%d.tmp", path, (int)getpid());
    FILE *f = fopen(tmp, "w");
    if (!f)
        return;
    int bad = fprintf(f, "tmax %d funnel %d wpb %d wpl %d fma %d turn %d "
                      "pf %d warm %d\n", t->tmax, t->funnel, t->wpb,
                      t->wpl > 1 ? t->wpl : 1, t->fma,
                      t->turn == 6 ? 6 : 3, t->pf, t->warm) < 0;
    bad |= fclose(f) != 0;
    if (bad || rename(tmp, path))
        remove(tmp);
}

/* ---- the CLI's door to the GPU backends ---- */

#include "cuda_backend.h"
#include "opencl_backend.h"

struct gg_gpu {
    gg_cuda *cuda;
    gg_opencl *cl;
    char desc[400];
};

bool gg_gpu_known(const char *b)
{
    return !strcmp(b, "cuda") || !strcmp(b, "ptx") || !strcmp(b, "opencl");
}

int gg_gpu_open(const char *backend, const gg_rule *rule, gg_gpu **out,
                gg_gpu_fail *why, gg_err *err)
{
    *why = GG_GPU_FAIL_ENV;
    gg_gpu *g = gg_alloc(1, sizeof *g, err, "GPU backend");
    if (!(*out = g))
        return -1;
    int bad;
    if (!strcmp(backend, "opencl")) {
        bad = gg_opencl_open(rule, NULL, &g->cl, why, err);
        if (!bad)
            snprintf(g->desc, sizeof g->desc, "%s", gg_opencl_device(g->cl));
    } else {
        gg_cuda_opts o = {0};
        o.lang = !strcmp(backend, "ptx") ? GG_CUDA_LANG_PTX
                                         : GG_CUDA_LANG_CUDA;
        o.announce = isatty(2); /* people wait; logs need no note */
        bad = gg_cuda_open(rule, &o, &g->cuda, why, err);
        if (!bad) {
            gg_gpu_tune t = gg_cuda_tune(g->cuda);
            char extra[64] = ""; /* PTX: multiply-add share, turn, rows */
            if (t.fma)
                snprintf(extra, sizeof extra, " fma%d/16", t.fma);
            if (t.turn == 6)
                snprintf(extra + strlen(extra), sizeof extra - strlen(extra),
                         " turn6");
            if (t.warm)
                snprintf(extra + strlen(extra), sizeof extra - strlen(extra),
                         " pf%d warm%d",
                         gg_gpu_tune_rows_ahead(&t,
                                                o.lang == GG_CUDA_LANG_PTX),
                         t.warm);
            snprintf(g->desc, sizeof g->desc,
                     "%s, T%d %s%s wpb%d wpl%d, %d regs",
                     gg_cuda_device(g->cuda), t.tmax,
                     t.funnel == 2 ? "hyb" : t.funnel ? "shf" : "mad", extra,
                     t.wpb, t.wpl > 1 ? t.wpl : 1,
                     gg_cuda_registers(g->cuda));
        }
    }
    if (bad) {
        gg_gpu_close(g);
        *out = NULL;
    }
    return bad;
}

gg_stepper gg_gpu_stepper(gg_gpu *g)
{
    return g->cuda ? gg_cuda_stepper(g->cuda) : gg_opencl_stepper(g->cl);
}

int gg_gpu_bench(gg_gpu *g, gg_topo topo, gg_grid *grid, int64_t gens,
                 int64_t *warm, double *seconds, gg_err *err)
{
    return g->cuda ? gg_cuda_bench(g->cuda, topo, grid, gens, warm, seconds,
                                   err)
                   : gg_opencl_bench(g->cl, topo, grid, gens, warm, seconds,
                                     err);
}

const char *gg_gpu_describe(gg_gpu *g) { return g->desc; }

void gg_gpu_close(gg_gpu *g)
{
    if (!g)
        return;
    gg_cuda_close(g->cuda);
    gg_opencl_close(g->cl);
    free(g);
}

int gg_gpu_exit_status(gg_gpu_fail why)
{
    return why == GG_GPU_FAIL_ENV ? 3 : why == GG_GPU_FAIL_INVALID ? 1 : 2;
}

/* What the GPU backends (CUDA, PTX, OpenCL) share: the device layout of a
 * grid, the launch plan (strip height from a cost model of warp waves and
 * pipeline fill), validation against the reference before a kernel is
 * used, and the per-device tuning cache.
 *
 * Device layout (templates/cuda/kernel.cu.in): 32-bit words, ns per row;
 * word 0 is a ghost word, cell x is bit (x + 32) % 32 of word
 * (x + 32) / 32, and at least 32 ghost cells follow the last cell. */
#ifndef GG_AUTOTUNE_H
#define GG_AUTOTUNE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "error.h"
#include "grid.h"
#include "rule.h"
#include "universe.h"

/* Why opening a GPU backend failed, for the exit status (2, 3, 1). */
typedef enum gg_gpu_fail {
    GG_GPU_FAIL_INPUT,   /* bad rule or option */
    GG_GPU_FAIL_ENV,     /* no GPU, no driver, no compiler, cache */
    GG_GPU_FAIL_INVALID, /* the kernel disagreed with the reference, or a
                            cached network was rejected */
} gg_gpu_fail;

/* Device layout and launch geometry of one grid. */
typedef struct gg_gpu_geom {
    int64_t width, height;
    int nwi;     /* words per row, ghosts included */
    int ns;      /* row stride in words */
    int gtop;    /* ghost rows above row 0 (gg_gpu_geom_ghost_rows) */
    int gbottom; /* ghost rows below the last row */
    int nx;      /* 32-word windows per row (31 words apart) */
    int strip;   /* rows per task */
    int ny;      /* strips */
    int ntasks;  /* nx * ny warps */
} gg_gpu_geom;

/* Layout for a width x height grid; fails when it exceeds 32-bit
 * indexing (the kernels use 32-bit row and word indices). */
int gg_gpu_geom_init(gg_gpu_geom *g, int64_t width, int64_t height,
                     gg_err *err);

/* Strip height: strip > 0 is taken as given; 0 picks it from a cost model:
 * `resident` warps run at once, a task of s rows costs s + 3t row ticks
 * (pipeline fill), and the last wave may run part-empty. */
/* Windows of 32 * wpl words, 32 * wpl - 1 apart (kernels with wpl words
 * per lane); gg_gpu_geom_init sets wpl = 1. Call before gg_gpu_geom_plan. */
void gg_gpu_geom_windows(gg_gpu_geom *g, int wpl);

/* Room for kernels that read whole windows and rows past the strip with
 * no wrap and no guard (the PTX interior copy): the stride grows so the
 * last window lies inside its row, and top and bottom ghost rows sit
 * around the grid (0 on the plane, refreshed from the wrap on the torus).
 * Call after gg_gpu_geom_windows. Device pointers then start gtop rows
 * into the buffer (gg_gpu_geom_row0). */
void gg_gpu_geom_ghost_rows(gg_gpu_geom *g, int wpl, int top, int bottom);

/* Offset in bytes of row 0 from the start of a device buffer. */
size_t gg_gpu_geom_row0(const gg_gpu_geom *g);

void gg_gpu_geom_plan(gg_gpu_geom *g, int t, int strip, int64_t resident);

/* Bytes of one device buffer. */
size_t gg_gpu_geom_bytes(const gg_gpu_geom *g);

/* Host <-> device layout, for backends without a 2D copy: the device rows
 * as one host buffer of ns * (gtop + height + gbottom) words. */
void gg_gpu_pack(const gg_grid *grid, const gg_gpu_geom *g, uint32_t *dev);
void gg_gpu_unpack(const uint32_t *dev, const gg_gpu_geom *g, gg_grid *grid);

/* Clear bits past the width (device ghost cells land there on the torus). */
void gg_gpu_clear_tail(gg_grid *grid);

/* A backend's step with an explicit strip height (0: its own choice). */
typedef int (*gg_gpu_step_fn)(void *ctx, gg_topo topo, gg_grid *grid,
                              int64_t gens, int strip, gg_err *err);

/* Random soups of many shapes (widths 1 .. 2100: partial last words,
 * several windows; heights 1 .. 70 with small strips: several strips;
 * torus and plane; generation counts that need every launch size) must
 * match the reference on every cell. 0 = all agree. */
int gg_gpu_validate(const gg_rule *rule, gg_gpu_step_fn step, void *ctx,
                    uint64_t seed, gg_err *err);

/* The same check for a kernel built for one grid width (a PTX module
 * with that width's row stride as a constant): soups of that width, 80
 * to 200 rows, strips that reach the interior loop, torus and plane. */
int gg_gpu_validate_width(const gg_rule *rule, gg_gpu_step_fn step,
                          void *ctx, uint64_t seed, int64_t width,
                          gg_err *err);

/* 64-bit FNV-1a, for cache keys. */
uint64_t gg_gpu_hash(uint64_t h, const void *data, size_t len);

/* Tuning cache: "key value" lines in <cache_dir>/gpu-tune-<key>.txt. */
typedef struct gg_gpu_tune {
    int tmax;    /* generations per launch */
    int funnel;  /* 1: funnel shifts, 0: multiply-adds, 2: west funnel,
                    east multiply-add (CUDA C only; PTX takes it as 1) */
    int wpb;     /* warps (work-groups: rows) per block */
    int wpl;     /* 32-bit words per lane (PTX: 1 (0), 2, 4; CUDA C and
                    OpenCL: 1) */
    int fma;     /* PTX: sixteenths of the levels whose neighbour shifts
                    are multiply-adds (FMA pipe), 0..16; others: 0 */
    int turn;    /* PTX and CUDA C: ticks per turn of the interior loop,
                    3 (0) or 6; OpenCL: 0 */
    int pf;      /* PTX and CUDA C: rows loaded ahead, 1..8 (0: PTX's 3,
                    CUDA C's 2) */
    int warm;    /* PTX and CUDA C: rows ahead that a prefetch warms in
                    L1, pf+1..8 (0: none) */
} gg_gpu_tune;

/* The kernel cache directory (runtime/jit.h's rules; given overrides),
 * created if missing. */
int gg_gpu_cache_dir(const char *given, char *buf, size_t size, gg_err *err);

/* Rows t loads ahead: its pf, or the target's default for pf 0 (the PTX
 * emitter's 3, the CUDA C template's 2 as the runtime builds it). */
int gg_gpu_tune_rows_ahead(const gg_gpu_tune *t, bool ptx);

/* Every field in range (wpl <= 1 reads as 1; warm beyond the rows
 * loaded ahead, with PTX's default for pf 0); the one check for
 * tuning-cache lines and GOLGEN_GPU_TUNE. */
bool gg_gpu_tune_ok(const gg_gpu_tune *t);

/* GOLGEN_GPU_TUNE's text, "tmax,funnel,wpb[,wpl[,fma[,turn[,pf,warm]]]]":
 * 3 to 8 integers and nothing else (range checks: gg_gpu_tune_ok). A text
 * that is not that is an error, never a silent return to autotuning. */
int gg_gpu_tune_parse(const char *text, gg_gpu_tune *t, gg_err *err);

bool gg_gpu_tune_load(const char *cache_dir, uint64_t key, gg_gpu_tune *t);
void gg_gpu_tune_save(const char *cache_dir, uint64_t key,
                      const gg_gpu_tune *t);

/* ---- the CLI's door to the GPU backends ---- */

/* "cuda", "ptx" or "opencl". */
bool gg_gpu_known(const char *backend);

typedef struct gg_gpu gg_gpu;

int gg_gpu_open(const char *backend, const gg_rule *rule, gg_gpu **out,
                gg_gpu_fail *why, gg_err *err);
gg_stepper gg_gpu_stepper(gg_gpu *g);
/* Device time of gens generations after *warm untimed ones. */
int gg_gpu_bench(gg_gpu *g, gg_topo topo, gg_grid *grid, int64_t gens,
                 int64_t *warm, double *seconds, gg_err *err);
/* The device and launch shape, e.g. "NVIDIA H100 ... T16 mad wpb4". */
const char *gg_gpu_describe(gg_gpu *g);
void gg_gpu_close(gg_gpu *g);

/* Exit status for a failure: 3 environment, 1 validation, 2 input. */
int gg_gpu_exit_status(gg_gpu_fail why);

#endif

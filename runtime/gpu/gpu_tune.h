/* Launch shapes of the GPU kernels: the shape struct, its one range
 * check, GOLGEN_GPU_TUNE's text form, and the per-device tuning cache
 * ("key value" lines in <cache_dir>/gpu-tune-<key>.txt). */
#ifndef GG_GPU_TUNE_H
#define GG_GPU_TUNE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "error.h"

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
    int nreg;    /* PTX and CUDA C: registers a thread of the step
                    kernels may use, 64..255 (0: 168, which keeps 12 warps
                    an SM; 255: what the compiler needs, 8 warps an SM,
                    for rings heavier than Life's that spill at 168) */
} gg_gpu_tune;

/* The kernel cache directory (runtime/backends/jit.h's rules; given overrides),
 * created if missing. */
int gg_gpu_cache_dir(const char *given, char *buf, size_t size, gg_err *err);

/* Rows t loads ahead: its pf, or the target's default for pf 0 (the PTX
 * emitter's 3, the CUDA C template's 2 as the runtime builds it). */
int gg_gpu_tune_rows_ahead(const gg_gpu_tune *t, bool ptx);

/* Every field in range (wpl <= 1 reads as 1; warm beyond the rows
 * loaded ahead, with PTX's default for pf 0); the one check for
 * tuning-cache lines and GOLGEN_GPU_TUNE. */
bool gg_gpu_tune_ok(const gg_gpu_tune *t);

/* GOLGEN_GPU_TUNE's text,
 * "tmax,funnel,wpb[,wpl[,fma[,turn[,pf,warm[,nreg]]]]]": 3 to 9 integers
 * and nothing else (range checks: gg_gpu_tune_ok). A text
 * that is not that is an error, never a silent return to autotuning. */
int gg_gpu_tune_parse(const char *text, gg_gpu_tune *t, gg_err *err);

bool gg_gpu_tune_load(const char *cache_dir, uint64_t key, gg_gpu_tune *t);
void gg_gpu_tune_save(const char *cache_dir, uint64_t key,
                      const gg_gpu_tune *t);

#endif

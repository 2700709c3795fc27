/* The 3D GPU path: a 3D totalistic rule's CUDA kernel emitted from
 * templates/cuda3d (gen/emit/emit_cuda3d.h) with the final stage the cpu
 * path chooses (runtime/backends/cpu3d.h), or a LUT3 one of fewer gates
 * (gg_cuda3d_lut3_final: one lop3 a gate), compiled by NVRTC (cubins
 * cached in the cache directory), loaded through the CUDA driver API (both opened with
 * dlopen: a machine without them gets a clear error, *why = GG_FAIL_ENV)
 * and validated on the device against runtime/reference/reference3d.h on random
 * soups of odd sizes, on tori and in boxes, before it is used: a kernel
 * that fails is never used (*why = GG_FAIL_INVALID).
 *
 * Moore rules on tori of whole words run several generations per launch
 * (temporal blocking, the template's gg3d_steps_*): the first run of a
 * big grid times the candidates and one generation per launch and keeps
 * the fastest; GOLGEN_GPU_TUNE=3d:1 or 3d:T,TY,NY,B forces one.
 *
 * The table reaches it through the cuda and ptx backends' 3D entry points
 * (gg_backend3d_cuda and gg_backend3d_ptx at the end of cuda3d.c;
 * runtime/backends/backend3d.h): ptx loads NVRTC's PTX through the
 * driver's JIT, cuda NVRTC's cubin. */
#ifndef GG_CUDA3D_H
#define GG_CUDA3D_H

#include <stdbool.h>
#include <stdint.h>

#include "config.h"
#include "error.h"
#include "fail.h"
#include "grid3d.h"
#include "net.h"
#include "rule3d.h"

typedef struct gg_cuda3d gg_cuda3d;

typedef struct gg_cuda3d_opts {
    const gg_config *config; /* NULL: defaults (cache dir, NVRTC) */
    int device;              /* CUDA device ordinal */
    int slab;                /* planes per thread; 0: sized to the GPU */
    int ty;                  /* rows per thread (GG_TY); 0: 4 */
    const gg_net *final;     /* NULL: gg_cpu3d_choose_final's; tests pass
                                a broken one to see validation refuse */
    bool ptx;                /* the ptx backend's: NVRTC's PTX through
                                the driver's JIT, not a cubin */
} gg_cuda3d_opts;

/* Emit, compile (or find in the cache), load and validate. */
int gg_cuda3d_open(const gg_rule3d *rule, const gg_cuda3d_opts *o,
                   gg_cuda3d **out, gg_fail_kind *why, gg_err *err);
/* gens generations of g in place (upload, run, download). */
int gg_cuda3d_run(gg_cuda3d *k, gg_grid3d *g, bool torus, int64_t gens,
                  gg_err *err);
/* The same, after one untimed generation: *seconds is the device time of
 * the gens timed generations (launches to the last one's end), transfers
 * excluded. g ends gens + 1 generations on. */
int gg_cuda3d_timed(gg_cuda3d *k, gg_grid3d *g, bool torus, int64_t gens,
                    double *seconds, gg_err *err);
/* "NVIDIA H100 80GB HBM3 (sm_90, 132 SMs)" */
const char *gg_cuda3d_device(const gg_cuda3d *k);
/* "plain, 4 rows x 16 planes per thread, 128 threads per block, 72
 * registers" for the last grid run (empty before one). */
const char *gg_cuda3d_shape(const gg_cuda3d *k);
int gg_cuda3d_final_gates(const gg_cuda3d *k);
const char *gg_cuda3d_final_source(const gg_cuda3d *k);
void gg_cuda3d_close(gg_cuda3d *k);

/* The kernel source gg_cuda3d_open compiles (tests compile it with
 * nvcc): rule's final stage from o->final or gg_cpu3d_choose_final. */
int gg_cuda3d_source(const gg_rule3d *rule, const gg_net *final,
                     char **src, size_t *len, char *source, size_t size,
                     int *gates, gg_err *err);

#endif

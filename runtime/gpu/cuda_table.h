/* Golly's rule tables and trees (gen/rulefile/rulefile.h) on a CUDA GPU:
 * the rule's GPU kernel as CUDA C (gen/rulefile/rulefile_emit.h,
 * templates/gputable/), compiled by NVRTC (dlopen'd: runtime/gpu/
 * cuda_nvrtc.c) into a cubin for the device (`cuda`), or into PTX that the
 * driver JITs (`ptx`: the same CUDA C path, not golgen's own PTX
 * emitter), cached in the kernel cache by source and arch, and validated
 * against the rule's graph and the reference exactly as the cpu kernel
 * is (runtime/backends/validate_table.h) before every use: a kernel that
 * fails is never stepped. No driver or no device: GG_FAIL_ENV. */
#ifndef GG_CUDA_TABLE_H
#define GG_CUDA_TABLE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "backend.h"
#include "error.h"
#include "fail.h"
#include "gen_cells.h"
#include "gpu_table.h"
#include "rule.h"
#include "rulefile.h"
#include "table_kernel.h"

typedef struct gg_cuda_tk gg_cuda_tk;

/* Compile src (the rule's CUDA C) with NVRTC, no device needed: a cubin
 * for arch "sm_NN" (ptx false) or PTX text for "compute_NN" (ptx true;
 * NUL-terminated). malloc'd into *img, *len bytes. nvrtc: the library's
 * path or NULL. */
int gg_cuda_tk_compile(const char *src, const char *nvrtc, bool ptx,
                          const char *arch, char **img, size_t *len,
                          gg_fail_kind *why, gg_err *err);

/* Emit, compile (or find in the cache), load, validate; ptx as above. */
int gg_cuda_tk_open(const gg_rulefile *rf, const char *name, bool ptx,
                       const gg_gpu_table_opts *o, gg_cuda_tk **out,
                       gg_fail_kind *why, gg_err *err);

/* gens generations of cells on the device (torus or bounded plane). */
int gg_cuda_tk_step(gg_cuda_tk *k, gg_topo topo, gg_gen_cells *cells,
                       int64_t gens, gg_err *err);
int gg_cuda_tk_step_cb(void *ctx, gg_topo topo, gg_gen_cells *cells,
                          int64_t gens, gg_err *err);

/* "NVIDIA H100 ... (sm_90, 132 SMs)" and whether the image was cached. */
/* The cuda and ptx backends' open_table (backend.h): the kernel above
 * as a cubin or as PTX, with o->config and o->device. */
int gg_cuda_tk_open_cubin(const gg_rulefile *rf, const char *name,
                          const gg_backend_opts *o, gg_table_kernel *k,
                          gg_fail_kind *why, gg_err *err);
int gg_cuda_tk_open_ptx(const gg_rulefile *rf, const char *name,
                        const gg_backend_opts *o, gg_table_kernel *k,
                        gg_fail_kind *why, gg_err *err);

const char *gg_cuda_tk_device(const gg_cuda_tk *k);
bool gg_cuda_tk_cache_hit(const gg_cuda_tk *k);
void gg_cuda_tk_close(gg_cuda_tk *k);

#endif

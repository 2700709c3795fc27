/* Larger than Life (gen/rules/rule_ltl.h) on a CUDA GPU: the rule's CUDA C
 * (gen/emit/emit_ltl_cuda.h, templates/cudaltl/) compiled by NVRTC into a
 * cubin for the device (`cuda`), or into PTX that the driver JITs (`ptx`:
 * the same CUDA C, not golgen's own PTX emitter), cached in the kernel
 * cache by source and arch, and checked against the reference
 * (runtime/reference/reference_ltl.h) on random grids of both topologies
 * at every open: a kernel that fails is never stepped. The grid stays on
 * the device for all the generations of a call, a byte a cell, and comes
 * down once at the end. NM and NN neighbourhoods and C > 2; NC is
 * refused by name (GG_FAIL_INPUT). No driver or no device: GG_FAIL_ENV. */
#ifndef GG_CUDA_LTL_H
#define GG_CUDA_LTL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "config.h"
#include "error.h"
#include "fail.h"
#include "rule_ltl.h"
#include "stop.h"

typedef struct gg_cuda_ltl gg_cuda_ltl;

typedef struct gg_cuda_ltl_opts {
    int device;              /* the CUDA device ordinal */
    bool ptx;                /* PTX for the driver's JIT, not a cubin */
    const gg_config *config; /* NVRTC's path, the cache; NULL: defaults */
} gg_cuda_ltl_opts;

/* Compile src (the rule's CUDA C) with NVRTC, no device needed: a cubin
 * for arch "sm_NN" (ptx false) or PTX text for "compute_NN" (ptx true;
 * NUL-terminated) into *img (malloc'd, *len bytes). */
int gg_cuda_ltl_compile(const char *src, const char *nvrtc, bool ptx,
                        const char *arch, char **img, size_t *len,
                        gg_fail_kind *why, gg_err *err);

/* Emit, compile (or find in the cache), load, validate. *why:
 * GG_FAIL_INPUT a neighbourhood without a kernel, GG_FAIL_ENV no driver,
 * device or NVRTC, GG_FAIL_INVALID the ABI or validation. */
int gg_cuda_ltl_open(const gg_ltl_rule *rule, const gg_cuda_ltl_opts *o,
                     gg_cuda_ltl **out, gg_fail_kind *why, gg_err *err);

/* gens generations of the w x h cells in place (wrapped or dead
 * outside), given up at a multiple of a few dozen generations once *stop
 * is set; the generations run, -1 with err. */
int64_t gg_cuda_ltl_step(gg_cuda_ltl *k, uint8_t *cells, int64_t w,
                         int64_t h, bool torus, int64_t gens,
                         gg_stop_flag *stop, gg_err *err);

/* "NVIDIA H100 ... (sm_90, 132 SMs)" and whether the image was cached. */
const char *gg_cuda_ltl_device(const gg_cuda_ltl *k);
bool gg_cuda_ltl_cache_hit(const gg_cuda_ltl *k);
void gg_cuda_ltl_close(gg_cuda_ltl *k);

#endif

/* Validation of a GPU kernel before it is used: random soups of many
 * shapes run through a backend's step and must match the reference
 * simulator on every cell. It knows no backend: the backend hands in its
 * step function. */
#ifndef GG_GPU_VALIDATE_H
#define GG_GPU_VALIDATE_H

#include <stdint.h>

#include "error.h"
#include "grid.h"
#include "rule.h"

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

/* A hash of the cases both checks run (their shapes, generations,
 * strips and which words live): a validation stamp made under other
 * cases is not taken (runtime/gpu/cuda_module.c). */
uint64_t gg_gpu_validate_key(void);

#endif

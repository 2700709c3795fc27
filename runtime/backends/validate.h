/* Validation before use: a freshly loaded kernel runs random soups of many
 * shapes (widths 1, 3, 63, 64, 65, 100, 130: partial last words and the
 * torus wrap inside one word; heights down to 1; torus and plane; several
 * generation counts, tile heights and generations per pass) and must agree
 * with the reference simulator on every cell. A kernel that fails is never
 * used. */
#ifndef GG_VALIDATE_H
#define GG_VALIDATE_H

#include <stdint.h>

#include "error.h"
#include "rule.h"

/* Kernel ABI 1 entry point (templates/c/kernel.c.in documents it). */
typedef int (*gg_kernel_step_fn)(uint64_t *a, uint64_t *b, int64_t width,
                                 int64_t height, int64_t stride, int torus,
                                 int64_t gens, int threads, int tblock,
                                 int64_t band);

/* 0 when every case matches; otherwise -1 and err names the first case
 * that differs (size, topology, generations, tiling, first wrong cell). */
int gg_validate_kernel(const gg_rule *rule, gg_kernel_step_fn step,
                       int threads, uint64_t seed, gg_err *err);

/* A kernel of two rules by parity (templates/c/kernel.c.in's
 * gg_kernel_step_pair): the same arguments and the parity of the call's
 * first generation (0: rule a's). */
typedef int (*gg_kernel_pair_fn)(uint64_t *a, uint64_t *b, int64_t width,
                                 int64_t height, int64_t stride, int torus,
                                 int64_t gens, int threads, int tblock,
                                 int64_t band, int parity);

/* gg_validate_kernel for a kernel of two rules by parity: every case from
 * parity 0 and from parity 1, against the reference stepping even (rule
 * a) and odd (rule b) in turn. */
int gg_validate_pair(const gg_rule *even, const gg_rule *odd,
                     gg_kernel_pair_fn pair, int threads, uint64_t seed,
                     gg_err *err);

#endif

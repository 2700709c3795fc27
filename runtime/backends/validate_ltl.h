/* The checks a Larger than Life kernel (cpu: templates/cltl, cuda and
 * ptx: templates/cudaltl) passes before it is used: random boards in
 * every state, dense and sparse, torus and plane, small and large, odd
 * and even generation counts, stepped by the kernel and by the reference
 * (runtime/reference/reference_ltl.h) and compared cell for cell. */
#ifndef GG_VALIDATE_LTL_H
#define GG_VALIDATE_LTL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "error.h"
#include "rule_ltl.h"

/* One board: w x h cells, a cell non-0 with probability pct%; blob > 0:
 * only in a blob x blob square across the board's corner (a small
 * pattern on a large board, round a torus's edges). */
typedef struct {
    int w, h, torus, gens, pct, blob;
} gg_ltl_case;

/* The kernel's step: cells (w * h bytes, states 0..C-1) advanced gens
 * generations in place; 0, or -1 with err set. */
typedef int (*gg_ltl_step_fn)(void *ctx, uint8_t *cells, int64_t w,
                              int64_t h, bool torus, int gens, gg_err *err);

/* 0 when every case agrees with the reference; else -1, err naming the
 * first difference (`who` names the kernel: "cpu", "CUDA", "ptx"). */
int gg_validate_ltl(const gg_ltl_rule *rule, const gg_ltl_case *cases,
                    size_t n_cases, uint64_t seed, gg_ltl_step_fn step,
                    void *ctx, const char *who, gg_err *err);

#endif

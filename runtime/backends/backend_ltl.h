/* Larger than Life rules (gen/rules/rule_ltl.h) on the backend table: a
 * backend that runs them has these entry points beside its
 * gg_backend_info (runtime/backends/backend.h), paired here, so an LtL run
 * or bench picks its backend through the table's entry (--backend NAME,
 * or auto: the first of the table's auto order that opens) and never by
 * name. Today: cpu (the compiled kernel, runtime/backends/cpu_ltl.h),
 * reference (runtime/reference/reference_ltl.h), and cuda and ptx (the
 * CUDA C kernel, runtime/gpu/cuda_ltl.h).
 *
 * Grids are a byte per cell (states 0..C-1), stepped in place. */
#ifndef GG_BACKEND_LTL_H
#define GG_BACKEND_LTL_H

#include <stdbool.h>
#include <stdint.h>

#include "backend.h"
#include "rule_ltl.h"
#include "stop.h"

typedef struct gg_backend_ltl_info {
    int (*open)(const gg_ltl_rule *rule, const gg_backend_opts *o,
                void **state, gg_fail_kind *why, gg_err *err);
    /* gens generations of the w x h cells in place, given up once *stop is
     * set (NULL: never) where the backend can; the generations run, -1 on
     * failure. */
    int64_t (*step_until)(void *state, uint8_t *cells, int64_t w, int64_t h,
                          bool torus, int64_t gens, gg_stop_flag *stop,
                          gg_err *err);
    void (*describe)(void *state, gg_backend_desc *d);
    void (*close)(void *state);
    /* a call of many generations costs about as much a generation as one
     * of one (false: the universe steps its own reference instead, a
     * generation at a time, with the unbounded plane's least margin) */
    bool batched;
} gg_backend_ltl_info;

/* info's LtL entry points, NULL when it runs no LtL rule. */
const gg_backend_ltl_info *gg_backend_ltl_of(const gg_backend_info *info);

/* "cpu, reference": the backends that run LtL rules. */
void gg_backend_ltl_names(char *buf, size_t size);

typedef struct gg_backend_ltl gg_backend_ltl;

/* Open info (NULL: auto; *note, when not NULL, then says what auto passed
 * over and why, or is empty) for rule. */
int gg_backend_ltl_open(const gg_backend_info *info, const gg_ltl_rule *rule,
                        const gg_backend_opts *o, gg_backend_ltl **out,
                        char *note, size_t note_size, gg_fail_kind *why,
                        gg_err *err);

int64_t gg_backend_ltl_step_until(gg_backend_ltl *b, uint8_t *cells,
                                  int64_t w, int64_t h, bool torus,
                                  int64_t gens, gg_stop_flag *stop,
                                  gg_err *err);
void gg_backend_ltl_describe(gg_backend_ltl *b, gg_backend_desc *d);
bool gg_backend_ltl_batched(const gg_backend_ltl *b);
const gg_backend_info *gg_backend_ltl_table(const gg_backend_ltl *b);
void gg_backend_ltl_close(gg_backend_ltl *b);

#endif

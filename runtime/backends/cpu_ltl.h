/* Larger than Life (gen/rules/rule_ltl.h) on the CPU: the rule's kernel
 * (gen/emit/emit_ltl.h, templates/cltl/), compiled by the JIT
 * (runtime/backends/jit.h) into the kernel cache and checked against the
 * reference (runtime/reference/reference_ltl.h) on random grids of both
 * topologies before it is used: a kernel that fails is never stepped. A
 * cached kernel that passed before carries a stamp and is not checked
 * again. All three neighbourhoods (NM, NN, NC) and C > 2 compile. */
#ifndef GG_CPU_LTL_H
#define GG_CPU_LTL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "config.h"
#include "error.h"
#include "fail.h"
#include "rule_ltl.h"

typedef struct gg_cpu_ltl_opts {
    const char *isa;         /* NULL/"native", "avx2" or "portable" */
    int threads;             /* 0: OpenMP's default */
    const gg_config *config; /* compiler, cache; NULL: defaults */
    const char *cache_dir;   /* NULL: config's */
} gg_cpu_ltl_opts;

typedef struct gg_cpu_ltl gg_cpu_ltl;

/* Emit, compile (or find), load and validate rule's kernel (its grid
 * suffix is ignored: the kernel serves every grid). *why: GG_FAIL_INPUT a
 * bad option, GG_FAIL_ENV no compiler, compile error, cache or dlopen,
 * GG_FAIL_INVALID validation. */
int gg_cpu_ltl_open(const gg_ltl_rule *rule, const gg_cpu_ltl_opts *o,
                    gg_cpu_ltl **out, gg_fail_kind *why, gg_err *err);

/* The same from given kernel source (tests feed it broken kernels). */
int gg_cpu_ltl_open_source(const gg_ltl_rule *rule, const char *src,
                           size_t len, const gg_cpu_ltl_opts *o,
                           gg_cpu_ltl **out, gg_fail_kind *why, gg_err *err);

/* gens generations of the w x h cells (a byte per cell, row by row) in
 * place, wrapped (torus) or with state 0 outside. */
int gg_cpu_ltl_step(gg_cpu_ltl *k, uint8_t *cells, int64_t w, int64_t h,
                    bool torus, int64_t gens, gg_err *err);

const char *gg_cpu_ltl_isa(const gg_cpu_ltl *k);
/* The threads the last grid stepped got (a big grid's before any): the
 * kernel gives one per 4M cells at most unless told (opts.threads). */
int gg_cpu_ltl_threads(const gg_cpu_ltl *k);
bool gg_cpu_ltl_cache_hit(const gg_cpu_ltl *k);
void gg_cpu_ltl_close(gg_cpu_ltl *k);

#endif

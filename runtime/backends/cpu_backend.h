/* The CPU backend: the rule's emitted C kernel, JIT-compiled (runtime/jit),
 * validated against the reference (runtime/validate). The registry reaches
 * it as gg_backend_cpu (runtime/backends/backend.h); tests use the functions below
 * directly (broken kernels, explicit tiling). */
#ifndef GG_CPU_BACKEND_H
#define GG_CPU_BACKEND_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "config.h"
#include "error.h"
#include "jit.h"
#include "fail.h"
#include "gen_cells.h"
#include "grid.h"
#include "rule.h"
#include "step_watch.h"
#include "universe.h"

/* The generations of a pass when tblock is 0: templates/c/kernel.c.in's
 * GG_TDEF (tests/test_cpu_backend.c holds the two equal). */
#define GG_CPU_PASS_GENS 32

typedef struct gg_cpu_opts {
    const char *isa;       /* NULL/"native" (best the compiler targets),
                              "avx2" or "portable" */
    int threads;           /* 0: OpenMP's default */
    int tblock;            /* generations per pass; 0: kernel's choice,
                              GG_CPU_PASS_GENS */
    int64_t band;          /* rows per tile; 0: kernel's choice */
    const char *cache_dir; /* NULL: config's */
    const gg_config *config; /* compiler, cache; NULL: defaults (no cache
                                directory unless cache_dir is given) */
} gg_cpu_opts;

typedef struct gg_cpu gg_cpu;

/* The compiler flags (*extra; NULL for none) that hold a kernel to isa:
 * NULL/"native"/"avx512", "avx2" or "portable" (the table kernels,
 * runtime/backends/cpu_table.h, take the same). */
int gg_cpu_isa_extra(const char *isa, const char **extra, gg_err *err);

/* The JIT's options for a host kernel held to isa: its flags, the
 * configured compiler and kernel cache (cache_dir, when not NULL, wins). */
int gg_cpu_jit_opts(const char *isa, const gg_config *config,
                    const char *cache_dir, gg_jit_opts *jo, gg_err *err);

/* Emit, compile (or find in the cache), load and validate rule's kernel.
 * *why: GG_FAIL_INPUT a bad option, GG_FAIL_ENV no compiler, compile
 * error, cache or dlopen, GG_FAIL_INVALID validation or a rejected
 * cached network. */
int gg_cpu_open(const gg_rule *rule, const gg_cpu_opts *o, gg_cpu **out,
                gg_fail_kind *why, gg_err *err);

/* The same from given kernel source (tests use it on broken kernels). */
int gg_cpu_open_source(const gg_rule *rule, const char *src, size_t len,
                       const gg_cpu_opts *o, gg_cpu **out, gg_fail_kind *why,
                       gg_err *err);

/* Two rules by parity in one kernel (a B0 rule's pair on the unbounded
 * plane, gen/rules/rule_b0.h): even steps the generations of a call's
 * parity, odd the others (gg_cpu_step_pair); validated against the
 * reference's two rules in turn (runtime/backends/validate.h) before
 * first use, the kernel and its stamp cached apart from each rule's. */
int gg_cpu_open_pair(const gg_rule *even, const gg_rule *odd,
                     const gg_cpu_opts *o, gg_cpu **out, gg_fail_kind *why,
                     gg_err *err);

/* The same from given kernel source (tests feed it broken kernels). */
int gg_cpu_open_pair_source(const gg_rule *even, const gg_rule *odd,
                            const char *src, size_t len,
                            const gg_cpu_opts *o, gg_cpu **out,
                            gg_fail_kind *why, gg_err *err);

const char *gg_cpu_isa(const gg_cpu *c);   /* "avx512", "avx2", "portable" */
int gg_cpu_threads(const gg_cpu *c);       /* threads a step uses */
bool gg_cpu_cache_hit(const gg_cpu *c);    /* loaded without compiling */
/* Logic gates per 64-cell word of the network the kernel runs (on its
 * ISA's path); 0: unknown (a kernel opened from given source). */
int gg_cpu_gates_per_word(const gg_cpu *c);

/* Advance grid in place; topo is GG_TOPO_TORUS or GG_TOPO_PLANE. */
int gg_cpu_step(gg_cpu *c, gg_topo topo, gg_grid *grid, int64_t gens,
                gg_err *err);

/* gg_cpu_step with a watcher (step_watch.h); -1 with err when the kernel
 * has no watched entry (kernels built before it). */
int gg_cpu_step_watched(gg_cpu *c, gg_topo topo, gg_grid *grid, int64_t gens,
                        const gg_step_watch *w, gg_err *err);

/* A pair's gens generations (gg_cpu_open_pair), the first by even's rule
 * (parity 0) or odd's (parity 1), then alternating; -1 with err on a
 * kernel of one rule. */
int gg_cpu_step_pair(gg_cpu *c, gg_topo topo, gg_grid *grid, int64_t gens,
                     int parity, gg_err *err);

gg_stepper gg_cpu_stepper(gg_cpu *c);

/* A Generations kernel's step over cells (bounded, topo): copies in,
 * steps, copies out. ctx is the gg_cpu (runtime/backends/validate_gen.h's form). */
int gg_cpu_step_cells(void *ctx, gg_topo topo, gg_gen_cells *cells,
                      int64_t gens, gg_err *err);

void gg_cpu_close(gg_cpu *c);

#endif

/* Golly's rule tables and trees (gen/rulefile/rulefile.h) on the CPU:
 * the rule's bitsliced kernel (gen/rulefile/rulefile_emit.h), compiled by
 * the JIT (runtime/backends/jit.h) into the kernel cache and validated
 * against the reference (runtime/backends/validate_table.h) before it is
 * used: a kernel that fails is never stepped. A cached kernel that passed
 * before carries a stamp and is not checked again. */
#ifndef GG_CPU_TABLE_H
#define GG_CPU_TABLE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "backend.h"
#include "config.h"
#include "error.h"
#include "fail.h"
#include "gen_cells.h"
#include "rule.h"
#include "rulefile.h"
#include "table_kernel.h"

typedef struct gg_cpu_table_opts {
    const char *isa;  /* NULL/"native", "avx2" or "portable" */
    int threads;      /* 0: OpenMP's default */
    const gg_config *config; /* compiler, cache; NULL: defaults */
    const char *cache_dir;   /* NULL: config's */
    int64_t max_terms;       /* the rule's size bound; 0: the emitter's */
} gg_cpu_table_opts;

typedef struct gg_cpu_table gg_cpu_table;

/* Emit, compile (or find), load and validate rf's kernel; name: the rule
 * as messages give it. *why: GG_FAIL_INPUT a bad option or a rule too
 * large to compile, GG_FAIL_ENV no compiler, compile error, cache or
 * dlopen, GG_FAIL_INVALID validation. rf must outlive the kernel. */
int gg_cpu_table_open(const gg_rulefile *rf, const char *name,
                      const gg_cpu_table_opts *o, gg_cpu_table **out,
                      gg_fail_kind *why, gg_err *err);

/* The same from given kernel source (tests feed it broken kernels). */
int gg_cpu_table_open_source(const gg_rulefile *rf, const char *src,
                             size_t len, const gg_cpu_table_opts *o,
                             gg_cpu_table **out, gg_fail_kind *why,
                             gg_err *err);

/* gens generations of cells (the rule's planes) with wrapping
 * (GG_TOPO_TORUS) or state 0 outside (GG_TOPO_PLANE). */
int gg_cpu_table_step(gg_cpu_table *k, gg_topo topo, gg_gen_cells *cells,
                      int64_t gens, gg_err *err);

/* The same as a table universe's stepper (ctx: the kernel). */
int gg_cpu_table_step_cb(void *ctx, gg_topo topo, gg_gen_cells *cells,
                         int64_t gens, gg_err *err);

/* The cpu backend's open_table (backend.h): the kernel above with
 * o->config, o->threads and o->isa. */
int gg_cpu_table_open_kernel(const gg_rulefile *rf, const char *name,
                             const gg_backend_opts *o, gg_table_kernel *k,
                             gg_fail_kind *why, gg_err *err);

const char *gg_cpu_table_isa(const gg_cpu_table *k);
int gg_cpu_table_threads(const gg_cpu_table *k);
bool gg_cpu_table_cache_hit(const gg_cpu_table *k);
void gg_cpu_table_close(gg_cpu_table *k);

#endif

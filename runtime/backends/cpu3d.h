/* The 3D CPU path: a 3D totalistic rule's kernel emitted from
 * templates/c3d (gen/emit/emit_c3d.h), compiled by the JIT (runtime/backends/jit.h) and
 * validated against runtime/reference/reference3d.h on random soups of odd sizes, on
 * a torus and in a box, before it is used: a kernel that fails is never
 * used (open fails, exit status 1 at the CLI).
 *
 * The table reaches it through the cpu backend's 3D entry points
 * (runtime/backends/backend3d.h, paired in the registry). */
#ifndef GG_CPU3D_H
#define GG_CPU3D_H

#include <stdbool.h>
#include <stdint.h>

#include "config.h"
#include "error.h"
#include "grid3d.h"
#include "net.h"
#include "rule3d.h"
#include "stop.h"

typedef struct gg_cpu3d gg_cpu3d;

typedef struct gg_cpu3d_opts {
    const gg_config *config; /* NULL: defaults (compiler, cache dir) */
    int threads;             /* 0: OpenMP's default */
    const gg_net *final;     /* NULL: chosen (decision diagram, then exact
                                synthesis within GG_CHOOSE_WORK); tests
                                pass a broken one to see validation refuse */
} gg_cpu3d_opts;

/* Returns -1 with err on a compiler/cache problem (environment) or a
 * kernel that disagrees with the reference (*check_failed set then). */
int gg_cpu3d_open(const gg_rule3d *rule, const gg_cpu3d_opts *o,
                  gg_cpu3d **out, bool *check_failed, gg_err *err);
/* gens generations of g in place (torus or box). */
int gg_cpu3d_run(gg_cpu3d *k, gg_grid3d *g, bool torus, int64_t gens,
                 gg_err *err);
/* The same, given up once *stop is set (runtime/base/stop.h; the kernel's
 * threads read it between planes): returns the generations run, which g
 * then holds, fewer than gens after a stop; -1 with err on failure. */
int64_t gg_cpu3d_run_until(gg_cpu3d *k, gg_grid3d *g, bool torus,
                           int64_t gens, gg_stop_flag *stop, gg_err *err);
const char *gg_cpu3d_isa(const gg_cpu3d *k);
int gg_cpu3d_threads(const gg_cpu3d *k);
/* Gates of the final stage and where the network came from. */
int gg_cpu3d_final_gates(const gg_cpu3d *k);
const char *gg_cpu3d_final_source(const gg_cpu3d *k);
void gg_cpu3d_close(gg_cpu3d *k);

/* The final stage the cpu path uses for rule: the cheaper of the decision
 * diagram and (with the solver) exact synthesis within GG_CHOOSE_WORK,
 * verified on every care row. source gets where it came from. */
int gg_cpu3d_choose_final(const gg_rule3d *rule, gg_net *net, char *source,
                          size_t size, gg_err *err);

#endif

/* Golly's rule tables and trees (gen/rulefile/rulefile.h) on an OpenCL
 * device (a GPU if any, else any: PoCL runs on the CPU): the rule's GPU
 * kernel (gen/rulefile/rulefile_emit.h, templates/gputable/) built by
 * clBuildProgram and validated against the rule's graph and the
 * reference exactly as the cpu kernel is (runtime/backends/validate_table.h)
 * before it is used: a kernel that fails is never stepped. Without OpenCL
 * at build time or a platform at run time, opening fails with
 * GG_FAIL_ENV. */
#ifndef GG_OPENCL_TABLE_H
#define GG_OPENCL_TABLE_H

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

typedef struct gg_opencl_table gg_opencl_table;

/* Emit, build, validate; name: the rule as messages give it. *why:
 * GG_FAIL_INPUT a rule too large, GG_FAIL_ENV no OpenCL or a build error,
 * GG_FAIL_INVALID validation. rf must outlive the kernel. */
int gg_opencl_table_open(const gg_rulefile *rf, const char *name,
                         const gg_gpu_table_opts *o, gg_opencl_table **out,
                         gg_fail_kind *why, gg_err *err);

/* The same from given OpenCL C source (tests feed it broken kernels). */
int gg_opencl_table_open_source(const gg_rulefile *rf, const char *src,
                                const gg_gpu_table_opts *o,
                                gg_opencl_table **out, gg_fail_kind *why,
                                gg_err *err);

/* gens generations of cells, wrapping (GG_TOPO_TORUS) or state 0 outside
 * (GG_TOPO_PLANE): up, a launch a generation, down. */
int gg_opencl_table_step(gg_opencl_table *k, gg_topo topo,
                         gg_gen_cells *cells, int64_t gens, gg_err *err);

/* The same as a table universe's stepper (ctx: the kernel). */
int gg_opencl_table_step_cb(void *ctx, gg_topo topo, gg_gen_cells *cells,
                            int64_t gens, gg_err *err);

/* The opencl backend's open_table (backend.h): the kernel above with
 * o->config. */
int gg_opencl_table_open_kernel(const gg_rulefile *rf, const char *name,
                                const gg_backend_opts *o, gg_table_kernel *k,
                                gg_fail_kind *why, gg_err *err);

const char *gg_opencl_table_device(const gg_opencl_table *k);
void gg_opencl_table_close(gg_opencl_table *k);

#endif

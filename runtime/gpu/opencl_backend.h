/* The OpenCL backend: the rule's OpenCL C kernel built with clBuildProgram
 * through the ICD loader, validated on the device against the reference,
 * reached by the registry as gg_backend_opencl (runtime/backends/backend.h). A GPU
 * device is preferred, then any (PoCL runs on the CPU). Without OpenCL at
 * build time, or with no platform at run time, opening fails with
 * GG_FAIL_ENV. */
#ifndef GG_OPENCL_BACKEND_H
#define GG_OPENCL_BACKEND_H

#include <stdbool.h>
#include <stdint.h>

#include "config.h"
#include "error.h"
#include "fail.h"
#include "gen_cells.h"
#include "grid.h"
#include "rule.h"
#include "universe.h"

typedef struct gg_opencl gg_opencl;

typedef struct gg_opencl_opts {
    int tmax;  /* generations per launch, 1..16; 0: 16 */
    bool skip_validation; /* tests that validate by themselves */
    const gg_config *config; /* NULL: defaults */
} gg_opencl_opts;

/* Emit, build, validate. */
int gg_opencl_open(const gg_rule *rule, const gg_opencl_opts *o,
                   gg_opencl **out, gg_fail_kind *why, gg_err *err);

/* The same from given OpenCL C source (tests: broken kernels). */
int gg_opencl_open_source(const gg_rule *rule, const char *src,
                          const gg_opencl_opts *o, gg_opencl **out,
                          gg_fail_kind *why, gg_err *err);

/* Advance grid in place; topo is GG_TOPO_TORUS or GG_TOPO_PLANE. */
int gg_opencl_step(gg_opencl *c, gg_topo topo, gg_grid *grid, int64_t gens,
                   gg_err *err);

/* For tests that run a universe on an OpenCL kernel they opened. */
gg_stepper gg_opencl_stepper(gg_opencl *c);

const char *gg_opencl_device(const gg_opencl *c);

void gg_opencl_close(gg_opencl *c);

/* Generations rules: the state planes of cells in (the backend steps
 * them with the table's step) and out. */
int gg_opencl_upload_cells(gg_opencl *c, gg_gen_cells *cells, gg_topo topo,
                           gg_err *err);
int gg_opencl_download_cells(gg_opencl *c, gg_gen_cells *cells, gg_err *err);

#endif

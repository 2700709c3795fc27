/* A Golly rule table or tree (gen/rulefile/rulefile.h) compiled for a
 * backend, opened by the backend's name: the one place that says which
 * backends run rule tables and how each is opened. cpu: the C kernel
 * (runtime/backends/cpu_table.h); opencl: OpenCL C (runtime/gpu/
 * opencl_table.h); cuda and ptx: CUDA C through NVRTC to a cubin or to
 * PTX (runtime/gpu/cuda_table.h). Every one is validated against the
 * rule and the reference before it is handed out. */
#ifndef GG_TABLE_KERNEL_H
#define GG_TABLE_KERNEL_H

#include <stdbool.h>

#include "config.h"
#include "error.h"
#include "fail.h"
#include "rulefile.h"
#include "table_universe.h"

/* The backends that run rule tables, in the order messages list them. */
#define GG_TABLE_BACKENDS "cpu, opencl, cuda, ptx"

typedef struct gg_table_kernel {
    const char *backend; /* "cpu", "opencl", "cuda" or "ptx" */
    void *ctx;
    gg_table_step_fn step; /* a table universe's stepper (ctx) */
    void (*close)(void *ctx);
    char what[200]; /* "cpu avx512, 2 threads, cached kernel" */
} gg_table_kernel;

/* Whether `backend` runs rule tables. */
bool gg_table_backend_known(const char *backend);

/* Compile, validate and open rf for `backend` (one of GG_TABLE_BACKENDS);
 * name: the rule as messages give it; cfg: compiler, caches, NVRTC (NULL:
 * defaults). *why as the backends give it (GG_FAIL_INPUT a rule too
 * large or an unknown backend, GG_FAIL_ENV no compiler or device,
 * GG_FAIL_INVALID validation). rf must outlive the kernel. */
int gg_table_kernel_open(const char *backend, const gg_rulefile *rf,
                         const char *name, const gg_config *cfg,
                         gg_table_kernel *k, gg_fail_kind *why, gg_err *err);

/* The cpu kernel on one thread, for an engine that steps many small
 * squares one batch at a time (the hash tree's leaves: threads would
 * cost more than they give); as gg_table_kernel_open otherwise. */
int gg_table_kernel_open_leaves(const gg_rulefile *rf, const char *name,
                                const gg_config *cfg, gg_table_kernel *k,
                                gg_fail_kind *why, gg_err *err);

/* Nothing for a kernel never opened (zeroed). */
void gg_table_kernel_close(gg_table_kernel *k);

#endif

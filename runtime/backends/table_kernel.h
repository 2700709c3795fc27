/* A Golly rule table or tree (gen/rulefile/rulefile.h) compiled for a
 * backend: the backend table's open_table (backend.h) does the work,
 * each backend for its own kernel (cpu: runtime/backends/cpu_table.h;
 * opencl: runtime/gpu/opencl_table.h; cuda and ptx: runtime/gpu/
 * cuda_table.h; reference: the simulator itself). Every kernel is
 * validated against the rule and the reference before it is handed
 * out. This file picks the backend for auto and for the hash tree's
 * leaves; nothing here knows a backend by name. */
#ifndef GG_TABLE_KERNEL_H
#define GG_TABLE_KERNEL_H

#include <stdbool.h>

#include "backend.h"
#include "config.h"
#include "error.h"
#include "fail.h"
#include "rulefile.h"
#include "table_universe.h"

typedef struct gg_table_kernel {
    const char *backend; /* the backend's name (gg_backend_info.name) */
    void *ctx;
    /* a table universe's stepper (ctx); NULL: the reference simulator,
     * which the universe holds itself (it polls a stop) */
    gg_table_step_fn step;
    void (*close)(void *ctx);
    char what[200]; /* "cpu avx512, 2 threads, cached kernel" */
    /* auto: why the backends it tried before this one did not open
     * ("no cpu kernel (...)"); empty when the first opened */
    char note[320];
} gg_table_kernel;

/* What a caller asks for. */
typedef struct gg_table_ask {
    const gg_backend_info *info; /* NULL: auto, the first of auto's
                                    backends that steps the host's grid
                                    and opens (the reference last) */
    const gg_config *config;     /* compiler, caches, NVRTC; NULL:
                                    defaults */
    /* for an engine that steps many small squares one batch at a time
     * (the hash tree's leaves): one thread, since threads would cost
     * more than they give; the backend must be one that steps the
     * host's grid (gg_table_backend_on_host) */
    bool leaves;
} gg_table_ask;

/* Whether info (NULL: auto) steps rule tables on the host's grid, so
 * that the hash tree can hand it leaf squares. */
bool gg_table_backend_on_host(const gg_backend_info *info);

/* The backends that run rule tables on the host, sep between names
 * (messages that ask for one). */
void gg_table_host_names(const char *sep, char *buf, size_t size);

/* Compile, validate and open rf as a asks; name: the rule as messages
 * give it. A backend that does not run rule tables is refused as
 * gg_backend_takes refuses it. *why as the backends give it
 * (GG_FAIL_INPUT a rule too large or a backend that cannot, GG_FAIL_ENV
 * no compiler or device, GG_FAIL_INVALID validation). rf must outlive
 * the kernel. */
int gg_table_kernel_open(const gg_table_ask *a, const gg_rulefile *rf,
                         const char *name, gg_table_kernel *k,
                         gg_fail_kind *why, gg_err *err);

/* gens generations of cells through k, or through the reference
 * simulator where k has no step (no stop polled). */
int gg_table_kernel_step(const gg_table_kernel *k, const gg_rulefile *rf,
                         gg_topo topo, gg_gen_cells *cells, int64_t gens,
                         gg_err *err);

/* Nothing for a kernel never opened (zeroed). */
void gg_table_kernel_close(gg_table_kernel *k);

#endif

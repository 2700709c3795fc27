#include "table_kernel.h"

#include <stdio.h>
#include <string.h>

#include "cpu_table.h"
#include "cuda_table.h"
#include "opencl_table.h"

bool gg_table_backend_known(const char *b)
{
    return b && (!strcmp(b, "cpu") || !strcmp(b, "opencl") ||
                 !strcmp(b, "cuda") || !strcmp(b, "ptx"));
}

static void close_cpu(void *ctx) { gg_cpu_table_close(ctx); }
static void close_opencl(void *ctx) { gg_opencl_table_close(ctx); }
static void close_cuda(void *ctx) { gg_cuda_tk_close(ctx); }

static int open_cpu(const gg_rulefile *rf, const char *name,
                    const gg_config *cfg, int threads, gg_table_kernel *k,
                    gg_fail_kind *why, gg_err *err)
{
    gg_cpu_table_opts co = {.config = cfg, .threads = threads};
    gg_cpu_table *c;
    if (gg_cpu_table_open(rf, name, &co, &c, why, err))
        return -1;
    int n = gg_cpu_table_threads(c);
    snprintf(k->what, sizeof k->what, "cpu %s, %d thread%s%s",
             gg_cpu_table_isa(c), n, n == 1 ? "" : "s",
             gg_cpu_table_cache_hit(c) ? ", cached kernel" : "");
    k->ctx = c;
    k->step = gg_cpu_table_step_cb;
    k->close = close_cpu;
    return 0;
}

static int open_gpu(const char *backend, const gg_rulefile *rf,
                    const char *name, const gg_config *cfg,
                    gg_table_kernel *k, gg_fail_kind *why, gg_err *err)
{
    gg_gpu_table_opts go = {.config = cfg};
    if (!strcmp(backend, "opencl")) {
        gg_opencl_table *c;
        if (gg_opencl_table_open(rf, name, &go, &c, why, err))
            return -1;
        snprintf(k->what, sizeof k->what, "opencl on %s",
                 gg_opencl_table_device(c));
        k->ctx = c;
        k->step = gg_opencl_table_step_cb;
        k->close = close_opencl;
        return 0;
    }
    bool ptx = !strcmp(backend, "ptx");
    gg_cuda_tk *c;
    if (gg_cuda_tk_open(rf, name, ptx, &go, &c, why, err))
        return -1;
    snprintf(k->what, sizeof k->what, "%s on %s%s", backend,
             gg_cuda_tk_device(c),
             gg_cuda_tk_cache_hit(c) ? ", cached kernel" : "");
    k->ctx = c;
    k->step = gg_cuda_tk_step_cb;
    k->close = close_cuda;
    return 0;
}

int gg_table_kernel_open(const char *backend, const gg_rulefile *rf,
                         const char *name, const gg_config *cfg,
                         gg_table_kernel *k, gg_fail_kind *why, gg_err *err)
{
    memset(k, 0, sizeof *k);
    *why = GG_FAIL_INPUT;
    if (!gg_table_backend_known(backend))
        return gg_fail(err, "backend %s does not run Golly rule tables "
                       "(those that do: " GG_TABLE_BACKENDS ")",
                       backend ? backend : "(none)");
    int bad = !strcmp(backend, "cpu")
                  ? open_cpu(rf, name, cfg, 0, k, why, err)
                  : open_gpu(backend, rf, name, cfg, k, why, err);
    if (bad) {
        memset(k, 0, sizeof *k);
        return -1;
    }
    k->backend = !strcmp(backend, "cpu")      ? "cpu"
                 : !strcmp(backend, "opencl") ? "opencl"
                 : !strcmp(backend, "cuda")   ? "cuda"
                                              : "ptx";
    return 0;
}

int gg_table_kernel_open_leaves(const gg_rulefile *rf, const char *name,
                                const gg_config *cfg, gg_table_kernel *k,
                                gg_fail_kind *why, gg_err *err)
{
    memset(k, 0, sizeof *k);
    if (open_cpu(rf, name, cfg, 1, k, why, err)) {
        memset(k, 0, sizeof *k);
        return -1;
    }
    k->backend = "cpu";
    return 0;
}

void gg_table_kernel_close(gg_table_kernel *k)
{
    if (k && k->close)
        k->close(k->ctx);
    if (k)
        memset(k, 0, sizeof *k);
}

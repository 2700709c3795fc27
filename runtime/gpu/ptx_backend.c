/* The ptx backend: the rule's emitted PTX module loaded by the CUDA
 * driver's JIT. It shares the device, tuning and stepping code of the cuda
 * backend (runtime/gpu/cuda_backend.c) and differs in the kernel language. */
#include "backend.h"
#include "cuda_backend.h"
#include "cuda_device.h"
#include "cuda_resident.h"
#include "cuda_table.h"

static int ptx_probe(const gg_backend_opts *o, gg_err *err)
{
    return gg_cuda_table_probe(GG_CUDA_LANG_PTX, o->config, err);
}

static int ptx_open(const gg_rule *rule, const gg_backend_opts *o,
                    void **state, gg_fail_kind *why, gg_err *err)
{
    return gg_cuda_table_open(GG_CUDA_LANG_PTX, rule, o, state, why, err);
}

const gg_backend_info gg_backend_ptx = {
    .name = "ptx",
    .probe = ptx_probe,
    .open = ptx_open,
    .open_table = gg_cuda_tk_open_ptx,
    GG_CUDA_SHARED_OPS,
};

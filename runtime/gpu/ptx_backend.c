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
    .open_table = gg_cuda_tk_open_ptx,
    .probe = ptx_probe,
    .open = ptx_open,
    .upload = gg_cuda_table_upload,
    .step = gg_cuda_table_step,
    .download = gg_cuda_table_download,
    .stream = gg_cuda_table_stream,
    .rows = gg_cuda_table_rows,
    .peer_rows = gg_cuda_table_peer_rows,
    .queue_step = gg_cuda_table_queue_step,
    .queue_peer_rows = gg_cuda_table_queue_peer_rows,
    .finish = gg_cuda_table_finish,
    .upload_empty = gg_cuda_table_upload_empty,
    .rows_at = gg_cuda_table_rows_at,
    .live_rows = gg_cuda_table_live_rows,
    .tiles_step = gg_cuda_table_tiles_step,
    .timed_step = gg_cuda_table_timed_step,
    .max_batch = gg_cuda_table_max_batch,
    .describe = gg_cuda_table_describe,
    .close = gg_cuda_table_close,
    .upload_cells = gg_cuda_table_upload_cells,
    .download_cells = gg_cuda_table_download_cells,
    .plan_devices = gg_cu_plan_devices,
    .opens_at_once = true,
};

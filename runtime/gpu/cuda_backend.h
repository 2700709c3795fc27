/* The CUDA backends: the rule's CUDA C kernel compiled by NVRTC ("cuda") or
 * its emitted PTX module ("ptx"), loaded through the driver API. Both
 * libraries are opened at run time (runtime/gpu/cuda_api.h), so golgen runs on
 * machines without them and says there is no GPU (GG_FAIL_ENV).
 *
 * Opening picks the launch shape (generations per launch, shift flavour,
 * warps per block) from the per-device tuning cache, or measures a few
 * candidates once and caches the winner; then the kernel is validated on
 * the device against the reference before it is used. Compiled CUDA
 * kernels are cached as cubins in the cache directory (runtime/backends/jit.h says
 * where), keyed by a hash of source, options and NVRTC version.
 *
 * The registry reaches both as gg_backend_cuda and gg_backend_ptx
 * (runtime/backends/backend.h; the second is runtime/gpu/ptx_backend.c); tests use the
 * functions below directly. */
#ifndef GG_CUDA_BACKEND_H
#define GG_CUDA_BACKEND_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "backend.h"
#include "band_stepper.h"
#include "config.h"
#include "error.h"
#include "fail.h"
#include "gen_cells.h"
#include "gpu_tune.h"
#include "grid.h"
#include "rule.h"

typedef enum gg_cuda_lang {
    GG_CUDA_LANG_CUDA, /* CUDA C through NVRTC */
    GG_CUDA_LANG_PTX,  /* the PTX target through the driver's JIT */
} gg_cuda_lang;

typedef struct gg_cuda_opts {
    gg_cuda_lang lang;
    gg_gpu_tune tune;      /* all zero: tuning cache or autotune */
    int strip;             /* rows per task; 0: the cost model's choice */
    int device;            /* CUDA device ordinal */
    const char *cache_dir; /* NULL: config's */
    const gg_config *config; /* cache, NVRTC, GOLGEN_GPU_TUNE and the
                                other GPU settings; NULL: defaults */
    bool announce;         /* say on stderr when autotuning (it takes
                              seconds per candidate) */
    int64_t width_hint;    /* gg_backend_opts.width_hint, height_hint */
    int64_t height_hint;
} gg_cuda_opts;

typedef struct gg_cuda gg_cuda;

/* Emit, compile (or find in the cache), load, tune and validate. */
int gg_cuda_open(const gg_rule *rule, const gg_cuda_opts *o, gg_cuda **out,
                 gg_fail_kind *why, gg_err *err);

/* The same from given kernel source (CUDA C or PTX per o->lang) with a
 * given tune: tests feed broken kernels to see validation refuse them. */
int gg_cuda_open_source(const gg_rule *rule, const char *src,
                        const gg_cuda_opts *o, gg_cuda **out,
                        gg_fail_kind *why, gg_err *err);

/* Advance grid in place (upload, run, download); topo is GG_TOPO_TORUS or
 * GG_TOPO_PLANE. */
int gg_cuda_step(gg_cuda *c, gg_topo topo, gg_grid *grid, int64_t gens,
                 gg_err *err);

/* "NVIDIA H100 80GB HBM3 (sm_90, 132 SMs)" and the launch shape. */
const char *gg_cuda_device(const gg_cuda *c);
gg_gpu_tune gg_cuda_tune(const gg_cuda *c);
bool gg_cuda_cache_hit(const gg_cuda *c);
int gg_cuda_registers(const gg_cuda *c); /* of the main kernel */

void gg_cuda_close(gg_cuda *c);

/* NVRTC alone (works without a GPU): compile CUDA C for arch ("sm_90"
 * gives a cubin when cubin is true, "compute_90" PTX), with extra options.
 * Fails with GG_FAIL_ENV when libnvrtc cannot be loaded; nvrtc_lib names
 * it (GOLGEN_NVRTC), NULL: the usual names. */
int gg_nvrtc_compile(const char *nvrtc_lib, const char *src, const char *arch, bool cubin,
                     const char *const *opts, int nopts, char **out,
                     size_t *len, gg_fail_kind *why, gg_err *err);

/* gg_nvrtc_compile through a cache folder (NULL: none): the image is
 * read from cache_dir/PREFIX-HASH.cubin (or .ptx), HASH of the source,
 * the options and arch, else compiled and written there (a failed write
 * only costs the next run a compile). *hit, when not NULL, says whether
 * it was read. PTX comes back as a C string. */
int gg_nvrtc_cached(const char *cache_dir, const char *prefix,
                    const char *nvrtc_lib, const char *src, const char *arch,
                    bool cubin, const char *const *opts, int nopts,
                    char **out, size_t *len, bool *hit, gg_fail_kind *why,
                    gg_err *err);

/* gg_nvrtc_cached for a kernel of family `prefix` on a device of compute
 * capability cc, as PTX (ptx) or a cubin: the cache folder and NVRTC
 * library from config (NULL: the defaults; no cache folder: compiled). */
int gg_nvrtc_image(const gg_config *config, const char *prefix,
                   const char *src, int cc, bool ptx, char **out,
                   size_t *len, bool *hit, gg_fail_kind *why, gg_err *err);

/* A grid larger than max_bytes of device memory, streamed through the
 * device in bands with the transfers overlapped (runtime/gpu/cuda_stream.c);
 * a grid that fits runs as gg_cuda_step. Two-state rules. */
int gg_cuda_stream_step(gg_cuda *c, gg_topo topo, gg_grid *grid,
                        int64_t gens, int64_t max_bytes,
                        gg_stream_stats *stats, gg_err *err);

/* ---- the backend table's functions, shared by cuda and ptx ---- */

/* 0 when the driver sees a GPU (and, for CUDA C, NVRTC loads). */
int gg_cuda_table_probe(gg_cuda_lang lang, const gg_config *config,
                        gg_err *err);
/* gg_cuda_open for lang with the common options; *state is a gg_cuda. */
int gg_cuda_table_open(gg_cuda_lang lang, const gg_rule *rule,
                       const gg_backend_opts *bo, void **state,
                       gg_fail_kind *why, gg_err *err);
int gg_cuda_table_upload(void *state, gg_grid *grid, gg_topo topo,
                         gg_err *err);
int gg_cuda_table_step(void *state, int64_t gens, gg_err *err);
int gg_cuda_table_download(void *state, gg_grid *grid, gg_err *err);
int gg_cuda_table_timed_step(void *state, int64_t gens, int64_t *warm,
                             double *seconds, gg_err *err);
int64_t gg_cuda_table_max_batch(void *state);
/* what: "NVIDIA H100 ..., T16 shf wpb4 wpl1, 168 regs"; open: the
 * seconds by phase of opening so far ("device 0.31 s, ..."). */
void gg_cuda_table_describe(void *state, gg_backend_desc *d);
void gg_cuda_table_close(void *state);
/* Generations rules: every state plane (p_ps words apart on the device,
 * as both kernel languages take them). */
int gg_cuda_table_upload_cells(void *state, gg_gen_cells *cells,
                               gg_topo topo, gg_err *err);
int gg_cuda_table_download_cells(void *state, gg_gen_cells *cells,
                                 gg_err *err);
int gg_cuda_table_rows(void *state, gg_grid *grid, int64_t y, int64_t n,
                       bool up, gg_err *err);
/* Bands on several devices (runtime/gpu/cuda_bands.c): rows of the grid
 * resident in `from` onto this one's (peer_rows), and the same queued
 * behind both bands' work with steps that do not wait (queue_*,
 * finish). */
int gg_cuda_table_peer_rows(void *state, int64_t at, void *from, int64_t src,
                            int64_t n, gg_err *err);
int gg_cuda_table_queue_step(void *state, int64_t gens, gg_err *err);
int gg_cuda_table_queue_peer_rows(void *state, int64_t at, void *from,
                                  int64_t src, int64_t n, gg_err *err);
int gg_cuda_table_finish(void *state, gg_err *err);
/* Active tiles on the resident grid (runtime/gpu/cuda_tiles.c). */
int gg_cuda_table_tiles_step(void *state, const gg_tiles_plan *plan,
                             int64_t gens, uint8_t *flags, gg_err *err);
int gg_cuda_table_stream(void *state, gg_grid *grid, gg_topo topo,
                         int64_t gens, int64_t max_bytes,
                         gg_stream_stats *stats, gg_err *err);

/* The ops the cuda and ptx backends share (their gg_backend_info, in
 * cuda_backend.c and ptx_backend.c): they differ in the kernel's
 * language (probe, open, open_table) and nothing else. */
#define GG_CUDA_SHARED_OPS                                                  \
    .upload = gg_cuda_table_upload, .step = gg_cuda_table_step,             \
    .download = gg_cuda_table_download, .stream = gg_cuda_table_stream,     \
    .rows = gg_cuda_table_rows, .peer_rows = gg_cuda_table_peer_rows,       \
    .queue_step = gg_cuda_table_queue_step,                                 \
    .queue_peer_rows = gg_cuda_table_queue_peer_rows,                       \
    .finish = gg_cuda_table_finish,                                         \
    .upload_empty = gg_cuda_table_upload_empty,                             \
    .rows_at = gg_cuda_table_rows_at, .live_rows = gg_cuda_table_live_rows, \
    .tiles_step = gg_cuda_table_tiles_step,                                 \
    .timed_step = gg_cuda_table_timed_step,                                 \
    .max_batch = gg_cuda_table_max_batch,                                   \
    .describe = gg_cuda_table_describe, .close = gg_cuda_table_close,       \
    .upload_cells = gg_cuda_table_upload_cells,                             \
    .download_cells = gg_cuda_table_download_cells,                         \
    .plan_devices = gg_cu_plan_devices, .opens_at_once = true

#endif

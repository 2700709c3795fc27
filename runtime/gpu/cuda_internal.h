/* The CUDA backend's state, shared by its files (cuda_backend.c: open,
 * close and the backend table; cuda_nvrtc.c: NVRTC; cuda_module.c: build,
 * load and validate modules; cuda_tune.c: the autotuner; cuda_step.c: step
 * a resident grid; cuda_stream.c: stream a grid larger than the device
 * through it in bands; cuda_bands.c: bands on several devices). Not part
 * of any public interface. */
#ifndef GG_CUDA_INTERNAL_H
#define GG_CUDA_INTERNAL_H

#include <stdbool.h>
#include <stdint.h>
#include <time.h>

#include "config.h"
#include "cuda_api.h"
#include "cuda_backend.h"
#include "gpu_layout.h"
#include "gpu_tune.h"
#include "kernel_source.h"

typedef struct gg_cuda_streamer gg_cuda_streamer;
typedef struct gg_cuda_tiles gg_cuda_tiles;

#if defined(__SANITIZE_ADDRESS__)
#include <sanitizer/lsan_interface.h>
/* NVRTC keeps internal allocations past nvrtcDestroyProgram that
 * LeakSanitizer reports as leaks of an unknown module; they are not
 * golgen's, so its calls run with leak tracking off. */
#define GG_LSAN_OFF() __lsan_disable()
#define GG_LSAN_ON() __lsan_enable()
#else
#define GG_LSAN_OFF() ((void)0)
#define GG_LSAN_ON() ((void)0)
#endif

#define N_ENTRIES 5 /* gg_step_1, 2, 4, 8, 16 */
#define GG_MAX_MODULES 3

/* Where opening a backend spends its seconds (what a first use waits
 * for): describe reports them. */
enum {
    GG_PH_DEVICE,   /* driver and context */
    GG_PH_CIRCUIT,  /* the rule's circuit built and checked */
    GG_PH_TUNE,     /* the autotuner: builds and timing of its candidates */
    GG_PH_COMPILE,  /* ... of which the candidates' side-by-side compiles */
    GG_PH_BUILD,    /* compiles and module loads outside the tuner */
    GG_PH_VALIDATE, /* the generic module's validation cases */
    GG_PH_WIDTH,    /* a constant-stride module's cases at its width */
    GG_PH_N
};

struct gg_cuda {
    gg_rule rule;
    gg_cuda_opts o;
    const gg_config *cfg; /* o.config or the defaults, never NULL */
    gg_cu_api cu;
    CUdevice dev;
    CUcontext ctx;
    CUmodule mod[GG_MAX_MODULES]; /* the kernel's entries, in up to */
    int n_mod;                    /* three modules (runtime/gpu/ptxas.h) */
    CUfunction step[N_ENTRIES], ghost;
    gg_gpu_tune tune;
    int sms, cc, regs;
    int64_t resident; /* warps of the main kernel that fit at once */
    char name[256], cache_dir[4096];
    bool cache_hit;
    gg_gpu_geom geom;
    CUdeviceptr buf[2];
    int cur;
    bool given;      /* the module comes from the caller's source */
    int kns;         /* row stride (words) the PTX module has as a
                        constant; 0: the generic module */
    bool kns_valid;  /* that module passed its width's validation */
    bool generic_valid;    /* the generic module passed its cases */
    bool checking_generic; /* ... which are running now */
    int checking;    /* the stride being validated (keeps its module) */
    bool tuning;     /* autotune is timing candidates (module_for) */
    gg_topo topo;    /* of the uploaded grid (backend table) */
    int np;          /* state planes per cell (Generations rules: > 1) */
    size_t pbytes;   /* bytes of one plane in a device buffer */
    gg_cuda_streamer *streamer; /* band slots kept between streamed
                                   calls (cuda_stream.c) */
    CUstream stream; /* where launches and ghost copies go (NULL: the
                        legacy stream; streamed bands: their own) */
    gg_gpu_parts parts;    /* the rule's circuit, chosen once per open
                              (none for a given source) */
    double phase[GG_PH_N]; /* seconds by phase (GG_PH_*) */
    uint64_t peers_tried;  /* devices (bit per ordinal) whose memory this
                              context was given direct access to, or
                              found it cannot reach (peer_rows) */
    CUevent queued_done;   /* queued work of this band, for a neighbour's
                              copy to wait on (cuda_bands.c) */
    CUevent copy_done;     /* a copy into this band, for the band read
                              from to wait on before writing again */
    int builds;            /* modules built outside the tuner */
    uint64_t image_hash;   /* the loaded module's images (their bytes) */
    int stamps;            /* checks skipped: the module's stamp was in
                              the cache (cuda_module.c) */
    gg_cuda_tiles *tiles;  /* active tiles' kernels and scratch, made at
                              their first use (cuda_tiles.c) */
};

/* The device layout of a width x height grid (no launch plan yet). */
int gg_cuda_layout(const gg_cuda *c, int64_t width, int64_t height,
                   gg_gpu_geom *g, gg_err *err);
/* Load (and validate at its width) the module layout g wants. */
int gg_cuda_module_for(gg_cuda *c, const gg_gpu_geom *g, gg_err *err);
void gg_cuda_free_buffers(gg_cuda *c);
/* Queue gens generations of c->buf[c->cur] on c->stream, ping-ponging
 * c->cur; nothing waits for them. */
int gg_cuda_launches(gg_cuda *c, gg_topo topo, int64_t gens, gg_err *err);
/* rows rows between host rows (of grid host's stride) and device rows
 * laid out as c->geom, queued on stream s; up: host to device. */
int gg_cuda_copy_rows(gg_cuda *c, CUstream s, bool up, CUdeviceptr dev_row,
                      uint64_t *host_row, const gg_grid *host, int64_t rows,
                      gg_err *err);
/* The streamed path's slots and staging, freed (close; a new size). */
void gg_cuda_stream_free(gg_cuda *c);
int gg_cuda_check(const gg_cuda *c, CUresult r, const char *what,
                  gg_err *err);
/* The calling thread gets the device's context: the multi-band runner
 * (runtime/universes/multi_band.h) drives each band from a thread of its own. */
int gg_cuda_current(gg_cuda *c, gg_err *err);
/* The bands' events, freed (close). */
void gg_cuda_bands_free(gg_cuda *c);

/* Seconds on the monotonic clock (the phases, timed steps). */
static inline double gg_cuda_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* Grids of at least this many rows get a module (PTX or CUDA C) with
 * their row stride as a constant (the validation cases have fewer). */
#define GG_PTX_KSTRIDE_ROWS 512

/* cuda_nvrtc.c: NVRTC opened (given: GOLGEN_NVRTC or NULL) and resolved. */
int gg_nvrtc_load(gg_nvrtc_api *nv, const char *given, gg_err *err);

/* cuda_module.c */
/* The cubin of CUDA C src with NVRTC options opts, from the kernel cache
 * (PREFIX-HASH.cubin: the source, options and architecture hashed) or
 * compiled and kept there; *hit says which. */
int gg_cuda_nvrtc_image(const gg_cuda *c, const char *prefix,
                        const char *src, const char *const *opts, int nopts,
                        char **img, size_t *len, bool *hit, gg_err *err);
/* Build and load the module for c->tune from source (CUDA C or PTX; NULL:
 * emit the rule's). */
int gg_cuda_build(gg_cuda *c, const char *given, gg_err *err);
void gg_cuda_unload(gg_cuda *c);
/* The autotuner's candidates compiled into the kernel cache side by side
 * (CUDA C with NVRTC, PTX with ptxas). */
void gg_cuda_precompile_cuda(const gg_cuda *c, const gg_gpu_tune *cand,
                             size_t n);
void gg_cuda_precompile_ptx(const gg_cuda *c, const gg_gpu_tune *cand,
                            size_t n);
/* The row stride the module for layout g has as a constant; 0: generic. */
int gg_cuda_wanted_stride(const gg_cuda *c, const gg_gpu_geom *g);
/* The generic module's validation cases. */
int gg_cuda_validate_generic(gg_cuda *c, gg_err *err);

/* cuda_backend.c */
/* A von Neumann or hexagonal totalistic rule's circuit with the
 * neighbours read directly (front none) instead of the row sums, when
 * that costs fewer gates per word; other circuits stay. */
void gg_cuda_cheaper_front(gg_circuit *c, const gg_choose_opts *o);

/* cuda_step.c */
/* Device buffers and module for grid's size, the launch plan for strip. */
int gg_cuda_prepare(gg_cuda *c, const gg_grid *grid, int strip, gg_err *err);
int gg_cuda_upload(gg_cuda *c, const gg_grid *grid, gg_err *err);
/* gens generations of the uploaded grid, waited for. */
int gg_cuda_run(gg_cuda *c, gg_topo topo, int64_t gens, gg_err *err);
/* The steps the validation cases drive: a grid, Generations cells. */
int gg_cuda_step_strip(void *ctx, gg_topo topo, gg_grid *grid, int64_t gens,
                       int strip, gg_err *err);
int gg_cuda_step_cells(void *ctx, gg_topo topo, gg_gen_cells *cells,
                       int64_t gens, gg_err *err);

/* cuda_tiles.c: the tiles' kernels and scratch, freed (close). */
void gg_cuda_tiles_free(gg_cuda *c);

/* cuda_tune.c */
/* The layout of the grid the caller hinted; false when none was. */
bool gg_cuda_hinted_layout(const gg_cuda *c, gg_gpu_geom *g);
/* The row stride of the module for the hinted grid (0: none or generic). */
int gg_cuda_hinted_stride(const gg_cuda *c);
/* The launch shape (given, cached or tuned) and the first module built. */
int gg_cuda_choose_tune(gg_cuda *c, gg_err *err);

#endif

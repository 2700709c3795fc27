/* One backend interface (in the spirit of Halide's runtime and Golly's
 * lifealgo): each backend fills in a gg_backend_info, the registry
 * (runtime/backends/backends.c) lists them, and the CLI and the library reach every
 * backend through it, never by name. Validation and autotuning stay inside
 * a backend's open, built from its own step (runtime/backends/validate.h,
 * runtime/gpu/gpu_validate.h take a step function).
 *
 * Life of an open backend: open for a rule; upload a grid and its
 * topology; step it N generations (as often as wanted); download; close.
 * A host backend steps the uploaded grid in place (it may swap the grid's
 * bits buffer), a device backend copies it; either way the grid holds the
 * generation reached only after download. */
#ifndef GG_BACKEND_H
#define GG_BACKEND_H

#include <stdbool.h>
#include <stdint.h>

#include "band_stepper.h"
#include "config.h"
#include "error.h"
#include "fail.h"
#include "gen_cells.h"
#include "gen_universe.h"
#include "grid.h"
#include "rule.h"
#include "step_watch.h"
#include "stop.h"
#include "universe.h"

struct gg_rulefile;     /* gen/rulefile/rulefile.h */
struct gg_table_kernel; /* runtime/backends/table_kernel.h */

/* Active tiles on a device (runtime/engines/tiles.h): which tiles of the
 * uploaded grid, cut into side x side tiles (nx x ny of them), a call
 * steps. */
typedef struct gg_tiles_plan {
    int64_t side, halo; /* a tile's side and its halo (cells) */
    int64_t nx, ny;
    const int64_t *list; /* tile indices (y * nx + x) */
    int64_t count;       /* -1: the whole grid */
} gg_tiles_plan;

/* Options a backend may accept beyond the common ones (info.options); a
 * caller that sets one for a backend without its bit is told so (bench:
 * "--isa applies to the cpu backend only"). */
enum {
    GG_BACKEND_OPT_ISA = 1u << 0,     /* isa */
    GG_BACKEND_OPT_THREADS = 1u << 1, /* threads */
};

/* What open gets: the common settings and the optional ones above. */
typedef struct gg_backend_opts {
    const gg_config *config; /* the environment's settings (cache, compiler,
                                GPU launch shape...); NULL: defaults */
    bool announce;           /* say on stderr before slow first-use work
                                (GPU autotuning takes seconds) */
    const char *isa;         /* GG_BACKEND_OPT_ISA; NULL: the best */
    int threads;             /* GG_BACKEND_OPT_THREADS; 0: all */
    int device;              /* device ordinal (GPU backends; host
                                backends have one: 0) */
    /* The size of the grid the caller runs first (0: not known): a GPU
     * backend then builds and checks the module made for that size first,
     * and its generic one only when a grid needs it. */
    int64_t width_hint, height_hint;
    /* Auto takes only backends that step the host's grid in place (no
     * rows: no device copy), for many small steps: the hash tree's
     * leaves (runtime/engines/hashlife.h). */
    bool host_only;
    /* 3D rules on cuda (bench's --slab, --ty): planes and rows per
     * thread; 0: sized to the GPU, and 4 */
    int slab3d, ty3d;
    /* Two rules by parity (a B0 rule's pair on the unbounded plane,
     * gen/rules/rule_b0.h): a backend with step_parity opens one kernel
     * for the rule and odd_rule, which step_parity alternates; the others
     * open the rule alone (gg_backend_pairs says which happened). NULL:
     * one rule. */
    const gg_rule *odd_rule;
} gg_backend_opts;

/* What an open backend says about itself (bench prints it). */
typedef struct gg_backend_desc {
    char what[400]; /* "avx512", "scalar", or the device and launch shape */
    int threads;    /* host threads a step uses */
    bool cache_hit; /* the kernel came from the cache, not a compiler */
    int gates_per_word; /* logic gates per 64-cell word of the two-state
                           network the kernel runs (cpu); 0: not said */
    char open[200]; /* where opening (and checking the kernel at a new
                       width) spent its time, or empty */
    /* generations one pass of the kernel over the grid runs when the
     * call asks for as many (cpu: its temporal blocking), so a call of
     * fewer moves the grid through memory as often; 0: no such pass */
    int pass_gens;
} gg_backend_desc;

typedef struct gg_backend_info {
    const char *name;  /* --backend NAME */
    unsigned options;  /* GG_BACKEND_OPT_* it reads */
    /* 0 when it can run here; else -1 and err says why in one line. */
    int (*probe)(const gg_backend_opts *o, gg_err *err);
    /* Build (or load), validate; *state is the backend's own. */
    int (*open)(const gg_rule *rule, const gg_backend_opts *o, void **state,
                gg_fail_kind *why, gg_err *err);
    int (*upload)(void *state, gg_grid *grid, gg_topo topo, gg_err *err);
    int (*step)(void *state, int64_t gens, gg_err *err);
    /* Optional (cpu): on a backend opened with o->odd_rule, gens
     * generations of the uploaded grid, the first by the rule opened
     * (parity 0) or by odd_rule (parity 1), then each by the other rule
     * than the one before, in one call (the hash tree's leaf squares of a
     * B0 rule: a batch's count at once where a generation a call cost
     * ~400 ns a call beyond its cells). NULL: two backends, a generation
     * a call. */
    int (*step_parity)(void *state, int64_t gens, int parity, gg_err *err);
    /* Optional (cpu): step with a watcher that sees chosen rows of every
     * w->every-th generation from inside the kernel's pass (step_watch.h:
     * golgen serve's frames); NULL: none. */
    int (*step_watched)(void *state, int64_t gens, const gg_step_watch *w,
                        gg_err *err);
    /* Optional, backends whose one generation of a big grid takes
     * seconds (reference): step, given up once *stop is set
     * (runtime/base/stop.h), the uploaded grid then at the last generation
     * completed; returns the generations run, -1 on failure. NULL: a
     * step runs whole (calls are short: runtime/universes/batch.h). */
    int64_t (*step_until)(void *state, int64_t gens, gg_stop_flag *stop,
                          gg_err *err);
    int (*download)(void *state, gg_grid *grid, gg_err *err);
    /* Optional (NULL: timed on the host around step): `*warm` untimed
     * generations, then `gens` timed by the device; both advance the
     * uploaded grid. */
    int (*timed_step)(void *state, int64_t gens, int64_t *warm,
                      double *seconds, gg_err *err);
    /* Most generations per upload-step-download in a universe run (0: no
     * bound); bounds the margin of the unbounded plane. */
    int64_t (*max_batch)(void *state);
    void (*describe)(void *state, gg_backend_desc *d);
    void (*close)(void *state);
    /* Generations rules (runtime/universes/gen_cells.h), optional: NULL when the
     * backend runs two-state rules only (gg_backend_open then refuses a
     * multi-state rule). A backend opened for such a rule takes its
     * cells through these instead of upload/download; step is shared. */
    int (*upload_cells)(void *state, gg_gen_cells *cells, gg_topo topo,
                        gg_err *err);
    int (*download_cells)(void *state, gg_gen_cells *cells, gg_err *err);
    /* Optional: advance a grid that may exceed max_bytes of the backend's
     * memory by streaming it through in bands, transfers overlapped with
     * compute (cuda, ptx). Without it, gg_backend_memory_stepper wraps
     * the backend in runtime/universes/band_stepper.h. */
    int (*stream)(void *state, gg_grid *grid, gg_topo topo, int64_t gens,
                  int64_t max_bytes, gg_stream_stats *stats, gg_err *err);
    /* Optional, device backends: rows y .. y + n - 1 between the device's
     * copy of the uploaded grid and `grid` (the one uploaded), up: host
     * to device; callable from any thread. NULL: the backend steps the
     * uploaded grid in place, so the grid's rows are already its own. */
    int (*rows)(void *state, gg_grid *grid, int64_t y, int64_t n, bool up,
                gg_err *err);
    /* Optional, device backends: rows src .. src + n - 1 of the grid
     * resident in `from` (an open backend of the same table) onto rows
     * at .. at + n - 1 of the one resident here, device to device (a peer
     * copy when the two are on different devices; OpenCL, whose contexts
     * share nothing, stages them through the host); grids of one width.
     * NULL: the multi-band runner moves halos through the host. */
    int (*peer_rows)(void *state, int64_t at, void *from, int64_t src,
                     int64_t n, gg_err *err);
    /* Optional, with peer_rows: bands that run their rounds of steps and
     * halo copies without the host waiting in between. queue_step queues
     * gens generations and returns; queue_peer_rows queues peer_rows
     * behind everything queued on both backends and keeps `from` from
     * writing those rows before the copy is done; finish waits for all
     * that was queued. (A backend may do each at once.) */
    int (*queue_step)(void *state, int64_t gens, gg_err *err);
    int (*queue_peer_rows)(void *state, int64_t at, void *from, int64_t src,
                           int64_t n, gg_err *err);
    int (*finish)(void *state, gg_err *err);
    /* Optional, device backends: active tiles on the uploaded grid, which
     * stays on the device (runtime/engines/tiles.h). The plan's tiles step
     * gens (<= halo) generations, each with its halo taken from the grid
     * as it was before the call; flags[k] of list[k] gets bit 0 if the
     * tile changed, bit 1 if it holds a live cell. count -1: the whole
     * grid steps gens generations and flags[tile] of every tile says what
     * its last min(gens, halo) generations did. -1 with err
     * when the grid or the rule is not one it can tile (it then steps
     * nothing). */
    int (*tiles_step)(void *state, const gg_tiles_plan *plan, int64_t gens,
                      uint8_t *flags, gg_err *err);
    /* Optional, device backends, all three or none: a grid that lives on
     * the device alone (runtime/universes/resident.h). upload_empty
     * uploads an all-dead width x height grid with no host copy;
     * rows_at moves rows y .. y + rows->height - 1 of the resident grid
     * to (up) or from rows 0.. of `rows` (a grid of the resident width);
     * live_rows sets live[i] to 1 where row y + i holds a live cell,
     * else 0. */
    int (*upload_empty)(void *state, int64_t width, int64_t height,
                        gg_topo topo, gg_err *err);
    int (*rows_at)(void *state, gg_grid *rows, int64_t y, bool up,
                   gg_err *err);
    int (*live_rows)(void *state, int64_t y, int64_t n, uint8_t *live,
                     gg_err *err);
    /* Optional, device backends: the device ordinals a program will open
     * (its --devices), told before the first open, so that the driver
     * sets up those alone (CUDA: runtime/gpu/cuda_device.h). A program's
     * call (it may set the process's environment), not a library's. */
    void (*plan_devices)(const int *ordinal, int n);
    /* Optional: Golly rule tables and trees (GG_FAMILY_TABLE): rf
     * compiled for this backend, validated, and opened into *k (the step
     * a table universe calls: runtime/backends/table_kernel.h, whose
     * gg_table_kernel_open is how callers reach it); name: the rule as
     * messages give it; o: config, threads, device. NULL: the backend
     * does not run them. */
    int (*open_table)(const struct gg_rulefile *rf, const char *name,
                      const gg_backend_opts *o, struct gg_table_kernel *k,
                      gg_fail_kind *why, gg_err *err);
    /* Device backends whose opens may run in several threads at once (a
     * band per device opened together: cli/cli_devices.c); false: one
     * after the other (PoCL's OpenCL crashed when opened from threads). */
    bool opens_at_once;
} gg_backend_info;

/* ---- the registry (runtime/backends/backends.c) ---- */

/* NULL-terminated, in the order usage texts list them. */
extern const gg_backend_info *const gg_backends[];

/* The backend called name, or NULL with err listing the known ones. */
const gg_backend_info *gg_backend_find(const char *name, gg_err *err);

/* What --backend auto (the default of run and bench) tries, fastest
 * first, NULL-terminated: runtime/backends/backend_auto.h. */
extern const gg_backend_info *const gg_backends_auto[];

/* The first backend that accepts option bit opt (NULL if none). */
const gg_backend_info *gg_backend_accepting(unsigned opt);

/* Every backend's plan_devices, where it has one (a program's
 * --devices, before any backend opens). */
void gg_backends_plan_devices(const int *ordinal, int n);

/* "reference|cpu|..." with sep between names (usage texts). */
void gg_backend_names(const char *sep, char *buf, size_t size);
/* The same for the backends that run Generations rules (upload_cells):
 * the table is the one place that says which do. */
void gg_backend_generations_names(const char *sep, char *buf, size_t size);

/* ---- families and features: the one place that says which work ---- */

/* The families of rules golgen runs. */
typedef enum gg_family {
    GG_FAMILY_TWO_STATE,   /* 2D rules of two states (gen/rules/rule.h) */
    GG_FAMILY_GENERATIONS, /* 2D Generations rules (state planes) */
    GG_FAMILY_3D,          /* 3D totalistic rules (gen/rules/rule3d.h) */
    GG_FAMILY_LTL,         /* Larger than Life (gen/rules/rule_ltl.h) */
    GG_FAMILY_TABLE,       /* Golly rule tables and trees (.rule files) */
} gg_family;

/* What a run or bench may ask of a family on a backend. */
typedef enum gg_feature {
    GG_FEATURE_RUN,        /* step it at all */
    GG_FEATURE_STORE,      /* --store, --resume, --checkpoint-every */
    GG_FEATURE_PICTURES,   /* --png, --frames */
    GG_FEATURE_DEVICES,    /* run --devices: one band per device */
    GG_FEATURE_BENCH_BANDS, /* bench --devices (resident bands, timed) */
    GG_FEATURE_DEVICE_MEM, /* --device-mem: streamed through the backend */
    GG_FEATURE_HOST_MEM,   /* --host-mem: store to store, band by band */
    GG_FEATURE_RANKS,      /* MPI ranks, a band each */
} gg_family_feature;

/* "two-state rules", "Generations rules", "3D rules", "Larger than Life
 * rules", "Golly rule tables and trees". */
const char *gg_family_name(gg_family f);
gg_family gg_rule_family(const gg_rule *rule);

/* The names of the backends that run family f, sep between them (usage
 * texts, golgen rule). */
void gg_backend_family_names(gg_family f, const char *sep, char *buf,
                             size_t size);

/* 0 when backend `info` (NULL: auto, whichever it picks) runs feature for
 * family f; else -1 with err naming the family and the feature (and for
 * a backend that cannot run the family, the ones that can). Every
 * refusal of a feature by family goes through here
 * (runtime/backends/backends.c). */
int gg_backend_takes(const gg_backend_info *info, gg_family f,
                     gg_family_feature feature, gg_err *err);

/* ---- an open backend ---- */

typedef struct gg_backend gg_backend;

int gg_backend_open(const gg_backend_info *info, const gg_rule *rule,
                    const gg_backend_opts *o, gg_backend **out,
                    gg_fail_kind *why, gg_err *err);

/* The table's steps one by one (the multi-band runner keeps grids
 * resident between them): upload, step, the rows of a resident grid
 * (a no-op where the backend steps the grid in place), download. */
int gg_backend_upload(gg_backend *b, gg_topo topo, gg_grid *grid,
                      gg_err *err);
int gg_backend_step(gg_backend *b, int64_t gens, gg_err *err);
/* step with a watcher (step_watch.h), on an uploaded grid; -1 with err on
 * a backend without (gg_backend_watches says which have it). */
bool gg_backend_watches(const gg_backend *b);
int gg_backend_step_watched(gg_backend *b, int64_t gens,
                            const gg_step_watch *w, gg_err *err);
int gg_backend_rows(gg_backend *b, gg_grid *grid, int64_t y, int64_t n,
                    bool up, gg_err *err);
int gg_backend_download(gg_backend *b, gg_grid *grid, gg_err *err);
/* Rows of from's resident grid onto to's, device to device (peer_rows);
 * gg_backend_peers says whether the pair can. */
bool gg_backend_peers(const gg_backend *to, const gg_backend *from);
int gg_backend_peer_rows(gg_backend *to, int64_t at, gg_backend *from,
                         int64_t src, int64_t n, gg_err *err);
/* The queued forms (queue_step ...); gg_backend_queues says whether b
 * has them. */
bool gg_backend_queues(const gg_backend *b);
int gg_backend_queue_step(gg_backend *b, int64_t gens, gg_err *err);
int gg_backend_queue_peer_rows(gg_backend *to, int64_t at, gg_backend *from,
                               int64_t src, int64_t n, gg_err *err);
int gg_backend_finish(gg_backend *b, gg_err *err);
/* Whether steps of distinct open backends may run at once on threads
 * (device backends: each band's device works while the others do). */
bool gg_backend_steps_in_threads(const gg_backend *b);

/* A grid on the device alone (upload_empty, rows_at, live_rows): whether
 * b has the three, and each (-1 with err where b has not). */
bool gg_backend_resident(const gg_backend *b);
int gg_backend_upload_empty(gg_backend *b, gg_topo topo, int64_t width,
                            int64_t height, gg_err *err);
int gg_backend_rows_at(gg_backend *b, gg_grid *rows, int64_t y, bool up,
                       gg_err *err);
int gg_backend_live_rows(gg_backend *b, int64_t y, int64_t n, uint8_t *live,
                         gg_err *err);

/* info->tiles_step, or -1 with err where the backend has none. */
int gg_backend_tiles_step(gg_backend *b, const gg_tiles_plan *plan,
                          int64_t gens, uint8_t *flags, gg_err *err);

/* Upload, step gens, download: grid advances in place. */
int gg_backend_advance(gg_backend *b, gg_topo topo, gg_grid *grid,
                       int64_t gens, gg_err *err);

/* Whether b was opened for two rules by parity (o->odd_rule on a backend
 * with step_parity), and gg_backend_advance by them from parity (0: the
 * rule opened first); -1 with err on any other backend. */
bool gg_backend_pairs(const gg_backend *b);
int gg_backend_advance_parity(gg_backend *b, gg_topo topo, gg_grid *grid,
                              int64_t gens, int parity, gg_err *err);

/* What bench measures of one grid. */
typedef struct gg_backend_timing {
    double seconds;     /* the timed generations alone */
    double cpu_seconds; /* CPU time of all threads meanwhile (host-timed
                           backends; 0 when the device timed) */
} gg_backend_timing;

/* Bench: upload, a warm-up (one generation on the host, the backend's own
 * on a device), `gens` timed generations, download. */
int gg_backend_bench(gg_backend *b, gg_topo topo, gg_grid *grid,
                     int64_t gens, gg_backend_timing *t, gg_err *err);

void gg_backend_describe(gg_backend *b, gg_backend_desc *d);
const gg_backend_info *gg_backend_of(const gg_backend *b);

/* The universe's view of an open backend (gg_universe_run). */
gg_stepper gg_backend_stepper(gg_backend *b);

/* A stepper within max_bytes of the backend's memory (--device-mem): the
 * backend's own streaming when it has one, else the band stepper over
 * gg_backend_stepper. m must outlive the stepper; m->stats and
 * m->bands.bands_run say what streamed. */
typedef struct gg_memory_stepper {
    gg_backend *b;
    int64_t max_bytes;
    gg_stepper whole;      /* the backend's plain stepper */
    gg_band_stepper bands; /* the generic way */
    gg_stream_stats stats; /* the backend's own way, summed over calls */
} gg_memory_stepper;
gg_stepper gg_backend_memory_stepper(gg_backend *b, int64_t max_bytes,
                                     gg_memory_stepper *m);

/* Generations rules: the same over state planes (upload_cells, step,
 * download_cells); bench times `gens` generations after one warm-up. */
int gg_backend_advance_cells(gg_backend *b, gg_topo topo,
                             gg_gen_cells *cells, int64_t gens, gg_err *err);
/* Its steps one by one (a backend opened for a Generations rule): the
 * cells up, gg_backend_step as often as wanted, the cells down. */
int gg_backend_upload_cells(gg_backend *b, gg_topo topo, gg_gen_cells *cells,
                            gg_err *err);
int gg_backend_download_cells(gg_backend *b, gg_gen_cells *cells,
                              gg_err *err);
int gg_backend_bench_cells(gg_backend *b, gg_topo topo, gg_gen_cells *cells,
                           int64_t gens, gg_backend_timing *t, gg_err *err);

/* Most generations per advance_cells (0: no bound). */
int64_t gg_backend_max_batch(gg_backend *b);

/* A Generations universe's view of an open backend. */
gg_gen_stepper gg_backend_gen_stepper(gg_backend *b);

void gg_backend_close(gg_backend *b);

#endif

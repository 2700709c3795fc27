/* What the files of golgen_run_2d (include/golgen/run.h, golgen_0.7) share:
 * the pattern handle's insides, one run's state, its backends opened as
 * the command opens them, its notes, progress and stop, and its outputs.
 *
 * lib/pattern.c     patterns: read, parsed, their cells on demand
 * lib/run.c         golgen_run_2d: the options, then the family's run
 * lib/run_dense.c   two-state rules: the dense engine, tiles, bands on
 *                   devices, streaming, the devices alone, MPI ranks
 * lib/run_devices.c a backend per device, tiles around a stepper
 * lib/run_tree.c    the hash tree (two-state, Generations, rule tables)
 * lib/run_gen.c     Generations rules on the dense engine
 * lib/run_family.c  Golly rule tables and Larger than Life
 * lib/run_stream.c  store to store band by band (host_mem)
 *
 * Statuses inside are the command's exit statuses (2 input, 3
 * environment, 1 a failed check: runtime/base/fail.h); golgen_run_2d turns
 * them into GOLGEN_ERR_* codes at its edge. */
#ifndef GG_LIB_RUN_H
#define GG_LIB_RUN_H

#include "golgen.h"

#include <stdbool.h>
#include <stdint.h>

#include "backend.h"
#include "config.h"
#include "error.h"
#include "fail.h"
#include "gen_universe.h"
#include "mc_tree.h"
#include "multi_band.h"
#include "net_common.h"
#include "pattern.h"
#include "picture_run.h"
#include "rle_runs.h"
#include "resident.h"
#include "rule.h"
#include "rule_find.h"
#include "stop.h"
#include "table_kernel.h"
#include "tiles.h"
#include "universe.h"

enum { GG_RUN_OK = 0, GG_RUN_CHECK = 1, GG_RUN_USAGE = 2, GG_RUN_ENV = 3 };

/* ---- patterns (lib/pattern.c) ---- */

typedef enum gg_lib_form {
    GG_LIB_CELLS,
    GG_LIB_RUNS,
    GG_LIB_TREE,
} gg_lib_form;

struct golgen_pattern {
    gg_lib_form form;
    gg_pattern p;          /* the cells: form CELLS, or drawn on demand */
    bool has_cells;
    gg_pattern_runs runs;  /* form RUNS */
    gg_mc_tree mc;         /* form TREE */
    char *path;            /* the file read ("-": standard input); NULL:
                              parsed from text */
    char *text;            /* parsed text kept for its cells (runs or a
                              tree from golgen_pattern_parse) */
    size_t len;
    char *name;            /* what messages call it */
    bool stream;           /* standard input or not a regular file: read
                              once only */
};

/* The pattern of the file at path (AS_READ or CELLS, as the public
 * call), or of text called name; -1 with err. */
int gg_lib_pattern_read(const char *path, int how, gg_stop_flag *stop,
                        golgen_pattern **p, gg_err *err);
int gg_lib_pattern_parse(const char *text, size_t len, const char *name,
                         int how, golgen_pattern **p, gg_err *err);
/* p's cells: held, or drawn from its runs, or read again from its file
 * or text (a tree, or runs whose box cannot be drawn). NULL with err. */
gg_pattern *gg_lib_pattern_cells(golgen_pattern *p, gg_stop_flag *stop,
                                 gg_err *err);
/* The rule text the pattern names, or NULL. */
const char *gg_lib_pattern_rule(const golgen_pattern *p);
/* Its box's size (a tree's: 0 x 0, it is a tree already). */
void gg_lib_pattern_size(const golgen_pattern *p, int64_t *w, int64_t *h);
/* Live cells, each state plane counted (for auto's rule of thumb). */
int64_t gg_lib_pattern_population(const golgen_pattern *p);
/* Live cells, each once whatever its state (a rule table's leaf size, as
 * a world's universe counts them); 0 for a tree. */
int64_t gg_lib_pattern_live(const golgen_pattern *p);

/* ---- one run ---- */

#define GG_RUN_MAX_DEVICES 64

typedef struct gg_run {
    const golgen_run2d_opts *o;  /* the caller's */
    golgen_run2d_result *res;
    gg_config cfg;             /* the environment; the search hook in it */
    gg_lib_search_hook hook;
    const gg_backend_info *backend; /* NULL: auto */
    const char *engine;        /* "auto", "dense", "tiles", "hashlife" */
    int64_t mem;               /* the tree's run's bytes */
    int leaf_log;              /* the tree's leaves' log2 side; 0: its
                                  choice */
    int n_devices;             /* 0: devices not given */
    int ordinal[GG_RUN_MAX_DEVICES];
    gg_picture_run pics;
    golgen_pattern *pat;       /* the pattern once read (or the caller's) */
    bool own_pat;
    const golgen_run_ranks *ranks; /* NULL: one process */
    int n_ranks, rank;
    bool halted;               /* on_progress said to end the run */
} gg_run;

/* One line to on_note (printf-style, no newline). */
__attribute__((format(printf, 2, 3)))
void gg_run_note(const gg_run *r, const char *fmt, ...);

/* The stop flag was set, or on_progress ended the run (this process's;
 * ranks: gg_run_all_stopped). */
bool gg_run_stop_asked(const gg_run *r);
/* Every rank's stop together (one process: the flag): the one stop
 * check between a ranked run's batches, which stop together. */
bool gg_run_all_stopped(const gg_run *r);

/* Progress in a universe's callback form (universe.h's gg_progress_fn),
 * counting `base` generations done before this part; false once the run
 * must end (the flag, on_progress, or any rank's stop). */
typedef struct gg_run_prog {
    gg_run *r;
    int64_t base;
} gg_run_prog;
bool gg_run_progress(void *ctx, int64_t done, int64_t total);

/* A run's generations in parts that end at each checkpoint
 * (checkpoint_every): every 2D family's frames advance by it. step runs
 * up to n generations of ctx's universe, telling prog: the count run
 * (fewer: a stop), or -1 with err; store writes ctx's checkpoint. */
typedef struct gg_run_parts {
    gg_run_prog prog;                 /* base: the parts' generations */
    int64_t since;                    /* generations since a checkpoint */
    bool (*stopped)(const gg_run *r); /* the stop check between parts */
    int64_t (*step)(void *ctx, int64_t n, gg_err *err);
    int (*store)(void *ctx, gg_err *err);
} gg_run_parts;
/* gens generations (fewer after a stop), in parts; *stopped: a stop
 * ended them (lib/run_dense.c). */
int gg_run_parts_advance(gg_run_parts *p, void *ctx, int64_t gens,
                         bool *stopped, gg_err *err);

/* Backend info (NULL: auto) opened for rule, as the command opens it:
 * res->backend and auto_line set, on_open told (after a failure too).
 * *status on failure. */
int gg_run_open_backend(gg_run *r, const gg_backend_info *info,
                        const gg_rule *rule, const gg_backend_opts *bo,
                        gg_backend **out, int *status, gg_err *err);
/* on_open told of an open whose line was not this run's to say (a
 * failure, or the other bands after the first). */
void gg_run_told_open(gg_run *r, bool opened_by_auto);

/* The status of a fail kind (2, 3, 1). */
int gg_run_status(gg_fail_kind why);

/* Pattern p into out by its name, or RLE on standard output for "-". */
int gg_run_save_pattern(const char *out, const gg_pattern *p, gg_err *err);
/* Whether path names a macrocell file (".mc"). */
bool gg_run_named_mc(const char *path);
/* out (not "-") and the store can be written: before a long run. */
int gg_run_probe_outputs(const gg_run *r, gg_err *err);

/* The closing line: res->summary, said as a note. */
__attribute__((format(printf, 2, 3)))
void gg_run_summary(gg_run *r, const char *fmt, ...);

/* --png after the run, when asked for: draw, png_info set, and the line
 * on what it shows said. */
int gg_run_write_png(gg_run *r, gg_picture_draw_fn draw, void *ctx,
                     gg_err *err);
/* The pictures' options combined and ready (libpng, the png's file and
 * the frames' folder): 0, or a status with err. */
int gg_run_pictures_ready(const gg_run *r, gg_err *err);

/* Seconds on the monotonic clock. */
double gg_run_now(void);

/* golgen run's default pattern (RLE): the R-pentomino. */
extern const char gg_run_default_pattern[];

/* r->pat read once, as the tree takes it (a macrocell's tree, a sparse
 * RLE's runs), or the default pattern: the later paths take it as is. */
int gg_run_read_input(gg_run *r, gg_err *err);         /* run_tree.c */
/* The family runs: their status (0 when it ran; the result filled). */
/* The hash tree; *dense (status 0) when engine auto leaves the run to
 * the dense engine (r->pat then holds what the tree read, if it did). */
int gg_run_tree(gg_run *r, bool *dense, gg_err *err); /* run_tree.c */
/* The dense engine and the families beside it. */
int gg_run_dense(gg_run *r, gg_err *err);             /* run_dense.c */
int gg_run_host_mem(gg_run *r, gg_err *err);          /* run_stream.c */
/* A Generations universe (placed or read from the store; freed here). */
int gg_run_gen(gg_run *r, gg_gen_universe *u, gg_err *err); /* run_gen.c */
/* A rule file's run (f and p NULL with resume: the store's rule found
 * again), and a Larger than Life rule's (text and p NULL with resume):
 * lib/run_family.c. */
int gg_run_table(gg_run *r, const gg_rule_found *f, const gg_pattern *p,
                 gg_err *err);
int gg_run_ltl(gg_run *r, const char *text, const gg_pattern *p,
               gg_err *err);
/* An engine other than dense or auto asked of a family on the dense
 * path (rule tables, Larger than Life): "--engine NAME", else NULL. */
const char *gg_run_engine_refused(const gg_run *r);
/* What a run of the dense engine and -o alone (Golly's other grids, B0
 * on the plane) does not take of the options asked: their names, else
 * NULL (lib/run.c). */
const char *gg_run_plain_refuses(const gg_run *r);
/* A rule table's kernel for the run's backend (runtime/backends/
 * table_kernel.h): the one asked for, or auto's, which says why when it
 * fell back; name: the rule as messages give it; leaves: for the hash
 * tree's leaves. *status on failure. */
int gg_run_open_table(gg_run *r, const gg_rulefile *rf, const char *name,
                      bool leaves, gg_table_kernel *k, int *status,
                      gg_err *err);

/* ---- devices and tiles (lib/run_devices.c) ---- */

typedef struct gg_run_devices {
    int n; /* 0: devices not given (one backend, device 0) */
    int ordinal[GG_RUN_MAX_DEVICES];
    gg_backend *b[GG_RUN_MAX_DEVICES];
    gg_multi_band m;
    bool resident;       /* the grid lived on the devices alone */
    double open_seconds; /* opening the backends (resident runs) */
    char open_detail[200]; /* the first backend's phases (describe) */
} gg_run_devices;

/* One backend per listed device (one on device 0 when none were listed);
 * backend NULL is auto, resolved by the first. *status on failure. */
int gg_run_devices_open(gg_run *r, gg_run_devices *d,
                        const gg_backend_info *backend, const gg_rule *rule,
                        gg_backend_opts o, int *status, gg_err *err);
/* The stepper over the bands (the first backend's own when one). */
gg_stepper gg_run_devices_stepper(gg_run_devices *d);
/* A note on the bands' exchanges (nothing for one band, unless the grid
 * lived on the device alone). */
void gg_run_devices_report(const gg_run *r, const gg_run_devices *d);
/* A run of res on the devices alone: 1 when these backends cannot
 * (closed again, d as it was, res untouched: run the host grid); 0 when
 * it ran (the backends stay open for the report: close them); -1 with
 * *status and err (closed). Without devices only a device backend takes
 * it. */
int gg_run_devices_resident(gg_run *r, gg_run_devices *d,
                            const gg_backend_info *backend, gg_backend_opts o,
                            gg_resident *res, int64_t gens,
                            gg_progress_fn progress, void *progress_ctx,
                            gg_universe *u, int *status, gg_err *err);
void gg_run_devices_close(gg_run_devices *d);

/* Wraps *stepper in tiles for engine "tiles", and for "auto" where the
 * backend steps the host's grid or tiles its device's and nothing splits
 * the grid (devices, device_mem, ranks). Fails only for "tiles" where it
 * cannot be had. The same for a Generations stepper. */
int gg_run_tiles_wrap(const char *engine, gg_backend *b, bool split,
                      gg_tiles *tiles, gg_stepper *stepper, gg_err *err);
int gg_run_tiles_wrap_gen(const char *engine, gg_backend *b, bool split,
                          gg_tiles *tiles, gg_gen_stepper *stepper,
                          gg_err *err);
/* The closing line's engine ("cpu" or "cpu, tiles 256: ..."); frees
 * tiles. */
void gg_run_tiles_done(gg_tiles *tiles, const char *backend, char *buf,
                       size_t size);

/* One note on how a device_mem run streamed (nothing when the grid
 * fitted): lib/run_dense.c. */
void gg_run_report_streaming(const gg_run *r, const gg_memory_stepper *m,
                             const char *name);

/* rule given (NULL: none) for a run of store `path` may only repeat its
 * rule (lib/run_stream.c). */
int gg_run_store_rule_check(const char *given, const gg_rule *stored,
                            const char *path, gg_err *err);

/* The refusals of a family's options (the registry's one place,
 * gg_backend_takes) for each option given; ranks: the refusal names
 * what runs in one process only. */
int gg_run_family_refusals(const gg_run *r, gg_family f, gg_err *err);
/* `what` runs in one process only: -1 over several ranks (err set on
 * rank 0, empty on the others). */
int gg_run_ranks_refuse(const gg_run *r, const char *what, gg_err *err);

#endif

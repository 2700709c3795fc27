/* golgen runs (golgen_0.7): what `golgen run` does for a 2D rule of every
 * family, as one call; and the patterns it reads. Included by golgen.h;
 * include that.
 *
 * A pattern is read once from a file, standard input or text in any
 * format golgen reads (RLE, .cells, Life 1.05/1.06, macrocell, MCell;
 * gzipped or not), with the rule it names and its box. A run takes such
 * a pattern (or a path to read as golgen run reads it, or a store to go
 * on from) and runs it under its rule or another of any 2D family:
 * two-state (B/S, Hensel, MAP), Generations, Golly rule tables and trees
 * (NAME.rule files, found as Golly finds them), Larger than Life; by
 * engine "auto", "dense", "tiles" or "hashlife"; on one backend, in bands
 * on several devices, streamed within device memory, from store to store
 * band by band, or over the golgen command's MPI ranks; then writes the
 * end as a pattern, a store and a picture.
 *
 *     golgen_pattern *p;
 *     golgen_run2d_result res;
 *     char err[2048];
 *     if (golgen_pattern_read("acorn.rle", GOLGEN_PATTERN_AS_READ, NULL,
 *                             &p, err, sizeof err))
 *         return fprintf(stderr, "%s\n", err), 1;
 *     golgen_run2d_opts o = {.pattern = p, .gens = 5206, .out = "a.mc"};
 *     int code = golgen_run_2d(&o, &res, err, sizeof err);
 *     golgen_pattern_free(p);
 *     if (code)
 *         return fprintf(stderr, "%s\n", err), 1;
 *     printf("%s\n", res.summary); // "B3/S23: generation 5206, ..."
 *
 * 3D rules run through golgen_run_3d (golgen.h). */
#ifndef GOLGEN_RUN_H
#define GOLGEN_RUN_H

#include "../golgen.h"

#include <signal.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* ---- patterns ---- */

typedef struct golgen_pattern golgen_pattern;

/* How a pattern is held once read. AS_READ: a macrocell file stays its
 * tree and an RLE whose box has far more cells than its text has bytes
 * (64 a byte) stays its runs, at any size (what the hash tree takes
 * without a dense box); other patterns, and standard input, become
 * cells. CELLS: every pattern becomes cells (a box the dense engine
 * holds; a box larger than memory is refused). */
#define GOLGEN_PATTERN_AS_READ 0
#define GOLGEN_PATTERN_CELLS 1

/* The pattern in the file at path ("-": standard input), its format by
 * its content; stop (NULL: never), once set, gives up the reading with
 * "stopped while reading 'PATH'". GOLGEN_ERR_INPUT: the file cannot be
 * read, or is no pattern (the sentence names the line and column). */
int golgen_pattern_read(const char *path, int how,
                        const volatile sig_atomic_t *stop,
                        golgen_pattern **p, char *errbuf, size_t errlen);
/* The same from text in memory; name is what messages call it (NULL:
 * "the pattern"). */
int golgen_pattern_parse(const char *text, size_t len, const char *name,
                         int how, golgen_pattern **p, char *errbuf,
                         size_t errlen);
/* The rule the pattern names (an RLE's rule =, #R, MCell's #GAME...), as
 * written there; NULL when it names none. */
const char *golgen_pattern_rule(const golgen_pattern *p);
/* Its box in Golly's coordinates: the top-left cell (an RLE's #CXRLE
 * Pos=, else (0, 0)) and size (an RLE's header box, blank margins kept;
 * other formats: their cells'; a macrocell's live cells'). 0 with w = h
 * = 0 for an empty pattern, else 1. */
int golgen_pattern_box(const golgen_pattern *p, int64_t *x, int64_t *y,
                       int64_t *w, int64_t *h);
/* The generation it was saved at (#CXRLE Gen=, a macrocell's #G; else
 * 0). */
int64_t golgen_pattern_generation(const golgen_pattern *p);
/* How it is held: "cells", "runs" or "tree" (static text). */
const char *golgen_pattern_form(const golgen_pattern *p);
void golgen_pattern_free(golgen_pattern *p);

/* ---- runs ---- */

/* golgen's MPI ranks: a run whose bands of rows are run by several
 * processes together (the golgen command fills it in over MPI,
 * runtime/universes/rank_run.h). Opaque; NULL: this process alone. */
typedef struct golgen_run_ranks golgen_run_ranks;

typedef struct golgen_run2d_result golgen_run2d_result;

/* Where a run stands, for a progress line. */
typedef struct golgen_run2d_progress {
    int64_t done, total; /* generations run, of the run's */
    /* the hash tree, inside a step of 2^step_log generations (whose
     * generations arrive at its end; told about once a batch of leaf
     * squares): step_log >= 0 and what the tree holds so far; else -1 */
    int step_log;
    int64_t leaf_steps, nodes, tree_bytes;
} golgen_run2d_progress;

/* What golgen_run_2d runs. All zero but gens: the R-pentomino (golgen run's
 * default pattern) under B3/S23 on the unbounded plane, engine and
 * backend auto, nothing written. Options name the command's options in
 * their sentences (this is `golgen run` as a call). */
typedef struct golgen_run2d_opts {
    /* what runs: a pattern read before (golgen_pattern_read; the run
     * holds it as it is, or as cells where an engine needs them: calls
     * on it must not overlap the run's); or (pattern NULL) the file `in`
     * ("-": standard input), read by the run as golgen run reads it, at
     * the point it does; or (both NULL) resume, a store to go on from
     * (its rule, which rule may only repeat; a rule table's file is
     * looked for beside it, in rules_dir, in Golly's Rules folder) */
    golgen_pattern *pattern;
    const char *in;
    const char *resume;
    /* the rule (Golly notation of any 2D family, or a rule file's name);
     * NULL: the pattern's, else B3/S23. A rule file is looked for beside
     * the pattern's file, in rules_dir, then in /usr/share/golly/Rules */
    const char *rule;
    const char *rules_dir;
    int64_t gens;            /* generations to run, 0.. */
    const char *backend;     /* NULL or "auto": the fastest that opens */
    const char *engine;      /* "dense", "tiles", "hashlife"; NULL or
                                "auto": the tree on the unbounded plane
                                unless the pattern is a busy box run for
                                few generations (golgen run --help) */
    int64_t mem;             /* the run's bytes with the tree; 0: a
                                quarter of the machine's */
    int tree_leaf;           /* the tree's leaves: 4, 8, 16, 32 or 64
                                cells a side; 0: the engine's choice */
    const char *out;         /* the end as a pattern file, its format by
                                its name ("-": RLE on standard output;
                                NULL: none); a .mc written by the tree at
                                any size. If it cannot be written after
                                the run, the cells go to
                                $TMPDIR/golgen-rescue-PID.rle and the
                                sentence says so */
    const char *store;       /* the end as a universe store; NULL: none */
    int64_t checkpoint_every; /* and every N generations: to store, or
                                 (the tree, no store) to out, a .mc */
    int64_t device_mem;      /* > 0: the grid streamed through the
                                backend in bands within these bytes */
    const char *devices;     /* "0,1" (0,0: two bands on device 0): one
                                band of rows a device; NULL: one */
    int64_t host_mem;        /* > 0: resume run into store band by band
                                within these bytes, never whole */
    const char *png;         /* the end's picture; NULL: none */
    const char *frames;      /* DIR/frame_000000.png at the start, then
                                one every frame_every generations */
    int64_t frame_every;     /* 0: 1 */
    golgen_picture_opts picture;
    int announce;            /* 1: a GPU backend says on stderr when it
                                autotunes (for a person waiting) */
    golgen_search_fn on_search; /* a new rule's network search; may be
                                   NULL */
    void *search_ctx;
    /* set (by a signal handler): the run ends after the batch in flight
     * (a slow reference generation is given up), the universe at the
     * last generation completed, and is written; NULL: never */
    const volatile sig_atomic_t *stop;
    /* told after each batch of generations; returning 0 ends the run
     * there; may be NULL */
    int (*on_progress)(void *ctx, const golgen_run2d_progress *p);
    /* told after each attempt to open a backend for the rule (its
     * network search, if one ran, is over): res->backend and
     * res->auto_line say what opened ("" when it failed, or for
     * auto_line when named); may be NULL */
    void (*on_open)(void *ctx, const golgen_run2d_result *res);
    /* told each line golgen run says on stderr as the run goes, in its
     * order (what auto chose and why, what the bands or streaming did,
     * what the png shows, the closing summary; not auto's backend line:
     * on_open), without the newline; may be NULL */
    void (*on_note)(void *ctx, const char *line);
    void *ctx;               /* on_progress's, on_open's, on_note's */
    const golgen_run_ranks *ranks; /* NULL: this process alone */
} golgen_run2d_opts;

struct golgen_run2d_result {
    char family[16];      /* "two-state", "generations", "table", "ltl" */
    char engine[16];      /* "dense", "tiles", "hashlife", "resident"
                             (the devices alone) or "stream" (host_mem) */
    char backend[32];     /* the backend that ran (or opened last) */
    char auto_line[1024]; /* "backend auto -> cpu (...)", or "" */
    char rule[1200];      /* the rule as golgen writes it */
    int ran;              /* 1: the generations ran (a failure may still
                             follow: out, store or png) */
    int64_t reached;      /* generations run: gens, or fewer after a
                             stop */
    int64_t generation;   /* where the universe stands */
    int64_t population;
    double seconds;       /* the generations' wall time */
    /* the closing line golgen run says: "B3/S23: generation 1103,
     * population 116, 0.004 s (hashlife, ...)"; "" until it ran (and on
     * MPI ranks other than 0) */
    char summary[1400];
    int written;          /* 1: the end (so far) is in out or the store */
    int png_written;      /* 1: png written; png_info says what it shows */
    golgen_picture_info png_info;
    /* 1 when the stop flag ended the run or its loading early and a
     * failure followed from it: golgen run exits as for the signal */
    int stop_exit;
};

/* What `golgen run` does for a 2D rule (golgen_0.7): the options checked,
 * the pattern (or store) loaded under its rule's family, the outputs
 * checked writable, gens generations run by the engine on the backend,
 * then out, the store and png written. GOLGEN_ERR_INPUT: a bad option,
 * pattern, store, rule or output, or one the family, engine or backend
 * does not take (named); GOLGEN_ERR_ENV: the backend cannot run here or
 * failed part way, or no libpng for pictures; GOLGEN_ERR_CHECK: its
 * kernel failed its check. A rule of 3D.lua's notation is refused:
 * golgen_run_3d runs those. */
int golgen_run_2d(const golgen_run2d_opts *opts, golgen_run2d_result *res,
               char *errbuf, size_t errlen);

/* The variables golgen reads (CC, TMPDIR, GOLGEN_*: README "Using it"),
 * checked as every call that runs or emits reads them: GOLGEN_ERR_INPUT
 * with the sentence when one holds a bad value. *launcher_ranks (may be
 * NULL): the processes an MPI launcher started with this one, as its
 * variables say (0: none did). What the golgen command reads once before
 * any command. */
int golgen_env_check(int *launcher_ranks, char *errbuf, size_t errlen);

/* "0,1" (devices as golgen_run2d_opts takes them) into ordinals 0..63, at
 * most max: their count, or GOLGEN_ERR_INPUT with the sentence. */
int golgen_devices_parse(const char *text, int *ordinals, int max,
                         char *errbuf, size_t errlen);

#ifdef __cplusplus
}
#endif

#endif

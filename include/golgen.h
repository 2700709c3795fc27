/* golgen as a C library: parse a cellular-automaton rule in Golly's
 * notation, build a universe from cells or a pattern file, run it on the
 * fastest backend here (or a named one), read the cells back, write a
 * pattern file, and emit a rule's kernel source for a target. And what the
 * golgen command does beyond that (golgen_0.3): describe a rule, verify
 * and synthesize its gate networks, stores and checkpoints, pictures;
 * and (golgen_0.4) time a Larger than Life or 3D rule's backend; and
 * (golgen_0.5) what this build has, and a 2D rule's benchmark; and
 * (golgen_0.6) what a backend takes, and a 3D rule's run; and
 * (golgen_0.7, golgen/run.h) patterns read once and a 2D rule's run of
 * every family. `golgen rule`, `verify`, `synth`, `--target`, `store`,
 * `bench`, `--version` and `run` are built on this header alone.
 *
 *     static const uint8_t glider[9] = {0, 1, 0, 0, 0, 1, 1, 1, 1};
 *     golgen_rule *r;
 *     golgen_universe *u;
 *     char err[512];
 *     if (golgen_rule_parse("B3/S23:T64,64", &r, err, sizeof err) ||
 *         golgen_universe_from_cells(r, glider, 3, 3, &u, err, sizeof err) ||
 *         golgen_universe_run(u, 1000, "auto", err, sizeof err))
 *         return fprintf(stderr, "%s\n", err), 1;
 *     printf("%lld\n", (long long)golgen_universe_population(u));
 *     golgen_universe_free(u);
 *     golgen_rule_free(r);
 *
 * Errors: every function that can fail returns 0 or a negative
 * GOLGEN_ERR_* code and writes one sentence (what is wrong and, when known,
 * the fix) into errbuf (errbuf may be NULL; the message is cut to errlen).
 * The library never prints and never exits. Calls on one handle must not
 * overlap (use a lock to share one between threads); the library keeps no
 * mutable global state of its own, but distinct handles on distinct
 * threads at once are not yet tested.
 *
 * Coordinates are Golly's: on a bounded grid (rule suffix :TW,H torus or
 * :PW,H plane) the top-left cell is (-(W/2), -(H/2)); on the unbounded
 * plane a universe made from cells has its top-left cell at (0, 0).
 *
 * Environment: the library reads the variables the golgen command reads
 * (CC, GOLGEN_CACHE_DIR, GOLGEN_GENERATED, ...; README "Backends") when a
 * universe runs or a kernel is emitted. */
#ifndef GOLGEN_H
#define GOLGEN_H

#include <signal.h> /* sig_atomic_t: a run's stop flag */
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define GOLGEN_OK 0
#define GOLGEN_ERR_INPUT (-1) /* bad rule, argument, pattern or file */
#define GOLGEN_ERR_ENV (-2)   /* the backend cannot run here (no GPU,
                                 driver, compiler or cache directory) */
#define GOLGEN_ERR_CHECK (-3) /* a kernel disagreed with the reference
                                 simulator or failed its check */

typedef struct golgen_rule golgen_rule;
typedef struct golgen_universe golgen_universe;

/* "0.1.0" */
const char *golgen_version(void);

/* ---- rules ---- */

/* Golly notation: B3/S23, B36/S23:T512,512, B2n3/S23-q, MAP..., and
 * Generations rules (which only golgen_emit takes so far). */
int golgen_rule_parse(const char *text, golgen_rule **rule, char *errbuf,
                      size_t errlen);
/* Canonical text as Golly writes it, e.g. "B3/S23:T64,64" (cut to len). */
void golgen_rule_text(const golgen_rule *rule, char *buf, size_t len);
void golgen_rule_free(golgen_rule *rule);

/* ---- universes (two-state rules; Generations rules are refused) ---- */

/* An empty universe of the rule's grid (bounded rules only). */
int golgen_universe_new(const golgen_rule *rule, golgen_universe **u,
                        char *errbuf, size_t errlen);
/* From width x height bytes, row by row, nonzero = alive; the box is placed
 * as Golly places a pattern without a position: centred on a bounded grid
 * (a box the size of the grid fills it exactly), at (0, 0) on the
 * unbounded plane. */
int golgen_universe_from_cells(const golgen_rule *rule, const uint8_t *cells,
                               int64_t width, int64_t height,
                               golgen_universe **u, char *errbuf,
                               size_t errlen);
/* The same from bit rows: bit x % 8 of byte x / 8 of row y (least
 * significant bit leftmost), each row `row_bytes` long. */
int golgen_universe_from_bits(const golgen_rule *rule, const uint8_t *bits,
                              int64_t width, int64_t height, size_t row_bytes,
                              golgen_universe **u, char *errbuf,
                              size_t errlen);
/* From a pattern file (RLE, plaintext .cells, Life 1.05/1.06, macrocell;
 * chosen by content) or from such text in memory. rule NULL: the file's
 * rule, else B3/S23. */
int golgen_universe_read(const golgen_rule *rule, const char *path,
                         golgen_universe **u, char *errbuf, size_t errlen);
int golgen_universe_parse(const golgen_rule *rule, const char *text,
                          size_t len, golgen_universe **u, char *errbuf,
                          size_t errlen);

/* Run gens generations on backend "reference", "cpu", "cuda", "ptx",
 * "opencl", or "auto"/NULL (the fastest that runs here and passes
 * validation), by engine "auto" (golgen_universe_run_engine). The backend
 * stays open on the universe for the next run with the same name and
 * engine. GOLGEN_ERR_INPUT: unknown backend or negative gens;
 * GOLGEN_ERR_ENV: it cannot run here, or failed part way (the backend is
 * then closed and opened afresh by the next run); GOLGEN_ERR_CHECK: its
 * kernel failed validation against the reference. */
int golgen_universe_run(golgen_universe *u, int64_t gens, const char *backend,
                        char *errbuf, size_t errlen);
/* The same by a named engine (as `golgen run --engine`); every engine
 * gives the same cells:
 *   "dense"     the whole grid, stepped by the backend;
 *   "tiles"     the grid cut into 256x256 tiles, only those near a change
 *               stepped (host backends: reference, cpu; others refused);
 *   "hashlife"  a hash tree (HashLife) built from the cells, whose leaf
 *               squares the backend steps (one thread; "auto" takes host
 *               backends only), the result brought back into the grid
 *               (its live box at most 2^34 cells, and no more cells than
 *               a quarter of the machine's memory has bytes: else
 *               GOLGEN_ERR_ENV, the universe left as it was); unbounded
 *               plane only (bounded rules are refused). The tree stays
 *               on the universe, memoized futures and all, for the next
 *               hashlife run, within a quarter of the machine's memory;
 *   "auto"/NULL the tree on the unbounded plane unless the live cells'
 *               box has 2^22 cells or more and runs fewer than 4x its
 *               longer side; else dense, in tiles on a host backend.
 * Errors as golgen_universe_run; an unknown engine or one that does not
 * take the rule or backend: GOLGEN_ERR_INPUT, naming it. */
int golgen_universe_run_engine(golgen_universe *u, int64_t gens,
                               const char *backend, const char *engine,
                               char *errbuf, size_t errlen);
/* The engine "auto" would take for gens more generations on backend:
 * *engine "hashlife", "tiles" or "dense" (static text). To tell tiles from
 * dense it opens the backend (kept for the run), so it fails as a run
 * would. A caller that runs in parts (the Python module) asks once for
 * the whole count and names the answer in each part. */
int golgen_universe_choose_engine(golgen_universe *u, int64_t gens,
                                  const char *backend, const char **engine,
                                  char *errbuf, size_t errlen);
/* The engine the last run used: "dense", "tiles" or "hashlife" ("" before
 * any run). */
const char *golgen_universe_engine(const golgen_universe *u);
/* The backend the last run used ("" before any run), and for auto the line
 * golgen prints: "backend auto -> cpu (ptx, cuda: no CUDA driver ...)". */
const char *golgen_universe_backend(const golgen_universe *u);
const char *golgen_universe_backend_line(const golgen_universe *u);

/* ---- reading cells back ---- */

int64_t golgen_universe_generation(const golgen_universe *u);
int64_t golgen_universe_population(const golgen_universe *u);
/* 1 alive, 0 dead or outside the simulated area. */
int golgen_universe_get(const golgen_universe *u, int64_t x, int64_t y);
/* The live cells' bounding box; 0 with *w = *h = 0 when none live. */
int golgen_universe_bbox(const golgen_universe *u, int64_t *x, int64_t *y,
                         int64_t *w, int64_t *h);
/* The area simulated now: a bounded rule's whole grid, on the unbounded
 * plane the current (regrown) grid. */
void golgen_universe_extent(const golgen_universe *u, int64_t *x, int64_t *y,
                            int64_t *w, int64_t *h);
/* w x h bytes (0/1), row by row, of the window at (x, y); cells outside the
 * simulated area read 0. */
int golgen_universe_window(const golgen_universe *u, int64_t x, int64_t y,
                           int64_t w, int64_t h, uint8_t *out, char *errbuf,
                           size_t errlen);
/* The universe's rule, canonical (cut to len). */
void golgen_universe_rule(const golgen_universe *u, char *buf, size_t len);

/* ---- writing ---- */

/* A pattern file in the format its name asks for: .rle (and other names),
 * .cells, .lif/.life, .mc; written atomically. */
int golgen_universe_write(const golgen_universe *u, const char *path,
                          char *errbuf, size_t errlen);
/* The same as text: format "rle", "cells", "lif" or "mc"; *text is
 * malloc'd, NUL-terminated, *len bytes; free it with golgen_free. */
int golgen_universe_format(const golgen_universe *u, const char *format,
                           char **text, size_t *len, char *errbuf,
                           size_t errlen);

void golgen_universe_free(golgen_universe *u);

/* ---- kernels ---- */

/* A rule's kernel source for target "c", "cuda", "ptx" or "opencl" (as
 * `golgen --target`): *src is malloc'd, NUL-terminated, *len bytes; free it
 * with golgen_free. */
int golgen_emit(const golgen_rule *rule, const char *target, char **src,
                size_t *len, char *errbuf, size_t errlen);

/* Frees what golgen_emit, golgen_universe_format and
 * golgen_rule_describe return. */
void golgen_free(void *p);

/* ---- networks: verify and synthesize (golgen_0.3) ----
 *
 * A rule's kernel computes, per 64-cell word, a front end (row sums, or
 * the cells themselves) and a final stage: a gate network from the network
 * cache (generated/networks, or $GOLGEN_GENERATED, written by
 * golgen_synth), else a quick one built on the spot. These calls are what
 * `golgen verify` and `golgen synth` do. */

/* One stage's gates, by kind in the library's order ("AND", "OR", "XOR",
 * "ANDNOT", "NOT", "LUT3"; kinds with no gate left out). */
#define GOLGEN_GATE_KINDS 8
typedef struct golgen_gates {
    int total;
    int n_kinds;
    struct {
        const char *op; /* static text */
        int count;
    } kind[GOLGEN_GATE_KINDS];
} golgen_gates;

/* Told when golgen begins and ends a search for networks the cache lacks
 * (seconds to tens of seconds on a new rule; `golgen` says so on stderr
 * after a second). Called on the calling thread; the strings last for the
 * call only. Searches nest: only the outermost one counts. */
typedef struct golgen_search_event {
    const char *rule;        /* its transition, e.g. "B2/S345" */
    const char *front;       /* the searched stage's front: "rowsum", ... */
    const char *usual_front; /* the rule's own front (synth's default) */
    const char *lib;         /* "lut3" or "gate2" */
    int begin;               /* 1: a search begins; 0: it is over */
    int kept;                /* its network is kept for the next run */
} golgen_search_event;
typedef void (*golgen_search_fn)(void *ctx, const golgen_search_event *e);

/* Options of golgen_verify; all zero: the circuit a kernel gets, lut3. */
typedef struct golgen_verify_opts {
    const char *front;      /* "rowsum", "rowsum-lr", "rowsum+cells",
                               "none"; NULL: the rule's own (and a Hensel
                               rule's split into totalistic + correction
                               when that is what its kernel gets) */
    const char *lib;        /* "lut3" (NULL) or "gate2" */
    const char *cache_root; /* NULL: $GOLGEN_GENERATED, else generated/ */
    golgen_search_fn on_search; /* NULL: nobody is told */
    void *search_ctx;
} golgen_verify_opts;

/* What golgen_verify found. Allocated by the library (fields may be
 * appended in later versions); free it with golgen_verify_free. */
typedef struct golgen_verify_result {
    int passed;          /* every row matched the rule */
    int dims;            /* 2, or 3 for a 3D rule (3D.lua notation) */
    char rule[256];      /* the transition checked: "B3/S23"; a
                            Generations rule's two-state part */
    int neighbours;
    int rows;            /* rows checked */
    int wrong;           /* rows wrong (2D) */
    int first_bad;       /* the first wrong row, -1 when none (2D); 3D:
                            the live-neighbour count wrong, + 100 when
                            the centre is alive */
    golgen_gates final_gates; /* the final stage */
    char source[256];    /* where the final stage came from */
    /* 2D */
    char front[32], lib[16];
    int proven;          /* the final stage is proven minimal */
    int cached;          /* it is the network cache's */
    int lower_bound;     /* cached, unproven: every final stage has at
                            least this many gates (0: none known) */
    char cache_path[4096]; /* cached: the entry's file */
    char search[512];    /* cached: the solver's per-k log ("" trivial) */
    char synth_front[32]; /* the front `golgen synth` would search */
    golgen_gates front_gates;
    int front_per_word;  /* front gates per 64-cell word */
    int rows_shared;     /* one row sum, shared by 3 rows */
    int ops_per_word;    /* front + final logic ops per word */
    int shifts_per_word; /* neighbour shifts per word */
    /* Generations (states > 2): the per-cell stage after the two-state
     * circuit, checked on every (state, alive next) pair */
    int states, planes;
    int gen_proven;      /* each output proven minimal */
    int gen_alive_shown; /* alive_gates is a stage of its own */
    golgen_gates alive_gates, next_gates;
    int gen_status;      /* 0, or the GOLGEN_ERR_* code the stage failed
                            with (gen_error says why; the two-state part
                            above still stands) */
    char gen_error[512];
    /* 3D */
    int count_bits;      /* bits of the neighbour count the stage reads */
} golgen_verify_result;

/* Builds rule's circuit (text: every 2D family golgen emits, Generations
 * included, or a 3D.lua rule) and checks it against the rule's exhaustive
 * truth table. GOLGEN_OK when the check ran: (*res)->passed says how it
 * went. GOLGEN_ERR_INPUT: a bad rule, front or library; GOLGEN_ERR_CHECK:
 * a cached network failed its own check, or no circuit could be built. */
int golgen_verify(const char *rule, const golgen_verify_opts *opts,
                  golgen_verify_result **res, char *errbuf, size_t errlen);
void golgen_verify_free(golgen_verify_result *res);

/* Several processes searching one network together: the golgen command's
 * MPI ranks (runtime/universes/synth_team.h). Opaque; NULL: this process
 * alone. */
typedef struct golgen_synth_team golgen_synth_team;

/* Options of golgen_synth: golgen_synth_defaults fills `golgen synth`'s
 * defaults (lut3, 600 s, 10 s of window resynthesis per gate2 start,
 * windows of 6 leaves); set what differs. */
typedef struct golgen_synth_opts {
    const char *front;      /* NULL: the rule's own */
    const char *lib;        /* "lut3" (NULL) or "gate2" */
    const char *cache_root; /* NULL: $GOLGEN_GENERATED, else generated/ */
    double time_limit;      /* seconds for the whole run; <= 0: none */
    double k_time_limit;    /* seconds per k; <= 0: none */
    double shape_time_limit; /* > 0: a first pass of this long per shape */
    double resynth_time;    /* seconds of window resynthesis per gate2
                               start */
    int resynth_leaves;     /* most signals a window reads, 3..8 */
    int threads;            /* solver threads; 0: 2 */
    int k_min, k_max;       /* 0: from the lower bound, below the best */
    int init_rows;          /* 0: the solver's default */
    int force;              /* search afresh, replacing the cache's */
    int resume;             /* go on with an unproven entry's proof */
    int no_store;           /* leave the cache as it is */
    int shape_max_k;        /* split by shape up to this k; 0: default */
    int shape_stride;       /* > 1: every N-th shape only (proves
                               nothing unless it finds a network) */
    int shapes_range;       /* 1: shapes shapes_first..shapes_last only
                               (a sample: it proves nothing unless it
                               finds a network) */
    int shapes_first, shapes_last;
    int trace;              /* each shape's outcome on stderr */
    const char *solver;     /* "auto" (NULL), "cms" or "cadical" */
    int plain_cnf;          /* no difference clauses, no shape order */
    int progress;           /* progress lines on stderr, as golgen synth
                               prints them (each start's gates, each k's
                               outcome and the time left); 0: silent */
    volatile int *stop;     /* nonzero stops the search (another thread or
                               a signal handler sets it): the best network
                               so far is stored and returned, unproven */
    golgen_search_fn on_search; /* NULL: nobody is told */
    void *search_ctx;
    const golgen_synth_team *team; /* NULL: this process alone */
} golgen_synth_opts;

void golgen_synth_defaults(golgen_synth_opts *opts);

#define GOLGEN_SYNTH_MAX_K 64
/* The most gates an exact search takes (k_min, k_max, shape_max_k). */
#define GOLGEN_SYNTH_MAX_GATES 24

/* What golgen_synth returned. Allocated by the library (fields may be
 * appended in later versions); free it with golgen_synth_free. */
typedef struct golgen_synth_result {
    char rule[256];      /* the transition, e.g. "B36/S23" */
    char front[32], lib[16];
    int gates;           /* final-stage gates */
    int proven;          /* no network has fewer */
    int lower_bound;     /* every network has at least this many (0: none
                            known, as for a composed rowsum+cells stage) */
    int output_inverted; /* gate2 pays one NOT (B0 rules) */
    int cached;          /* the cache's answer; no search ran */
    int exact;           /* the network came from the exact search */
    int stopped;         /* opts->stop ended the run */
    char start[64];      /* where the search's first network came from */
    double seconds;      /* the search's time (the cache entry's) */
    char search[512];    /* per-k log: "k5:UNSAT:0.01s k6:SAT:0.20s" */
    int proof_k, proof_shapes, proof_impossible; /* of the open k proof_k,
                            proof_impossible of proof_shapes shapes shown
                            impossible (0 when none) */
    int resumed_shapes;  /* shapes skipped as shown impossible before */
    int n_k;             /* this run's steps (0 for a cached answer) */
    struct {
        int k;
        const char *status; /* "UNSAT", "SAT" or "unknown" (static) */
        double seconds;
        unsigned long long conflicts;
        int shapes, shapes_total;
    } per_k[GOLGEN_SYNTH_MAX_K];
    /* ops per 64-cell word: shifts + front + final + not */
    int ops_per_word, shifts, front_ops, final_ops, not_ops;
    /* what a proof still needs, k from lower_bound below gates, where the
     * shapes' costs were measured */
    int n_left;
    struct {
        int k, shapes;
        double times_k6;  /* usually this many times the work of k=6 */
        int at_least;     /* ... at least */
    } left[GOLGEN_SYNTH_MAX_K];
    char *network;       /* the network as text, its inputs named by the
                            front (as `golgen synth` prints it) */
} golgen_synth_result;

/* The fewest gates of a library that compute rule's final stage on every
 * reachable input: the cache's entry when it has one (unless force or
 * resume), else an exact SAT search from the best known network, which
 * fills the cache (unless no_store). A stopped or timed-out search
 * returns its best network, unproven, and caches what was proven.
 * GOLGEN_ERR_INPUT: bad rule or options; GOLGEN_ERR_CHECK: a cached
 * entry failed its check (force replaces it) or the search failed;
 * GOLGEN_ERR_ENV: no solver in this build, or out of memory. With a team,
 * every member calls it with the same arguments: the lead gets the result
 * (*res), the others NULL. */
int golgen_synth(const char *rule, const golgen_synth_opts *opts,
                 golgen_synth_result **res, char *errbuf, size_t errlen);
void golgen_synth_free(golgen_synth_result *res);

/* 1 when this golgen has the SAT solver named ("cms", "cadical", or
 * "any"), else 0 (golgen_synth then fails with GOLGEN_ERR_ENV). */
int golgen_solver_available(const char *name);

/* ---- kernels with their story, and files (golgen_0.3) ---- */

typedef struct golgen_emit_opts {
    golgen_search_fn on_search; /* NULL: nobody is told */
    void *search_ctx;
} golgen_emit_opts;

#define GOLGEN_KERNEL_STAGES 4

/* A kernel as golgen_emit_kernel made it. Allocated by the library
 * (fields may be appended in later versions); free it with
 * golgen_kernel_free. */
typedef struct golgen_kernel {
    char *src;           /* the source, NUL-terminated, len bytes */
    size_t len;
    int dims;            /* 2, or 3 for a 3D rule */
    /* 2D: the final stages it was built from (a Generations rule's are
     * its two-state rule's, rule below) */
    char rule[256];      /* the transition they are for, e.g. "B3/S23" */
    char usual_front[32]; /* that rule's own front (synth's default) */
    int n_stages;
    struct {
        char lib[16], front[32];
        char source[64]; /* where it came from: the cache, the adder
                            tree, ... (the kernel's header says so too) */
        int cached;      /* 0: a quick one; golgen_synth caches a
                            smaller one */
    } stage[GOLGEN_KERNEL_STAGES];
} golgen_kernel;

/* rule's kernel for target "c", "cuda", "ptx" or "opencl" (a 3D.lua rule:
 * "c" or "cuda"), as `golgen --target` writes it: every 2D family, and
 * Generations. GOLGEN_ERR_INPUT: bad rule or target (for a 3D rule, any
 * failure); GOLGEN_ERR_CHECK: a network could not be built or failed its
 * check. */
int golgen_emit_kernel(const char *rule, const char *target,
                       const golgen_emit_opts *opts, golgen_kernel **kernel,
                       char *errbuf, size_t errlen);
void golgen_kernel_free(golgen_kernel *kernel);

/* len bytes into path, whole or not at all (a temporary file beside it,
 * renamed over it). GOLGEN_ERR_INPUT when it cannot be written. */
int golgen_write_file(const char *path, const void *data, size_t len,
                      char *errbuf, size_t errlen);

/* ---- stores and checkpoints (golgen_0.3) ----
 *
 * A store (.ggu) holds a universe bit-packed on disk with its rule,
 * generation and position, and a checksum per band of rows: `golgen run
 * --store` writes one and keeps it current, `--resume` goes on from it. */

/* A store's header. Allocated by the library (fields may be appended in
 * later versions); free it with golgen_store_info_free. */
typedef struct golgen_store_info {
    char rule[256];      /* canonical */
    int version;         /* the store format's */
    int64_t width, height; /* cells; a 3D store's layer */
    int64_t depth;       /* 0: 2D; a 3D store's layers */
    int planes;          /* state planes (Generations: more than 1) */
    int64_t generation;
    int64_t x0, y0;      /* the Golly coordinates of cell (0, 0) */
    int64_t bands;       /* bands of band_rows rows, each checksummed */
    int band_rows;
    /* golgen_0.3: "two-state", "Generations", "3D", "Larger than Life" or
     * "Golly rule table or tree" (a rule named by its .rule file) */
    char family[32];
} golgen_store_info;

/* The header (checked). GOLGEN_ERR_INPUT: no such store, or damaged. */
int golgen_store_info_read(const char *path, golgen_store_info **info,
                           char *errbuf, size_t errlen);
void golgen_store_info_free(golgen_store_info *info);

/* The live cells of the store at path, or of the window x, y, w, h
 * (window[0..3], Golly coordinates; NULL: the whole store), as a pattern
 * file in the format out's name asks for (.rle, .cells, .lif, .mc),
 * reading only the bands the window covers. */
int golgen_store_export(const char *path, const int64_t *window,
                        const char *out, char *errbuf, size_t errlen);

/* The pattern file in placed as `golgen run` places it under rule (NULL:
 * the file's, else B3/S23), stored at out: two-state, Generations and
 * Larger than Life rules, and Golly rule tables whose .rule file lies
 * beside in or in Golly's Rules folder. */
int golgen_store_import(const char *in, const char *rule, const char *out,
                        char *errbuf, size_t errlen);

/* A checkpoint of u (two-state rules), and a universe from one, every
 * band checked: the run goes on from the generation stored. */
int golgen_universe_write_store(const golgen_universe *u, const char *path,
                                char *errbuf, size_t errlen);
int golgen_universe_read_store(const char *path, golgen_universe **u,
                               char *errbuf, size_t errlen);

/* ---- pictures (golgen_0.3) ---- */

/* The automatic scale's bound: pictures at most this many pixels a side
 * (golgen_0.6 names it). */
#define GOLGEN_PICTURE_MAX_SIDE 4096

/* What a picture shows: as `golgen run --png`, --window, --png-scale,
 * --png-zoom. All zero: the whole grid of a bounded rule (the live cells'
 * box on the unbounded plane), a pixel a cell while that fits 4096 pixels
 * a side, else the fewest cells a pixel side that fit (a pixel then shades
 * the share of live cells in its square). */
typedef struct golgen_picture_opts {
    int window;          /* 1: only the cells of x, y, w, h (Golly's) */
    int64_t x, y, w, h;
    int64_t scale;       /* cells per pixel side; 0: automatic */
    int64_t zoom;        /* pixels per cell side (scale 1); 0: 1 */
    int64_t max_side;    /* the automatic scale's bound; 0: 4096 */
} golgen_picture_opts;

typedef struct golgen_picture_info {
    int64_t x, y, w, h;  /* the region drawn: top-left cell, size */
    int64_t scale, zoom;
} golgen_picture_info;

/* u as a PNG file at path (atomically; black dead, white alive). info
 * (may be NULL) says what it shows. GOLGEN_ERR_ENV: this golgen was built
 * without libpng. */
int golgen_universe_write_png(const golgen_universe *u, const char *path,
                              const golgen_picture_opts *opts,
                              golgen_picture_info *info, char *errbuf,
                              size_t errlen);

/* ---- what a rule string means (golgen_0.3) ---- */

/* What golgen understands of text, as `golgen rule` prints it: one
 * "label: value" line each (rule, transition, kind, neighbourhood,
 * topology, birth and survival, truth table, final stage, backends, ...)
 * for B/S rules (totalistic, Hensel, MAP), Generations, Larger than Life,
 * 3D.lua rules and Golly rule files (NAME.rule in rules_dir, NULL: none,
 * then in /usr/share/golly/Rules). *desc is malloc'd, NUL-terminated,
 * *len bytes; free it with golgen_free. GOLGEN_ERR_INPUT: golgen reads no
 * rule there (the sentence says why). */
int golgen_rule_describe(const char *text, const char *rules_dir,
                         char **desc, size_t *len, char *errbuf,
                         size_t errlen);
/* 1 when text is a 3D.lua rule (3D5..7/6, ...), else 0. */
int golgen_rule_is_3d(const char *text);

/* ---- benchmarks (golgen_0.4) ---- */

/* 1 when text is written as a Larger than Life rule (R<digit>..., or
 * five comma-separated numbers; golgen_0.4), else 0: its parse errors
 * are then the ones to show. */
int golgen_rule_is_ltl(const char *text);

typedef struct golgen_bench_result golgen_bench_result;

/* What golgen_bench_ltl runs. All zero: the rule's grid (1024 x 1024 on
 * the unbounded plane), 100 generations, seed 0, the rule's topology
 * (a torus for the unbounded plane), auto's backend with its defaults. */
typedef struct golgen_bench_opts {
    const char *backend;   /* NULL or "auto": the first that opens */
    int64_t width, height; /* 1..1048576 each, or both 0 */
    int64_t gens;          /* timed generations; 0: 100 */
    int64_t seed;          /* the soup's (below), 0.. */
    int plane;             /* 1: a bounded plane instead of a torus */
    int threads;           /* host threads; 0: the backend's default */
    const char *isa;       /* "avx512", "avx2", "portable"; NULL: best */
    /* told once the backend is open, before the soup runs (res holds
     * backend, auto_note and open_seconds so far); may be NULL */
    void (*on_open)(void *ctx, const golgen_bench_result *res);
    void *ctx;
} golgen_bench_opts;

struct golgen_bench_result {
    char rule[1200];      /* the rule as golgen writes it, without a size */
    char backend[32];     /* the backend that ran */
    char auto_note[600];  /* auto's backends passed over and why, or "" */
    char what[400];       /* its instruction set or device */
    int threads;          /* host threads a step used */
    int kernel_cached;    /* 1: the kernel came from the cache */
    int torus;            /* 1: torus, 0: bounded plane */
    int64_t width, height, gens;
    double open_seconds;  /* opening the backend (compile, checks) */
    double seconds;       /* wall time of the timed generations */
    double cpu_seconds;   /* this process's CPU time meanwhile */
    int64_t population;   /* live cells after the warm-up and gens */
};

/* What `golgen bench` does for a Larger than Life rule (golgen_0.4): a
 * width x height soup of state-1 cells stepped by the backend, one
 * untimed warm-up generation, then gens timed in one call. The soup, row
 * by row from the top-left cell: s = seed * 0x9e3779b97f4a7c15 + 1
 * (mod 2^64), then for each cell s ^= s << 13, s ^= s >> 7, s ^= s << 17,
 * and the cell is alive when bit 63 of s is set. GOLGEN_ERR_INPUT: not
 * a Larger than Life rule, a bad option or an unknown backend;
 * GOLGEN_ERR_ENV: the backend cannot run here; GOLGEN_ERR_CHECK: its
 * kernel failed its check. */
int golgen_bench_ltl(const char *rule, const golgen_bench_opts *opts,
                     golgen_bench_result *res, char *errbuf, size_t errlen);

typedef struct golgen_bench3d_result golgen_bench3d_result;

/* The largest side of a 3D grid golgen takes (cells are also bounded by
 * memory). */
#define GOLGEN_MAX_SIDE3D (INT64_C(1) << 24)

/* What golgen_bench_3d runs. All zero: the rule's grid (256^3 when its
 * text carries no size), 16 generations, seed 0, the rule's topology
 * (a torus unless it says :P), auto's backend with its defaults. */
typedef struct golgen_bench3d_opts {
    const char *backend;  /* NULL or "auto": the first that opens */
    int64_t sx, sy, sz;   /* 1..GOLGEN_MAX_SIDE3D each, or all 0 */
    int64_t gens;         /* timed generations; 0: 16 */
    int64_t seed;         /* the soup's (below), 0.. */
    int box;              /* 1: a bounded box instead of a torus */
    int threads;          /* host threads; 0: the backend's default */
    int slab, ty;         /* cuda's launch shape: planes a block, rows a
                             thread (1..16); 0: sized to the GPU, 4 */
    /* told once the backend is open, before the soup runs (res holds
     * backend and auto_line so far); may be NULL */
    void (*on_open)(void *ctx, const golgen_bench3d_result *res);
    void *ctx;
} golgen_bench3d_opts;

struct golgen_bench3d_result {
    char rule[256];       /* the transition as 3D.lua writes it */
    char backend[32];     /* the backend that ran */
    char auto_line[1024]; /* "backend auto -> cpu (...)", or "" when named */
    char what[400];       /* its instruction set or device and shape */
    int threads;          /* host threads a step used */
    int on_device;        /* 1: the device timed the generations */
    int torus;            /* 1: torus, 0: bounded box */
    int64_t sx, sy, sz, gens;
    double seconds;       /* the timed generations (the device's clock
                             where on_device, transfers excluded) */
    double cpu_seconds;   /* the host's CPU time meanwhile (0 on_device) */
    int64_t population;   /* live cells after the warm-up and gens */
};

/* What `golgen bench` does for a 3D rule (golgen_0.4): an sx x sy x sz
 * soup stepped by the backend, one untimed warm-up generation, then gens
 * timed. The soup: s = seed; for each row (z = 0.., then y = 0..) and
 * each of its ceil(sx / 64) words, s += 0x9e3779b97f4a7c15 (mod 2^64),
 * the word is splitmix64's mix of s (z = s; z = (z ^ z >> 30) *
 * 0xbf58476d1ce4e5b9; z = (z ^ z >> 27) * 0x94d049bb133111eb; z ^ z >>
 * 31), and cell x of the row is its bit x mod 64 of word x / 64.
 * GOLGEN_ERR_INPUT: an unknown backend or one without 3D rules, a bad
 * rule or option; GOLGEN_ERR_ENV: the backend cannot run here, or its
 * run failed; GOLGEN_ERR_CHECK: its kernel failed its check. */
int golgen_bench_3d(const char *rule, const golgen_bench3d_opts *opts,
                    golgen_bench3d_result *res, char *errbuf,
                    size_t errlen);

/* The backends of this build that run family "two-state",
 * "generations", "3d", "ltl" or "table" (golgen_0.4), in the registry's
 * order, joined by sep (NULL: "|"), e.g. "reference|cpu|cuda|ptx" for
 * "3d"; cut to len. GOLGEN_ERR_INPUT (buf "") for another family. */
int golgen_backend_names(const char *family, const char *sep, char *buf,
                         size_t len);

/* ---- what this golgen has (golgen_0.5) ---- */

/* The SAT solver this golgen was built with, as `golgen --version` names
 * it: "CryptoMiniSat 5.11.4", or "none" (golgen_synth then answers from
 * the network cache only); cut to len. */
void golgen_solver_version(char *buf, size_t len);

/* The backends "auto" tries, fastest first, joined by sep (NULL: "|"),
 * e.g. "ptx|cuda|opencl|cpu|reference"; cut to len. */
void golgen_backend_auto_order(const char *sep, char *buf, size_t len);

/* Whether each backend of this build runs here, a line each as `golgen
 * --version` prints them: indent (NULL: none), the name padded to 10
 * characters, then "usable" or why not (no GPU, driver or compiler);
 * cut to len. The probes read the environment (CC, GOLGEN_CACHE_DIR,
 * ...): GOLGEN_ERR_INPUT, buf "", when a variable holds a bad value. */
int golgen_backend_probes(const char *indent, char *buf, size_t len,
                          char *errbuf, size_t errlen);

/* ---- a 2D rule's benchmark (golgen_0.5) ---- */

typedef struct golgen_bench2d_result golgen_bench2d_result;

/* The largest side of a 2D grid (Golly's own limit). */
#define GOLGEN_MAX_SIDE INT64_C(2000000000)

/* What golgen_bench_2d runs. All zero: the rule's grid (4096 x 4096 on
 * the unbounded plane), 100 generations, seed 0, the rule's topology (a
 * torus for the unbounded plane), auto's backend and engine. */
typedef struct golgen_bench2d_opts {
    const char *backend;   /* NULL or "auto": the fastest that opens */
    int64_t width, height; /* 1..GOLGEN_MAX_SIDE each, or both 0 */
    int64_t gens;          /* timed generations; 0: 100 */
    int64_t seed;          /* the soup's, 0.. */
    int plane;             /* 1: a bounded plane instead of a torus */
    int threads;           /* host threads; 0: the backend's default */
    const char *isa;       /* "native", "avx2", "portable"; NULL: best */
    /* "dense" (the backend's kernel on the whole grid), "tiles" (the
     * grid's active tiles), "hashlife" (the soup on the unbounded plane
     * in a hash tree whose leaves the backend steps), or "auto"/NULL
     * (dense: a soup keeps its whole grid busy) */
    const char *engine;
    int64_t mem;           /* hashlife: the tree's bytes; 0: a share of
                              the machine's memory */
    int64_t device_mem;    /* > 0: the grid streamed through the backend
                              in bands within these bytes (dense) */
    const char *devices;   /* "0,1" (0,0: two bands on device 0): one
                              band a device, resident there, halos
                              exchanged device to device (dense) */
    int host_halos;        /* devices: halos through the host instead */
    int announce;          /* 1: a GPU backend says on stderr when it
                              autotunes (seconds; for a person waiting) */
    golgen_search_fn on_search; /* a new rule's network search; may be
                                   NULL */
    void *search_ctx;
    /* told once the (first) backend is open, before the soup runs (res
     * holds backend and auto_line so far); may be NULL */
    void (*on_open)(void *ctx, const golgen_bench2d_result *res);
    /* told each line golgen bench says on stderr as the bench goes (what
     * auto chose and why, what the bands or streaming did), as it says
     * it, without the newline; may be NULL */
    void (*on_note)(void *ctx, const char *line);
    void *ctx;             /* on_open's and on_note's */
} golgen_bench2d_opts;

struct golgen_bench2d_result {
    char rule[256];       /* the transition, as golgen writes it */
    char engine[16];      /* "dense", "tiles" or "hashlife" */
    char backend[32];     /* the backend that ran */
    char auto_line[1024]; /* "backend auto -> cpu (...)", or "" when
                             named */
    char what[400];       /* its instruction set or device */
    int threads;          /* host threads a step used */
    int kernel_cached;    /* 1: the kernel came from the cache */
    int torus;            /* 1: torus, 0: bounded plane (hashlife: the
                             unbounded plane) */
    int64_t width, height, gens;
    double open_seconds;  /* opening the backend(s): build, tuning, checks */
    char open_detail[200]; /* where opening spent its time, or "" */
    double seconds;       /* wall time of the timed generations */
    double cpu_seconds;   /* this process's CPU time meanwhile (0 where
                             the device timed them) */
    int64_t population;   /* live cells after the warm-up and gens (not
                             dead: Generations' dying cells count) */
    /* devices: where the bands' time went (bands 0: none) */
    int bands, peer;      /* peer 1: halos band to band, 0: host */
    int64_t exchanges;
    double step_seconds, halo_seconds, transfer_seconds;
    /* tiles and hashlife: what the engine did, e.g. "cpu, tiles 256:
     * ..." */
    char engine_detail[160];
    int64_t leaf_steps, nodes, tree_bytes; /* hashlife */
};

/* What `golgen bench` does for a 2D rule (two-state, Hensel, MAP or
 * Generations; golgen_0.5): a width x height soup (two-state: each cell
 * alive with odds 1/2; Generations: half dead, a quarter alive, a quarter
 * dying; from seed by golgen's own generator), one untimed warm-up
 * generation (not for hashlife: it would leave memoized futures behind),
 * then gens timed. GOLGEN_ERR_INPUT: a bad rule, option or backend, or
 * options that do not combine; GOLGEN_ERR_ENV: the backend cannot run
 * here, or the bands failed; GOLGEN_ERR_CHECK: its kernel failed its
 * check. The run's own failures after the backend opened are
 * GOLGEN_ERR_INPUT (as the command's exit status 2). */
int golgen_bench_2d(const char *rule, const golgen_bench2d_opts *opts,
                    golgen_bench2d_result *res, char *errbuf,
                    size_t errlen);

/* ---- what a backend takes, and a 3D rule's run (golgen_0.6) ---- */

/* 0 when backend (NULL or "auto": whichever auto picks) runs feature for
 * family (as golgen_backend_names names them): feature "run", "store",
 * "pictures", "devices", "bench-bands", "device-mem", "host-mem" or
 * "ranks". GOLGEN_ERR_INPUT with the sentence `golgen run` says: an
 * unknown backend (the known ones listed), or one that does not take it
 * (naming the family, the feature and the backends that would). */
int golgen_backend_takes(const char *backend, const char *family,
                         const char *feature, char *errbuf, size_t errlen);

/* 1 when the file at path begins as RLE3 does ("3D version=..."; Golly
 * 3D.lua's format), whatever its name; 0 otherwise, also when it cannot
 * be read ("-", stdin, is not looked at). */
int golgen_file_is_rle3(const char *path);

typedef struct golgen_run3d_result golgen_run3d_result;

/* What golgen_run_3d runs: `golgen run` of a 3D rule. */
typedef struct golgen_run3d_opts {
    const char *in;       /* an RLE3 pattern file ("-": stdin), placed at
                             its pos= in the rule's grid */
    const char *resume;   /* or (in NULL) a 3D store to go on from */
    const char *rule;     /* NULL: the pattern's, or the store's (which
                             rule may only repeat); a rule without a size
                             takes the pattern's size= torus */
    int64_t gens;         /* generations to run, 0.. */
    const char *backend;  /* NULL or "auto": the first that opens */
    int threads;          /* host threads; 0: the backend's default */
    int announce;         /* 1: a GPU backend says on stderr when it
                             autotunes (seconds; for a person waiting) */
    const char *out;      /* the end as RLE3 ("-": stdout); NULL: none */
    const char *store;    /* the end as a store; NULL: none */
    int64_t checkpoint_every; /* and every N generations (store given) */
    const char *png;      /* the end's picture (projected along z) */
    const char *frames;   /* DIR/frame_000000.png at the start, then one
                             every frame_every generations; NULL: none */
    int64_t frame_every;  /* 0: 1 */
    golgen_picture_opts picture; /* the window's x, y: the grid's */
    /* set (by a signal handler): the run ends within the generation in
     * flight, the grid at the last one completed; NULL: never */
    const volatile sig_atomic_t *stop;
    /* told after each batch of generations (done of total); returning 0
     * ends the run there; may be NULL */
    int (*on_progress)(void *ctx, int64_t done, int64_t total);
    /* told once the backend is open, before the run (res holds backend
     * and auto_line); may be NULL */
    void (*on_open)(void *ctx, const golgen_run3d_result *res);
    void *ctx;
} golgen_run3d_opts;

struct golgen_run3d_result {
    char backend[32];     /* the backend that ran */
    char auto_line[1024]; /* "backend auto -> cpu (...)", or "" when
                             named */
    int ran;              /* 1: the generations ran (a failure may still
                             follow: writing out, store or png) */
    int64_t reached;      /* generations run: gens, or fewer after stop
                             or on_progress ended the run */
    int64_t generation;   /* where the grid stands (the pattern's or
                             store's generation + reached) */
    int64_t population;
    double seconds;       /* wall time of the generations and frames */
    int png_written;      /* 1: png written; png_info says what it shows */
    golgen_picture_info png_info;
};

/* What `golgen run` does for a 3D rule (golgen_0.6): the grid loaded, the
 * outputs checked writable, gens generations on the backend in batches
 * (checkpoints to store every checkpoint_every, frames), then out, store
 * and png written. GOLGEN_ERR_INPUT: a bad option, pattern, store, rule
 * or output, or a frame or output that cannot be written; GOLGEN_ERR_ENV:
 * the backend cannot run here, its run or a checkpoint failed, or no
 * libpng for pictures; GOLGEN_ERR_CHECK: its kernel failed its check. */
int golgen_run_3d(const golgen_run3d_opts *opts, golgen_run3d_result *res,
                  char *errbuf, size_t errlen);

#ifdef __cplusplus
}
#endif

#include "golgen/run.h" /* patterns, and runs of every 2D family (golgen_0.7) */
#include "golgen/world.h" /* worlds of every family (golgen_0.8) */

#endif

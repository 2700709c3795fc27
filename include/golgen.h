/* golgen as a C library: parse a cellular-automaton rule in Golly's
 * notation, build a universe from cells or a pattern file, run it on the
 * fastest backend here (or a named one), read the cells back, write a
 * pattern file, and emit a rule's kernel source for a target.
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

/* Frees what golgen_emit and golgen_universe_format return. */
void golgen_free(void *p);

#ifdef __cplusplus
}
#endif

#endif

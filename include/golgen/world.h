/* golgen worlds (golgen_0.8): a universe of any family golgen runs, as
 * `golgen serve` shows it. Included by golgen.h; include that.
 *
 * A world holds the cells of one rule of any family: two-state (B/S,
 * Hensel, MAP) and Generations rules, Golly rule tables and trees (a
 * NAME.rule file, found as Golly finds it: beside the pattern, then in
 * Golly's Rules folder), Larger than Life, and 3D rules (3D.lua's
 * notation; shown and edited one z slice at a time). It is loaded from a
 * pattern (RLE, .cells, Life 1.05/1.06, macrocell, MCell, RLE3), stepped
 * by a stepper opened for its rule on a backend, read back a window at a
 * time (states, or shaded blocks of 2^level cells), edited a cell or a
 * pasted pattern at a time, and written as RLE, macrocell or a picture.
 *
 *     golgen_world *w;
 *     golgen_world_stepper *st;
 *     golgen_world_rule *r;
 *     char err[512];
 *     if (golgen_world_read("wireworld.rle", NULL, &w, err, sizeof err) ||
 *         golgen_world_get_rule(w, &r) ||
 *         golgen_world_stepper_open(r, NULL, &st, err, sizeof err) ||
 *         golgen_world_step(st, w, 100, NULL, err, sizeof err))
 *         return fprintf(stderr, "%s\n", err), 1;
 *     printf("%lld\n", (long long)golgen_world_population(w));
 *
 * (golgen_world_run does the last two in one call.) Coordinates are
 * Golly's, as in golgen.h. An unbounded plane is held as a grid of at
 * most 2^30 cells (a rule table's: 2^28), grown by edits within that;
 * `golgen run` takes patterns past it. Calls on one world or stepper must
 * not overlap; a stepper may step several worlds of its rule in turn. */
#ifndef GOLGEN_WORLD_H
#define GOLGEN_WORLD_H

#include "../golgen.h" /* golgen_search_fn, golgen_free */

#include <signal.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct golgen_world golgen_world;
typedef struct golgen_world_rule golgen_world_rule;
typedef struct golgen_world_stepper golgen_world_stepper;

/* A world's family (golgen_world_family, golgen_world_rule_family). */
#define GOLGEN_FAMILY_TWO_STATE 0
#define GOLGEN_FAMILY_GENERATIONS 1
#define GOLGEN_FAMILY_TABLE 2 /* a Golly rule table or tree */
#define GOLGEN_FAMILY_LTL 3   /* Larger than Life */
#define GOLGEN_FAMILY_3D 4

/* Its topology (golgen_world_topology; a 3D world's: its slices'). */
#define GOLGEN_TOPO_UNBOUNDED 0
#define GOLGEN_TOPO_TORUS 1
#define GOLGEN_TOPO_BOUNDED 2 /* a bounded plane, or a 3D box */

/* ---- rules of every family ---- */

/* text as `golgen serve --rule` takes it: Larger than Life, a 3D rule,
 * B/S notation (two-state or Generations), else the name of a Golly rule
 * file looked for beside the file `near` (NULL: nowhere) and then in
 * Golly's Rules folder (its topology and size after a colon, as Golly
 * writes them). A rule table on the unbounded plane must keep state 0
 * amid 0s. GOLGEN_ERR_INPUT: not a rule (the sentence says why). */
int golgen_world_rule_parse(const char *text, const char *near,
                            golgen_world_rule **rule, char *errbuf,
                            size_t errlen);
void golgen_world_rule_free(golgen_world_rule *rule);
/* Canonical text with its grid suffix, e.g. "B3/S23:T64,64" (cut to
 * len). */
void golgen_world_rule_text(const golgen_world_rule *rule, char *buf,
                            size_t len);
int golgen_world_rule_family(const golgen_world_rule *rule);

/* ---- worlds ---- */

/* How a pattern becomes a world. All zero: the pattern's own rule, else
 * B3/S23, no limit on a bounded grid's cells. */
typedef struct golgen_world_load_opts {
    const char *rule;     /* overrides the pattern's rule (NULL: none) */
    const char *fallback; /* the rule of a pattern that names none (NULL:
                             B3/S23) */
    const char *near;     /* rule files are looked for beside this file
                             first (golgen_world_read: the pattern's own
                             path when NULL) */
    const char *name;     /* what messages call the pattern (NULL: the
                             path, or "the pattern") */
    int64_t max_cells;    /* > 0: a bounded grid of more cells is
                             refused (a 3D one counts every plane) */
} golgen_world_load_opts;

/* The end of the sentence of a grid refused for max_cells (here and in
 * golgen_world_with_rule): a caller may put its own way round in its
 * place (golgen serve: its --rule, which has no limit). */
#define GOLGEN_WORLD_PAST_MAX_CELLS "(max_cells)"

/* From pattern text (any format golgen reads, RLE3 for a 3D rule's grid,
 * chosen by content), placed as `golgen run` places it: a 2D pattern
 * under a 3D rule becomes its grid's middle slice, an RLE3 sits at its
 * pos=. GOLGEN_ERR_INPUT: a bad pattern or rule, or one that does not
 * fit. */
int golgen_world_parse(const char *text, size_t len,
                       const golgen_world_load_opts *opts, golgen_world **w,
                       char *errbuf, size_t errlen);
/* The same from the file at path ("-": standard input). */
int golgen_world_read(const char *path, const golgen_world_load_opts *opts,
                      golgen_world **w, char *errbuf, size_t errlen);
/* The same cells (and generation) under another rule of any family; a
 * bounded grid of more than max_cells cells (> 0) is refused. Between
 * 2D and 3D the 2D cells become the middle slice, a 3D world's slice
 * shown becomes the plane; a 3D rule of another size is refused. */
int golgen_world_with_rule(const golgen_world *w,
                           const golgen_world_rule *rule, int64_t max_cells,
                           golgen_world **out, char *errbuf, size_t errlen);
/* A random soup: a torus of width x height cells under rule's transition
 * (its topology replaced), each cell alive (state 1) with probability
 * percent / 100 from seed; 50 percent of a two-state or Generations rule
 * is `golgen bench --seed`'s soup exactly. 3D rules are refused. */
int golgen_world_soup(const golgen_world_rule *rule, int64_t width,
                      int64_t height, int percent, uint64_t seed,
                      golgen_world **out, char *errbuf, size_t errlen);
void golgen_world_free(golgen_world *w);

/* ---- what a world holds ---- */

int golgen_world_family(const golgen_world *w);
/* Its rule, a new reference (free it with golgen_world_rule_free). */
int golgen_world_get_rule(const golgen_world *w, golgen_world_rule **rule);
/* Its rule's canonical text, with the grid suffix (cut to len). */
void golgen_world_rule_name(const golgen_world *w, char *buf, size_t len);
int golgen_world_topology(const golgen_world *w);
/* States a cell may take: 2 for two-state rules (and 3D). */
int golgen_world_states(const golgen_world *w);
/* 1 and rgb[s] for each state s when the rule file gives colours (a rule
 * table's @COLORS, states it does not name grey); 0 when it gives none. */
int golgen_world_colours(const golgen_world *w, uint8_t rgb[256][3]);
int64_t golgen_world_generation(const golgen_world *w);
/* Cells in a state other than 0 (3D: in the whole grid). */
int64_t golgen_world_population(const golgen_world *w);
/* The grid held now (a bounded rule's whole grid; 3D: a slice's). */
void golgen_world_extent(const golgen_world *w, int64_t *x, int64_t *y,
                         int64_t *wd, int64_t *ht);
/* The live cells' box (3D: the slice shown's, or every plane's for the
 * projection); 0 with *wd = *ht = 0 when none, else 1. */
int golgen_world_bbox(const golgen_world *w, int64_t *x, int64_t *y,
                      int64_t *wd, int64_t *ht);
/* 3D: the slice shown and edited, 0 .. depth - 1, or GOLGEN_WORLD_Z_SUM:
 * the projection along z (drawn, each cell shaded by the live cells of
 * its column of z, as `golgen run --png` draws a 3D grid; not edited).
 * *depth 0 for 2D worlds. A new 3D world shows its middle slice. */
#define GOLGEN_WORLD_Z_SUM (-1)
int64_t golgen_world_z(const golgen_world *w, int64_t *depth);
int golgen_world_set_z(golgen_world *w, int64_t z, char *errbuf,
                       size_t errlen);

/* cols x rows bytes, row by row, of the window whose top-left cell is
 * (x, y): level 0 each cell's state (the projection: its shade);
 * level k > 0 (at most 40) each 2^k square's share of live cells, 0 none,
 * 1..255 (any live cell >= 1). sample > 0 (a power of two) reads only
 * that many rows of each square, evenly spaced: the share is then an
 * estimate. A torus is drawn wrapped (the window may show it repeated)
 * while a square fits in it. Cells outside the grid read 0. */
void golgen_world_render(const golgen_world *w, int64_t x, int64_t y,
                         int cols, int rows, int level, int64_t sample,
                         uint8_t *out);
/* wd x ht states (level 0 of golgen_world_render). GOLGEN_ERR_INPUT:
 * a side < 1 or over 2^20, or more than 2^28 cells. */
int golgen_world_window(const golgen_world *w, int64_t x, int64_t y,
                        int64_t wd, int64_t ht, uint8_t *out, char *errbuf,
                        size_t errlen);
/* One cell's state (0 outside the grid). */
int golgen_world_get(const golgen_world *w, int64_t x, int64_t y);

/* ---- editing ---- */

/* Cell (x, y) to state: the unbounded plane grows to take it, a torus
 * wraps it, a bounded plane refuses a cell outside. */
int golgen_world_set(golgen_world *w, int64_t x, int64_t y, int state,
                     char *errbuf, size_t errlen);
/* The live cells of pattern text laid over the world with the pattern's
 * top-left cell at (x, y) (its own position ignored): states other than
 * 0 replace what is there. A box over 2^32 cells or over 2^24 live cells
 * is refused; on failure the cells are unchanged. */
int golgen_world_paste(golgen_world *w, const char *text, size_t len,
                       int64_t x, int64_t y, char *errbuf, size_t errlen);
/* Every cell 0, the generation 0. */
void golgen_world_clear(golgen_world *w);

/* ---- writing ---- */

/* As `golgen run -o` writes it: format "rle" (a 3D world: RLE3) or "mc"
 * (macrocell; not 3D). *text is malloc'd, NUL-terminated, *len bytes;
 * free it with golgen_free. */
int golgen_world_format(const golgen_world *w, const char *format,
                        char **text, size_t *len, char *errbuf,
                        size_t errlen);

/* A picture as `golgen run --png` draws it: a bounded grid whole, else
 * the live cells' box (a 3D grid projected along z); a pixel a cell up
 * to 4096 a side, else shaded squares. */
typedef struct golgen_image {
    int64_t width, height;
    uint8_t *index;          /* width * height palette entries, row by
                                row */
    uint8_t palette[256][3]; /* RGB */
    int colours;             /* entries used, 1..256 */
} golgen_image;
int golgen_world_image(const golgen_world *w, golgen_image **im,
                       char *errbuf, size_t errlen);
void golgen_image_free(golgen_image *im);

/* A file in the format its name asks for: .png (the picture;
 * GOLGEN_ERR_ENV without libpng), .mc, .rle3 or any name for a 3D world
 * (RLE3), .cells, .lif/.life, else RLE; written atomically. */
int golgen_world_write(const golgen_world *w, const char *path,
                       char *errbuf, size_t errlen);

/* ---- stepping ---- */

typedef struct golgen_world_stepper_opts {
    const char *backend;        /* as `golgen run --backend`; NULL or
                                   "auto": the fastest that opens */
    golgen_search_fn on_search; /* a new rule's network search; may be
                                   NULL */
    void *search_ctx;
} golgen_world_stepper_opts;

/* A stepper for rule, as `golgen run` opens one for that backend name:
 * two-state and Generations rules on the backend, rule tables as a
 * compiled kernel (auto: cpu, else the reference; on the unbounded plane
 * under the hash tree, whose memo stays between steps), Larger than Life
 * and 3D on their backends. GOLGEN_ERR_INPUT: an unknown backend or one
 * that does not take the rule; GOLGEN_ERR_ENV: it cannot run here;
 * GOLGEN_ERR_CHECK: its kernel failed its check. */
int golgen_world_stepper_open(const golgen_world_rule *rule,
                              const golgen_world_stepper_opts *opts,
                              golgen_world_stepper **st, char *errbuf,
                              size_t errlen);
/* What runs: "cpu", "reference, tree", ... (for as long as st). */
const char *golgen_world_stepper_name(const golgen_world_stepper *st);
/* auto's choice for a two-state or Generations rule, the line `golgen
 * run` prints ("backend auto -> cpu (...)"); else "". */
const char *golgen_world_stepper_auto_line(const golgen_world_stepper *st);
/* The most generations one call of the backend runs (0: no bound). */
int64_t golgen_world_stepper_max_batch(const golgen_world_stepper *st);
/* Seconds the last step spent moving cells between the world and the
 * hash tree (0 without a tree). */
double golgen_world_stepper_overhead(const golgen_world_stepper *st);
/* Generations one pass of the backend's kernel over the grid runs (the
 * cpu backend's temporal blocking: a call of fewer moves the grid
 * through memory as often), 0 where the stepper has no such pass
 * (golgen_0.9). */
int64_t golgen_world_stepper_pass(const golgen_world_stepper *st);
void golgen_world_stepper_close(golgen_world_stepper *st);

typedef struct golgen_world_step_opts {
    /* set (by a signal handler, another thread): the step ends early,
     * the world at the last generation completed; NULL: never */
    const volatile sig_atomic_t *stop;
    /* told after each batch (done of total); returning 0 ends the step
     * there; may be NULL */
    int (*on_progress)(void *ctx, int64_t done, int64_t total);
    void *ctx;
} golgen_world_step_opts;

/* n generations of w by st (opened for w's rule); golgen_world_generation
 * says how far a stopped step got. A bounded two-state world takes one
 * call of the backend per max_batch generations. */
int golgen_world_step(golgen_world_stepper *st, golgen_world *w, int64_t n,
                      const golgen_world_step_opts *opts, char *errbuf,
                      size_t errlen);

/* Watching a step from inside the kernel's pass (the cpu backend; `golgen
 * serve` draws frames of a big torus this way): rows(ctx, g, r, planes,
 * x0, x1) gets words [x0, x1) of row r at generation g into the step
 * (g % every == 0) of each state plane, planes[q][0] being word x0, for
 * rows r with (r - first) mod height < count and a multiple of step;
 * called from the kernel's threads at once, each watched row of a
 * generation once, in no order. A torus's last word may hold wrapped
 * cells past the width: mask them. Rows are the grid's (0 at its top). */
typedef struct golgen_row_watch {
    void (*rows)(void *ctx, int64_t g, int64_t r,
                 const uint64_t *const *planes, int64_t x0, int64_t x1);
    void *ctx;
    int64_t every;
    int64_t first, count, step;
} golgen_row_watch;
/* 1 when st can watch a step of w: a bounded two-state world on a
 * backend that watches. */
int golgen_world_stepper_watches(const golgen_world_stepper *st,
                                 const golgen_world *w);
/* n generations (at most max_batch) of w, watched. */
int golgen_world_step_watched(golgen_world_stepper *st, golgen_world *w,
                              int64_t n, const golgen_row_watch *watch,
                              char *errbuf, size_t errlen);

/* n generations of w on backend (NULL: auto): a stepper opened for the
 * world's rule and that name is kept in the world for the next run. */
int golgen_world_run(golgen_world *w, int64_t n, const char *backend,
                     char *errbuf, size_t errlen);

/* 0 when backend is NULL, "auto" or a backend of this build; else
 * GOLGEN_ERR_INPUT with the sentence listing the known ones. */
int golgen_world_backend_check(const char *backend, char *errbuf,
                               size_t errlen);

#ifdef __cplusplus
}
#endif

#endif

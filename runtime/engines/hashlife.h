/* The hash-tree engine: Gosper's HashLife over golgen's kernels.
 *
 * A universe on the unbounded plane is a quadtree of hash-consed nodes
 * (identical subtrees are one node); a node of level k covers 2^k x 2^k
 * cells, and its memoized results are its centre 2^(k-1) square 2^(k-2)
 * generations later and t later for a step's t < 2^(k-2). Leaves are
 * 2^2 to 2^6 cells square; the smallest results (a 2-leaf square
 * stepped up to 2^(leaf log - 1) generations) come from an open backend
 * (runtime/backends/backend.h) stepping a bounded plane with dead cells
 * outside, so every rule a backend runs, and every ISA of the cpu
 * backend's generated C, advances the leaves; the engine itself knows
 * no rule.
 *
 * Coordinates are Golly's HashLife's: a root of level k covers x from
 * -2^(k-1) and y from -2^(k-1) + 1 (y grows downwards in files, Golly
 * stores it upwards), so macrocell files map onto nodes without a shift.
 *
 * Memory: nodes and leaves live in arrays bounded by the byte budget
 * given at creation; when a step would pass it, the engine collects every
 * node the root does not reach (and forgets every memoized result) and
 * goes on in smaller steps, as Golly's does, failing only when the
 * pattern alone does not fit. */
#ifndef GG_HASHLIFE_H
#define GG_HASHLIFE_H

#include <stdbool.h>
#include <stdint.h>

#include "backend.h"
#include "error.h"
#include "gen_cells.h"
#include "mc_tree.h"
#include "pattern.h"
#include "picture.h"
#include "rule.h"
#include "rulefile.h"
#include "universe.h"

/* Leaves are 2^2 to 2^6 cells a side, chosen per tree (gg_hl_set_leaf_log):
 * a leaf of one row a word (64 bits) at most. */
#define HL_LEAF_LOG_MIN 2
#define HL_LEAF_LOG_MAX 6
/* 32 x 32 for the backends' rules (BENCHMARKS.md "Sparse patterns": with
 * leaf squares stepped in batches, 32 beat 64 everywhere but on soups, 16
 * on all but jagged2) */
#define HL_LEAF_LOG_DEFAULT 5
#define HL_MAX_LEVEL 63 /* 64-bit coordinates */

typedef struct gg_hl gg_hl;

typedef struct gg_hl_stats {
    int64_t nodes, leaves;  /* alive now */
    int64_t bytes;          /* what the arrays hold */
    int64_t collections;    /* garbage collections so far */
    int64_t base_steps;     /* leaf squares stepped */
    int64_t batches;        /* backend calls: squares side by side */
} gg_hl_stats;

/* An empty universe under rule (the unbounded plane of a two-state or
 * Generations rule, whose states a leaf holds as planes; others are
 * refused by name) whose leaves backend b steps (b stays the
 * caller's); at most mem_bytes of nodes. */
int gg_hl_new(const gg_rule *rule, gg_backend *b, int64_t mem_bytes,
              gg_hl **out, gg_err *err);

/* What steps the leaves of a rule the engine knows only by its states:
 * `cells` (ceil(log2 states) planes, state 0 outside them) advanced
 * `gens` generations in place. A Golly rule table or tree's compiled
 * kernel (runtime/backends/table_kernel.h) or its reference is one. The
 * rule must read only its 3x3 block and keep state 0 amid 0s (the
 * caller checks: gg_rulefile_zero_stays). */
typedef struct gg_hl_leaf_stepper {
    const char *rule_text; /* as files get it back: "WireWorld" */
    int states;            /* 2 .. 256 */
    int leaf_log;          /* leaves 2^leaf_log cells a side (3 .. 6); 0:
                              HL_LEAF_LOG_DEFAULT */
    int (*step)(void *ctx, gg_gen_cells *cells, int64_t gens, gg_err *err);
    void *ctx;             /* the caller's; outlives the tree */
    /* optional, the same rule as a decision graph (outlives the tree):
     * hl_small.c steps its memo's misses a cell at a time through it,
     * too few cells for step()'s vectors; NULL: step() alone */
    const gg_rulefile *rf;
} gg_hl_leaf_stepper;

int gg_hl_new_stepped(const gg_hl_leaf_stepper *s, int64_t mem_bytes,
                      gg_hl **out, gg_err *err);

/* Leaves of 2^leaf_log cells a side from now on (3 .. 6): only while the
 * tree holds no pattern yet (before gg_hl_set_pattern / gg_hl_set_mc). */
int gg_hl_set_leaf_log(gg_hl *h, int leaf_log, gg_err *err);
int gg_hl_leaf_log(const gg_hl *h);

/* Let the tree revise its leaf size once (on: auto's choice, the caller
 * named none): a two-state tree of 32x32 leaves asked for a long run
 * runs its first generations, then takes 8x8 leaves for the rest when
 * its leaves turned out to be made of few distinct 8x8 blocks (a
 * pattern that repeats at small scale: jagged2.mc), the cells the same. */
void gg_hl_set_revise(gg_hl *h, bool on);

/* A two-state B0 rule on the unbounded plane as Golly emulates it
 * without S<max> (gen/rules/rule_b0.h): the tree of gg_hl_new (rule and
 * backend: the rule from even generations) also steps by `odd` (the
 * rule from odd generations, b stays the caller's), each leaf generation
 * by the rule of its parity; `odd` may be gg_hl_new's backend itself when
 * it was opened for both rules (gg_backend_pairs), which then steps a
 * batch of leaf squares' whole count in one call, where two backends take
 * a generation a call. The memo holds steps from even generations:
 * gg_hl_run takes a generation from an odd one, and an odd count's last,
 * alone. */
int gg_hl_set_odd_backend(gg_hl *h, gg_backend *odd, gg_err *err);

/* The rule as the files the tree writes name it, where the tree steps an
 * equivalent rule (Golly's B0 rules with S<max>: their conjugate). */
void gg_hl_set_rule_text(gg_hl *h, const char *text);
void gg_hl_free(gg_hl *h);

/* Pattern p placed at its Golly coordinates (its generation taken). */
int gg_hl_set_pattern(gg_hl *h, const gg_pattern *p, gg_err *err);

/* Advance `gens` generations (any count the generation can reach:
 * gg_generations_check): its part below 2^24 in one step, then each
 * higher bit a step, low first (a count past 2^60: steps of 2^60 after
 * the rest); stop, when not NULL, is polled between steps and inside one
 * (which is then given up): *done says how many were run. */
int gg_hl_run(gg_hl *h, int64_t gens, bool (*stop)(void),
              int64_t *done, gg_err *err);

/* Called after each step of gg_hl_run with the generations run so far
 * and the run's total (universe.h's progress form; its answer
 * is not read: stops come through gg_hl_run's stop), and inside a step
 * of more than 2^16 generations after each batch of leaf squares, with
 * the same count (the step's generations arrive at its end). NULL: none. */
void gg_hl_set_progress(gg_hl *h, gg_progress_fn fn, void *ctx);

/* k while a step of 2^k generations (up to twice that) is under way
 * (for a progress callback: it is called from inside), else -1. */
int gg_hl_step_in_flight(const gg_hl *h);

int64_t gg_hl_generation(const gg_hl *h);
/* Live cells (saturates at INT64_MAX). */
int64_t gg_hl_population(gg_hl *h);
/* The live cells' box; false when there are none. */
bool gg_hl_bbox(gg_hl *h, int64_t *x0, int64_t *y0, int64_t *x1,
                int64_t *y1);

/* The live cells as a dense pattern (with rule text, position and
 * generation); refused when the box has more than max_cells cells. */
int gg_hl_to_pattern(gg_hl *h, int64_t max_cells, gg_pattern *p,
                     gg_err *err);

/* Golly's macrocell format, at any size: written as bgolly's HashLife
 * writes it (rule_text as #R, the generation as #G; path "-": stdout),
 * and a parsed file (runtime/formats/mc_tree.h) taken into the tree without a
 * dense grid. */
int gg_hl_write_mc(gg_hl *h, const char *path, const char *rule_text,
                   gg_err *err);
int gg_hl_set_mc(gg_hl *h, const gg_mc_tree *t, gg_err *err);

/* --png of the universe (runtime/formats/picture.h's options): the dense
 * picture of the live cells' box when it has at most 2^26 cells, else (or
 * for a window) drawn from the tree, a power-of-two square of cells a
 * pixel shaded by its population, at any size. */
int gg_hl_picture(gg_hl *h, const gg_picture_opts *o, gg_image *im,
                  gg_picture_info *info, gg_err *err);
int gg_hl_write_png(gg_hl *h, const char *path, const gg_picture_opts *o,
                    gg_picture_info *info, gg_err *err);

void gg_hl_stats_get(const gg_hl *h, gg_hl_stats *s);

#endif

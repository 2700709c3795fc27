/* Which engine runs a 2D run: the names, and auto's rule of thumb, in one
 * place for every caller (the library, lib/golgen.c; the command,
 * cli/cmd_run.c, cli/run_hashlife.c and cli/run_tiles.c).
 *
 *   dense     the whole grid stepped by a backend (runtime/universes)
 *   tiles     the grid's active tiles stepped by a host backend, or on a
 *             device whose backend has tiles_step (tiles.h)
 *   hashlife  a hash tree whose leaves a backend steps (hashlife.h)
 *   auto      the tree where it takes the rule and the pattern is small or
 *             runs long (gg_engine_prefers_tree), else dense, wrapped in
 *             tiles on a host backend (gg_engine_tiles_take) */
#ifndef GG_ENGINE_CHOICE_H
#define GG_ENGINE_CHOICE_H

#include <stdbool.h>
#include <stdint.h>

#include "backend.h"
#include "error.h"
#include "gen_cells.h"
#include "pattern.h"
#include "rule.h"

typedef enum gg_engine {
    GG_ENGINE_AUTO,
    GG_ENGINE_DENSE,
    GG_ENGINE_TILES,
    GG_ENGINE_HASHLIFE,
} gg_engine;

/* name "auto", "dense", "tiles" or "hashlife" (NULL: auto); else -1 with
 * err naming the four. */
int gg_engine_parse(const char *name, gg_engine *engine, gg_err *err);
const char *gg_engine_name(gg_engine engine);

/* Why the hash tree does not take rule ("a bounded grid", "a B0 rule"),
 * or NULL: it takes two-state and Generations rules on the unbounded
 * plane. */
const char *gg_engine_tree_refuses(const gg_rule *rule);

/* True when the dense engine's grids for a width x height box would not
 * fit in mem bytes (<= 0: gg_engine_default_mem()): a box of 2e10 cells
 * on the plane was OOM-killed asking for 19 GB where the tree runs it. */
bool gg_engine_dense_too_big(int64_t width, int64_t height, int64_t mem);

/* Auto's rule of thumb: true for the hash tree when it takes the rule and
 * the pattern's box (width x height cells; 0 x 0 for a pattern that is a
 * tree already, a macrocell file) has fewer than 2^22 cells, or is sparse
 * (population, when known, under 1/32 of the box: a circuit, a breeder;
 * < 0 not known), or runs for at least 4x its longer side, or is too big
 * for dense grids in mem bytes (gg_engine_dense_too_big); false for the
 * dense engine (a busy box of 2^22 cells or more for few generations). */
bool gg_engine_prefers_tree(const gg_rule *rule, int64_t width,
                            int64_t height, int64_t population, int64_t gens,
                            int64_t mem);
/* Whether the choice reads the population of a box this size (a smaller
 * box goes to the tree whatever it holds: callers count only then). */
bool gg_engine_box_needs_population(int64_t width, int64_t height);

/* What auto reads of a Golly rule table's input to choose its tree's
 * leaves (gg_engine_table_leaf_log). */
typedef struct gg_engine_table_facts {
    int64_t width, height; /* the box; 0 x 0 for a macrocell file */
    int64_t population;    /* live cells; -1: not counted */
    double variety;        /* gg_engine_square_variety; -1: not known */
    double motion;         /* gg_engine_table_motion; -1: not known */
    int states;            /* the rule's */
    int64_t gens;          /* the run's length */
} gg_engine_table_facts;

/* The leaf size (its log2: hashlife.h) of a Golly rule table's tree:
 * 4 x 4 for a box of under 2^10 cells, or a busy box
 * (gg_engine_table_box_busy) whose squares repeat (variety <
 * GG_ENGINE_ORDERED_VARIETY: Margolus sand, an Evoloop arena); for a gas
 * (motion >= GG_ENGINE_GAS_MOTION) 16 x 16, 32 x 32 for a rule of 4
 * states or fewer; 8 x 8 for a busy random box (variety >= GG_ENGINE_SOUP_VARIETY)
 * or cells that move much (motion >= GG_ENGINE_BUSY_MOTION); else, wires
 * and loops, 4 x 4, but 8 x 8 for 2^14 live cells or more in a run
 * shorter than GG_ENGINE_LONG_GENS. A table's cells cost the most of any
 * family's to compute (its decision graph bitsliced, or a cell at a time
 * through the graph for a small tree's misses), so wherever squares
 * recur the smallest leaves pay. */
int gg_engine_table_leaf_log(const gg_engine_table_facts *f);
#define GG_ENGINE_GAS_MOTION 0.94
#define GG_ENGINE_BUSY_MOTION 0.80
#define GG_ENGINE_SOUP_VARIETY 0.95
#define GG_ENGINE_LONG_GENS 8192
/* Motion is read from GG_ENGINE_MOTION_GENS generations of the cells of
 * a busy box of GG_ENGINE_MOTION_MIN_LIVE live cells or more, or another
 * of GG_ENGINE_MOTION_MIN_SPARSE (1-3 ms of a run's start; fewer go to 4
 * x 4 leaves whatever they do). */
#define GG_ENGINE_MOTION_GENS 8
#define GG_ENGINE_MOTION_MIN_LIVE 1024
#define GG_ENGINE_MOTION_MIN_SPARSE 4096

/* The leaves' log2 side for a two-state rule whose kernel runs
 * gates_per_word logic gates a 64-cell word (the cpu backend says it;
 * 0: not known): 16 x 16 for a costly network, where a leaf square's step
 * costs more than the nodes that smaller leaves add; else 0, the tree's
 * default (32 x 32). */
int gg_engine_two_state_leaf_log(int gates_per_word);

/* The share of p's 4 x 4 squares (of at most 2^16 spread over its box)
 * unlike every other, 0 .. 1; -1 for no box or no memory. A busy box of
 * a rule table with a share under GG_ENGINE_ORDERED_VARIETY repeats its
 * squares (Margolus/Sand 0.016, an Evoloop arena 0.001, BBM 0.06, where a
 * soup or DLA's gas has 0.32-0.93) and keeps 4 x 4 leaves. */
double gg_engine_square_variety(const gg_pattern *p);
#define GG_ENGINE_ORDERED_VARIETY 0.15

/* What steps a rule table's cells `gens` generations in place, state 0
 * outside them (hashlife.h's gg_hl_leaf_stepper.step). */
typedef int (*gg_engine_cells_step)(void *ctx, gg_gen_cells *cells,
                                    int64_t gens, gg_err *err);
/* How p's cells move under a rule table of `states` states: the share of
 * the 8 x 8 squares unlike every other among those seen at generations
 * 0, 2, .. gens of step (at most 8 windows of 128 x 128 cells spread over
 * p's live ones), 0 .. 1; -1 when not known (no live cell, no memory, a
 * failed step). A gas (HPP 0.995, Margolus DLA 0.98, a WireWorld soup
 * 1.0 at 8 generations) makes new squares wherever it moves; wires and
 * loops, however busy, repeat theirs (Evoloop 0.63, Hutton-replicator
 * 0.58, JvN's codon5 0.10, Sand 0.01). */
double gg_engine_table_motion(const gg_pattern *p, int states, int gens,
                              gg_engine_cells_step step, void *ctx);

/* The leaf size for p's cells under a rule table of `states` states run
 * `gens` generations, stepped by step for the motion: the facts read
 * (only those the choice needs) and gg_engine_table_leaf_log. */
int gg_engine_table_leaf_for(const gg_pattern *p, int states, int64_t gens,
                             gg_engine_cells_step step, void *ctx);
bool gg_engine_table_leaf_needs_population(int64_t width, int64_t height);
/* Whether such a box is busy (2^10 live cells or more, a quarter of it or
 * more alive): the only boxes whose leaf the variety below decides, so
 * callers count it only then. */
bool gg_engine_table_box_busy(int64_t width, int64_t height,
                              int64_t population);

/* Whether tiles can wrap b's stepper: a host backend's (no device copy of
 * the grid: its tiles are host copies). */
bool gg_engine_tiles_take(const gg_backend *b);
/* Whether b tiles its device's grid itself (tiles_step: cuda, ptx). */
bool gg_engine_tiles_device(const gg_backend *b);

/* The memory a run's tree may take by default: a quarter of the machine's
 * (1 GiB when it cannot be read), of which the tree's nodes take
 * gg_engine_tree_bytes (two thirds less the process's own ~12 MB, at
 * least a quarter): writing the result walks the tree again. */
int64_t gg_engine_default_mem(void);
int64_t gg_engine_tree_bytes(int64_t mem);

#endif

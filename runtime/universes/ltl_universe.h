/* A universe under a Larger than Life rule (gen/rules/rule_ltl.h): one byte per
 * cell and where the grid sits in Golly's coordinates. Bounded grids are
 * exactly their size with the top-left cell at (-(W/2), -(H/2)), as Golly's
 * ltlalgo; the unbounded plane is a plane regrown before each batch of
 * b generations so that at least R*b+1 dead cells lie beyond every non-0
 * cell (a birth needs a state-1 cell within R, and live cells spread R a
 * generation), and trimmed when a spaceship leaves much more behind.
 * Stepped by a backend's LtL entry (runtime/backends/backend_ltl.h, set
 * in `step`) or, without one, by the reference
 * (runtime/reference/reference_ltl.h) a generation at a time. */
#ifndef GG_LTL_UNIVERSE_H
#define GG_LTL_UNIVERSE_H

#include <stdbool.h>
#include <stdint.h>

#include "pattern.h"
#include "picture.h"
#include "reference_ltl.h"
#include "rule_ltl.h"
#include "stop.h"
#include "universe.h"

/* the largest unbounded board (bounded grids are held to Golly's 10^8) */
#define GG_LTL_MAX_BOARD (1LL << 30)

typedef struct gg_ltl_universe {
    gg_ltl_rule rule;
    char rule_text[1200];  /* canonical, with the grid suffix */
    int64_t w, h;          /* the board */
    uint8_t *cells, *next;
    int64_t x0, y0;        /* Golly coordinates of board cell (0, 0) */
    int64_t generation;
    gg_ltl_ref ref;
    /* NULL: the reference above; else b generations of the cells in place
     * (fewer at a stop): the generations run, -1 on failure */
    int64_t (*step)(void *ctx, uint8_t *cells, int64_t w, int64_t h,
                    bool torus, int64_t gens, gg_stop_flag *stop,
                    gg_err *err);
    void *step_ctx;
} gg_ltl_universe;

/* Place a pattern as Golly does (its #CXRLE Pos or an MCell file's own
 * place; otherwise Golly's default for the grid); fails on states at or
 * above C and on cells outside a bounded grid. */
int gg_ltl_universe_from_pattern(gg_ltl_universe *u, const gg_ltl_rule *rule,
                                 const gg_pattern *p, gg_err *err);

/* `gens` generations, progress called after each second's work (false
 * stops); ends early at *stop (NULL: never), keeping the last whole
 * generation. */
int gg_ltl_universe_run(gg_ltl_universe *u, int64_t gens, gg_stop_flag *stop,
                        gg_progress_fn progress, void *progress_ctx,
                        gg_err *err);

/* Non-0 cells trimmed to their box, with position, rule and generation;
 * Golly's letters for more than two states, as bgolly writes them. */
int gg_ltl_universe_to_pattern(const gg_ltl_universe *u, gg_pattern *p,
                               gg_err *err);

/* The universe to a store (runtime/formats/store.h: the rule's canonical
 * text, ceil(log2 C) state planes, the board and where it sits), and
 * back: the run goes on from the generation stored, cell for cell. A
 * store of another family, a bounded grid not the rule's size or a cell
 * in a state the rule lacks is refused. */
int gg_ltl_universe_write_store(const char *path, const gg_ltl_universe *u,
                                gg_err *err);
int gg_ltl_universe_read_store(gg_ltl_universe *u, const char *path,
                               gg_err *err);

/* --png and --frames: the picture of runtime/formats/picture.h (the whole
 * bounded grid, or the live box; Generations' colours past 2 states). */
int gg_ltl_universe_write_picture(const char *path, const gg_ltl_universe *u,
                                  const gg_picture_opts *o,
                                  gg_picture_info *info, gg_err *err);

int64_t gg_ltl_universe_population(const gg_ltl_universe *u);
void gg_ltl_universe_free(gg_ltl_universe *u);

#endif

/* What the world's files share (include/golgen/world.h, golgen_0.8): a
 * universe of any family behind one set of calls, as `golgen serve`
 * shows it. Two-state (runtime/universes/universe.h), Generations
 * (gen_universe.h) and Golly rule tables (table_universe.h) hold their
 * states as bit planes and are drawn alike (lib/world_render.c); Larger
 * than Life (ltl_universe.h) a byte a cell (lib/world_ltl.c); a 3D grid
 * is shown one z slice at a time (lib/world_3d.c). lib/world_step.c
 * steps them, lib/world_out.c writes them, lib/world_api.c is the public
 * calls over the rest. */
#ifndef GG_LIB_WORLD_CORE_H
#define GG_LIB_WORLD_CORE_H

#include <stdbool.h>
#include <stdint.h>

#include "golgen.h"

#include "backend.h"
#include "backend3d.h"
#include "backend_ltl.h"
#include "config.h"
#include "gen_universe.h"
#include "grid3d.h"
#include "hashlife.h"
#include "ltl_universe.h"
#include "net_common.h"
#include "pattern.h"
#include "pattern_rle3.h"
#include "png_write.h"
#include "rule3d.h"
#include "rule_find.h"
#include "table_kernel.h"
#include "table_universe.h"
#include "universe.h"

/* The hot loops use the popcnt instruction where the machine has it
 * (runtime/universes/grid.h). */
#define GG_W_HOT GG_POPCNT_HOT

/* the 3D torus of a rule with no size (3D.lua's is 100^3) */
#define GG_W_3D_DEFAULT_SIDE 64
/* A rule table's unbounded plane is held as a grid of at most 2^this
 * cells (its box), which the hash tree steps a batch at a time
 * (world_step.c): a pattern or an edit past it is refused, not taken
 * into a grid of gigabytes. Past it the viewer would read windows from
 * the tree itself; hashlife.h has no read of a window's states yet. */
#define GG_W_TABLE_PLANE_LOG2 28
#define GG_W_TABLE_PLANE_CELLS (1LL << GG_W_TABLE_PLANE_LOG2)
/* The other families' unbounded plane: a grid of at most 2^this cells
 * (a pattern's box, or grown by an edit), not one of gigabytes that its
 * first step would double. */
#define GG_W_PLANE_LOG2 30

/* families: GOLGEN_FAMILY_* (include/golgen/world.h) */
typedef int gg_wfamily;

/* A Golly rule file found for a world, shared (counted) between the
 * world and the kernel that steps it, and its @COLORS. */
typedef struct gg_wtable {
    gg_rule_found f;
    int refs; /* atomic */
    bool coloured; /* @COLORS gave rgb (states it did not name: grey) */
    uint8_t rgb[256][3];
} gg_wtable;

/* A rule of any family. */
typedef struct gg_wrule {
    gg_wfamily family;
    gg_rule rule;     /* two-state, Generations */
    gg_wtable *table; /* a rule table: a reference (gg_wrule_free) */
    gg_ltl_rule ltl;
    gg_rule3d r3;
    char text[256];   /* canonical, with the grid suffix */
} gg_wrule;

struct golgen_world_rule {
    gg_wrule r;
};

typedef struct gg_world3d {
    gg_rule3d rule;
    char text[256];
    gg_grid3d g;
    int64_t generation, z; /* the slice shown */
    bool project;          /* shown as the projection along z instead */
    gg_grid slice;         /* plane z of g as a 2D grid (not owned) */
} gg_world3d;

struct golgen_world {
    gg_wfamily family;
    gg_universe u;
    gg_gen_universe g;
    gg_table_universe t;
    gg_wtable *tr; /* a rule table's file */
    gg_ltl_universe l;
    gg_world3d d;
    gg_rule topo; /* tables, LtL, 3D: topology and size only */
    /* bumped by every change but a step (a hash tree that holds the
     * cells as of another count takes them again) */
    uint64_t edits;
    /* the stepper whose tree took these cells last, at its sync count */
    const void *tree_by;
    uint64_t tree_mark;
    /* golgen_world_run's stepper, for the backend it was asked for */
    golgen_world_stepper *run;
    char run_backend[64];
};

struct golgen_world_stepper {
    gg_wfamily family;
    gg_config cfg;       /* the environment, with the caller's hook */
    gg_lib_search_hook hook;
    gg_backend *b;       /* two-state, Generations */
    gg_wrule rule;       /* a rule table: the file the kernel reads */
    gg_table_kernel k;   /* k.step NULL: the reference */
    /* a rule table on the unbounded plane: the hash tree, whose leaves k
     * (or the reference) steps, as golgen run's auto takes it; made at
     * the first step (its leaf size is the pattern's) */
    bool tree;
    gg_hl *h;
    bool tree_holds;     /* the tree holds tree_world's cells as of ... */
    const golgen_world *tree_world;
    uint64_t tree_edits; /* ... this edit count and generation */
    int64_t tree_gen;
    uint64_t serial;     /* bumped at each sync (golgen_world.tree_mark) */
    double overhead;     /* seconds the last step spent moving cells
                            between the world and the tree */
    gg_backend_ltl *l;
    gg_backend3d *d;
    char name[64];       /* what runs */
    char auto_line[1024];
};

/* ---- rules (world_rule.c) ---- */

/* A rule of any family; one B/S notation does not know is looked for as
 * a Golly rule file beside near (NULL: nowhere), then in Golly's Rules. */
int gg_wrule_parse(const char *text, const char *near, gg_wrule *r,
                   gg_err *err);
void gg_wrule_free(gg_wrule *r);
/* The world's rule as gg_wrule_parse would give it (a new reference). */
void gg_world_rule_get(const golgen_world *w, gg_wrule *r);
void gg_world_rule_text(const golgen_world *w, char *buf, size_t size);
/* A rule table's @COLORS (NULL: none). */
const gg_wtable *gg_world_table(const golgen_world *w);

/* ---- worlds (world.c) ---- */

/* From pattern text under rule_text, or when NULL the pattern's rule,
 * else fallback (NULL: B3/S23); a bounded grid of more than max_cells
 * cells is refused (0: no limit). w: zeroed memory. */
int gg_world_parse(golgen_world *w, const char *rule_text,
                   const char *fallback, const char *near, const char *text,
                   size_t len, const char *name, int64_t max_cells,
                   gg_err *err);
int gg_world_from_rle3(golgen_world *w, const char *rule_text,
                       const char *fallback, const char *near,
                       const gg_rle3 *p, int64_t max_cells, gg_err *err);
int gg_world_from_pattern(golgen_world *w, const char *rule_text,
                          const char *fallback, const char *near,
                          const gg_pattern *p, int64_t max_cells,
                          gg_err *err);
int gg_world_with_any(const golgen_world *w, const gg_wrule *rule,
                      int64_t max_cells, golgen_world *out, gg_err *err);
int gg_world_soup_any(golgen_world *out, const gg_wrule *rule, int64_t width,
                      int64_t height, int percent, uint64_t seed,
                      gg_err *err);
/* The cells freed (the struct zeroed; the run's stepper is the
 * caller's). */
void gg_world_release(golgen_world *w);

/* Two-state and Generations: the rule; other families: their topology
 * and grid size alone (topo, width, height). */
const gg_rule *gg_world_topo(const golgen_world *w);
int gg_world_states(const golgen_world *w);
int64_t gg_world_generation(const golgen_world *w);
int64_t gg_world_population(const golgen_world *w);
void gg_world_extent(const golgen_world *w, int64_t *x, int64_t *y,
                     int64_t *wd, int64_t *ht);
bool gg_world_bbox(const golgen_world *w, int64_t *x, int64_t *y,
                   int64_t *wd, int64_t *ht);
int gg_world_set(golgen_world *w, int64_t x, int64_t y, int state,
                 gg_err *err);
int gg_world_paste(golgen_world *w, const char *text, size_t len, int64_t x,
                   int64_t y, gg_err *err);
void gg_world_clear(golgen_world *w);
int64_t gg_world_z(const golgen_world *w, int64_t *depth);
int gg_world_set_z(golgen_world *w, int64_t z, gg_err *err);
/* Live cells (any state but 0) of words [0, n) of the planes. */
int64_t gg_world_count_planes(const uint64_t *const *p, int planes,
                              int64_t n);
/* The planes (1 for two states; 3D: the slice shown) and the grid's
 * place; not for Larger than Life. */
int gg_world_planes(const golgen_world *w, const gg_grid **g, int64_t *x0,
                    int64_t *y0);
/* The cells as a 2D pattern (3D: the slice shown). */
int gg_world_to_pattern(const golgen_world *w, gg_pattern *p, gg_err *err);

/* ---- drawing (world_render.c) ---- */

void gg_world_render(const golgen_world *w, int64_t x, int64_t y, int cols,
                     int rows, int level, int64_t sample, uint8_t *out);

/* ---- writing (world_out.c) ---- */

int gg_world_rle(const golgen_world *w, char **text, size_t *len,
                 gg_err *err);
int gg_world_mc(const golgen_world *w, char **text, size_t *len,
                gg_err *err);
int gg_world_picture(const golgen_world *w, gg_image *im, gg_err *err);

/* ---- Larger than Life (world_ltl.c) ---- */

bool gg_world_ltl_bbox(const golgen_world *w, int64_t *x0, int64_t *y0,
                       int64_t *x1, int64_t *y1);
/* The unbounded board made nw x nh with its top-left cell at (nx, ny),
 * the cells kept where they are. */
int gg_world_ltl_regrow(golgen_world *w, int64_t nx, int64_t ny, int64_t nw,
                        int64_t nh, gg_err *err);
void gg_world_ltl_render(const golgen_world *w, int64_t x, int64_t y,
                         int cols, int rows, int level, int64_t sample,
                         uint8_t *out);

/* ---- 3D (world_3d.c) ---- */

/* The grid of the rule's size; a 2D pattern's live cells in the middle
 * slice (cell (0, 0) of the slice at Golly's (-(X/2), -(Y/2)), as a
 * bounded 2D grid's), an RLE3's at its pos=. */
int gg_world_3d_from_pattern(golgen_world *w, const gg_wrule *r,
                             const gg_pattern *p, gg_err *err);
int gg_world_3d_from_rle3(golgen_world *w, const gg_wrule *r,
                          const gg_rle3 *p, gg_err *err);
int gg_world_3d_to_pattern(const golgen_world *w, gg_pattern *p,
                           gg_err *err);
/* 0, or -1 saying why when the projection is shown (no cell is one). */
int gg_world_3d_editable(const golgen_world *w, gg_err *err);
void gg_world_3d_render_sum(const golgen_world *w, int64_t x, int64_t y,
                            int cols, int rows, int level, int64_t sample,
                            uint8_t *out);
bool gg_world_3d_bbox_sum(const golgen_world *w, int64_t *x0, int64_t *y0,
                          int64_t *x1, int64_t *y1);
int gg_world_3d_with_rule(const golgen_world *w, const gg_wrule *r,
                          golgen_world *out, gg_err *err);

/* ---- stepping (world_step.c) ---- */

int gg_world_stepper_open(golgen_world_stepper *st, const gg_wrule *rule,
                          const golgen_world_stepper_opts *o, int *code,
                          gg_err *err);
int gg_world_step(golgen_world_stepper *st, golgen_world *w, int64_t n,
                  const golgen_world_step_opts *o, gg_err *err);
int gg_world_step_watched(golgen_world_stepper *st, golgen_world *w,
                          int64_t n, const golgen_row_watch *watch,
                          gg_err *err);
void gg_world_stepper_close(golgen_world_stepper *st);

/* The sentence into the caller's buffer; returns code. */
int gg_world_fail(int code, const gg_err *err, char *errbuf, size_t errlen);

#endif

/* golgen serve: the universe on view, of any family golgen runs, behind
 * one set of calls: made from a pattern, one cell set, pictures of a
 * window, RLE out. Two-state (runtime/universes/universe.h), Generations
 * (gen_universe.h) and Golly rule tables (table_universe.h) hold their
 * states as bit planes and are drawn alike; Larger than Life
 * (ltl_universe.h) a byte a cell (serve_world_ltl.c); a 3D grid is shown
 * one z slice at a time (serve_world_3d.c). */
#ifndef GG_SERVE_WORLD_H
#define GG_SERVE_WORLD_H

#include <stdbool.h>
#include <stdint.h>

#include "gen_universe.h"
#include "grid3d.h"
#include "ltl_universe.h"
#include "pattern_rle3.h"
#include "png_write.h"
#include "rule3d.h"
#include "rule_find.h"
#include "table_universe.h"
#include "universe.h"

/* the 3D torus of a rule with no size (3D.lua's is 100^3) */
#define SV_3D_DEFAULT_SIDE 64
/* A rule table's unbounded plane is held as a grid of at most 2^this
 * cells (its box), which the hash tree steps a batch at a time
 * (serve_step.h): a pattern or an edit past it is refused, not taken
 * into a grid of gigabytes. Past it the viewer would read windows from
 * the tree itself; hashlife.h has no read of a window's states yet. */
#define SV_TABLE_PLANE_LOG2 28
#define SV_TABLE_PLANE_CELLS (1LL << SV_TABLE_PLANE_LOG2)
/* The other families' unbounded plane: a grid of at most 2^this cells
 * (a pattern's box, or grown by an edit), not one of gigabytes that its
 * first step would double. */
#define SV_PLANE_LOG2 30

typedef enum sv_family { SV_LIFE, SV_GEN, SV_TABLE, SV_LTL, SV_3D } sv_family;

/* A Golly rule file found for the viewer, shared (counted) between the
 * world and the kernel that steps it, and its @COLORS. */
typedef struct sv_table_rule {
    gg_rule_found f;
    int refs; /* atomic */
    bool coloured; /* @COLORS gave rgb (states it did not name: grey) */
    uint8_t rgb[256][3];
} sv_table_rule;

/* A rule of any family the viewer runs. */
typedef struct sv_rule {
    sv_family family;
    gg_rule rule;        /* SV_LIFE, SV_GEN */
    sv_table_rule *table; /* SV_TABLE: a reference (sv_rule_free) */
    gg_ltl_rule ltl;
    gg_rule3d r3;
    char text[256];      /* canonical, with the grid suffix */
} sv_rule;

typedef struct sv_world3d {
    gg_rule3d rule;
    char text[256];
    gg_grid3d g;
    int64_t generation, z; /* the slice shown */
    bool project;          /* shown as the projection along z instead */
    gg_grid slice;         /* plane z of g as a 2D grid (not owned) */
} sv_world3d;

typedef struct sv_world {
    sv_family family;
    bool gen; /* SV_GEN (kept for the fuzz harness's readers) */
    gg_universe u;
    gg_gen_universe g;
    gg_table_universe t;
    sv_table_rule *tr; /* SV_TABLE's rule file */
    gg_ltl_universe l;
    sv_world3d d;
    gg_rule topo; /* SV_TABLE, SV_LTL, SV_3D: topology and size only */
} sv_world;

/* Where a rule file is looked for first (beside the pattern named on the
 * command line; NULL: none), then in Golly's Rules folder, as golgen run
 * finds it (runtime/formats/rule_find.h). */
void sv_rule_set_pattern_path(const char *path);
/* A rule the viewer runs, of any family; a rule B/S notation does not
 * know is looked for as a Golly rule file. */
int sv_rule_parse_any(const char *text, sv_rule *r, gg_err *err);
void sv_rule_free(sv_rule *r);
/* Two-state and Generations rules only (the fuzz harness's). */
int sv_rule_parse(const char *text, gg_rule *rule, gg_err *err);
/* The world's rule as sv_rule_parse_any would give it (a new reference). */
void sv_world_rule_get(const sv_world *w, sv_rule *r);
/* The rule's canonical text, with its grid suffix. */
void sv_world_rule_text(const sv_world *w, char *buf, size_t size);
/* A table's @COLORS (NULL: Generations' colours). */
const sv_table_rule *sv_world_table(const sv_world *w);
/* 3D: the slice shown (0 .. depth - 1; SV_WORLD_Z_SUM: the projection
 * along z, each cell shaded by the live cells of its column of z, as
 * golgen run --png draws a 3D grid), its depth. The projection is drawn
 * and fitted, not edited: a cell set or a paste then asks for a slice. */
#define SV_WORLD_Z_SUM (-1)
int64_t sv_world_z(const sv_world *w, int64_t *depth);
int sv_world_set_z(sv_world *w, int64_t z, gg_err *err);

/* From pattern text (any format golgen reads) under rule_text, or when
 * NULL the pattern's rule, else fallback (NULL: B3/S23); a bounded grid
 * of more than max_cells cells is refused (0: no limit). */
int sv_world_parse(sv_world *w, const char *rule_text, const char *fallback,
                   const char *text, size_t len, const char *name,
                   int64_t max_cells, gg_err *err);
/* The same from an RLE3 pattern (a 3D rule's grid; placed at its pos=
 * as golgen run places it). */
int sv_world_from_rle3(sv_world *w, const char *rule_text,
                       const char *fallback, const gg_rle3 *p,
                       int64_t max_cells, gg_err *err);
/* The same from a pattern read already. */
int sv_world_from_pattern(sv_world *w, const char *rule_text,
                          const char *fallback, const gg_pattern *p,
                          int64_t max_cells, gg_err *err);
/* The same cells (and generation) under another rule; a bounded grid of
 * more than max_cells cells is refused. Between 2D and 3D: the 2D cells
 * become the middle slice, a 3D world's slice shown becomes the plane. */
int sv_world_with_rule(const sv_world *w, const gg_rule *rule,
                       int64_t max_cells, sv_world *out, gg_err *err);
int sv_world_with_any(const sv_world *w, const sv_rule *rule,
                      int64_t max_cells, sv_world *out, gg_err *err);
void sv_world_free(sv_world *w);

/* Two-state and Generations: the rule; other families: their topology
 * and grid size alone (topo, width, height). */
const gg_rule *sv_world_rule(const sv_world *w);
int sv_world_states(const sv_world *w); /* 2 for two-state rules */
int64_t sv_world_generation(const sv_world *w);
int64_t sv_world_population(const sv_world *w);
/* The grid simulated now (Golly coordinates; 3D: the slice's). */
void sv_world_extent(const sv_world *w, int64_t *x, int64_t *y, int64_t *wd,
                     int64_t *ht);
/* The live cells' box (3D: the slice's); false when none. */
bool sv_world_bbox(const sv_world *w, int64_t *x, int64_t *y, int64_t *wd,
                   int64_t *ht);
/* Cell (x, y) to state; the unbounded plane grows to take it (within
 * 2^30 cells), a torus wraps it, a bounded plane refuses a cell outside. */
int sv_world_set(sv_world *w, int64_t x, int64_t y, int state, gg_err *err);
/* The live cells of pattern text laid over the universe with the
 * pattern's top-left cell at (x, y) (its own position ignored): states
 * other than 0 replace what is there, the rest stays; a torus wraps, the
 * plane grows (within 2^30 cells), a bounded plane refuses cells outside;
 * a box over 2^32 cells or over 2^24 live cells is refused. On failure
 * the universe's cells are unchanged. */
int sv_world_paste(sv_world *w, const char *text, size_t len, int64_t x,
                   int64_t y, gg_err *err);
/* A random soup: a torus of width x height cells under rule (its
 * transition, any topology replaced), each cell alive with probability
 * percent / 100 (state 1 for Generations rules), from seed; 50 percent is
 * golgen bench --seed's soup exactly. */
int sv_world_soup(sv_world *out, const gg_rule *rule, int64_t width,
                  int64_t height, int percent, uint64_t seed, gg_err *err);
/* The same under a rule of any 2D family (a 3D rule is refused): other
 * families get state 1 at random. */
int sv_world_soup_any(sv_world *out, const sv_rule *rule, int64_t width,
                      int64_t height, int percent, uint64_t seed,
                      gg_err *err);
/* Every cell 0, the generation 0. */
void sv_world_clear(sv_world *w);
/* cols x rows bytes: level 0 each cell's state; level k > 0 each 2^k
 * square's share of live cells, 0 none, 1..255 (any live cell >= 1).
 * sample > 0 (a power of two) reads only that many rows of each square,
 * evenly spaced: the share is then an estimate, and a square whose live
 * cells all lie in rows not read shows as empty. A torus is drawn
 * wrapped (the window may show it repeated) while a block is no wider or
 * taller than it. */
void sv_world_render(const sv_world *w, int64_t x, int64_t y, int cols,
                     int rows, int level, int64_t sample, uint8_t *out);
/* RLE text (malloc'd, NUL-ended), as golgen run -o writes it. */
int sv_world_rle(const sv_world *w, char **text, size_t *len, gg_err *err);
/* Macrocell text, as golgen run -o X.mc writes it. */
int sv_world_mc(const sv_world *w, char **text, size_t *len, gg_err *err);
/* The picture golgen run --png draws (runtime/formats/picture.h): the
 * grid of a bounded universe, else the live cells' box, one pixel a cell
 * up to 4096 a side, else shaded squares. */
int sv_world_picture(const sv_world *w, gg_image *im, gg_err *err);

#endif

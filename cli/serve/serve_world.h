/* golgen serve: the universe on view, two-state (runtime/universes/
 * universe.h) or Generations (gen_universe.h), behind one set of calls:
 * made from a pattern, one cell set, pictures of a window, RLE out. */
#ifndef GG_SERVE_WORLD_H
#define GG_SERVE_WORLD_H

#include <stdbool.h>
#include <stdint.h>

#include "gen_universe.h"
#include "png_write.h"
#include "universe.h"

typedef struct sv_world {
    bool gen; /* a Generations rule: g, else u */
    gg_universe u;
    gg_gen_universe g;
} sv_world;

/* A rule the viewer runs (two-state or Generations); a Larger than Life,
 * 3D or other rule golgen runs but the viewer does not is refused saying
 * so (golgen run takes them). */
int sv_rule_parse(const char *text, gg_rule *rule, gg_err *err);
/* From pattern text (any format golgen reads) under rule_text, or when
 * NULL the pattern's rule, else fallback (NULL: B3/S23); a bounded grid
 * of more than max_cells cells is refused (0: no limit). */
int sv_world_parse(sv_world *w, const char *rule_text, const char *fallback,
                   const char *text, size_t len, const char *name,
                   int64_t max_cells, gg_err *err);
/* The same from a pattern read already. */
int sv_world_from_pattern(sv_world *w, const char *rule_text,
                          const char *fallback, const gg_pattern *p,
                          int64_t max_cells, gg_err *err);
/* The same cells (and generation) under another rule; a bounded grid of
 * more than max_cells cells is refused. */
int sv_world_with_rule(const sv_world *w, const gg_rule *rule,
                       int64_t max_cells, sv_world *out, gg_err *err);
void sv_world_free(sv_world *w);

const gg_rule *sv_world_rule(const sv_world *w);
int sv_world_states(const sv_world *w); /* 2 for two-state rules */
int64_t sv_world_generation(const sv_world *w);
int64_t sv_world_population(const sv_world *w);
/* The grid simulated now (Golly coordinates). */
void sv_world_extent(const sv_world *w, int64_t *x, int64_t *y, int64_t *wd,
                     int64_t *ht);
/* The live cells' box; false when none. */
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

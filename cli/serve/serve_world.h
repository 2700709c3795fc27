/* golgen serve: the universe on view, two-state (runtime/universes/
 * universe.h) or Generations (gen_universe.h), behind one set of calls:
 * made from a pattern, one cell set, pictures of a window, RLE out. */
#ifndef GG_SERVE_WORLD_H
#define GG_SERVE_WORLD_H

#include <stdbool.h>
#include <stdint.h>

#include "gen_universe.h"
#include "universe.h"

typedef struct sv_world {
    bool gen; /* a Generations rule: g, else u */
    gg_universe u;
    gg_gen_universe g;
} sv_world;

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
 * 2^30 cells), a bounded grid refuses a cell outside it. */
int sv_world_set(sv_world *w, int64_t x, int64_t y, int state, gg_err *err);
/* Every cell 0, the generation 0. */
void sv_world_clear(sv_world *w);
/* cols x rows bytes: level 0 each cell's state; level k > 0 each 2^k
 * square's share of live cells, 0 none, 1..255 (any live cell >= 1). */
void sv_world_render(const sv_world *w, int64_t x, int64_t y, int cols,
                     int rows, int level, uint8_t *out);
/* RLE text (malloc'd, NUL-ended), as golgen run -o writes it. */
int sv_world_rle(const sv_world *w, char **text, size_t *len, gg_err *err);

#endif

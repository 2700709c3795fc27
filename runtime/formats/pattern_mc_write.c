/* Macrocell writer: the format and its coordinates are described in
 * runtime/formats/pattern_mc_read.c. Byte for byte bgolly 3.3's HashLife output
 * after the first line ("[M2] (golgen)"): the smallest root level >= 4,
 * children before parents (nw ne sw se), identical subtrees once. States
 * above 1 (Generations) go in level-1 lines of states, as Golly writes
 * them, instead of 8x8 leaves. */
#include "pattern.h"

#include <stdlib.h>
#include <string.h>

#include "mc_lines.h"

typedef struct mc_writer {
    const gg_pattern *p;
    bool states; /* level-1 lines of states (a state above 1) */
    const gg_grid *g;
    int64_t gx, gy; /* the grid's top-left cell in Golly coordinates */
    int64_t bx0, by0, bx1, by1; /* the live cells' box, same coordinates */
    gg_mc_lines lines;
} mc_writer;

/* 8 cells of grid row y from column x (any x, y; outside is dead). Bits
 * past the width are 0 in every grid, so no mask is needed there. */
static unsigned row8(const gg_grid *g, int64_t x, int64_t y)
{
    if (y < 0 || y >= g->height || x >= g->width || x + 8 <= 0)
        return 0;
    const uint64_t *row = gg_grid_row(g, y);
    if (x < 0)
        return (unsigned)(row[0] << -x) & 0xff;
    int64_t w = x >> 6;
    int s = (int)(x & 63);
    uint64_t v = row[w] >> s;
    if (s > 56 && w + 1 < g->stride)
        v |= row[w + 1] << (64 - s);
    return (unsigned)v & 0xff;
}

/* The line number of the node of `level` whose top-left cell is (x, y) in
 * Golly coordinates, its lines written first; 0: empty (or out of memory,
 * which sets out.failed). */
static uint32_t build(mc_writer *w, int level, int64_t x, int64_t y)
{
    int64_t size = (int64_t)1 << level;
    if (w->lines.out.failed || x > w->bx1 || y > w->by1 || x + size <= w->bx0 ||
        y + size <= w->by0)
        return 0;
    if (w->states && level == 1) {
        uint8_t st[4];
        for (int q = 0; q < 4; q++)
            st[q] = (uint8_t)gg_pattern_get(w->p, x + (q & 1) - w->gx,
                                            y + (q >> 1) - w->gy);
        return gg_mc_state_line(&w->lines, st);
    }
    if (!w->states && level == 3) {
        uint64_t bits = 0;
        for (int r = 0; r < 8; r++)
            bits |= (uint64_t)row8(w->g, x - w->gx, y + r - w->gy) << (8 * r);
        return gg_mc_leaf_line(&w->lines, bits);
    }
    int64_t h = size / 2;
    uint32_t c[4] = {build(w, level - 1, x, y), build(w, level - 1, x + h, y),
                     build(w, level - 1, x, y + h),
                     build(w, level - 1, x + h, y + h)};
    return gg_mc_node_line(&w->lines, level, c);
}

int gg_pattern_format_mc(const gg_pattern *p, char **text, size_t *len,
                         gg_err *err)
{
    *text = NULL;
    *len = 0;
    if (gg_pattern_check_coords(p, err))
        return -1;
    /* Golly writes a multi-state algorithm's universe (Generations) in
     * level-1 lines even when only states 0 and 1 are left */
    mc_writer w = {.p = p,
                   .states = p->multistate || gg_pattern_max_state(p) > 1,
                   .g = &p->plane[0], .gx = p->x, .gy = p->y};
    gg_mc_header(&w.lines.out, p->rule, p->generation, p->comments);
    int64_t x0, y0, x1, y1;
    if (gg_pattern_bbox(p, &x0, &y0, &x1, &y1)) {
        w.bx0 = p->x + x0, w.by0 = p->y + y0;
        w.bx1 = p->x + x1, w.by1 = p->y + y1;
        int level = gg_mc_root_level(w.bx0, w.by0, w.bx1, w.by1);
        int64_t half = (int64_t)1 << (level - 1);
        build(&w, level, -half, -half + 1);
    }
    return gg_mc_lines_take(&w.lines, text, len, err);
}

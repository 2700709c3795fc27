/* Bit grids in the project-wide layout: cell (x, y) is bit x % 64 of 64-bit
 * word x / 64 of row y, least significant bit leftmost; bits past the width
 * in a row's last word are always 0. */
#ifndef GG_GRID_H
#define GG_GRID_H

#include <stdbool.h>
#include <stdint.h>

#include "error.h"

/* For loops that count cells: the popcnt instruction where the machine
 * has it (the build targets plain x86-64, where __builtin_popcountll is a
 * call to libgcc, 4-5x slower over a big grid). */
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__)
#define GG_POPCNT_HOT __attribute__((target_clones("popcnt", "default")))
#else
#define GG_POPCNT_HOT
#endif

typedef struct gg_grid {
    int64_t width, height;
    int64_t stride; /* 64-bit words per row */
    uint64_t *bits;
} gg_grid;

/* A zeroed grid; fails cleanly on zero, negative or unallocatable sizes. */
int gg_grid_init(gg_grid *g, int64_t width, int64_t height, gg_err *err);
void gg_grid_free(gg_grid *g);

static inline uint64_t *gg_grid_row(const gg_grid *g, int64_t y)
{
    return g->bits + y * g->stride;
}
static inline int gg_grid_get(const gg_grid *g, int64_t x, int64_t y)
{
    return (int)((gg_grid_row(g, y)[x >> 6] >> (x & 63)) & 1u);
}
static inline void gg_grid_set(gg_grid *g, int64_t x, int64_t y, int v)
{
    uint64_t *w = &gg_grid_row(g, y)[x >> 6];
    uint64_t m = 1ull << (x & 63);
    *w = v ? (*w | m) : (*w & ~m);
}

/* Mask of the valid bits of a row's last word. */
uint64_t gg_grid_tail_mask(const gg_grid *g);

int64_t gg_grid_population(const gg_grid *g);
/* Cells set in any of n planes of one size (a multi-state pattern's live
 * cells, each once whatever its state). */
int64_t gg_grids_live(const gg_grid *planes, int n);
bool gg_grid_equal(const gg_grid *a, const gg_grid *b);
/* The first cell (row by row) where a and b (same size) differ; false
 * when every cell inside the width agrees. */
bool gg_grid_first_diff(const gg_grid *a, const gg_grid *b, int64_t *x,
                        int64_t *y);
int gg_grid_copy(gg_grid *dst, const gg_grid *src, gg_err *err);
/* Rows a .. b - 1 of g, taken modulo its height (a torus's wrap), into
 * rows 0 .. b - a - 1 of band (as wide as g). */
void gg_grid_take_rows(const gg_grid *g, int64_t a, int64_t b, gg_grid *band);

/* Bounding box of live cells; false when the grid is empty. */
bool gg_grid_bbox(const gg_grid *g, int64_t *x0, int64_t *y0, int64_t *x1,
                  int64_t *y1);

/* g's bounding box joined into the box (x0, y0)-(x1, y1) that *any says
 * holds (it becomes g's own when it does not); false when g is empty. */
bool gg_grid_bbox_join(const gg_grid *g, bool *any, int64_t *x0, int64_t *y0,
                       int64_t *x1, int64_t *y1);

/* Fill with independent random cells of the given density (0..1),
 * reproducibly from seed. */
void gg_grid_random(gg_grid *g, double density, uint64_t seed);

/* splitmix64: the next number of the random sequence in *s (soups,
 * validation cases): tiny, fast and good enough for them. */
static inline uint64_t gg_splitmix(uint64_t *s)
{
    uint64_t z = (*s += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

/* Copy src into dst with src's (0,0) at (dx, dy) in dst; cells that fall
 * outside dst are dropped. */
void gg_grid_blit(gg_grid *dst, const gg_grid *src, int64_t dx, int64_t dy);

#endif

/* 3D bit grids: cell (x, y, z) is bit x % 64 of word x / 64 of row (y, z);
 * rows are `stride` words apart, row (y, z) is row z * sy + y (x fastest,
 * then y, then z). Bits past the width in a row's last word are always 0,
 * as in the 2D layout (runtime/universes/grid.h). */
#ifndef GG_GRID3D_H
#define GG_GRID3D_H

#include <stdbool.h>
#include <stdint.h>

#include "error.h"

typedef struct gg_grid3d {
    int64_t sx, sy, sz;
    int64_t stride; /* 64-bit words per row: ceil(sx / 64) */
    uint64_t *bits;
} gg_grid3d;

/* A zeroed grid; fails cleanly on sizes < 1, overflow or no memory. */
int gg_grid3d_init(gg_grid3d *g, int64_t sx, int64_t sy, int64_t sz,
                   gg_err *err);
void gg_grid3d_free(gg_grid3d *g);

static inline int64_t gg_grid3d_words(const gg_grid3d *g)
{
    return g->stride * g->sy * g->sz;
}
static inline uint64_t *gg_grid3d_row(const gg_grid3d *g, int64_t y,
                                      int64_t z)
{
    return g->bits + (z * g->sy + y) * g->stride;
}
static inline int gg_grid3d_get(const gg_grid3d *g, int64_t x, int64_t y,
                                int64_t z)
{
    return (int)((gg_grid3d_row(g, y, z)[x >> 6] >> (x & 63)) & 1u);
}
static inline void gg_grid3d_set(gg_grid3d *g, int64_t x, int64_t y,
                                 int64_t z, int v)
{
    uint64_t *w = &gg_grid3d_row(g, y, z)[x >> 6];
    uint64_t m = 1ull << (x & 63);
    *w = v ? (*w | m) : (*w & ~m);
}

uint64_t gg_grid3d_tail_mask(const gg_grid3d *g);
int64_t gg_grid3d_population(const gg_grid3d *g);
bool gg_grid3d_equal(const gg_grid3d *a, const gg_grid3d *b);
/* First differing cell (z, then y, then x order); false when none. */
bool gg_grid3d_first_diff(const gg_grid3d *a, const gg_grid3d *b,
                          int64_t *x, int64_t *y, int64_t *z);
int gg_grid3d_copy(gg_grid3d *dst, const gg_grid3d *src, gg_err *err);
/* Bounding box of the live cells (inclusive); false when empty. */
bool gg_grid3d_bbox(const gg_grid3d *g, int64_t lo[3], int64_t hi[3]);
/* Independent random cells of the given density, reproducible from seed. */
void gg_grid3d_random(gg_grid3d *g, double density, uint64_t seed);

#endif

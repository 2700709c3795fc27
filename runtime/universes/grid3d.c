#include "grid3d.h"

#include "grid.h"

#include <stdlib.h>
#include <string.h>

int gg_grid3d_init(gg_grid3d *g, int64_t sx, int64_t sy, int64_t sz,
                   gg_err *err)
{
    memset(g, 0, sizeof *g);
    if (sx < 1 || sy < 1 || sz < 1)
        return gg_fail(err, "3D grid %lldx%lldx%lld: every side must be at "
                       "least 1", (long long)sx, (long long)sy,
                       (long long)sz);
    int64_t stride = (sx + 63) / 64;
    /* words = stride * sy * sz without overflow, below 2^40 (8 TiB) */
    const int64_t lim = 1LL << 40;
    if (sy > lim / stride || sz > lim / (stride * sy))
        return gg_fail(err, "3D grid %lldx%lldx%lld is too large to hold",
                       (long long)sx, (long long)sy, (long long)sz);
    int64_t words = stride * sy * sz;
    uint64_t *bits = gg_alloc((size_t)words, sizeof *bits, err, "3D grid");
    if (!bits)
        return -1;
    g->sx = sx;
    g->sy = sy;
    g->sz = sz;
    g->stride = stride;
    g->bits = bits;
    return 0;
}

void gg_grid3d_free(gg_grid3d *g)
{
    free(g->bits);
    memset(g, 0, sizeof *g);
}

uint64_t gg_grid3d_tail_mask(const gg_grid3d *g)
{
    int r = (int)(g->sx & 63);
    return r ? (1ull << r) - 1 : ~0ull;
}

GG_POPCNT_HOT int64_t gg_grid3d_population(const gg_grid3d *g)
{
    int64_t n = 0, words = gg_grid3d_words(g);
    for (int64_t i = 0; i < words; i++)
        n += __builtin_popcountll(g->bits[i]);
    return n;
}

bool gg_grid3d_equal(const gg_grid3d *a, const gg_grid3d *b)
{
    return a->sx == b->sx && a->sy == b->sy && a->sz == b->sz &&
           !memcmp(a->bits, b->bits,
                   (size_t)gg_grid3d_words(a) * sizeof *a->bits);
}

bool gg_grid3d_first_diff(const gg_grid3d *a, const gg_grid3d *b,
                          int64_t *x, int64_t *y, int64_t *z)
{
    uint64_t tail = gg_grid3d_tail_mask(a);
    for (int64_t k = 0; k < a->sz; k++)
        for (int64_t j = 0; j < a->sy; j++) {
            const uint64_t *ra = gg_grid3d_row(a, j, k);
            const uint64_t *rb = gg_grid3d_row(b, j, k);
            for (int64_t w = 0; w < a->stride; w++) {
                uint64_t d = ra[w] ^ rb[w];
                if (w == a->stride - 1)
                    d &= tail;
                if (d) {
                    *x = w * 64 + __builtin_ctzll(d);
                    *y = j;
                    *z = k;
                    return true;
                }
            }
        }
    return false;
}

int gg_grid3d_copy(gg_grid3d *dst, const gg_grid3d *src, gg_err *err)
{
    if (gg_grid3d_init(dst, src->sx, src->sy, src->sz, err))
        return -1;
    memcpy(dst->bits, src->bits,
           (size_t)gg_grid3d_words(src) * sizeof *src->bits);
    return 0;
}

bool gg_grid3d_bbox(const gg_grid3d *g, int64_t lo[3], int64_t hi[3])
{
    bool any = false;
    for (int64_t z = 0; z < g->sz; z++)
        for (int64_t y = 0; y < g->sy; y++) {
            const uint64_t *r = gg_grid3d_row(g, y, z);
            for (int64_t w = 0; w < g->stride; w++) {
                if (!r[w])
                    continue;
                int64_t x0 = w * 64 + __builtin_ctzll(r[w]);
                int64_t x1 = w * 64 + 63 - __builtin_clzll(r[w]);
                if (!any) {
                    lo[0] = hi[0] = x0;
                    lo[1] = hi[1] = y;
                    lo[2] = hi[2] = z;
                    any = true;
                }
                if (x0 < lo[0]) lo[0] = x0;
                if (x1 > hi[0]) hi[0] = x1;
                if (y < lo[1]) lo[1] = y;
                if (y > hi[1]) hi[1] = y;
                hi[2] = z;
            }
        }
    return any;
}

void gg_grid3d_random(gg_grid3d *g, double density, uint64_t seed)
{
    uint64_t s = seed;
    uint64_t tail = gg_grid3d_tail_mask(g);
    uint64_t thr = density >= 1.0   ? ~0ull
                   : density <= 0.0 ? 0
                                    : (uint64_t)(density * 18446744073709551616.0);
    for (int64_t r = 0; r < g->sy * g->sz; r++) {
        uint64_t *row = g->bits + r * g->stride;
        for (int64_t w = 0; w < g->stride; w++) {
            uint64_t v = 0;
            if (density == 0.5)
                v = gg_splitmix(&s);
            else
                for (int b = 0; b < 64; b++)
                    if (gg_splitmix(&s) < thr || density >= 1.0)
                        v |= 1ull << b;
            row[w] = w == g->stride - 1 ? v & tail : v;
        }
    }
}

#include "grid.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Physical memory in bytes, or 0 when unknown. Overcommit would let a
 * too-large calloc succeed and the process die later, so ask up front. */
static uint64_t physical_memory(void)
{
    long pages = sysconf(_SC_PHYS_PAGES), size = sysconf(_SC_PAGESIZE);
    return pages > 0 && size > 0 ? (uint64_t)pages * (uint64_t)size : 0;
}

/* A tall narrow grid (1 x 2e9: 15 GiB for 2e9 cells) spends most of its
 * memory on row padding; beyond GG_GRID_PADDING_BYTES such a waste is
 * refused rather than allocated, since the same cells fit on their side. */
#define GG_GRID_PADDING_BYTES (1ull << 30)
static bool mostly_padding(int64_t width, int64_t height, int64_t stride)
{
    uint64_t bytes = (uint64_t)(stride * height) * 8;
    return bytes > GG_GRID_PADDING_BYTES && stride * 64 >= 8 * width;
}

int gg_grid_init(gg_grid *g, int64_t width, int64_t height, gg_err *err)
{
    memset(g, 0, sizeof *g);
    if (width < 1 || height < 1)
        return gg_fail(err, "grid size %lldx%lld: width and height must be at "
                       "least 1", (long long)width, (long long)height);
    int64_t stride = width / 64 + (width % 64 != 0);
    if (stride > INT64_MAX / 8 / height)
        return gg_fail(err, "grid size %lldx%lld is too large to address",
                       (long long)width, (long long)height);
    uint64_t bytes = (uint64_t)(stride * height) * 8, mem = physical_memory();
    if (mem && bytes > mem)
        return gg_fail(err, "grid size %lldx%lld needs %.1f GiB, more than "
                       "this machine's %.1f GiB of memory; use a smaller "
                       "size", (long long)width, (long long)height,
                       (double)bytes / (1 << 30), (double)mem / (1 << 30));
    if (mostly_padding(width, height, stride))
        return gg_fail(err, "grid size %lldx%lld needs %.1f GiB, %.0f times "
                       "what its cells take, because every row fills at "
                       "least one 64-bit word; turn it on its side "
                       "(%lldx%lld) or make it less tall and narrow",
                       (long long)width, (long long)height,
                       (double)bytes / (1 << 30),
                       (double)stride * 64.0 / (double)width,
                       (long long)height, (long long)width);
    g->bits = gg_alloc((size_t)(stride * height), sizeof(uint64_t), err,
                       "grid");
    if (!g->bits)
        return -1;
    g->width = width;
    g->height = height;
    g->stride = stride;
    return 0;
}

void gg_grid_free(gg_grid *g)
{
    free(g->bits);
    memset(g, 0, sizeof *g);
}

uint64_t gg_grid_tail_mask(const gg_grid *g)
{
    int r = (int)(g->width & 63);
    return r ? (1ull << r) - 1 : ~0ull;
}

GG_POPCNT_HOT int64_t gg_grid_population(const gg_grid *g)
{
    int64_t n = 0, words = g->stride * g->height;
    for (int64_t i = 0; i < words; i++)
        n += __builtin_popcountll(g->bits[i]);
    return n;
}

GG_POPCNT_HOT int64_t gg_grids_live(const gg_grid *planes, int n)
{
    if (n < 1)
        return 0;
    int64_t count = 0, words = planes[0].stride * planes[0].height;
    for (int64_t i = 0; i < words; i++) {
        uint64_t any = 0;
        for (int p = 0; p < n; p++)
            any |= planes[p].bits[i];
        count += __builtin_popcountll(any);
    }
    return count;
}

bool gg_grid_equal(const gg_grid *a, const gg_grid *b)
{
    return a->width == b->width && a->height == b->height &&
           memcmp(a->bits, b->bits,
                  (size_t)(a->stride * a->height) * sizeof(uint64_t)) == 0;
}

bool gg_grid_first_diff(const gg_grid *a, const gg_grid *b, int64_t *x,
                        int64_t *y)
{
    for (*y = 0; *y < a->height; (*y)++)
        for (*x = 0; *x < a->width; (*x)++)
            if (gg_grid_get(a, *x, *y) != gg_grid_get(b, *x, *y))
                return true;
    return false;
}

int gg_grid_copy(gg_grid *dst, const gg_grid *src, gg_err *err)
{
    if (gg_grid_init(dst, src->width, src->height, err))
        return -1;
    memcpy(dst->bits, src->bits,
           (size_t)(src->stride * src->height) * sizeof(uint64_t));
    return 0;
}

bool gg_grid_bbox_join(const gg_grid *g, bool *any, int64_t *x0, int64_t *y0,
                       int64_t *x1, int64_t *y1)
{
    int64_t a, b, c, d;
    if (!gg_grid_bbox(g, &a, &b, &c, &d))
        return false;
    if (!*any || a < *x0)
        *x0 = a;
    if (!*any || b < *y0)
        *y0 = b;
    if (!*any || c > *x1)
        *x1 = c;
    if (!*any || d > *y1)
        *y1 = d;
    *any = true;
    return true;
}

bool gg_grid_bbox(const gg_grid *g, int64_t *x0, int64_t *y0, int64_t *x1,
                  int64_t *y1)
{
    int64_t minx = INT64_MAX, maxx = -1, miny = -1, maxy = -1;
    for (int64_t y = 0; y < g->height; y++) {
        const uint64_t *row = gg_grid_row(g, y);
        for (int64_t w = 0; w < g->stride; w++) {
            if (!row[w])
                continue;
            int64_t lo = w * 64 + __builtin_ctzll(row[w]);
            int64_t hi = w * 64 + 63 - __builtin_clzll(row[w]);
            if (lo < minx)
                minx = lo;
            if (hi > maxx)
                maxx = hi;
            if (miny < 0)
                miny = y;
            maxy = y;
        }
    }
    if (maxy < 0)
        return false;
    *x0 = minx, *y0 = miny, *x1 = maxx, *y1 = maxy;
    return true;
}

void gg_grid_random(gg_grid *g, double density, uint64_t seed)
{
    uint64_t s = seed, tail = gg_grid_tail_mask(g);
    /* Density 1/2 is the common case: one random word per 64 cells. */
    bool half = density == 0.5;
    /* 2^64 itself does not fit: density 1 (and above) is every cell, and
       converting its threshold would be undefined. */
    uint64_t threshold = density > 0.0 && density < 1.0
                             ? (uint64_t)(density * 18446744073709551616.0)
                             : 0;
    for (int64_t y = 0; y < g->height; y++) {
        uint64_t *row = gg_grid_row(g, y);
        for (int64_t w = 0; w < g->stride; w++) {
            uint64_t v = 0;
            if (half)
                v = gg_splitmix(&s);
            else if (density >= 1.0)
                v = ~0ull;
            else if (density > 0.0)
                for (int b = 0; b < 64; b++)
                    v |= (uint64_t)(gg_splitmix(&s) < threshold) << b;
            row[w] = v;
        }
        row[g->stride - 1] &= tail;
    }
}

/* Bits [x, x + 64) of a row as one word, zeros outside [0, width). */
static uint64_t row_bits(const gg_grid *g, const uint64_t *row, int64_t x)
{
    if (x <= -64 || x >= g->width)
        return 0;
    int64_t w = x >> 6; /* floor division, x may be negative */
    int s = (int)(x & 63);
    uint64_t lo = w >= 0 ? row[w] : 0;
    uint64_t hi = w + 1 < g->stride ? row[w + 1] : 0;
    return s ? (lo >> s) | (hi << (64 - s)) : lo;
}

void gg_grid_blit(gg_grid *dst, const gg_grid *src, int64_t dx, int64_t dy)
{
    uint64_t tail = gg_grid_tail_mask(dst);
    for (int64_t y = 0; y < src->height; y++) {
        int64_t ty = y + dy;
        if (ty < 0 || ty >= dst->height)
            continue;
        const uint64_t *row = gg_grid_row(src, y);
        uint64_t *out = gg_grid_row(dst, ty);
        /* Destination word w takes source bits from x = 64 w - dx on. */
        int64_t first = dx > 0 ? dx / 64 : 0;
        int64_t last = (dx + src->width + 63) / 64;
        if (last > dst->stride)
            last = dst->stride;
        for (int64_t w = first; w < last; w++)
            out[w] |= row_bits(src, row, w * 64 - dx);
        if (last == dst->stride)
            out[dst->stride - 1] &= tail;
    }
}

void gg_grid_take_rows(const gg_grid *g, int64_t a, int64_t b, gg_grid *band)
{
    size_t bytes = (size_t)g->stride * sizeof(uint64_t);
    for (int64_t y = a; y < b; y++) {
        int64_t src = ((y % g->height) + g->height) % g->height;
        memcpy(gg_grid_row(band, y - a), gg_grid_row(g, src), bytes);
    }
}

/* 64 cells of a grid row from any bit position: what the tile engine
 * (tiles.c) copies tiles and halos with. */
#ifndef GG_TILES_BITS_H
#define GG_TILES_BITS_H

#include <stdbool.h>
#include <stdint.h>

/* The 64 bits from bit x on, all inside the row's words. */
static inline uint64_t gg_bits_span(const uint64_t *row, int64_t x)
{
    int64_t i = x >> 6, s = x & 63;
    return s ? row[i] >> s | row[i + 1] << (64 - s) : row[i];
}

/* n (1..64) bits from bit x on, x + n <= the row's width in cells. */
static inline uint64_t gg_bits_short(const uint64_t *row, int64_t x, int n)
{
    int64_t i = x >> 6, s = x & 63;
    uint64_t v = row[i] >> s;
    if (s && s + n > 64)
        v |= row[i + 1] << (64 - s);
    return n == 64 ? v : v & ((1ull << n) - 1);
}

/* Cells x .. x + 63 of a row `width` cells wide: wrapped on a torus, dead
 * outside it on a plane. */
static inline uint64_t gg_bits_at(const uint64_t *row, int64_t x,
                                  int64_t width, bool torus)
{
    if (x >= 0 && x + 64 <= width)
        return gg_bits_span(row, x);
    uint64_t v = 0;
    for (int got = 0; got < 64;) {
        int64_t c = x + got;
        if (torus)
            c = ((c % width) + width) % width;
        else if (c < 0) {
            got += -c < 64 - got ? (int)-c : 64 - got;
            continue;
        } else if (c >= width)
            break;
        int n = width - c < 64 - got ? (int)(width - c) : 64 - got;
        v |= gg_bits_short(row, c, n) << got;
        got += n;
    }
    return v;
}

#endif

/* How repetitive a pattern's cells are: the share of its 4 x 4 squares
 * unlike every other (engine_choice.h, gg_engine_square_variety). A rule
 * table's busy but ordered universe (Margolus sand, an arena of loops)
 * repeats its squares, and a tree of 4 x 4 leaves finds them again; a
 * soup does not, and wants big leaves. */
#include "engine_choice.h"

#include <stdlib.h>

/* Squares looked at, at most: spread over the box, enough for the share
 * and a few milliseconds at worst. */
#define VARIETY_SQUARES (1 << 16)

/* The 4 x 4 square at (x, y) (x a multiple of 4) of one plane, 16 bits. */
static uint64_t square_bits(const gg_grid *g, int64_t x, int64_t y)
{
    uint64_t s = 0;
    for (int r = 0; r < 4 && y + r < g->height; r++) {
        uint64_t w = gg_grid_row(g, y + r)[x >> 6] >> (x & 63);
        s |= (w & 0xf) << (4 * r);
    }
    return s;
}

/* All planes' bits of the square, mixed into one key (a plane's 16 bits
 * each, 4 planes exact; more through a multiply, where collisions only
 * lower the share a little). */
static uint64_t square_key(const gg_pattern *p, int64_t x, int64_t y)
{
    uint64_t k = 0;
    for (int i = 0; i < p->n_planes; i++) {
        uint64_t s = square_bits(&p->plane[i], x, y);
        k = i < 4 ? k | s << (16 * i) : (k ^ s) * 0x9e3779b97f4a7c15ull;
    }
    return k;
}

/* Adds key to an open-addressed set of 2^bits slots (0 is kept apart:
 * the empty slot); true when it was new. */
static bool set_add(uint64_t *set, int bits, uint64_t key, bool *zero)
{
    if (!key) {
        bool was = *zero;
        *zero = true;
        return !was;
    }
    size_t mask = ((size_t)1 << bits) - 1;
    size_t i = (size_t)((key * 0x9e3779b97f4a7c15ull) >> (64 - bits));
    while (set[i] && set[i] != key)
        i = (i + 1) & mask;
    if (set[i])
        return false;
    set[i] = key;
    return true;
}

double gg_engine_square_variety(const gg_pattern *p)
{
    int64_t w = p->plane[0].width, h = p->plane[0].height;
    int64_t across = (w + 3) / 4, down = (h + 3) / 4;
    if (p->n_planes < 1 || across < 1 || down < 1)
        return -1;
    int64_t squares = across * down;
    int64_t step = squares > VARIETY_SQUARES ? squares / VARIETY_SQUARES : 1;
    int64_t looked = (squares + step - 1) / step;
    if (looked > VARIETY_SQUARES)
        looked = VARIETY_SQUARES;
    int bits = 4; /* at most a quarter full: 2^18 slots for 2^16 keys */
    while (((int64_t)1 << bits) < 4 * looked)
        bits++;
    uint64_t *set = calloc((size_t)1 << bits, sizeof *set);
    if (!set)
        return -1;
    bool zero = false;
    int64_t seen = 0, unlike = 0;
    for (int64_t i = 0; i < squares && seen < VARIETY_SQUARES; i += step) {
        int64_t x = (i % across) * 4, y = (i / across) * 4;
        unlike += set_add(set, bits, square_key(p, x, y), &zero);
        seen++;
    }
    free(set);
    return (double)unlike / (double)seen;
}

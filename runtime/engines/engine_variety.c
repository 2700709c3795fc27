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

/* ---- motion: how the squares repeat over space and time ---- */

/* Windows stepped (at most), their side, and the squares counted in them
 * (a 4 x 4 leaf tree's memoized unit: two leaves a side). */
#define MOTION_WINDOWS 8
#define MOTION_SIDE 128
#define MOTION_SQ 8

/* The MOTION_SQ x MOTION_SQ square at (x, y) (x a multiple of 8) of all
 * planes, mixed into one key (0: every cell 0). */
static uint64_t motion_key(const gg_gen_cells *c, int64_t x, int64_t y)
{
    uint64_t k = 0;
    for (int i = 0; i < c->n_planes; i++) {
        uint64_t s = 0;
        for (int r = 0; r < MOTION_SQ; r++) {
            uint64_t w = gg_grid_row(&c->plane[i], y + r)[x >> 6];
            s |= (w >> (x & 63) & 0xff) << (8 * r);
        }
        k = (k ^ s) * 0x9e3779b97f4a7c15ull + (s ? (uint64_t)i + 1 : 0);
    }
    return k;
}

/* Whether p has a cell other than 0 in the window at (x, y) (x a
 * multiple of 64). */
static bool window_live(const gg_pattern *p, int64_t x, int64_t y)
{
    for (int i = 0; i < p->n_planes; i++) {
        const gg_grid *g = &p->plane[i];
        for (int64_t r = y; r < y + MOTION_SIDE && r < g->height; r++)
            for (int64_t w = x >> 6;
                 w < (x + MOTION_SIDE) >> 6 && w < g->stride; w++)
                if (gg_grid_row(g, r)[w])
                    return true;
    }
    return false;
}

/* Adds the window's non-empty squares (inside the margin m) to the set:
 * those seen and those new. */
static void count_window(const gg_gen_cells *c, int64_t m, uint64_t *set,
                         int bits, bool *zero, int64_t *seen,
                         int64_t *unlike)
{
    int64_t w = gg_gen_cells_width(c) - m, h = gg_gen_cells_height(c) - m;
    for (int64_t y = m; y + MOTION_SQ <= h; y += MOTION_SQ)
        for (int64_t x = m; x + MOTION_SQ <= w; x += MOTION_SQ) {
            uint64_t key = motion_key(c, x, y);
            if (key) {
                *unlike += set_add(set, bits, key, zero);
                ++*seen;
            }
        }
}

/* The window at (x, y), with the m cells round it (real cells: they keep
 * the window's own exact for m - 1 generations), stepped `gens`
 * generations two at a time (a Margolus rule's partitions come back
 * every second), its squares counted at each. */
static int step_window(const gg_pattern *p, int planes, int64_t x,
                       int64_t y, int gens, gg_engine_cells_step step,
                       void *ctx, uint64_t *set, int bits, bool *zero,
                       int64_t *seen, int64_t *unlike)
{
    /* the margin a multiple of 8 keeps squares inside words; a window
     * at the box's right or bottom edge is cut there (a narrow box's
     * dead cells cost the kernel as much as its live ones) */
    int64_t m = (gens + 1 + 7) / 8 * 8;
    int64_t w = p->plane[0].width - x, h = p->plane[0].height - y;
    w = ((w < MOTION_SIDE ? w : MOTION_SIDE) + 7) / 8 * 8 + 2 * m;
    h = ((h < MOTION_SIDE ? h : MOTION_SIDE) + 7) / 8 * 8 + 2 * m;
    gg_gen_cells c;
    gg_err err;
    if (gg_gen_cells_init(&c, planes, w, h, &err))
        return -1;
    for (int i = 0; i < p->n_planes; i++)
        gg_grid_blit(&c.plane[i], &p->plane[i], m - x, m - y);
    int rc = 0;
    for (int g = 0; g <= gens && !rc; g += 2) {
        count_window(&c, m, set, bits, zero, seen, unlike);
        if (g + 2 <= gens)
            rc = step(ctx, &c, 2, &err);
    }
    gg_gen_cells_free(&c);
    return rc;
}

double gg_engine_table_motion(const gg_pattern *p, int states, int gens,
                              gg_engine_cells_step step, void *ctx)
{
    int64_t w = p->plane[0].width, h = p->plane[0].height;
    int planes = 1;
    while ((1 << planes) < states)
        planes++;
    if (p->n_planes < 1 || p->n_planes > planes || w < 1 || h < 1 ||
        gens < 0)
        return -1;
    /* the live windows of at most 64 x MOTION_WINDOWS spread over the
     * box, of which MOTION_WINDOWS spread over those */
    enum { LOOKED = 64 * MOTION_WINDOWS };
    int64_t across = (w + MOTION_SIDE - 1) / MOTION_SIDE;
    int64_t n = across * ((h + MOTION_SIDE - 1) / MOTION_SIDE);
    int64_t every = n > LOOKED ? n / LOOKED : 1, live[LOOKED];
    int nlive = 0;
    for (int64_t i = 0; i < n && nlive < LOOKED; i += every)
        if (window_live(p, i % across * MOTION_SIDE,
                        i / across * MOTION_SIDE))
            live[nlive++] = i;
    int take = nlive < MOTION_WINDOWS ? nlive : MOTION_WINDOWS;
    int64_t most = (int64_t)take * (MOTION_SIDE / MOTION_SQ) *
                   (MOTION_SIDE / MOTION_SQ) * (gens / 2 + 1);
    int bits = 4; /* at most half full */
    while (((int64_t)1 << bits) < 2 * most)
        bits++;
    uint64_t *set = take ? calloc((size_t)1 << bits, sizeof *set) : NULL;
    if (!set)
        return -1;
    bool zero = false;
    int64_t seen = 0, unlike = 0;
    int rc = 0;
    for (int k = 0; k < take && !rc; k++) {
        int64_t i = live[(int64_t)k * nlive / take];
        rc = step_window(p, planes, i % across * MOTION_SIDE,
                         i / across * MOTION_SIDE, gens, step, ctx, set,
                         bits, &zero, &seen, &unlike);
    }
    free(set);
    return rc || !seen ? -1 : (double)unlike / (double)seen;
}

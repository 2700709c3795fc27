#include "reference_words.h"

#include <stdint.h>

bool gg_reference_words_takes(const gg_rule *rule)
{
    int n;
    gg_nbhd_offsets(rule->nbhd, &n);
    return rule->kind == GG_KIND_TOTALISTIC && !gg_rule_is_generations(rule) &&
           n <= 15;
}

static int64_t wrap(int64_t v, int64_t size)
{
    return ((v % size) + size) % size;
}

/* Cells vx .. vx+63 of row y as one word (cell vx in bit 0): wrapped on
 * the torus, 0 outside the grid on the plane. */
static uint64_t cells64(const gg_grid *g, gg_topo topo, int64_t y, int64_t vx)
{
    if (y < 0 || y >= g->height) {
        if (topo == GG_TOPO_PLANE)
            return 0;
        y = wrap(y, g->height);
    }
    const uint64_t *row = gg_grid_row(g, y);
    if (vx >= 0 && vx + 64 <= g->width) { /* inside the row: two words */
        int s = (int)(vx & 63);
        uint64_t lo = row[vx >> 6];
        return s ? lo >> s | row[(vx >> 6) + 1] << (64 - s) : lo;
    }
    uint64_t out = 0;
    for (int i = 0; i < 64; i++) {
        int64_t x = vx + i;
        if (x < 0 || x >= g->width) {
            if (topo == GG_TOPO_PLANE)
                continue;
            x = wrap(x, g->width);
        }
        out |= (uint64_t)((row[x >> 6] >> (x & 63)) & 1) << i;
    }
    return out;
}

/* The next state of the 64 cells of word w of row y. */
static uint64_t next_word(const gg_rule *rule, gg_topo topo, const gg_grid *in,
                          int64_t y, int64_t w)
{
    int n;
    const gg_offset *off = gg_nbhd_offsets(rule->nbhd, &n);
    uint64_t count[4] = {0, 0, 0, 0}; /* bit-sliced neighbour counts */
    for (int i = 0; i < n; i++) {
        uint64_t carry = cells64(in, topo, y + off[i].dy, 64 * w + off[i].dx);
        for (int k = 0; k < 4; k++) {
            uint64_t t = count[k] & carry;
            count[k] ^= carry;
            carry = t;
        }
    }
    uint64_t centre = gg_grid_row(in, y)[w], out = 0;
    for (int c = 0; c <= n; c++) {
        uint64_t eq = ~(uint64_t)0;
        for (int k = 0; k < 4; k++)
            eq &= (c >> k) & 1 ? count[k] : ~count[k];
        uint64_t born = (rule->birth >> c) & 1 ? ~centre : 0;
        uint64_t kept = (rule->survive >> c) & 1 ? centre : 0;
        out |= eq & (born | kept);
    }
    return out;
}

void gg_reference_words_step(const gg_rule *rule, gg_topo topo,
                             const gg_grid *in, gg_grid *out)
{
    int64_t nw = (in->width + 63) / 64;
    int tail = (int)(in->width & 63);
#pragma omp parallel for schedule(dynamic, 4)
    for (int64_t y = 0; y < in->height; y++) {
        uint64_t *row = gg_grid_row(out, y);
        for (int64_t w = 0; w < nw; w++)
            row[w] = next_word(rule, topo, in, y, w);
        if (tail)
            row[nw - 1] &= (UINT64_C(1) << tail) - 1;
    }
}

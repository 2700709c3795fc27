/* Golly's emulation of B0 rules on its unbounded plane (its Help,
 * Algorithms/QuickLife.html, "Emulating B0 rules"), which a run on the
 * plane must follow to write what bgolly writes. With S<max> the stored
 * cells are the complement of the true ones at every generation, stepped
 * by the rule's conjugate x -> not R(not x). Without it the stored cells
 * are true at even generations and complemented at odd ones: an even
 * generation steps by not R(x), an odd one by R(not y). None of the
 * three has B0, so a finite pattern stays finite. */
#include "rule_b0.h"

#include <string.h>

/* bit n of m moved to bit max - n */
static uint32_t mirror_counts(uint32_t m, int max)
{
    uint32_t out = 0;
    for (int n = 0; n <= max; n++)
        if (m >> n & 1u)
            out |= 1u << (max - n);
    return out;
}

static bool row_on(const uint64_t *t, uint32_t r)
{
    return t[r >> 6] >> (r & 63) & 1u;
}

/* A table rule's next states through `how`: 0 not R(x), 1 R(not y),
 * 2 not R(not y); the digits recounted and written as MAP (the letters
 * the rule was written with describe the original only). */
static void table_twin(const gg_rule *r, int how, gg_rule *out)
{
    *out = *r;
    memset(out->table, 0, sizeof out->table);
    out->birth = out->survive = 0;
    out->notation = GG_NOTATION_MAP;
    out->map_tail = 0;
    memset(out->letters, 0, sizeof out->letters);
    int n = r->n_neighbours;
    uint32_t rows = 2u << n, all = rows - 1;
    for (uint32_t row = 0; row < rows; row++) {
        uint32_t from = how ? ~row & all : row;
        bool on = row_on(r->table, from) != (how != 1);
        if (!on)
            continue;
        out->table[row >> 6] |= 1ull << (row & 63);
        int count = __builtin_popcount(row & ((1u << n) - 1));
        *(row >> n ? &out->survive : &out->birth) |= 1u << count;
    }
}

static void totalistic_twin(const gg_rule *r, int how, gg_rule *out)
{
    int max = r->n_neighbours;
    uint32_t all = (2u << max) - 1;
    *out = *r;
    if (how == 0) {
        out->birth = ~r->birth & all;
        out->survive = ~r->survive & all;
    } else if (how == 1) {
        out->birth = mirror_counts(r->survive, max);
        out->survive = mirror_counts(r->birth, max);
    } else {
        out->birth = ~mirror_counts(r->survive, max) & all;
        out->survive = ~mirror_counts(r->birth, max) & all;
    }
}

static void twin(const gg_rule *r, int how, gg_rule *out)
{
    if (r->kind == GG_KIND_TABLE)
        table_twin(r, how, out);
    else
        totalistic_twin(r, how, out);
}

bool gg_rule_b0_smax(const gg_rule *r)
{
    if (r->kind == GG_KIND_TABLE)
        return row_on(r->table, (2u << r->n_neighbours) - 1);
    return r->survive >> r->n_neighbours & 1u;
}

void gg_rule_b0_pair(const gg_rule *r, gg_rule *even, gg_rule *odd)
{
    gg_rule in = *r; /* even or odd may be r itself */
    if (gg_rule_b0_smax(&in)) {
        twin(&in, 2, even);
        *odd = *even;
        return;
    }
    twin(&in, 0, even);
    twin(&in, 1, odd);
}

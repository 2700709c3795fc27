#include "truth.h"

#include <string.h>

void gg_tt_from_rule(const gg_rule *rule, gg_tt *t)
{
    memset(t, 0, sizeof *t);
    int n = rule->n_neighbours;
    t->n_inputs = n + 1;
    for (int r = 0; r < gg_tt_rows(t); r++) {
        uint32_t neighbours = (uint32_t)r & ((1u << n) - 1);
        gg_tt_put(t->on, r, gg_rule_next(rule, (r >> n) & 1, neighbours));
        gg_tt_put(t->care, r, 1);
    }
}

uint64_t gg_tt_word_mask(const gg_tt *t, int w)
{
    (void)w;
    int rows = gg_tt_rows(t);
    return rows >= 64 ? ~0ull : (1ull << rows) - 1;
}

static int count_bits(const gg_tt *t, const uint64_t *bits)
{
    int n = 0;
    for (int w = 0; w < gg_tt_words(t); w++)
        n += __builtin_popcountll(bits[w] & gg_tt_word_mask(t, w));
    return n;
}

int gg_tt_count_on(const gg_tt *t)
{
    uint64_t on_care[GG_TT_WORDS];
    for (int w = 0; w < gg_tt_words(t); w++)
        on_care[w] = t->on[w] & t->care[w];
    return count_bits(t, on_care);
}

int gg_tt_count_care(const gg_tt *t) { return count_bits(t, t->care); }

uint64_t gg_tt_input_word(int input, int first_row)
{
    uint64_t w = 0;
    for (int b = 0; b < 64; b++)
        w |= (uint64_t)(((first_row + b) >> input) & 1) << b;
    return w;
}

/* Truth tables with a care set, up to GG_TT_MAX_INPUTS inputs.
 * Row r is the input assignment whose bit i is input i. */
#ifndef GG_TRUTH_H
#define GG_TRUTH_H

#include <stdbool.h>
#include <stdint.h>

#include "rule.h"

#define GG_TT_MAX_INPUTS 12
#define GG_TT_WORDS ((1 << GG_TT_MAX_INPUTS) / 64)

typedef struct gg_tt {
    int n_inputs;
    uint64_t on[GG_TT_WORDS];   /* bit r: output 1 on row r */
    uint64_t care[GG_TT_WORDS]; /* bit r: row r can occur (others are free) */
} gg_tt;

static inline int gg_tt_rows(const gg_tt *t) { return 1 << t->n_inputs; }
static inline int gg_tt_words(const gg_tt *t)
{
    int rows = gg_tt_rows(t);
    return rows < 64 ? 1 : rows / 64;
}
static inline int gg_tt_get(const uint64_t *bits, int r)
{
    return (int)((bits[r >> 6] >> (r & 63)) & 1u);
}
static inline void gg_tt_put(uint64_t *bits, int r, int v)
{
    uint64_t m = 1ull << (r & 63);
    bits[r >> 6] = v ? bits[r >> 6] | m : bits[r >> 6] & ~m;
}

/* The rule's exhaustive next-state table: inputs are the neighbours in
 * gg_nbhd_offsets() order (bits 0..n-1) and the centre (bit n). Every row is
 * a care row. */
void gg_tt_from_rule(const gg_rule *rule, gg_tt *t);

int gg_tt_count_on(const gg_tt *t);
int gg_tt_count_care(const gg_tt *t);

/* Input `input` over the 64 rows from first_row on, one bit per row: the
 * word to feed a bitsliced evaluator to walk the table. */
uint64_t gg_tt_input_word(int input, int first_row);

/* Mask of the valid row bits in word w (all ones unless rows < 64). */
uint64_t gg_tt_word_mask(const gg_tt *t, int w);

#endif

/* Wolfram's elementary 1D rules as Golly runs them: "Wn", n even, 0..254.
 * Golly draws the 1D evolution downwards, a generation a row, in a 2D
 * universe; as a 2D rule a dead cell takes bit (NW N NE, read as a binary
 * number) of n, and a live cell stays live. That is a MAP rule over the
 * Moore block, so it goes through the same table path as MAP rules (it
 * matched bgolly's W22 cell for cell on Golly's wolfram22.mc). An odd n
 * has 000 -> 1, which would fill the unbounded plane's empty rows. */
#include "rule_hensel.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

bool gg_rule_text_is_wolfram(const char *text, size_t n)
{
    if (n < 2 || (text[0] != 'W' && text[0] != 'w'))
        return false;
    for (size_t i = 1; i < n; i++)
        if (!isdigit((unsigned char)text[i]))
            return false;
    return true;
}

int gg_rule_parse_wolfram(const char *text, size_t n, gg_rule *rule,
                          gg_err *err)
{
    if (n > 4 || atoi(text + 1) > 255)
        return gg_fail(err, "rule '%.*s': Wolfram's elementary rules are W0 "
                       "to W254", (int)n, text);
    int w = atoi(text + 1);
    if (w & 1)
        return gg_fail(err, "rule '%.*s': an odd Wolfram rule turns empty "
                       "cells on (000 -> 1), which Golly does not run; give "
                       "an even rule, W0 to W254", (int)n, text);
    rule->kind = GG_KIND_TABLE;
    rule->notation = GG_NOTATION_WOLFRAM;
    rule->wolfram = (uint8_t)w;
    rule->nbhd = GG_NBHD_MOORE;
    gg_nbhd_offsets(rule->nbhd, &rule->n_neighbours);
    /* golgen's row bits: neighbours in offset order (NW N NE first), then
       the centre at bit 8 */
    for (int r = 0; r < 512; r++) {
        int above = (r & 1) << 2 | (r >> 1 & 1) << 1 | (r >> 2 & 1);
        bool live = r >> 8 & 1, next = live || (w >> above & 1);
        if (!next)
            continue;
        rule->table[r >> 6] |= 1ull << (r & 63);
        int count = __builtin_popcount((unsigned)r & 0xff);
        *(live ? &rule->survive : &rule->birth) |= 1u << count;
    }
    return 0;
}

void gg_rule_format_wolfram(const gg_rule *rule, char *buf, size_t size)
{
    snprintf(buf, size, "W%d", rule->wolfram);
}

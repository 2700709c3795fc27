/* Generations rules (Golly's "Generations" algorithm): S/B/C, e.g. 23/3/3
 * (Star Wars-like), /2/3 (Brian's Brain), 12/34/3, with V or H after the
 * state count. A cell in state 1 is alive: it stays 1 when its count of
 * state-1 neighbours is in S, else it starts dying (state 2); states >= 2
 * advance by one each generation and the last one becomes 0; a 0 cell is
 * born (1) when its count is in B. The birth/survive masks of gg_rule hold
 * B and S, so gg_rule_next is the next liveness of a cell in state 0 or 1;
 * gg_rule.states holds C (2..256), 0 for the two-state families.
 *
 * Read as Golly 3.3 reads them (gollybase/generationsalgo.cpp, checked
 * against bgolly 3.3): two slashes always; B and S letters anywhere in a
 * part say which part is which (B3/S23/3 = S23/B3/3 = 23/3/3); without
 * letters the first part is S; V or H after the second slash; no B0. Also
 * read, though bgolly 3.3 refuses it: the LifeWiki form B2/S/C3. Written
 * back as Golly writes it: S/B/C[V|H], e.g. "/2/3". Hensel letters and
 * MAP Generations rules (also Golly 3.3's) are refused as unsupported. */
#ifndef GG_RULE_GEN_H
#define GG_RULE_GEN_H

#include <stdbool.h>
#include <stddef.h>

#include "rule.h"

#define GG_GEN_MAX_STATES 256

/* The transition text[0..end) has two slashes (or underscores) and a
 * state count after the second: a Generations rule (MAP texts, whose
 * base64 may hold '/', excepted). */
bool gg_rule_text_is_generations(const char *text, size_t end);

/* Parse text[0..end) (the part before any ':'); errors name the character
 * and its column in text. */
int gg_rule_parse_generations(const char *text, size_t end, gg_rule *rule,
                              gg_err *err);

/* S/B/C[V|H] without topology. */
void gg_rule_format_generations(const gg_rule *rule, char *buf, size_t size);

/* Bit planes a state needs: ceil(log2 states), 1 for two states. */
int gg_gen_planes(int states);

/* The two-state rule B/S a Generations rule runs on its alive plane (its
 * neighbour counts and births; gen/circuits/gen_nets.h adds the rest): the rule
 * with states 0. */
static inline gg_rule gg_gen_two_state(const gg_rule *rule)
{
    gg_rule two = *rule;
    two.states = 0;
    return two;
}

/* Bit planes a cell of rule needs (1 for the two-state families). */
static inline int gg_gen_planes_of(const gg_rule *rule)
{
    return rule->states > 2 ? gg_gen_planes(rule->states) : 1;
}

#endif

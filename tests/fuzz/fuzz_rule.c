/* libFuzzer harness for the 2D rule parser (gen/rules/rule.c): outer-totalistic,
 * Hensel letters, MAP, Wolfram, Generations and the topology suffixes, also
 * Golly's other grids (gg_rule_parse_grid), and the B0 emulation's rules.
 *
 * A rule that parses must have a canonical form that parses and is its own
 * canonical form, with the same topology: caches, file headers and
 * messages carry it. The transition itself may change once: bgolly 3.3
 * writes "B2/S11c4" (which runs as B2/S14) as "B2/S1c4", and golgen writes
 * rules as bgolly does (NOTES: Table rules). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rule.h"
#include "rule_b0.h"

/* Which pair of edges a shift or a Klein twist is on: nothing to say on
 * other grids (a shift that folds to 0 leaves the flag as it was). */
static int edges_of(const gg_rule *r)
{
    return r->shift || r->topo == GG_TOPO_KLEIN ? r->vertical_edges : -1;
}

static void check_roundtrip(const char *text, const gg_rule *r,
                            int (*parse)(const char *, gg_rule *, gg_err *))
{
    char canon[1024], again[1024];
    gg_rule back;
    gg_err err;
    gg_rule_format(r, canon, sizeof canon);
    if (parse(canon, &back, &err)) {
        fprintf(stderr, "rule '%s' formats as '%s', which does not parse: "
                "%s\n", text, canon, err.msg);
        abort();
    }
    gg_rule_format(&back, again, sizeof again);
    if (strcmp(canon, again) || back.topo != r->topo ||
        back.width != r->width || back.height != r->height ||
        back.states != r->states || back.nbhd != r->nbhd ||
        back.shift != r->shift || edges_of(&back) != edges_of(r)) {
        fprintf(stderr, "rule '%s' formats as '%s', which reads as '%s' "
                "(or another topology)\n", text, canon, again);
        abort();
    }
}

/* A two-state B0 rule's emulation steps by rules without B0 (a finite
 * pattern must stay finite on the plane). */
static void check_b0(const char *text, const gg_rule *r)
{
    gg_rule even, odd;
    if (gg_rule_is_generations(r) || !gg_rule_has_b0(r))
        return;
    gg_rule_b0_pair(r, &even, &odd);
    if (gg_rule_has_b0(&even) || gg_rule_has_b0(&odd)) {
        fprintf(stderr, "rule '%s': its B0 emulation has B0\n", text);
        abort();
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    /* Rules are short NUL-terminated strings wherever they come from. */
    if (size > 4096)
        return 0;
    char *text = malloc(size + 1);
    if (!text)
        return 0;
    memcpy(text, data, size);
    text[size] = 0;
    gg_rule r;
    gg_err err;
    if (!gg_rule_parse(text, &r, &err))
        check_roundtrip(text, &r, gg_rule_parse);
    if (!gg_rule_parse_grid(text, &r, &err)) {
        check_roundtrip(text, &r, gg_rule_parse_grid);
        check_b0(text, &r);
    }
    free(text);
    return 0;
}

/* libFuzzer harness for the 2D rule parser (gen/rules/rule.c): outer-totalistic,
 * Hensel letters, MAP, Generations and the topology suffixes.
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

static void check_roundtrip(const char *text, const gg_rule *r)
{
    char canon[1024], again[1024];
    gg_rule back;
    gg_err err;
    gg_rule_format(r, canon, sizeof canon);
    if (gg_rule_parse(canon, &back, &err)) {
        fprintf(stderr, "rule '%s' formats as '%s', which does not parse: "
                "%s\n", text, canon, err.msg);
        abort();
    }
    gg_rule_format(&back, again, sizeof again);
    if (strcmp(canon, again) || back.topo != r->topo ||
        back.width != r->width || back.height != r->height ||
        back.states != r->states || back.nbhd != r->nbhd) {
        fprintf(stderr, "rule '%s' formats as '%s', which reads as '%s' "
                "(or another topology)\n", text, canon, again);
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
        check_roundtrip(text, &r);
    free(text);
    return 0;
}

#include "rule_gen.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

/* The same sentence shape as gen/rules/rule.c's errors: what, the character,
 * its 1-based column, the fix. */
static int fail_at(const char *text, size_t at, const char *what,
                   const char *fix, gg_err *err)
{
    char c = text[at];
    if (c && c != ':')
        return gg_fail(err, "rule '%s': %s '%c' at column %zu; %s", text,
                       what, c, at + 1, fix);
    return gg_fail(err, "rule '%s': %s at column %zu; %s", text, what,
                   at + 1, fix);
}

/* The third part must start like a state count (digit, C, V or H): so
 * the two-state parser keeps "B3/S23/", "B3//S23" and "B3/S23/B4" and
 * their errors. */
bool gg_rule_text_is_generations(const char *text, size_t end)
{
    if (!strncasecmp(text, "map", 3))
        return false;
    int seps = 0;
    for (size_t i = 0; i < end; i++) {
        seps += text[i] == '/' || text[i] == '_';
        if (seps == 2)
            return i + 1 < end &&
                   (isdigit((unsigned char)text[i + 1]) ||
                    strchr("CcVvHh", text[i + 1]));
    }
    return false;
}

int gg_gen_planes(int states)
{
    int planes = 1;
    while ((1 << planes) < states)
        planes++;
    return planes;
}

/* One of the two count parts: digits, at most one B or S letter. */
typedef struct part {
    size_t start, end;
    uint32_t mask;
    bool has_b, has_s;
} part;

static int read_part(const char *text, part *pt, gg_err *err)
{
    static const char hensel[] = "ceaiknjqrytwz-";
    for (size_t at = pt->start; at < pt->end; at++) {
        char c = (char)tolower((unsigned char)text[at]);
        if (c >= '0' && c <= '8') {
            pt->mask |= 1u << (c - '0');
        } else if (c == 'b' || c == 's') {
            if (c == 'b' ? pt->has_b : pt->has_s)
                return fail_at(text, at, "second", "give B and S once each",
                               err);
            if (c == 'b' ? pt->has_s : pt->has_b)
                return fail_at(text, at, "B and S in one part",
                               "B and S go either side of the first '/', "
                               "e.g. B3/S23/3", err);
            (c == 'b' ? &pt->has_b : &pt->has_s)[0] = true;
        } else if (c == 'v' || c == 'h') {
            return fail_at(text, at, "neighbourhood letter",
                           "it goes after the number of states, e.g. "
                           "23/3/3V", err);
        } else if (strchr(hensel, c) && c) {
            return fail_at(text, at, "non-totalistic letter",
                           "only totalistic Generations rules (digits "
                           "only) are supported", err);
        } else {
            return fail_at(text, at, "unexpected character",
                           "write Generations rules as S/B/C, e.g. 23/3/3 "
                           "or B3/S23/3", err);
        }
    }
    return 0;
}

/* The third part: an optional C (LifeWiki's B2/S/C3), the state count,
 * and Golly's V or H anywhere after the second slash. */
static int read_states(const char *text, size_t start, size_t end,
                       gg_rule *rule, gg_err *err)
{
    int states = 0;
    size_t first_digit = end;
    rule->nbhd = GG_NBHD_MOORE;
    bool nbhd_seen = false;
    for (size_t at = start; at < end; at++) {
        char c = (char)toupper((unsigned char)text[at]);
        if (isdigit((unsigned char)c)) {
            if (first_digit == end)
                first_digit = at;
            states = states * 10 + (c - '0');
            if (states > GG_GEN_MAX_STATES)
                return fail_at(text, first_digit, "too many states from",
                               "Generations rules have 2 to 256 states",
                               err);
        } else if ((c == 'V' || c == 'H') && !nbhd_seen) {
            nbhd_seen = true;
            rule->nbhd = c == 'V' ? GG_NBHD_VONNEUMANN : GG_NBHD_HEX;
        } else if (c == 'C' && at == start) {
            continue;
        } else {
            return fail_at(text, at, "unexpected character",
                           "the part after the second '/' is the number of "
                           "states, then V or H if any, e.g. 23/3/3V", err);
        }
    }
    if (first_digit == end)
        return fail_at(text, end, "missing number of states",
                       "give 2 to 256 states after the second '/', e.g. "
                       "/2/3", err);
    if (states < 2)
        return fail_at(text, first_digit, "too few states from",
                       "Generations rules have 2 to 256 states", err);
    rule->states = states;
    return 0;
}

/* Counts above the neighbourhood's size, and B0, which Golly refuses
 * (dying cells would have to be born everywhere at once). */
static int check_counts(const char *text, const part *birth,
                        const part *survival, const gg_rule *rule,
                        gg_err *err)
{
    const part *parts[2] = {birth, survival};
    for (int i = 0; i < 2; i++)
        for (size_t at = parts[i]->start; at < parts[i]->end; at++) {
            int d = text[at] - '0';
            if (d < 0 || d > 8)
                continue;
            if (d > rule->n_neighbours) {
                char fix[128];
                snprintf(fix, sizeof fix, "the %s neighbourhood has %d "
                         "neighbours, so counts are 0..%d",
                         gg_nbhd_name(rule->nbhd), rule->n_neighbours,
                         rule->n_neighbours);
                return fail_at(text, at, "neighbour count out of range",
                               fix, err);
            }
            if (d == 0 && i == 0)
                return fail_at(text, at, "birth on",
                               "Generations rules cannot have B0 (Golly "
                               "refuses it too)", err);
        }
    return 0;
}

int gg_rule_parse_generations(const char *text, size_t end, gg_rule *rule,
                              gg_err *err)
{
    size_t slash[2] = {0, 0}, n = 0;
    for (size_t at = 0; at < end; at++) {
        if (text[at] == '_')
            return fail_at(text, at, "underscore",
                           "Golly takes '_' only in non-totalistic rules; "
                           "use '/', e.g. 23/3/3", err);
        if (text[at] != '/')
            continue;
        if (n == 2)
            return fail_at(text, at, "third separator",
                           "Generations rules have two: S/B/C, e.g. 23/3/3",
                           err);
        slash[n++] = at;
    }
    part first = {0, slash[0], 0, false, false};
    part second = {slash[0] + 1, slash[1], 0, false, false};
    if (read_part(text, &first, err) || read_part(text, &second, err))
        return -1;
    if ((first.has_b && second.has_b) || (first.has_s && second.has_s))
        return fail_at(text, slash[0], "B or S on both sides of",
                       "give B and S once each, e.g. B3/S23/3", err);
    if (read_states(text, slash[1] + 1, end, rule, err))
        return -1;
    gg_nbhd_offsets(rule->nbhd, &rule->n_neighbours);
    /* Golly: a B before the slash or an S after it makes the first part
     * the births; otherwise (no letters, S23/3, 23/B3) it is survival. */
    bool birth_first = first.has_b || second.has_s;
    const part *birth = birth_first ? &first : &second;
    const part *survival = birth_first ? &second : &first;
    if (check_counts(text, birth, survival, rule, err))
        return -1;
    rule->kind = GG_KIND_TOTALISTIC;
    rule->birth = birth->mask;
    rule->survive = survival->mask;
    return 0;
}

static size_t put_digits(char *buf, size_t size, size_t n, uint32_t mask)
{
    for (int c = 0; c <= 8; c++)
        if ((mask >> c) & 1u && n + 1 < size)
            buf[n++] = (char)('0' + c);
    return n;
}

void gg_rule_format_generations(const gg_rule *rule, char *buf, size_t size)
{
    if (!size)
        return;
    size_t n = put_digits(buf, size, 0, rule->survive);
    if (n + 1 < size)
        buf[n++] = '/';
    n = put_digits(buf, size, n, rule->birth);
    const char *nb = rule->nbhd == GG_NBHD_VONNEUMANN ? "V"
                     : rule->nbhd == GG_NBHD_HEX      ? "H"
                                                      : "";
    snprintf(buf + n, size - n, "/%d%s", rule->states, nb);
}

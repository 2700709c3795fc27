#include "rule.h"

#include <ctype.h>
#include <stdio.h>
#include <strings.h>
#include <string.h>

#include "rule_hensel.h"
#include "rule_gen.h"

static const gg_offset moore[] = {{-1, -1, 0}, {0, -1, 0}, {1, -1, 0},
                                  {-1, 0, 0},  {1, 0, 0},  {-1, 1, 0},
                                  {0, 1, 0},   {1, 1, 0}};
static const gg_offset vonneumann[] = {{0, -1, 0}, {-1, 0, 0}, {1, 0, 0},
                                       {0, 1, 0}};
/* Golly emulates the hexagonal grid on a square one by dropping the NE and
 * SW corners of the Moore neighbourhood. */
static const gg_offset hex[] = {{-1, -1, 0}, {0, -1, 0}, {-1, 0, 0},
                                {1, 0, 0},   {0, 1, 0},  {1, 1, 0}};

const gg_offset *gg_nbhd_offsets(gg_nbhd nbhd, int *count)
{
    switch (nbhd) {
    case GG_NBHD_VONNEUMANN:
        *count = 4;
        return vonneumann;
    case GG_NBHD_HEX:
        *count = 6;
        return hex;
    default:
        *count = 8;
        return moore;
    }
}

const char *gg_nbhd_name(gg_nbhd nbhd)
{
    static const char *names[] = {"Moore", "von Neumann", "hexagonal"};
    return nbhd < GG_NBHD_COUNT ? names[nbhd] : "unknown";
}

bool gg_rule_is_bounded(const gg_rule *rule)
{
    return rule->topo != GG_TOPO_UNBOUNDED;
}

/* Parsing state: the text, the cursor, and where the transition ends. */
typedef struct parser {
    const char *text;
    size_t pos, end;
    gg_err *err;
    bool any_grid; /* gg_rule_parse_grid: Golly's every grid */
} parser;

static int parse_rule(const char *text, bool any_grid, gg_rule *rule,
                      gg_err *err);

static int fail_at(parser *p, size_t at, const char *what, const char *fix)
{
    char c[8];
    size_t col = gg_text_column(p->text, at);
    if (p->text[at]) {
        gg_text_char(p->text, at, c, sizeof c);
        return gg_fail(p->err, "rule '%s': %s '%s' at column %zu; %s",
                       p->text, what, c, col, fix);
    }
    return gg_fail(p->err, "rule '%s': %s at column %zu; %s", p->text, what,
                   col, fix);
}

/* Digits 0-8 from pos up to the next non-digit, as a count bitmask. */
static uint32_t read_counts(parser *p, size_t *at)
{
    uint32_t mask = 0;
    while (*at < p->end && isdigit((unsigned char)p->text[*at])) {
        mask |= 1u << (p->text[*at] - '0');
        (*at)++;
    }
    return mask;
}

static int parse_suffix_nbhd(parser *p, gg_rule *rule)
{
    rule->nbhd = GG_NBHD_MOORE;
    if (p->end == 0)
        return 0;
    char last = (char)toupper((unsigned char)p->text[p->end - 1]);
    if (last == 'V' || last == 'H') {
        rule->nbhd = last == 'V' ? GG_NBHD_VONNEUMANN : GG_NBHD_HEX;
        p->end--;
    }
    return 0;
}

/* A letter after a part's counts. Hensel's letters would have sent the
 * rule to gen/rules/rule_hensel.c, so this one is none of them: say which
 * letters its count takes (golgen reads Hensel rules, so "only
 * totalistic rules" would name the wrong cause). */
static int bad_letter(parser *p, size_t start, size_t at)
{
    char fix[192];
    if (at == start)
        return fail_at(p, at, "expected a neighbour count, found",
                       "each count is a digit 0-8, optionally followed by "
                       "Hensel letters, e.g. B2n3/S23-q");
    gg_rule_hensel_letter_fix(p->text[at - 1] - '0', fix, sizeof fix);
    return fail_at(p, at, "not a Hensel letter", fix);
}

/* "B3/S23", "S23/B3", "B3S23" (letters in any case) and golgen's "B3_S23";
 * as bgolly 3.3 reads them, a part left out is empty ("B234" is B234/S,
 * "/B3" is B3/S), and one slash at most stands between the parts ("B3/S23/"
 * and "B3S23/" are refused, and so is a rule with neither B nor S). */
static int parse_bs(parser *p, gg_rule *rule)
{
    bool seen_b = false, seen_s = false, seen_sep = false;
    size_t at = 0;
    while (at < p->end) {
        char c = (char)toupper((unsigned char)p->text[at]);
        if (c == '/' || c == '_') {
            if (seen_sep)
                return fail_at(p, at, "second separator",
                               "give one '/' between B and S, e.g. B3/S23");
            if (seen_b && seen_s)
                return fail_at(p, at, "separator after both parts",
                               "B and S go either side of the '/', e.g. "
                               "B3/S23");
            seen_sep = true;
            at++;
            continue;
        }
        if (c != 'B' && c != 'S')
            return fail_at(p, at, "unexpected character",
                           "write rules as B<digits>/S<digits>, e.g. B3/S23");
        if ((c == 'B' && seen_b) || (c == 'S' && seen_s))
            return fail_at(p, at, "second", "give B and S once each");
        at++;
        size_t start = at;
        uint32_t mask = read_counts(p, &at);
        if (at < p->end && isalpha((unsigned char)p->text[at]) &&
            toupper((unsigned char)p->text[at]) != 'B' &&
            toupper((unsigned char)p->text[at]) != 'S')
            return bad_letter(p, start, at);
        if (c == 'B') {
            rule->birth = mask;
            seen_b = true;
        } else {
            rule->survive = mask;
            seen_s = true;
        }
    }
    if (!seen_b && !seen_s)
        return fail_at(p, p->end, "no B or S part",
                       "write rules as B<digits>/S<digits>, e.g. B3/S23");
    return 0;
}

/* The old form "23/3": survival digits, slash, birth digits. */
static int parse_old(parser *p, gg_rule *rule)
{
    size_t at = 0;
    rule->survive = read_counts(p, &at);
    if (at >= p->end || p->text[at] != '/')
        return fail_at(p, at, "unexpected character",
                       "the old form is <survival>/<birth>, e.g. 23/3");
    at++;
    rule->birth = read_counts(p, &at);
    if (at < p->end)
        return fail_at(p, at, "unexpected character",
                       "the old form is <survival>/<birth>, e.g. 23/3");
    return 0;
}

/* Counts must fit the neighbourhood: find the offending digit to name it. */
static int check_range(parser *p, const gg_rule *rule)
{
    uint32_t allowed = (2u << rule->n_neighbours) - 1;
    if (!((rule->birth | rule->survive) & ~allowed))
        return 0;
    for (size_t at = 0; at < p->end; at++) {
        char c = p->text[at];
        if (isdigit((unsigned char)c) && c - '0' > rule->n_neighbours) {
            char fix[128];
            snprintf(fix, sizeof fix,
                     "the %s neighbourhood has %d neighbours, so counts are "
                     "0..%d", gg_nbhd_name(rule->nbhd), rule->n_neighbours,
                     rule->n_neighbours);
            return fail_at(p, at, "neighbour count out of range", fix);
        }
    }
    return fail_at(p, 0, "neighbour count out of range", "use smaller counts");
}

static int read_size(parser *p, size_t *at, int64_t *value)
{
    size_t start = *at;
    int64_t v = 0;
    while (isdigit((unsigned char)p->text[*at])) {
        v = v * 10 + (p->text[*at] - '0');
        if (v > GG_MAX_GRID_SIDE)
            return fail_at(p, start, "grid size too large",
                           "the largest side Golly allows is 2000000000");
        (*at)++;
    }
    if (*at == start)
        return fail_at(p, *at, p->text[*at] ? "expected a grid size, found"
                                 : "expected a grid size, found the end of "
                                   "the rule",
                       "write the grid as :TW,H or :PW,H, e.g. :T512,512");
    *value = v;
    return 0;
}

/* What follows a side's size: Klein's twist '*', then a shift +n or -n
 * (folded into the side as Golly folds it: sign kept, |n| < side). */
typedef struct side_marks {
    bool twist;
    int64_t shift;
    size_t at; /* where the marks begin, for messages */
} side_marks;

static int read_marks(parser *p, size_t *at, side_marks *m)
{
    m->at = *at;
    m->twist = p->text[*at] == '*';
    *at += m->twist;
    m->shift = 0;
    char sign = p->text[*at];
    if (sign != '+' && sign != '-')
        return 0;
    (*at)++;
    if (!isdigit((unsigned char)p->text[*at]))
        return fail_at(p, *at, "expected a shift, found",
                       "write a shift as +N or -N after the side, e.g. "
                       ":T30+5,20");
    if (read_size(p, at, &m->shift))
        return -1;
    if (sign == '-')
        m->shift = -m->shift;
    return 0;
}

/* Golly's checks of the marks (bgolly 3.3's refusals, in its words where
 * it has them) and its folding of the shift. */
static int check_marks(parser *p, gg_rule *rule, side_marks *w,
                       side_marks *h)
{
    char t = "?TPKCS"[rule->topo];
    if ((w->twist || h->twist) && rule->topo != GG_TOPO_KLEIN)
        return fail_at(p, w->twist ? w->at : h->at, "a twist on a grid "
                       "other than a Klein bottle",
                       "only :K takes '*', e.g. :K40*,20");
    if (rule->topo == GG_TOPO_KLEIN && w->twist && h->twist)
        return fail_at(p, h->at, "a Klein bottle with both pairs of edges "
                       "twisted", "twist one pair (:KW*,H or :KW,H*); :CW,H "
                       "twists both");
    if (rule->topo == GG_TOPO_KLEIN && !w->twist)
        h->twist = true; /* Golly: :KW,H is :KW,H* */
    rule->vertical_edges = h->twist;
    if (!w->shift && !h->shift)
        return 0;
    if (w->shift && h->shift)
        return fail_at(p, h->at, "unsupported edge shift on both pairs of "
                       "edges", "shift one pair only, e.g. :T30+5,20");
    side_marks *s = w->shift ? w : h;
    if (rule->topo == GG_TOPO_PLANE || rule->topo == GG_TOPO_CROSS)
        return fail_at(p, s->at, "unsupported edge shift on this grid",
                       t == 'P' ? "a plane has no joined edges to shift"
                                : "a cross-surface cannot be shifted");
    if (rule->topo == GG_TOPO_KLEIN && !s->twist)
        return fail_at(p, s->at, "unsupported edge shift off the twisted "
                       "edges", "a Klein bottle shifts its twisted edges "
                       "only, e.g. :K40*+1,20");
    if (rule->width == 0 || rule->height == 0)
        return fail_at(p, s->at, "unsupported edge shift with an infinite "
                       "side", "give both sides a size to shift");
    rule->vertical_edges = s == h;
    int64_t side = s == h ? rule->height : rule->width;
    rule->shift = s->shift % side;
    if (rule->topo == GG_TOPO_KLEIN) /* every shift is 1; none if odd */
        rule->shift = side % 2 ? 0 : 1;
    return 0;
}

/* The words a refusal of a grid only golgen run takes begins with. */
static const char *ring_grid_name(const gg_rule *rule)
{
    switch (rule->topo) {
    case GG_TOPO_KLEIN:
        return "unsupported topology :K (a Klein bottle)";
    case GG_TOPO_CROSS:
        return "unsupported topology :C (a cross-surface)";
    case GG_TOPO_SPHERE:
        return "unsupported topology :S (a sphere)";
    default:
        return rule->shift ? "unsupported edge shift (a shifted torus)"
                           : "infinite (0) grid side (a tube or strip)";
    }
}

static int parse_topology(parser *p, size_t colon, gg_rule *rule)
{
    size_t at = colon + 1;
    const char *letters = "TPKCS";
    const char *t = strchr(letters, toupper((unsigned char)p->text[at]));
    if (!p->text[at] || !t)
        return fail_at(p, at, "unknown topology",
                       "use :TW,H (torus), :PW,H (plane), :KW*,H (Klein "
                       "bottle), :CW,H (cross-surface) or :SW (sphere)");
    rule->topo = (gg_topo)(GG_TOPO_TORUS + (t - letters));
    side_marks w = {0}, h = {0};
    at++;
    if (read_size(p, &at, &rule->width))
        return -1;
    rule->height = rule->width; /* Golly: one number means a square grid */
    if (rule->topo != GG_TOPO_SPHERE && read_marks(p, &at, &w))
        return -1;
    if (p->text[at] == ',' && rule->topo != GG_TOPO_SPHERE) {
        at++;
        if (read_size(p, &at, &rule->height) || read_marks(p, &at, &h))
            return -1;
    }
    if (p->text[at])
        return fail_at(p, at, "unexpected character",
                       rule->topo == GG_TOPO_SPHERE
                           ? "a sphere is square: write :SW, e.g. :S30"
                           : "write the grid as :TW,H or :PW,H, e.g. "
                             ":T512,512");
    bool infinite = rule->width == 0 || rule->height == 0;
    if (infinite && rule->topo >= GG_TOPO_KLEIN)
        return fail_at(p, colon + 1, "infinite (0) side on this grid",
                       "only :T (tubes) and :P (strips) take an infinite "
                       "side; give both sides a size");
    if (check_marks(p, rule, &w, &h))
        return -1;
    if (rule->width == 0 && rule->height == 0) { /* Golly: the plane */
        rule->topo = GG_TOPO_UNBOUNDED;
        return 0;
    }
    if (!p->any_grid && gg_rule_has_ring_grid(rule))
        return fail_at(p, colon + 1, ring_grid_name(rule),
                       "golgen run takes it (it fills the ring round the "
                       "grid); give :TW,H or :PW,H here");
    return 0;
}

bool gg_rule_ring_grid_of(const char *text, gg_rule *grid)
{
    const char *colon = text ? strrchr(text, ':') : NULL;
    char probe[256];
    gg_err ignored;
    if (!colon || strlen(colon) > 200)
        return false;
    snprintf(probe, sizeof probe, "B3/S23%s", colon);
    return !parse_rule(probe, true, grid, &ignored) &&
           gg_rule_has_ring_grid(grid);
}

void gg_rule_topology_text(const gg_rule *rule, char *buf, size_t size)
{
    static const char *const names[] = {
        "unbounded plane", "torus", "bounded plane", "Klein bottle",
        "cross-surface", "sphere"};
    const char *edges = rule->vertical_edges ? "left and right"
                                             : "top and bottom";
    char extra[160] = "";
    if (rule->topo == GG_TOPO_KLEIN)
        snprintf(extra, sizeof extra, " (the %s edges joined reversed%s)",
                 edges, rule->shift ? ", shifted by 1" : "");
    else if (rule->topo == GG_TOPO_CROSS)
        snprintf(extra, sizeof extra, " (both pairs of edges joined "
                 "reversed)");
    else if (rule->topo == GG_TOPO_SPHERE)
        snprintf(extra, sizeof extra, " (the top edge joined to the left, "
                 "the right to the bottom)");
    else if (rule->shift)
        snprintf(extra, sizeof extra, " (the %s edges joined shifted by "
                 "%+lld)", edges, (long long)rule->shift);
    if (rule->topo == GG_TOPO_UNBOUNDED) {
        snprintf(buf, size, "%s", names[0]);
        return;
    }
    char w[24], h[24];
    snprintf(w, sizeof w, "%lld", (long long)rule->width);
    snprintf(h, sizeof h, "%lld", (long long)rule->height);
    const char *kind = names[rule->topo];
    if (rule->width == 0 || rule->height == 0)
        kind = rule->topo == GG_TOPO_TORUS ? "tube" : "strip";
    snprintf(buf, size, "%s %s x %s%s", kind, rule->width ? w : "infinite",
             rule->height ? h : "infinite", extra);
}

/* The table rules: MAP<base64> and Hensel letters. One whose table is
 * totalistic after all (every arrangement of its counts named) keeps its
 * notation; gg_rule_totalistic_view gives the circuits its totalistic
 * twin's. */
static int parse_table_rule(parser *p, gg_rule *rule)
{
    if (gg_rule_text_is_wolfram(p->text, p->end))
        return gg_rule_parse_wolfram(p->text, p->end, rule, p->err);
    int bad = strncasecmp(p->text, "map", 3)
                  ? gg_rule_parse_hensel(p->text, p->end, rule, p->err)
                  : gg_rule_parse_map(p->text, p->end, rule, p->err);
    return bad;
}

static bool is_table_rule(const parser *p)
{
    return !strncasecmp(p->text, "map", 3) ||
           gg_rule_text_is_wolfram(p->text, p->end) ||
           gg_rule_text_is_hensel(p->text, p->end);
}

static int parse_rule(const char *text, bool any_grid, gg_rule *rule,
                      gg_err *err)
{
    memset(rule, 0, sizeof *rule);
    parser p = {text, 0, strlen(text), err, any_grid};
    const char *colon = strchr(text, ':');
    if (colon)
        p.end = (size_t)(colon - text);
    if (p.end == 0)
        return gg_fail(err, "rule '%s' is empty; write e.g. B3/S23", text);
    if (gg_rule_text_is_generations(text, p.end))
        return gg_rule_parse_generations(text, p.end, rule, err) ||
                       (colon &&
                        parse_topology(&p, (size_t)(colon - text), rule))
                   ? -1
                   : 0;
    if (is_table_rule(&p))
        return parse_table_rule(&p, rule) ||
                       (colon &&
                        parse_topology(&p, (size_t)(colon - text), rule))
                   ? -1
                   : 0;
    parse_suffix_nbhd(&p, rule);
    gg_nbhd_offsets(rule->nbhd, &rule->n_neighbours);
    /* "/3" is the old S/B form, "/B3" the B/S one */
    bool old_form = isdigit((unsigned char)text[0]) ||
                    (text[0] == '/' && !isalpha((unsigned char)text[1]));
    int bad = old_form ? parse_old(&p, rule) : parse_bs(&p, rule);
    if (bad || check_range(&p, rule))
        return -1;
    if (colon && parse_topology(&p, (size_t)(colon - text), rule))
        return -1;
    rule->kind = GG_KIND_TOTALISTIC;
    return 0;
}

static size_t put_counts(char *buf, size_t size, size_t n, uint32_t mask)
{
    for (int c = 0; c <= 26; c++)
        if ((mask >> c) & 1u && n + 1 < size)
            buf[n++] = (char)('0' + c);
    return n;
}

void gg_rule_format_transition(const gg_rule *rule, char *buf, size_t size)
{
    if (gg_rule_is_generations(rule)) {
        gg_rule_format_generations(rule, buf, size);
        return;
    }
    if (rule->kind == GG_KIND_TABLE) {
        if (rule->notation == GG_NOTATION_MAP)
            gg_rule_format_map(rule, buf, size);
        else if (rule->notation == GG_NOTATION_WOLFRAM)
            gg_rule_format_wolfram(rule, buf, size);
        else
            gg_rule_format_hensel(rule, buf, size);
        return;
    }
    size_t n = 0;
    if (size < 2) {
        if (size)
            buf[0] = 0;
        return;
    }
    buf[n++] = 'B';
    n = put_counts(buf, size, n, rule->birth);
    if (n + 2 < size) {
        buf[n++] = '/';
        buf[n++] = 'S';
    }
    n = put_counts(buf, size, n, rule->survive);
    if (rule->nbhd != GG_NBHD_MOORE && n + 1 < size)
        buf[n++] = rule->nbhd == GG_NBHD_VONNEUMANN ? 'V' : 'H';
    buf[n] = 0;
}

int gg_rule_parse(const char *text, gg_rule *rule, gg_err *err)
{
    return parse_rule(text, false, rule, err);
}

int gg_rule_parse_grid(const char *text, gg_rule *rule, gg_err *err)
{
    return parse_rule(text, true, rule, err);
}

/* A side's marks as Golly writes them: "*" then "+1" / "-7". */
static void put_marks(char *buf, size_t size, bool twist, int64_t shift)
{
    snprintf(buf, size, "%s", twist ? "*" : "");
    if (shift)
        snprintf(buf + strlen(buf), size - strlen(buf), "%+lld",
                 (long long)shift);
}

void gg_rule_format(const gg_rule *rule, char *buf, size_t size)
{
    gg_rule_format_transition(rule, buf, size);
    if (!gg_rule_is_bounded(rule))
        return;
    size_t n = strlen(buf);
    char t = "?TPKCS"[rule->topo];
    if (rule->topo == GG_TOPO_SPHERE) {
        snprintf(buf + n, size - n, ":S%lld", (long long)rule->width);
        return;
    }
    bool klein = rule->topo == GG_TOPO_KLEIN, v = rule->vertical_edges;
    char mw[24], mh[24];
    put_marks(mw, sizeof mw, klein && !v, v ? 0 : rule->shift);
    put_marks(mh, sizeof mh, klein && v, v ? rule->shift : 0);
    snprintf(buf + n, size - n, ":%c%lld%s,%lld%s", t,
             (long long)rule->width, mw, (long long)rule->height, mh);
}

/* The next states of a table rule as birth and survival counts, when
 * every row of one count and centre agrees. */
static bool table_counts(const gg_rule *rule, uint32_t *birth,
                         uint32_t *survive)
{
    int n = rule->n_neighbours;
    uint32_t seen[2] = {0, 0}, on[2] = {0, 0};
    *birth = *survive = 0;
    for (uint32_t r = 0; r < 2u << n; r++) {
        int centre = (int)(r >> n), count = __builtin_popcount(r & ((1u << n) - 1));
        uint32_t v = (uint32_t)gg_rule_next(rule, centre, r & ((1u << n) - 1));
        if (seen[centre] >> count & 1 && (on[centre] >> count & 1) != v)
            return false;
        seen[centre] |= 1u << count;
        on[centre] |= v << count;
    }
    *birth = on[0], *survive = on[1];
    return true;
}

bool gg_rule_is_totalistic(const gg_rule *rule)
{
    uint32_t b, s;
    return rule->kind == GG_KIND_TOTALISTIC || table_counts(rule, &b, &s);
}

gg_rule gg_rule_totalistic_view(const gg_rule *rule)
{
    gg_rule t = *rule;
    uint32_t b, s;
    if (rule->kind != GG_KIND_TABLE || !table_counts(rule, &b, &s))
        return t;
    t.kind = GG_KIND_TOTALISTIC;
    t.birth = b, t.survive = s;
    t.notation = GG_NOTATION_HENSEL;
    memset(t.table, 0, sizeof t.table);
    memset(t.letters, 0, sizeof t.letters);
    return t;
}

bool gg_rule_same_transition(const gg_rule *a, const gg_rule *b)
{
    if (a->nbhd != b->nbhd || a->states != b->states)
        return false;
    int n = a->n_neighbours;
    for (uint32_t r = 0; r < 2u << n; r++) {
        uint32_t nb = r & ((1u << n) - 1);
        if (gg_rule_next(a, (int)(r >> n), nb) !=
            gg_rule_next(b, (int)(r >> n), nb))
            return false;
    }
    return true;
}

/* MCell files (.mcl), read as Golly 3.3's readmcell: "#L" lines of runs
 * ('.' empty, '$' next row, A..X states 1..24, a..j prefixes adding 24
 * each), "#BOARD WxH" and "#WRAP 0|1" a bounded plane or torus (the
 * pattern then shifted towards the grid's middle as Golly shifts it),
 * "#GOLLY NAME" or "#RULE TEXT" the rule (the first of them), MCell's
 * HistoricalLife rule read as LifeHistory; "#D" lines kept as comments.
 * Larger than Life ("#GAME Larger than Life", "#RULE R5,C0,...") as
 * Golly reads it: the #BOARD (or, without one, Golly's 0x0 grid, which
 * its LtL makes 2R wide) as the rule's grid suffix, a state at or past the
 * rule's C read as 1 and cells outside the grid dropped.
 * Refused by name: MCell's own rule tables (#RULE 1,0,...) without a
 * #GOLLY line, which Golly cannot run either. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pattern.h"
#include "rule_ltl.h"

/* 256 MiB of cells at most: a 100-byte file could ask for far more */
#define MAX_CELLS (1LL << 24)

typedef struct cell {
    int64_t x, y;
    int state;
} cell;

typedef struct mcl {
    const char *name;
    int line;
    int64_t x, y, wd, ht;
    int wrap;
    bool saw_rule, extended_hl, ltl;
    char rule[256], game[64];
    cell *cells;
    int64_t n, cap;
    char *comments;
    size_t clen;
    gg_err *err;
} mcl;

static int add_cell(mcl *m, int state)
{
    if (m->n == MAX_CELLS || m->x < -(1LL << 31) || m->x >= (1LL << 31) ||
        m->y < -(1LL << 31) || m->y >= (1LL << 31))
        return gg_fail(m->err, "%s:%d: the pattern passes %lld cells or "
                       "Golly's coordinates", m->name, m->line,
                       (long long)MAX_CELLS);
    if (m->n == m->cap) {
        int64_t cap = m->cap ? m->cap * 2 : 1024;
        cell *c = realloc(m->cells, (size_t)cap * sizeof *c);
        if (!c)
            return gg_fail(m->err, "out of memory reading %s", m->name);
        m->cells = c;
        m->cap = cap;
    }
    m->cells[m->n++] = (cell){m->x++, m->y, state};
    return 0;
}

/* Golly's renumbering of Brice Due's extended HistoricalLife states */
static int history_state(int s)
{
    return s == 8 ? 4 : s == 3 ? 5 : s == 5 ? 3 : s;
}

/* One "#L" line's runs. */
static int read_runs(mcl *m, const char *p, const char *end)
{
    int64_t n = 0;
    for (; p < end; p++) {
        char c = *p;
        if (isdigit((unsigned char)c)) {
            if (n > MAX_CELLS)
                return gg_fail(m->err, "%s:%d: run count too large",
                               m->name, m->line);
            n = n * 10 + c - '0';
            continue;
        }
        if ((unsigned char)c <= ' ')
            continue;
        if (n == 0)
            n = 1;
        if (c == '.') {
            m->x += n;
        } else if (c == '$') {
            m->x = -(m->wd / 2);
            m->y += n;
        } else {
            int state = 0;
            if (c >= 'a' && c <= 'j' && p + 1 < end) {
                state = 24 * (c - 'a' + 1);
                c = *++p;
            }
            if (c < 'A' || c > 'X')
                return gg_fail(m->err, "%s:%d: '%c' is not an MCell state "
                               "(A..X, a..j before one)", m->name, m->line,
                               c);
            state += c - 'A' + 1;
            if (m->extended_hl)
                state = history_state(state);
            if (n > MAX_CELLS - m->n) /* before a byte of it is stored */
                return gg_fail(m->err, "%s:%d: the pattern passes %lld "
                               "cells; MCell files this large are not read "
                               "(save it as RLE or macrocell)", m->name,
                               m->line, (long long)MAX_CELLS);
            while (n-- > 0)
                if (add_cell(m, state))
                    return -1;
        }
        n = 0;
    }
    return 0;
}

static void set_rule(mcl *m, const char *text)
{
    snprintf(m->rule, sizeof m->rule, "%s", text);
    m->saw_rule = true;
}

/* "#GOLLY NAME" / "#RULE TEXT": the first wins, as in Golly; one with
 * no text names no rule and is refused (a file written from it would
 * carry an empty rule). */
static int read_rule(mcl *m, const char *l, size_t n)
{
    static const char hl[] = "#RULE 1,0,1,0,0,0,1,0,0,0,0,0,0,2,2,1,1,2,2,"
                             "2,2,2,0,2,2,2,1,2,2,2,2,2";
    static const char life[] = "#RULE 1,0,0,0,0,0,1,0,0,0,0,0,0,0,0,1,1";
    if (n >= sizeof hl - 1 && !memcmp(l, hl, sizeof hl - 1)) {
        m->extended_hl = n > sizeof hl - 1 && l[sizeof hl - 1] == ',';
        set_rule(m, "LifeHistory");
        return 0;
    }
    if (n >= sizeof life - 1 && !memcmp(l, life, sizeof life - 1)) {
        set_rule(m, "B3/S23");
        return 0;
    }
    size_t i = l[1] == 'G' ? 6 : 5, k = 0;
    while (i < n && (unsigned char)l[i] <= ' ')
        i++;
    char word[256];
    while (i < n && (unsigned char)l[i] > ' ' && k < sizeof word - 1)
        word[k++] = l[i++];
    word[k] = 0;
    if (!k)
        return gg_fail(m->err, "%s:%d: a %s line without a rule", m->name,
                       m->line, l[1] == 'G' ? "#GOLLY" : "#RULE");
    set_rule(m, word);
    return 0;
}

static int keep_comment(mcl *m, const char *l, size_t n)
{
    char *c = realloc(m->comments, m->clen + n + 3);
    if (!c)
        return gg_fail(m->err, "out of memory reading %s", m->name);
    m->comments = c;
    /* "#D text" becomes "#C text": RLE's comment line */
    m->clen += (size_t)sprintf(c + m->clen, "#C%.*s\n", (int)(n - 2), l + 2);
    return 0;
}

static int read_line(mcl *m, const char *l, size_t n)
{
    char buf[64];
    size_t k = n < sizeof buf - 1 ? n : sizeof buf - 1;
    memcpy(buf, l, k);
    buf[k] = 0;
    if (n < 2 || l[0] != '#')
        return 0;
    if (n >= 3 && l[1] == 'L' && l[2] == ' ') {
        if (!m->saw_rule)
            set_rule(m, "B3/S23");
        return read_runs(m, l + 3, l + n);
    }
    if (!strncmp(buf, "#GAME ", 6))
        snprintf(m->game, sizeof m->game, "%s", buf + 6);
    if (!strncmp(buf, "#GAME Larger than Life", 22))
        m->ltl = true;
    else if (!strncmp(buf, "#BOARD ", 7)) {
        int w = 0, h = 0;
        sscanf(buf + 7, "%dx%d", &w, &h);
        if (w < 0 || h < 0 || w > 1000000000 || h > 1000000000)
            return gg_fail(m->err, "%s:%d: bad #BOARD size", m->name,
                           m->line);
        m->wd = w, m->ht = h;
        m->x = -(m->wd / 2); /* the top-left corner, shifted at the end */
        m->y = -(m->ht / 2);
    } else if (!strncmp(buf, "#WRAP ", 6))
        sscanf(buf + 6, "%d", &m->wrap);
    else if (!m->saw_rule && (!strncmp(buf, "#GOLLY", 6) ||
                              !strncmp(buf, "#RULE", 5)))
        return read_rule(m, l, n);
    else if (l[1] == 'D')
        return keep_comment(m, l, n);
    return 0;
}

/* Larger than Life as Golly's readmcell places it: states the rule lacks
 * become 1, cells outside its grid (a side below 2R grows to 2R) are
 * dropped. A rule that does not parse is left to the run to report. */
static void ltl_cells(mcl *m)
{
    gg_ltl_rule r;
    gg_err ignored;
    char text[320];
    snprintf(text, sizeof text, "%s:P%lld,%lld", m->rule, (long long)m->wd,
             (long long)m->ht);
    if (gg_ltl_parse(text, &r, &ignored))
        return;
    int64_t l = -(r.width / 2), t = -(r.height / 2), k = 0;
    for (int64_t i = 0; i < m->n; i++) {
        cell c = m->cells[i];
        if (c.x < l || c.y < t || c.x >= l + r.width || c.y >= t + r.height)
            continue;
        if (c.state >= r.states)
            c.state = 1;
        m->cells[k++] = c;
    }
    m->n = k;
}

/* What golgen cannot run, refused by name before any cell is placed. */
static int refusals(const mcl *m)
{
    if (!m->ltl && strchr(m->rule, ','))
        return gg_fail(m->err, "%s: MCell's own rule table (#GAME %s, "
                       "#RULE %.40s...) is not read; a \"#GOLLY NAME\" line "
                       "naming a Golly rule (a .rule file) is needed, as "
                       "Golly needs it", m->name, m->game, m->rule);
    return 0;
}

/* The grid's suffix and Golly's shift of the cells towards its middle. */
static void bound(mcl *m)
{
    size_t len = strlen(m->rule);
    snprintf(m->rule + len, sizeof m->rule - len, ":%c%lld,%lld",
             m->wrap ? 'T' : 'P', (long long)m->wd, (long long)m->ht);
    int64_t l = INT64_MAX, t = INT64_MAX, r = INT64_MIN, b = INT64_MIN;
    for (int64_t i = 0; i < m->n; i++) {
        l = m->cells[i].x < l ? m->cells[i].x : l;
        r = m->cells[i].x > r ? m->cells[i].x : r;
        t = m->cells[i].y < t ? m->cells[i].y : t;
        b = m->cells[i].y > b ? m->cells[i].y : b;
    }
    if (!m->n)
        return;
    int64_t sx = (m->wd + 1 - (r - l + 1)) / 2, sy = (m->ht + 1 - (b - t + 1)) / 2;
    if (sx <= 0 && sy <= 0)
        return;
    for (int64_t i = 0; i < m->n; i++) {
        m->cells[i].x += sx;
        m->cells[i].y += sy;
    }
}

static int to_pattern(mcl *m, gg_pattern *p)
{
    int64_t l = 0, t = 0, r = -1, b = -1;
    int top = 0;
    for (int64_t i = 0; i < m->n; i++) {
        const cell *c = &m->cells[i];
        if (i == 0 || c->x < l) l = c->x;
        if (i == 0 || c->x > r) r = c->x;
        if (i == 0 || c->y < t) t = c->y;
        if (i == 0 || c->y > b) b = c->y;
        top = c->state > top ? c->state : top;
    }
    int planes = 1;
    while ((1 << planes) <= top)
        planes++;
    if (gg_pattern_init(p, r - l + 1, b - t + 1, planes, m->err))
        return -1;
    for (int64_t i = 0; i < m->n; i++)
        if (gg_pattern_set(p, m->cells[i].x - l, m->cells[i].y - t,
                           m->cells[i].state, m->err))
            return -1;
    p->x = l;
    p->y = t;
    p->positioned = true; /* MCell placed it; no default applies */
    p->multistate = top > 1;
    p->rule = strdup(m->rule);
    p->comments = m->comments;
    m->comments = NULL;
    return p->rule ? 0 : gg_fail(m->err, "out of memory reading %s", m->name);
}

int gg_pattern_parse_mcl(const char *text, size_t len, const char *name,
                         gg_pattern *p, gg_err *err)
{
    memset(p, 0, sizeof *p);
    mcl m = {.name = name, .err = err};
    const char *s = text, *end = text + len;
    int bad = 0;
    /* lines end at \n, \r\n or a lone \r (as the RLE a comment goes to
     * reads them: a \r kept inside one would start a line there) */
    while (!bad && s < end) {
        const char *e = s;
        while (e < end && *e != '\n' && *e != '\r')
            e++;
        m.line++;
        bad = read_line(&m, s, (size_t)(e - s));
        s = e + 1 < end && e[0] == '\r' && e[1] == '\n' ? e + 2
            : e < end                                 ? e + 1
                                                      : end;
    }
    if (!bad && !m.saw_rule)
        set_rule(&m, "B3/S23");
    bad = bad || refusals(&m);
    if (!bad && m.ltl)
        ltl_cells(&m);
    if (!bad && (m.wd > 0 || m.ht > 0 || m.ltl))
        bound(&m);
    bad = bad || to_pattern(&m, p);
    free(m.cells);
    free(m.comments);
    if (bad)
        gg_pattern_free(p);
    return bad ? -1 : 0;
}

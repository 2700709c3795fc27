/* Plaintext (.cells) and Life 1.05 / 1.06 readers. Placement as Golly 3.3
 * (readpattern.cpp): .cells rows start at (0, 0); Life 1.06 "x y" lines are
 * absolute coordinates; Life 1.05 blocks start at their "#P x y" (0 0
 * without one), one row per '.'/'*' line. */
#include "pattern.h"

#include <stdlib.h>
#include <string.h>

#define MAX_COORD 2147483647LL /* Golly's coordinates are ints */

typedef struct {
    const char *name;
    gg_err *err;
    char *comments;
    size_t clen, ccap;
    bool live; /* a live cell was written: two states, so the max is 1 */
} text_ctx;

#define FAIL(...)                                                          \
    (gg_fail(c->err, "%s:%d:%d: " FIRST(__VA_ARGS__) REST(__VA_ARGS__)))
#define FIRST(a, ...) a
#define REST(a, ...) , c->name, line, (int)(s - ls) + 1, ##__VA_ARGS__

static int add_comment(text_ctx *c, const char *pre, const char *s,
                       const char *e)
{
    size_t np = strlen(pre), n = (size_t)(e - s);
    if (c->clen + np + n + 2 > c->ccap) {
        size_t cap = c->ccap ? c->ccap : 256;
        while (c->clen + np + n + 2 > cap)
            cap *= 2;
        char *nb = realloc(c->comments, cap);
        if (!nb)
            return gg_fail(c->err, "%s: out of memory for comments", c->name);
        c->comments = nb;
        c->ccap = cap;
    }
    memcpy(c->comments + c->clen, pre, np);
    memcpy(c->comments + c->clen + np, s, n);
    c->clen += np + n;
    c->comments[c->clen++] = '\n';
    c->comments[c->clen] = 0;
    return 0;
}

/* Line iteration over text: [s, e) is the line, without its terminator;
 * trailing spaces and tabs are trimmed off e. */
typedef struct {
    const char *p, *end;
} lines;

static bool next(lines *L, const char **s, const char **e)
{
    if (L->p >= L->end)
        return false;
    const char *q = L->p;
    while (q < L->end && *q != '\n' && *q != '\r')
        q++;
    *s = L->p;
    const char *t = q;
    while (t > *s && (t[-1] == ' ' || t[-1] == '\t'))
        t--;
    *e = t;
    if (q < L->end)
        q += (*q == '\r' && q + 1 < L->end && q[1] == '\n') ? 2 : 1;
    L->p = q;
    return true;
}

static const char *skip_bom(const char *text, size_t len)
{
    return len >= 3 && memcmp(text, "\xEF\xBB\xBF", 3) == 0 ? text + 3 : text;
}

static int finish(text_ctx *c, gg_pattern *p, int rc)
{
    if (rc == 0) {
        p->comments = c->comments;
        p->known_max = c->live ? 2 : 1;
    } else {
        free(c->comments);
        gg_pattern_free(p);
    }
    c->comments = NULL;
    return rc;
}

/* ---- plaintext (.cells) ---- */

static bool cell_live(char ch)
{
    return ch == 'O' || ch == 'o' || ch == '*';
}

static int cells_pass(text_ctx *c, const char *text, size_t len,
                      gg_pattern *p, bool fill, int64_t *w, int64_t *h)
{
    lines L = {skip_bom(text, len), text + len};
    const char *s, *e;
    int line = 0;
    int64_t y = 0, maxw = 0, rows = 0;
    while (next(&L, &s, &e)) {
        line++;
        const char *ls = s;
        if (s < e && *s == '!') {
            if (fill) {
                const char *t = s + 1;
                int rc;
                if (e - t >= 5 && memcmp(t, "Name:", 5) == 0) {
                    t += 5;
                    while (t < e && (*t == ' ' || *t == '\t'))
                        t++;
                    rc = add_comment(c, "#N ", t, e);
                } else {
                    while (t < e && (*t == ' ' || *t == '\t'))
                        t++;
                    rc = add_comment(c, t < e ? "#C " : "#C", t, e);
                }
                if (rc)
                    return -1;
            }
            continue;
        }
        if (y >= MAX_COORD)
            return FAIL("too many rows (Golly's limit is %lld)", MAX_COORD);
        for (; s < e; s++) {
            if (*s == '.')
                continue;
            if (!cell_live(*s)) {
                if ((unsigned char)*s < ' ' || (unsigned char)*s > '~')
                    return FAIL("unexpected byte 0x%02x in a plaintext row; "
                                "rows use '.' for dead and 'O' for live "
                                "cells", (unsigned char)*s);
                return FAIL("unexpected character '%c' in a plaintext row; "
                            "rows use '.' for dead and 'O' for live cells, "
                            "and comment lines start with '!'", *s);
            }
            if (fill) {
                gg_grid_set(&p->plane[0], s - ls, y, 1);
                c->live = true;
            }
        }
        if (e - ls > MAX_COORD)
            return FAIL("row is too long (Golly's limit is %lld)", MAX_COORD);
        if (e > ls) {
            if (e - ls > maxw)
                maxw = e - ls;
            rows = y + 1;
        }
        y++;
    }
    *w = maxw;
    *h = rows;
    return 0;
}

int gg_pattern_parse_cells(const char *text, size_t len, const char *name,
                           gg_pattern *p, gg_err *err)
{
    memset(p, 0, sizeof *p);
    text_ctx ctx = {.name = name ? name : "<pattern>", .err = err};
    text_ctx *c = &ctx;
    int64_t w, h;
    if (cells_pass(c, text, len, p, false, &w, &h))
        return finish(c, p, -1);
    if (w == 0 || h == 0)
        w = h = 0;
    gg_err e2;
    if (gg_pattern_init(p, w, h, 1, &e2))
        return finish(c, p, gg_fail(err, "%s: %s", ctx.name, e2.msg));
    return finish(c, p, cells_pass(c, text, len, p, true, &w, &h));
}

/* ---- Life 1.05 / 1.06 ---- */

static int parse_int(const char **sp, const char *e, int64_t *v)
{
    const char *s = *sp;
    bool neg = false;
    if (s < e && (*s == '-' || *s == '+'))
        neg = *s++ == '-';
    if (s >= e || *s < '0' || *s > '9')
        return -1;
    int64_t n = 0;
    while (s < e && *s >= '0' && *s <= '9') {
        n = n * 10 + (*s++ - '0');
        if (n > MAX_COORD + 1)
            return -2;
    }
    n = neg ? -n : n;
    if (n > MAX_COORD || n < -MAX_COORD - 1)
        return -2;
    *v = n;
    *sp = s;
    return 0;
}

typedef struct {
    int64_t *xy;
    size_t n, cap;
} cell_list;

static int push(text_ctx *c, cell_list *l, int64_t x, int64_t y)
{
    if (l->n == l->cap) {
        size_t cap = l->cap ? l->cap * 2 : 256;
        int64_t *nb = realloc(l->xy, cap * 2 * sizeof *nb);
        if (!nb)
            return gg_fail(c->err, "%s: out of memory for cells", c->name);
        l->xy = nb;
        l->cap = cap;
    }
    l->xy[2 * l->n] = x;
    l->xy[2 * l->n + 1] = y;
    l->n++;
    return 0;
}

static int ws_char(char ch)
{
    return ch == ' ' || ch == '\t';
}

static int life_lines(text_ctx *c, const char *text, size_t len,
                      cell_list *cl, char **rule)
{
    lines L = {skip_bom(text, len), text + len};
    const char *s, *e;
    int line = 0;
    int64_t x0 = 0, y = 0;
    bool header_seen = false;
    while (next(&L, &s, &e)) {
        line++;
        const char *ls = s;
        if (s == e)
            continue;
        if (*s == '#') {
            if (!header_seen && e - s >= 5 && memcmp(s, "#Life", 5) == 0) {
                header_seen = true;
                continue;
            }
            header_seen = true;
            char k = s + 1 < e ? s[1] : 0;
            bool sep = s + 2 >= e || ws_char(s[2]);
            if (k == 'P' && sep) {
                const char *t = s + 2;
                while (t < e && ws_char(*t))
                    t++;
                if (t == e)
                    continue; /* bare #P: Golly keeps the current place */
                int64_t px, py;
                int r = parse_int(&t, e, &px);
                while (!r && t < e && ws_char(*t))
                    t++;
                if (!r)
                    r = parse_int(&t, e, &py);
                if (r || t != e) {
                    s = t;
                    return FAIL("bad #P line; write it as \"#P X Y\" with "
                                "integers within +-%lld", MAX_COORD);
                }
                x0 = px;
                y = py;
                continue;
            }
            if (k == 'N' && sep) {
                free(*rule);
                *rule = NULL;
                continue;
            }
            if (k == 'R' && sep) {
                const char *t = s + 2;
                while (t < e && ws_char(*t))
                    t++;
                const char *r = t;
                while (t < e && (unsigned char)*t > ' ')
                    t++;
                if (t == r)
                    return FAIL("#R line without a rule; write it as "
                                "\"#R 23/3\"");
                free(*rule);
                if (!(*rule = strndup(r, (size_t)(t - r))))
                    return gg_fail(c->err, "%s: out of memory", c->name);
                continue;
            }
            /* "#r" would name the rule once written as RLE: neutralise. */
            if (add_comment(c, k == 'r' ? "#C " : "", s, e))
                return -1;
            continue;
        }
        header_seen = true;
        if (*s == '-' || *s == '+' || (*s >= '0' && *s <= '9')) {
            int64_t cx, cy;
            const char *t = s;
            int r = parse_int(&t, e, &cx);
            const char *mid = t;
            while (!r && t < e && ws_char(*t))
                t++;
            if (!r && t == mid)
                r = -1;
            if (!r)
                r = parse_int(&t, e, &cy);
            if (r || t != e) {
                s = t;
                return FAIL("%s; a Life 1.06 cell line is \"X Y\" with two "
                            "integers", r == -2 ? "coordinate out of range "
                            "(Golly's limit is +-2147483647)"
                                                : "bad cell line");
            }
            if (push(c, cl, cx, cy))
                return -1;
            continue;
        }
        if (*s == '.' || *s == '*') {
            if (y > MAX_COORD) {
                return FAIL("rows run past y = %lld", MAX_COORD);
            }
            for (; s < e; s++) {
                if (*s == '*') {
                    if (x0 + (s - ls) > MAX_COORD)
                        return FAIL("row runs past x = %lld", MAX_COORD);
                    if (push(c, cl, x0 + (s - ls), y))
                        return -1;
                } else if (*s != '.') {
                    return FAIL("unexpected character '%c' in a Life 1.05 "
                                "row; rows use '.' and '*'", *s);
                }
            }
            y++;
            continue;
        }
        return FAIL("unexpected line in a Life 1.05/1.06 file; lines are "
                    "'#' comments, \"X Y\" cells or rows of '.' and '*'");
    }
    return 0;
}

int gg_pattern_parse_life(const char *text, size_t len, const char *name,
                          gg_pattern *p, gg_err *err)
{
    memset(p, 0, sizeof *p);
    text_ctx ctx = {.name = name ? name : "<pattern>", .err = err};
    text_ctx *c = &ctx;
    cell_list cl = {0};
    char *rule = NULL;
    int rc = life_lines(c, text, len, &cl, &rule);
    if (!rc) {
        int64_t minx = 0, miny = 0, maxx = -1, maxy = -1;
        for (size_t i = 0; i < cl.n; i++) {
            int64_t x = cl.xy[2 * i], y = cl.xy[2 * i + 1];
            if (i == 0 || x < minx)
                minx = x;
            if (i == 0 || x > maxx)
                maxx = x;
            if (i == 0 || y < miny)
                miny = y;
            if (i == 0 || y > maxy)
                maxy = y;
        }
        gg_err e2;
        if (gg_pattern_init(p, maxx - minx + 1, maxy - miny + 1, 1, &e2)) {
            rc = gg_fail(err, "%s: the cells span %lld x %lld: %s", ctx.name,
                         (long long)(maxx - minx + 1),
                         (long long)(maxy - miny + 1), e2.msg);
        } else {
            for (size_t i = 0; i < cl.n; i++)
                gg_grid_set(&p->plane[0], cl.xy[2 * i] - minx,
                            cl.xy[2 * i + 1] - miny, 1);
            p->x = cl.n ? minx : 0;
            p->y = cl.n ? miny : 0;
            c->live = cl.n > 0;
            p->rule = rule;
            rule = NULL;
        }
    }
    free(cl.xy);
    free(rule);
    return finish(c, p, rc);
}

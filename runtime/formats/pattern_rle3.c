#include "pattern_rle3.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "atomic_file.h"
#include "emit_net.h" /* gg_sbuf */
#include "file_text.h"
#include "rule3d.h"

typedef struct rd {
    const char *name;
    gg_err *err;
    long line;
} rd;

static int bad(const rd *r, size_t col, const char *fmt, const char *arg)
{
    char what[300];
    snprintf(what, sizeof what, fmt, arg);
    return gg_fail(r->err, "%s:%ld:%zu: %s", r->name, r->line, col + 1, what);
}

/* A decimal number in s[*i..end) (a leading '-' when neg_ok), at most
 * 10^15. */
static int number(const rd *r, const char *s, size_t *i, size_t end,
                  bool neg_ok, int64_t *v, const char *what)
{
    size_t st = *i;
    bool neg = false;
    if (neg_ok && *i < end && s[*i] == '-') {
        neg = true;
        (*i)++;
    }
    int64_t n = 0;
    size_t d0 = *i;
    while (*i < end && isdigit((unsigned char)s[*i])) {
        if (n > 100000000000000LL)
            return bad(r, st, "%s is too large", what);
        n = n * 10 + (s[*i] - '0');
        (*i)++;
    }
    if (*i == d0)
        return bad(r, st, "%s: expected a number", what);
    *v = neg ? -n : n;
    return 0;
}

static int header_line(const rd *r, const char *s, size_t n, gg_rle3 *p)
{
    size_t i = 2; /* after "3D" */
    while (i < n) {
        while (i < n && (s[i] == ' ' || s[i] == '\t'))
            i++;
        size_t k = i;
        while (i < n && s[i] != ' ' && s[i] != '\t')
            i++;
        size_t e = i, eq = k;
        while (eq < e && s[eq] != '=')
            eq++;
        if (eq == e)
            continue; /* a word without '=': ignored, as 3D.lua does */
        size_t kl = eq - k, v = eq + 1;
        if (kl == 7 && !memcmp(s + k, "version", 7)) {
            if (e - v != 1 || s[v] != '1')
                return bad(r, v, "%s: only version=1 exists",
                           "unexpected RLE3 version");
        } else if (kl == 4 && !memcmp(s + k, "size", 4)) {
            if (number(r, s, &v, e, false, &p->size, "size"))
                return -1; /* number() said why (too large, not a number) */
            if (v != e)
                return bad(r, v, "%s: trailing characters", "size");
            if (p->size < 1 || p->size > GG_MAX_SIDE3D)
                return bad(r, eq + 1, "%s out of range (1..16777216)",
                           "size");
            p->has_size = true;
        } else if (kl == 3 && !memcmp(s + k, "pos", 3)) {
            for (int a = 0; a < 3; a++) {
                if (number(r, s, &v, e, true, &p->pos[a], "pos"))
                    return -1;
                if (a < 2 && (v >= e || s[v] != ','))
                    return bad(r, v, "%s: write pos=x,y,z", "pos");
                if (a < 2)
                    v++;
            }
            if (v != e)
                return bad(r, v, "%s: trailing characters", "pos");
        } else if (kl == 3 && !memcmp(s + k, "gen", 3)) {
            if (number(r, s, &v, e, false, &p->gen, "gen"))
                return -1; /* number() said why (too large, not a number) */
            if (v != e)
                return bad(r, v, "%s: trailing characters", "gen");
        }
    }
    return 0;
}

static int expect(const rd *r, const char *s, size_t *i, size_t n,
                  const char *lit)
{
    size_t l = strlen(lit);
    if (*i + l > n || memcmp(s + *i, lit, l))
        return bad(r, *i, "expected '%s' (the line reads x=W y=H z=D "
                   "rule=R)", lit);
    *i += l;
    return 0;
}

static int x_line(const rd *r, const char *s, size_t n, gg_rle3 *p)
{
    size_t i = 0;
    if (expect(r, s, &i, n, "x=") ||
        number(r, s, &i, n, false, &p->w, "x") ||
        expect(r, s, &i, n, " y=") ||
        number(r, s, &i, n, false, &p->h, "y") ||
        expect(r, s, &i, n, " z=") ||
        number(r, s, &i, n, false, &p->d, "z") ||
        expect(r, s, &i, n, " rule="))
        return -1;
    size_t e = n;
    while (e > i && (s[e - 1] == ' ' || s[e - 1] == '\t'))
        e--;
    if (e == i)
        return bad(r, i, "%s", "rule= is empty");
    if (e - i >= sizeof p->rule)
        return bad(r, i, "%s", "rule= is too long");
    memcpy(p->rule, s + i, e - i);
    p->rule[e - i] = 0;
    int64_t big = p->w > p->h ? p->w : p->h;
    big = p->d > big ? p->d : big;
    if (big > p->size)
        return bad(r, 0, "%s", "the pattern is bigger than the grid size "
                   "(size= on the first line)");
    for (int a = 0; a < 3; a++) {
        int64_t ext = a == 0 ? p->w : a == 1 ? p->h : p->d;
        if (p->pos[a] < 0 || p->pos[a] + ext > p->size)
            return bad(r, 0, "%s", "the pattern is positioned outside the "
                       "grid (pos= and size= on the first line)");
    }
    if (p->w && p->h && p->d) {
        gg_err e2;
        if (gg_grid3d_init(&p->cells, p->w, p->h, p->d, &e2))
            return gg_fail(r->err, "%s:%ld: %s", r->name, r->line, e2.msg);
    }
    return 0;
}

bool gg_rle3_sniff(const char *text, size_t len)
{
    size_t i = 0;
    while (i < len && (text[i] == ' ' || text[i] == '\t'))
        i++;
    return len - i >= 2 && text[i] == '3' && text[i + 1] == 'D';
}

int gg_rle3_parse(const char *text, size_t len, const char *name,
                  gg_rle3 *p, gg_err *err)
{
    memset(p, 0, sizeof *p);
    p->size = GG_RLE3_DEFAULT_SIZE;
    rd r = {name ? name : "RLE3", err, 1};
    gg_sbuf com = {0};
    size_t i = 0;
    bool have_x = false, done = false;
    int64_t x = 0, y = 0, z = 0, run = 0;
    int rc = -1;
    for (long ln = 1; i < len && !done; ln++) {
        r.line = ln;
        size_t e = i;
        while (e < len && text[e] != '\n' && text[e] != '\r')
            e++;
        const char *s = text + i;
        size_t n = e - i;
        if (memchr(s, 0, n)) {
            bad(&r, (size_t)((const char *)memchr(s, 0, n) - s),
                "%s", "a NUL byte: this is not an RLE3 text file");
            goto out;
        }
        if (ln == 1) {
            if (n < 2 || s[0] != '3' || s[1] != 'D') {
                bad(&r, 0, "%s", "an RLE3 file starts with '3D version=1 "
                    "size=N'");
                goto out;
            }
            if (header_line(&r, s, n, p))
                goto out;
        } else if (n == 0) {
            /* blank */
        } else if (s[0] == '#') {
            gg_sbuf_append(&com, s, n);
            gg_sbuf_append(&com, "\n", 1);
        } else if (s[0] == 'x') {
            if (have_x) {
                bad(&r, 0, "%s", "a second x= line");
                goto out;
            }
            if (x_line(&r, s, n, p))
                goto out;
            have_x = true;
        } else {
            if (!have_x) {
                bad(&r, 0, "%s", "cells before the x= y= z= rule= line");
                goto out;
            }
            for (size_t c = 0; c < n && !done; c++) {
                char ch = s[c];
                if (isdigit((unsigned char)ch)) {
                    if (run > 1000000000000LL) {
                        bad(&r, c, "%s", "run count too large");
                        goto out;
                    }
                    run = run * 10 + (ch - '0');
                    continue;
                }
                if (ch == ' ' || ch == '\t')
                    continue;
                int64_t k = run ? run : 1;
                run = 0;
                switch (ch) {
                case 'b': x += k; break;
                case 'o':
                    if (x + k > p->w || y >= p->h || z >= p->d) {
                        bad(&r, c, "%s", "a live cell outside the box the "
                            "x= y= z= line gives");
                        goto out;
                    }
                    for (int64_t q = 0; q < k; q++)
                        gg_grid3d_set(&p->cells, x + q, y, z, 1);
                    x += k;
                    break;
                case '$': x = 0; y += k; break;
                case '/': x = 0; y = 0; z += k; break;
                case '!': done = true; break;
                default: {
                    char one[2] = {ch, 0};
                    bad(&r, c, "unexpected character '%s' (cells are b, o, "
                        "$, / and run counts, ended by !)",
                        isprint((unsigned char)ch) ? one : "?");
                    goto out;
                }
                }
                /* runs past the box are harmless until a cell lands
                 * there; clamp so that no count overflows */
                const int64_t cap = (int64_t)1 << 50;
                x = x > cap ? cap : x;
                y = y > cap ? cap : y;
                z = z > cap ? cap : z;
            }
        }
        i = e;
        if (i < len && (text[i] == '\n' || text[i] == '\r'))
            i++;
    }
    if (!have_x) {
        gg_fail(err, "%s: no 'x=W y=H z=D rule=R' line; not a complete "
                "RLE3 pattern", r.name);
        goto out;
    }
    if (!done) {
        gg_fail(err, "%s:%ld: the cells end without '!': the file looks "
                "truncated (3D.lua always writes the '!')", r.name, r.line);
        goto out;
    }
    if (com.len && gg_sbuf_take(&com, &p->comments, NULL, err))
        goto out;
    rc = 0;
out:
    gg_sbuf_free(&com);
    if (rc)
        gg_rle3_free(p);
    return rc;
}

void gg_rle3_free(gg_rle3 *p)
{
    gg_grid3d_free(&p->cells);
    free(p->comments);
    p->comments = NULL;
}

int gg_rle3_read(const char *path, gg_rle3 *p, gg_err *err)
{
    memset(p, 0, sizeof *p);
    gg_file_text t; /* gunzipped when gzip, as the 2D readers */
    if (gg_file_text_read(path, NULL, &t, err))
        return -1;
    int rc = gg_rle3_parse(t.text, t.len,
                           strcmp(path, "-") ? path : "standard input", p,
                           err);
    gg_file_text_free(&t);
    return rc;
}

/* ---- writer: 3D.lua's WritePattern ---- */

typedef struct wr {
    gg_sbuf *b;
    char line[128];
    size_t n;
} wr;

static void flush_line(wr *w)
{
    gg_sbuf_append(w->b, w->line, w->n);
    gg_sbuf_append(w->b, "\n", 1);
    w->n = 0;
}

static void add_run(wr *w, int64_t count, char ch)
{
    if (w->n >= 67)
        flush_line(w);
    int k;
    if (count > 2)
        k = snprintf(w->line + w->n, sizeof w->line - w->n, "%lld%c",
                     (long long)count, ch);
    else if (count == 2)
        k = snprintf(w->line + w->n, sizeof w->line - w->n, "%c%c", ch, ch);
    else
        k = snprintf(w->line + w->n, sizeof w->line - w->n, "%c", ch);
    w->n += (size_t)k;
}

int gg_rle3_format(const gg_grid3d *g, const char *rule, int64_t gen,
                   const char *comments, char **out, size_t *len,
                   gg_err *err)
{
    gg_sbuf b = {0};
    int64_t lo[3] = {0, 0, 0}, hi[3] = {0, 0, 0};
    bool any = gg_grid3d_bbox(g, lo, hi);
    int64_t size = g->sx > g->sy ? g->sx : g->sy;
    size = g->sz > size ? g->sz : size;
    gg_sbuf_printf(&b, "3D version=1 size=%lld", (long long)size);
    if (any && (lo[0] || lo[1] || lo[2]))
        gg_sbuf_printf(&b, " pos=%lld,%lld,%lld", (long long)lo[0],
                       (long long)lo[1], (long long)lo[2]);
    if (gen > 0)
        gg_sbuf_printf(&b, " gen=%lld", (long long)gen);
    gg_sbuf_printf(&b, "\n");
    if (comments && *comments) {
        /* each line must start with '#' and end with \n */
        const char *c = comments;
        while (*c) {
            size_t l = strcspn(c, "\n");
            if (c[0] != '#')
                gg_sbuf_append(&b, "#", 1);
            gg_sbuf_append(&b, c, l);
            gg_sbuf_append(&b, "\n", 1);
            c += l + (c[l] == '\n');
        }
    }
    if (!any) {
        gg_sbuf_printf(&b, "x=0 y=0 z=0 rule=%s\n!\n", rule);
        return gg_sbuf_take(&b, out, len, err);
    }
    gg_sbuf_printf(&b, "x=%lld y=%lld z=%lld rule=%s\n",
                   (long long)(hi[0] - lo[0] + 1),
                   (long long)(hi[1] - lo[1] + 1),
                   (long long)(hi[2] - lo[2] + 1), rule);
    wr w = {.b = &b};
    int64_t orun = 0, brun = 0, dollrun = 0, slashrun = 0;
    for (int64_t z = lo[2]; z <= hi[2]; z++) {
        for (int64_t y = lo[1]; y <= hi[1]; y++) {
            const uint64_t *row = gg_grid3d_row(g, y, z);
            for (int64_t x = lo[0]; x <= hi[0]; x++) {
                if ((row[x >> 6] >> (x & 63)) & 1u) {
                    orun++;
                    if (slashrun) { add_run(&w, slashrun, '/'); slashrun = 0; }
                    if (dollrun) { add_run(&w, dollrun, '$'); dollrun = 0; }
                    if (brun) { add_run(&w, brun, 'b'); brun = 0; }
                } else {
                    brun++;
                    if (orun) {
                        if (slashrun) { add_run(&w, slashrun, '/'); slashrun = 0; }
                        if (dollrun) { add_run(&w, dollrun, '$'); dollrun = 0; }
                        add_run(&w, orun, 'o');
                        orun = 0;
                    }
                }
            }
            if (orun) {
                if (slashrun) { add_run(&w, slashrun, '/'); slashrun = 0; }
                if (dollrun) { add_run(&w, dollrun, '$'); dollrun = 0; }
                add_run(&w, orun, 'o');
                orun = 0;
            }
            brun = 0;
            dollrun++;
        }
        dollrun = 0;
        if (z < hi[2])
            slashrun++;
        else {
            if (w.n >= 70)
                flush_line(&w);
            w.line[w.n++] = '!';
        }
    }
    if (w.n)
        flush_line(&w);
    return gg_sbuf_take(&b, out, len, err);
}

int gg_rle3_write(const char *path, const gg_grid3d *g, const char *rule,
                  int64_t gen, const char *comments, gg_err *err)
{
    char *s = NULL;
    size_t n = 0;
    if (gg_rle3_format(g, rule, gen, comments, &s, &n, err))
        return -1;
    int rc;
    if (!strcmp(path, "-")) {
        rc = fwrite(s, 1, n, stdout) == n && fflush(stdout) == 0
                 ? 0
                 : gg_fail(err, "cannot write the pattern to standard "
                           "output");
    } else {
        gg_atomic_file f;
        rc = gg_atomic_open(path, &f, err) || gg_atomic_write(&f, s, n, err) ||
                     gg_atomic_commit(&f, err)
                 ? -1
                 : 0;
    }
    free(s);
    return rc;
}

#include "rule_ltl.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>

#define DEFAULT_SIDE 400 /* Golly 3.3's ltlalgo DEFAULTSIZE */

typedef struct cursor {
    const char *text;
    size_t at;
    gg_err *err;
} cursor;

static int fail_at(cursor *c, const char *what)
{
    char ch[8];
    if (!c->text[c->at])
        return gg_fail(c->err, "Larger than Life rule '%s': %s at the end "
                       "(Golly writes R5,C0,M1,S34..58,B34..45,NM)",
                       c->text, what);
    gg_text_char(c->text, c->at, ch, sizeof ch);
    return gg_fail(c->err, "Larger than Life rule '%s': %s, found '%s' at "
                   "column %zu (Golly writes R5,C0,M1,S34..58,B34..45,NM)",
                   c->text, what, ch, gg_text_column(c->text, c->at));
}

/* A count of at most 10 digits (a larger one is refused by its limit). */
static int number(cursor *c, const char *field, int64_t *v)
{
    if (!isdigit((unsigned char)c->text[c->at])) {
        char what[96];
        snprintf(what, sizeof what, "%s needs a number", field);
        return fail_at(c, what);
    }
    int64_t n = 0;
    int digits = 0;
    while (isdigit((unsigned char)c->text[c->at])) {
        if (++digits > 10)
            return gg_fail(c->err, "Larger than Life rule '%s': the number "
                           "after %s is too long", c->text, field);
        n = n * 10 + (c->text[c->at++] - '0');
    }
    *v = n;
    return 0;
}

static bool letter(cursor *c, char want)
{
    if (toupper((unsigned char)c->text[c->at]) != want)
        return false;
    c->at++;
    return true;
}

static int expect_field(cursor *c, char want)
{
    char what[64];
    if (c->text[c->at] != ',' ||
        toupper((unsigned char)c->text[c->at + 1]) != want) {
        snprintf(what, sizeof what, "expected ',%c' next", want);
        return fail_at(c, what);
    }
    c->at += 2;
    return 0;
}

/* "a..b[,c..d]..." or a bare count, after S or B; stops before the ','
 * that starts the next field. */
static int ranges(cursor *c, char field, int32_t *lo, int32_t *hi, int *n)
{
    char name[2] = {field, 0};
    *n = 0;
    for (;;) {
        int64_t a, b;
        if (*n == GG_LTL_MAX_RANGES)
            return gg_fail(c->err, "Larger than Life rule '%s': more than "
                           "%d %c ranges", c->text, GG_LTL_MAX_RANGES, field);
        if (number(c, name, &a))
            return -1;
        b = a;
        if (c->text[c->at] == '.') {
            if (c->text[c->at + 1] != '.')
                return fail_at(c, "a range is written a..b");
            c->at += 2;
            if (number(c, name, &b))
                return -1;
        }
        if (a > b)
            return gg_fail(c->err, "Larger than Life rule '%s': %c minimum "
                           "must be <= %c maximum (%lld..%lld)", c->text,
                           field, field, (long long)a, (long long)b);
        lo[*n] = (int32_t)(a > INT32_MAX ? INT32_MAX : a);
        hi[*n] = (int32_t)(b > INT32_MAX ? INT32_MAX : b);
        ++*n;
        if (c->text[c->at] != ',' ||
            !isdigit((unsigned char)c->text[c->at + 1]))
            return 0;
        c->at++;
    }
}

static int mcell_form(cursor *c, gg_ltl_rule *r)
{
    int64_t v;
    if (!letter(c, 'R'))
        return fail_at(c, "expected R");
    if (number(c, "R", &v))
        return -1;
    if (v < 1 || v > GG_LTL_MAX_RANGE)
        return gg_fail(c->err, "Larger than Life rule '%s': R (the range) "
                       "must be from 1 to %d, not %lld", c->text,
                       GG_LTL_MAX_RANGE, (long long)v);
    r->range = (int)v;
    if (expect_field(c, 'C') || number(c, "C", &v))
        return -1;
    if (v > 256)
        return gg_fail(c->err, "Larger than Life rule '%s': C (the number "
                       "of states) must be from 0 to 256, not %lld",
                       c->text, (long long)v);
    r->states = v > 2 ? (int)v : 2;
    if (expect_field(c, 'M') || number(c, "M", &v))
        return -1;
    if (v > 1)
        return gg_fail(c->err, "Larger than Life rule '%s': M (middle cell "
                       "counted) must be 0 or 1, not %lld", c->text,
                       (long long)v);
    r->middle = (int)v;
    if (expect_field(c, 'S') || ranges(c, 'S', r->s_lo, r->s_hi, &r->n_s) ||
        expect_field(c, 'B') || ranges(c, 'B', r->b_lo, r->b_hi, &r->n_b) ||
        expect_field(c, 'N'))
        return -1;
    char n = (char)toupper((unsigned char)c->text[c->at]);
    if (n != 'M' && n != 'N' && n != 'C')
        return fail_at(c, "N must be followed by M (Moore), N (von Neumann) "
                       "or C (circular)");
    r->nbhd = n;
    c->at++;
    return 0;
}

/* Kellie Evans' r,bmin,bmax,smin,smax */
static int evans_form(cursor *c, gg_ltl_rule *r)
{
    int64_t v[5];
    for (int i = 0; i < 5; i++) {
        if (i && c->text[c->at] != ',')
            return fail_at(c, "expected ','");
        if (i)
            c->at++;
        if (number(c, "a comma", &v[i]))
            return -1;
    }
    if (v[0] < 1 || v[0] > GG_LTL_MAX_RANGE)
        return gg_fail(c->err, "Larger than Life rule '%s': the range must "
                       "be from 1 to %d, not %lld", c->text,
                       GG_LTL_MAX_RANGE, (long long)v[0]);
    for (int i = 1; i < 5; i += 2)
        if (v[i] > v[i + 1])
            return gg_fail(c->err, "Larger than Life rule '%s': %c minimum "
                           "must be <= %c maximum (%lld..%lld)", c->text,
                           i == 1 ? 'B' : 'S', i == 1 ? 'B' : 'S',
                           (long long)v[i], (long long)v[i + 1]);
    *r = (gg_ltl_rule){.range = (int)v[0], .states = 2, .middle = 1,
                       .nbhd = 'M', .n_s = 1, .n_b = 1};
    r->b_lo[0] = (int32_t)(v[1] > INT32_MAX ? INT32_MAX : v[1]);
    r->b_hi[0] = (int32_t)(v[2] > INT32_MAX ? INT32_MAX : v[2]);
    r->s_lo[0] = (int32_t)(v[3] > INT32_MAX ? INT32_MAX : v[3]);
    r->s_hi[0] = (int32_t)(v[4] > INT32_MAX ? INT32_MAX : v[4]);
    return 0;
}

static int side(cursor *c, int64_t *v)
{
    if (number(c, "the grid size", v))
        return -1;
    return 0;
}

/* ":T", ":P", ":TW", ":TW,", ":TW,H" or ":" alone, as Golly 3.3. */
static int suffix(cursor *c, gg_ltl_rule *r)
{
    r->topo = GG_TOPO_UNBOUNDED;
    if (!c->text[c->at])
        return 0;
    if (c->text[c->at] != ':')
        return fail_at(c, "unexpected text after the neighbourhood (a grid "
                       "suffix starts with ':')");
    c->at++;
    int64_t w = DEFAULT_SIDE, h = DEFAULT_SIDE;
    r->topo = GG_TOPO_TORUS;
    if (c->text[c->at]) {
        char t = (char)toupper((unsigned char)c->text[c->at]);
        if (t != 'T' && t != 'P')
            return fail_at(c, "a Larger than Life grid is a torus (T) or a "
                           "plane (P), as in Golly");
        r->topo = t == 'T' ? GG_TOPO_TORUS : GG_TOPO_PLANE;
        c->at++;
    }
    if (c->text[c->at]) {
        if (side(c, &w))
            return -1;
        h = w;
        if (c->text[c->at] == ',' && c->text[c->at + 1]) {
            c->at++;
            if (side(c, &h))
                return -1;
        } else if (c->text[c->at] == ',') {
            c->at++; /* a dangling comma after the width, as Golly */
        }
        if (c->text[c->at])
            return fail_at(c, "unexpected character in the grid suffix");
    }
    int64_t min = 2 * (int64_t)r->range;
    r->width = w < min ? min : w;
    r->height = h < min ? min : h;
    if ((double)r->width * (double)r->height > (double)GG_LTL_MAX_CELLS)
        return gg_fail(c->err, "Larger than Life rule '%s': a %lldx%lld "
                       "grid is too big (at most %lld cells, as Golly)",
                       c->text, (long long)r->width, (long long)r->height,
                       GG_LTL_MAX_CELLS);
    return 0;
}

static int check_counts(cursor *c, const gg_ltl_rule *r)
{
    int64_t max = gg_ltl_max_count(r);
    for (int k = 0; k < 2; k++) {
        const int32_t *hi = k ? r->b_hi : r->s_hi;
        int n = k ? r->n_b : r->n_s;
        for (int i = 0; i < n; i++)
            if (hi[i] > max)
                return gg_fail(c->err, "Larger than Life rule '%s': %c "
                               "counts must be from 0 to %lld (the %s of "
                               "range %d has %lld cells%s), not %lld",
                               c->text, k ? 'B' : 'S', (long long)max,
                               gg_ltl_nbhd_name(r->nbhd), r->range,
                               (long long)gg_ltl_nbhd_cells(r),
                               r->middle ? "" : ", less the middle (M0)",
                               (long long)hi[i]);
    }
    if (r->topo == GG_TOPO_UNBOUNDED && gg_ltl_in(r->b_lo, r->b_hi, r->n_b, 0))
        return gg_fail(c->err, "Larger than Life rule '%s': B0 is not "
                       "allowed on the unbounded plane (Golly refuses it "
                       "too); give a bounded grid, e.g. %s:T500,500",
                       c->text, c->text);
    return 0;
}

bool gg_ltl_looks_like(const char *text)
{
    if ((text[0] == 'R' || text[0] == 'r') && isdigit((unsigned char)text[1]))
        return true;
    int commas = 0;
    for (const char *p = text; *p && *p != ':'; p++) {
        if (*p == ',')
            commas++;
        else if (!isdigit((unsigned char)*p))
            return false;
    }
    return commas == 4 && isdigit((unsigned char)text[0]);
}

int gg_ltl_parse(const char *text, gg_ltl_rule *rule, gg_err *err)
{
    cursor c = {.text = text, .err = err};
    memset(rule, 0, sizeof *rule);
    if (strlen(text) > 1000)
        return gg_fail(err, "Larger than Life rule of %zu characters is too "
                       "long", strlen(text));
    int bad = isdigit((unsigned char)text[0]) ? evans_form(&c, rule)
                                              : mcell_form(&c, rule);
    return bad || suffix(&c, rule) || check_counts(&c, rule) ? -1 : 0;
}

static size_t put_ranges(char *buf, size_t size, size_t n, char field,
                         const int32_t *lo, const int32_t *hi, int count)
{
    for (int i = 0; i < count && n < size; i++)
        n += (size_t)snprintf(buf + n, size - n, "%s%c%ld..%ld",
                              i ? "" : ",", i ? ',' : field, (long)lo[i],
                              (long)hi[i]);
    return n;
}

void gg_ltl_format(const gg_ltl_rule *r, char *buf, size_t size)
{
    size_t n = (size_t)snprintf(buf, size, "R%d,C%d,M%d", r->range,
                                r->states > 2 ? r->states : 0, r->middle);
    n = put_ranges(buf, size, n, 'S', r->s_lo, r->s_hi, r->n_s);
    n = put_ranges(buf, size, n, 'B', r->b_lo, r->b_hi, r->n_b);
    if (n < size)
        n += (size_t)snprintf(buf + n, size - n, ",N%c", r->nbhd);
    if (r->topo != GG_TOPO_UNBOUNDED && n < size)
        snprintf(buf + n, size - n, ":%c%lld,%lld",
                 r->topo == GG_TOPO_TORUS ? 'T' : 'P', (long long)r->width,
                 (long long)r->height);
}

void gg_ltl_circle(int range, int *half)
{
    int r2 = range * range + range;
    for (int j = -range; j <= range; j++) {
        int w = 0;
        while ((w + 1) * (w + 1) + j * j <= r2)
            w++;
        half[j + range] = w;
    }
}

int64_t gg_ltl_nbhd_cells(const gg_ltl_rule *r)
{
    int64_t R = r->range;
    if (r->nbhd == 'M')
        return (2 * R + 1) * (2 * R + 1);
    if (r->nbhd == 'N')
        return 2 * R * (R + 1) + 1;
    int half[2 * GG_LTL_MAX_RANGE + 1];
    gg_ltl_circle(r->range, half);
    int64_t n = 0;
    for (int j = 0; j <= 2 * r->range; j++)
        n += 2 * half[j] + 1;
    return n;
}

int64_t gg_ltl_max_count(const gg_ltl_rule *r)
{
    return gg_ltl_nbhd_cells(r) - (r->middle ? 0 : 1);
}

const char *gg_ltl_nbhd_name(char nbhd)
{
    return nbhd == 'M'   ? "Moore box"
           : nbhd == 'N' ? "von Neumann diamond"
                         : "circle";
}

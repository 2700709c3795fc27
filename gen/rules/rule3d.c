#include "rule3d.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>

static const gg_offset moore3d[26] = {
    {-1, -1, -1}, {0, -1, -1}, {1, -1, -1}, {-1, 0, -1}, {0, 0, -1},
    {1, 0, -1},   {-1, 1, -1}, {0, 1, -1},  {1, 1, -1},  {-1, -1, 0},
    {0, -1, 0},   {1, -1, 0},  {-1, 0, 0},  {1, 0, 0},   {-1, 1, 0},
    {0, 1, 0},    {1, 1, 0},   {-1, -1, 1}, {0, -1, 1},  {1, -1, 1},
    {-1, 0, 1},   {0, 0, 1},   {1, 0, 1},   {-1, 1, 1},  {0, 1, 1},
    {1, 1, 1},
};
static const gg_offset face3d[6] = {{0, 0, -1}, {0, -1, 0}, {-1, 0, 0},
                                    {1, 0, 0},  {0, 1, 0},  {0, 0, 1}};
static const gg_offset corner3d[8] = {
    {-1, -1, -1}, {1, -1, -1}, {-1, 1, -1}, {1, 1, -1},
    {-1, -1, 1},  {1, -1, 1},  {-1, 1, 1},  {1, 1, 1},
};
static const gg_offset edge3d[12] = {
    {0, -1, -1}, {-1, 0, -1}, {1, 0, -1}, {0, 1, -1},
    {-1, -1, 0}, {1, -1, 0},  {-1, 1, 0}, {1, 1, 0},
    {0, -1, 1},  {-1, 0, 1},  {1, 0, 1},  {0, 1, 1},
};
/* wxoverlay.cpp's Do3DNextGenHexahedral (Bays, Complex Systems 1 (1987)
 * p. 872): xym xyp xpm xpz xmp xmz pym pyz myp myz pmz mpz. */
static const gg_offset hex3d[12] = {
    {0, 0, -1}, {0, 0, 1},  {0, 1, -1}, {0, 1, 0},  {0, -1, 1}, {0, -1, 0},
    {1, 0, -1}, {1, 0, 0},  {-1, 0, 1}, {-1, 0, 0}, {1, -1, 0}, {-1, 1, 0},
};

const gg_offset *gg_nbhd3d_offsets(gg_nbhd3d nbhd, int *count)
{
    switch (nbhd) {
    case GG_NBHD3D_FACE: *count = 6; return face3d;
    case GG_NBHD3D_CORNER: *count = 8; return corner3d;
    case GG_NBHD3D_EDGE: *count = 12; return edge3d;
    case GG_NBHD3D_HEX: *count = 12; return hex3d;
    default: *count = 26; return moore3d;
    }
}

const char *gg_nbhd3d_name(gg_nbhd3d nbhd)
{
    static const char *const names[GG_NBHD3D_COUNT] = {
        "Moore (26 cells)", "face (6 cells)", "corner (8 cells)",
        "edge (12 cells)", "hexahedral (12 cells)"};
    return nbhd < GG_NBHD3D_COUNT ? names[nbhd] : "?";
}

static const char nbhd_letter[GG_NBHD3D_COUNT] = {0, 'F', 'C', 'E', 'H'};

bool gg_rule3d_is_3d(const char *text)
{
    return text && (text[0] == '3') && (text[1] == 'D' || text[1] == 'd');
}

typedef struct p3 {
    const char *text;
    gg_err *err;
} p3;

static int bad_at(const p3 *p, size_t i, const char *what, const char *fix)
{
    if (p->text[i])
        return gg_fail(p->err, "rule '%s': %s '%c' at column %zu; %s",
                       p->text, what, p->text[i], i + 1, fix);
    return gg_fail(p->err, "rule '%s': %s at column %zu; %s", p->text, what,
                   i + 1, fix);
}

/* A decimal count at p->text[*i] (digits only, at most 3 of them). */
static int read_count(const p3 *p, size_t *i, size_t end, int *v)
{
    size_t s = *i;
    int n = 0;
    while (*i < end && isdigit((unsigned char)p->text[*i])) {
        if (*i - s >= 3)
            return bad_at(p, *i, "count too long", "counts run 0..26");
        n = n * 10 + (p->text[*i] - '0');
        (*i)++;
    }
    if (*i == s)
        return bad_at(p, *i, "expected a count, found",
                      "write counts like 5..7 or 4,5 (e.g. 3D5..7/6)");
    *v = n;
    return 0;
}

/* One part (survival or birth) in text[start, end). */
static int read_part(const p3 *p, size_t start, size_t end, bool birth,
                     int max, uint32_t *mask)
{
    const char *what = birth ? "birth" : "survival";
    int lo = birth ? 1 : 0;
    char fix[96];
    snprintf(fix, sizeof fix, "%s counts run %d..%d for this neighbourhood",
             what, lo, max);
    size_t i = start;
    *mask = 0;
    while (i < end) {
        size_t item = i;
        int a, b;
        if (read_count(p, &i, end, &a))
            return -1;
        b = a;
        if (i + 1 < end && p->text[i] == '.' && p->text[i + 1] == '.') {
            i += 2;
            size_t hs = i;
            if (read_count(p, &i, end, &b))
                return -1;
            if (b < a)
                return bad_at(p, hs, "range end below its start",
                              "write a range low..high, e.g. 5..7");
            if (b > max || b < lo)
                return bad_at(p, hs, "count out of range", fix);
        }
        if (a > max || a < lo)
            return bad_at(p, item, "count out of range", fix);
        for (int c = a; c <= b; c++)
            *mask |= 1u << c;
        if (i < end) {
            if (p->text[i] != ',')
                return bad_at(p, i, "unexpected character",
                              "separate counts with ',' and write ranges "
                              "as a..b");
            i++; /* a trailing comma is fine, as in 3D.lua */
        }
    }
    return 0;
}

static int read_side(const p3 *p, size_t *i, int64_t *v)
{
    size_t s = *i;
    int64_t n = 0;
    while (isdigit((unsigned char)p->text[*i])) {
        n = n * 10 + (p->text[*i] - '0');
        if (n > GG_MAX_SIDE3D)
            return bad_at(p, s, "side too large",
                          "sides run 1..16777216");
        (*i)++;
    }
    if (*i == s)
        return bad_at(p, *i, "expected a side length, found",
                      "write e.g. :T64 or :T64,32,16");
    if (n == 0)
        return gg_fail(p->err,
                       "rule '%s': a side of 0 (column %zu) asks for "
                       "unbounded 3D space, which golgen does not simulate "
                       "(3D kernels work on a finite grid); use a torus "
                       ":TN or a bounded box :PN with N large enough",
                       p->text, s + 1);
    *v = n;
    return 0;
}

static int read_topology(const p3 *p, size_t i, gg_rule3d *r)
{
    char t = (char)toupper((unsigned char)p->text[i]);
    if (t != 'T' && t != 'P')
        return bad_at(p, i, "unknown topology",
                      "write :TN (torus) or :PN (bounded box), N or X,Y,Z");
    r->topo = t == 'T' ? GG_TOPO3D_TORUS : GG_TOPO3D_BOX;
    i++;
    if (!p->text[i])
        return gg_fail(p->err,
                       "rule '%s': :%c without a size would be unbounded 3D "
                       "space, which golgen does not simulate; give the "
                       "sides, e.g. :%c64 or :%c64,32,16",
                       p->text, t, t, t);
    int64_t s[3];
    int n = 0;
    for (;;) {
        if (read_side(p, &i, &s[n]))
            return -1;
        n++;
        if (!p->text[i])
            break;
        if (p->text[i] != ',' || n == 3)
            return bad_at(p, i, "unexpected character",
                          "write :TN or :TX,Y,Z");
        i++;
    }
    if (n == 2)
        return bad_at(p, i, "two sides, ending",
                      "give one or three sides: :TN for a cube, :TX,Y,Z "
                      "for a box");
    r->sx = s[0];
    r->sy = n == 3 ? s[1] : s[0];
    r->sz = n == 3 ? s[2] : s[0];
    return 0;
}

int gg_rule3d_parse(const char *text, gg_rule3d *rule, gg_err *err)
{
    p3 p = {text, err};
    gg_rule3d r;
    memset(&r, 0, sizeof r);
    if (!text || !*text)
        return gg_fail(err, "the 3D rule is empty; write e.g. 3D5..7/6");
    if (!gg_rule3d_is_3d(text)) {
        char up[16];
        size_t n = 0;
        for (; text[n] && n + 1 < sizeof up; n++)
            up[n] = (char)toupper((unsigned char)text[n]);
        up[n] = 0;
        if (!strncmp(up, "BUSYBOXES", 9) || !strcmp(up, "BB") ||
            !strcmp(up, "BBW"))
            return gg_fail(err, "rule '%s': 3D.lua's BusyBoxes rules are not "
                           "totalistic and not supported; use a 3D "
                           "totalistic rule such as 3D5..7/6", text);
        return bad_at(&p, 0, "a 3D rule starts with 3D, not",
                      "write e.g. 3D5..7/6");
    }
    size_t end = strcspn(text, ":");
    size_t i = 2;
    /* the neighbourhood letter, last character before any suffix */
    r.nbhd = GG_NBHD3D_MOORE;
    size_t body = end;
    if (end > 2) {
        char c = (char)toupper((unsigned char)text[end - 1]);
        gg_nbhd3d nb = c == 'F' || c == 'V' ? GG_NBHD3D_FACE
                       : c == 'C'           ? GG_NBHD3D_CORNER
                       : c == 'E'           ? GG_NBHD3D_EDGE
                       : c == 'H'           ? GG_NBHD3D_HEX
                                            : GG_NBHD3D_MOORE;
        if (nb != GG_NBHD3D_MOORE) {
            r.nbhd = nb;
            body = end - 1;
        }
    }
    gg_nbhd3d_offsets(r.nbhd, &r.n_neighbours);
    size_t slash = i;
    while (slash < body && text[slash] != '/')
        slash++;
    if (slash == body)
        return gg_fail(err, "rule '%s': no '/' between survival and birth "
                       "counts; write 3D<survive>/<birth>, e.g. 3D5..7/6",
                       text);
    for (size_t k = slash + 1; k < body; k++)
        if (text[k] == '/')
            return bad_at(&p, k, "a second", "a 3D rule has one '/' "
                          "(survival counts, then birth counts)");
    if (read_part(&p, i, slash, false, r.n_neighbours, &r.survive) ||
        read_part(&p, slash + 1, body, true, r.n_neighbours, &r.birth))
        return -1;
    r.topo = GG_TOPO3D_SIZED_BY_PATTERN;
    if (text[end] == ':' && read_topology(&p, end + 1, &r))
        return -1;
    *rule = r;
    return 0;
}

void gg_rule3d_format_counts(uint32_t counts, int max, char *buf,
                             size_t size)
{
    /* 3D.lua's CanonicalForm / AddCanonicalPart */
    size_t n = 0;
    buf[0] = 0;
    int start = -1;
    for (int i = 0; i <= max + 1; i++) {
        bool on = i <= max && ((counts >> i) & 1u);
        if (on && start < 0)
            start = i;
        if (!on && start >= 0) {
            int w;
            if (i == start + 1)
                w = snprintf(buf + n, size - n, "%s%d", n ? "," : "", start);
            else if (i == start + 2)
                w = snprintf(buf + n, size - n, "%s%d,%d", n ? "," : "",
                             start, i - 1);
            else
                w = snprintf(buf + n, size - n, "%s%d..%d", n ? "," : "",
                             start, i - 1);
            if (w < 0 || (size_t)w >= size - n)
                return; /* truncated (buffers are sized for 0..26) */
            n += (size_t)w;
            start = -1;
        }
    }
}

void gg_rule3d_format_transition(const gg_rule3d *r, char *buf, size_t size)
{
    char s[96], b[96];
    gg_rule3d_format_counts(r->survive, r->n_neighbours, s, sizeof s);
    gg_rule3d_format_counts(r->birth, r->n_neighbours, b, sizeof b);
    char letter[2] = {nbhd_letter[r->nbhd < GG_NBHD3D_COUNT ? r->nbhd : 0],
                      0};
    snprintf(buf, size, "3D%s/%s%s", s, b, letter);
}

void gg_rule3d_format(const gg_rule3d *r, char *buf, size_t size)
{
    char t[224];
    gg_rule3d_format_transition(r, t, sizeof t);
    if (r->topo == GG_TOPO3D_SIZED_BY_PATTERN) {
        snprintf(buf, size, "%s", t);
        return;
    }
    char c = r->topo == GG_TOPO3D_TORUS ? 'T' : 'P';
    if (r->sx == r->sy && r->sy == r->sz)
        snprintf(buf, size, "%s:%c%lld", t, c, (long long)r->sx);
    else
        snprintf(buf, size, "%s:%c%lld,%lld,%lld", t, c, (long long)r->sx,
                 (long long)r->sy, (long long)r->sz);
}

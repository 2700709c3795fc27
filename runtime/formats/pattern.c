/* Pattern files: format dispatch by content (as Golly's loadpattern),
 * reading files, and the pattern helpers. */
#include "pattern.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h> /* sysconf */

#include "file_text.h"
#include "pattern_rle3.h"

int gg_pattern_init(gg_pattern *p, int64_t width, int64_t height,
                    int n_planes, gg_err *err)
{
    memset(p, 0, sizeof *p);
    if (n_planes < 1 || n_planes > GG_PATTERN_MAX_PLANES)
        return gg_fail(err, "pattern with %d planes: between 1 and %d needed",
                       n_planes, GG_PATTERN_MAX_PLANES);
    if (width < 0 || height < 0)
        return gg_fail(err, "pattern size %lldx%lld is negative",
                       (long long)width, (long long)height);
    p->n_planes = n_planes;
    if (width == 0 || height == 0)
        return 0;
    /* calloc may promise more than the machine has (overcommit); refuse
     * boxes beyond physical memory up front. */
    long pages = sysconf(_SC_PHYS_PAGES), psize = sysconf(_SC_PAGE_SIZE);
    double need = (double)((width + 63) / 64) * 8.0 * (double)height *
                  n_planes;
    double have = pages > 0 && psize > 0 ? (double)pages * (double)psize : 0;
    if (have > 0 && need > have)
        return gg_fail(err, "a %lldx%lld pattern box needs %.1f GiB, more "
                       "than this machine's %.1f GiB of memory",
                       (long long)width, (long long)height,
                       need / 1073741824.0, have / 1073741824.0);
    for (int i = 0; i < n_planes; i++)
        if (gg_grid_init(&p->plane[i], width, height, err)) {
            gg_pattern_free(p);
            return -1;
        }
    return 0;
}

void gg_pattern_free(gg_pattern *p)
{
    if (!p)
        return;
    for (int i = 0; i < GG_PATTERN_MAX_PLANES; i++)
        gg_grid_free(&p->plane[i]);
    free(p->rule);
    free(p->comments);
    memset(p, 0, sizeof *p);
}

int gg_pattern_get(const gg_pattern *p, int64_t x, int64_t y)
{
    if (x < 0 || y < 0 || x >= gg_pattern_width(p) ||
        y >= gg_pattern_height(p))
        return 0;
    int s = 0;
    for (int i = 0; i < p->n_planes; i++)
        s |= gg_grid_get(&p->plane[i], x, y) << i;
    return s;
}

int gg_pattern_set(gg_pattern *p, int64_t x, int64_t y, int state,
                   gg_err *err)
{
    if (x < 0 || y < 0 || x >= gg_pattern_width(p) ||
        y >= gg_pattern_height(p))
        return gg_fail(err, "cell (%lld, %lld) is outside the %lldx%lld "
                       "pattern box", (long long)x, (long long)y,
                       (long long)gg_pattern_width(p),
                       (long long)gg_pattern_height(p));
    if (state < 0 || state > 255)
        return gg_fail(err, "state %d is out of range 0..255", state);
    p->known_max = 0; /* this cell may have held the highest state */
    while (state >> p->n_planes) {
        if (gg_grid_init(&p->plane[p->n_planes], gg_pattern_width(p),
                         gg_pattern_height(p), err))
            return -1;
        p->n_planes++;
    }
    for (int i = 0; i < p->n_planes; i++)
        gg_grid_set(&p->plane[i], x, y, (state >> i) & 1);
    return 0;
}

bool gg_pattern_bbox(const gg_pattern *p, int64_t *x0, int64_t *y0,
                     int64_t *x1, int64_t *y1)
{
    bool any = false;
    for (int i = 0; i < p->n_planes; i++)
        if (p->plane[i].bits)
            gg_grid_bbox_join(&p->plane[i], &any, x0, y0, x1, y1);
    return any;
}

int gg_pattern_max_state(const gg_pattern *p)
{
    if (!p->plane[0].bits)
        return 0;
    if (p->known_max > 0) /* the reader's count: no scan of a sparse box */
        return p->known_max - 1;
    int64_t words = p->plane[0].stride * p->plane[0].height;
    if (p->n_planes == 1) {
        for (int64_t i = 0; i < words; i++)
            if (p->plane[0].bits[i])
                return 1;
        return 0;
    }
    int best = 0;
    for (int64_t i = 0; i < words; i++) {
        uint64_t any = 0;
        for (int k = 0; k < p->n_planes; k++)
            any |= p->plane[k].bits[i];
        while (any) {
            int b = __builtin_ctzll(any);
            any &= any - 1;
            int s = 0;
            for (int k = 0; k < p->n_planes; k++)
                s |= (int)((p->plane[k].bits[i] >> b) & 1) << k;
            if (s > best)
                best = s;
        }
    }
    return best;
}

static bool str_eq(const char *a, const char *b)
{
    if (!a || !b)
        return a == b;
    return strcmp(a, b) == 0;
}

bool gg_pattern_equal(const gg_pattern *a, const gg_pattern *b)
{
    if (a->x != b->x || a->y != b->y || a->generation != b->generation ||
        a->n_planes != b->n_planes || !str_eq(a->rule, b->rule) ||
        !str_eq(a->comments, b->comments))
        return false;
    for (int i = 0; i < a->n_planes; i++) {
        const gg_grid *ga = &a->plane[i], *gb = &b->plane[i];
        if (ga->width != gb->width || ga->height != gb->height)
            return false;
        if (ga->bits && !gg_grid_equal(ga, gb))
            return false;
    }
    return true;
}

/* Bounded-grid suffix of a rule (":T30,20", ":P10,10", ":K40*,20",
 * ":T40+2,20", ":S30"): the grid size, 0 for an unbounded dimension. */
static bool grid_suffix(const char *rule, int64_t *gw, int64_t *gh)
{
    const char *c = rule ? strrchr(rule, ':') : NULL;
    if (!c || !c[1] || !strchr("TPKCS", c[1]))
        return false;
    const char *s = c + 2;
    char *end;
    long long w = strtoll(s, &end, 10);
    if (end == s || w < 0)
        return false;
    long long h = w;
    s = end;
    if (*s == '*')
        s++;
    if (*s == '+' || *s == '-')
        (void)strtoll(s, (char **)&s, 10);
    if (*s == ',') {
        h = strtoll(s + 1, &end, 10);
        if (end == s + 1 || h < 0)
            return false;
    }
    *gw = w;
    *gh = h;
    return w > 0 || h > 0;
}

void gg_pattern_default_pos(const char *rule, int64_t w, int64_t h,
                            int64_t *x, int64_t *y)
{
    int64_t gw, gh;
    *x = *y = 0;
    if (!grid_suffix(rule, &gw, &gh))
        return;
    /* readpattern.cpp: centre a box that fits, else the grid's corner. */
    if (w > 0 && (w <= gw || gw == 0) && h > 0 && (h <= gh || gh == 0)) {
        *x = -(w / 2);
        *y = -(h / 2);
    } else {
        *x = -(gw / 2);
        *y = -(gh / 2);
    }
}

/* Golly's isplainrle: a first line made only of counts, b, o and $ that
 * has digits or ends in '!'. */
static bool is_plain_rle(const char *s, const char *end)
{
    const char *bang = s;
    while (bang < end && *bang != '!')
        bang++;
    if (bang < end)
        for (const char *q = bang + 1; q < end; q++)
            if ((unsigned char)*q > ' ')
                return false;
    bool prev_digit = false, have_digit = false;
    for (const char *q = s; q < bang; q++) {
        if ((unsigned char)*q <= ' ') {
            if (prev_digit)
                return false;
        } else if (*q >= '0' && *q <= '9') {
            prev_digit = have_digit = true;
        } else if (*q == 'b' || *q == 'o' || *q == '$') {
            prev_digit = false;
        } else {
            return false;
        }
    }
    if (prev_digit)
        return false;
    return have_digit || bang < end;
}

/* Text that is not gzip, by content as Golly's loadpattern. */
static int parse_plain(const char *text, size_t len, const char *name,
                       gg_stop_flag *stop, gg_pattern *p, gg_err *err)
{
    if (gg_is_gzip(text, len)) /* Golly unpacks one layer, as here */
        return gg_fail(err, "%s: the file is gzip-compressed twice; gunzip "
                       "it once first", name);
    if (len >= 4 && memcmp(text, "PK\3\4", 4) == 0)
        return gg_fail(err, "%s: the file is a zip archive; extract the "
                       "pattern from it first", name);
    if (memchr(text, 0, len < 4096 ? len : 4096))
        return gg_fail(err, "%s: the file is binary (contains NUL bytes), "
                       "not a pattern; give an RLE, .cells or Life 1.06 file",
                       name);

    /* First non-blank line, as Golly's loadpattern. */
    size_t i = 0;
    if (len >= 3 && memcmp(text, "\xEF\xBB\xBF", 3) == 0)
        i = 3;
    int line = 1;
    for (;;) {
        size_t j = i;
        while (j < len && (text[j] == ' ' || text[j] == '\t'))
            j++;
        if (j >= len)
            return gg_fail(err, "%s: the file is empty; a pattern file needs "
                           "at least an RLE header or some cells", name);
        if (text[j] != '\n' && text[j] != '\r')
            break;
        if (text[j] == '\r' && j + 1 < len && text[j + 1] == '\n')
            j++;
        i = j + 1;
        line++;
    }
    const char *s = text + i, *end = text + len;
    const char *eol = s;
    while (eol < end && *eol != '\n' && *eol != '\r')
        eol++;
    const char *nws = s;
    while (nws < eol && (*nws == ' ' || *nws == '\t'))
        nws++;
    size_t n = (size_t)(eol - s);

    /* A 3D file met the 2D reader when a 2D rule was given with it (or it
     * went to a store): its "3D version=1" line would read as a bad
     * plaintext row, which names no cause. */
    if (gg_rle3_sniff(s, n))
        return gg_fail(err, "%s:%d:1: this is a 3D pattern (RLE3: its first "
                       "line starts with \"3D\"); 2D rules and stores do not "
                       "take 3D patterns: run it under a 3D rule, e.g. "
                       "'golgen run --rule 3D5..7/6', or without --rule to "
                       "use the file's own rule= line", name, line);
    if ((n >= 3 && memcmp(s, "#Li", 3) == 0) ||
        (n >= 3 && memcmp(s, "#P ", 3) == 0))
        return gg_pattern_parse_life(text, len, name, p, err);
    if (n >= 6 && memcmp(s, "#MCell", 6) == 0)
        return gg_pattern_parse_mcl(text, len, name, p, err);
    if (*nws == '#' || *nws == 'x')
        return gg_pattern_parse_rle_stop(text, len, name, stop, p, err);
    if (*s == '!')
        return gg_pattern_parse_cells(text, len, name, p, err);
    if (*s == '[')
        return gg_pattern_parse_mc_stop(text, len, name, stop, p, err);
    if (is_plain_rle(nws, eol))
        return gg_pattern_parse_rle_stop(text, len, name, stop, p, err);
    return gg_pattern_parse_cells(text, len, name, p, err);
}

int gg_pattern_parse_stop(const char *text, size_t len, const char *name,
                          gg_stop_flag *stop, gg_pattern *p, gg_err *err)
{
    memset(p, 0, sizeof *p);
    if (!name)
        name = "<pattern>";
    if (!gg_is_gzip(text, len))
        return parse_plain(text, len, name, stop, p, err);
    char *plain;
    size_t n;
    if (gg_gunzip(text, len, gg_gunzip_limit(), name, stop, &plain, &n,
                  err))
        return -1;
    int rc = parse_plain(plain, n, name, stop, p, err);
    free(plain);
    return rc;
}

int gg_pattern_parse(const char *text, size_t len, const char *name,
                     gg_pattern *p, gg_err *err)
{
    return gg_pattern_parse_stop(text, len, name, NULL, p, err);
}

int gg_pattern_read_stop(const char *path, gg_stop_flag *stop,
                         gg_pattern *p, gg_err *err)
{
    memset(p, 0, sizeof *p);
    gg_file_text t;
    if (gg_file_text_read(path, stop, &t, err))
        return -1;
    const char *name = strcmp(path, "-") ? path : "standard input";
    int rc = parse_plain(t.text, t.len, name, stop, p, err);
    gg_file_text_free(&t);
    return rc;
}

int gg_pattern_read(const char *path, gg_pattern *p, gg_err *err)
{
    return gg_pattern_read_stop(path, NULL, p, err);
}

/* RLE writer, byte for byte as Golly 3.3's writerle (gollybase/
 * writepattern.cpp): lines of at most 70 characters, no count for runs of
 * one, trailing dead cells and blank rows dropped, "!" at the end. The
 * output is buffered in 4 MiB chunks and goes through an atomic file. */
#include "pattern.h"

#include <stdlib.h>
#include <string.h>

#include "atomic_file.h"
#include "rle_runs.h"

#define CHUNK (4u << 20)

typedef struct {
    char *buf;
    size_t len, cap;
    gg_atomic_file *af; /* NULL: grow buf in memory */
    gg_err *err;
    bool failed;
    unsigned linelen;
} sink;

static void sink_flush(sink *k)
{
    if (k->failed || !k->af)
        return;
    if (gg_atomic_write(k->af, k->buf, k->len, k->err))
        k->failed = true;
    k->len = 0;
}

/* Room for n more bytes. */
static inline bool sink_room(sink *k, size_t n)
{
    if (k->len + n <= k->cap)
        return true;
    if (k->af) {
        sink_flush(k);
        return !k->failed;
    }
    size_t cap = k->cap ? k->cap : 4096;
    while (cap < k->len + n)
        cap *= 2;
    char *nb = realloc(k->buf, cap);
    if (!nb) {
        gg_fail(k->err, "out of memory formatting RLE (%zu bytes)", cap);
        k->failed = true;
        return false;
    }
    k->buf = nb;
    k->cap = cap;
    return true;
}

static void sink_put(sink *k, const char *s, size_t n)
{
    if (k->failed)
        return;
    if (n > CHUNK && k->af) {
        sink_flush(k);
        if (!k->failed && gg_atomic_write(k->af, s, n, k->err))
            k->failed = true;
        return;
    }
    if (!sink_room(k, n))
        return;
    memcpy(k->buf + k->len, s, n);
    k->len += n;
}

static void sink_str(sink *k, const char *s)
{
    sink_put(k, s, strlen(s));
}

/* AddRun: state -2 '!', -1 '$', 0 dead, >0 live. */
static inline void add_run(sink *k, int state, int ms, uint64_t run)
{
    char num[24];
    unsigned numlen = 0;
    if (run > 1) {
        char t[24];
        int n = 0;
        while (run) {
            t[n++] = (char)('0' + run % 10);
            run /= 10;
        }
        while (n)
            num[numlen++] = t[--n];
    }
    if (!sink_room(k, numlen + 4))
        return;
    char *o = k->buf + k->len;
    if (k->linelen + numlen + 1 + (unsigned)ms > 70) {
        *o++ = '\n';
        k->linelen = 0;
    }
    memcpy(o, num, numlen);
    o += numlen;
    if (ms) {
        if (state <= 0) {
            *o++ = ".$!"[-state];
        } else {
            if (state > 24) {
                int hi = (state - 25) / 24;
                *o++ = (char)('p' + hi);
                k->linelen++;
                state -= (hi + 1) * 24;
            }
            *o++ = (char)('A' + state - 1);
        }
    } else {
        *o++ = "!$bo"[state + 2];
    }
    k->linelen += numlen + 1;
    k->len = (size_t)(o - k->buf);
}

/* One run into o (room checked by the caller), as AddRun for two states. */
static inline char *emit(char *o, unsigned *ll, char letter, uint64_t len)
{
    if (len < 10) {
        /* Branch-free for the common short runs of a soup. */
        unsigned nl = len > 1;
        if (*ll + nl + 1 > 70) {
            *o++ = '\n';
            *ll = 0;
        }
        o[0] = (char)('0' + len);
        o[nl] = letter;
        *ll += nl + 1;
        return o + nl + 1;
    }
    char t[24];
    unsigned n = 0;
    while (len) {
        t[n++] = (char)('0' + len % 10);
        len /= 10;
    }
    if (*ll + n + 1 > 70) {
        *o++ = '\n';
        *ll = 0;
    }
    *ll += n + 1;
    while (n)
        *o++ = t[--n];
    *o++ = letter;
    return o;
}

/* Two-state rows: walk the run boundaries (cells that differ from their
 * left neighbour) a word at a time. */
static void write_two_state(sink *k, const gg_grid *g)
{
    uint64_t dollrun = 0;
    const int64_t width = g->width;
    for (int64_t y = 0; y < g->height && !k->failed; y++) {
        const uint64_t *row = gg_grid_row(g, y);
        int64_t last = 0; /* start of the current run */
        uint64_t cur = 0;  /* its state */
        uint64_t carry = 0;
        bool any = false;
        for (int64_t w = 0; w < g->stride; w++) {
            uint64_t v = row[w];
            uint64_t t = v ^ ((v << 1) | carry);
            carry = v >> 63;
            if (!t)
                continue;
            if (!sink_room(k, 64 * 3 + 64))
                return;
            char *o = k->buf + k->len;
            if (!any) {
                any = true;
                if (dollrun) {
                    o = emit(o, &k->linelen, '$', dollrun);
                    dollrun = 0;
                }
            }
            do {
                int64_t b = w * 64 + __builtin_ctzll(t);
                t &= t - 1;
                if (b >= width)
                    break;
                if (b > last)
                    o = emit(o, &k->linelen, cur ? 'o' : 'b',
                             (uint64_t)(b - last));
                last = b;
                cur ^= 1;
            } while (t);
            k->len = (size_t)(o - k->buf);
        }
        if (cur && !k->failed) {
            if (!sink_room(k, 64))
                return;
            k->len = (size_t)(emit(k->buf + k->len, &k->linelen, 'o',
                                   (uint64_t)(width - last)) - k->buf);
        }
        dollrun++;
    }
}

static int write_multi_state(sink *k, const gg_pattern *p)
{
    const gg_grid *g0 = &p->plane[0];
    int64_t wd = g0->width;
    unsigned char *st = malloc((size_t)g0->stride * 64);
    if (!st)
        return gg_fail(k->err, "out of memory writing a %lld-cell row",
                       (long long)wd);
    uint64_t dollrun = 0;
    for (int64_t y = 0; y < g0->height && !k->failed; y++) {
        bool any = false;
        for (int64_t w = 0; w < g0->stride; w++) {
            uint64_t or = 0;
            for (int i = 0; i < p->n_planes; i++)
                or |= gg_grid_row(&p->plane[i], y)[w];
            unsigned char *o = st + w * 64;
            memset(o, 0, 64);
            if (!or)
                continue;
            any = true;
            for (int i = 0; i < p->n_planes; i++) {
                uint64_t v = gg_grid_row(&p->plane[i], y)[w];
                while (v) {
                    int b = __builtin_ctzll(v);
                    v &= v - 1;
                    o[b] |= (unsigned char)(1u << i);
                }
            }
        }
        if (!any) {
            dollrun++;
            continue;
        }
        int64_t x = 0;
        while (x < wd) {
            int64_t a = x;
            while (a < wd && !st[a])
                a++;
            if (a >= wd)
                break;
            int64_t e = a + 1;
            while (e < wd && st[e] == st[a])
                e++;
            if (dollrun) {
                add_run(k, -1, 1, dollrun);
                dollrun = 0;
            }
            if (a > x)
                add_run(k, 0, 1, (uint64_t)(a - x));
            add_run(k, st[a], 1, (uint64_t)(e - a));
            x = e;
        }
        dollrun = 1;
    }
    free(st);
    return 0;
}

/* A w x h box at (x, y) within Golly's coordinates (empty: anywhere). */
static int check_box(int64_t x, int64_t y, int64_t w, int64_t h, gg_err *err)
{
    const int64_t lo = -2147483647LL - 1, hi = 2147483647LL;
    if (w == 0 || h == 0)
        return 0; /* an empty pattern has no place */
    if (x < lo || y < lo || x > hi - (w - 1) || y > hi - (h - 1))
        return gg_fail(err, "cannot write the pattern: its %lldx%lld box at "
                       "(%lld, %lld) reaches beyond Golly's coordinates "
                       "(-2147483648..2147483647), which golgen and Golly "
                       "cannot read back; run fewer generations or on a "
                       "torus (:TW,H)", (long long)w, (long long)h,
                       (long long)x, (long long)y);
    return 0;
}

int gg_pattern_check_coords(const gg_pattern *p, gg_err *err)
{
    if (!p->plane[0].bits)
        return 0;
    return check_box(p->x, p->y, gg_pattern_width(p), gg_pattern_height(p),
                     err);
}

/* The rule a header names: none, or one that reads back as itself. */
static int check_rule(const char *rule, gg_err *err)
{
    if (!rule)
        return 0;
    if (!*rule)
        return gg_fail(err, "cannot write an empty rule; use NULL for none");
    for (const char *r = rule; *r; r++)
        if ((unsigned char)*r <= ' ')
            return gg_fail(err, "cannot write rule \"%s\": a rule has no "
                           "whitespace", rule);
    /* The header reader drops a trailing ',' (as Golly's does), so
     * such a rule (from "#R B3/S23," in Life 1.06, found by fuzzing)
     * would read back as another. */
    if (rule[strlen(rule) - 1] == ',')
        return gg_fail(err, "cannot write rule \"%s\": it ends in ',', "
                       "which an RLE header drops; remove the comma", rule);
    return 0;
}

static int check_pattern(const gg_pattern *p, gg_err *err)
{
    if (gg_pattern_check_coords(p, err))
        return -1;
    if (p->n_planes < 1 || p->n_planes > GG_PATTERN_MAX_PLANES)
        return gg_fail(err, "cannot write a pattern with %d planes (1 to %d)",
                       p->n_planes, GG_PATTERN_MAX_PLANES);
    for (int i = 1; i < p->n_planes; i++)
        if (p->plane[i].width != p->plane[0].width ||
            p->plane[i].height != p->plane[0].height)
            return gg_fail(err, "cannot write a pattern whose planes differ "
                           "in size (plane %d is %lldx%lld, plane 0 %lldx%lld)",
                           i, (long long)p->plane[i].width,
                           (long long)p->plane[i].height,
                           (long long)p->plane[0].width,
                           (long long)p->plane[0].height);
    return check_rule(p->rule, err);
}

/* Does a stored "#CXRLE ..." line give position (x, y) and generation g
 * as the reader reads it? Without Pos it gives the default (dx, dy). */
static bool cxrle_matches(const char *l, int64_t x, int64_t y, int64_t dx,
                          int64_t dy, int64_t g)
{
    const char *nl = strchr(l, '\n');
    size_t n = nl ? (size_t)(nl - l) : strlen(l);
    int64_t px, py, pg;
    return gg_pattern_cxrle_values(l, n, dx, dy, &px, &py, &pg) && px == x &&
           py == y && pg == g;
}

/* Would a first line from these comments make Golly (and gg_pattern_parse)
 * take the file for Life 1.05/1.06 or MCell? Then a #CXRLE line goes
 * first. */
static bool looks_like_other_format(const char *cm)
{
    while (cm && strncmp(cm, "#CXRLE", 6) == 0) {
        cm = strchr(cm, '\n');
        cm = cm ? cm + 1 : NULL;
    }
    return cm && (strncmp(cm, "#Li", 3) == 0 || strncmp(cm, "#P ", 3) == 0 ||
                  strncmp(cm, "#MCell", 6) == 0);
}

/* Would the reader take this comment line for the rule ("#r B3/S23")?
 * Without a rule in the header it would, so such a line from a pattern
 * without a rule is written as "#C #r ..." (found by fuzzing). */
static bool names_rule(const char *l, size_t n)
{
    if (n < 2 || l[0] != '#' || l[1] != 'r')
        return false;
    for (size_t i = 2; i < n; i++)
        if ((unsigned char)l[i] > ' ')
            return true;
    return false;
}

/* The lines before the cells of a w x h box (0 x 0: empty) whose place,
 * generation, rule and comments p gives: #CXRLE, comments, "x = ...". */
static void write_head(sink *k, const gg_pattern *p, int64_t w, int64_t h)
{
    int64_t dx, dy;
    gg_pattern_default_pos(p->rule, w, h, &dx, &dy);
    const char *stored = NULL;
    const char *cm = p->comments;
    for (const char *l = cm; l && *l && !stored;) {
        if (strncmp(l, "#CXRLE", 6) == 0)
            stored = l;
        const char *nl = strchr(l, '\n');
        l = nl ? nl + 1 : l + strlen(l);
    }
    char line[160];
    if (stored && cxrle_matches(stored, p->x, p->y, dx, dy, p->generation)) {
        /* The file's own #CXRLE line still holds: keep it as it was. */
        const char *nl = strchr(stored, '\n');
        sink_put(k, stored, nl ? (size_t)(nl - stored) : strlen(stored));
        sink_str(k, "\n");
    } else if (stored || p->x != dx || p->y != dy || p->generation != 0 ||
               looks_like_other_format(cm)) {
        int n = snprintf(line, sizeof line, "#CXRLE Pos=%lld,%lld",
                         (long long)p->x, (long long)p->y);
        if (p->generation > 0)
            snprintf(line + n, sizeof line - (size_t)n, " Gen=%lld",
                     (long long)p->generation);
        sink_str(k, line);
        sink_str(k, "\n");
    }
    for (const char *l = cm; l && *l;) {
        const char *nl = strchr(l, '\n');
        size_t n = nl ? (size_t)(nl - l) : strlen(l);
        if (strncmp(l, "#CXRLE", 6) != 0) {
            if (*l != '#' || (!p->rule && names_rule(l, n)))
                sink_str(k, "#C ");
            sink_put(k, l, n);
            sink_str(k, "\n");
        }
        l += n + (nl ? 1 : 0);
    }
    snprintf(line, sizeof line, "x = %lld, y = %lld%s", (long long)w,
             (long long)h, p->rule ? ", rule = " : "");
    sink_str(k, line);
    if (p->rule)
        sink_str(k, p->rule);
    sink_str(k, "\n");
    k->linelen = 0;
}

static void write_rle(sink *k, const gg_pattern *p)
{
    int64_t w = gg_pattern_width(p), h = gg_pattern_height(p);
    bool empty = w == 0 || h == 0 || !p->plane[0].bits;
    if (empty)
        w = h = 0;
    write_head(k, p, w, h);
    if (empty) {
        sink_str(k, "!\n");
        return;
    }
    int ms = p->multistate || p->n_planes > 1;
    if (ms) {
        if (write_multi_state(k, p)) {
            k->failed = true;
            return;
        }
    } else {
        write_two_state(k, &p->plane[0]);
    }
    add_run(k, -2, ms, 1);
    sink_str(k, "\n");
}

/* Fills a sink: the whole file's text. */
typedef void (*sink_fill)(sink *k, const void *ctx);

static int format_with(sink_fill fill, const void *ctx, char **text,
                       size_t *len, gg_err *err)
{
    sink k = {.err = err};
    fill(&k, ctx);
    if (!k.failed && !sink_room(&k, 1))
        k.failed = true;
    if (k.failed) {
        free(k.buf);
        return -1;
    }
    k.buf[k.len] = 0;
    *text = k.buf;
    *len = k.len;
    return 0;
}

static int write_with(const char *path, sink_fill fill, const void *ctx,
                      gg_err *err)
{
    gg_atomic_file af;
    if (gg_atomic_open_lazy(path, &af, err))
        return -1;
    sink k = {.err = err, .af = &af, .cap = CHUNK};
    k.buf = malloc(CHUNK);
    if (!k.buf) {
        gg_atomic_abort(&af);
        return gg_fail(err, "cannot write '%s': out of memory", path);
    }
    fill(&k, ctx);
    sink_flush(&k);
    free(k.buf);
    if (k.failed) {
        gg_atomic_abort(&af); /* safe if the failing write already did */
        return -1;
    }
    return gg_atomic_commit(&af, err);
}

static void fill_pattern(sink *k, const void *p) { write_rle(k, p); }

int gg_pattern_format_rle(const gg_pattern *p, char **text, size_t *len,
                          gg_err *err)
{
    *text = NULL;
    *len = 0;
    if (check_pattern(p, err))
        return -1;
    return format_with(fill_pattern, p, text, len, err);
}

int gg_pattern_write_rle(const char *path, const gg_pattern *p, gg_err *err)
{
    if (check_pattern(p, err))
        return -1;
    return write_with(path, fill_pattern, p, err);
}

/* ---- cells given as runs (runtime/formats/rle_runs.h) ---- */

struct gg_rle_out {
    sink *k;
    int ms;
    bool pending;        /* a run waits: the next may continue it */
    int state;
    int64_t x, y, n;     /* the waiting run */
    int64_t cx, cy;      /* where the text has got to */
};

/* The waiting run as text, after the rows and dead cells before it. */
static void out_flush(gg_rle_out *o)
{
    if (!o->pending)
        return;
    o->pending = false;
    sink *k = o->k;
    uint64_t rows = o->y > o->cy ? (uint64_t)(o->y - o->cy) : 0;
    if (rows)
        o->cy = o->y, o->cx = 0;
    uint64_t dead = (uint64_t)(o->x - o->cx);
    o->cx = o->x + o->n;
    if (o->ms) {
        if (rows)
            add_run(k, -1, 1, rows);
        if (dead)
            add_run(k, 0, 1, dead);
        add_run(k, o->state, 1, (uint64_t)o->n);
        return;
    }
    /* two states: the dense writer's emit, one room check for three */
    if (!sink_room(k, 3 * 24))
        return;
    char *t = k->buf + k->len;
    if (rows)
        t = emit(t, &k->linelen, '$', rows);
    if (dead)
        t = emit(t, &k->linelen, 'b', dead);
    t = emit(t, &k->linelen, 'o', (uint64_t)o->n);
    k->len = (size_t)(t - k->buf);
}

static inline void out_run(gg_rle_out *o, int64_t x, int64_t y, int64_t n,
                           int state)
{
    if (o->pending && o->y == y && o->x + o->n == x && o->state == state) {
        o->n += n; /* runs cut at leaf edges join again */
        return;
    }
    out_flush(o);
    o->pending = true;
    o->x = x, o->y = y, o->n = n, o->state = state;
}

void gg_rle_out_run(gg_rle_out *o, int64_t x, int64_t y, int64_t n,
                    int state)
{
    out_run(o, x, y, n, state);
}

void gg_rle_out_bits(gg_rle_out *o, int64_t x, int64_t y, uint64_t bits)
{
    while (bits) {
        int s = __builtin_ctzll(bits);
        uint64_t t = ~(bits >> s);
        int len = t ? __builtin_ctzll(t) : 64 - s;
        out_run(o, x + s, y, len, 1);
        bits = s + len >= 64 ? 0 : bits & (~0ull << (s + len));
    }
}

bool gg_rle_out_failed(const gg_rle_out *o) { return o->k->failed; }

typedef struct body_job {
    const gg_pattern *head;
    int64_t w, h;
    gg_rle_body_fn body;
    void *ctx;
} body_job;

static void fill_body(sink *k, const void *ctx)
{
    const body_job *j = ctx;
    bool empty = j->w == 0 || j->h == 0;
    write_head(k, j->head, empty ? 0 : j->w, empty ? 0 : j->h);
    if (empty) {
        sink_str(k, "!\n");
        return;
    }
    gg_rle_out o = {.k = k,
                    .ms = j->head->multistate || j->head->n_planes > 1};
    if (j->body(j->ctx, &o)) {
        k->failed = true;
        return;
    }
    out_flush(&o);
    add_run(k, -2, o.ms, 1);
    sink_str(k, "\n");
}

int gg_pattern_write_rle_body(const char *path, const gg_pattern *head,
                              int64_t w, int64_t h, gg_rle_body_fn body,
                              void *ctx, gg_err *err)
{
    if (check_box(head->x, head->y, w, h, err) || check_rule(head->rule, err))
        return -1;
    body_job j = {head, w, h, body, ctx};
    if (strcmp(path, "-"))
        return write_with(path, fill_body, &j, err);
    char *text;
    size_t len;
    if (format_with(fill_body, &j, &text, &len, err))
        return -1;
    int rc = gg_pattern_write_text(path, text, len, err);
    free(text);
    return rc;
}

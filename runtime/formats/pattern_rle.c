/* RLE reader, following Golly 3.3's readrle (gollybase/readpattern.cpp)
 * but rejecting what Golly silently skips or misreads. Runs of live cells
 * are written a 64-bit word at a time, so a 32768^2 soup reads in about a
 * second. */
#include "pattern.h"
#include "rle_runs.h"

#include <stdlib.h>
#include <string.h>

#ifdef __SSE2__
#include <emmintrin.h>
#endif

#define MAX_COUNT 2147483647LL /* Golly keeps counts and sizes in an int */
#define MAX_POS (1LL << 62)

typedef struct {
    const char *name, *text, *end;
    gg_err *err;
    char *comments;
    size_t clen, ccap;
    int top; /* the highest state the filling pass wrote */
    gg_stop_flag *stop; /* polled once a row and a line */
    gg_rle_run_fn run;  /* non-NULL: live runs go here, not into planes */
    void *run_ctx;
} rle_ctx;

#define FAIL(...)                                                          \
    (gg_fail(c->err, "%s:%d:%d: " FIRST(__VA_ARGS__) REST(__VA_ARGS__)))
#define FIRST(a, ...) a
#define REST(a, ...) , c->name, line, (int)(s - ls) + 1, ##__VA_ARGS__

static int add_comment(rle_ctx *c, const char *s, const char *e)
{
    size_t n = (size_t)(e - s);
    if (c->clen + n + 2 > c->ccap) {
        size_t cap = c->ccap ? c->ccap : 256;
        while (c->clen + n + 2 > cap)
            cap *= 2;
        char *nb = realloc(c->comments, cap);
        if (!nb)
            return gg_fail(c->err, "%s: out of memory for comments", c->name);
        c->comments = nb;
        c->ccap = cap;
    }
    memcpy(c->comments + c->clen, s, n);
    c->clen += n;
    c->comments[c->clen++] = '\n';
    c->comments[c->clen] = 0;
    return 0;
}

static const char *eol_of(const char *s, const char *end)
{
    while (s < end && *s != '\n' && *s != '\r')
        s++;
    return s;
}

/* Past the end of line: to the first character of the next. */
static const char *next_line(const char *e, const char *end)
{
    if (e < end && *e == '\r')
        e++, (e < end && *e == '\n') ? e++ : 0;
    else if (e < end)
        e++;
    return e;
}

static const char *skip_ws(const char *s, const char *e)
{
    while (s < e && (*s == ' ' || *s == '\t'))
        s++;
    return s;
}

/* Non-negative decimal integer <= MAX_COUNT. */
static int parse_count(rle_ctx *c, int line, const char *ls, const char **sp,
                       const char *e, const char *what, int64_t *v)
{
    const char *s = *sp;
    if (s < e && *s == '-')
        return FAIL("%s must not be negative", what);
    if (s >= e || *s < '0' || *s > '9')
        return FAIL("expected a number for %s", what);
    int64_t n = 0;
    const char *start = s;
    while (s < e && *s >= '0' && *s <= '9') {
        n = n * 10 + (*s - '0');
        if (n > MAX_COUNT) {
            s = start;
            return FAIL("%s is too large (Golly's limit is %lld)", what,
                        MAX_COUNT);
        }
        s++;
    }
    *sp = s;
    *v = n;
    return 0;
}

static int parse_signed(const char **sp, const char *e, int64_t max,
                        int64_t *v)
{
    const char *s = *sp;
    bool neg = false;
    if (s < e && (*s == '-' || *s == '+'))
        neg = *s++ == '-';
    if (s >= e || *s < '0' || *s > '9')
        return -1;
    int64_t n = 0;
    while (s < e && *s >= '0' && *s <= '9') {
        int d = *s - '0';
        if (n > (max - d) / 10) /* before n * 10 can overflow */
            return -1;
        n = n * 10 + d;
        s++;
    }
    *v = neg ? -n : n;
    *sp = s;
    return 0;
}

/* "#CXRLE Pos=X,Y Gen=G" (other keys ignored, as Golly). */
static int parse_cxrle(rle_ctx *c, int line, const char *ls, const char *s,
                       const char *e, bool *sawpos, int64_t *px, int64_t *py,
                       int64_t *gen)
{
    s += 6;
    for (;;) {
        s = skip_ws(s, e);
        if (s >= e)
            return 0;
        const char *key = s;
        while (s < e && *s != '=' && *s != ' ' && *s != '\t')
            s++;
        if (s >= e || *s != '=') {
            continue;
        }
        size_t klen = (size_t)(s - key);
        s++;
        if (klen == 3 && memcmp(key, "Pos", 3) == 0) {
            int64_t x, y;
            if (parse_signed(&s, e, MAX_POS, &x) || s >= e || *s != ',' ||
                (s++, parse_signed(&s, e, MAX_POS, &y)))
                return FAIL("bad #CXRLE Pos value; write it as Pos=X,Y with "
                            "integers, e.g. Pos=-3,-1");
            *px = x, *py = y, *sawpos = true;
        } else if (klen == 3 && memcmp(key, "Gen", 3) == 0) {
            int64_t g;
            /* any int64: a run refuses what it cannot add to */
            if (s >= e || *s == '-' || parse_signed(&s, e, INT64_MAX, &g))
                return FAIL("bad #CXRLE Gen value; write it as Gen=N with a "
                            "non-negative integer below 2^63");
            *gen = g;
        }
        while (s < e && *s != ' ' && *s != '\t')
            s++;
    }
}

bool gg_pattern_cxrle_values(const char *line, size_t n, int64_t dx,
                             int64_t dy, int64_t *x, int64_t *y, int64_t *gen)
{
    gg_err ignored;
    rle_ctx ctx = {.name = "", .err = &ignored}, *c = &ctx;
    bool sawpos = false;
    *x = dx, *y = dy, *gen = 0;
    if (n < 6 || memcmp(line, "#CXRLE", 6) != 0)
        return false;
    return parse_cxrle(c, 1, line, line, line + n, &sawpos, x, y, gen) == 0;
}

/* The header line "x = W, y = H, rule = R" (rule optional). */
static int parse_header(rle_ctx *c, int line, const char *ls, const char *s,
                        const char *e, int64_t *w, int64_t *h, char **rule)
{
    static const char *hint = "; the header reads \"x = W, y = H, rule = R\"";
    s = skip_ws(s + 1, e);
    if (s >= e || *s != '=')
        return FAIL("expected '=' after x in the header%s", hint);
    s = skip_ws(s + 1, e);
    if (parse_count(c, line, ls, &s, e, "the width x", w))
        return -1;
    s = skip_ws(s, e);
    if (s >= e || *s != ',')
        return FAIL("expected ',' after the width%s", hint);
    s = skip_ws(s + 1, e);
    if (s >= e || *s != 'y')
        return FAIL("expected 'y' after the width%s", hint);
    s = skip_ws(s + 1, e);
    if (s >= e || *s != '=')
        return FAIL("expected '=' after y in the header%s", hint);
    s = skip_ws(s + 1, e);
    if (parse_count(c, line, ls, &s, e, "the height y", h))
        return -1;
    s = skip_ws(s, e);
    if (s < e && *s == ',') {
        s = skip_ws(s + 1, e);
        if (e - s < 4 || memcmp(s, "rule", 4) != 0)
            return FAIL("expected 'rule' after the height%s", hint);
        s = skip_ws(s + 4, e);
        if (s >= e || *s != '=')
            return FAIL("expected '=' after rule in the header%s", hint);
        s = skip_ws(s + 1, e);
        const char *r = s;
        while (s < e && (unsigned char)*s > ' ')
            s++;
        const char *re = s;
        if (re > r && re[-1] == ',')
            re--;
        if (re == r)
            return FAIL("the rule after 'rule =' is missing%s", hint);
        *rule = malloc((size_t)(re - r) + 1);
        if (!*rule)
            return gg_fail(c->err, "%s: out of memory", c->name);
        memcpy(*rule, r, (size_t)(re - r));
        (*rule)[re - r] = 0;
        s = skip_ws(s, e);
    }
    if (s < e)
        return FAIL("unexpected text '%.*s' at the end of the header%s",
                    (int)(e - s < 20 ? e - s : 20), s, hint);
    return 0;
}

static int alloc_box(rle_ctx *c, gg_pattern *p, int64_t w, int64_t h,
                     int line)
{
    gg_err e2;
    if (gg_pattern_init(p, w, h, 1, &e2))
        return gg_fail(c->err, "%s:%d: the header's box x = %lld, y = %lld "
                       "cannot be held: %s", c->name, line, (long long)w,
                       (long long)h, e2.msg);
    return 0;
}

static inline void set_run(uint64_t *row, int64_t x, int64_t n)
{
    int64_t w = x >> 6;
    int b = (int)(x & 63);
    if (b + n <= 64) {
        row[w] |= (n == 64 ? ~0ull : ((1ull << n) - 1)) << b;
        return;
    }
    row[w++] |= ~0ull << b;
    n -= 64 - b;
    for (; n >= 64; n -= 64)
        row[w++] = ~0ull;
    if (n)
        row[w] |= (1ull << n) - 1;
}

/* Masks of 'b', 'o' and '1'..'9' among the 64 bytes at s (bit i = s[i]). */
static inline void classify64(const char *s, uint64_t *mb, uint64_t *mo,
                              uint64_t *md)
{
#ifdef __SSE2__
    const __m128i cb = _mm_set1_epi8('b'), co = _mm_set1_epi8('o');
    const __m128i c0 = _mm_set1_epi8('0'), c10 = _mm_set1_epi8(':');
    uint64_t b = 0, o = 0, d = 0;
    for (int i = 0; i < 4; i++) {
        __m128i v = _mm_loadu_si128((const __m128i *)(const void *)(s + 16 * i));
        b |= (uint64_t)(uint16_t)_mm_movemask_epi8(_mm_cmpeq_epi8(v, cb))
             << (16 * i);
        o |= (uint64_t)(uint16_t)_mm_movemask_epi8(_mm_cmpeq_epi8(v, co))
             << (16 * i);
        __m128i dig = _mm_and_si128(_mm_cmpgt_epi8(v, c0),
                                    _mm_cmplt_epi8(v, c10));
        d |= (uint64_t)(uint16_t)_mm_movemask_epi8(dig) << (16 * i);
    }
    *mb = b, *mo = o, *md = d;
#else
    uint64_t b = 0, o = 0, d = 0;
    for (int i = 0; i < 64; i++) {
        unsigned char ch = (unsigned char)s[i];
        b |= (uint64_t)(ch == 'b') << i;
        o |= (uint64_t)(ch == 'o') << i;
        d |= (uint64_t)(ch >= '1' && ch <= '9') << i;
    }
    *mb = b, *mo = o, *md = d;
#endif
}

/* Two-state runs of "b", "o", "Nb", "No" (N one digit 1..9) from s, 64 bytes
 * at a time: the byte classes come from vector compares and the cells'
 * positions from a running sum, so there is no chain of dependent loads or
 * data-dependent branches. Stops before anything else (a '$', a longer
 * count, the end of a line) and near the row's end; returns where it
 * stopped, always at a token boundary. */
static const char *rle_blocks(const char *s, const char *end, uint64_t *row,
                              int64_t *xp, int64_t w, uint64_t *live)
{
    int64_t x = *xp;
    if (end - s < 64 || x + 320 > w)
        return s;
    /* Cells collect in a 128-bit register over words cw and cw + 1 (a
     * read-modify-write of memory per run would chain through store
     * forwarding). */
    int64_t cw = x >> 6;
    unsigned __int128 acc = 0;
    uint64_t any = 0; /* a local: row stores may alias *live */
    int b = (int)(x & 63);
    /* A block of 64 bytes advances x by at most 32 * 9 cells. */
    while (end - s >= 64 && x + 320 <= w) {
        uint64_t mb, mo, md;
        classify64(s, &mb, &mo, &md);
        uint64_t letters = mb | mo;
        uint64_t bad = ~(letters | md) | (md & (md >> 1));
        uint64_t valid = bad ? (1ull << __builtin_ctzll(bad)) - 1 : ~0ull;
        uint64_t todo = letters & valid;
        if (!todo)
            break;
        any |= mo & valid;
        uint64_t dprev = md << 1; /* bit i: a digit right before byte i */
        int last = 63 - __builtin_clzll(todo);
        do {
            int i = __builtin_ctzll(todo);
            todo &= todo - 1;
            uint64_t dbit = (dprev >> i) & 1;
            unsigned ch = (unsigned char)s[i - (int)dbit];
            int len = 1 + (int)((ch - '0' - 1) & (0u - (unsigned)dbit));
            uint64_t m = ((1ull << len) - 1) & (0 - ((mo >> i) & 1));
            acc |= (unsigned __int128)m << b;
            b += len;
            if (b >= 64) {
                row[cw++] |= (uint64_t)acc;
                acc >>= 64;
                b -= 64;
            }
        } while (todo);
        x = cw * 64 + b;
        s += last + 1;
    }
    row[cw] |= (uint64_t)acc;
    if (cw + 1 < (w + 63) / 64)
        row[cw + 1] |= (uint64_t)(acc >> 64);
    *xp = x;
    *live |= any;
    return s;
}

/* The RLE data from s. With fill, cells go into p (whose box is w x h) and
 * '#' lines into the comments; without, only the extent of the live cells
 * is measured into *mx, *my (-1 when none). */
static int rle_data(rle_ctx *c, gg_pattern *p, bool fill, bool header,
                    int64_t w, int64_t h, const char *s, int line,
                    const char *ls, int64_t *mx, int64_t *my)
{
    const char *end = c->end;
    int64_t x = 0, y = 0, n = 0, maxx = -1, maxy = -1;
    const char *ns = s; /* where the current count began */
    bool at_line_start = true;
    const bool fast = fill && header && w > 0 && !c->run;
    uint64_t seen = 0; /* nonzero once the fast paths wrote a live run */
    while (s < end) {
        if (fast && n == 0 && !at_line_start && y < h && end - s > 3) {
            /* Hot loop for "[d]b" and "[d]o" runs of at most 9 cells, free
             * of data-dependent branches (a soup's run lengths are
             * random); anything else drops to the careful code below. */
            uint64_t *row = gg_grid_row(&p->plane[0], y);
            s = rle_blocks(s, end, row, &x, w, &seen);
            const char *lim = end - 3;
            while (s < lim) {
                unsigned d0 = (unsigned char)s[0] - '0';
                unsigned d1 = (unsigned char)s[1] - '0';
                if (d0 == 0 || (d0 < 10 && d1 < 10))
                    break;
                unsigned isd = d0 < 10;
                /* kk = isd ? d0 : 1, written so it stays branch-free */
                int64_t kk = 1 + (int64_t)((d0 - 1) & (0u - isd));
                unsigned char ch2 = (unsigned char)s[isd];
                uint64_t live = ch2 == 'o';
                if (!(live | (ch2 == 'b')) || x + kk > w)
                    break;
                uint64_t m = ((1ull << kk) - 1) & (0 - live);
                seen |= m;
                int b = (int)(x & 63);
                row[x >> 6] |= m << b;
                if (b + kk > 64)
                    row[(x >> 6) + 1] |= m >> (64 - b);
                x += kk;
                s += isd + 1;
            }
            if (s >= end)
                break;
        }
        if (at_line_start) {
            at_line_start = false;
            const char *q = skip_ws(s, end);
            if (q < end && *q == '#') {
                const char *e = eol_of(q, end);
                if (fill && add_comment(c, q, e))
                    return -1;
                s = e;
                continue;
            }
            if (q < end && *q == 'x' &&
                (q + 1 == end || q[1] == '=' || (unsigned char)q[1] <= ' ')) {
                s = q;
                return FAIL("%s", header ? "a second header line; a file has "
                                           "one header, before the pattern "
                                           "data"
                                         : "the header line comes after "
                                           "pattern data; move it before the "
                                           "first row");
            }
        }
        char ch = *s;
        if (ch >= '0' && ch <= '9') {
            if (ch == '0' && n == 0)
                return FAIL("a run count starts with 0; write counts without "
                            "leading zeros");
            if (n == 0)
                ns = s;
            n = n * 10 + (ch - '0');
            if (n > MAX_COUNT) {
                s = ns;
                return FAIL("run count is too large (Golly's limit is %lld)",
                            MAX_COUNT);
            }
            s++;
            continue;
        }
        int64_t k = n ? n : 1;
        int state;
        switch (ch) {
        case 'b':
        case '.':
            x += k;
            if (x > MAX_COUNT)
                return FAIL("the row extends past x = %lld", MAX_COUNT);
            n = 0;
            s++;
            continue;
        case '$':
            x = 0;
            y += k;
            if (y > MAX_COUNT)
                return FAIL("the pattern extends past y = %lld", MAX_COUNT);
            if (gg_stop_asked(c->stop))
                return gg_fail(c->err, "stopped while reading '%s'",
                               c->name);
            n = 0;
            s++;
            continue;
        case '!':
            goto done;
        case ' ':
        case '\t':
            if (n)
                return FAIL("whitespace after a run count; put the count "
                            "right before its letter");
            s++;
            continue;
        case '\r':
        case '\n':
            /* A count may continue on the next line, as Golly reads it
             * (writers that wrap at a fixed width split counts). */
            if (gg_stop_asked(c->stop))
                return gg_fail(c->err, "stopped while reading '%s'",
                               c->name);
            s = next_line(s, end);
            line++;
            ls = s;
            at_line_start = true;
            continue;
        case 'o':
            state = 1;
            break;
        default:
            if (ch >= 'A' && ch <= 'X') {
                state = ch - 'A' + 1;
                p->multistate = true;
            } else if (ch >= 'p' && ch <= 'y') {
                if (s + 1 < end && s[1] >= 'A' && s[1] <= 'X') {
                    state = 24 * (ch - 'p' + 1) + (s[1] - 'A' + 1);
                    if (state > 255)
                        return FAIL("state %d is above 255, the most this "
                                    "reader keeps", state);
                    p->multistate = true;
                    s++;
                } else {
                    state = 1; /* Golly reads a lone p..y as state 1 */
                }
            } else if ((unsigned char)ch < ' ' || (unsigned char)ch > '~') {
                return FAIL("unexpected byte 0x%02x in RLE data; only run "
                            "counts, b o $ ! and state letters belong there",
                            (unsigned char)ch);
            } else if (ch == '-') {
                return FAIL("'-' in RLE data; run counts must be positive "
                            "integers");
            } else {
                return FAIL("unexpected character '%c' in RLE data; use b and "
                            "o for two-state cells, . A-X (and pA-yO) for "
                            "multi-state, $ for a new row and ! at the end",
                            ch);
            }
        }
        /* A run of k cells of state `state` at (x, y). */
        if (header && (x + k > w || y >= h)) {
            if (y >= h)
                return FAIL("live cell in row %lld, below the header's "
                            "y = %lld; fix the header's height", (long long)y,
                            (long long)h);
            return FAIL("live cell at column %lld, past the header's "
                        "x = %lld; fix the header's width",
                        (long long)(x + k - 1), (long long)w);
        }
        if (x + k > MAX_COUNT)
            return FAIL("the row extends past x = %lld", MAX_COUNT);
        if (fill) {
            /* every cell is written once (x and y only grow), so the
             * highest state written is the pattern's */
            if (state > c->top)
                c->top = state;
            if (c->run) {
                if (c->run(c->run_ctx, x, y, k, state, c->err))
                    return -1;
            } else if (state == 1) {
                set_run(gg_grid_row(&p->plane[0], y), x, k);
            } else {
                while (state >> p->n_planes) {
                    if (gg_grid_init(&p->plane[p->n_planes], w, h, c->err))
                        return -1;
                    p->n_planes++;
                }
                for (int i = 0; i < p->n_planes; i++)
                    if ((state >> i) & 1)
                        set_run(gg_grid_row(&p->plane[i], y), x, k);
            }
        } else {
            if (x + k - 1 > maxx)
                maxx = x + k - 1;
            maxy = y;
        }
        x += k;
        n = 0;
        s++;
    }
    /* Golly accepts a missing '!', but every RLE writer ends with one, and a
     * file cut off on a token boundary would otherwise read as a smaller
     * pattern without a word: refuse it. */
    if (n)
        return FAIL("the file ends inside a run count; it looks truncated");
    return FAIL("the pattern data ends without '!'; the file looks "
                "truncated (if it is complete, end it with '!')");
done:
    if (mx)
        *mx = maxx, *my = maxy;
    if (seen && c->top < 1)
        c->top = 1;
    return 0;
}

int gg_pattern_parse_rle(const char *text, size_t len, const char *name,
                         gg_pattern *p, gg_err *err)
{
    return gg_pattern_parse_rle_stop(text, len, name, NULL, p, err);
}

/* Does the first non-blank line name another format that starts with
 * '#' (Life 1.05/1.06, MCell), as gg_pattern_parse tells them apart? */
static bool other_format(const char *s, const char *end)
{
    for (;;) {
        const char *e = eol_of(s, end), *q = skip_ws(s, end);
        if (q < e)
            break;
        if (e >= end)
            return false;
        s = next_line(e, end);
    }
    size_t n = (size_t)(end - s);
    return (n >= 3 && (!memcmp(s, "#Li", 3) || !memcmp(s, "#P ", 3))) ||
           (n >= 6 && !memcmp(s, "#MCell", 6));
}

/* The parse; with run set (sparse, cells_per_byte), 1 when the text is
 * not an RLE with a header whose box has more cells than that a byte. */
static int parse_rle(const char *text, size_t len, const char *name,
                     gg_stop_flag *stop, gg_rle_run_fn run, void *run_ctx,
                     double cells_per_byte, gg_pattern *p, int64_t *wp,
                     int64_t *hp, gg_err *err)
{
    memset(p, 0, sizeof *p);
    rle_ctx ctx = {.name = name ? name : "<pattern>", .text = text,
                   .end = text + len, .err = err, .stop = stop, .run = run,
                   .run_ctx = run_ctx};
    rle_ctx *c = &ctx;
    const char *s = text, *end = text + len;
    if (len >= 3 && memcmp(s, "\xEF\xBB\xBF", 3) == 0)
        s += 3;
    if (run && (memchr(text, 0, len < 4096 ? len : 4096) ||
                other_format(s, end)))
        return 1; /* gg_pattern_parse's to refuse or to read */
    int line = 1;
    const char *ls = s;
    bool sawpos = false, header = false, first = true;
    int hline = 0;
    int64_t px = 0, py = 0, gen = 0, w = 0, h = 0;
    char *rule = NULL, *hash_rule = NULL;
    int rc = -1;

    /* Lines before the data: blanks, '#' lines, the header. */
    for (;;) {
        if (s >= end)
            break;
        const char *e = eol_of(s, end);
        const char *q = skip_ws(s, e);
        if (q == e) {
            s = next_line(e, end);
            line++;
            ls = s;
            continue;
        }
        if (*q == '#') {
            /* Golly honours #CXRLE only in the leading lines. */
            if (first && e - q >= 6 && memcmp(q, "#CXRLE", 6) == 0) {
                if (parse_cxrle(c, line, ls, q, e, &sawpos, &px, &py, &gen))
                    goto out;
            } else {
                first = false;
            }
            /* e - q: a lone '#' may end the text (found by fuzzing) */
            if (e - q >= 2 && q[1] == 'r' && !hash_rule) {
                const char *r = skip_ws(q + 2, e), *re = r;
                while (re < e && (unsigned char)*re > ' ')
                    re++;
                if (re > r && !(hash_rule = strndup(r, (size_t)(re - r)))) {
                    gg_fail(err, "%s: out of memory", c->name);
                    goto out;
                }
            }
            if (add_comment(c, q, e))
                goto out;
            s = next_line(e, end);
            line++;
            ls = s;
            continue;
        }
        first = false;
        if (*q == 'x' && (q + 1 == e || q[1] == '=' ||
                          (unsigned char)q[1] <= ' ')) {
            if (header) {
                s = q;
                FAIL("a second header line; a file has one header");
                goto out;
            }
            if (parse_header(c, line, ls, q, e, &w, &h, &rule))
                goto out;
            header = true;
            hline = line;
            s = next_line(e, end);
            line++;
            ls = s;
            continue;
        }
        break; /* pattern data starts here */
    }
    if (!rule && hash_rule) {
        rule = hash_rule;
        hash_rule = NULL;
    }

    if (run && (!header || (double)w * (double)h <=
                               cells_per_byte * (double)len)) {
        rc = 1; /* no box to spare, or none known before the cells */
        goto out;
    }
    if (run) {
        p->n_planes = 1;
        if (rle_data(c, p, true, true, w, h, s, line, ls, NULL, NULL))
            goto out;
        *wp = w, *hp = h;
    } else if (header) {
        if (w > 0 && h > 0) {
            if (alloc_box(c, p, w, h, hline))
                goto out;
        } else {
            p->n_planes = 1;
        }
        if (rle_data(c, p, true, true, w, h, s, line, ls, NULL, NULL))
            goto out;
    } else {
        int64_t mx, my;
        bool ms = false;
        if (rle_data(c, p, false, false, 0, 0, s, line, ls, &mx, &my))
            goto out;
        ms = p->multistate;
        if (mx >= 0) {
            w = mx + 1;
            h = my + 1;
            if (alloc_box(c, p, w, h, line))
                goto out;
        } else {
            p->n_planes = 1;
            w = h = 0;
        }
        if (rle_data(c, p, true, true, w, h, s, line, ls, NULL, NULL))
            goto out;
        p->multistate |= ms;
    }
    if (sawpos) {
        p->x = px;
        p->y = py;
        p->positioned = true;
    } else {
        gg_pattern_default_pos(rule, header ? w : 0, header ? h : 0, &p->x,
                               &p->y);
    }
    p->generation = gen;
    p->known_max = c->top + 1;
    p->rule = rule;
    rule = NULL;
    p->comments = c->comments;
    c->comments = NULL;
    rc = 0;
out:
    if (rc)
        gg_pattern_free(p);
    free(rule);
    free(hash_rule);
    free(c->comments);
    return rc;
}

int gg_pattern_parse_rle_stop(const char *text, size_t len, const char *name,
                              gg_stop_flag *stop, gg_pattern *p, gg_err *err)
{
    return parse_rle(text, len, name, stop, NULL, NULL, 0, p, NULL, NULL,
                     err);
}

int gg_pattern_parse_rle_runs(const char *text, size_t len, const char *name,
                              gg_stop_flag *stop, double cells_per_byte,
                              gg_rle_run_fn fn, void *ctx, gg_pattern *head,
                              int64_t *w, int64_t *h, gg_err *err)
{
    *w = *h = 0;
    return parse_rle(text, len, name, stop, fn, ctx, cells_per_byte, head, w,
                     h, err);
}

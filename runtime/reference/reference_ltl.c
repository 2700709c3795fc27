#include "reference_ltl.h"

#include <stdlib.h>
#include <string.h>

static int grow(void **p, size_t *cap, size_t n, size_t elem, gg_err *err)
{
    if (n <= *cap)
        return 0;
    void *q = realloc(*p, n * elem);
    if (!q)
        return gg_fail(err, "out of memory for the Larger than Life "
                       "reference's sums (%zu bytes)", n * elem);
    *p = q;
    *cap = n;
    return 0;
}

int gg_ltl_ref_init(gg_ltl_ref *s, const gg_ltl_rule *rule, gg_err *err)
{
    memset(s, 0, sizeof *s);
    s->rule = *rule;
    s->max_count = gg_ltl_nbhd_cells(rule);
    size_t n = (size_t)s->max_count + 1;
    s->born = calloc(n, 1);
    s->survive = calloc(n, 1);
    s->half = calloc(2 * (size_t)rule->range + 1, sizeof *s->half);
    if (!s->born || !s->survive || !s->half) {
        gg_ltl_ref_free(s);
        return gg_fail(err, "out of memory for a Larger than Life rule");
    }
    /* counts with the middle in: a live middle counts itself, so M0's
     * survival counts are one below */
    for (int64_t c = 0; c <= s->max_count; c++) {
        s->born[c] = gg_ltl_in(rule->b_lo, rule->b_hi, rule->n_b, c);
        int64_t sc = rule->middle ? c : c - 1;
        s->survive[c] = sc >= 0 &&
                        gg_ltl_in(rule->s_lo, rule->s_hi, rule->n_s, sc);
    }
    gg_ltl_circle(rule->range, s->half);
    return 0;
}

void gg_ltl_ref_free(gg_ltl_ref *s)
{
    free(s->born);
    free(s->survive);
    free(s->half);
    free(s->live);
    free(s->sum1);
    free(s->sum2);
    free(s->count);
    memset(s, 0, sizeof *s);
}

static inline int64_t wrap(int64_t v, int64_t n)
{
    v %= n;
    return v < 0 ? v + n : v;
}

static inline uint8_t next_state(const gg_ltl_ref *s, uint8_t st, int32_t c)
{
    if (st == 0)
        return s->born[c];
    if (st == 1)
        return s->survive[c] ? 1 : s->rule.states > 2 ? 2 : 0;
    return st + 1 < s->rule.states ? (uint8_t)(st + 1) : 0;
}

static void apply_row(const gg_ltl_ref *s, const uint8_t *cur, uint8_t *next,
                      int64_t w)
{
    for (int64_t x = 0; x < w; x++)
        next[x] = next_state(s, cur[x], s->count[x]);
}

/* live: the grid's state-1 cells, P = R+1 cells of padding on each side
 * (wrapped copies on a torus, 0 on a plane). */
static void fill_live(gg_ltl_ref *s, const uint8_t *cur, int64_t w,
                      int64_t h, bool torus, int64_t P)
{
    int64_t pw = w + 2 * P, ph = h + 2 * P;
    for (int64_t py = 0; py < ph; py++) {
        uint8_t *row = s->live + py * pw;
        int64_t sy = py - P;
        if (torus)
            sy = wrap(sy, h);
        else if (sy < 0 || sy >= h) {
            memset(row, 0, (size_t)pw);
            continue;
        }
        const uint8_t *src = cur + sy * w;
        for (int64_t x = 0; x < w; x++)
            row[P + x] = src[x] == 1;
        for (int64_t px = 0; px < P; px++) {
            row[px] = torus ? row[P + wrap(px - P, w)] : 0;
            row[P + w + px] = torus ? row[P + wrap(w + px, w)] : 0;
        }
    }
}

/* The box: column sums over 2R+1 rows, moved down a row at a time, and
 * their sliding window along the row. */
static int moore(gg_ltl_ref *s, const uint8_t *cur, uint8_t *next, int64_t w,
                 int64_t h, int64_t P, gg_stop_flag *stop)
{
    int64_t R = s->rule.range, pw = w + 2 * P;
    int32_t *col = s->sum1;
    const uint8_t *live = s->live;
    for (int64_t px = 0; px < pw; px++) {
        int32_t c = 0;
        for (int64_t py = P - R; py <= P + R; py++)
            c += live[py * pw + px];
        col[px] = c;
    }
    for (int64_t y = 0; y < h; y++) {
        if (gg_stop_asked(stop))
            return 1;
        int64_t py = P + y;
        int32_t sum = 0;
        for (int64_t px = P - R; px <= P + R; px++)
            sum += col[px];
        for (int64_t x = 0; x < w; x++) {
            s->count[x] = sum;
            sum += col[P + x + R + 1] - col[P + x - R];
        }
        apply_row(s, cur + y * w, next + y * w, w);
        if (y + 1 < h) {
            const uint8_t *in = live + (py + R + 1) * pw,
                          *out = live + (py - R) * pw;
            for (int64_t px = 0; px < pw; px++)
                col[px] += in[px] - out[px];
        }
    }
    return 0;
}

/* The diamond: d1 sums down-right diagonals, d2 down-left ones. */
static int neumann(gg_ltl_ref *s, const uint8_t *cur, uint8_t *next,
                   int64_t w, int64_t h, int64_t P, gg_stop_flag *stop)
{
    int64_t R = s->rule.range, pw = w + 2 * P, ph = h + 2 * P;
    int32_t *d1 = s->sum1, *d2 = s->sum2;
    const uint8_t *live = s->live;
    for (int64_t py = 0; py < ph; py++)
        for (int64_t px = 0; px < pw; px++) {
            int64_t i = py * pw + px;
            d1[i] = live[i] + (px > 0 && py > 0 ? d1[i - pw - 1] : 0);
            d2[i] = live[i] + (px < pw - 1 && py > 0 ? d2[i - pw + 1] : 0);
        }
#define D1(x, y) d1[(y) * pw + (x)]
#define D2(x, y) d2[(y) * pw + (x)]
/* k cells from (x0, y0) down-right / down-left */
#define L1(x0, y0, k) (D1((x0) + (k) - 1, (y0) + (k) - 1) - D1((x0) - 1, (y0) - 1))
#define L2(x0, y0, k) (D2((x0) - (k) + 1, (y0) + (k) - 1) - D2((x0) + 1, (y0) - 1))
    int32_t first = 0; /* the diamond at the grid's (0, 0) */
    for (int64_t j = -R; j <= R; j++) {
        int64_t hw = R - (j < 0 ? -j : j);
        for (int64_t i = -hw; i <= hw; i++)
            first += live[(P + j) * pw + P + i];
    }
    for (int64_t y = 0; y < h; y++) {
        if (gg_stop_asked(stop))
            return 1;
        int64_t py = P + y;
        int32_t d = first;
        for (int64_t x = 0; x < w; x++) {
            int64_t px = P + x;
            s->count[x] = d;
            if (x + 1 < w)
                d += L1(px + 1, py - R, R + 1) + L2(px + R, py + 1, R) -
                     L2(px, py - R, R + 1) - L1(px - R + 1, py + 1, R);
        }
        apply_row(s, cur + y * w, next + y * w, w);
        if (y + 1 < h)
            first += L1(P - R, py + 1, R + 1) + L2(P + R, py + 1, R) -
                     L2(P, py - R, R + 1) - L1(P + 1, py - R + 1, R);
    }
#undef D1
#undef D2
#undef L1
#undef L2
    return 0;
}

/* The circle: one difference of row prefix sums per row of it. */
static int circle(gg_ltl_ref *s, const uint8_t *cur, uint8_t *next,
                  int64_t w, int64_t h, int64_t P, gg_stop_flag *stop)
{
    int64_t R = s->rule.range, pw = w + 2 * P, ph = h + 2 * P, rw = pw + 1;
    int32_t *pre = s->sum1;
    for (int64_t py = 0; py < ph; py++) {
        int32_t *row = pre + py * rw;
        const uint8_t *l = s->live + py * pw;
        row[0] = 0;
        for (int64_t px = 0; px < pw; px++)
            row[px + 1] = row[px] + l[px];
    }
    for (int64_t y = 0; y < h; y++) {
        if (gg_stop_asked(stop))
            return 1;
        for (int64_t x = 0; x < w; x++) {
            int64_t px = P + x;
            int32_t c = 0;
            for (int64_t j = -R; j <= R; j++) {
                const int32_t *row = pre + (P + y + j) * rw;
                int hw = s->half[j + R];
                c += row[px + hw + 1] - row[px - hw];
            }
            s->count[x] = c;
        }
        apply_row(s, cur + y * w, next + y * w, w);
    }
    return 0;
}

int gg_ltl_ref_step(gg_ltl_ref *s, const uint8_t *cur, uint8_t *next,
                    int64_t w, int64_t h, bool torus, gg_stop_flag *stop,
                    gg_err *err)
{
    int64_t P = s->rule.range + 1, pw = w + 2 * P, ph = h + 2 * P;
    size_t cells = (size_t)pw * (size_t)ph;
    size_t sums = s->rule.nbhd == 'M' ? (size_t)pw
                  : s->rule.nbhd == 'N' ? cells
                                        : (size_t)(pw + 1) * (size_t)ph;
    if (grow((void **)&s->live, &s->cap_live, cells, 1, err) ||
        grow((void **)&s->count, &s->cap_count, (size_t)w, sizeof(int32_t),
             err))
        return -1;
    if (grow((void **)&s->sum1, &s->cap_sum1, sums, sizeof(int32_t), err) ||
        (s->rule.nbhd == 'N' &&
         grow((void **)&s->sum2, &s->cap_sum2, sums, sizeof(int32_t), err)))
        return -1;
    fill_live(s, cur, w, h, torus, P);
    if (s->rule.nbhd == 'M')
        return moore(s, cur, next, w, h, P, stop);
    if (s->rule.nbhd == 'N')
        return neumann(s, cur, next, w, h, P, stop);
    return circle(s, cur, next, w, h, P, stop);
}

static bool member(const gg_ltl_rule *r, int64_t dx, int64_t dy)
{
    int64_t R = r->range;
    if (r->nbhd == 'M')
        return true;
    if (r->nbhd == 'N')
        return (dx < 0 ? -dx : dx) + (dy < 0 ? -dy : dy) <= R;
    return dx * dx + dy * dy <= R * R + R;
}

void gg_ltl_ref_step_direct(const gg_ltl_rule *rule, const uint8_t *cur,
                            uint8_t *next, int64_t w, int64_t h, bool torus)
{
    int64_t R = rule->range;
    for (int64_t y = 0; y < h; y++)
        for (int64_t x = 0; x < w; x++) {
            int64_t c = 0;
            for (int64_t dy = -R; dy <= R; dy++)
                for (int64_t dx = -R; dx <= R; dx++) {
                    int64_t sx = x + dx, sy = y + dy;
                    if (!member(rule, dx, dy))
                        continue;
                    if (torus) {
                        sx = wrap(sx, w);
                        sy = wrap(sy, h);
                    } else if (sx < 0 || sy < 0 || sx >= w || sy >= h) {
                        continue;
                    }
                    c += cur[sy * w + sx] == 1;
                }
            uint8_t st = cur[y * w + x], out;
            if (st == 0)
                out = gg_ltl_in(rule->b_lo, rule->b_hi, rule->n_b, c);
            else if (st == 1)
                out = gg_ltl_in(rule->s_lo, rule->s_hi, rule->n_s,
                                rule->middle ? c : c - 1)
                          ? 1
                      : rule->states > 2 ? 2
                                         : 0;
            else
                out = st + 1 < rule->states ? (uint8_t)(st + 1) : 0;
            next[y * w + x] = out;
        }
}

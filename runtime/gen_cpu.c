#include "gen_cpu.h"

#include <stdlib.h>
#include <string.h>

#include "reference_gen.h"
#include "rule_gen.h"

typedef struct step_ctx {
    int n_planes;
    int64_t w, h, stride;
    bool torus;
    gg_nbhd nbhd;
    int n_nb;
    int nb_index[GG_MAX_NEIGHBOURS]; /* (dy + 1) * 3 + (dx + 1) */
    uint32_t birth, survive;
    int last; /* C - 1: goes to 0 */
    uint64_t tail;
    const uint64_t *zero; /* a row of 0 words: outside the plane */
} step_ctx;

/* Full adder: s = a + b + c (mod 2), carry. */
#define FA(a, b, c, s, k)                                                   \
    do {                                                                    \
        uint64_t t_ = (a) ^ (b);                                            \
        (s) = t_ ^ (c);                                                     \
        (k) = ((a) & (b)) | (t_ & (c));                                     \
    } while (0)

static inline uint64_t minterm(const uint64_t cnt[4], int k)
{
    uint64_t m = ~0ull;
    for (int j = 0; j < 4; j++)
        m &= (k >> j) & 1 ? cnt[j] : ~cnt[j];
    return m;
}

/* One output row: s1 is the "state == 1" plane (stride words a row),
 * in/out the state planes. */
static void step_row(const step_ctx *c, const uint64_t *s1,
                     uint64_t *const *in, uint64_t *const *out, int64_t y)
{
    const uint64_t *rows[3];
    uint64_t wrap_w[3], wrap_e[3];
    int64_t nw = c->stride, w = c->w;
    for (int r = 0; r < 3; r++) {
        int64_t yy = y + r - 1;
        if (yy < 0 || yy >= c->h) {
            if (!c->torus) {
                rows[r] = c->zero;
                wrap_w[r] = wrap_e[r] = 0;
                continue;
            }
            yy = (yy + c->h) % c->h;
        }
        rows[r] = s1 + yy * nw;
        /* torus: cell -1 is cell w-1, cell w is cell 0 */
        wrap_w[r] = c->torus ? (rows[r][(w - 1) >> 6] >> ((w - 1) & 63)) & 1
                             : 0;
        wrap_e[r] = c->torus ? rows[r][0] & 1 : 0;
    }
    int shift_e = (int)((w - 1) & 63);
    int64_t off = y * nw;
    for (int64_t i = 0; i < nw; i++) {
        uint64_t nb[9];
        for (int r = 0; r < 3; r++) {
            const uint64_t *R = rows[r];
            uint64_t m = R[i];
            uint64_t west = (m << 1) | (i ? R[i - 1] >> 63 : wrap_w[r]);
            uint64_t east = (m >> 1);
            if (i + 1 < nw)
                east |= R[i + 1] << 63;
            else
                east |= wrap_e[r] << shift_e;
            nb[r * 3] = west;
            nb[r * 3 + 1] = m;
            nb[r * 3 + 2] = east;
        }
        uint64_t cnt[4];
        if (c->nbhd == GG_NBHD_MOORE) {
            uint64_t st, ct, sb, cb, sm, cm, b1c, x, y2, k;
            FA(nb[0], nb[1], nb[2], st, ct);
            FA(nb[6], nb[7], nb[8], sb, cb);
            sm = nb[3] ^ nb[5];
            cm = nb[3] & nb[5];
            FA(st, sm, sb, cnt[0], b1c);      /* b1c: weight 2 */
            FA(ct, cm, cb, x, y2);            /* x: weight 2, y2: 4 */
            cnt[1] = x ^ b1c;
            k = x & b1c;                      /* weight 4 */
            cnt[2] = y2 ^ k;
            cnt[3] = y2 & k;
        } else {
            cnt[0] = cnt[1] = cnt[2] = cnt[3] = 0;
            for (int j = 0; j < c->n_nb; j++) {
                uint64_t k = nb[c->nb_index[j]];
                for (int b = 0; b < 4; b++) {
                    uint64_t t = cnt[b] & k;
                    cnt[b] ^= k;
                    k = t;
                }
            }
        }
        uint64_t bm = 0, sm = 0;
        for (int k = 0; k <= c->n_nb; k++) {
            if (!(((c->birth | c->survive) >> k) & 1))
                continue;
            uint64_t m = minterm(cnt, k);
            if ((c->birth >> k) & 1)
                bm |= m;
            if ((c->survive >> k) & 1)
                sm |= m;
        }
        uint64_t st[GG_GEN_CELLS_MAX_PLANES], nz = 0, last = ~0ull;
        for (int p = 0; p < c->n_planes; p++) {
            st[p] = in[p][off + i];
            nz |= st[p];
            last &= (c->last >> p) & 1 ? st[p] : ~st[p];
        }
        uint64_t surv = nb[4] & sm; /* nb[4]: this cell is in state 1 */
        uint64_t born = ~nz & bm;
        uint64_t decay = nz & ~surv & ~last;
        uint64_t mask = i + 1 == nw ? c->tail : ~0ull;
        uint64_t carry = ~0ull;
        for (int p = 0; p < c->n_planes; p++) {
            uint64_t inc = st[p] ^ carry;
            carry &= st[p];
            uint64_t v = decay & inc;
            if (p == 0)
                v |= surv | born;
            out[p][off + i] = v & mask;
        }
    }
}

static void make_s1(const step_ctx *c, uint64_t *const *in, uint64_t *s1)
{
    int64_t n = c->h * c->stride;
#pragma omp parallel for schedule(static)
    for (int64_t i = 0; i < n; i++) {
        uint64_t hi = 0;
        for (int p = 1; p < c->n_planes; p++)
            hi |= in[p][i];
        s1[i] = in[0][i] & ~hi;
    }
}

int gg_gen_cpu_run(const gg_rule *rule, gg_topo topo, gg_gen_cells *cells,
                   int64_t gens, gg_err *err)
{
    int go = gg_gen_step_args(rule, cells, gens, "cpu step", err);
    if (go <= 0)
        return go;
    step_ctx c;
    memset(&c, 0, sizeof c);
    c.n_planes = cells->n_planes;
    c.w = gg_gen_cells_width(cells);
    c.h = gg_gen_cells_height(cells);
    c.stride = cells->plane[0].stride;
    c.torus = topo == GG_TOPO_TORUS;
    c.nbhd = rule->nbhd;
    const gg_offset *o = gg_nbhd_offsets(rule->nbhd, &c.n_nb);
    for (int k = 0; k < c.n_nb; k++)
        c.nb_index[k] = (o[k].dy + 1) * 3 + (o[k].dx + 1);
    c.birth = rule->birth;
    c.survive = rule->survive;
    c.last = rule->states - 1;
    c.tail = gg_grid_tail_mask(&cells->plane[0]);
    size_t words = (size_t)(c.h * c.stride);
    uint64_t *s1 = malloc(words * sizeof *s1);
    uint64_t *zero = calloc((size_t)c.stride, sizeof *zero);
    uint64_t *buf = malloc(words * (size_t)c.n_planes * sizeof *buf);
    if (!s1 || !zero || !buf) {
        free(s1);
        free(zero);
        free(buf);
        return gg_fail(err, "out of memory for a %lldx%lld Generations grid",
                       (long long)c.w, (long long)c.h);
    }
    c.zero = zero;
    uint64_t *in[GG_GEN_CELLS_MAX_PLANES], *out[GG_GEN_CELLS_MAX_PLANES];
    for (int p = 0; p < c.n_planes; p++) {
        in[p] = cells->plane[p].bits;
        out[p] = buf + (size_t)p * words;
    }
    for (int64_t g = 0; g < gens; g++) {
        make_s1(&c, in, s1);
#pragma omp parallel for schedule(static)
        for (int64_t y = 0; y < c.h; y++)
            step_row(&c, s1, in, out, y);
        for (int p = 0; p < c.n_planes; p++) {
            uint64_t *t = in[p];
            in[p] = out[p];
            out[p] = t;
        }
    }
    if (in[0] != cells->plane[0].bits)
        for (int p = 0; p < c.n_planes; p++)
            memcpy(cells->plane[p].bits, in[p], words * sizeof *buf);
    free(s1);
    free(zero);
    free(buf);
    return 0;
}

static uint64_t splitmix(uint64_t *s)
{
    uint64_t z = (*s += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

int gg_gen_cpu_validate(const gg_rule *rule, gg_err *err)
{
    /* odd sizes round the word edges; 1-wide and 1-high tori wrap onto
     * themselves */
    static const int64_t sizes[][2] = {
        {1, 1}, {1, 7}, {7, 1}, {5, 9}, {63, 5}, {65, 3}, {67, 13},
        {129, 11}, {191, 4}, {200, 9},
    };
    int planes = gg_gen_planes(rule->states);
    uint64_t seed = 0x243f6a8885a308d3ull ^ (uint64_t)rule->states;
    char text[128];
    gg_rule_format(rule, text, sizeof text);
    for (size_t s = 0; s < sizeof sizes / sizeof sizes[0]; s++)
        for (int t = 0; t < 2; t++) {
            gg_topo topo = t ? GG_TOPO_PLANE : GG_TOPO_TORUS;
            int64_t w = sizes[s][0], h = sizes[s][1];
            gg_gen_cells a, b;
            if (gg_gen_cells_init(&a, planes, w, h, err))
                return -1;
            if (gg_gen_cells_init(&b, planes, w, h, err)) {
                gg_gen_cells_free(&a);
                return -1;
            }
            for (int64_t y = 0; y < h; y++)
                for (int64_t x = 0; x < w; x++) {
                    uint64_t r = splitmix(&seed);
                    /* half 0, a quarter 1, the rest any dying state */
                    int st = r % 4 < 2 ? 0
                             : r % 4 == 2 || rule->states == 2
                                 ? 1
                                 : 2 + (int)((r >> 8) %
                                             (uint64_t)(rule->states - 2));
                    gg_gen_cells_set(&a, x, y, st);
                    gg_gen_cells_set(&b, x, y, st);
                }
            int64_t gens = 1 + (int64_t)(s % 5);
            int bad = gg_reference_gen_run(rule, topo, &a, gens, err) ||
                      gg_gen_cpu_run(rule, topo, &b, gens, err);
            for (int64_t y = 0; !bad && y < h; y++)
                for (int64_t x = 0; !bad && x < w; x++) {
                    int ra = gg_gen_cells_get(&a, x, y);
                    int rb = gg_gen_cells_get(&b, x, y);
                    if (ra != rb)
                        bad = gg_fail(err, "the Generations cpu step is "
                                      "wrong for %s: on a %lldx%lld %s "
                                      "after %lld generations, cell "
                                      "(%lld, %lld) is %d, the reference "
                                      "says %d", text, (long long)w,
                                      (long long)h,
                                      t ? "plane" : "torus",
                                      (long long)gens, (long long)x,
                                      (long long)y, rb, ra);
                }
            for (int p = 0; !bad && p < planes; p++)
                if (!gg_grid_equal(&a.plane[p], &b.plane[p]))
                    bad = gg_fail(err, "the Generations cpu step for %s "
                                  "set bits past the width of plane %d",
                                  text, p);
            gg_gen_cells_free(&a);
            gg_gen_cells_free(&b);
            if (bad)
                return -1;
        }
    return 0;
}


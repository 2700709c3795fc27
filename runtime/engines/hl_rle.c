/* RLE into and out of the hash tree without a dense box
 * (runtime/engines/hl_rle.h). In: the runs of each band of leaf rows cut
 * into leaves, the leaves sorted in quadtree (Morton) order and joined
 * recursively, empty quadrants hl_empty. Out: the tree walked a strip at a
 * time down to bands of leaves, each band's rows given to the RLE writer
 * as runs. Both cost the live leaves, not the box: Golly's circuits
 * (31473 x 31101 cells, 12962 alive) would be a 122 MB grid. */
#include "hl_rle.h"

#include <stdlib.h>
#include <string.h>

#include "hl_tree.h"

/* ---- in ---- */

typedef struct leaf_at {
    int64_t col, row; /* in leaves from the root's top-left */
    hl_id id;
} leaf_at;

/* A run's part in one leaf: bits of leaf row r. */
typedef struct frag {
    int64_t col;
    uint64_t bits;
    int r, state;
} frag;

typedef struct runs_in {
    gg_hl *h;
    frag *f;
    size_t nf, capf;
    leaf_at *leaf;
    size_t nl, capl;
    bool oom;
} runs_in;

static bool grow(void **a, size_t *cap, size_t need, size_t size)
{
    if (need <= *cap)
        return true;
    size_t c = *cap ? *cap : 256;
    while (c < need)
        c *= 2;
    void *n = realloc(*a, c * size);
    if (!n)
        return false;
    *a = n;
    *cap = c;
    return true;
}

static int by_col(const void *a, const void *b)
{
    const frag *x = a, *y = b;
    return (x->col > y->col) - (x->col < y->col);
}

/* Morton order, y above x at each level (quadrants nw ne sw se): the
 * coordinate whose highest differing bit is higher decides. */
static int by_quadrant(const void *a, const void *b)
{
    const leaf_at *p = a, *q = b;
    uint64_t dx = (uint64_t)(p->col ^ q->col), dy = (uint64_t)(p->row ^ q->row);
    if (dy < dx && dy < (dx ^ dy)) /* dx's top bit is higher */
        return (p->col > q->col) - (p->col < q->col);
    return (p->row > q->row) - (p->row < q->row);
}

/* The leaves of band row `row` from its fragments. */
static bool band_leaves(runs_in *in, int64_t row)
{
    gg_hl *h = in->h;
    qsort(in->f, in->nf, sizeof *in->f, by_col);
    for (size_t i = 0; i < in->nf;) {
        uint64_t rows[HL_MAX_LW] = {0};
        int64_t col = in->f[i].col;
        for (; i < in->nf && in->f[i].col == col; i++)
            for (int p = 0; p < h->planes; p++)
                if ((in->f[i].state >> p) & 1)
                    rows[p * h->leaf_side + in->f[i].r] |= in->f[i].bits;
        if (!grow((void **)&in->leaf, &in->capl, in->nl + 1, sizeof(leaf_at)))
            return false;
        hl_id id = hl_leaf(h, rows);
        if (!id)
            return false;
        in->leaf[in->nl++] = (leaf_at){col, row, id};
    }
    in->nf = 0;
    return true;
}

/* The node of `level` at (col, row) (in leaves) over leaves a[0..n), all
 * inside it, in Morton order; 0 when the budget is spent. */
static hl_id join_range(gg_hl *h, const leaf_at *a, size_t n, int level,
                        int64_t col, int64_t row)
{
    if (!n)
        return hl_empty(h, level);
    if (level == h->leaf_log)
        return a[0].id;
    int64_t half = (int64_t)1 << (level - 1 - h->leaf_log);
    hl_id c[4];
    size_t i = 0;
    for (int q = 0; q < 4; q++) {
        int64_t c0 = col + (q & 1) * half, r0 = row + (q >> 1) * half;
        size_t j = i;
        while (j < n && a[j].col >= c0 && a[j].col < c0 + half &&
               a[j].row >= r0 && a[j].row < r0 + half)
            j++;
        if (!(c[q] = join_range(h, a + i, j - i, level - 1, c0, r0)))
            return 0;
        i = j;
    }
    return hl_join(h, c[0], c[1], c[2], c[3]);
}

/* The runs' leaves, band by band (the runs come row by row). */
static bool runs_leaves(runs_in *in, const gg_pattern_runs *r, int64_t ox,
                        int64_t oy)
{
    gg_hl *h = in->h;
    int L = h->leaf_log;
    int64_t band = -1;
    for (size_t i = 0; i < r->n; i++) {
        const gg_rle_run *u = &r->run[i];
        int64_t x = ox + u->x, y = oy + u->y, end = x + u->n;
        if (y >> L != band) {
            if (band >= 0 && !band_leaves(in, band))
                return false;
            band = y >> L;
        }
        for (int64_t c = x >> L; c <= (end - 1) >> L; c++) {
            int64_t lo = x > c << L ? x : c << L;
            int64_t hi = end < (c + 1) << L ? end : (c + 1) << L;
            int len = (int)(hi - lo), off = (int)(lo - (c << L));
            uint64_t bits = (len == 64 ? ~0ull : (1ull << len) - 1) << off;
            if (!grow((void **)&in->f, &in->capf, in->nf + 1, sizeof(frag)))
                return false;
            in->f[in->nf++] = (frag){c, bits, (int)(y & (h->leaf_side - 1)),
                                     u->state};
        }
    }
    return band < 0 || band_leaves(in, band);
}

int gg_hl_set_runs(gg_hl *h, const gg_pattern_runs *r, gg_err *err)
{
    const gg_pattern *p = &r->head;
    if (hl_states_fit(h, r->top, err))
        return -1;
    h->generation = p->generation;
    if (r->x1 < r->x0) {
        h->root = hl_empty(h, h->leaf_log + 2);
        return 0;
    }
    int level = hl_level_for(h, p->x + r->x0, p->y + r->y0, p->x + r->x1,
                             p->y + r->y1);
    int64_t half = (int64_t)1 << (level - 1);
    runs_in in = {.h = h};
    /* box cell (x, y) is tree cell (x + ox, y + oy) from the root's
     * top-left, Golly's (-half, -half + 1) */
    hl_id root = 0;
    if (runs_leaves(&in, r, p->x + half, p->y + half - 1)) {
        qsort(in.leaf, in.nl, sizeof *in.leaf, by_quadrant);
        root = join_range(h, in.leaf, in.nl, level, 0, 0);
    }
    free(in.f);
    free(in.leaf);
    return hl_set_root(h, root, err);
}

/* ---- out ---- */

typedef struct strip_at {
    hl_id n;
    int64_t x; /* its left column from the root's */
} strip_at;

typedef struct rle_walk {
    gg_hl *h;
    gg_rle_out *o;
    int64_t bx, by; /* the live box's top-left from the root's */
    strip_at *at[HL_MAX_LEVEL + 1]; /* a strip of nodes per level */
    size_t cap[HL_MAX_LEVEL + 1];
    bool oom;
} rle_walk;

/* One band's rows: n leaves left to right, the band's top row y. */
static void band_rows(rle_walk *w, const strip_at *a, size_t n, int64_t y)
{
    gg_hl *h = w->h;
    for (int r = 0; r < h->leaf_side; r++) {
        int64_t yy = y + r - w->by;
        for (size_t i = 0; i < n; i++) {
            const uint64_t *rows = hl_rows(h, a[i].n);
            int64_t x = a[i].x - w->bx;
            if (h->planes == 1) {
                gg_rle_out_bits(w->o, x, yy, rows[r]);
                continue;
            }
            uint64_t live = hl_live_row(h, rows, r);
            while (live) {
                int s = __builtin_ctzll(live);
                int st = 0;
                for (int p = 0; p < h->planes; p++)
                    st |= (int)((rows[p * h->leaf_side + r] >> s) & 1) << p;
                gg_rle_out_run(w->o, x + s, yy, 1, st); /* cells join */
                live &= live - 1;
            }
        }
    }
}

/* A strip of n non-empty nodes of `level` (w->at[level], left to right)
 * whose top row is y: its top halves' strip, then its bottom halves'. */
static void strip(rle_walk *w, int level, size_t n, int64_t y)
{
    gg_hl *h = w->h;
    if (level == h->leaf_log) {
        band_rows(w, w->at[level], n, y);
        return;
    }
    int64_t half = (int64_t)1 << (level - 1);
    if (!grow((void **)&w->at[level - 1], &w->cap[level - 1], 2 * n,
              sizeof(strip_at))) {
        w->oom = true;
        return;
    }
    for (int lower = 0; lower < 2 && !w->oom && !gg_rle_out_failed(w->o);
         lower++) {
        const strip_at *a = w->at[level];
        strip_at *b = w->at[level - 1];
        size_t m = 0;
        for (size_t i = 0; i < n; i++)
            for (int q = 2 * lower; q < 2 * lower + 2; q++) {
                hl_id c = h->node[a[i].n].child[q];
                if (!hl_is_empty(h, c))
                    b[m++] = (strip_at){c, a[i].x + (q & 1) * half};
            }
        if (m)
            strip(w, level - 1, m, y + lower * half);
    }
}

static int walk_body(void *ctx, gg_rle_out *o)
{
    rle_walk *w = ctx;
    gg_hl *h = w->h;
    int level = h->node[h->root].level;
    w->o = o;
    if (!grow((void **)&w->at[level], &w->cap[level], 1, sizeof(strip_at)))
        w->oom = true;
    else if (!hl_is_empty(h, h->root)) {
        w->at[level][0] = (strip_at){h->root, 0};
        strip(w, level, 1, 0);
    }
    return w->oom ? -1 : 0;
}

int gg_hl_write_rle(gg_hl *h, const char *path, gg_err *err)
{
    int64_t x0 = 0, y0 = 0, x1 = -1, y1 = -1;
    bool any = gg_hl_bbox(h, &x0, &y0, &x1, &y1);
    int64_t root_x = -((int64_t)1 << (h->node[h->root].level - 1));
    gg_pattern head = {.rule = h->rule_text, .positioned = true,
                       .generation = h->generation,
                       .multistate = h->planes > 1, .n_planes = h->planes};
    if (any)
        head.x = x0, head.y = y0;
    rle_walk w = {.h = h, .bx = x0 - root_x, .by = y0 - (root_x + 1)};
    int rc = gg_pattern_write_rle_body(path, &head, any ? x1 - x0 + 1 : 0,
                                       any ? y1 - y0 + 1 : 0, walk_body, &w,
                                       err);
    if (w.oom && rc)
        gg_fail(err, "out of memory writing '%s'", path);
    for (int i = 0; i <= HL_MAX_LEVEL; i++)
        free(w.at[i]);
    return rc;
}

/* Leaf squares of 4x4 leaves stepped through a memo (hl_small.h).
 *
 * A Golly rule table's cell is the dearest of any family's (its decision
 * graph evaluated on whole vectors of cells), and a batch of 8x8 squares
 * evaluated every cell of every square at every generation: 128 cells for
 * the 52 that a 2-generation result needs, and a whole 512-cell vector row
 * for a batch of 15 squares. The distinct 4x4 windows of a run are few and
 * recur, so, as Golly's hash tree does at its 2x2 leaves, each window's
 * centre 2x2 one generation on is computed once (the misses of a batch in
 * one backend call, windows side by side) and looked up after: a square
 * 2 generations on is 9 windows, then 4 windows of their results. */
#include "hl_small.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

/* A window's cells as the key: plane p's cell (x, y) at bit 8 y + x +
 * key_shift(p) of k[p / 4] (the square's rows masked to the window, two
 * planes' nibbles interleaved: a shift and a mask a plane to make); res:
 * plane p's 2x2 centre at bits 4 p .. 4 p + 3 (row-major). 16 bytes, so
 * at most 6 planes (64 states, as many as any of Golly's rules has): k1
 * holds planes 4 and 5 in its low 32 bits. An empty slot's key is 0 (a
 * window of state 0 alone is never looked up). */
typedef struct memo_entry {
    uint64_t k0;
    uint32_t k1, res;
} memo_entry;

#define MEMO_PLANES 6

static inline int key_shift(int p)
{
    return 4 * (p & 1) + 32 * ((p >> 1) & 1);
}

/* A batch's squares: plane p's row y of square s as byte y of word
 * s * planes + p (8 cells, bit x cell x). */
struct hl_small {
    memo_entry *memo;
    uint64_t cap, n;
    uint64_t *a, *b;        /* squares now, and a generation on */
    uint32_t *res;          /* per window of the batch */
    uint32_t *miss;         /* windows not in the memo: their indices */
    uint64_t *mk;           /* and keys (2 words each) */
    uint64_t *out;          /* the results' leaf rows, h->lw words each */
    int64_t room;           /* squares the arrays hold */
    gg_gen_cells cells;     /* misses side by side, for the backend */
    double ns[2][2];        /* per j, per path (0 grid, 1 memo): the
                               recent seconds a square, 0 not known */
    int64_t tries[2];       /* batches per j so far */
    int64_t squares[2];     /* and their squares */
    int64_t warm[2];        /* batches of the warm-up */
    bool memo_now[2];       /* the path of the batch in flight */
    bool off[2];            /* the memo cost twice the grid: off */
    double t0;              /* when it started; 0 not timed */
};

/* At most 2^20 windows remembered (16 MiB); then the memo starts over. */
#define MEMO_MAX ((uint64_t)1 << 20)
#define MEMO_FIRST ((uint64_t)1 << 12)
/* Misses side by side: 128 windows a 512-cell row of windows. */
#define MISS_COLS 128

bool hl_small_applies(const gg_hl *h)
{
    return !h->has_rule && h->leaf_log == 2 && h->planes <= MEMO_PLANES;
}

/* Which path pays depends on the rule and the pattern: on a dear rule
 * whose windows recur the memo (Tempesti-Loop, 1000 generations: 0.074
 * -> 0.042 CPU s), on a cheap rule (WireWorld) or a chaotic pattern,
 * whose windows rarely recur (life-on-the-slope), the grid (the memo
 * took 1.2x and 2.2x as long). So batches are timed: the first 32 of
 * each j go through the memo (it fills; fewer when they pass 4096
 * squares: WireWorld's primes.mc warmed on 21941 squares at 2x the
 * grid's cost a square), the next 4 through the grid,
 * then the path whose recent batches took less time a square, trying the
 * other every 16th batch, times how much dearer it was (up to 8x); a
 * memo twice as dear as the grid is not tried again (a cheap rule's:
 * WireWorld's batches cost 5x through it). Only
 * every 4th batch of the chosen path is timed: a clock read costs 0.15
 * us here (a thread's CPU time 1.7 us, as much as a small batch). Both
 * paths give the same cells. */
#define WARM 32
#define WARM_SQUARES 4096
#define PROBE 4
#define RETRY 16
#define SAMPLE 4

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

bool hl_small_pick(gg_hl *h, int j)
{
    if (!h->small && !(h->small = calloc(1, sizeof *h->small)))
        return false;
    hl_small *s = h->small;
    int64_t n = s->tries[j]++;
    bool memo, timed = true;
    if (n < WARM && s->squares[j] < WARM_SQUARES) {
        memo = true;
        s->warm[j] = n + 1;
    } else if (n < s->warm[j] + PROBE) {
        memo = false;
    } else if (s->off[j] || s->ns[j][1] > 2 * s->ns[j][0]) {
        s->off[j] = true; /* a cheap rule's: not tried again */
        memo = false;
        timed = false;
    } else {
        double a = s->ns[j][0], b = s->ns[j][1];
        memo = b < a;
        double worse = memo ? a / b : b / a;
        int64_t every = RETRY * (int64_t)(worse < 8 ? worse : 8);
        if (n % every == 0)
            memo = !memo;
        else
            timed = n % SAMPLE == 0;
    }
    s->memo_now[j] = memo;
    s->t0 = timed ? now() : 0;
    return memo;
}

void hl_small_took(gg_hl *h, int j, int64_t m)
{
    hl_small *s = h->small;
    if (!s || m <= 0)
        return;
    s->squares[j] += m;
    if (!s->t0)
        return;
    double per = (now() - s->t0) / (double)m;
    double *e = &s->ns[j][s->memo_now[j]];
    if (*e && per > 3 * *e) /* a time slice lost moves it less */
        per = 3 * *e;
    *e = *e ? 0.75 * *e + 0.25 * per : per;
}

void hl_small_free(gg_hl *h)
{
    hl_small *s = h->small;
    if (!s)
        return;
    free(s->memo);
    free(s->a);
    free(s->b);
    free(s->res);
    free(s->miss);
    free(s->mk);
    free(s->out);
    gg_gen_cells_free(&s->cells);
    free(s);
    h->small = NULL;
    h->small_bytes = 0;
}

static uint64_t key_hash(uint64_t k0, uint64_t k1)
{
    uint64_t x = k0 * 0x9e3779b97f4a7c15ull ^ k1 * 0xc2b2ae3d27d4eb4full;
    return x ^ (x >> 29) ^ (x >> 47);
}

/* The key's slot, its hash given (computed once for the prefetch too). */
static memo_entry *slot_at(const hl_small *s, uint64_t hash, uint64_t k0,
                           uint64_t k1)
{
    uint64_t i = hash & (s->cap - 1);
    while ((s->memo[i].k0 | s->memo[i].k1) &&
           (s->memo[i].k0 != k0 || s->memo[i].k1 != k1))
        i = (i + 1) & (s->cap - 1);
    return &s->memo[i];
}

static memo_entry *slot(const hl_small *s, uint64_t k0, uint64_t k1)
{
    return slot_at(s, key_hash(k0, k1), k0, k1);
}

/* Room for one more entry: the table doubled (while under MEMO_MAX and
 * the budget) or, full at its largest, emptied. false: no memory. */
static bool memo_room(gg_hl *h)
{
    hl_small *s = h->small;
    if (s->n * 2 < s->cap)
        return true;
    uint64_t cap = s->cap * 2;
    int64_t more = (int64_t)((cap - s->cap) * sizeof(memo_entry));
    if (cap > MEMO_MAX || hl_bytes(h) + more > h->mem_limit) {
        memset(s->memo, 0, s->cap * sizeof *s->memo);
        s->n = 0;
        return true;
    }
    memo_entry *old = s->memo, *m = calloc(cap, sizeof *m);
    if (!m)
        return false;
    uint64_t old_cap = s->cap;
    s->memo = m;
    s->cap = cap;
    for (uint64_t i = 0; i < old_cap; i++)
        if (old[i].k0 | old[i].k1)
            *slot(s, old[i].k0, old[i].k1) = old[i];
    free(old);
    h->small_bytes = (int64_t)(cap * sizeof *m);
    return true;
}

/* The arrays for m squares (9 windows each). */
static int small_room(gg_hl *h, int64_t m)
{
    hl_small *s = h->small;
    if (!s->memo) {
        if (!(s->memo = calloc(MEMO_FIRST, sizeof *s->memo)))
            return -1;
        s->cap = MEMO_FIRST;
        h->small_bytes = (int64_t)(MEMO_FIRST * sizeof *s->memo);
    }
    if (m <= s->room)
        return 0;
    size_t w = (size_t)m * (size_t)h->planes;
    uint64_t *a = realloc(s->a, w * 8), *b = a ? realloc(s->b, w * 8) : NULL;
    if (a)
        s->a = a;
    if (b)
        s->b = b;
    uint32_t *r = b ? realloc(s->res, (size_t)m * 9 * 4) : NULL;
    if (r)
        s->res = r;
    uint32_t *mi = r ? realloc(s->miss, (size_t)m * 9 * 4) : NULL;
    if (mi)
        s->miss = mi;
    uint64_t *mk = mi ? realloc(s->mk, (size_t)m * 9 * 16) : NULL;
    if (mk)
        s->mk = mk;
    uint64_t *o = mk ? realloc(s->out, (size_t)m * (size_t)h->lw * 8) : NULL;
    if (!o)
        return -1;
    s->out = o;
    s->room = m;
    return 0;
}

/* The window of square sq (its planes' rows at sq[p]) at (ox, oy). */
static void window_key(const uint64_t *sq, int planes, int ox, int oy,
                       uint64_t *k0, uint64_t *k1)
{
    uint64_t k[2] = {0, 0};
    for (int p = 0; p < planes; p++)
        k[p >> 2] |= ((sq[p] >> (8 * oy + ox)) & 0x0F0F0F0Full)
                     << key_shift(p);
    *k0 = k[0];
    *k1 = k[1];
}

/* Row r (4 cells) of plane p of a window's key k (2 words). */
static inline uint64_t key_row(const uint64_t *k, int p, int r)
{
    return (k[p >> 2] >> (8 * r + key_shift(p))) & 15;
}

/* Up to PROBES windows looked up at once, their slots' loads in flight
 * together (the memo is megabytes: a lookup is a cache miss). */
#define PROBES 64

typedef struct probes {
    uint64_t k0[PROBES], k1[PROBES], hash[PROBES], at[PROBES];
    int n;
} probes;

/* The windows of p: results from the memo, or onto the miss list. */
static void probe_all(hl_small *s, probes *p, int64_t *n_miss)
{
    for (int i = 0; i < p->n; i++) {
        const memo_entry *e = slot_at(s, p->hash[i], p->k0[i], p->k1[i]);
        if (e->k0 | e->k1) {
            s->res[p->at[i]] = e->res;
            continue;
        }
        s->miss[*n_miss] = (uint32_t)p->at[i];
        s->mk[2 * *n_miss] = p->k0[i];
        s->mk[2 * *n_miss + 1] = p->k1[i];
        (*n_miss)++;
    }
    p->n = 0;
}

/* Miss i's result (its window's centre 2x2 one generation on) where the
 * batch wants it and in the memo. -1: out of memory. */
static int memo_put(gg_hl *h, int64_t i, uint32_t res)
{
    hl_small *s = h->small;
    s->res[s->miss[i]] = res;
    if (!memo_room(h))
        return gg_fail(h->err, "out of memory for the leaf memo");
    memo_entry *e = slot(s, s->mk[2 * i], s->mk[2 * i + 1]);
    if (!(e->k0 | e->k1))
        s->n++;
    *e = (memo_entry){s->mk[2 * i], (uint32_t)s->mk[2 * i + 1], res};
    return 0;
}

/* The misses' windows one generation on, through the backend: laid side
 * by side (MISS_COLS a row of windows), stepped, their centres read. */
static int grid_misses(gg_hl *h, int64_t n)
{
    hl_small *s = h->small;
    /* rows of windows in powers of two: the grid (and the backend's
     * second buffer, sized as it) is made again only when that changes */
    int64_t w = 4 * MISS_COLS, ht = 4;
    while (ht < 4 * ((n + MISS_COLS - 1) / MISS_COLS))
        ht *= 2;
    gg_gen_cells *c = &s->cells;
    if (!c->n_planes || gg_gen_cells_height(c) != ht) {
        gg_gen_cells_free(c);
        if (gg_gen_cells_init(c, h->planes, w, ht, h->err))
            return -1;
    } else {
        for (int p = 0; p < h->planes; p++)
            memset(c->plane[p].bits, 0,
                   (size_t)(c->plane[p].stride * ht) * sizeof(uint64_t));
    }
    for (int64_t i = 0; i < n; i++) {
        int64_t x = i % MISS_COLS * 4, y = i / MISS_COLS * 4;
        for (int p = 0; p < h->planes; p++)
            for (int r = 0; r < 4; r++)
                gg_grid_row(&c->plane[p], y + r)[x >> 6] |=
                    key_row(s->mk + 2 * i, p, r) << (x & 63);
    }
    if (h->leaves.step(h->leaves.ctx, c, 1, h->err))
        return -1;
    h->stats.batches++;
    for (int64_t i = 0; i < n; i++) {
        int64_t x = i % MISS_COLS * 4 + 1, y = i / MISS_COLS * 4 + 1;
        uint32_t res = 0;
        for (int p = 0; p < h->planes; p++)
            for (int r = 0; r < 2; r++) {
                uint64_t bits = gg_grid_row(&c->plane[p], y + r)[x >> 6] >>
                                (x & 63);
                res |= (uint32_t)(bits & 3) << (4 * p + 2 * r);
            }
        if (memo_put(h, i, res))
            return -1;
    }
    return 0;
}

/* The misses' windows one generation on, a centre cell at a time through
 * the rule's decision graph (h->leaves.rf), as Golly's RuleLoader steps
 * its leaves: a batch's misses are tens of windows, while step() pays
 * for whole vector rows of 512 cells and the grid around them (Perrier,
 * 1000 generations: 615 calls for 12084 windows). */
static int cell_misses(gg_hl *h, int64_t n)
{
    /* a centre cell's inputs as offsets in its window, in the graph's
     * order: nw ne sw se n w e s c, or n w e s c */
    static const int8_t moore[9][2] = {{-1, -1}, {1, -1}, {-1, 1}, {1, 1},
                                       {0, -1},  {-1, 0}, {1, 0},  {0, 1},
                                       {0, 0}};
    /* 4 bits as 4 bytes of 0 or 1: a row's planes OR-ed in shifted */
    static const uint32_t nibble_bytes[16] = {
        0x00000000, 0x00000001, 0x00000100, 0x00000101,
        0x00010000, 0x00010001, 0x00010100, 0x00010101,
        0x01000000, 0x01000001, 0x01000100, 0x01000101,
        0x01010000, 0x01010001, 0x01010100, 0x01010101};
    const gg_rulefile *rf = h->leaves.rf;
    int ni = rf->n_inputs, first = ni == 9 ? 0 : 4;
    hl_small *s = h->small;
    for (int64_t i = 0; i < n; i++) {
        uint32_t row[4] = {0, 0, 0, 0}; /* cell x's state in byte x */
        for (int p = 0; p < h->planes; p++)
            for (int r = 0; r < 4; r++)
                row[r] |= nibble_bytes[key_row(s->mk + 2 * i, p, r)] << p;
        uint32_t res = 0;
        for (int c = 0; c < 4; c++) {
            int x = 1 + (c & 1), y = 1 + (c >> 1);
            uint8_t in[9];
            for (int k = 0; k < ni; k++)
                in[k] = (uint8_t)(row[y + moore[first + k][1]] >>
                                  (8 * (x + moore[first + k][0])));
            uint32_t next = (uint32_t)gg_rulefile_lookup(rf, in);
            for (int p = 0; p < h->planes; p++)
                res |= ((next >> p) & 1) << (4 * p + c);
        }
        if (memo_put(h, i, res))
            return -1;
    }
    return 0;
}

/* A cell through the graph costs the same for every rule, a vector of
 * cells through step() grows with the rule's graph: the graph for the
 * few misses of most batches, step() once they fill its vectors (512
 * windows: 16 rows of 512 cells; life-on-the-edge, every batch through
 * the memo: 559 CPU ms a cell at a time, 381 with this bound). */
#define CELL_MISSES_MAX 512

static int compute_misses(gg_hl *h, int64_t n)
{
    return h->leaves.rf && n < CELL_MISSES_MAX ? cell_misses(h, n)
                                               : grid_misses(h, n);
}

/* One generation of the m squares in s->a into s->b: the windows at
 * offsets off[0..no) in both directions, each giving its centre 2x2. */
static int small_gen(gg_hl *h, int64_t m, const int *off, int no)
{
    /* a result's 2x2 (4 bits, row-major) as rows of a square: bits 0, 1,
     * 8, 9 */
    static const uint16_t spread[16] = {
        0x000, 0x001, 0x002, 0x003, 0x100, 0x101, 0x102, 0x103,
        0x200, 0x201, 0x202, 0x203, 0x300, 0x301, 0x302, 0x303};
    hl_small *s = h->small;
    int planes = h->planes, nw = no * no;
    int64_t n_miss = 0;
    probes pr;
    pr.n = 0;
    for (int64_t q = 0; q < m; q++) {
        const uint64_t *sq = s->a + q * planes;
        for (int wy = 0; wy < no; wy++)
            for (int wx = 0; wx < no; wx++) {
                uint64_t k0, k1;
                window_key(sq, planes, off[wx], off[wy], &k0, &k1);
                uint32_t at = (uint32_t)(q * nw + wy * no + wx);
                s->res[at] = 0; /* state 0 amid 0s stays 0 */
                if (!k0 && !k1)
                    continue;
                uint64_t hash = key_hash(k0, k1);
                __builtin_prefetch(&s->memo[hash & (s->cap - 1)]);
                pr.k0[pr.n] = k0, pr.k1[pr.n] = k1, pr.at[pr.n] = at;
                pr.hash[pr.n] = hash;
                if (++pr.n == PROBES)
                    probe_all(s, &pr, &n_miss);
            }
    }
    probe_all(s, &pr, &n_miss);
    if (n_miss && compute_misses(h, n_miss))
        return -1;
    for (int64_t q = 0; q < m; q++) {
        uint64_t *out = s->b + q * planes;
        for (int p = 0; p < planes; p++)
            out[p] = 0;
        for (int wy = 0; wy < no; wy++)
            for (int wx = 0; wx < no; wx++) {
                uint32_t r = s->res[q * nw + wy * no + wx];
                int at = 8 * (off[wy] + 1) + off[wx] + 1;
                for (int p = 0; p < planes; p++)
                    out[p] |= (uint64_t)spread[(r >> (4 * p)) & 15] << at;
            }
    }
    uint64_t *t = s->a;
    s->a = s->b;
    s->b = t;
    return 0;
}

const uint64_t *hl_small_step(gg_hl *h, int j, const uint32_t *frames,
                              int64_t m)
{
    if (small_room(h, m)) {
        gg_fail(h->err, "out of memory for the leaf memo");
        return NULL;
    }
    hl_small *s = h->small;
    int planes = h->planes;
    for (int64_t q = 0; q < m; q++) { /* 8x8 squares from their leaves */
        const hl_id *c = h->node[h->frame[frames[q]].n].child;
        const uint64_t *nw = hl_rows(h, c[0]), *ne = hl_rows(h, c[1]),
                       *sw = hl_rows(h, c[2]), *se = hl_rows(h, c[3]);
        for (int p = 0; p < planes; p++) {
            uint64_t v = 0;
            for (int y = 0; y < 4; y++)
                v |= (nw[p * 4 + y] | ne[p * 4 + y] << 4) << (8 * y) |
                     (sw[p * 4 + y] | se[p * 4 + y] << 4) << (8 * y + 32);
            s->a[q * planes + p] = v;
        }
    }
    static const int first[3] = {0, 2, 4}, last[2] = {1, 3};
    if ((j == 1 && small_gen(h, m, first, 3)) || small_gen(h, m, last, 2))
        return NULL;
    for (int64_t q = 0; q < m; q++) /* the centre 4x4: the result */
        for (int p = 0; p < planes; p++)
            for (int y = 0; y < 4; y++)
                s->out[q * h->lw + p * 4 + y] =
                    (s->a[q * planes + p] >> (8 * (y + 2) + 2)) & 15;
    return s->out;
}

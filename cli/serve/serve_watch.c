/* golgen serve: frames from inside the cpu kernel's pass (serve_watch.h). */
#include "serve_watch.h"

#include <stdlib.h>
#include <string.h>

/* The hot loops use the popcnt instruction where the machine has it (gcc
 * otherwise calls libgcc's popcount, 4-5x slower over a big grid; as
 * runtime/universes/grid.h's GG_POPCNT_HOT). */
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__)
#define SV_HOT __attribute__((target_clones("popcnt", "default")))
#else
#define SV_HOT
#endif

static int64_t floor_mod(int64_t v, int64_t n)
{
    v %= n;
    return v < 0 ? v + n : v;
}

int64_t sv_watch_sample(int cols, int rows, int level)
{
    int64_t side = 1LL << level, sample = 0;
    double cells = (double)cols * rows * (double)side * (double)side;
    if (level >= 2 && cells > SV_EXACT_CELLS) {
        sample = 1;
        while (sample * 2 < side &&
               (double)cols * rows * side * (sample * 2) <= SV_EXACT_CELLS)
            sample *= 2;
    }
    return sample;
}

bool sv_watch_view_init(sv_watch_view *wv, const golgen_world *w, int64_t x,
                        int64_t y, int cols, int rows, int level,
                        bool sampled)
{
    int topo = golgen_world_topology(w);
    memset(wv, 0, sizeof *wv);
    if (golgen_world_family(w) != GOLGEN_FAMILY_TWO_STATE ||
        topo == GOLGEN_TOPO_UNBOUNDED || level > 40)
        return false;
    int64_t ox, oy, W, H;
    golgen_world_extent(w, &ox, &oy, &W, &H);
    int64_t side = 1LL << level;
    bool torus = topo == GOLGEN_TOPO_TORUS;
    /* blocks wider than the grid are drawn unwrapped between calls */
    if (side > W || side > H || cols <= 0 || rows <= 0 ||
        cols > SV_WATCH_SIDE || rows > SV_WATCH_SIDE)
        return false;
    int64_t gx = x - ox, gy = y - oy;
    if (torus) {
        if (W % side || H % side)
            return false;
        gx = floor_mod(gx, W), gy = floor_mod(gy, H);
    }
    if (floor_mod(gx, side) || floor_mod(gy, side))
        return false;
    wv->x = x, wv->y = y, wv->cols = cols, wv->rows = rows;
    wv->level = level;
    wv->torus = torus;
    wv->width = W, wv->height = H;
    wv->bx0 = (gx - floor_mod(gx, side)) / side;
    wv->by0 = (gy - floor_mod(gy, side)) / side;
    if (torus) {
        wv->wb = W / side, wv->hb = H / side;
        wv->nbx = cols < wv->wb ? cols : wv->wb;
        wv->nby = rows < wv->hb ? rows : wv->hb;
    } else {
        wv->nbx = cols, wv->nby = rows;
    }
    /* the words the map's columns touch: one range, or two across a
     * torus's seam */
    int64_t cs = wv->bx0 * side, ce = cs + wv->nbx * side;
    if (!torus) {
        cs = cs < 0 ? 0 : cs > W ? W : cs;
        ce = ce < cs ? cs : ce > W ? W : ce;
    }
    wv->wlo[0] = cs >> 6, wv->whi[0] = ((ce < W ? ce : W) + 63) >> 6;
    if (torus && ce > W)
        wv->wlo[1] = 0, wv->whi[1] = (ce - W + 63) >> 6;
    wv->stride = level ? wv->nbx
                       : 4 * (wv->whi[0] - wv->wlo[0] + wv->whi[1] -
                              wv->wlo[1]);
    int64_t sample = sampled ? sv_watch_sample(cols, rows, level) : 0;
    wv->every = sample ? side / sample : 1;
    wv->lines = side / wv->every;
    wv->shift = level > 15 ? level - 15 : 0;
    int64_t half = wv->every / 2, span = (int64_t)rows * side;
    if (torus) {
        wv->first = floor_mod(gy + half, H);
        wv->count = span - half < H ? span - half : H;
        return true;
    }
    int64_t lo = gy + half, hi = gy + span < H ? gy + span : H;
    if (lo < 0)
        lo += (-lo + wv->every - 1) / wv->every * wv->every;
    wv->first = lo < H ? lo : 0;
    wv->count = hi > lo ? hi - lo : 0;
    return true;
}

/* Entries of one frame's map, a multiple of 4 (a line of single cells
 * is uint64_t words: the next view's map stays aligned). */
static size_t map_entries(const sv_watch_view *v)
{
    size_t n = (size_t)v->stride * (size_t)v->nby * (size_t)v->lines;
    return (n + 3) & ~(size_t)3;
}

int sv_watch_begin(sv_watch_set *ws, int frames, int64_t every)
{
    size_t n = 0;
    for (int k = 0; k < ws->n; k++)
        n += (size_t)frames * map_entries(&ws->v[k]);
    if (n * sizeof(uint16_t) > (size_t)SV_WATCH_BYTES)
        return -1;
    if (ws->cap < n) {
        free(ws->maps);
        ws->maps = malloc(n * sizeof(uint16_t));
        ws->cap = ws->maps ? n : 0;
        if (!ws->maps)
            return -1;
    }
    size_t at = 0;
    for (int k = 0; k < ws->n; k++) {
        sv_watch_view *v = &ws->v[k];
        size_t len = (size_t)frames * map_entries(v);
        v->maps = ws->maps + at;
        /* a torus of single cells or 64 cells a block: every entry is
         * written (count_span stores each word or its count; the
         * kernel's filter reaches every line); others add, or store only
         * live blocks (map_entries is a multiple of 4: the uint64_t
         * lines of single cells stay aligned) */
        if (!v->torus || (v->level != 0 && v->level != 6))
            memset(v->maps, 0, len * sizeof(uint16_t));
        at += len;
    }
    ws->frames = frames;
    ws->every = every;
    return 0;
}

/* Block bx's (or by's) place in the map, or -1 outside it. */
static int64_t place(int64_t b, int64_t b0, int64_t ring, int64_t n)
{
    int64_t d = b - b0;
    if (ring && d < 0)
        d += ring;
    return d >= 0 && d < n ? d : -1;
}

/* o[j] = the live cells of word w[j], j < n. */
static SV_HOT void popcounts_plain(const uint64_t *w, uint16_t *o, int64_t n)
{
    for (int64_t j = 0; j < n; j++)
        o[j] = (uint16_t)__builtin_popcountll(w[j]);
}

#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__)
/* The same eight words at a time, where the machine has AVX-512's vector
 * popcount (gcc 12's target_clones dispatch by model for it, not by
 * feature: the choice is made below). */
__attribute__((target("avx512vpopcntdq,avx512f,avx512bw,avx512vl"))) static void
popcounts_wide(const uint64_t *w, uint16_t *o, int64_t n)
{
    for (int64_t j = 0; j < n; j++)
        o[j] = (uint16_t)__builtin_popcountll(w[j]);
}
#endif

static void popcounts(const uint64_t *w, uint16_t *o, int64_t n)
{
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__)
    if (__builtin_cpu_supports("avx512vpopcntdq")) {
        popcounts_wide(w, o, n);
        return;
    }
#endif
    popcounts_plain(w, o, n);
}

/* Words [x0, x1) of one grid row, in the map's word range `range`, into
 * map line m (words[0] is word at; the tile holds words [tx0, tx1) of the
 * row). */
static SV_HOT void count_span(const sv_watch_view *v, const uint64_t *words,
                              int64_t at, int64_t tx0, int64_t tx1,
                              int range, int64_t x0, int64_t x1, uint16_t *m)
{
    int level = v->level;
    int64_t nw = (v->width + 63) >> 6;
    uint64_t tail = v->torus && (v->width & 63)
                        ? (UINT64_C(1) << (v->width & 63)) - 1
                        : ~UINT64_C(0);
    if (!level) { /* single cells: the words themselves, as they are */
        uint64_t *line = (uint64_t *)(void *)m;
        int64_t off = range ? v->whi[0] - v->wlo[0] - v->wlo[1] : -v->wlo[0];
        for (int64_t k = x0; k < x1; k++)
            line[k + off] =
                words[k - at] & (k == nw - 1 ? tail : ~UINT64_C(0));
        return;
    }
    if (level == 6) { /* a word a block, the blocks of [x0, x1) in a row
                         of the map (serve_watch_view_init's ranges) */
        int64_t ix = place(x0, v->bx0, v->wb, v->nbx);
        if (ix < 0 || ix + (x1 - x0) > v->nbx)
            return; /* (never: the ranges are the map's columns) */
        uint16_t *o = m + ix;
        const uint64_t *w = words + (x0 - at);
        int64_t n = x1 - x0;
        if (x1 == nw)
            n--; /* the last word: masked below */
        popcounts(w, o, n);
        if (n < x1 - x0)
            o[n] = (uint16_t)__builtin_popcountll(w[n] & tail);
        return;
    }
    if (level > 6) { /* whole words a block */
        int shift = level - 6;
        for (int64_t k = x0; k < x1;) {
            int64_t bx = k >> shift;
            int64_t start = bx << shift, end = (bx + 1) << shift;
            bool whole = start >= tx0 && end <= tx1; /* no other tile's */
            if (end > x1)
                end = x1;
            int64_t ix = place(bx, v->bx0, v->wb, v->nbx);
            if (ix >= 0) {
                uint64_t n = 0;
                for (int64_t j = k; j < end; j++)
                    n += (uint64_t)__builtin_popcountll(
                        words[j - at] & (j == nw - 1 ? tail : ~UINT64_C(0)));
                /* rounded up: a block with a live cell shows */
                uint16_t c = (uint16_t)((n + (UINT64_C(1) << v->shift) - 1) >>
                                        v->shift);
                if (whole)
                    m[ix] = c;
                else if (c)
                    __atomic_fetch_add(&m[ix], c, __ATOMIC_RELAXED);
            }
            k = end;
        }
        return;
    }
    /* blocks inside a word: each (line, block) is this tile's alone */
    int side = 1 << level, per = 64 >> level;
    uint64_t mask = level ? (UINT64_C(1) << side) - 1 : 1;
    for (int64_t k = x0; k < x1; k++) {
        uint64_t word = words[k - at] & (k == nw - 1 ? tail : ~UINT64_C(0));
        int64_t b = k * per;
        for (int j = 0; word && j < per; j++) {
            uint64_t bits = (word >> (j * side)) & mask;
            int64_t ix = bits ? place(b + j, v->bx0, v->wb, v->nbx) : -1;
            if (ix >= 0)
                m[ix] = (uint16_t)__builtin_popcountll(bits);
        }
    }
}

/* A tile's words [x0, x1) of a row, clipped to the map's columns. */
static void count_words(const sv_watch_view *v, const uint64_t *words,
                        int64_t x0, int64_t x1, uint16_t *m)
{
    for (int i = 0; i < 2; i++) {
        int64_t a = x0 > v->wlo[i] ? x0 : v->wlo[i];
        int64_t b = x1 < v->whi[i] ? x1 : v->whi[i];
        if (a < b)
            count_span(v, words, x0, x0, x1, i, a, b, m);
    }
}

/* The kernel's callback: row r of generation g (into this call). */
static void watch_rows(void *ctx, int64_t g, int64_t r,
                       const uint64_t *const *planes, int64_t x0, int64_t x1)
{
    sv_watch_set *ws = ctx;
    if (g % ws->every)
        return;
    int64_t f = g / ws->every - 1;
    if (f < 0 || f >= ws->frames)
        return;
    for (int k = 0; k < ws->n; k++) {
        const sv_watch_view *v = &ws->v[k];
        if (ws->n > 1) { /* the kernel's filter was every row */
            int64_t d = floor_mod(r - v->first, v->height);
            if (d >= v->count || d % v->every)
                continue;
        }
        int64_t iy = place(r >> v->level, v->by0, v->hb, v->nby);
        if (iy < 0)
            continue;
        /* which of the block's sampled rows: every/2, + every, ... */
        int64_t line = ((r & ((1LL << v->level) - 1)) - v->every / 2) /
                       v->every;
        size_t at_line = (size_t)f * map_entries(v) +
                         ((size_t)iy * (size_t)v->lines + (size_t)line) *
                             (size_t)v->stride;
        count_words(v, planes[0], x0, x1, v->maps + at_line);
    }
}

golgen_row_watch sv_watch_kernel(sv_watch_set *ws, int64_t height)
{
    golgen_row_watch w = {.rows = watch_rows, .ctx = ws, .every = ws->every,
                       .first = 0, .count = height, .step = 1};
    if (ws->n == 1) {
        w.first = ws->v[0].first;
        w.count = ws->v[0].count;
        w.step = ws->v[0].every;
    }
    return w;
}

/* The shade of a block of n live cells (counted >> shift) in area
 * cells: golgen_world_render's, 0 none, else 1 + its share in 254ths. */
static uint8_t shade(uint64_t n, uint64_t mul)
{
    uint64_t s = (n * mul) >> 32;
    return (uint8_t)((n != 0) + (s > 254 ? 254 : s));
}

#define SV_SHADES 4096 /* counts a block may hold that a table shades */

/* Window cells [0, nbx) of a map line of single cells (the grid's words
 * wlo[0] .. whi[0], then wlo[1] .. whi[1]) as bytes 0 or 1. */
static void cells_row(const sv_watch_view *v, const uint64_t *line,
                      uint8_t *o)
{
    int64_t len0 = v->whi[0] - v->wlo[0];
    for (int64_t c = 0; c < v->nbx;) {
        int64_t x = v->bx0 + c, run = v->nbx - c;
        if (v->torus && x >= v->width)
            x -= v->width;
        if (x < 0 || x >= v->width) { /* a plane's outside: empty */
            int64_t to = x < 0 ? -x : run;
            run = to < run ? to : run;
            memset(o + c, 0, (size_t)run);
            c += run;
            continue;
        }
        int64_t k = x >> 6, bit = x & 63;
        int64_t at = k >= v->wlo[0] && k < v->whi[0] ? k - v->wlo[0]
                                                     : len0 + k - v->wlo[1];
        if (run > 64 - bit)
            run = 64 - bit;
        if (run > v->width - x) /* (a torus's seam) */
            run = v->width - x;
        uint64_t w = line[at] >> bit;
        for (int64_t j = 0; j < run; j++)
            o[c + j] = (uint8_t)((w >> j) & 1);
        c += run;
    }
}

void sv_watch_render(const sv_watch_set *ws, int k, int f, uint8_t *out)
{
    const sv_watch_view *v = &ws->v[k];
    const uint16_t *m = v->maps + (size_t)f * map_entries(v);
    int64_t side = 1LL << v->level, nbx = v->nbx;
    uint32_t sum[SV_WATCH_SIDE];
    /* a share of 254ths: n * mul >> 32 */
    double area = (double)side * (double)v->lines / (double)(1LL << v->shift);
    uint64_t mul = (uint64_t)(254.0 * 4294967296.0 / area);
    /* blocks of few cells (the usual zoomed-out view): shades from a
     * table, no multiply a block */
    uint8_t table[SV_SHADES];
    bool lut = v->level && area < SV_SHADES;
    for (int64_t n = 0; lut && n <= (int64_t)area; n++)
        table[n] = shade((uint64_t)n, mul);
    for (int r = 0; r < v->rows; r++) {
        uint8_t *o = out + (size_t)r * (size_t)v->cols;
        if (r >= v->nby) { /* a torus shown again below itself */
            memcpy(o, out + (size_t)(r % v->nby) * (size_t)v->cols,
                   (size_t)v->cols);
            continue;
        }
        const uint16_t *row = m + (size_t)r * (size_t)(v->lines * v->stride);
        if (!v->level) {
            cells_row(v, (const uint64_t *)(const void *)row, o);
            goto beside;
        }
        for (int64_t ix = 0; ix < nbx; ix++)
            sum[ix] = row[ix];
        for (int64_t j = 1; j < v->lines; j++)
            for (int64_t ix = 0; ix < nbx; ix++)
                sum[ix] += row[j * nbx + ix];
        if (lut)
            for (int64_t ix = 0; ix < nbx; ix++)
                o[ix] = table[sum[ix]];
        else
            for (int64_t ix = 0; ix < nbx; ix++)
                o[ix] = shade(sum[ix], mul);
    beside:
        for (int64_t c = nbx; c < v->cols; c += nbx) /* beside itself */
            memcpy(o + c, o, (size_t)(v->cols - c < nbx ? v->cols - c : nbx));
    }
}

void sv_watch_free(sv_watch *wt)
{
    for (int i = 0; i < 2; i++) {
        free(wt->set[i].maps);
        wt->set[i].maps = NULL;
        wt->set[i].cap = 0;
    }
}

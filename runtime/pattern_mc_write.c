/* Macrocell writer: the format and its coordinates are described in
 * runtime/pattern_mc_read.c. Byte for byte bgolly 3.3's HashLife output
 * after the first line ("[M2] (golgen)"): the smallest root level >= 4,
 * children before parents (nw ne sw se), identical subtrees once. */
#include "pattern.h"

#include <stdlib.h>
#include <string.h>

#include "pattern_buf.h"

/* Identical subtrees share one line: a hash table from (level, leaf bits
 * or children) to the line's number. */
typedef struct mc_key {
    uint64_t a, b; /* leaf: bits, 0; node: nw | ne << 32, sw | se << 32 */
    uint32_t level, id;
} mc_key;

typedef struct mc_writer {
    const gg_grid *g;
    int64_t gx, gy; /* the grid's top-left cell in Golly coordinates */
    int64_t bx0, by0, bx1, by1; /* the live cells' box, same coordinates */
    mc_key *table;
    size_t mask, used;
    uint32_t next_id;
    gg_textbuf out;
} mc_writer;

static uint64_t mix(uint64_t a, uint64_t b, uint32_t level)
{
    uint64_t h = a * 0x9E3779B97F4A7C15ull ^
                 (b + level) * 0xC2B2AE3D27D4EB4Full;
    return h ^ (h >> 29);
}

static bool grow(mc_writer *w)
{
    size_t cap = w->mask ? 2 * (w->mask + 1) : 4096;
    mc_key *t = calloc(cap, sizeof *t);
    if (!t)
        return false;
    for (size_t i = 0; w->mask && i <= w->mask; i++) {
        if (!w->table[i].id)
            continue;
        size_t j = mix(w->table[i].a, w->table[i].b, w->table[i].level) &
                   (cap - 1);
        while (t[j].id)
            j = (j + 1) & (cap - 1);
        t[j] = w->table[i];
    }
    free(w->table);
    w->table = t;
    w->mask = cap - 1;
    return true;
}

/* The line number of (level, a, b); *fresh when it is new and its line is
 * still to be written. 0 when out of memory. */
static uint32_t intern(mc_writer *w, uint32_t level, uint64_t a, uint64_t b,
                       bool *fresh)
{
    *fresh = false;
    if ((w->used + 1) * 2 > w->mask + 1 && !grow(w))
        return 0;
    size_t j = mix(a, b, level) & w->mask;
    for (; w->table[j].id; j = (j + 1) & w->mask)
        if (w->table[j].a == a && w->table[j].b == b &&
            w->table[j].level == level)
            return w->table[j].id;
    w->table[j] = (mc_key){a, b, level, ++w->next_id};
    w->used++;
    *fresh = true;
    return w->next_id;
}

/* 8 cells of grid row y from column x (any x, y; outside is dead). Bits
 * past the width are 0 in every grid, so no mask is needed there. */
static unsigned row8(const gg_grid *g, int64_t x, int64_t y)
{
    if (y < 0 || y >= g->height || x >= g->width || x + 8 <= 0)
        return 0;
    const uint64_t *row = gg_grid_row(g, y);
    if (x < 0)
        return (unsigned)(row[0] << -x) & 0xff;
    int64_t w = x >> 6;
    int s = (int)(x & 63);
    uint64_t v = row[w] >> s;
    if (s > 56 && w + 1 < g->stride)
        v |= row[w + 1] << (64 - s);
    return (unsigned)v & 0xff;
}

static void put_leaf(gg_textbuf *b, uint64_t bits)
{
    int rows = 8;
    while (rows > 0 && !((bits >> (8 * (rows - 1))) & 0xff))
        rows--;
    for (int y = 0; y < rows; y++) {
        unsigned r = (unsigned)(bits >> (8 * y)) & 0xff;
        for (int x = 0; r >> x; x++)
            gg_textbuf_char(b, (r >> x) & 1 ? '*' : '.');
        gg_textbuf_char(b, '$');
    }
    gg_textbuf_char(b, '\n');
}

/* The line number of the node of `level` whose top-left cell is (x, y) in
 * Golly coordinates, its lines written first; 0: empty (or out of memory,
 * which sets out.failed). */
static uint32_t build(mc_writer *w, int level, int64_t x, int64_t y)
{
    int64_t size = (int64_t)1 << level;
    if (w->out.failed || x > w->bx1 || y > w->by1 || x + size <= w->bx0 ||
        y + size <= w->by0)
        return 0;
    bool fresh;
    uint32_t id;
    if (level == 3) {
        uint64_t bits = 0;
        for (int r = 0; r < 8; r++)
            bits |= (uint64_t)row8(w->g, x - w->gx, y + r - w->gy) << (8 * r);
        if (!bits)
            return 0;
        id = intern(w, 3, bits, 0, &fresh);
        if (fresh)
            put_leaf(&w->out, bits);
    } else {
        int64_t h = size / 2;
        uint32_t c[4] = {build(w, level - 1, x, y),
                         build(w, level - 1, x + h, y),
                         build(w, level - 1, x, y + h),
                         build(w, level - 1, x + h, y + h)};
        if (!(c[0] | c[1] | c[2] | c[3]))
            return 0;
        id = intern(w, (uint32_t)level, c[0] | (uint64_t)c[1] << 32,
                    c[2] | (uint64_t)c[3] << 32, &fresh);
        if (fresh)
            gg_textbuf_printf(&w->out, "%d %u %u %u %u\n", level, c[0], c[1],
                              c[2], c[3]);
    }
    if (!id)
        w->out.failed = true;
    return id;
}

/* The smallest root level >= 4 whose area holds the live cells. */
static int root_level(const mc_writer *w)
{
    int level = 4;
    for (;; level++) {
        int64_t half = (int64_t)1 << (level - 1);
        if (w->bx0 >= -half && w->bx1 < half && w->by0 >= -half + 1 &&
            w->by1 < half + 1)
            return level;
    }
}

static void put_header(gg_textbuf *b, const gg_pattern *p)
{
    gg_textbuf_str(b, "[M2] (golgen)\n");
    if (p->rule)
        gg_textbuf_printf(b, "#R %.200s\n", p->rule);
    if (p->generation)
        gg_textbuf_printf(b, "#G %lld\n", (long long)p->generation);
    /* comments as they are, but never a line the reader would take for
     * #R or #G; #CXRLE is dropped (the tree gives the position) */
    for (const char *l = p->comments; l && *l;) {
        const char *nl = strchr(l, '\n');
        size_t n = nl ? (size_t)(nl - l) : strlen(l);
        if (strncmp(l, "#CXRLE", 6) != 0) {
            bool named = n >= 2 && (l[1] == 'R' || l[1] == 'G');
            gg_textbuf_str(b, l[0] != '#' || named ? "#C " : "");
            gg_textbuf_put(b, l, n);
            gg_textbuf_char(b, '\n');
        }
        l += n + (nl ? 1 : 0);
    }
}

int gg_pattern_format_mc(const gg_pattern *p, char **text, size_t *len,
                         gg_err *err)
{
    *text = NULL;
    *len = 0;
    if (gg_pattern_max_state(p) > 1)
        return gg_fail(err, "cannot write states above 1 as macrocell (.mc): "
                       "golgen writes two-state macrocell only; write RLE "
                       "(.rle) instead");
    if (gg_pattern_check_coords(p, err))
        return -1;
    mc_writer w = {.g = &p->plane[0], .gx = p->x, .gy = p->y};
    put_header(&w.out, p);
    int64_t x0, y0, x1, y1;
    if (w.g->bits && gg_grid_bbox(w.g, &x0, &y0, &x1, &y1)) {
        w.bx0 = p->x + x0, w.by0 = p->y + y0;
        w.bx1 = p->x + x1, w.by1 = p->y + y1;
        int level = root_level(&w);
        int64_t half = (int64_t)1 << (level - 1);
        build(&w, level, -half, -half + 1);
    }
    free(w.table);
    if (!gg_textbuf_room(&w.out, 0)) {
        free(w.out.s);
        return gg_fail(err, "out of memory formatting a macrocell pattern");
    }
    *text = w.out.s;
    *len = w.out.len;
    return 0;
}

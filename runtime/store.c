#include "store.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "atomic_file.h"
#include "store_format.h"

#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__
#error "the store's rows are written as the host's words: little-endian only"
#endif

static const char magic[8] = {'G', 'G', 'U', 'S', 'T', 'O', 'R', 'E'};

enum { OFF_SUM = 328, OFF_BANDS = 336 };

uint64_t gg_store_fnv(uint64_t h, const void *p, size_t n)
{
    const unsigned char *b = p;
    for (size_t i = 0; i < n; i++)
        h = (h ^ b[i]) * 0x100000001b3ull;
    return h;
}

static void put64(unsigned char *b, int off, uint64_t v)
{
    for (int i = 0; i < 8; i++)
        b[off + i] = (unsigned char)(v >> (8 * i));
}

static uint64_t get64(const unsigned char *b, int off)
{
    uint64_t v = 0;
    for (int i = 0; i < 8; i++)
        v |= (uint64_t)b[off + i] << (8 * i);
    return v;
}

static void put32(unsigned char *b, int off, uint32_t v)
{
    for (int i = 0; i < 4; i++)
        b[off + i] = (unsigned char)(v >> (8 * i));
}

static uint32_t get32(const unsigned char *b, int off)
{
    uint32_t v = 0;
    for (int i = 0; i < 4; i++)
        v |= (uint32_t)b[off + i] << (8 * i);
    return v;
}

int gg_store_band_rows_for(int64_t height)
{
    int64_t r = (height + GG_STORE_MAX_BANDS - 1) / GG_STORE_MAX_BANDS;
    return (int)(r < 64 ? 64 : r);
}

size_t gg_store_row_bytes(int64_t width)
{
    return (size_t)((width + 63) / 64) * 8;
}

void gg_store_header_encode(unsigned char h[GG_STORE_HEADER],
                            const gg_store_info *s, const uint64_t *sums)
{
    memset(h, 0, GG_STORE_HEADER);
    memcpy(h, magic, 8);
    put32(h, 8, 1);
    put32(h, 12, GG_STORE_HEADER);
    put64(h, 16, (uint64_t)s->width);
    put64(h, 24, (uint64_t)s->height);
    put64(h, 32, (uint64_t)s->generation);
    put64(h, 40, (uint64_t)s->x0);
    put64(h, 48, (uint64_t)s->y0);
    put32(h, 56, (uint32_t)s->planes);
    put32(h, 60, (uint32_t)s->band_rows);
    put64(h, 64, (uint64_t)s->bands);
    memcpy(h + 72, s->rule, 255); /* byte 327 stays 0: the text ends */
    put64(h, OFF_SUM, gg_store_fnv(GG_STORE_FNV0, h, OFF_SUM));
    for (int64_t b = 0; b < s->bands; b++)
        put64(h, OFF_BANDS + 8 * (int)b, sums[b]);
}

int gg_store_band_damaged(gg_err *err, const char *path,
                          const gg_store_info *s, int64_t b)
{
    return gg_fail(err, "store %s: band %lld (rows %lld .. %lld) fails its "
                   "checksum; the file is damaged", path, (long long)b,
                   (long long)(b * s->band_rows),
                   (long long)((b + 1) * s->band_rows - 1));
}

int gg_store_write(const char *path, const gg_universe *u, gg_err *err)
{
    const gg_grid *g = &u->grid;
    gg_store_info s = {1, g->width, g->height, u->generation, u->x0, u->y0,
                       1, gg_store_band_rows_for(g->height), 0, ""};
    s.bands = (g->height + s.band_rows - 1) / s.band_rows;
    gg_rule_format(&u->rule, s.rule, 255);
    unsigned char *h = malloc(GG_STORE_HEADER);
    if (!h)
        return gg_fail(err, "out of memory writing %s", path);
    /* the grid's rows are its stride apart: the store keeps them packed */
    size_t row = gg_store_row_bytes(g->width);
    uint64_t sums[GG_STORE_MAX_BANDS];
    for (int64_t b = 0; b < s.bands; b++) {
        sums[b] = GG_STORE_FNV0;
        for (int64_t y = b * s.band_rows;
             y < g->height && y < (b + 1) * s.band_rows; y++)
            sums[b] = gg_store_fnv(sums[b], gg_grid_row(g, y), row);
    }
    gg_store_header_encode(h, &s, sums);
    gg_atomic_file f;
    int bad = gg_atomic_open(path, &f, err) ||
              gg_atomic_write(&f, h, GG_STORE_HEADER, err);
    for (int64_t y = 0; !bad && y < g->height; y++)
        bad = gg_atomic_write(&f, gg_grid_row(g, y), row, err);
    free(h);
    return bad || gg_atomic_commit(&f, err) ? -1 : 0;
}

FILE *gg_store_open(const char *path, gg_store_info *s, uint64_t *sums,
                    gg_err *err)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        gg_fail(err, "cannot open store %s: %s", path, strerror(errno));
        return NULL;
    }
    unsigned char h[GG_STORE_HEADER];
    const char *why = NULL;
    if (fread(h, 1, sizeof h, f) != sizeof h)
        why = "it is shorter than a store header";
    else if (memcmp(h, magic, 8))
        why = "it does not start with GGUSTORE";
    else if (get32(h, 8) != 1 || get32(h, 12) != GG_STORE_HEADER)
        why = "its format version is not 1 (a newer golgen wrote it?)";
    else if (get64(h, OFF_SUM) != gg_store_fnv(GG_STORE_FNV0, h, OFF_SUM))
        why = "its header checksum fails (the file is damaged)";
    if (!why) {
        s->version = 1;
        s->width = (int64_t)get64(h, 16);
        s->height = (int64_t)get64(h, 24);
        s->generation = (int64_t)get64(h, 32);
        s->x0 = (int64_t)get64(h, 40);
        s->y0 = (int64_t)get64(h, 48);
        s->planes = (int)get32(h, 56);
        s->band_rows = (int)get32(h, 60);
        s->bands = (int64_t)get64(h, 64);
        memcpy(s->rule, h + 72, 255);
        s->rule[255] = 0;
        if (s->width < 1 || s->height < 1 || s->planes != 1 ||
            s->band_rows < 1 || s->bands > GG_STORE_MAX_BANDS ||
            s->bands != (s->height + s->band_rows - 1) / s->band_rows)
            why = "its header holds impossible sizes";
    }
    if (why) {
        gg_fail(err, "%s is not a golgen store: %s", path, why);
        fclose(f);
        return NULL;
    }
    for (int64_t b = 0; sums && b < s->bands; b++)
        sums[b] = get64(h, OFF_BANDS + 8 * (int)b);
    return f;
}

int gg_store_info_read(const char *path, gg_store_info *info, gg_err *err)
{
    FILE *f = gg_store_open(path, info, NULL, err);
    if (!f)
        return -1;
    fclose(f);
    return 0;
}

/* Band b's rows into rows grid y0.. of g (rows of g already sized). */
static int read_band(FILE *f, const char *path, const gg_store_info *s,
                     const uint64_t *sums, int64_t b, gg_grid *g,
                     int64_t gy0, gg_err *err)
{
    size_t row = gg_store_row_bytes(s->width);
    off_t at = GG_STORE_HEADER + (off_t)(b * s->band_rows) * (off_t)row;
    if (fseeko(f, at, SEEK_SET))
        return gg_fail(err, "cannot seek in store %s: %s", path,
                       strerror(errno));
    uint64_t sum = GG_STORE_FNV0;
    for (int64_t y = b * s->band_rows;
         y < s->height && y < (b + 1) * s->band_rows; y++) {
        uint64_t *dst = gg_grid_row(g, y - gy0);
        if (fread(dst, 1, row, f) != row)
            return gg_fail(err, "store %s ends inside band %lld (rows %lld "
                           "..): it was cut short", path, (long long)b,
                           (long long)(b * s->band_rows));
        sum = gg_store_fnv(sum, dst, row);
    }
    if (sum != sums[b])
        return gg_store_band_damaged(err, path, s, b);
    return 0;
}

int gg_store_read(const char *path, gg_universe *u, gg_err *err)
{
    gg_store_info s;
    uint64_t sums[GG_STORE_MAX_BANDS];
    memset(u, 0, sizeof *u);
    FILE *f = gg_store_open(path, &s, sums, err);
    if (!f)
        return -1;
    int bad = gg_rule_parse(s.rule, &u->rule, err) ||
              gg_grid_init(&u->grid, s.width, s.height, err);
    for (int64_t b = 0; !bad && b < s.bands; b++)
        bad = read_band(f, path, &s, sums, b, &u->grid, 0, err);
    if (!bad && fgetc(f) != EOF)
        bad = gg_fail(err, "store %s has bytes after its last row: it is "
                      "not what golgen wrote", path);
    fclose(f);
    if (!bad && gg_grid_tail_mask(&u->grid) != ~0ull)
        for (int64_t y = 0; y < s.height; y++) /* bits past the width */
            gg_grid_row(&u->grid, y)[u->grid.stride - 1] &=
                gg_grid_tail_mask(&u->grid);
    if (bad) {
        gg_grid_free(&u->grid);
        return -1;
    }
    u->x0 = s.x0;
    u->y0 = s.y0;
    u->generation = s.generation;
    return 0;
}

int gg_store_window(const char *path, int64_t x, int64_t y, int64_t w,
                    int64_t h, gg_pattern *p, gg_err *err)
{
    gg_store_info s;
    uint64_t sums[GG_STORE_MAX_BANDS];
    if (w < 1 || h < 1)
        return gg_fail(err, "a window needs a positive width and height");
    FILE *f = gg_store_open(path, &s, sums, err);
    if (!f)
        return -1;
    /* the window in grid rows, clipped to the grid */
    int64_t gx = x - s.x0, gy = y - s.y0;
    int64_t r0 = gy < 0 ? 0 : gy, r1 = gy + h > s.height ? s.height : gy + h;
    if (r1 <= r0)
        r1 = r0 = 0;
    int64_t b0 = r0 / s.band_rows, b1 = r1 ? (r1 - 1) / s.band_rows + 1 : 0;
    gg_grid rows = {0};
    int64_t first = b0 * s.band_rows;
    int64_t last = b1 * s.band_rows < s.height ? b1 * s.band_rows : s.height;
    int bad = gg_grid_init(&rows, s.width, last > first ? last - first : 1,
                           err);
    for (int64_t b = b0; !bad && b < b1; b++)
        bad = read_band(f, path, &s, sums, b, &rows, first, err);
    fclose(f);
    if (!bad)
        bad = gg_pattern_init(p, w, h, 1, err);
    if (!bad) {
        p->rule = strdup(s.rule);
        p->x = x;
        p->y = y;
        p->positioned = true;
        p->generation = s.generation;
        if (!p->rule) {
            gg_pattern_free(p);
            bad = gg_fail(err, "out of memory");
        }
    }
    if (!bad && r1 > r0) /* band rows start at grid row `first` */
        gg_grid_blit(&p->plane[0], &rows, -gx, first - gy);
    gg_grid_free(&rows);
    return bad ? -1 : 0;
}

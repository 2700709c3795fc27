/* libFuzzer harness for the store reader (runtime/formats/store.c). The input's
 * first byte chooses what the harness repairs before the reader sees the
 * rest: bit 0 the header checksum, bit 1 the band checksums too, so the
 * fuzzer reaches the sizes, the rule and the rows instead of stopping at
 * FNV-1a. The file is a memfd named by /proc/self/fd: no disk. Any store
 * that reads whole must agree with its window and hold the planes its
 * rule needs. */
#define _GNU_SOURCE
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "fuzz_memory.h"
#include "rule_gen.h"
#include "store.h"
#include "store_format.h"

enum { OFF_SUM = 328, OFF_BANDS = 336 };

static void put64(unsigned char *b, size_t off, uint64_t v)
{
    for (int i = 0; i < 8; i++)
        b[off + (size_t)i] = (unsigned char)(v >> (8 * i));
}

static uint64_t get64(const unsigned char *b, size_t off)
{
    uint64_t v = 0;
    for (int i = 0; i < 8; i++)
        v |= (uint64_t)b[off + (size_t)i] << (8 * i);
    return v;
}

/* Each band's FNV-1a over the rows the file holds, as a writer would
 * have stored it (the header's sizes taken at their word). */
static void repair_bands(unsigned char *f, size_t n)
{
    int64_t width = (int64_t)get64(f, 16), height = (int64_t)get64(f, 24);
    int64_t bands = (int64_t)get64(f, 64);
    uint32_t planes = f[56] | (uint32_t)f[57] << 8;
    uint32_t rows = f[60] | (uint32_t)f[61] << 8 | (uint32_t)f[62] << 16;
    if (width < 1 || width > (1 << 20) || height < 1 || planes < 1 ||
        planes > 8 || rows < 1 || bands < 1 || bands > GG_STORE_MAX_BANDS)
        return;
    size_t row = gg_store_row_bytes(width) * planes, at = GG_STORE_HEADER;
    for (int64_t b = 0; b < bands; b++) {
        uint64_t sum = GG_STORE_FNV0;
        for (uint32_t r = 0; r < rows && b * rows + r < (uint64_t)height &&
                             at + row <= n;
             r++, at += row)
            sum = gg_store_fnv(sum, f + at, row);
        put64(f, OFF_BANDS + 8 * (size_t)b, sum);
    }
}

static void repair(unsigned char *f, size_t n, unsigned mode)
{
    if (n < GG_STORE_HEADER)
        return;
    if (mode & 2)
        repair_bands(f, n);
    if (mode & 1)
        put64(f, OFF_SUM, gg_store_fnv(GG_STORE_FNV0, f, OFF_SUM));
}

/* A store read whole and its window over the same cells must agree. */
static void check_window(const char *path, const gg_gen_cells *c,
                         int64_t x0, int64_t y0)
{
    gg_pattern p;
    gg_err err;
    int64_t w = gg_gen_cells_width(c), h = gg_gen_cells_height(c);
    if (w * h > (1 << 22) || gg_store_window(path, x0, y0, w, h, &p, &err))
        return;
    for (int i = 0; i < c->n_planes; i++)
        if (!gg_grid_equal(&p.plane[i], &c->plane[i])) {
            fprintf(stderr, "plane %d of the window differs from the "
                    "store read whole\n", i);
            abort();
        }
    gg_pattern_free(&p);
}

static void read_all_ways(const char *path)
{
    gg_store_info s;
    gg_err err;
    if (gg_store_info_read(path, &s, &err))
        return;
    gg_universe u;
    if (!gg_store_read(path, &u, &err)) {
        gg_gen_cells one = {.n_planes = 1, .plane = {u.grid}};
        check_window(path, &one, u.x0, u.y0);
        gg_universe_free(&u);
    }
    gg_gen_universe g;
    if (!gg_store_read_gen(path, &g, &err)) {
        if (g.cells.n_planes != gg_gen_planes_of(&g.rule))
            abort();
        check_window(path, &g.cells, g.x0, g.y0);
        gg_gen_universe_free(&g);
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1)
        return 0;
    size_t n = size - 1;
    unsigned char *f = malloc(n ? n : 1);
    if (!f)
        return 0;
    memcpy(f, data + 1, n);
    repair(f, n, data[0]);
    int fd = memfd_create("fuzz-store", 0);
    if (fd < 0 || write(fd, f, n) != (ssize_t)n) {
        free(f);
        if (fd >= 0)
            close(fd);
        return 0;
    }
    char path[64];
    snprintf(path, sizeof path, "/proc/self/fd/%d", fd);
    read_all_ways(path);
    close(fd);
    free(f);
    return 0;
}

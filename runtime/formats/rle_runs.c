/* A sparse RLE's runs kept in a list (runtime/formats/rle_runs.h): what
 * a tree is built from, and what a dense pattern is drawn from when the
 * run goes to the dense engine after all. */
#include "rle_runs.h"

#include <stdlib.h>
#include <string.h>

static int collect(void *ctx, int64_t x, int64_t y, int64_t n, int state,
                   gg_err *err)
{
    gg_pattern_runs *r = ctx;
    if (r->n == r->cap) {
        size_t cap = r->cap ? 2 * r->cap : 1024;
        gg_rle_run *nr = realloc(r->run, cap * sizeof *nr);
        if (!nr)
            return gg_fail(err, "out of memory keeping %zu runs of an RLE",
                           cap);
        r->run = nr;
        r->cap = cap;
    }
    r->run[r->n++] = (gg_rle_run){x, y, n, state};
    /* a dense pattern's planes count a cell once a plane it is in */
    int64_t add = n * __builtin_popcount((unsigned)state);
    r->population = add > INT64_MAX - r->population ? INT64_MAX
                                                    : r->population + add;
    r->live = n > INT64_MAX - r->live ? INT64_MAX : r->live + n;
    if (r->x1 < r->x0) {
        r->x0 = x, r->x1 = x + n - 1, r->y0 = r->y1 = y;
    } else {
        r->x0 = x < r->x0 ? x : r->x0;
        r->x1 = x + n - 1 > r->x1 ? x + n - 1 : r->x1;
        r->y1 = y; /* rows come downwards */
    }
    if (state > r->top)
        r->top = state;
    return 0;
}

int gg_pattern_runs_parse(const char *text, size_t len, const char *name,
                          gg_stop_flag *stop, double cells_per_byte,
                          gg_pattern_runs *r, gg_err *err)
{
    memset(r, 0, sizeof *r);
    r->x0 = r->y0 = 0, r->x1 = r->y1 = -1;
    int rc = gg_pattern_parse_rle_runs(text, len, name, stop, cells_per_byte,
                                       collect, r, &r->head, &r->width,
                                       &r->height, err);
    if (rc)
        gg_pattern_runs_free(r);
    return rc;
}

/* Cells x .. x + n - 1 of a grid row on, a word at a time. */
static void fill_run(uint64_t *row, int64_t x, int64_t n)
{
    for (int64_t e = x + n; x < e;) {
        int b = (int)(x & 63);
        int64_t k = 64 - b < e - x ? 64 - b : e - x;
        row[x >> 6] |= (k == 64 ? ~0ull : ((1ull << k) - 1)) << b;
        x += k;
    }
}

int gg_pattern_runs_to_pattern(gg_pattern_runs *r, gg_pattern *p,
                               gg_err *err)
{
    int planes = 1;
    while ((1 << planes) <= r->top)
        planes++;
    if (gg_pattern_init(p, r->width, r->height, planes, err))
        return -1;
    for (size_t i = 0; i < r->n; i++)
        for (int k = 0; k < planes; k++)
            if ((r->run[i].state >> k) & 1)
                fill_run(gg_grid_row(&p->plane[k], r->run[i].y), r->run[i].x,
                         r->run[i].n);
    gg_pattern *h = &r->head;
    p->rule = h->rule, h->rule = NULL;
    p->comments = h->comments, h->comments = NULL;
    p->x = h->x, p->y = h->y;
    p->generation = h->generation;
    p->positioned = h->positioned;
    p->multistate = h->multistate;
    p->known_max = h->known_max;
    return 0;
}

void gg_pattern_runs_free(gg_pattern_runs *r)
{
    gg_pattern_free(&r->head);
    free(r->run);
    memset(r, 0, sizeof *r);
}

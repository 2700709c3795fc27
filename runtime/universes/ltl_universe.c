#include "ltl_universe.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "batch.h"
#include "picture.h"
#include "store.h"

/* A w x h board and its next generation, all dead (u is not changed). */
static int alloc_board(const gg_ltl_universe *u, int64_t w, int64_t h,
                       uint8_t **c, uint8_t **n, gg_err *err)
{
    if (w <= 0 || h <= 0 || (double)w * (double)h > (double)GG_LTL_MAX_BOARD)
        return gg_fail(err, "%s: a %lldx%lld board passes golgen's %lld "
                       "cells for the unbounded Larger than Life plane; "
                       "give the rule a bounded grid", u->rule_text,
                       (long long)w, (long long)h,
                       (long long)GG_LTL_MAX_BOARD);
    *c = calloc((size_t)(w * h), 1);
    *n = calloc((size_t)(w * h), 1);
    if (*c && *n)
        return 0;
    free(*c);
    free(*n);
    return gg_fail(err, "out of memory for a %lldx%lld Larger than Life "
                   "grid", (long long)w, (long long)h);
}

static int board(gg_ltl_universe *u, int64_t w, int64_t h, gg_err *err)
{
    if (alloc_board(u, w, h, &u->cells, &u->next, err))
        return -1;
    u->w = w;
    u->h = h;
    return 0;
}

/* The first non-0 byte of row[0..w), or w: eight bytes a load, since the
 * unbounded plane's board is mostly dead and is scanned every batch (a
 * byte at a time it was most of R100-alien-bug's run). */
static int64_t first_live(const uint8_t *row, int64_t w)
{
    int64_t x = 0;
    for (; x + 8 <= w; x += 8) {
        uint64_t v;
        memcpy(&v, row + x, 8);
        if (v)
            break;
    }
    while (x < w && !row[x])
        x++;
    return x;
}

/* The last non-0 byte of row[0..w) (the row has one). */
static int64_t last_live(const uint8_t *row, int64_t w)
{
    int64_t x = w;
    for (; x >= 8; x -= 8) {
        uint64_t v;
        memcpy(&v, row + x - 8, 8);
        if (v)
            break;
    }
    while (!row[x - 1])
        x--;
    return x - 1;
}

/* The box of non-0 cells; false when there are none. */
static bool bbox(const gg_ltl_universe *u, int64_t *x0, int64_t *y0,
                 int64_t *x1, int64_t *y1)
{
    *x0 = u->w, *y0 = u->h, *x1 = -1, *y1 = -1;
    for (int64_t y = 0; y < u->h; y++) {
        const uint8_t *row = u->cells + y * u->w;
        int64_t a = first_live(row, u->w);
        if (a == u->w)
            continue;
        int64_t b = last_live(row, u->w);
        *x0 = a < *x0 ? a : *x0;
        *x1 = b > *x1 ? b : *x1;
        *y0 = y < *y0 ? y : *y0;
        *y1 = y;
    }
    return *x1 >= 0;
}

/* Where the pattern's box goes: a #CXRLE Pos (or an MCell file's own
 * placing) is kept; otherwise Golly's default for the rule's grid. */
static void place(const gg_ltl_universe *u, const gg_pattern *p, int64_t *x,
                  int64_t *y)
{
    int64_t w = gg_pattern_width(p), h = gg_pattern_height(p), fx, fy;
    gg_pattern_default_pos(p->rule ? p->rule : "", w, h, &fx, &fy);
    *x = p->x, *y = p->y;
    if (!p->positioned && *x == fx && *y == fy)
        gg_pattern_default_pos(u->rule_text, w, h, x, y);
}

int gg_ltl_universe_from_pattern(gg_ltl_universe *u, const gg_ltl_rule *rule,
                                 const gg_pattern *p, gg_err *err)
{
    memset(u, 0, sizeof *u);
    u->rule = *rule;
    gg_ltl_format(rule, u->rule_text, sizeof u->rule_text);
    u->generation = p->generation;
    int top = gg_pattern_max_state(p);
    if (top >= rule->states)
        return gg_fail(err, "the pattern has cells in state %d, but %s has "
                       "states 0..%d", top, u->rule_text, rule->states - 1);
    int64_t pw = gg_pattern_width(p), ph = gg_pattern_height(p), px, py;
    place(u, p, &px, &py);
    int64_t margin = 2 * (int64_t)rule->range + 2;
    int bad = rule->topo == GG_TOPO_UNBOUNDED
                  ? board(u, pw + 2 * margin, ph + 2 * margin, err)
                  : board(u, rule->width, rule->height, err);
    if (bad || gg_ltl_ref_init(&u->ref, rule, err)) {
        gg_ltl_universe_free(u);
        return -1;
    }
    if (rule->topo == GG_TOPO_UNBOUNDED) {
        u->x0 = px - margin;
        u->y0 = py - margin;
    } else {
        u->x0 = -(u->w / 2);
        u->y0 = -(u->h / 2);
    }
    for (int64_t y = 0; y < ph; y++)
        for (int64_t x = 0; x < pw; x++) {
            int s = gg_pattern_get(p, x, y);
            if (!s)
                continue;
            int64_t bx = px + x - u->x0, by = py + y - u->y0;
            if (bx < 0 || by < 0 || bx >= u->w || by >= u->h) {
                gg_fail(err, "the pattern's cell at (%lld, %lld) lies "
                        "outside the %lldx%lld grid of %s",
                        (long long)(px + x), (long long)(py + y),
                        (long long)u->w, (long long)u->h, u->rule_text);
                gg_ltl_universe_free(u);
                return -1;
            }
            u->cells[by * u->w + bx] = (uint8_t)s;
        }
    return 0;
}

/* The unbounded plane: `need` dead cells at least beyond the non-0 box
 * (a batch of b generations needs R*b + 1: the live cells spread at most
 * R a generation, and a birth needs a state-1 cell within R), and not far
 * more than a fresh margin (a spaceship's wake is dropped). */
typedef struct {
    int64_t x0, y0, x1, y1;
    bool any;
} live_box;

static live_box box_of(const gg_ltl_universe *u)
{
    live_box b;
    b.any = bbox(u, &b.x0, &b.y0, &b.x1, &b.y1);
    return b;
}

static int keep_margin(gg_ltl_universe *u, const live_box *box, int64_t need,
                       gg_err *err)
{
    if (!box->any)
        return 0;
    int64_t x0 = box->x0, y0 = box->y0, x1 = box->x1, y1 = box->y1;
    int64_t bw = x1 - x0 + 1, bh = y1 - y0 + 1, big_side = bw > bh ? bw : bh;
    int64_t side[4] = {x0, y0, u->w - 1 - x1, u->h - 1 - y1};
    int64_t big = 4 * need + 64 + big_side;
    bool regrow = false;
    for (int i = 0; i < 4; i++)
        regrow |= side[i] < need || side[i] > big;
    if (!regrow)
        return 0;
    /* slack for the pattern to move before the next regrow: a board
     * stepped whole costs its area a generation, and a regrow only a
     * copy of it, so little (need / 2 more: R100-alien-bug 1000
     * generations 105 -> 58 CPU ms, R500's 2.35 -> 1.74 s) */
    int64_t m = need + 8 + big_side / 8;
    int64_t nw = bw + 2 * m;
    uint8_t *c, *n;
    if (alloc_board(u, nw, bh + 2 * m, &c, &n, err))
        return -1;
    for (int64_t y = 0; y < bh; y++)
        memcpy(c + (y + m) * nw + m, u->cells + (y + y0) * u->w + x0,
               (size_t)bw);
    free(u->cells);
    free(u->next);
    u->cells = c;
    u->next = n;
    u->w = nw;
    u->h = bh + 2 * m;
    u->x0 += x0 - m;
    u->y0 += y0 - m;
    return 0;
}

/* The most generations one call may run on the unbounded plane: the
 * margin they need (R a generation) kept near the live pattern's own size.
 * (Sized by the board instead, each batch's margin grew the board and the
 * board the next batch: R100-alien-bug, 204 x 203 cells, stepped a board
 * of ~26k^2 and took 31 s for 400 generations.) */
static int64_t plane_batch(const gg_ltl_universe *u, const live_box *box)
{
    int64_t side = 1;
    if (box->any)
        side = box->x1 - box->x0 > box->y1 - box->y0
                   ? box->x1 - box->x0 + 1
                   : box->y1 - box->y0 + 1;
    /* a small pattern's board is mostly margin: 32 cells of spread a
     * batch (Jitterbug, R4: 11.1 -> 8.7 ms for 1000 generations at 64) */
    int64_t b = (side / 2 > 32 ? side / 2 : 32) / u->rule.range;
    return b < 1 ? 1 : b > 64 ? 64 : b;
}

/* b generations: the stepper's (in place), or the reference's one at a
 * time; the generations run (fewer at a stop), -1 on failure. */
static int64_t step_batch(gg_ltl_universe *u, int64_t b, gg_stop_flag *stop,
                          gg_err *err)
{
    bool torus = u->rule.topo == GG_TOPO_TORUS;
    if (u->step)
        return u->step(u->step_ctx, u->cells, u->w, u->h, torus, b, stop,
                       err);
    for (int64_t g = 0; g < b; g++) {
        int rc = gg_ltl_ref_step(&u->ref, u->cells, u->next, u->w, u->h,
                                 torus, stop, err);
        if (rc < 0)
            return -1;
        if (rc > 0) /* given up at a stop: the last generation stays */
            return g;
        uint8_t *t = u->cells;
        u->cells = u->next;
        u->next = t;
    }
    return b;
}

int gg_ltl_universe_run(gg_ltl_universe *u, int64_t gens, gg_stop_flag *stop,
                        gg_progress_fn progress, void *progress_ctx,
                        gg_err *err)
{
    if (gg_generations_check(u->generation, gens, err))
        return -1;
    bool plane = u->rule.topo == GG_TOPO_UNBOUNDED;
    double last = gg_batch_clock();
    int64_t batch = 1, done = 0;
    while (done < gens) {
        int64_t b = gens - done < batch ? gens - done : batch;
        if (plane) { /* the box is scanned once a batch: the board is big */
            live_box box = box_of(u);
            int64_t most = u->step ? plane_batch(u, &box) : b;
            b = b < most ? b : most;
            if (keep_margin(u, &box, u->rule.range * b + 1, err))
                return -1;
        }
        double t0 = gg_batch_clock();
        int64_t ran = step_batch(u, b, stop, err);
        if (ran < 0)
            return -1;
        u->generation += ran;
        done += ran;
        if (ran < b || gg_stop_asked(stop))
            break;
        double now = gg_batch_clock();
        /* a stepper's calls grow while short: progress and stops stay
         * prompt, the per-call costs small */
        if (u->step && now - t0 < 0.25 && batch < (1 << 20))
            batch *= 2;
        if (progress && (now - last >= 0.5 || done == gens)) {
            last = now;
            if (!progress(progress_ctx, done, gens))
                break;
        }
    }
    return 0;
}

int gg_ltl_universe_to_pattern(const gg_ltl_universe *u, gg_pattern *p,
                               gg_err *err)
{
    memset(p, 0, sizeof *p);
    int64_t x0, y0, x1, y1;
    if (!bbox(u, &x0, &y0, &x1, &y1))
        x0 = y0 = 0, x1 = y1 = -1;
    int planes = 1;
    while ((1 << planes) < u->rule.states)
        planes++;
    if (gg_pattern_init(p, x1 - x0 + 1, y1 - y0 + 1, planes, err))
        return -1;
    for (int64_t y = y0; y <= y1; y++)
        for (int64_t x = x0; x <= x1; x++) {
            uint8_t s = u->cells[y * u->w + x];
            if (s && gg_pattern_set(p, x - x0, y - y0, s, err)) {
                gg_pattern_free(p);
                return -1;
            }
        }
    p->rule = strdup(u->rule_text);
    if (!p->rule) {
        gg_pattern_free(p);
        return gg_fail(err, "out of memory");
    }
    p->x = u->x0 + x0;
    p->y = u->y0 + y0;
    p->generation = u->generation;
    p->multistate = u->rule.states > 2; /* bgolly: letters past 2 states */
    return 0;
}

int64_t gg_ltl_universe_population(const gg_ltl_universe *u)
{
    int64_t n = 0;
    for (int64_t i = 0; i < u->w * u->h; i++)
        n += u->cells[i] != 0;
    return n;
}

void gg_ltl_universe_free(gg_ltl_universe *u)
{
    free(u->cells);
    free(u->next);
    gg_ltl_ref_free(&u->ref);
    memset(u, 0, sizeof *u);
}

/* ---- stores and pictures: the bytes as state planes ---- */

static int planes_of(int states)
{
    int p = 1;
    while ((1 << p) < states)
        p++;
    return p;
}

/* The whole board as ceil(log2 C) planes (what stores and pictures take). */
static int to_planes(const gg_ltl_universe *u, gg_gen_cells *c, gg_err *err)
{
    if (gg_gen_cells_init(c, planes_of(u->rule.states), u->w, u->h, err))
        return -1;
    for (int64_t y = 0; y < u->h; y++) {
        const uint8_t *row = u->cells + y * u->w;
        for (int p = 0; p < c->n_planes; p++) {
            uint64_t *dst = gg_grid_row(&c->plane[p], y);
            for (int64_t x = 0; x < u->w; x++)
                dst[x >> 6] |= (uint64_t)((row[x] >> p) & 1) << (x & 63);
        }
    }
    return 0;
}

int gg_ltl_universe_write_store(const char *path, const gg_ltl_universe *u,
                                gg_err *err)
{
    gg_gen_cells c;
    if (to_planes(u, &c, err))
        return -1;
    int bad = gg_store_write_cells(path, &c, u->rule_text, u->generation,
                                   u->x0, u->y0, err);
    gg_gen_cells_free(&c);
    return bad;
}

/* The planes c into the board (sized as they are), refusing a state the
 * rule lacks (a store's checksums say only that it was not damaged). */
static int from_planes(gg_ltl_universe *u, const gg_gen_cells *c,
                       const char *path, gg_err *err)
{
    for (int64_t y = 0; y < u->h; y++) {
        uint8_t *row = u->cells + y * u->w;
        for (int p = 0; p < c->n_planes; p++) {
            const uint64_t *src = gg_grid_row(&c->plane[p], y);
            for (int64_t x = 0; x < u->w; x++)
                row[x] |= (uint8_t)(((src[x >> 6] >> (x & 63)) & 1) << p);
        }
        for (int64_t x = 0; x < u->w; x++)
            if (row[x] >= u->rule.states)
                return gg_fail(err, "store %s: the cell at (%lld, %lld) is "
                               "in state %d, but %s has states 0..%d: the "
                               "file is not what golgen wrote", path,
                               (long long)(u->x0 + x), (long long)(u->y0 + y),
                               row[x], u->rule_text, u->rule.states - 1);
    }
    return 0;
}

int gg_ltl_universe_read_store(gg_ltl_universe *u, const char *path,
                               gg_err *err)
{
    gg_gen_cells c;
    gg_store_info s;
    memset(u, 0, sizeof *u);
    if (gg_store_read_cells(path, &c, &s, err))
        return -1;
    int bad = gg_ltl_parse(s.rule, &u->rule, err);
    if (!bad) {
        gg_ltl_format(&u->rule, u->rule_text, sizeof u->rule_text);
        if (u->rule.topo != GG_TOPO_UNBOUNDED &&
            (s.width != u->rule.width || s.height != u->rule.height))
            bad = gg_fail(err, "store %s: its grid is %lldx%lld, but its "
                          "rule %s asks for %lldx%lld: the file is not what "
                          "golgen wrote", path, (long long)s.width,
                          (long long)s.height, u->rule_text,
                          (long long)u->rule.width,
                          (long long)u->rule.height);
    }
    bad = bad || board(u, s.width, s.height, err) ||
          gg_ltl_ref_init(&u->ref, &u->rule, err);
    if (!bad) {
        u->x0 = s.x0;
        u->y0 = s.y0;
        u->generation = s.generation;
        bad = from_planes(u, &c, path, err);
    }
    gg_gen_cells_free(&c);
    if (bad)
        gg_ltl_universe_free(u);
    return bad ? -1 : 0;
}

int gg_ltl_universe_write_picture(const char *path, const gg_ltl_universe *u,
                                  const gg_picture_opts *o,
                                  gg_picture_info *info, gg_err *err)
{
    gg_gen_cells c;
    if (to_planes(u, &c, err))
        return -1;
    int bad = gg_picture_write_cells(path, &c, u->rule.states,
                                     u->rule.topo != GG_TOPO_UNBOUNDED,
                                     u->x0, u->y0, o, info, err);
    gg_gen_cells_free(&c);
    return bad;
}

/* Stepping the tree: a node's memoized future (HashLife's recursion), the
 * leaf squares a backend steps, and runs of any length, each in one pass
 * (runtime/engines/hashlife.h). */
#include "hl_small.h"
#include "hl_tree.h"

#include <stdlib.h>
#include <string.h>

#include "universe.h"

/* Leaf squares (2 leaves a side) are stepped in batches, side by side in
 * one grid of the backend's: a square's outer quarter absorbs what its
 * neighbours do (2^j <= leaf / 2 generations move an influence at most
 * that far, and only its centre half is kept), so no gap is needed. A
 * batch's shape is the tree's (hl_io.c's leaf_shape). */

/* Plane p of the 2-leaf square q (nw ne sw se leaves) into grid g, its
 * top-left cell at (x0, y0), x0 a multiple of 2 x leaf: a word holding several
 * squares is written by its first and OR-ed by the others. */
static void square_in(const gg_hl *h, const hl_id q[4], int p, gg_grid *g,
                      int64_t x0, int64_t y0)
{
    int s = (int)(x0 & 63), sq = 2 * h->leaf_side;
    for (int y = 0; y < sq; y++) {
        int top = y < h->leaf_side, ly = p * h->leaf_side + (top ? y : y - h->leaf_side);
        uint64_t l = hl_rows(h, q[top ? 0 : 2])[ly];
        uint64_t r = hl_rows(h, q[top ? 1 : 3])[ly];
        uint64_t *row = gg_grid_row(g, y0 + y) + (x0 >> 6);
        if (h->leaf_side == 64) {
            row[0] = l, row[1] = r;
        } else {
            uint64_t v = l | r << h->leaf_side;
            row[0] = s ? row[0] | v << s : v;
        }
    }
}

/* The centre of the square at (x0, y0) of grid g into plane p of a leaf
 * block. */
static void centre_out(const gg_hl *h, const gg_grid *g, int p,
                       uint64_t *rows, int64_t x0, int64_t y0)
{
    int s = (int)(x0 & 63), half = h->leaf_side / 2;
    for (int y = 0; y < h->leaf_side; y++) {
        const uint64_t *row = gg_grid_row(g, y0 + y + half) + (x0 >> 6);
        rows[p * h->leaf_side + y] =
            h->leaf_side == 64 ? (row[0] >> half) | (row[1] << half)
                          : (row[0] >> (s + half)) & h->leaf_mask;
    }
}

/* The four half-size squares of the 3x3 grid of quarter squares r, as
 * children (q) and, for level k - 1 > 0, as nodes (m). */
static void four(const hl_id r[9], hl_id q[4][4])
{
    static const int at[4] = {0, 1, 3, 4};
    for (int i = 0; i < 4; i++) {
        int o = at[i];
        q[i][0] = r[o], q[i][1] = r[o + 1];
        q[i][2] = r[o + 3], q[i][3] = r[o + 4];
    }
}

/* ---- step codes (hl_tree.h's HL_ODD) ----
 *
 * A step of t generations from a node of level k (t <= 2^(k-2)) is
 * HashLife's recursion with its halves unequal: its nine sub-squares
 * min(t, 2^(k-3)) generations on, then, when t > 2^(k-3), the four
 * squares of those t - 2^(k-3) on. So a level-k node is asked for
 * either its full 2^(k-2) or ((t - 1) mod 2^(k-2)) + 1 of the step's t:
 * one count a level, and one pass makes the result of any count, where
 * a count's binary expansion (as Golly's HashLife does with a count's
 * power-of-two part; it steps the odd factor's times) took a pass over
 * the whole tree per set bit. */

static int code_of(int64_t t)
{
    return t & (t - 1) ? HL_ODD : __builtin_ctzll((uint64_t)t);
}

/* The generations code c asks of a node of level k. */
static int64_t gens_of(const gg_hl *h, int c, int k)
{
    if (c != HL_ODD)
        return (int64_t)1 << c;
    return ((h->odd_gens - 1) & (((int64_t)1 << (k - 2)) - 1)) + 1;
}

/* The code of a node of level k's nine sub-squares (the first half-step)
 * when it is asked for code c; *second: a second half-step follows. */
static int first_code(const gg_hl *h, int c, int k, bool *second)
{
    *second = gens_of(h, c, k) > (int64_t)1 << (k - 3);
    return *second ? k - 3 : c;
}

/* The code of the second half-step's four squares (level k - 1). */
static int second_code(const gg_hl *h, int c, int k)
{
    return code_of(gens_of(h, c, k) - ((int64_t)1 << (k - 3)));
}

/* Which of a node's two results code c is kept in (hl_tree.h). */
static int slot_of(const hl_node *d, int c)
{
    return c != d->level - 2;
}

static int queue_of(const gg_hl *h, int c)
{
    return c == HL_ODD ? h->leaf_log : c;
}

/* ---- results breadth-first: frames, waiters, requests, batches ----
 *
 * HashLife's recursion (a node's centre t generations on from its nine
 * sub-squares' results, then, for t > 2^(level-3), the four squares of
 * those stepped again: the step codes above) runs as frames: a frame waits for its parts, and
 * requests for parts are started last-in first-out (depth first), so
 * that every leaf square that can be stepped now is queued before any is
 * stepped; a queue is stepped when it is full or nothing else can start.
 * A node's result field marks its frame while it is computed (HL_BUSY),
 * so a square wanted twice is computed once. */

/* A step's frames, waiters and requests are written fresh by every step
 * that makes many new results (linear-propagator's first step of 8: 950
 * page faults, 1.3 ms of its 7 on the VM): past HL_SCRATCH_SMALL an array
 * moves once into an arena on huge pages (hl_arena) and grows in place;
 * below, realloc (a small pattern's few pages, often reused heap). */
#define HL_SCRATCH_SMALL ((size_t)256 << 10)

/* *arr (`have` bytes used, *mapped: its arena's bytes, 0 none) made room
 * for `want` bytes; false (and the step is given up as over budget)
 * when memory ran out. */
static bool grow_scratch(gg_hl *h, void **arr, size_t *mapped, size_t have,
                         size_t want)
{
    if (!*mapped && want > HL_SCRATCH_SMALL) {
        size_t bytes;
        void *a = hl_arena(h, &bytes);
        if (a) {
            if (have)
                memcpy(a, *arr, have);
            free(*arr);
            *arr = a;
            *mapped = bytes;
        }
    }
    if (*mapped) {
        if (want <= *mapped)
            return true;
    } else {
        void *a = realloc(*arr, want);
        if (a) {
            *arr = a;
            return true;
        }
    }
    h->full = true;
    h->abort = true;
    return false;
}

/* Room for one more of `size` bytes in *arr (capacity *cap, 32-bit
 * indices). */
static bool room(gg_hl *h, void **arr, size_t *mapped, uint32_t n,
                 uint32_t *cap, size_t size)
{
    if (n < *cap)
        return true;
    uint32_t want = *cap ? *cap * 2 : 256;
    if (want <= *cap) {
        h->full = true;
        h->abort = true;
        return false;
    }
    if (!grow_scratch(h, arr, mapped, (size_t)*cap * size,
                      (size_t)want * size))
        return false;
    *cap = want;
    return true;
}

static uint32_t new_frame(gg_hl *h)
{
    uint32_t f = h->free_frames;
    if (f) {
        h->free_frames = h->frame[f].waiters;
        return f;
    }
    if (!room(h, (void **)&h->frame, &h->frame_mapped, h->n_frames,
              &h->cap_frames, sizeof *h->frame) ||
        !room(h, (void **)&h->ready, &h->ready_mapped, h->n_frames,
              &h->cap_ready, sizeof *h->ready))
        return 0;
    return h->n_frames++;
}

static void free_frame(gg_hl *h, uint32_t f)
{
    h->frame[f].stage = -1;
    h->frame[f].waiters = h->free_frames;
    h->free_frames = f;
}

/* Frame f, slot `slot`, wants frame g's result. */
static void add_waiter(gg_hl *h, uint32_t g, uint32_t f, uint32_t slot)
{
    uint32_t w = h->free_waiters;
    if (w) {
        h->free_waiters = h->waiter[w].next;
    } else {
        if (!room(h, (void **)&h->waiter, &h->waiter_mapped, h->n_waiters,
                  &h->cap_waiters, sizeof *h->waiter))
            return;
        w = h->n_waiters++;
    }
    h->waiter[w] = (hl_waiter){f, h->frame[g].waiters, slot};
    h->frame[g].waiters = w;
}

static void push(gg_hl *h, hl_id n, int j, uint32_t f, uint32_t slot)
{
    if (h->n_req >= h->cap_req) {
        int64_t want = h->cap_req ? h->cap_req * 2 : 256;
        if (!grow_scratch(h, (void **)&h->req, &h->req_mapped,
                          (size_t)h->cap_req * sizeof *h->req,
                          (size_t)want * sizeof *h->req))
            return;
        h->cap_req = want;
    }
    h->req[h->n_req++] = (hl_request){n, f, slot, j};
}

static void deliver(gg_hl *h, uint32_t f, uint32_t slot, hl_id r);

/* Frame f's result r: memoized in its node, handed to its waiters. */
static void finish(gg_hl *h, uint32_t f, hl_id r)
{
    if (!r) {
        h->abort = true;
        return;
    }
    hl_node *d = &h->node[h->frame[f].n];
    int s = slot_of(d, h->frame[f].j);
    d->res[s] = r;
    d->res_j[s] = h->frame[f].j;
    uint32_t w = h->frame[f].waiters;
    uint32_t parent = h->frame[f].parent, slot = (uint32_t)h->frame[f].slot;
    free_frame(h, f);
    deliver(h, parent, slot, r);
    while (w && !h->abort) {
        hl_waiter x = h->waiter[w];
        h->waiter[w].next = h->free_waiters;
        h->free_waiters = w;
        deliver(h, x.frame, x.slot, r);
        w = x.next;
    }
}

/* Part `slot` of frame f (not frame 0) is r: with all the parts of its
 * stage the frame is ready, advanced with others. */
static inline void fill(gg_hl *h, uint32_t f, uint32_t slot, hl_id r)
{
    hl_frame *fr = &h->frame[f];
    fr->r[slot] = r;
    if (--fr->pending)
        return;
    h->ready[h->n_ready++] = f;
}

static void deliver(gg_hl *h, uint32_t f, uint32_t slot, hl_id r)
{
    if (!r)
        h->abort = true;
    else if (!f)
        h->top = r;
    else
        fill(h, f, slot, r);
}

/* Frame f's slot waits for n's step code j when a frame computes it. */
static bool wait_busy(gg_hl *h, hl_id n, int j, uint32_t f, uint32_t slot)
{
    const hl_node *d = &h->node[n];
    int s = slot_of(d, j);
    if (!d->res[s] || d->res_j[s] != HL_BUSY + j)
        return false;
    add_waiter(h, d->res[s], f, slot);
    return true;
}

/* A part in flight waited for, else requested (want's rare cases). */
static __attribute__((noinline)) void want_later(gg_hl *h, hl_id n, int j,
                                                 uint32_t f, uint32_t slot)
{
    if (!wait_busy(h, n, j, f, slot))
        push(h, n, j, f, slot);
}

/* n's centre step code j on where known (n empty, or memoized), else 0:
 * masks, not branches, as which case a part is varies at random (the
 * mispredicted branches cost jagged2 10% of its CPU time). */
static inline hl_id known(const gg_hl *h, hl_id n, int j)
{
    const hl_node *d = &h->node[n];
    int s = slot_of(d, j), k = d->level;
    uint32_t memo = -(uint32_t)(d->res_j[s] == j);
    uint32_t empty = -(uint32_t)(n == h->empty[k]);
    return (d->res[s] & memo & ~empty) | (h->empty[k - 1] & empty);
}

/* Frame f's slot (f > 0) wants n's centre step code j on: delivered now
 * when known or waited for when in flight, else requested. Checked
 * here, while n's node is still in the cache from the join that found
 * it, a known part costs no second miss when its request would come off
 * the stack (start checks again). Six in seven parts are known
 * (jagged2: 6.0M wants, 0.7M requests), so that path is inline. */
static inline void want(gg_hl *h, hl_id r, hl_id n, int j, uint32_t f,
                        uint32_t slot)
{
    if (__builtin_expect(r != 0, 1)) /* r: known(h, n, j) */
        fill(h, f, slot, r);
    else
        want_later(h, n, j, f, slot);
}

/* The opening frames' nodes (level k >= leaf + 2) cut into their nine
 * overlapping half-size squares, row by row, and those requested. */
static void open_frames(gg_hl *h)
{
    int m = h->n_opening, lv[5 * HL_FRAME_BATCH] = {0};
    uint32_t f[HL_FRAME_BATCH];
    memcpy(f, h->opening, (size_t)m * sizeof *f);
    h->n_opening = 0;
    hl_id c[HL_FRAME_BATCH][4], g[HL_FRAME_BATCH][4][4], q[5 * HL_FRAME_BATCH][4],
        o[5 * HL_FRAME_BATCH];
    for (int i = 0; i < m; i++)
        __builtin_prefetch(&h->node[h->frame[f[i]].n]);
    for (int i = 0; i < m; i++) {
        memcpy(c[i], h->node[h->frame[f[i]].n].child, sizeof c[i]);
        for (int k = 0; k < 4; k++)
            __builtin_prefetch(&h->node[c[i][k]]);
    }
    for (int i = 0; i < m; i++) {
        for (int k = 0; k < 4; k++)
            memcpy(g[i][k], h->node[c[i][k]].child, sizeof g[i][k]);
        const hl_id *a = g[i][0], *b = g[i][1], *d = g[i][2], *e = g[i][3];
        const hl_id sq[5][4] = {{a[1], b[0], a[3], b[2]},
                                {a[2], a[3], d[0], d[1]},
                                {a[3], b[2], d[1], e[0]},
                                {b[2], b[3], e[0], e[1]},
                                {d[1], e[0], d[3], e[2]}};
        memcpy(q[5 * i], sq, sizeof sq);
        for (int k = 0; k < 5; k++)
            lv[5 * i + k] = h->node[h->frame[f[i]].n].level - 1;
    }
    hl_joins(h, 5 * m, lv, (const hl_id (*)[4])q, o);
    /* what is known of every part, looked up before any is delivered
     * (nothing here changes a node's results): the loads overlap */
    hl_id s[HL_FRAME_BATCH][9], got[HL_FRAME_BATCH][9];
    int jj[HL_FRAME_BATCH];
    for (int i = 0; i < m; i++) {
        const hl_id *x = o + 5 * i;
        const hl_id p[9] = {c[i][0], x[0], c[i][1], x[1], x[2],
                            x[3],    c[i][2], x[4], c[i][3]};
        if (!x[0] || !x[1] || !x[2] || !x[3] || !x[4]) {
            h->abort = true;
            return;
        }
        memcpy(s[i], p, sizeof p);
        bool second;
        jj[i] = first_code(h, h->frame[f[i]].j, h->frame[f[i]].level, &second);
        for (int k = 0; k < 9; k++)
            got[i][k] = known(h, s[i][k], jj[i]);
    }
    for (int i = m - 1; i >= 0 && !h->abort; i--) {
        h->frame[f[i]].pending = 9;
        for (int k = 8; k >= 0 && !h->abort; k--)
            want(h, got[i][k], s[i][k], jj[i], f[i], (uint32_t)k);
    }
}

/* Up to HL_FRAME_BATCH ready frames advanced, by kind: a frame with its
 * second half-step's four results joins them (its result); one with its
 * nine and a second half-step to come joins its four squares and wants
 * them stepped; one with its nine and no second half-step joins the
 * four squares' centres (its result). Each kind's frames go in a loop
 * of their own (a branch on a frame's kind in every loop was
 * mispredicted for a frame in three or so). */
static void advance_ready(gg_hl *h)
{
    enum { DONE, SECOND, CENTRES }; /* the kinds */
    uint32_t f[3][HL_FRAME_BATCH];
    int n[3] = {0, 0, 0};
    while (h->n_ready && n[0] + n[1] + n[2] < HL_FRAME_BATCH) {
        uint32_t g = h->ready[--h->n_ready];
        const hl_frame *fr = &h->frame[g];
        bool second = false;
        if (fr->stage == 1)
            first_code(h, fr->j, fr->level, &second);
        int kind = fr->stage == 2 ? DONE : second ? SECOND : CENTRES;
        f[kind][n[kind]++] = g;
        if (kind != SECOND) /* finish writes the node */
            __builtin_prefetch(&h->node[fr->n], 1);
    }
    /* DONE's joins, then SECOND's four each; CENTRES' centres */
    hl_id jq[4 * HL_FRAME_BATCH][4], jo[4 * HL_FRAME_BATCH],
        cq[4 * HL_FRAME_BATCH][4], co[4 * HL_FRAME_BATCH];
    int jl[4 * HL_FRAME_BATCH], cl[4 * HL_FRAME_BATCH];
    int nj = 0, nc = 0;
    for (int i = 0; i < n[DONE]; i++) {
        const hl_frame *fr = &h->frame[f[DONE][i]];
        memcpy(jq[nj], fr->r, sizeof jq[nj]);
        jl[nj++] = fr->level - 1;
    }
    for (int i = 0; i < n[SECOND]; i++) {
        const hl_frame *fr = &h->frame[f[SECOND][i]];
        four(fr->r, &jq[nj]);
        for (int x = 0; x < 4; x++)
            jl[nj++] = fr->level - 1;
    }
    for (int i = 0; i < n[CENTRES]; i++) {
        const hl_frame *fr = &h->frame[f[CENTRES][i]];
        four(fr->r, &cq[nc]);
        for (int x = 0; x < 4; x++)
            cl[nc++] = fr->level - 2;
    }
    if (nj)
        hl_joins(h, nj, jl, (const hl_id (*)[4])jq, jo);
    hl_id fo[HL_FRAME_BATCH];
    if (nc) { /* the centres' joins: the results */
        int fl[HL_FRAME_BATCH];
        hl_centres(h, nc, cl, (const hl_id (*)[4])cq, co);
        for (int i = 0; i < n[CENTRES]; i++)
            fl[i] = cl[4 * i] + 1;
        hl_joins(h, n[CENTRES], fl, (const hl_id (*)[4])co, fo);
    }
    for (int i = 0; i < n[DONE] && !h->abort; i++)
        finish(h, f[DONE][i], jo[i]);
    for (int i = 0; i < n[CENTRES] && !h->abort; i++)
        finish(h, f[CENTRES][i], fo[i]);
    for (int i = 0; i < n[SECOND] && !h->abort; i++) {
        hl_frame *fr = &h->frame[f[SECOND][i]];
        const hl_id *s = jo + n[DONE] + 4 * i;
        if (!s[0] || !s[1] || !s[2] || !s[3]) {
            h->abort = true;
            return;
        }
        int c = second_code(h, fr->j, fr->level);
        fr->stage = 2;
        fr->pending = 4;
        for (int x = 3; x >= 0 && !h->abort; x--)
            want(h, known(h, s[x], c), s[x], c, f[SECOND][i], (uint32_t)x);
    }
}

/* Start n's centre step code j on (at most 2^(level - 2)) for frame f's
 * slot: at once when known, else a frame of its own (queued as a leaf
 * square, or opened with others). */
static void start(gg_hl *h, hl_id n, int j, uint32_t f, uint32_t slot)
{
    hl_id r = known(h, n, j);
    if (r) {
        deliver(h, f, slot, r);
        return;
    }
    if (wait_busy(h, n, j, f, slot))
        return;
    hl_node *d = &h->node[n];
    int s = slot_of(d, j);
    uint32_t g = new_frame(h);
    if (!g)
        return;
    int k = d->level;
    d->res[s] = g;
    d->res_j[s] = (int8_t)(HL_BUSY + j);
    hl_frame *fr = &h->frame[g];
    fr->stage = k == h->leaf_log + 1 ? 0 : 1;
    fr->n = n;
    fr->j = (int8_t)j;
    fr->level = (int8_t)k;
    fr->parent = f;
    fr->slot = (int8_t)slot;
    fr->waiters = 0;
    if (k == h->leaf_log + 1) {
        int qi = queue_of(h, j);
        h->queue[qi][h->n_queue[qi]++] = g;
        return;
    }
    h->opening[h->n_opening++] = g;
    for (int i = 0; i < 4; i++) /* open_frames reads them */
        __builtin_prefetch(&h->node[d->child[i]]);
}

/* The grid a batch of m squares is laid in: cols squares a row, rows of
 * 384 cells where the batch fills them (the cpu kernel steps w words as
 * windows of w + 2 in 512-cell vectors: 6 words fill one, the 8 before
 * took two; a B0 rule's few squares a call cost half as much). */
static int batch_grid(gg_hl *h, int64_t m, int64_t *cols)
{
    int64_t sq = 2 * h->leaf_side, per = sq >= 384 ? 1 : 384 / sq;
    int64_t c = (m + per - 1) / per * per;
    *cols = c < h->batch_cols ? c : h->batch_cols;
    int64_t w = *cols * sq, ht = (m + *cols - 1) / *cols * sq;
    gg_gen_cells *sc = &h->scratch;
    if (sc->n_planes && gg_gen_cells_width(sc) == w &&
        gg_gen_cells_height(sc) == ht)
        return 0;
    gg_gen_cells_free(sc);
    return gg_gen_cells_init(sc, h->planes, w, ht, h->err);
}

/* Inside a step of more than 2^16 generations (seconds on a big
 * pattern, and all its generations arrive at its end), the progress
 * callback is called after every batch with the generations reached so
 * far; gg_hl_step_in_flight tells it that a step is under way. (A share
 * of the step done is not worth showing: weighting the recursion's parts
 * evenly or by population put it at 86-94% a third of the way through
 * puzzle.mc's 2^28 step, memoized parts being nearly free.) */
static void step_progress(gg_hl *h)
{
    if (h->progress && h->step_log > 16)
        h->progress(h->progress_ctx, h->run_done, h->run_total);
}

int gg_hl_step_in_flight(const gg_hl *h)
{
    return h->step_log;
}

/* Frames qf[0..m): their squares' results looked up or made, eight at a
 * time (their lookups overlap), and the frames finished. */
static void finish_leaves(gg_hl *h, const uint32_t *qf, int64_t m,
                          const uint64_t *rows)
{
    for (int64_t i0 = 0; i0 < m && !h->abort; i0 += 8) {
        int n = m - i0 < 8 ? (int)(m - i0) : 8;
        hl_id leaf[8];
        hl_leaves(h, n, rows + (size_t)i0 * (size_t)h->lw, leaf);
        for (int k = 0; k < n && !h->abort; k++)
            finish(h, qf[i0 + k], leaf[k]);
    }
}

/* A batch through the 4x4 leaves' memo (hl_small.h). */
static void small_batch(gg_hl *h, int j, const uint32_t *qf, int64_t m)
{
    h->stats.base_steps += m;
    const uint64_t *rows = hl_small_step(h, j, qf, m);
    if (!rows) {
        h->failed = true;
        h->abort = true;
        return;
    }
    finish_leaves(h, qf, m, rows);
    step_progress(h);
}

/* Step queue j's squares (2^j generations, or HL_ODD's at j = leaf_log)
 * in one backend call and finish their frames. */
static void run_batch(gg_hl *h, int j)
{
    int64_t m = h->n_queue[j], cols, sq = 2 * h->leaf_side;
    const uint32_t *qf = h->queue[j];
    h->n_queue[j] = 0;
    if (h->stop) {
        int64_t before = h->polls;
        h->polls += m;
        if ((before >> 8) != (h->polls >> 8) && h->stop()) {
            h->stopped = true; /* the step in flight is given up whole */
            h->abort = true;
            return;
        }
    }
    bool timed = hl_small_applies(h) && j < h->leaf_log;
    if (timed && hl_small_pick(h, j)) {
        small_batch(h, j, qf, m);
        hl_small_took(h, j, m);
        return;
    }
    if (batch_grid(h, m, &cols)) {
        h->failed = true;
        h->abort = true;
        return;
    }
    gg_gen_cells *c = &h->scratch;
    for (int64_t i = 0; i < m; i++) {
        /* the loads of the squares ahead: their nodes, leaves, rows */
        if (i + 8 < m)
            __builtin_prefetch(&h->node[h->frame[qf[i + 8]].n]);
        if (i + 4 < m)
            for (int k = 0; k < 4; k++)
                __builtin_prefetch(
                    &h->node[h->node[h->frame[qf[i + 4]].n].child[k]]);
        if (i + 2 < m)
            for (int k = 0; k < 4; k++) {
                const char *r = (const char *)hl_rows(
                    h, h->node[h->frame[qf[i + 2]].n].child[k]);
                for (int b = 0; b < h->lw * 8; b += 64)
                    __builtin_prefetch(r + b);
            }
        const hl_id *q = h->node[h->frame[qf[i]].n].child;
        for (int p = 0; p < h->planes; p++)
            square_in(h, q, p, &c->plane[p], i % cols * sq, i / cols * sq);
    }
    h->stats.base_steps += m;
    h->stats.batches++;
    int64_t gens = gens_of(h, j < h->leaf_log ? j : HL_ODD,
                           h->leaf_log + 1);
    if (h->leaves.step(h->leaves.ctx, c, gens, h->err)) {
        h->failed = true;
        h->abort = true;
        return;
    }
    if (timed)
        hl_small_took(h, j, m);
    /* eight at a time: their leaves looked up together */
    uint64_t rows[8 * HL_MAX_LW];
    for (int64_t i0 = 0; i0 < m && !h->abort; i0 += 8) {
        int n = m - i0 < 8 ? (int)(m - i0) : 8;
        hl_id leaf[8];
        for (int k = 0; k < n; k++)
            for (int p = 0; p < h->planes; p++)
                centre_out(h, &c->plane[p], p, rows + (size_t)k * h->lw,
                           (i0 + k) % cols * sq, (i0 + k) / cols * sq);
        hl_leaves(h, n, rows, leaf);
        for (int k = 0; k < n && !h->abort; k++)
            finish(h, qf[i0 + k], leaf[k]);
    }
    step_progress(h);
}

/* n's centre half t generations on (t <= 2^(level - 2)), memoized; 0
 * when the budget ran out, a stop came or the backend failed. */
static hl_id result(gg_hl *h, hl_id n, int64_t t)
{
    int j = code_of(t);
    h->n_frames = 1;
    h->free_frames = 0;
    h->n_waiters = 1;
    h->free_waiters = 0;
    h->n_req = 0;
    h->top = 0;
    h->n_opening = 0;
    h->n_ready = 0;
    h->abort = false;
    h->step_log = 63 - __builtin_clzll((uint64_t)t);
    for (int i = 0; i <= h->leaf_log; i++) {
        h->n_queue[i] = 0;
        if (!h->queue[i] &&
            !(h->queue[i] = malloc((size_t)h->batch_max *
                                  sizeof *h->queue[i])))
            return 0;
    }
    if (!room(h, (void **)&h->frame, &h->frame_mapped, 1, &h->cap_frames,
              sizeof *h->frame) ||
        !room(h, (void **)&h->ready, &h->ready_mapped, 1, &h->cap_ready,
              sizeof *h->ready) ||
        !room(h, (void **)&h->waiter, &h->waiter_mapped, 1,
              &h->cap_waiters, sizeof *h->waiter))
        return 0;
    push(h, n, j, 0, 0);
    while (!h->abort) {
        if (h->n_req) {
            hl_request r = h->req[--h->n_req];
            /* the node a later request reads (start: a cache miss each) */
            if (h->n_req >= 3)
                __builtin_prefetch(&h->node[h->req[h->n_req - 3].n]);
            start(h, r.n, r.j, r.frame, r.slot);
            /* only a 2-leaf square's request queues (j < leaf_log, or
             * HL_ODD); a larger node's of j = leaf_log reads the odd
             * queue, which runs no sooner than when full */
            int qi = queue_of(h, r.j);
            if (qi <= h->leaf_log && h->n_queue[qi] == h->batch_max)
                run_batch(h, qi);
            if (h->n_opening == HL_FRAME_BATCH)
                open_frames(h);
            else if (h->n_ready >= HL_FRAME_BATCH)
                advance_ready(h);
            continue;
        }
        if (h->n_opening) {
            open_frames(h);
            continue;
        }
        if (h->n_ready) {
            advance_ready(h);
            continue;
        }
        int best = -1;
        for (int i = 0; i <= h->leaf_log; i++)
            if (h->n_queue[i] && (best < 0 || h->n_queue[i] > h->n_queue[best]))
                best = i;
        if (best < 0)
            break;
        run_batch(h, best);
    }
    if (!h->abort)
        return h->top;
    /* given up: the nodes of the frames in flight forget them */
    for (uint32_t f = 1; f < h->n_frames; f++) {
        hl_node *d = &h->node[h->frame[f].n];
        int s = slot_of(d, h->frame[f].j);
        if (h->frame[f].stage >= 0 && d->res[s] == f &&
            d->res_j[s] >= HL_BUSY)
            d->res[s] = 0, d->res_j[s] = 0;
    }
    return 0;
}

/* The root's cells all lie in its centre half. */
static bool centred(gg_hl *h, hl_id root)
{
    const hl_id *c = h->node[root].child;
    static const int inner[4] = {3, 2, 1, 0}; /* the child towards the centre */
    for (int i = 0; i < 4; i++)
        for (int g = 0; g < 4; g++)
            if (g != inner[i] &&
                !hl_is_empty(h, h->node[c[i]].child[g]))
                return false;
    return true;
}

/* The root one level up, centred in empty space. */
static hl_id expand(gg_hl *h, hl_id root)
{
    const hl_id *c = h->node[root].child;
    hl_id q[4] = {c[0], c[1], c[2], c[3]};
    hl_id e = hl_empty(h, h->node[root].level - 1);
    return hl_join(h, hl_join(h, e, e, e, q[0]), hl_join(h, e, e, q[1], e),
                   hl_join(h, e, q[2], e, e), hl_join(h, q[3], e, e, e));
}

/* HL_ODD results of another count than t's are stale: forgotten before
 * a step of t (not a power of two) asks for its own. */
static void odd_count(gg_hl *h, int64_t t)
{
    if (code_of(t) != HL_ODD || h->odd_gens == t)
        return;
    if (h->odd_gens)
        for (int64_t i = 1; i < h->n_nodes; i++)
            if (h->node[i].res_j[1] == HL_ODD)
                h->node[i].res[1] = 0, h->node[i].res_j[1] = 0;
    h->odd_gens = t;
}

/* Two rules by parity (gg_hl_set_odd_backend): one-generation results
 * made from the other parity than this step's are forgotten (every longer
 * step starts from an even generation). */
static void single_parity(gg_hl *h, int64_t t)
{
    if (!h->odd_backend || t != 1 || h->single_parity == h->step_parity)
        return;
    if (h->single_parity >= 0)
        for (int64_t i = 1; i < h->n_nodes; i++)
            for (int s = 0; s < 2; s++)
                if (h->node[i].res_j[s] == 0)
                    h->node[i].res[s] = 0;
    h->single_parity = h->step_parity;
}

/* One step of t generations (1 <= t <= 2^HL_MAX_STEP); 0 ok, 1 the
 * budget ran out or a stop came (nothing changed: h->stopped says
 * which), -1 failed. */
static int step_by(gg_hl *h, int64_t t)
{
    /* the root's level k wants 2^(k-2) >= t */
    int need = (t > 1 ? 64 - __builtin_clzll((uint64_t)(t - 1)) : 0) + 2;
    hl_id root = h->root;
    while (root && (h->node[root].level < need || !centred(h, root))) {
        if (h->node[root].level >= HL_MAX_LEVEL)
            return gg_fail(h->err, "the pattern has grown past 2^63 cells "
                           "across; golgen's coordinates end there");
        root = expand(h, root);
    }
    if (root && h->node[root].level >= HL_MAX_LEVEL)
        return gg_fail(h->err, "the pattern has grown past 2^63 cells "
                       "across; golgen's coordinates end there");
    odd_count(h, t);
    h->step_parity = (int)(h->generation & 1);
    single_parity(h, t);
    root = root ? expand(h, root) : 0;
    hl_id r = root ? result(h, root, t) : 0;
    h->step_log = -1;
    if (h->failed)
        return -1;
    if (!r)
        return 1;
    /* a smaller root costs less at the next step's expansion check */
    while (h->node[r].level > h->leaf_log + 2 && centred(h, r)) {
        hl_id c = hl_centre(h, r);
        if (!c)
            break;
        r = c;
    }
    h->root = r;
    h->generation += t;
    return 0;
}

/* t generations, collecting and splitting the step when the budget runs
 * out (a power of two into halves, another count into its low part and
 * its highest power); fails only when one generation does not fit after
 * a collection. */
static int step_fit(gg_hl *h, int64_t t, bool (*stop)(void),
                    int64_t *done)
{
    h->run_done = *done;
    int rc = step_by(h, t);
    if (rc <= 0 || h->stopped) {
        *done += rc ? 0 : t;
        return rc < 0 ? rc : 0;
    }
    hl_collect(h);
    if ((rc = step_by(h, t)) <= 0 || h->stopped) {
        *done += rc ? 0 : t;
        return rc < 0 ? rc : 0;
    }
    /* two rules by parity: a step of 2 stays whole (its halves' second
     * would start from an odd generation) */
    if (t == 1 || (t == 2 && h->odd_backend))
        return gg_fail(h->err, "one generation of this pattern needs more "
                       "than the memory budget (%lld bytes): allow more "
                       "with --mem", (long long)h->mem_limit);
    int64_t top = (int64_t)1 << (63 - __builtin_clzll((uint64_t)t));
    const int64_t part[2] = {top == t ? t / 2 : t - top,
                             top == t ? t / 2 : top};
    for (int i = 0; i < 2; i++) {
        if (h->stopped || (stop && stop()))
            return 0;
        if (step_fit(h, part[i], stop, done))
            return -1;
    }
    return 0;
}

void gg_hl_set_progress(gg_hl *h, gg_progress_fn fn, void *ctx)
{
    h->progress = fn;
    h->progress_ctx = ctx;
}

/* The largest single step: a root of level 63 (64-bit coordinates) holds
 * the square a 2^60 step needs. */
#define HL_MAX_STEP 60

/* Live nodes from which a count runs in one pass (gg_hl_run): Golly's
 * macrocells that gained hold 2852 to 13093 nodes as loaded
 * (metapixel-p216-gun, linear-propagator, loafer-gun, demonoid), those
 * that lost 11 to 45. */
#define HL_ONE_PASS_NODES 1024

/* The one pass takes a count's part below 2^24; the bits above go one
 * pass each, low first, as before: a stop gives up the pass it is in, so
 * a long run stopped keeps every bit done (what it writes), where one
 * pass for the whole count lost all of it. Counts below 2^24, where the
 * one pass gains most (1000 generations: 6 passes to 1), lose nothing. */
#define HL_ONE_PASS_SPAN ((int64_t)1 << 24)

int hl_run_count(gg_hl *h, int64_t gens, bool (*stop)(void),
                 int64_t *done, gg_err *err)
{
    int64_t ran = 0;
    h->err = err;
    h->failed = false;
    h->stop = stop;
    h->stopped = false;
    h->run_total = gens;
    int rc = gg_generations_check(h->generation, gens, err);
    /* the count below 2^24 in one step, then its higher bits a step
     * each, low first, and the part past 2^60 as steps of 2^60;
     * but a small tree's count by its binary expansion, low bits first,
     * as before the one-pass step: each pass re-makes only a small
     * tree's few top nodes, where the one pass's second count at every
     * level stepped more leaf squares (totalperiodic.mc, 1000
     * generations: 2188 against 2041; 4-8% more CPU on Golly's small
     * macrocells) */
    bool one = h->live_nodes >= HL_ONE_PASS_NODES;
    const int64_t most = (int64_t)1 << HL_MAX_STEP;
    for (int64_t left = gens; !rc && left > 0;) {
        int64_t t = left % most ? left % most : most, before = ran;
        if (one && t % HL_ONE_PASS_SPAN)
            t %= HL_ONE_PASS_SPAN;
        else
            t &= -t;
        if (h->stopped || (stop && stop()))
            break;
        rc = step_fit(h, t, stop, &ran);
        if (!rc && h->progress)
            h->progress(h->progress_ctx, ran, gens);
        if (!rc && ran - before < t)
            break; /* stopped inside the split steps */
        left -= t;
    }
    if (done)
        *done = ran;
    return rc ? -1 : 0;
}

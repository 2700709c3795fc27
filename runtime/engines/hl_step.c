/* Stepping the tree: a node's memoized future (HashLife's recursion), the
 * leaf squares a backend steps, and runs of any length by their binary
 * expansion (runtime/engines/hashlife.h). */
#include "hl_tree.h"

#include <string.h>

#include "universe.h"

/* Plane p of the 2-leaf square q (nw ne sw se leaves) into grid g. */
static void square_in(const gg_hl *h, const hl_id q[4], int p, gg_grid *g)
{
    for (int y = 0; y < 2 * HL_LEAF; y++) {
        int top = y < HL_LEAF, ly = p * HL_LEAF + (top ? y : y - HL_LEAF);
        uint64_t l = hl_rows(h, q[top ? 0 : 2])[ly];
        uint64_t r = hl_rows(h, q[top ? 1 : 3])[ly];
        uint64_t *row = gg_grid_row(g, y);
        if (HL_LEAF == 64)
            row[0] = l, row[1] = r;
        else
            row[0] = l | r << (HL_LEAF & 63);
    }
}

/* The centre of grid g into plane p of a leaf block. */
static void centre_out(const gg_grid *g, int p, uint64_t *rows)
{
    enum { HALF = HL_LEAF / 2 };
    const uint64_t mask = HL_LEAF == 64 ? ~0ull : (1ull << HL_LEAF) - 1;
    for (int y = 0; y < HL_LEAF; y++) {
        const uint64_t *row = gg_grid_row(g, y + HALF);
        rows[p * HL_LEAF + y] = HL_LEAF == 64
                                    ? (row[0] >> HALF) | (row[1] << HALF)
                                    : (row[0] >> HALF) & mask;
    }
}

/* The 2-leaf square q stepped 2^j generations by the backend (dead cells
 * around; a Generations rule's planes together), its centre a leaf. */
static hl_id base_step(gg_hl *h, const hl_id q[4], int j)
{
    gg_gen_cells *c = &h->scratch;
    for (int p = 0; p < h->planes; p++)
        square_in(h, q, p, &c->plane[p]);
    h->stats.base_steps++;
    if (h->stop && !(++h->polls & 255) && h->stop()) {
        h->stopped = true; /* the step in flight is given up whole */
        return 0;
    }
    int64_t gens = (int64_t)1 << j;
    if (h->planes > 1 ? gg_backend_advance_cells(h->backend, GG_TOPO_PLANE,
                                                 c, gens, h->err)
                      : gg_backend_advance(h->backend, GG_TOPO_PLANE,
                                           &c->plane[0], gens, h->err)) {
        h->failed = true;
        return 0;
    }
    uint64_t rows[HL_MAX_LW];
    for (int p = 0; p < h->planes; p++)
        centre_out(&c->plane[p], p, rows);
    return hl_leaf(h, rows);
}

/* The nine overlapping half-size squares of n (level >= leaf + 2), row
 * by row. */
static void nine(gg_hl *h, hl_id n, hl_id s[9])
{
    /* ids copied out: a join may move the node array */
    hl_id c[4], a[4], b[4], d[4], e[4];
    memcpy(c, h->node[n].child, sizeof c);
    memcpy(a, h->node[c[0]].child, sizeof a);
    memcpy(b, h->node[c[1]].child, sizeof b);
    memcpy(d, h->node[c[2]].child, sizeof d);
    memcpy(e, h->node[c[3]].child, sizeof e);
    s[0] = c[0];
    s[1] = hl_join(h, a[1], b[0], a[3], b[2]);
    s[2] = c[1];
    s[3] = hl_join(h, a[2], a[3], d[0], d[1]);
    s[4] = hl_join(h, a[3], b[2], d[1], e[0]);
    s[5] = hl_join(h, b[2], b[3], e[0], e[1]);
    s[6] = c[2];
    s[7] = hl_join(h, d[1], e[0], d[3], e[2]);
    s[8] = c[3];
}

static hl_id result(gg_hl *h, hl_id n, int j);

/* The four half-size squares of the 3x3 grid of quarter squares r. */
static void four(gg_hl *h, const hl_id r[9], hl_id m[4])
{
    m[0] = hl_join(h, r[0], r[1], r[3], r[4]);
    m[1] = hl_join(h, r[1], r[2], r[4], r[5]);
    m[2] = hl_join(h, r[3], r[4], r[6], r[7]);
    m[3] = hl_join(h, r[4], r[5], r[7], r[8]);
}

/* n's centre 2^j generations on, level >= leaf + 2: the nine squares
 * stepped, then either their four joins stepped again (j = k - 2: twice
 * 2^(k-3)) or the joins' centres taken (j < k - 2). */
static hl_id recurse(gg_hl *h, hl_id n, int j)
{
    int k = h->node[n].level;
    hl_id s[9], r[9], m[4], q[4];
    nine(h, n, s);
    int jj = j == k - 2 ? k - 3 : j;
    for (int i = 0; i < 9; i++)
        if (!s[i] || !(r[i] = result(h, s[i], jj)))
            return 0;
    four(h, r, m);
    for (int i = 0; i < 4; i++) {
        if (!m[i])
            return 0;
        q[i] = j == k - 2 ? result(h, m[i], jj) : hl_centre(h, m[i]);
        if (!q[i])
            return 0;
    }
    return hl_join(h, q[0], q[1], q[2], q[3]);
}

/* n's centre half 2^j generations on (j <= level - 2), memoized; 0 when
 * the budget ran out or the backend failed. */
static hl_id result(gg_hl *h, hl_id n, int j)
{
    hl_node *d = &h->node[n];
    if (hl_is_empty(h, n))
        return hl_empty(h, d->level - 1);
    if (d->result && d->result_j == j)
        return d->result;
    hl_id q[4];
    memcpy(q, d->child, sizeof q);
    hl_id r = d->level == HL_LEAF_LOG + 1 ? base_step(h, q, j)
                                          : recurse(h, n, j);
    if (r) { /* h->node may have moved */
        h->node[n].result = r;
        h->node[n].result_j = (int8_t)j;
    }
    return r;
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

/* One step of 2^j generations; 0 ok, 1 the budget ran out or a stop
 * came (nothing changed: h->stopped says which), -1 failed. */
static int step_pow2(gg_hl *h, int j)
{
    hl_id root = h->root;
    while (root && (h->node[root].level < j + 2 || !centred(h, root))) {
        if (h->node[root].level >= HL_MAX_LEVEL)
            return gg_fail(h->err, "the pattern has grown past 2^63 cells "
                           "across; golgen's coordinates end there");
        root = expand(h, root);
    }
    if (root && h->node[root].level >= HL_MAX_LEVEL)
        return gg_fail(h->err, "the pattern has grown past 2^63 cells "
                       "across; golgen's coordinates end there");
    root = root ? expand(h, root) : 0;
    hl_id r = root ? result(h, root, j) : 0;
    if (h->failed)
        return -1;
    if (!r)
        return 1;
    /* a smaller root costs less at the next step's expansion check */
    while (h->node[r].level > HL_LEAF_LOG + 2 && centred(h, r)) {
        hl_id c = hl_centre(h, r);
        if (!c)
            break;
        r = c;
    }
    h->root = r;
    h->generation += (int64_t)1 << j;
    return 0;
}

/* 2^j generations, collecting and halving the step when the budget runs
 * out; fails only when one generation does not fit after a collection. */
static int step_fit(gg_hl *h, int j, bool (*stop)(void),
                    int64_t *done)
{
    int rc = step_pow2(h, j);
    if (rc <= 0 || h->stopped) {
        *done += rc ? 0 : (int64_t)1 << j;
        return rc < 0 ? rc : 0;
    }
    hl_collect(h);
    if ((rc = step_pow2(h, j)) <= 0 || h->stopped) {
        *done += rc ? 0 : (int64_t)1 << j;
        return rc < 0 ? rc : 0;
    }
    if (j == 0)
        return gg_fail(h->err, "one generation of this pattern needs more "
                       "than the memory budget (%lld bytes): allow more "
                       "with --mem", (long long)h->mem_limit);
    for (int half = 0; half < 2; half++) {
        if (h->stopped || (stop && stop()))
            return 0;
        if (step_fit(h, j - 1, stop, done))
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

int gg_hl_run(gg_hl *h, int64_t gens, bool (*stop)(void),
              int64_t *done, gg_err *err)
{
    int64_t ran = 0;
    h->err = err;
    h->failed = false;
    h->stop = stop;
    h->stopped = false;
    int rc = gg_generations_check(h->generation, gens, err);
    /* low bits first (the small steps run while the root is small), then
     * the part above 2^60 as steps of 2^60 */
    for (int j = 0; !rc && j <= HL_MAX_STEP && ran < gens; j++) {
        int64_t times = j < HL_MAX_STEP ? (gens >> j) & 1 : gens >> j;
        for (int64_t t = 0; !rc && t < times; t++) {
            int64_t before = ran;
            if (h->stopped || (stop && stop()))
                goto out;
            rc = step_fit(h, j, stop, &ran);
            if (!rc && h->progress)
                h->progress(h->progress_ctx, ran, gens);
            if (!rc && ran - before < ((int64_t)1 << j))
                goto out; /* stopped inside the halved steps */
        }
    }
out:
    if (done)
        *done = ran;
    return rc ? -1 : 0;
}

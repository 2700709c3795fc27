#include "validate_table.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "reference_table.h"
#include "rule_gen.h"

static uint64_t next_rand(uint64_t *s)
{
    *s ^= *s << 13;
    *s ^= *s >> 7;
    *s ^= *s << 17;
    return *s;
}

/* Up to 64 inputs (in[l], n_inputs each) through eval against the graph. */
static int check_lanes(const gg_rulefile *rf, gg_table_eval64_fn eval,
                       uint8_t (*in)[9], int n, const char *who, gg_err *err)
{
    int np = gg_gen_planes(rf->n_states);
    uint64_t x[9 * 8] = {0}, o[8];
    for (int l = 0; l < n; l++)
        for (int i = 0; i < rf->n_inputs; i++)
            for (int p = 0; p < np; p++)
                x[i * np + p] |= (uint64_t)((in[l][i] >> p) & 1) << l;
    eval(x, o);
    for (int l = 0; l < n; l++) {
        int got = 0, want = gg_rulefile_lookup(rf, in[l]);
        for (int p = 0; p < np; p++)
            got |= (int)((o[p] >> l) & 1) << p;
        if (got != want) {
            char text[64];
            int k = 0;
            for (int i = 0; i < rf->n_inputs; i++)
                k += snprintf(text + k, sizeof text - (size_t)k, "%s%d",
                              i ? "," : "", in[l][i]);
            return gg_fail(err, "%s gives state %d for inputs %s (tree "
                           "order), the rule %d", who, got, text, want);
        }
    }
    return 0;
}

/* Batches of 64 inputs: add() fills one, full batches are checked. */
typedef struct lanes {
    uint8_t in[64][9];
    int n;
} lanes;

static int flush(const gg_rulefile *rf, gg_table_eval64_fn eval, lanes *b,
                 const char *who, gg_err *err)
{
    int bad = b->n ? check_lanes(rf, eval, b->in, b->n, who, err) : 0;
    b->n = 0;
    return bad;
}

/* A path of inputs from the root to every node, then each entry of it
 * with the other inputs random. */
static int check_edges(const gg_rulefile *rf, gg_table_eval64_fn eval,
                       lanes *b, uint64_t *seed, const char *who,
                       gg_err *err)
{
    int64_t ns = rf->n_states, n = rf->n_nodes;
    int64_t *parent = malloc((size_t)n * sizeof *parent);
    int *via = malloc((size_t)n * sizeof *via), *depth = malloc(
                                                   (size_t)n * sizeof *depth);
    int64_t *queue = malloc((size_t)n * sizeof *queue);
    if (!parent || !via || !depth || !queue) {
        free(parent), free(via), free(depth), free(queue);
        return gg_fail(err, "out of memory validating %s", who);
    }
    for (int64_t k = 0; k < n; k++)
        depth[k] = -1;
    int64_t head = 0, tail = 0, root = rf->root / ns;
    depth[root] = 0;
    queue[tail++] = root;
    int bad = 0;
    while (head < tail && !bad) {
        int64_t k = queue[head++];
        for (int64_t s = 0; s < ns && !bad; s++) {
            /* inputs: the path to k, s, random after */
            uint8_t *in = b->in[b->n++];
            int64_t up = k;
            for (int d = depth[k] - 1; d >= 0; d--) {
                in[d] = (uint8_t)via[up];
                up = parent[up];
            }
            in[depth[k]] = (uint8_t)s;
            for (int i = depth[k] + 1; i < rf->n_inputs; i++)
                in[i] = (uint8_t)(next_rand(seed) % (uint64_t)ns);
            if (b->n == 64)
                bad = flush(rf, eval, b, who, err);
            if (depth[k] + 1 >= rf->n_inputs)
                continue;
            int64_t c = rf->flat[k * ns + s] / ns;
            if (c < n && depth[c] < 0) {
                depth[c] = depth[k] + 1;
                parent[c] = k;
                via[c] = (int)s;
                queue[tail++] = c;
            }
        }
    }
    free(parent), free(via), free(depth), free(queue);
    return bad ? -1 : flush(rf, eval, b, who, err);
}

static int check_eval(const gg_rulefile *rf, gg_table_eval64_fn eval,
                      uint64_t seed, const char *who, gg_err *err)
{
    lanes b = {.n = 0};
    int64_t ns = rf->n_states, all = 1;
    for (int i = 0; i < rf->n_inputs && all <= (1 << 20); i++)
        all *= ns;
    if (all <= (1 << 20)) { /* every input */
        for (int64_t v = 0; v < all; v++) {
            int64_t r = v;
            for (int i = rf->n_inputs - 1; i >= 0; i--, r /= ns)
                b.in[b.n][i] = (uint8_t)(r % ns);
            if (++b.n == 64 && flush(rf, eval, &b, who, err))
                return -1;
        }
        return flush(rf, eval, &b, who, err);
    }
    if (check_edges(rf, eval, &b, &seed, who, err))
        return -1;
    for (int64_t v = 0; v < (1 << 18); v++) {
        /* half of them mostly state 0, as real patterns are */
        bool quiet = v & 1;
        for (int i = 0; i < rf->n_inputs; i++) {
            uint64_t r = next_rand(&seed);
            b.in[b.n][i] = quiet && (r >> 40) % 4 ? 0
                                                  : (uint8_t)(r % (uint64_t)ns);
        }
        if (++b.n == 64 && flush(rf, eval, &b, who, err))
            return -1;
    }
    return flush(rf, eval, &b, who, err);
}

/* ---- whole steps against the reference ---- */

static int copy_cells(gg_gen_cells *dst, const gg_gen_cells *src,
                      gg_err *err)
{
    if (gg_gen_cells_init(dst, src->n_planes, gg_gen_cells_width(src),
                          gg_gen_cells_height(src), err))
        return -1;
    gg_gen_cells_blit(dst, src, 0, 0);
    return 0;
}

static int compare(const gg_gen_cells *got, const gg_gen_cells *want,
                   const char *who, const char *what, int64_t gen,
                   gg_err *err)
{
    for (int64_t y = 0; y < gg_gen_cells_height(want); y++)
        for (int64_t x = 0; x < gg_gen_cells_width(want); x++) {
            int a = gg_gen_cells_get(got, x, y), b = gg_gen_cells_get(want,
                                                                    x, y);
            if (a != b)
                return gg_fail(err, "%s differs from the reference on a "
                               "%s at generation %lld: cell (%lld, %lld) "
                               "is %d, the reference's %d", who, what,
                               (long long)gen, (long long)x, (long long)y,
                               a, b);
        }
    return 0;
}

static int check_board(const gg_rulefile *rf, gg_table_cells_fn step,
                       void *ctx, int64_t w, int64_t h, gg_topo topo,
                       bool sparse, uint64_t *seed, const char *who,
                       gg_err *err)
{
    gg_gen_cells ref, ker;
    int np = gg_gen_planes(rf->n_states);
    if (gg_gen_cells_init(&ref, np, w, h, err))
        return -1;
    for (int64_t y = 0; y < h; y++)
        for (int64_t x = 0; x < w; x++) {
            uint64_t r = next_rand(seed);
            int s = sparse && (r >> 40) % 8 ? 0
                                            : (int)(r % (uint64_t)rf->n_states);
            gg_gen_cells_set(&ref, x, y, s);
        }
    if (copy_cells(&ker, &ref, err)) {
        gg_gen_cells_free(&ref);
        return -1;
    }
    char what[96];
    snprintf(what, sizeof what, "%s %lldx%lld %s board",
             topo == GG_TOPO_TORUS ? "torus" : "plane", (long long)w,
             (long long)h, sparse ? "sparse" : "dense");
    int bad = 0;
    int64_t gen = 0;
    for (int64_t n = 1; n <= 3 && !bad; n += 2) {
        gen += n;
        bad = gg_reference_table_run(rf, topo, &ref, n, NULL, err) != n ||
              step(ctx, topo, &ker, n, err) ||
              compare(&ker, &ref, who, what, gen, err);
    }
    gg_gen_cells_free(&ref);
    gg_gen_cells_free(&ker);
    return bad ? -1 : 0;
}

int gg_validate_table(const gg_rulefile *rf, gg_table_eval64_fn eval,
                      gg_table_cells_fn step, void *ctx, const char *who,
                      uint64_t seed, gg_err *err)
{
    static const int64_t sizes[][2] = {{1, 1},   {3, 2},    {63, 5},
                                       {64, 64}, {65, 33},  {130, 17},
                                       {197, 71}, {257, 9}};
    seed |= 1;
    if (check_eval(rf, eval, seed, who, err))
        return -1;
    for (size_t k = 0; k < sizeof sizes / sizeof sizes[0]; k++)
        for (int t = 0; t < 2; t++)
            for (int sparse = 0; sparse < 2; sparse++)
                if (check_board(rf, step, ctx, sizes[k][0], sizes[k][1],
                                t ? GG_TOPO_PLANE : GG_TOPO_TORUS, sparse,
                                &seed, who, err))
                    return -1;
    return 0;
}

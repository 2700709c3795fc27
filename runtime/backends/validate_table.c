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

/* Inputs are checked in batches of up to LANES_MAX (64 a word, the
 * kernel's eval takes many words per call: a GPU kernel is one launch). */
#define LANES_MAX (64 * 2048)

typedef struct lanes {
    uint8_t (*in)[9]; /* LANES_MAX inputs, n_inputs each */
    int64_t n;
    uint64_t *x, *o;  /* the packed words */
    gg_table_eval_fn eval;
    void *ctx;
} lanes;

static int lanes_init(lanes *b, gg_table_eval_fn eval, void *ctx,
                      gg_err *err)
{
    b->n = 0;
    b->eval = eval;
    b->ctx = ctx;
    b->in = malloc((size_t)LANES_MAX * sizeof *b->in);
    b->x = malloc((size_t)LANES_MAX / 64 * 9 * 8 * sizeof *b->x);
    b->o = malloc((size_t)LANES_MAX / 64 * 8 * sizeof *b->o);
    if (b->in && b->x && b->o)
        return 0;
    free(b->in), free(b->x), free(b->o);
    return gg_fail(err, "out of memory for the table kernel's checks");
}

static void lanes_free(lanes *b)
{
    free(b->in), free(b->x), free(b->o);
}

/* The batch's inputs through eval against the graph; empties it. */
static int flush(const gg_rulefile *rf, lanes *b, const char *who,
                 gg_err *err)
{
    int np = gg_gen_planes(rf->n_states), ni = rf->n_inputs;
    int64_t words = (b->n + 63) / 64;
    if (!b->n)
        return 0;
    memset(b->x, 0, (size_t)(words * ni * np) * sizeof *b->x);
    for (int64_t l = 0; l < b->n; l++)
        for (int i = 0; i < ni; i++)
            for (int p = 0; p < np; p++)
                b->x[(l / 64 * ni + i) * np + p] |=
                    (uint64_t)((b->in[l][i] >> p) & 1) << (l % 64);
    if (b->eval(b->ctx, b->x, b->o, words, err))
        return -1;
    for (int64_t l = 0; l < b->n; l++) {
        int got = 0, want = gg_rulefile_lookup(rf, b->in[l]);
        for (int p = 0; p < np; p++)
            got |= (int)((b->o[l / 64 * np + p] >> (l % 64)) & 1) << p;
        if (got != want) {
            char text[64];
            int k = 0;
            for (int i = 0; i < ni; i++)
                k += snprintf(text + k, sizeof text - (size_t)k, "%s%d",
                              i ? "," : "", b->in[l][i]);
            return gg_fail(err, "%s gives state %d for inputs %s (tree "
                           "order), the rule %d", who, got, text, want);
        }
    }
    b->n = 0;
    return 0;
}

/* The next free input of the batch, checking it first when full. */
static uint8_t *next_in(const gg_rulefile *rf, lanes *b, const char *who,
                        gg_err *err)
{
    if (b->n == LANES_MAX && flush(rf, b, who, err))
        return NULL;
    return b->in[b->n++];
}

/* A path of inputs from the root to every node, then each entry of it
 * with the other inputs random. */
static int check_edges(const gg_rulefile *rf, lanes *b, uint64_t *seed,
                       const char *who, gg_err *err)
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
            uint8_t *in = next_in(rf, b, who, err);
            if (!in) {
                bad = -1;
                break;
            }
            int64_t up = k;
            for (int d = depth[k] - 1; d >= 0; d--) {
                in[d] = (uint8_t)via[up];
                up = parent[up];
            }
            in[depth[k]] = (uint8_t)s;
            for (int i = depth[k] + 1; i < rf->n_inputs; i++)
                in[i] = (uint8_t)(next_rand(seed) % (uint64_t)ns);
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
    return bad ? -1 : flush(rf, b, who, err);
}

static int check_inputs(const gg_rulefile *rf, lanes *b, uint64_t seed,
                        const char *who, gg_err *err)
{
    int64_t ns = rf->n_states, all = 1;
    for (int i = 0; i < rf->n_inputs && all <= (1 << 20); i++)
        all *= ns;
    if (all <= (1 << 20)) { /* every input */
        for (int64_t v = 0; v < all; v++) {
            uint8_t *in = next_in(rf, b, who, err);
            if (!in)
                return -1;
            int64_t r = v;
            for (int i = rf->n_inputs - 1; i >= 0; i--, r /= ns)
                in[i] = (uint8_t)(r % ns);
        }
        return flush(rf, b, who, err);
    }
    if (check_edges(rf, b, &seed, who, err))
        return -1;
    for (int64_t v = 0; v < (1 << 18); v++) {
        uint8_t *in = next_in(rf, b, who, err);
        if (!in)
            return -1;
        /* half of them mostly state 0, as real patterns are */
        bool quiet = v & 1;
        for (int i = 0; i < rf->n_inputs; i++) {
            uint64_t r = next_rand(&seed);
            in[i] = quiet && (r >> 40) % 4 ? 0 : (uint8_t)(r % (uint64_t)ns);
        }
    }
    return flush(rf, b, who, err);
}

static int check_eval(const gg_rulefile *rf, gg_table_eval_fn eval,
                      void *ctx, uint64_t seed, const char *who, gg_err *err)
{
    lanes b;
    if (lanes_init(&b, eval, ctx, err))
        return -1;
    int bad = check_inputs(rf, &b, seed, who, err);
    lanes_free(&b);
    return bad;
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

int gg_validate_table(const gg_rulefile *rf, gg_table_eval_fn eval,
                      gg_table_cells_fn step, void *ctx, const char *who,
                      uint64_t seed, gg_err *err)
{
    static const int64_t sizes[][2] = {{1, 1},   {3, 2},    {63, 5},
                                       {64, 64}, {65, 33},  {130, 17},
                                       {197, 71}, {257, 9}};
    seed |= 1;
    if (check_eval(rf, eval, ctx, seed, who, err))
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

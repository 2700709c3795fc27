#include "net_resub.h"

#include <stdlib.h>
#include <string.h>

enum {
    MAX_SIG = GG_NET_MAX_GATES + GG_RESUB_MAX_INPUTS,
    POOL = 64, /* divisors a gate's search reads: the inputs, then the
                  gates nearest it (96: 0.2 LUT fewer, a third slower) */
};

typedef uint64_t row_set[GG_TT_WORDS];

/* Working state of one gg_net_resub call (one heap block, reentrant). */
typedef struct resub {
    gg_net *net;
    const gg_resub_rows *rows;
    int words;
    row_set sig[MAX_SIG]; /* every signal's value on every row */
    row_set alt[MAX_SIG]; /* the same with one gate flipped */
    int readers[MAX_SIG]; /* gate reads, plus one for being the output */
    bool cone[GG_NET_MAX_GATES];
    row_set on, off; /* care rows where the root is observed, by value */
    int pool[POOL], n_pool;
    row_set packed[POOL + 1]; /* pool signals (the root last) on the
                                 observed rows only (pack) */
    int n_packed;             /* words of them */
    uint64_t last_mask;       /* the rows of the last word */
    int to[MAX_SIG];          /* relayout's */
} resub;

static uint64_t lut3(uint8_t lut, uint64_t a, uint64_t b, uint64_t c)
{
    uint64_t r = 0;
    for (int x = 0; x < 8; x++)
        if (lut >> x & 1)
            r |= (x & 4 ? a : ~a) & (x & 2 ? b : ~b) & (x & 1 ? c : ~c);
    return r;
}

/* Every gate on every row into sig (the inputs are there from the
 * start); with flip >= 0 the gates from flip on into alt instead, gate
 * flip complemented (what the output would be if it were). */
static void evaluate(resub *r, int flip)
{
    const gg_net *n = r->net;
    int ni = n->n_inputs;
    for (int g = flip < 0 ? 0 : flip; g < n->n_gates; g++) {
        const gg_gate *gt = &n->gate[g];
        uint64_t(*dst)[GG_TT_WORDS] = flip < 0 ? r->sig : r->alt;
        for (int w = 0; w < r->words; w++) {
            uint64_t v[3];
            for (int j = 0; j < 3; j++) {
                int s = gt->in[j];
                bool moved = flip >= 0 && s >= ni + flip;
                v[j] = moved ? r->alt[s][w] : r->sig[s][w];
            }
            uint64_t x = lut3(gt->lut, v[0], v[1], v[2]);
            dst[ni + g][w] = g == flip ? ~r->sig[ni + g][w] : x;
        }
    }
}

/* The output's value with gate flip complemented (flip < 0: as is). */
static const uint64_t *output_row(const resub *r, int flip)
{
    int s = r->net->out[0];
    return flip >= 0 && s >= r->net->n_inputs + flip ? r->alt[s] : r->sig[s];
}

/* Readers of each signal. */
static void count_readers(resub *r)
{
    const gg_net *n = r->net;
    memset(r->readers, 0, sizeof r->readers);
    for (int g = 0; g < n->n_gates; g++)
        for (int j = 0; j < 3; j++)
            r->readers[n->gate[g].in[j]]++;
    if (n->out[0] != GG_SIG_CONST0)
        r->readers[n->out[0]]++;
}

/* The root's fanout-free cone into r->cone: the gates read only from
 * inside it. Returns its size. */
static int fanout_free_cone(resub *r, int root)
{
    const gg_net *n = r->net;
    int ni = n->n_inputs, size = 0, inside[MAX_SIG] = {0};
    memset(r->cone, 0, sizeof r->cone);
    for (int g = root; g >= 0; g--) {
        int s = ni + g;
        r->cone[g] = g == root || (r->readers[s] && inside[s] == r->readers[s]);
        if (!r->cone[g])
            continue;
        size++;
        for (int j = 0; j < 3; j++)
            inside[n->gate[g].in[j]]++;
    }
    return size;
}

/* The care rows where root's value reaches the output, split by that
 * value, into r->on and r->off; false when there are none. */
static bool observed(resub *r, int root)
{
    evaluate(r, root);
    const uint64_t *out = output_row(r, -1), *alt = output_row(r, root);
    const uint64_t *val = r->sig[r->net->n_inputs + root];
    uint64_t any = 0;
    for (int w = 0; w < r->words; w++) {
        uint64_t seen = (out[w] ^ alt[w]) & r->rows->care[w];
        r->on[w] = seen & val[w];
        r->off[w] = seen & ~val[w];
        any |= seen;
    }
    return any != 0;
}

/* Whether signal s equals the root on the observed rows (neg: its
 * complement does). */
static bool equals(const resub *r, int s, bool neg)
{
    uint64_t x = 0;
    for (int w = 0; w < r->words; w++) {
        uint64_t v = neg ? ~r->sig[s][w] : r->sig[s][w];
        x |= (r->on[w] & ~v) | (r->off[w] & v);
    }
    return x == 0;
}

/* ---- changing the network ---- */

/* Every reader of signal `from` reads `to` instead (to < 0: the constant
 * neg), complemented when neg; their LUTs absorb it. */
static void redirect(gg_net *n, int from, int to, bool neg)
{
    for (int g = 0; g < n->n_gates; g++) {
        gg_gate *gt = &n->gate[g];
        for (int j = 0; j < 3; j++) {
            if (gt->in[j] != from)
                continue;
            int bit = 2 - j; /* in[0] is the LUT index's bit 2 */
            uint8_t lut = 0;
            for (int x = 0; x < 8; x++) {
                int y = to < 0 ? (neg ? x | 1 << bit : x & ~(1 << bit))
                               : (neg ? x ^ 1 << bit : x);
                lut |= (uint8_t)((gt->lut >> y & 1) << x);
            }
            gt->lut = lut;
            gt->in[j] = (uint16_t)(to < 0 ? 0 : to);
        }
    }
    if (n->out[0] == from) {
        n->out[0] = to < 0 ? GG_SIG_CONST0 : (uint16_t)to;
        n->out_neg[0] ^= neg;
    }
}

/* Gate root recomputed as a LUT3 of a, b, c over the observed rows (rows
 * no observed row gives: 0). */
static void replace(resub *r, int root, int a, int b, int c)
{
    uint8_t lut = 0;
    for (int x = 0; x < 8; x++) {
        uint64_t hit = 0;
        for (int w = 0; w < r->words; w++)
            hit |= r->on[w] & (x & 4 ? r->sig[a][w] : ~r->sig[a][w]) &
                   (x & 2 ? r->sig[b][w] : ~r->sig[b][w]) &
                   (x & 1 ? r->sig[c][w] : ~r->sig[c][w]);
        lut |= (uint8_t)((hit != 0) << x);
    }
    r->net->gate[root] = (gg_gate){.op = GG_OP_LUT3, .lut = lut,
                                   .in = {(uint16_t)a, (uint16_t)b,
                                          (uint16_t)c}};
}

/* A replacement may read a gate that comes after it (a divisor outside
 * its fanout, so no cycle): the gates laid out again, each after what it
 * reads, in the order a depth-first walk from the output emits them
 * (to[s]: old signal s's new one + 1, 0 while not placed). */
static int place(const gg_net *old, gg_net *out, int *to, int s)
{
    int ni = old->n_inputs;
    if (s < ni)
        return s;
    if (to[s])
        return to[s] - 1;
    gg_gate g = old->gate[s - ni];
    for (int j = 0; j < 3; j++)
        g.in[j] = (uint16_t)place(old, out, to, g.in[j]);
    int v = ni + out->n_gates;
    out->gate[out->n_gates++] = g;
    to[s] = v + 1;
    return v;
}

static void relayout(resub *r, gg_net *spare)
{
    gg_net *n = r->net;
    *spare = *n;
    memset(r->to, 0, sizeof r->to);
    n->n_gates = 0;
    if (spare->out[0] != GG_SIG_CONST0)
        n->out[0] = (uint16_t)place(spare, n, r->to, spare->out[0]);
}

/* ---- the search for divisors ---- */

/* The divisors for root: inputs, then the gates outside its cone that
 * do not read it (a gate after it when late), nearest first. */
static void fill_pool(resub *r, int root, bool late)
{
    const gg_net *n = r->net;
    int ni = n->n_inputs;
    bool reads[MAX_SIG] = {false};
    reads[ni + root] = true;
    for (int g = root + 1; g < n->n_gates; g++)
        for (int j = 0; j < 3; j++)
            reads[ni + g] |= reads[n->gate[g].in[j]];
    r->n_pool = 0;
    for (int i = 0; i < ni && r->n_pool < POOL; i++)
        r->pool[r->n_pool++] = i;
    for (int d = 1; r->n_pool < POOL; d++) {
        int lo = root - d, hi = root + d;
        if (lo < 0 && (!late || hi >= n->n_gates))
            break;
        if (lo >= 0 && !r->cone[lo])
            r->pool[r->n_pool++] = ni + lo;
        if (late && hi < n->n_gates && !reads[ni + hi] && r->n_pool < POOL)
            r->pool[r->n_pool++] = ni + hi;
    }
}

/* The observed rows packed (bit k: the k-th of them), for the search:
 * a node deep in a diagram is observed on a few dozen rows of 512. */
static void pack(resub *r)
{
    uint64_t(*p)[GG_TT_WORDS] = r->packed;
    int k = 0;
    memset(p, 0, sizeof *p * (size_t)r->n_pool);
    memset(p[POOL], 0, sizeof p[POOL]);
    for (int w = 0; w < r->words; w++)
        for (uint64_t m = r->on[w] | r->off[w]; m; m &= m - 1, k++) {
            int row = 64 * w + __builtin_ctzll(m);
            uint64_t bit = 1ull << (k & 63);
            if (gg_tt_get(r->on, row))
                p[POOL][k >> 6] |= bit;
            for (int i = 0; i < r->n_pool; i++)
                if (gg_tt_get(r->sig[r->pool[i]], row))
                    p[i][k >> 6] |= bit;
        }
    r->n_packed = (k + 63) / 64;
    r->last_mask = k & 63 ? (1ull << (k & 63)) - 1 : ~0ull;
}

/* The classes of the observed rows that pool signals i and j leave mixed
 * (both values of the root): their on and off rows, and how many. */
typedef struct mixed {
    int n;
    row_set on[4], off[4];
} mixed;

static void split(const resub *r, int i, int j, mixed *m)
{
    const uint64_t *a = r->packed[i], *b = r->packed[j], *v = r->packed[POOL];
    m->n = 0;
    for (int x = 0; x < 4; x++) {
        uint64_t on = 0, off = 0;
        uint64_t *mo = m->on[m->n], *mf = m->off[m->n];
        for (int w = 0; w < r->n_packed; w++) {
            uint64_t valid = w + 1 == r->n_packed ? r->last_mask : ~0ull;
            uint64_t sel = (x & 2 ? a[w] : ~a[w]) & (x & 1 ? b[w] : ~b[w]) &
                           valid;
            mo[w] = v[w] & sel;
            mf[w] = ~v[w] & sel;
            on |= mo[w];
            off |= mf[w];
        }
        m->n += on && off;
    }
}

/* Whether pool signal k separates the root's values inside every mixed
 * class (either way round in each). */
static bool separates(const resub *r, const mixed *m, int k)
{
    const uint64_t *v = r->packed[k];
    for (int c = 0; c < m->n; c++) {
        uint64_t same = 0, flipped = 0;
        for (int w = 0; w < r->n_packed; w++) {
            same |= (m->on[c][w] & ~v[w]) | (m->off[c][w] & v[w]);
            flipped |= (m->on[c][w] & v[w]) | (m->off[c][w] & ~v[w]);
        }
        if (same && flipped)
            return false;
    }
    return true;
}

/* One LUT3 over divisors for root, replacing it (a cone of `size` gates
 * must then shrink): 1 when found. */
static int one_lut(resub *r, int root, int size, mixed *m)
{
    if (size < 2)
        return 0;
    pack(r);
    for (int i = 0; i < r->n_pool; i++)
        for (int j = i + 1; j < r->n_pool; j++) {
            int a = r->pool[i], b = r->pool[j];
            split(r, i, j, m);
            if (!m->n) {
                replace(r, root, a, b, b);
                return 1;
            }
            for (int k = j + 1; k < r->n_pool; k++)
                if (separates(r, m, k)) {
                    replace(r, root, a, b, r->pool[k]);
                    return 1;
                }
        }
    return 0;
}

/* A cheaper network for the cone at root (net changed): 1, else 0. */
static int try_root(resub *r, int root, mixed *m)
{
    int ni = r->net->n_inputs, s = ni + root;
    if (r->net->out[0] == GG_SIG_CONST0) /* gates nothing reads: tidy's */
        return 0;
    int size = fanout_free_cone(r, root);
    if (!observed(r, root)) {
        redirect(r->net, s, -1, false);
        return 1;
    }
    uint64_t on = 0, off = 0;
    for (int w = 0; w < r->words; w++)
        on |= r->on[w], off |= r->off[w];
    if (!on || !off) {
        redirect(r->net, s, -1, on != 0);
        return 1;
    }
    fill_pool(r, root, true);
    for (int p = 0; p < r->n_pool; p++)
        for (int neg = 0; neg < 2; neg++)
            if (equals(r, r->pool[p], neg)) {
                redirect(r->net, s, r->pool[p], neg);
                return 1;
            }
    return one_lut(r, root, size, m);
}

/* Rows where n is wrong, by an evaluator of its own (gg_net_eval64, not
 * the search's): the first into *first_bad. */
static int wrong_rows(const gg_net *n, const gg_resub_rows *rows,
                      int *first_bad)
{
    uint64_t in[GG_RESUB_MAX_INPUTS], out[GG_NET_MAX_OUTPUTS];
    int wrong = 0;
    *first_bad = -1;
    for (int w = 0; w < (rows->n_rows + 63) / 64; w++) {
        for (int i = 0; i < rows->n_inputs; i++)
            in[i] = rows->in[i][w];
        gg_net_eval64(n, in, out);
        uint64_t bad = (out[0] ^ rows->on[w]) & rows->care[w];
        if (bad && *first_bad < 0)
            *first_bad = 64 * w + __builtin_ctzll(bad);
        wrong += __builtin_popcountll(bad);
    }
    return wrong;
}

/* Walks the gates from the output down, taking every change that keeps
 * the network right; returns the gates saved in the walk, -1 on a bug. */
static int pass(resub *r, mixed *m, gg_net *keep, gg_net *spare,
                gg_err *err)
{
    gg_net *n = r->net;
    int saved = 0;
    bool changed = true;
    for (int root = n->n_gates - 1; root >= 0; root--) {
        if (changed) {
            evaluate(r, -1);
            count_readers(r);
            changed = false;
        }
        *keep = *n;
        if (!try_root(r, root, m))
            continue;
        changed = true;
        int before = keep->n_gates;
        relayout(r, spare);
        gg_net_tidy(n);
        int bad_row;
        if (wrong_rows(n, r->rows, &bad_row)) {
            *n = *keep;
            return gg_fail(err, "resubstitution at gate %d is wrong on row "
                           "%d; a bug in gen/circuits/net_resub.c", root,
                           bad_row);
        }
        if (n->n_gates >= before) { /* no gain after all: undo */
            *n = *keep;
            continue;
        }
        saved += before - n->n_gates;
        if (root > n->n_gates)
            root = n->n_gates;
    }
    return saved;
}

static bool lut3_only(const gg_net *n)
{
    for (int g = 0; g < n->n_gates; g++)
        if (n->gate[g].op != GG_OP_LUT3)
            return false;
    return n->n_outputs == 1;
}

int gg_net_resub_rows(gg_net *net, const gg_resub_rows *rows, int passes,
                      gg_err *err)
{
    int bad_row;
    if (!lut3_only(net) || net->n_inputs != rows->n_inputs ||
        rows->n_inputs > GG_RESUB_MAX_INPUTS ||
        rows->n_rows > 64 * GG_TT_WORDS || wrong_rows(net, rows, &bad_row))
        return gg_fail(err, "resubstitution needs a one-output LUT3 network "
                       "over the rows' %d inputs that computes them",
                       rows->n_inputs);
    resub *r = gg_alloc(1, sizeof *r, err, "resubstitution");
    mixed *m = r ? gg_alloc(1, sizeof *m, err, "resubstitution") : NULL;
    gg_net *keep = m ? gg_alloc(2, sizeof *keep, err, "network") : NULL;
    int saved = keep ? 0 : -1;
    if (keep) {
        r->net = net;
        r->rows = rows;
        r->words = (rows->n_rows + 63) / 64;
        for (int i = 0; i < net->n_inputs; i++)
            memcpy(r->sig[i], rows->in[i], sizeof r->sig[i]);
        passes = passes > 0 ? passes : GG_RESUB_PASSES;
        for (int p = 0; p < passes; p++) {
            int s = pass(r, m, keep, keep + 1, err);
            if (s <= 0) {
                saved = s < 0 ? -1 : saved;
                break;
            }
            saved += s;
        }
    }
    free(keep);
    free(m);
    free(r);
    return saved;
}

int gg_resub_rows_through(const gg_net *front, const gg_tt *t,
                          gg_resub_rows *rows, gg_err *err)
{
    if (front->n_inputs != t->n_inputs ||
        front->n_outputs > GG_RESUB_MAX_INPUTS)
        return gg_fail(err, "a front of %d outputs over %d inputs cannot "
                       "carry a table of %d inputs", front->n_outputs,
                       front->n_inputs, t->n_inputs);
    uint64_t in[GG_TT_MAX_INPUTS];
    memset(rows, 0, sizeof *rows);
    rows->n_inputs = front->n_outputs;
    rows->n_rows = gg_tt_rows(t);
    for (int w = 0; w < gg_tt_words(t); w++) {
        for (int i = 0; i < t->n_inputs; i++)
            in[i] = gg_tt_input_word(i, 64 * w);
        uint64_t out[GG_NET_MAX_OUTPUTS];
        gg_net_eval64(front, in, out);
        for (int o = 0; o < front->n_outputs; o++)
            rows->in[o][w] = out[o];
        rows->on[w] = t->on[w];
        rows->care[w] = t->care[w] & gg_tt_word_mask(t, w);
    }
    return 0;
}

int gg_net_resub(gg_net *net, const gg_tt *t, int passes, gg_err *err)
{
    gg_net *identity = gg_alloc(1, sizeof *identity, err, "network");
    gg_resub_rows *rows = gg_alloc(1, sizeof *rows, err, "rows");
    int rc = identity && rows ? 0 : -1;
    if (!rc) { /* t's own rows: its inputs through no gates */
        identity->n_inputs = identity->n_outputs = t->n_inputs;
        for (int i = 0; i < t->n_inputs; i++)
            identity->out[i] = (uint16_t)i;
        rc = gg_resub_rows_through(identity, t, rows, err);
    }
    if (!rc)
        rc = gg_net_resub_rows(net, rows, passes, err);
    free(identity);
    free(rows);
    return rc;
}

#include "net_sop.h"

#include <stdlib.h>
#include <string.h>

/* A cube: the rows r with (r & mask) == val. */
typedef struct cube {
    uint16_t mask, val;
} cube;

typedef struct cover {
    cube c[1 << GG_TT_MAX_INPUTS];
    int n;
} cover;

/* Seeds tried per cube chosen, and the literal orders each is grown in:
 * more finds bigger cubes, at n_inputs * orders * off rows per seed. */
enum { SEEDS = 16 };

static bool hits_any(cube c, const int *rows, int n)
{
    for (int i = 0; i < n; i++)
        if (((uint16_t)rows[i] & c.mask) == c.val)
            return true;
    return false;
}

/* The minterm m grown by dropping literals while no off row falls inside:
 * first those whose value is `first` (a class told by its live cells
 * drops the dead ones first), then the others, each pass walking up from
 * input `start`. */
static cube grow(int m, int n_in, int start, int first, const int *off,
                 int n_off)
{
    cube c = {(uint16_t)((1u << n_in) - 1), (uint16_t)m};
    for (int pass = 0; pass < 2; pass++)
        for (int s = 0; s < n_in; s++) {
            int i = (start + s) % n_in;
            if ((m >> i & 1) != (pass ? !first : first))
                continue;
            cube d = {(uint16_t)(c.mask & ~(1u << i)),
                      (uint16_t)(c.val & ~(1u << i))};
            if (!hits_any(d, off, n_off))
                c = d;
        }
    return c;
}

static int covers(cube c, const int *on, const bool *done, int n_on)
{
    int k = 0;
    for (int i = 0; i < n_on; i++)
        k += !done[i] && ((uint16_t)on[i] & c.mask) == c.val;
    return k;
}

/* Greedy cover of the on rows by cubes that miss every off row. */
static void cover_rows(const int *on, int n_on, const int *off, int n_off,
                       int n_in, cover *cv)
{
    bool *done = calloc((size_t)n_on + 1, sizeof *done);
    cv->n = 0;
    if (!done)
        return;
    for (int left = n_on; left > 0;) {
        cube best = {0, 0};
        int best_k = -1, seeds = 0;
        for (int i = 0; i < n_on && seeds < SEEDS; i++) {
            if (done[i])
                continue;
            seeds++;
            for (int start = 0; start < n_in; start++)
                for (int first = 0; first < 2; first++) {
                    cube c = grow(on[i], n_in, start, first, off, n_off);
                    int k = covers(c, on, done, n_on);
                    if (k > best_k ||
                        (k == best_k && __builtin_popcount(c.mask) <
                                            __builtin_popcount(best.mask)))
                        best = c, best_k = k;
                }
        }
        cv->c[cv->n++] = best;
        for (int i = 0; i < n_on; i++)
            if (!done[i] && ((uint16_t)on[i] & best.mask) == best.val) {
                done[i] = true;
                left--;
            }
    }
    free(done);
}

/* ---- the cover as LUT3 gates ---- */

typedef struct lit {
    int sig;
    int neg;
} lit;

/* The LUT3 immediate of op over (a, b, c) with each input complemented
 * where neg says (lop3 convention: a = 0xF0, b = 0xCC, c = 0xAA). */
enum { OP_AND3, OP_OR3, OP_ACC_AND2 };

static uint8_t imm(int op, const int neg[3])
{
    uint8_t t = 0;
    for (int k = 0; k < 8; k++) {
        int a = (k >> 2 & 1) ^ neg[0], b = (k >> 1 & 1) ^ neg[1],
            c = (k & 1) ^ neg[2];
        int v = op == OP_AND3 ? a & b & c
                : op == OP_OR3 ? a | b | c
                               : a | (b & c);
        t |= (uint8_t)(v << k);
    }
    return t;
}

static int lut(gg_net *n, int op, lit a, lit b, lit c, gg_err *err)
{
    int neg[3] = {a.neg, b.neg, c.neg};
    return gg_net_add(n, GG_OP_LUT3, imm(op, neg), a.sig, b.sig, c.sig, err);
}

/* AND of the literals down to at most `keep` signals (ANDs of three). */
static int and_down(gg_net *n, lit *l, int *k, int keep, gg_err *err)
{
    while (*k > keep) {
        int take = *k - keep >= 2 ? 3 : 2;
        lit x = l[*k - take], y = l[*k - take + 1],
            z = take == 3 ? l[*k - 1] : y;
        int s = lut(n, OP_AND3, x, y, z, err);
        if (s < 0)
            return -1;
        *k -= take;
        l[(*k)++] = (lit){s, 0};
    }
    return 0;
}

/* acc |= the cube (acc < 0: none yet); returns the new acc signal. */
static int fold_cube(gg_net *n, int acc, cube c, gg_err *err)
{
    lit l[16];
    int k = 0;
    for (int i = 0; i < n->n_inputs; i++)
        if (c.mask >> i & 1)
            l[k++] = (lit){i, !(c.val >> i & 1)};
    if (acc < 0) {
        if (and_down(n, l, &k, 1, err))
            return -1;
        /* a lone literal still needs a signal of its own polarity */
        return l[0].neg ? lut(n, OP_AND3, l[0], l[0], l[0], err) : l[0].sig;
    }
    if (and_down(n, l, &k, 2, err))
        return -1;
    lit a = {acc, 0};
    return k == 2 ? lut(n, OP_ACC_AND2, a, l[0], l[1], err)
                  : lut(n, OP_OR3, a, l[0], l[0], err);
}

static int cube_size(const cube *c) { return __builtin_popcount(c->mask); }

static lit lit_at(cube c, int i) { return (lit){i, !(c.val >> i & 1)}; }

/* Two two-literal cubes that share a literal, as x & (a | b): one LUT3
 * for two cubes (B2a's eight corner-and-edge pairs become four). */
static bool share(cube p, cube q, lit *x, lit *a, lit *b)
{
    uint16_t both = p.mask & q.mask & ~(p.val ^ q.val);
    if (p.mask == q.mask || !both)
        return false;
    int i = __builtin_ctz(both);
    *x = lit_at(p, i);
    *a = lit_at(p, __builtin_ctz(p.mask & ~(1u << i)));
    *b = lit_at(q, __builtin_ctz(q.mask & ~(1u << i)));
    return true;
}

/* The cover's OR: bigger cubes folded into an accumulator (acc | a & b is
 * one LUT3), pairs of two-literal cubes that share a literal factored,
 * and the factored terms and lone literals ORed in three at a time. */
static int build(const cover *cv, int n_in, bool neg, gg_net *net,
                 gg_err *err)
{
    memset(net, 0, sizeof *net);
    net->n_inputs = n_in;
    net->n_outputs = 1;
    bool full = false;
    for (int i = 0; i < cv->n; i++)
        full = full || cv->c[i].mask == 0;
    if (cv->n == 0 || full) { /* constant */
        net->out[0] = GG_SIG_CONST0;
        net->out_neg[0] = full ^ neg;
        return 0;
    }
    bool *used = calloc((size_t)cv->n, sizeof *used);
    lit *terms = malloc((size_t)cv->n * sizeof *terms);
    if (!used || !terms) {
        free(used), free(terms);
        return gg_fail(err, "out of memory building a cover");
    }
    int n_terms = 0, acc = -1;
    for (int i = 0; i < cv->n && acc >= -1; i++) {
        if (cube_size(&cv->c[i]) == 1) {
            terms[n_terms++] = lit_at(cv->c[i], __builtin_ctz(cv->c[i].mask));
            used[i] = true;
        }
        if (used[i] || cube_size(&cv->c[i]) != 2)
            continue;
        for (int j = i + 1; j < cv->n; j++) {
            lit x, a, b;
            if (used[j] || cube_size(&cv->c[j]) != 2 ||
                !share(cv->c[i], cv->c[j], &x, &a, &b))
                continue;
            /* x & (a | b) = ~(~x | ~a & ~b): OP_ACC_AND2 complemented */
            lit nx = {x.sig, !x.neg}, na = {a.sig, !a.neg},
                nb = {b.sig, !b.neg};
            int t = lut(net, OP_ACC_AND2, nx, na, nb, err);
            if (t < 0)
                acc = -2;
            else
                net->gate[t - n_in].lut = (uint8_t)~net->gate[t - n_in].lut;
            terms[n_terms++] = (lit){t, 0};
            used[i] = used[j] = true;
            break;
        }
    }
    for (int i = 0; i < cv->n && acc >= -1; i++)
        if (!used[i] && (acc = fold_cube(net, acc, cv->c[i], err)) < 0)
            acc = -2;
    for (int i = 0; i < n_terms && acc >= -1;) {
        if (acc < 0 && n_terms == 1 && !terms[0].neg) {
            acc = terms[0].sig; /* a lone positive term is the output */
            break;
        }
        lit a = acc < 0 ? terms[i++] : (lit){acc, 0};
        lit b = i < n_terms ? terms[i++] : a;
        lit c = i < n_terms ? terms[i++] : b;
        if ((acc = lut(net, OP_OR3, a, b, c, err)) < 0)
            acc = -2;
    }
    free(used);
    free(terms);
    if (acc < 0)
        return -1;
    net->out[0] = (uint16_t)acc;
    /* the complement folds into the last LUT */
    if (neg && acc >= n_in)
        net->gate[acc - n_in].lut = (uint8_t)~net->gate[acc - n_in].lut;
    else
        net->out_neg[0] = neg;
    return 0;
}

int gg_net_build_sop(const gg_tt *t, gg_net *net, gg_err *err)
{
    int rows = gg_tt_rows(t);
    int *on = malloc((size_t)rows * sizeof *on),
        *off = malloc((size_t)rows * sizeof *off);
    cover *cv = malloc(sizeof *cv);
    gg_net *alt = malloc(sizeof *alt);
    if (!on || !off || !cv || !alt) {
        free(on), free(off), free(cv), free(alt);
        return gg_fail(err, "out of memory building a cover");
    }
    int n_on = 0, n_off = 0, rc = 0;
    for (int r = 0; r < rows; r++)
        if (gg_tt_get(t->care, r)) {
            if (gg_tt_get(t->on, r))
                on[n_on++] = r;
            else
                off[n_off++] = r;
        }
    cover_rows(on, n_on, off, n_off, t->n_inputs, cv);
    rc = build(cv, t->n_inputs, false, net, err);
    if (!rc) {
        cover_rows(off, n_off, on, n_on, t->n_inputs, cv);
        rc = build(cv, t->n_inputs, true, alt, err);
        if (!rc && alt->n_gates < net->n_gates)
            *net = *alt;
    }
    free(on), free(off), free(cv), free(alt);
    return rc;
}

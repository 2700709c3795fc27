/* The encoder's pruning clauses (sat/exact/encode.h lists the rules): symmetry
 * breaking (inputs f treats alike, twin gates, the shape's automorphisms,
 * the order of forbid groups), what every network of fewest gates meets
 * (every gate read, every needed input read, no re-applied gates) and the
 * decomposition cuts of closed cones and two-exit sets. */
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "encode_internal.h"
#include "symm.h"

/* Without a shape, each gate but the output(s) feeds a later gate. */
void enc_every_gate_read(gg_enc *e)
{
    for (int j = 0; j + 1 < e->k; j++) {
        if (e->spec.lim.f2 && j == e->spec.lim.out2)
            continue;
        int lits[GG_ENC_MAX_GATES], n = 0;
        for (int i = j + 1; i < e->k; i++)
            lits[n++] = e->g[i].reads[e->n + j];
        enc_emit(e, lits, n);
    }
}

/* Input b may be read only if input a, its predecessor in a symmetry
 * class, was read by an earlier gate or comes with b. */
static void symmetric_pair(gg_enc *e, int a, int b)
{
    int lits[2 + GG_ENC_MAX_GATES];
    for (int i = 0; i < e->k; i++)
        for (int o = 0; o < e->g[i].n_opt; o++) {
            const option *op = &e->g[i].opt[o];
            if (!enc_has(op, e->g[i].m, b) || enc_has(op, e->g[i].m, a))
                continue;
            int n = 0;
            lits[n++] = -op->sel;
            for (int i2 = 0; i2 < i; i2++)
                lits[n++] = e->g[i2].reads[a];
            enc_emit(e, lits, n);
        }
}

void enc_symmetry(gg_enc *e)
{
    const int *cls = e->spec.class_of;
    if (!cls)
        return;
    for (int b = 0; b < e->n; b++) {
        int a = b - 1;
        while (a >= 0 && cls[a] != cls[b])
            a--;
        if (a >= 0)
            symmetric_pair(e, a, b);
    }
}

/* Gate i, read by gate j alone: j's other sources must not all be sources
 * of i, or j is one LUT over i's sources and i is redundant. */
static void no_reapplied(gg_enc *e, int i, int j)
{
    const gate *gj = &e->g[j];
    int lits[1 + MAX_SLOTS];
    for (int o = 0; o < gj->n_opt; o++) {
        int n = 0;
        lits[n++] = -gj->opt[o].sel;
        for (int s = 0; s < gj->m; s++)
            if (gj->opt[o].src[s] != e->n + i)
                lits[n++] = -e->g[i].reads[gj->opt[o].src[s]];
        enc_emit(e, lits, n);
    }
}

void enc_reapplied(gg_enc *e)
{
    const gg_shape *sh = e->spec.shape;
    if (!sh)
        return;
    for (int i = 0; i + 1 < e->k; i++) {
        int readers = 0, j = -1;
        for (int r = i + 1; r < e->k; r++)
            if (sh->fanin[r] >> i & 1)
                readers++, j = r;
        if (readers == 1)
            no_reapplied(e, i, j);
    }
}

/* Every input f must read is read by some gate. */
void enc_essential_read(gg_enc *e)
{
    bool need[GG_TT_MAX_INPUTS];
    int lits[GG_ENC_MAX_GATES];
    gg_symm_essential(e->spec.f, need);
    for (int c = 0; c < e->n; c++) {
        if (!need[c])
            continue;
        for (int i = 0; i < e->k; i++)
            lits[i] = e->g[i].reads[c];
        enc_emit(e, lits, e->k);
    }
}

/* Decomposition. Let g be a gate other than the output and cone(g) g with
 * every gate it reaches backwards. Call the cone closed when every gate of
 * cone(g) but g itself is read only by gates of cone(g). Then no gate
 * outside the cone reads a cone gate other than g, so by induction over the
 * gates outside the cone in order each of them, the output included, is a
 * function of g's value and of the primary inputs read outside the cone
 * (set R); and g is a function of the primary inputs read inside it (S).
 * Hence f(x) = F(h(x|S), x|R) on every care row, i.e. (S, R) is a
 * decomposable pair (gg_symm_decomposable). A gate reading a signal but
 * ignoring it only makes S or R larger, and decomposability is closed
 * upwards, so the argument holds with "read" meaning "wired to", which is
 * what the reads[] variables say. For each maximal non-decomposable pair
 * (s, r) of spec.nd we need S not within s or R not within r:
 *   OR_{x not in s} in[x]  |  OR_{x not in r} out[x],
 * with in[x] -> some cone gate reads x and out[x] -> some gate outside
 * reads x (only that direction is needed: the clause can then only be met
 * by a real read). This holds for every network that computes f, so it
 * removes no network at all, minimal or not. */
static uint32_t cone_of(const gg_shape *sh, int g)
{
    uint32_t cone = 1u << g;
    for (int i = g; i >= 0; i--)
        if (cone >> i & 1)
            cone |= sh->fanin[i];
    return cone;
}

static bool cone_closed(const gg_shape *sh, int g, uint32_t cone)
{
    for (int i = 0; i < sh->k; i++)
        if (i != g && (cone >> i & 1))
            for (int r = 0; r < sh->k; r++)
                if ((sh->fanin[r] >> i & 1) && !(cone >> r & 1))
                    return false;
    return true;
}

/* v[x] -> some gate of the mask reads input x. */
static void reads_any(gg_enc *e, uint32_t gates, int *v)
{
    int lits[1 + GG_ENC_MAX_GATES];
    for (int x = 0; x < e->n; x++) {
        int n = 0;
        v[x] = gg_sat_var(e->sat);
        lits[n++] = -v[x];
        for (int i = 0; i < e->k; i++)
            if (gates >> i & 1)
                lits[n++] = e->g[i].reads[x];
        enc_emit(e, lits, n);
    }
}

/* The gates of mask `inside` may not read only inputs within s while the
 * other gates read only inputs within r, for each pair (s, r) of pairs:
 *   OR_{x not in s} in[x]  |  OR_{x not in r} out[x]. */
static void exclude_pairs(gg_enc *e, uint32_t inside,
                          const unsigned (*pairs)[2], int n_pairs)
{
    int in[GG_TT_MAX_INPUTS], out[GG_TT_MAX_INPUTS];
    int lits[2 * GG_TT_MAX_INPUTS];
    reads_any(e, inside, in);
    reads_any(e, ((1u << e->k) - 1) & ~inside, out);
    for (int p = 0; p < n_pairs; p++) {
        int n = 0;
        for (int x = 0; x < e->n; x++) {
            if (!(pairs[p][0] >> x & 1))
                lits[n++] = in[x];
            if (!(pairs[p][1] >> x & 1))
                lits[n++] = out[x];
        }
        enc_emit(e, lits, n);
    }
}

void enc_decomposition(gg_enc *e)
{
    const gg_shape *sh = e->spec.shape;
    if (!sh || !e->spec.nd)
        return;
    for (int g = 0; g + 1 < e->k; g++) {
        uint32_t cone = cone_of(sh, g);
        if (!cone_closed(sh, g, cone))
            continue;
        exclude_pairs(e, cone, e->spec.nd, e->spec.n_nd);
    }
}

/* Two-exit decomposition. Let C be a set of gates, the output not among
 * them, closed backwards (every gate C reads is in C) and with exactly two
 * exits g1, g2: the gates of C that some gate outside C reads. Every gate
 * of C is then a function of the primary inputs read inside C (set S).
 * No gate outside C reads a gate of C other than g1 and g2, so by
 * induction over the gates outside C in order each of them, the output
 * included, is a function of (g1, g2) and of the primary inputs read
 * outside C (set R). Hence f(x) = F(h1(x|S), h2(x|S), x|R) on every care
 * row: h = (h1, h2) takes 4 values, and (S, R) passes the 4-colour test
 * of gg_symm_decomposable_k. That test is closed upwards like the 2-colour
 * one (h and F may ignore inputs), so "read" may again mean "wired to",
 * and for each maximal pair (s, r) of spec.nd4 that fails it we need
 *   OR_{x not in s} in[x]  |  OR_{x not in r} out[x]
 * exactly as for one exit. Sets with one exit are the closed cones above
 * (a gate of C read only inside C reaches the exit forwards), so only
 * two exits are new. Every network computing f meets the clause: it
 * removes no network. */
void enc_two_exit(gg_enc *e)
{
    const gg_shape *sh = e->spec.shape;
    if (!sh || !e->spec.nd4 || !e->spec.n_nd4)
        return;
    int k = e->k;
    for (uint32_t c = 1; c < (1u << (k - 1)); c++) { /* output excluded */
        bool closed = true;
        int exits = 0;
        for (int i = 0; i < k && closed; i++) {
            if (!(c >> i & 1))
                continue;
            if (sh->fanin[i] & ~c)
                closed = false;
            bool exit = false;
            for (int r = 0; r < k; r++)
                if (!(c >> r & 1) && (sh->fanin[r] >> i & 1))
                    exit = true;
            exits += exit;
        }
        if (!closed || exits != 2)
            continue;
        exclude_pairs(e, c, e->spec.nd4, e->spec.n_nd4);
    }
}

/* Gates i < j with the same fanin gates and the same readers can trade
 * places, so i takes the earlier fanin set (the lex-leader of the swap,
 * which agrees with the input-symmetry rule). */
static bool twins(const gg_shape *sh, int i, int j)
{
    if (sh->fanin[i] != sh->fanin[j])
        return false;
    for (int r = 0; r < sh->k; r++)
        if ((sh->fanin[r] >> i & 1) != (sh->fanin[r] >> j & 1))
            return false;
    return true;
}

void enc_order_twins(gg_enc *e)
{
    const gg_shape *sh = e->spec.shape;
    const uint32_t *fb = e->spec.lim.forbid;
    for (int i = 0; sh && i < e->k; i++)
        for (int j = i + 1; j < e->k; j++) {
            if (!twins(sh, i, j) || (fb && fb[i] != fb[j]))
                continue;
            const gate *a = &e->g[i], *b = &e->g[j];
            for (int oa = 1; oa < a->n_opt; oa++)
                for (int ob = 0; ob < oa && ob < b->n_opt; ob++)
                    enc_emit2(e, -a->opt[oa].sel, -b->opt[ob].sel);
        }
}

/* Shape automorphisms. A permutation s of the gates with
 * fanin[s(i)] = s(fanin[i]) for every gate (the output stays put) maps a
 * network N on the shape to a network s(N) on the same shape: gate s(i)
 * of s(N) reads the inputs gate i of N reads and computes its function,
 * its slots reordered to the shape's order of fanin gates (a LUT takes
 * any order; f(0) = 0 and "reads its slot" survive). So s is a symmetry,
 * like the twin swaps above (which are the automorphisms that swap two
 * gates) and the input transpositions. Let i0 be the first gate s moves
 * and j = s^-1(i0). Gates before i0 are fixed by s and keep their fanin
 * sets in s(N), so comparing networks by their fanin-set choices, gate 0
 * first, the least network of an orbit (under the group that all these
 * symmetries generate, as for the other rules) has
 *   choice(i0) <= choice(j)
 * (both gates have as many input slots, so their choices are listed
 * alike). Only symmetries of the whole problem count: with any of
 * spec.lim's restrictions (forbidden fanins, closures, a second output)
 * automorphisms are left alone. */
#define MAX_AUTOS 64

typedef struct autos {
    const gg_shape *sh;
    int map[GG_ENC_MAX_GATES]; /* s(i) */
    bool used[GG_ENC_MAX_GATES];
    int pairs[MAX_AUTOS][2];   /* (i0, j) per automorphism found */
    int n;
    long steps;
} autos;

static void find_autos(autos *a, int i)
{
    const gg_shape *sh = a->sh;
    if (a->n == MAX_AUTOS || ++a->steps > 100000)
        return; /* fewer rules: still sound */
    if (i == sh->k) {
        int i0 = 0;
        while (i0 < sh->k && a->map[i0] == i0)
            i0++;
        if (i0 == sh->k)
            return; /* the identity */
        int j = 0;
        while (a->map[j] != i0)
            j++;
        a->pairs[a->n][0] = i0, a->pairs[a->n][1] = j;
        a->n++;
        return;
    }
    for (int t = 0; t < sh->k; t++) {
        if (a->used[t] || (i == sh->k - 1) != (t == sh->k - 1) ||
            __builtin_popcount(sh->fanin[i]) !=
                __builtin_popcount(sh->fanin[t]))
            continue;
        /* fanin[t] = s(fanin[i]) and, for every earlier gate g mapped
         * already, "i reads g" <=> "t reads s(g)" and "g reads i" <=>
         * "s(g) reads t" */
        bool ok = true;
        for (int g = 0; g < i && ok; g++) {
            int sg = a->map[g];
            ok = ((sh->fanin[i] >> g & 1) == (sh->fanin[t] >> sg & 1)) &&
                 ((sh->fanin[g] >> i & 1) == (sh->fanin[sg] >> t & 1));
        }
        if (!ok)
            continue;
        a->map[i] = t, a->used[t] = true;
        find_autos(a, i + 1);
        a->used[t] = false;
    }
}

void enc_order_automorphisms(gg_enc *e)
{
    const gg_enc_spec *sp = &e->spec;
    const gg_enc_limits *l = &sp->lim;
    if (!sp->shape || !sp->automorphisms || l->forbid || l->swap ||
        l->n_closed || l->f2 || l->order_groups)
        return;
    static _Thread_local autos a;
    memset(&a, 0, sizeof a);
    a.sh = sp->shape;
    find_autos(&a, 0);
    for (int p = 0; p < a.n; p++) {
        const gate *g = &e->g[a.pairs[p][0]], *h = &e->g[a.pairs[p][1]];
        if (g->n_opt != h->n_opt)
            continue; /* cannot happen: same input slots */
        for (int oa = 1; oa < g->n_opt; oa++)
            for (int ob = 0; ob < oa; ob++)
                enc_emit2(e, -g->opt[oa].sel, -h->opt[ob].sel);
    }
}

/* Lexicographic order of two fanin sets (increasing source lists). */
static int lex_cmp(const option *a, int ma, const option *b, int mb)
{
    for (int s = 0; s < ma && s < mb; s++)
        if (a->src[s] != b->src[s])
            return a->src[s] < b->src[s] ? -1 : 1;
    return ma - mb;
}

/* lim.order_groups (free topology only): adjacent gates i, i+1 of one
 * forbid group, neither an output, can trade places when i+1 does not
 * read i, so the least of the orders has i's fanin set no larger. */
void enc_order_groups(gg_enc *e)
{
    const gg_enc_spec *sp = &e->spec;
    if (!sp->lim.order_groups || sp->shape)
        return;
    for (int i = 0; i + 2 < e->k; i++) {
        if ((sp->lim.f2 && (i == sp->lim.out2 || i + 1 == sp->lim.out2)) ||
            (sp->lim.forbid && sp->lim.forbid[i] != sp->lim.forbid[i + 1]))
            continue;
        const gate *a = &e->g[i], *b = &e->g[i + 1];
        for (int ob = 0; ob < b->n_opt; ob++) {
            if (enc_has(&b->opt[ob], b->m, e->n + i))
                continue;
            for (int oa = 0; oa < a->n_opt; oa++)
                if (lex_cmp(&b->opt[ob], b->m, &a->opt[oa], a->m) < 0)
                    enc_emit2(e, -a->opt[oa].sel, -b->opt[ob].sel);
        }
    }
}

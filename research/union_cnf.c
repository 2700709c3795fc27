#include "union_cnf.h"

#include <stdlib.h>
#include <string.h>

#include "encode.h"
#include "symm.h"

#define SLOTS 3
#define MAX_SETS (1 << (GG_SHAPE_MAX_GATES - 1))
#define MAX_FIXED_AMO 64 /* pairwise at-most-one up to this many tuples */

/* The input tuples of one size, in sat/exact/encode.c's list_options order. */
typedef struct tuples {
    int n;
    int (*src)[SLOTS];
    int *sel;
} tuples;

/* A set of earlier gates a gate may read, and its selector. */
typedef struct gset {
    unsigned mask;
    int size;
    int sel; /* <-> the wiring says exactly these gates */
} gset;

typedef struct ugate {
    int w[GG_ENC_MAX_GATES];     /* reads gate j (j < i) */
    int n_sets;
    gset *sets;
    tuples t[SLOTS + 1];         /* by number of input slots */
    int z[SLOTS + 1];            /* z[p]: p input slots */
    int reads[GG_TT_MAX_INPUTS]; /* some chosen tuple holds input c */
    int fn[8];                   /* slot values b -> output; fn[0] false */
    int dep[SLOTS];              /* the function reads slot s */
} ugate;

/* Activation literals, made on first use (0: not yet). */
typedef struct guards {
    int cone[MAX_SETS];  /* closed set with one exit: spec.nd */
    int exit2[MAX_SETS]; /* closed set with two exits: spec.nd4 */
    int reapplied[GG_ENC_MAX_GATES][GG_ENC_MAX_GATES]; /* [i][j] */
    int order[GG_ENC_MAX_GATES][GG_ENC_MAX_GATES];     /* [i][j], i < j */
} guards;

struct uc_cnf {
    uc_spec spec;
    gg_sat *sat;
    int n, k;
    int vtrue, pol;
    ugate g[GG_ENC_MAX_GATES];
    int *x;      /* x[r * k + i]: gate i on row r; 0 while r not added */
    int *added;  /* rows added so far, in order */
    int n_added;
    guards act;
    int buf[4096];
};

static void emit(uc_cnf *u, const int *lits, int n)
{
    int m = 0;
    for (int i = 0; i < n; i++) {
        if (lits[i] == u->vtrue)
            return;
        if (lits[i] != -u->vtrue)
            u->buf[m++] = lits[i];
    }
    gg_sat_clause(u->sat, u->buf, m);
}

static void emit2(uc_cnf *u, int a, int b) { emit(u, (int[]){a, b}, 2); }

static int fresh(uc_cnf *u) { return gg_sat_var(u->sat); }

/* A variable the cubes assume: kept out of the solver's elimination. */
static int fresh_frozen(uc_cnf *u)
{
    int v = gg_sat_var(u->sat);
    gg_sat_freeze(u->sat, v);
    return v;
}

static int list_tuples(uc_cnf *u, tuples *t, int p, gg_err *err)
{
    int n = u->n, cap = 1, c[SLOTS] = {0};
    for (int s = 0; s < p; s++)
        cap = cap * (n - s) / (s + 1);
    t->src = gg_alloc((size_t)cap, sizeof *t->src, err, "input tuples");
    t->sel = gg_alloc((size_t)cap, sizeof *t->sel, err, "input tuples");
    if (!t->src || !t->sel)
        return -1;
    for (int s = 0; s < p; s++)
        c[s] = s;
    for (;;) {
        memcpy(t->src[t->n], c, sizeof c);
        t->sel[t->n++] = fresh(u);
        int s = p - 1;
        while (s >= 0 && c[s] == n - 1 - (p - 1 - s))
            s--;
        if (s < 0)
            return 0;
        c[s]++;
        for (int q = s + 1; q < p; q++)
            c[q] = c[q - 1] + 1;
    }
}

static bool tuple_has(const int *src, int p, int c)
{
    for (int s = 0; s < p; s++)
        if (src[s] == c)
            return true;
    return false;
}

/* Gate sets of at most 3 earlier gates, each tied both ways to the wiring;
 * one of them holds (so no gate reads 4 gates). */
static int setup_wiring(uc_cnf *u, int i, gg_err *err)
{
    ugate *g = &u->g[i];
    for (int j = 0; j < i; j++)
        g->w[j] = fresh_frozen(u);
    g->sets = gg_alloc((size_t)1 << i, sizeof *g->sets, err, "gate sets");
    if (!g->sets)
        return -1;
    int all[MAX_SETS], n_all = 0;
    for (unsigned m = 0; m < (1u << i); m++) {
        int size = __builtin_popcount(m);
        if (size > SLOTS)
            continue;
        gset *gs = &g->sets[g->n_sets++];
        gs->mask = m, gs->size = size, gs->sel = fresh(u);
        int back[GG_ENC_MAX_GATES + 1], nb = 0;
        back[nb++] = gs->sel;
        for (int j = 0; j < i; j++) {
            int lit = (m >> j & 1) ? g->w[j] : -g->w[j];
            emit2(u, -gs->sel, lit);
            back[nb++] = -lit;
        }
        emit(u, back, nb);
        all[n_all++] = gs->sel;
    }
    emit(u, all, n_all);
    return 0;
}

/* z[p] <-> the gate set leaves p input slots <-> one tuple of size p. */
static void setup_inputs(uc_cnf *u, ugate *g)
{
    for (int p = 0; p <= SLOTS; p++)
        g->z[p] = fresh(u);
    for (int p = 0; p <= SLOTS; p++)
        for (int q = p + 1; q <= SLOTS; q++)
            emit2(u, -g->z[p], -g->z[q]);
    for (int s = 0; s < g->n_sets; s++)
        emit2(u, -g->sets[s].sel, g->z[SLOTS - g->sets[s].size]);
    for (int p = 0; p <= SLOTS; p++) {
        tuples *t = &g->t[p];
        int lits[1 + 4096], n = 0;
        lits[n++] = -g->z[p];
        for (int o = 0; o < t->n && n < 4097; o++) {
            lits[n++] = t->sel[o];
            emit2(u, -t->sel[o], g->z[p]);
        }
        emit(u, lits, n);
        if (t->n <= MAX_FIXED_AMO)
            for (int a = 0; a < t->n; a++)
                for (int b = a + 1; b < t->n; b++)
                    emit2(u, -t->sel[a], -t->sel[b]);
    }
    for (int c = 0; c < u->n; c++) {
        int lits[1 + 4096], n = 0;
        g->reads[c] = fresh(u);
        lits[n++] = -g->reads[c];
        for (int p = 1; p <= SLOTS; p++)
            for (int o = 0; o < g->t[p].n; o++)
                if (tuple_has(g->t[p].src[o], p, c)) {
                    emit2(u, -g->t[p].sel[o], g->reads[c]);
                    if (n < 4097)
                        lits[n++] = g->t[p].sel[o];
                }
        emit(u, lits, n);
    }
}

/* As sat/exact/encode.c: dep[s] <-> two patterns differing in slot s only give
 * different outputs; gate slots must matter and, of the p input slots,
 * at least p - 1 (every gate reads at least 2 slots). */
static void setup_function(uc_cnf *u, ugate *g)
{
    g->fn[0] = -u->vtrue;
    for (int b = 1; b < 8; b++)
        g->fn[b] = fresh(u);
    for (int s = 0; s < SLOTS; s++) {
        int bit = 1 << s, ors[8], n = 0;
        g->dep[s] = fresh(u);
        ors[n++] = -g->dep[s];
        for (int b = 0; b < 8; b++) {
            if (b & bit)
                continue;
            if (b == 0) {
                ors[n++] = g->fn[bit];
                continue;
            }
            int d = fresh(u);
            emit(u, (int[]){-d, g->fn[b], g->fn[b | bit]}, 3);
            emit(u, (int[]){-d, -g->fn[b], -g->fn[b | bit]}, 3);
            ors[n++] = d;
        }
        emit(u, ors, n);
    }
    for (int p = 0; p <= SLOTS; p++) {
        for (int s = p; s < SLOTS; s++)
            emit2(u, -g->z[p], g->dep[s]);
        if (p == 3) /* 2 of 3: every pair holds one */
            for (int a = 0; a < 3; a++)
                for (int b = a + 1; b < 3; b++)
                    emit(u, (int[]){-g->z[p], g->dep[a], g->dep[b]}, 3);
        if (p == 2)
            emit(u, (int[]){-g->z[p], g->dep[0], g->dep[1]}, 3);
    }
}

static void essential_read(uc_cnf *u)
{
    bool need[GG_TT_MAX_INPUTS];
    int lits[GG_ENC_MAX_GATES];
    gg_symm_essential(u->spec.f, need);
    for (int c = 0; c < u->n; c++) {
        if (!need[c])
            continue;
        for (int i = 0; i < u->k; i++)
            lits[i] = u->g[i].reads[c];
        emit(u, lits, u->k);
    }
}

/* sat/exact/encode.c symmetric_pair: input b only after a, or with it. */
static void symmetry(uc_cnf *u)
{
    const int *cls = u->spec.class_of;
    int lits[1 + GG_ENC_MAX_GATES];
    for (int b = 0; cls && b < u->n; b++) {
        int a = b - 1;
        while (a >= 0 && cls[a] != cls[b])
            a--;
        if (a < 0)
            continue;
        for (int i = 0; i < u->k; i++)
            for (int p = 1; p <= SLOTS; p++)
                for (int o = 0; o < u->g[i].t[p].n; o++) {
                    const int *src = u->g[i].t[p].src[o];
                    if (!tuple_has(src, p, b) || tuple_has(src, p, a))
                        continue;
                    int n = 0;
                    lits[n++] = -u->g[i].t[p].sel[o];
                    for (int i2 = 0; i2 < i; i2++)
                        lits[n++] = u->g[i2].reads[a];
                    emit(u, lits, n);
                }
    }
}

static int setup(uc_cnf *u, gg_err *err)
{
    u->vtrue = fresh(u);
    gg_sat_clause(u->sat, &u->vtrue, 1);
    u->pol = fresh(u);
    for (int i = 0; i < u->k; i++) {
        ugate *g = &u->g[i];
        if (setup_wiring(u, i, err))
            return -1;
        for (int p = 0; p <= SLOTS; p++)
            if (list_tuples(u, &g->t[p], p, err))
                return -1;
        setup_inputs(u, g);
        setup_function(u, g);
    }
    essential_read(u);
    symmetry(u);
    return 0;
}

uc_cnf *uc_new(const uc_spec *spec, gg_sat *s, gg_err *err)
{
    int n = spec->f->n_inputs;
    if (spec->k < 1 || spec->k > GG_SHAPE_MAX_GATES || n < SLOTS) {
        gg_fail(err, "the shape-union CNF takes 1..%d lut3 gates over at "
                "least 3 inputs, not %d gates over %d", GG_SHAPE_MAX_GATES,
                spec->k, n);
        return NULL;
    }
    uc_cnf *u = gg_alloc(1, sizeof *u, err, "shape-union encoder");
    if (!u)
        return NULL;
    u->spec = *spec, u->sat = s, u->n = n, u->k = spec->k;
    u->x = gg_alloc((size_t)gg_tt_rows(spec->f) * (size_t)spec->k,
                    sizeof *u->x, err, "encoder rows");
    u->added = gg_alloc((size_t)gg_tt_rows(spec->f), sizeof *u->added, err,
                        "encoder rows");
    if (!u->x || !u->added || setup(u, err)) {
        uc_free(u);
        return NULL;
    }
    return u;
}

void uc_free(uc_cnf *u)
{
    if (!u)
        return;
    for (int i = 0; i < u->k; i++) {
        free(u->g[i].sets);
        for (int p = 0; p <= SLOTS; p++) {
            free(u->g[i].t[p].src);
            free(u->g[i].t[p].sel);
        }
    }
    free(u->x);
    free(u->added);
    free(u);
}

/* Gate i on row r. The input slots are constants on r, so a tuple of
 * size p only says which of 2^p patterns they show: y[p][q] <- the chosen
 * tuple shows q. Under gate set gs (p = 3 - |gs| input slots) each input
 * pattern and gate-slot pattern forces x = fn[pattern]. Stating the
 * simulation over patterns rather than tuples (sat/exact/encode.c states it per
 * option) takes a third of the clauses here, where every gate set of
 * every shape is present, and lets a learnt clause speak of a pattern
 * that many tuples share. */
static void gate_row(uc_cnf *u, int i, int r)
{
    const ugate *g = &u->g[i];
    int y[SLOTS + 1][1 << SLOTS], lits[2 + SLOTS + 2];
    for (int p = 1; p <= SLOTS; p++) {
        for (int q = 0; q < (1 << p); q++)
            y[p][q] = 0;
        for (int o = 0; o < g->t[p].n; o++) {
            int q = 0;
            for (int s = 0; s < p; s++)
                q |= (r >> g->t[p].src[o][s] & 1) << s;
            if (!y[p][q])
                y[p][q] = fresh(u);
            emit2(u, -g->t[p].sel[o], y[p][q]);
        }
    }
    int x = u->x[r * u->k + i];
    for (int s = 0; s < g->n_sets; s++) {
        const gset *gs = &g->sets[s];
        int p = SLOTS - gs->size, gl[SLOTS], ng = 0;
        for (int j = 0; j < i; j++)
            if (gs->mask >> j & 1)
                gl[ng++] = u->x[r * u->k + j];
        for (int q = 0; q < (1 << p); q++) {
            if (p > 0 && !y[p][q])
                continue;
            for (int v = 0; v < (1 << ng); v++) {
                int n = 0, b = q;
                if (p > 0)
                    lits[n++] = -y[p][q];
                lits[n++] = -gs->sel;
                for (int t = 0; t < ng; t++) {
                    lits[n++] = (v >> t & 1) ? -gl[t] : gl[t];
                    b |= (v >> t & 1) << (p + t);
                }
                lits[n] = -x, lits[n + 1] = g->fn[b];
                emit(u, lits, n + 2);
                lits[n] = x, lits[n + 1] = -g->fn[b];
                emit(u, lits, n + 2);
            }
        }
    }
}

/* sat/exact/encode.c differences(), with "gate j is a fanin of i" taken from
 * the wiring: u_ij -> w[i][j] and u_ij -> d_j. */
static void differences(uc_cnf *u, int r, int r2)
{
    int d[GG_ENC_MAX_GATES], lits[2 * GG_ENC_MAX_GATES + GG_TT_MAX_INPUTS];
    for (int i = 0; i < u->k; i++) {
        int a = u->x[r * u->k + i], b = u->x[r2 * u->k + i];
        d[i] = fresh(u);
        emit(u, (int[]){-d[i], a, b}, 3);
        emit(u, (int[]){-d[i], -a, -b}, 3);
        emit(u, (int[]){d[i], -a, b}, 3);
        emit(u, (int[]){d[i], a, -b}, 3);
    }
    for (int i = 0; i < u->k; i++) {
        int n = 0;
        lits[n++] = -d[i];
        for (int j = 0; j < i; j++) {
            int t = fresh(u);
            emit2(u, -t, u->g[i].w[j]);
            emit2(u, -t, d[j]);
            lits[n++] = t;
        }
        for (int c = 0; c < u->n; c++)
            if ((r ^ r2) >> c & 1)
                lits[n++] = u->g[i].reads[c];
        emit(u, lits, n);
    }
}

void uc_add_row(uc_cnf *u, int r)
{
    int *x = &u->x[r * u->k];
    if (x[0])
        return;
    for (int i = 0; i < u->k; i++)
        x[i] = fresh(u);
    for (int i = 0; i < u->k; i++)
        gate_row(u, i, r);
    int want = gg_tt_get(u->spec.f->on, r), out = x[u->k - 1];
    emit2(u, -out, want ? -u->pol : u->pol);
    emit2(u, out, want ? u->pol : -u->pol);
    if (u->spec.diff) {
        const gg_tt *f = u->spec.f;
        int dist = u->spec.diff_dist ? u->spec.diff_dist : GG_ENC_DIFF_DIST;
        for (int a = 0; a < u->n_added; a++)
            if (gg_tt_get(f->on, u->added[a]) != gg_tt_get(f->on, r) &&
                (dist < 0 ||
                 __builtin_popcount((unsigned)(u->added[a] ^ r)) <= dist))
                differences(u, u->added[a], r);
    }
    u->added[u->n_added++] = r;
}

/* ---- rules that hold on some shapes: guarded, assumed by the cube ---- */

/* sat/exact/encode.c exclude_pairs, behind the activation literal act. */
static int guarded_pairs(uc_cnf *u, unsigned inside,
                         const unsigned (*pairs)[2], int n_pairs)
{
    int act = fresh_frozen(u);
    int in[GG_TT_MAX_INPUTS], out[GG_TT_MAX_INPUTS];
    int lits[2 + 2 * GG_TT_MAX_INPUTS + GG_ENC_MAX_GATES];
    unsigned all = (1u << u->k) - 1;
    for (int x = 0; x < u->n; x++) {
        int n = 0, m = 0, l2[1 + GG_ENC_MAX_GATES];
        in[x] = fresh(u), out[x] = fresh(u);
        lits[n++] = -in[x];
        l2[m++] = -out[x];
        for (int i = 0; i < u->k; i++)
            if (inside >> i & 1)
                lits[n++] = u->g[i].reads[x];
            else if (all >> i & 1)
                l2[m++] = u->g[i].reads[x];
        emit(u, lits, n);
        emit(u, l2, m);
    }
    for (int p = 0; p < n_pairs; p++) {
        int n = 0;
        lits[n++] = -act;
        for (int x = 0; x < u->n; x++) {
            if (!(pairs[p][0] >> x & 1))
                lits[n++] = in[x];
            if (!(pairs[p][1] >> x & 1))
                lits[n++] = out[x];
        }
        emit(u, lits, n);
    }
    return act;
}

/* Gate i read by j alone, j's other gate fanins all read by i: j's input
 * tuple must hold an input i does not read (sat/exact/encode.c no_reapplied). */
static int guarded_reapplied(uc_cnf *u, int i, int j)
{
    int act = fresh_frozen(u), lits[2 + SLOTS];
    const ugate *gj = &u->g[j];
    for (int p = 0; p <= SLOTS; p++)
        for (int o = 0; o < gj->t[p].n; o++) {
            int n = 0;
            lits[n++] = -act;
            lits[n++] = -gj->t[p].sel[o];
            for (int s = 0; s < p; s++)
                lits[n++] = -u->g[i].reads[gj->t[p].src[o][s]];
            emit(u, lits, n);
        }
    return act;
}

/* Gate i takes an input tuple no later than gate j's (twins and shape
 * automorphisms, sat/exact/encode.c order_twins / order_automorphisms). */
static int guarded_order(uc_cnf *u, int i, int j)
{
    int act = fresh_frozen(u);
    const ugate *a = &u->g[i], *b = &u->g[j];
    for (int p = 0; p <= SLOTS; p++)
        for (int oa = 1; oa < a->t[p].n; oa++)
            for (int ob = 0; ob < oa; ob++)
                emit(u, (int[]){-act, -a->t[p].sel[oa], -b->t[p].sel[ob]},
                     3);
    return act;
}

static unsigned cone_of(const gg_shape *sh, int g)
{
    unsigned cone = 1u << g;
    for (int i = g; i >= 0; i--)
        if (cone >> i & 1)
            cone |= sh->fanin[i];
    return cone;
}

static bool cone_closed(const gg_shape *sh, int g, unsigned cone)
{
    for (int i = 0; i < sh->k; i++)
        if (i != g && (cone >> i & 1))
            for (int r = 0; r < sh->k; r++)
                if ((sh->fanin[r] >> i & 1) && !(cone >> r & 1))
                    return false;
    return true;
}

/* Backward-closed gate sets with exactly two exits (sat/exact/encode.c
 * two_exit). */
static bool two_exits(const gg_shape *sh, unsigned c)
{
    int exits = 0;
    for (int i = 0; i < sh->k; i++) {
        if (!(c >> i & 1))
            continue;
        if (sh->fanin[i] & ~c)
            return false;
        bool exit = false;
        for (int r = 0; r < sh->k; r++)
            if (!(c >> r & 1) && (sh->fanin[r] >> i & 1))
                exit = true;
        exits += exit;
    }
    return exits == 2;
}

static bool twins(const gg_shape *sh, int i, int j)
{
    if (sh->fanin[i] != sh->fanin[j])
        return false;
    for (int r = 0; r < sh->k; r++)
        if ((sh->fanin[r] >> i & 1) != (sh->fanin[r] >> j & 1))
            return false;
    return true;
}

/* sat/exact/encode.c find_autos, with its caps (the same pairs, so the same
 * rules): per automorphism, its first moved gate i0 and s^-1(i0). */
#define MAX_AUTOS 64

typedef struct autos {
    const gg_shape *sh;
    int map[GG_ENC_MAX_GATES];
    bool used[GG_ENC_MAX_GATES];
    int pairs[MAX_AUTOS][2];
    int n;
    long steps;
} autos;

static void find_autos(autos *a, int i)
{
    const gg_shape *sh = a->sh;
    if (a->n == MAX_AUTOS || ++a->steps > 100000)
        return;
    if (i == sh->k) {
        int i0 = 0;
        while (i0 < sh->k && a->map[i0] == i0)
            i0++;
        if (i0 == sh->k)
            return;
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

static int order_lit(uc_cnf *u, int i, int j)
{
    if (!u->act.order[i][j])
        u->act.order[i][j] = guarded_order(u, i, j);
    return u->act.order[i][j];
}

int uc_cube_max(const uc_cnf *u)
{
    int k = u->k;
    return k * k + 2 * (1 << (k - 1)) + k * k + MAX_AUTOS + k * k;
}

int uc_cube(uc_cnf *u, const gg_shape *sh, int *lits)
{
    const uc_spec *sp = &u->spec;
    int n = 0, k = u->k;
    for (int i = 0; i < k; i++)
        for (int j = 0; j < i; j++)
            lits[n++] = (sh->fanin[i] >> j & 1) ? u->g[i].w[j]
                                                : -u->g[i].w[j];
    for (int g = 0; sp->nd && g + 1 < k; g++) {
        unsigned cone = cone_of(sh, g);
        if (!cone_closed(sh, g, cone))
            continue;
        if (!u->act.cone[cone])
            u->act.cone[cone] = guarded_pairs(u, cone, sp->nd, sp->n_nd);
        lits[n++] = u->act.cone[cone];
    }
    for (unsigned c = 1; sp->nd4 && sp->n_nd4 && c < (1u << (k - 1)); c++) {
        if (!two_exits(sh, c))
            continue;
        if (!u->act.exit2[c])
            u->act.exit2[c] = guarded_pairs(u, c, sp->nd4, sp->n_nd4);
        lits[n++] = u->act.exit2[c];
    }
    for (int i = 0; i + 1 < k; i++) {
        int readers = 0, j = -1;
        for (int r = i + 1; r < k; r++)
            if (sh->fanin[r] >> i & 1)
                readers++, j = r;
        /* j's other gate fanins not all read by i: the rule is void */
        if (readers != 1 || (sh->fanin[j] & ~(1u << i) & ~sh->fanin[i]))
            continue;
        if (!u->act.reapplied[i][j])
            u->act.reapplied[i][j] = guarded_reapplied(u, i, j);
        lits[n++] = u->act.reapplied[i][j];
    }
    bool on[GG_ENC_MAX_GATES][GG_ENC_MAX_GATES] = {{false}};
    for (int i = 0; i < k; i++)
        for (int j = i + 1; j < k; j++)
            if (twins(sh, i, j))
                on[i][j] = true;
    if (sp->automorphisms) {
        static _Thread_local autos a;
        memset(&a, 0, sizeof a);
        a.sh = sh;
        find_autos(&a, 0);
        for (int p = 0; p < a.n; p++)
            on[a.pairs[p][0]][a.pairs[p][1]] = true;
    }
    for (int i = 0; i < k; i++)
        for (int j = i + 1; j < k; j++)
            if (on[i][j])
                lits[n++] = order_lit(u, i, j);
    return n;
}

int uc_group(uc_cnf *u, const gg_shape *v, int n, int *lit,
                   gg_err *err)
{
    int *cube = gg_alloc((size_t)uc_cube_max(u), sizeof *cube, err,
                         "shape cube");
    int *any = gg_alloc((size_t)n + 1, sizeof *any, err, "shape group");
    if (!cube || !any) {
        free(cube);
        free(any);
        return -1;
    }
    int grp = fresh_frozen(u);
    any[0] = -grp;
    for (int s = 0; s < n; s++) {
        int sel = fresh(u), m = uc_cube(u, &v[s], cube);
        for (int l = 0; l < m; l++)
            emit2(u, -sel, cube[l]);
        any[1 + s] = sel;
    }
    emit(u, any, n + 1);
    free(cube);
    free(any);
    *lit = grp;
    return 0;
}

int uc_which(const uc_cnf *u, const gg_shape *v, int n)
{
    for (int s = 0; s < n; s++) {
        bool same = true;
        for (int i = 0; i < u->k && same; i++)
            for (int j = 0; j < i && same; j++)
                same = gg_sat_value(u->sat, u->g[i].w[j]) ==
                       (bool)(v[s].fanin[i] >> j & 1);
        if (same)
            return s;
    }
    return -1;
}

/* ---- decoding ---- */

static uint8_t lop3_code(const uc_cnf *u, const ugate *g)
{
    uint8_t lut = 0;
    for (int k = 0; k < 8; k++) {
        int b = 0;
        for (int s = 0; s < SLOTS; s++)
            b |= ((k >> (2 - s)) & 1) << s;
        if (b && gg_sat_value(u->sat, g->fn[b]))
            lut |= (uint8_t)(1u << k);
    }
    return lut;
}

int uc_decode(const uc_cnf *u, gg_net *net, gg_err *err)
{
    memset(net, 0, sizeof *net);
    net->n_inputs = u->n;
    for (int i = 0; i < u->k; i++) {
        const ugate *g = &u->g[i];
        int src[SLOTS], p = SLOTS, ns = 0;
        for (int j = 0; j < i; j++)
            if (gg_sat_value(u->sat, g->w[j]))
                p--;
        if (p < 0)
            return gg_fail(err, "shape-union model: gate %d reads more than "
                           "3 gates", i);
        int o = 0;
        while (o < g->t[p].n && !gg_sat_value(u->sat, g->t[p].sel[o]))
            o++;
        if (o == g->t[p].n)
            return gg_fail(err, "shape-union model: gate %d has no inputs", i);
        for (int s = 0; s < p; s++)
            src[ns++] = g->t[p].src[o][s];
        for (int j = 0; j < i; j++)
            if (gg_sat_value(u->sat, g->w[j]))
                src[ns++] = u->n + j;
        if (gg_net_add(net, GG_OP_LUT3, lop3_code(u, g), src[0], src[1],
                       src[2], err) < 0)
            return -1;
    }
    net->n_outputs = 1;
    net->out[0] = (uint16_t)(u->n + u->k - 1);
    net->out_neg[0] = gg_sat_value(u->sat, u->pol);
    return 0;
}

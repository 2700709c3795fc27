#include "resynth.h"

#include <stdlib.h>
#include <string.h>

#include "cegar.h"
#include "kjob.h"
#include "synth.h"

#define MAX_SIG (GG_NET_MAX_GATES + GG_TT_MAX_INPUTS)

typedef struct window {
    bool in[GG_NET_MAX_GATES]; /* gates that go with the root */
    int n_gates;
    int leaf[GG_TT_MAX_INPUTS]; /* signals it reads from outside */
    int n_leaves;
} window;

/* gg_resynth's large working state (a synthesis result, every signal's
 * table, nets): one heap block per gg_resynth call rather than statics,
 * which made concurrent calls (threads, a library user) collide. The try_
 * functions take turns with it: none calls another or gg_resynth. */
typedef struct scratch {
    gg_synth_result res;                /* a window's synthesis */
    uint64_t sig[MAX_SIG][GG_TT_WORDS]; /* try_resub: every signal's table */
    gg_net sub;                         /* try_pair's two-output network */
    gg_net better;                      /* the smaller network found */
} scratch;

/* Readers of each signal (gate reads, plus one for being an output). */
static void count_readers(const gg_net *n, int *readers)
{
    memset(readers, 0, MAX_SIG * sizeof *readers);
    for (int i = 0; i < n->n_gates; i++)
        for (int j = 0; j < gg_op_arity((gg_op)n->gate[i].op); j++)
            readers[n->gate[i].in[j]]++;
    for (int o = 0; o < n->n_outputs; o++)
        if (n->out[o] != GG_SIG_CONST0)
            readers[n->out[o]]++;
}

/* The window's leaves (signals read by its gates, not in it). */
static void find_leaves(const gg_net *n, window *w)
{
    bool seen[MAX_SIG] = {false};
    w->n_leaves = 0;
    for (int i = 0; i < n->n_gates; i++) {
        if (!w->in[i])
            continue;
        for (int j = 0; j < gg_op_arity((gg_op)n->gate[i].op); j++) {
            int s = n->gate[i].in[j];
            bool inside = s >= n->n_inputs && w->in[s - n->n_inputs];
            if (inside || seen[s])
                continue;
            seen[s] = true;
            if (w->n_leaves == GG_TT_MAX_INPUTS) {
                w->n_leaves++; /* too many: the caller refuses it */
                return;
            }
            w->leaf[w->n_leaves++] = s;
        }
    }
}

/* Gates read only by the window, added greedily (latest first) while the
 * leaves stay within max_leaves. */
static void grow(const gg_net *n, const int *readers, int root, int max_leaves,
                 window *w)
{
    int inside_reads[MAX_SIG] = {0};
    memset(w, 0, sizeof *w);
    w->in[root] = true;
    w->n_gates = 1;
    for (bool added = true; added;) {
        added = false;
        memset(inside_reads, 0, sizeof inside_reads);
        for (int i = 0; i < n->n_gates; i++)
            if (w->in[i])
                for (int j = 0; j < gg_op_arity((gg_op)n->gate[i].op); j++)
                    inside_reads[n->gate[i].in[j]]++;
        for (int i = root - 1; i >= 0 && !added; i--) {
            int s = n->n_inputs + i;
            if (w->in[i] || !inside_reads[s] || inside_reads[s] != readers[s])
                continue;
            w->in[i] = true;
            find_leaves(n, w);
            if (w->n_leaves > max_leaves) {
                w->in[i] = false;
                continue;
            }
            w->n_gates++;
            added = true;
        }
    }
    find_leaves(n, w);
}

/* n with the window's gates replaced by sub (inputs: the leaves), placed
 * where the root was. */
static int splice(const gg_net *n, int root, const window *w,
                  const gg_net *sub, gg_net *out, gg_err *err)
{
    int to[MAX_SIG];
    memset(out, 0, sizeof *out);
    out->n_inputs = n->n_inputs;
    out->n_outputs = n->n_outputs;
    for (int s = 0; s < n->n_inputs; s++)
        to[s] = s;
    for (int i = 0; i < n->n_gates; i++) {
        int s;
        if (i == root) {
            int map[GG_TT_MAX_INPUTS];
            for (int l = 0; l < w->n_leaves; l++)
                map[l] = to[w->leaf[l]];
            if (gg_net_append(out, sub, map, &s, err))
                return -1;
        } else if (w->in[i]) {
            continue;
        } else if ((s = gg_net_add_copy(out, &n->gate[i], to, err)) < 0) {
            return -1;
        }
        to[n->n_inputs + i] = s;
    }
    for (int o = 0; o < n->n_outputs; o++) {
        out->out[o] = n->out[o] == GG_SIG_CONST0 ? GG_SIG_CONST0
                                                 : (uint16_t)to[n->out[o]];
        out->out_neg[o] = n->out_neg[o];
    }
    return 0;
}

/* Out of time, or Ctrl-C. */
static bool stopped(const gg_resynth_opts *o, double deadline)
{
    return (deadline > 0 && gg_kjob_now() > deadline) ||
           (o->cancel && *o->cancel);
}

/* The most leaves a window may read (default 6). */
static int max_leaves(const gg_resynth_opts *o)
{
    return o->leaves > 0 ? o->leaves : 6;
}

/* The per-window search time the options ask for (default 2 s). */
static double window_seconds(const gg_resynth_opts *o)
{
    return o->window_seconds > 0 ? o->window_seconds : 2;
}

/* Seconds for one exact synthesis: per, or what is left before the
 * deadline (<= 0: none left). */
static double solve_seconds(double per, double deadline)
{
    double left = deadline > 0 ? deadline - gg_kjob_now() : per;
    return left < per ? left : per;
}

/* A synthesized replacement is taken when it has fewer gates than the
 * ones it replaces, is not constant and needs no inverted output (that
 * would need a NOT inside the network). */
static bool usable(const gg_synth_result *res, int fewer_than)
{
    return res->exact && !res->net.out_neg[0] &&
           res->net.n_gates < fewer_than && res->net.out[0] != GG_SIG_CONST0;
}

/* A smaller network for the window at root, into sc->better; 1 if
 * found. */
static int try_root(const gg_net *n, const int *readers, int root,
                    const gg_tt *f, const gg_resynth_opts *o, double deadline,
                    scratch *sc, gg_err *err)
{
    window w;
    gg_tt h;
    grow(n, readers, root, max_leaves(o), &w);
    if (w.n_gates < 2 || w.n_leaves > GG_TT_MAX_INPUTS)
        return 0;
    gg_net_window_tt(n, root, w.leaf, NULL, w.n_leaves, f, &h);
    gg_synth_opts so = {.lib = o->lib, .k_max = w.n_gates - 1, .threads = 1,
                        .cancel = o->cancel,
                        .time_limit = solve_seconds(window_seconds(o),
                                                    deadline)};
    if (so.time_limit <= 0)
        return 0;
    if (gg_synth_run(&h, &so, &sc->res, err))
        return -1;
    if (!usable(&sc->res, w.n_gates))
        return 0;
    if (splice(n, root, &w, &sc->res.net, &sc->better, err))
        return -1;
    return gg_net_check(&sc->better, 0, f, NULL) == 0;
}

/* Resubstitution: the root rebuilt over signals the network keeps anyway
 * (divisors: inputs and earlier gates outside the root's fanout-free
 * cone), so that the whole cone goes. A cone that is minimal over its own
 * leaves can still shrink when an existing signal does part of its work
 * (majority in 4 gates over a b c is 2 over c, a^b and a&b). */
#define RESUB_MAX 4     /* most divisors a replacement reads */
#define RESUB_POOL 30   /* divisors considered per root, latest first */
#define RESUB_SOLVES 48 /* exact syntheses per root */

typedef struct resub {
    const gg_net *n;
    int words;
    uint64_t rows[GG_TT_WORDS]; /* care rows where the root is observed */
    uint64_t (*sig)[GG_TT_WORDS]; /* every signal's value on every row */
    int pool[RESUB_POOL], n_pool;
    unsigned found[RESUB_SOLVES]; /* pool subsets (bit masks) that
                                     determine the root */
    int n_found;
} resub;

/* Every gate that goes when the roots r2 and r1 (< r2; -1: none) do:
 * read only from inside. */
static int cone_of(const gg_net *n, const int *readers, int r1, int r2,
                   bool *in)
{
    int inside[MAX_SIG] = {0}, count = 0;
    memset(in, 0, GG_NET_MAX_GATES * sizeof *in);
    for (int i = r2; i >= 0; i--) {
        int s = n->n_inputs + i;
        in[i] = i == r1 || i == r2 ||
                (readers[s] > 0 && inside[s] == readers[s]);
        if (!in[i])
            continue;
        count++;
        for (int j = 0; j < gg_op_arity((gg_op)n->gate[i].op); j++)
            inside[n->gate[i].in[j]]++;
    }
    return count;
}

/* Do the pool signals in mask fix the root's value on the observed rows? */
static bool determines(const resub *r, unsigned mask, const uint64_t *val)
{
    int sub[RESUB_MAX], s = 0;
    for (int p = 0; p < r->n_pool; p++)
        if (mask >> p & 1)
            sub[s++] = r->pool[p];
    for (int x = 0; x < 1 << s; x++) {
        uint64_t on = 0, off = 0;
        for (int w = 0; w < r->words; w++) {
            uint64_t m = r->rows[w];
            for (int l = 0; l < s; l++)
                m &= x >> l & 1 ? r->sig[sub[l]][w] : ~r->sig[sub[l]][w];
            on |= m & val[w];
            off |= m & ~val[w];
        }
        if (on && off)
            return false;
    }
    return true;
}

/* The next subset of the pool with the same number of members (Gosper's
 * hack), or 0 past the last. */
static unsigned next_subset(unsigned m, int n_pool)
{
    unsigned c = m & -m, r = m + c;
    m = (((r ^ m) >> 2) / c) | r;
    return m >> n_pool ? 0 : m;
}

/* A smaller network for the root's cone over divisors, into
 * sc->better. */
static int try_resub(const gg_net *n, const int *readers, int root,
                     const gg_tt *f, const gg_resynth_opts *o,
                     double deadline, scratch *sc, gg_err *err)
{
    window w = {.n_gates = 0};
    gg_tt t, h;
    int cone = cone_of(n, readers, -1, root, w.in);
    if (cone < 2)
        return 0;
    resub r = {.n = n, .sig = sc->sig, .words = gg_tt_words(f)};
    for (int s = 0; s < n->n_inputs + root; s++) {
        gg_net_signal_tt(n, s, &t);
        memcpy(sc->sig[s], t.on, sizeof sc->sig[s]);
    }
    gg_net_observable_tt(n, root, &t);
    for (int wd = 0; wd < r.words; wd++)
        r.rows[wd] = t.on[wd] & f->care[wd] & gg_tt_word_mask(f, wd);
    for (int s = n->n_inputs + root - 1; s >= 0 && r.n_pool < RESUB_POOL; s--)
        if (s < n->n_inputs || !w.in[s - n->n_inputs])
            r.pool[r.n_pool++] = s;
    gg_net_signal_tt(n, n->n_inputs + root, &t);
    int solves = 0;
    for (int size = 1; size <= RESUB_MAX && size <= r.n_pool; size++) {
        /* a replacement over size signals needs size-1 gate2 gates */
        if (o->lib == GG_LIB_GATE2 && size - 1 >= cone)
            break;
        for (unsigned m = (1u << size) - 1; m; m = next_subset(m, r.n_pool)) {
            bool known = false;
            for (int i = 0; i < r.n_found && !known; i++)
                known = (r.found[i] & m) == r.found[i];
            if (known || !determines(&r, m, t.on))
                continue;
            if (solves == RESUB_SOLVES || stopped(o, deadline))
                return 0;
            r.found[r.n_found++] = m;
            solves++;
            w.n_leaves = 0;
            for (int p = 0; p < r.n_pool; p++)
                if (m >> p & 1)
                    w.leaf[w.n_leaves++] = r.pool[p];
            gg_net_window_tt(n, root, w.leaf, NULL, w.n_leaves, f, &h);
            /* 1 s each: a few inputs, usually solved in milliseconds */
            gg_synth_opts so = {.lib = o->lib, .k_max = cone - 1,
                                .cancel = o->cancel, .threads = 1,
                                .time_limit = solve_seconds(1, deadline)};
            if (so.time_limit <= 0)
                return 0;
            if (gg_synth_run(&h, &so, &sc->res, err))
                return -1;
            if (!usable(&sc->res, cone))
                continue;
            if (splice(n, root, &w, &sc->res.net, &sc->better, err))
                return -1;
            if (gg_net_check(&sc->better, 0, f, NULL) == 0)
                return 1;
        }
    }
    return 0;
}

/* Is r1 read outside the window (the output counts)? Else it is part of
 * r2's own window. */
static bool read_outside(const gg_net *n, const bool *in, int r1)
{
    int s1 = n->n_inputs + r1;
    if (n->out[0] == s1)
        return true;
    for (int i = 0; i < n->n_gates; i++)
        for (int j = 0; j < gg_op_arity((gg_op)n->gate[i].op); j++)
            if (n->gate[i].in[j] == s1 && !in[i])
                return true;
    return false;
}

/* Does a leaf depend on r1 (one of r1's other readers feeding r2's
 * side)? The new network computes r1 from the leaves: that would be a
 * cycle. */
static bool leaf_reads_root(const gg_net *n, const window *w, int r1)
{
    bool hit[MAX_SIG] = {false};
    hit[n->n_inputs + r1] = true;
    for (int i = r1 + 1; i < n->n_gates; i++)
        for (int j = 0; j < gg_op_arity((gg_op)n->gate[i].op); j++)
            if (hit[n->gate[i].in[j]])
                hit[n->n_inputs + i] = true;
    for (int l = 0; l < w->n_leaves; l++)
        if (hit[w->leaf[l]])
            return true;
    return false;
}

/* k gates with main output f1 (the last gate) and f2 at gate out2, neither
 * inverted (a gate2 network has no NOT to spare): 1 into *sub. */
static int solve_pair(const gg_tt *f1, const gg_tt *f2, int k, int out2,
                      gg_lib lib, double deadline, gg_net *sub)
{
    gg_err ignore;
    gg_enc_spec spec = {.f = f1, .lib = lib, .k = k,
                        .lim = {.f2 = f2, .out2 = out2}};
    gg_sat *s = gg_sat_new();
    gg_enc *e = s ? gg_enc_new(&spec, s, &ignore) : NULL;
    gg_synth_status st = e ? gg_cegar_solve(e, s, f1, gg_tt_rows(f1),
                                            deadline, sub)
                           : GG_SYNTH_UNKNOWN;
    gg_enc_free(e);
    gg_sat_free(s);
    if (st != GG_SYNTH_SAT || sub->out_neg[0])
        return 0;
    gg_tt got;
    gg_net_signal_tt(sub, sub->n_inputs + out2, &got);
    for (int w = 0; w < gg_tt_words(f2); w++)
        if ((got.on[w] ^ f2->on[w]) & f2->care[w] & gg_tt_word_mask(f2, w))
            return 0;
    return 1;
}

/* A two-root splice can put a gate before a signal it reads (r1's other
 * readers may come before r2), so the result is laid out afresh: nodes
 * are n's kept gates and sub's gates, emitted in depth-first order from
 * the output. */
typedef struct relink {
    const gg_net *n, *sub;
    const window *w;
    int root[2], sig[2]; /* root[j] is read as sub's signal sig[j] */
    int done[MAX_SIG + GG_NET_MAX_GATES]; /* node -> new signal + 1;
                                             -1 while being emitted */
    gg_net *out;
} relink;

static int node_of_n(const relink *k, int s);

static int emit_node(relink *k, int node, gg_err *err)
{
    const gg_net *n = k->n;
    if (node < n->n_inputs)
        return node;
    if (k->done[node] < 0)
        return gg_fail(err, "two-root splice made a cycle; a bug in "
                       "sat/choose/resynth.c");
    if (k->done[node])
        return k->done[node] - 1;
    k->done[node] = -1; /* in progress */
    bool from_sub = node >= n->n_inputs + n->n_gates;
    const gg_gate *g = from_sub
        ? &k->sub->gate[node - n->n_inputs - n->n_gates]
        : &n->gate[node - n->n_inputs];
    int to[MAX_SIG];
    for (int j = 0; j < gg_op_arity((gg_op)g->op); j++) {
        int s = g->in[j], in;
        if (!from_sub)
            in = node_of_n(k, s);
        else if (s < k->sub->n_inputs)
            in = node_of_n(k, k->w->leaf[s]);
        else
            in = n->n_inputs + n->n_gates + s - k->sub->n_inputs;
        int v = emit_node(k, in, err);
        if (v < 0)
            return -1;
        to[s] = v;
    }
    int v = gg_net_add_copy(k->out, g, to, err);
    if (v < 0)
        return -1;
    k->done[node] = v + 1;
    return v;
}

/* The node that signal s of n stands for after the splice. */
static int node_of_n(const relink *k, int s)
{
    for (int r = 0; r < 2; r++)
        if (s == k->n->n_inputs + k->root[r])
            return k->sig[r] < k->sub->n_inputs
                       ? node_of_n(k, k->w->leaf[k->sig[r]])
                       : k->n->n_inputs + k->n->n_gates + k->sig[r] -
                             k->sub->n_inputs;
    return s;
}

static int splice_pair(const gg_net *n, const window *w, const int *root,
                       const int *sig, const gg_net *sub, gg_net *out,
                       gg_err *err)
{
    /* 4 KB, per call: emit_node's recursion stays within this splice */
    relink k = {.n = n, .sub = sub, .w = w, .out = out,
                .root = {root[0], root[1]}, .sig = {sig[0], sig[1]}};
    memset(out, 0, sizeof *out);
    out->n_inputs = n->n_inputs;
    out->n_outputs = 1;
    out->out_neg[0] = n->out_neg[0];
    if (n->out[0] == GG_SIG_CONST0) {
        out->out[0] = GG_SIG_CONST0;
        return 0;
    }
    int v = emit_node(&k, node_of_n(&k, n->out[0]), err);
    if (v < 0)
        return -1;
    out->out[0] = (uint16_t)v;
    return 0;
}

/* Two roots at once: r2 and an earlier r1 that is also read outside the
 * window, with every gate that goes when both do, re-solved as one
 * two-output network (sat/exact/encode.h's second output). Shared logic that
 * neither root's window can shed alone goes this way (HighLife's gate2
 * network had three such pairs). Both roots keep their exact values on
 * every leaf combination a care row produces: what one root may do on a
 * row where it is not observed depends on the other. */
static int try_pair(const gg_net *n, const int *readers, int r1, int r2,
                    const gg_tt *f, const gg_resynth_opts *o, double deadline,
                    scratch *sc, gg_err *err)
{
    window w = {.n_gates = 0};
    gg_net *sub = &sc->sub;
    gg_tt h1, h2;
    int cone = cone_of(n, readers, r1, r2, w.in);
    if (cone < 3 || !read_outside(n, w.in, r1))
        return 0;
    find_leaves(n, &w);
    if (w.n_leaves > max_leaves(o) ||
        leaf_reads_root(n, &w, r1))
        return 0;
    gg_net_signal_over(n, n->n_inputs + r1, w.leaf, NULL, w.n_leaves, f,
                       NULL, &h1);
    gg_net_signal_over(n, n->n_inputs + r2, w.leaf, NULL, w.n_leaves, f,
                       NULL, &h2);
    int k = cone - 1;
    for (int swap = 0; swap < 2; swap++)
        for (int out2 = 0; out2 + 1 < k; out2++) {
            if (stopped(o, deadline))
                return 0;
            double end = gg_kjob_now() +
                         solve_seconds(window_seconds(o), deadline);
            if (!solve_pair(swap ? &h1 : &h2, swap ? &h2 : &h1, k, out2,
                            o->lib, end, sub))
                continue;
            /* swap 0: the main output is r2's, gate out2 is r1's */
            int root[2] = {r1, r2}, sig[2];
            sig[!swap] = sub->out[0];
            sig[swap] = sub->n_inputs + out2;
            if (splice_pair(n, &w, root, sig, sub, &sc->better, err))
                return -1;
            if (gg_net_check(&sc->better, 0, f, NULL) == 0)
                return 1;
        }
    return 0;
}

/* Every pair of roots, latest first; 1 when one shrank into
 * sc->better. */
static int try_pairs(const gg_net *n, const int *readers, const gg_tt *f,
                     const gg_resynth_opts *o, double deadline,
                     scratch *sc, gg_err *err)
{
    for (int r2 = n->n_gates - 1; r2 > 0; r2--)
        for (int r1 = r2 - 1; r1 >= 0; r1--) {
            if (stopped(o, deadline))
                return 0;
            int rc = try_pair(n, readers, r1, r2, f, o, deadline, sc, err);
            if (rc)
                return rc;
        }
    return 0;
}

/* gg_resynth once net is checked, with its scratch in sc. */
static int resynth_loop(gg_net *net, const gg_tt *f, const gg_resynth_opts *o,
                        scratch *sc, gg_err *err)
{
    int readers[MAX_SIG], before = net->n_gates;
    double deadline = o->time_limit > 0 ? gg_kjob_now() + o->time_limit : 0;
    for (bool again = true; again;) {
        again = false;
        count_readers(net, readers);
        for (int root = net->n_gates - 1; root >= 0; root--) {
            if (stopped(o, deadline))
                return before - net->n_gates;
            int rc = try_root(net, readers, root, f, o, deadline, sc, err);
            if (rc == 0 && !o->no_divisors)
                rc = try_resub(net, readers, root, f, o, deadline, sc, err);
            if (rc < 0)
                return -1;
            if (rc == 1) {
                *net = sc->better;
                gg_net_tidy(net);
                again = true;
                break;
            }
        }
        /* pairs are slower: only once no single root shrinks */
        int rc = again || o->no_pairs ? 0
                 : try_pairs(net, readers, f, o, deadline, sc, err);
        if (rc < 0)
            return -1;
        if (rc == 1) {
            *net = sc->better;
            gg_net_tidy(net);
            again = true;
        }
    }
    return before - net->n_gates;
}

int gg_resynth(gg_net *net, const gg_tt *f, const gg_resynth_opts *o,
               gg_err *err)
{
    if (net->n_outputs != 1 || net->n_inputs != f->n_inputs ||
        !gg_net_in_lib(net, o->lib) || gg_net_check(net, 0, f, NULL))
        return gg_fail(err, "resynthesis needs a one-output network of the "
                       "library over the table's %d inputs that computes it",
                       f->n_inputs);
    scratch *sc = gg_alloc(1, sizeof *sc, err, "resynthesis");
    if (!sc)
        return -1;
    int rc = resynth_loop(net, f, o, sc, err);
    free(sc);
    return rc;
}

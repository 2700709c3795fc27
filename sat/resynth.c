#include "resynth.h"

#include <string.h>

#include "kjob.h"
#include "synth.h"

#define MAX_SIG (GG_NET_MAX_GATES + GG_TT_MAX_INPUTS)

typedef struct window {
    bool in[GG_NET_MAX_GATES]; /* gates that go with the root */
    int n_gates;
    int leaf[GG_TT_MAX_INPUTS]; /* signals it reads from outside */
    int n_leaves;
} window;

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

/* A smaller network for the window at root, into *better; 1 if found. */
static int try_root(const gg_net *n, const int *readers, int root,
                    const gg_tt *f, const gg_resynth_opts *o, double deadline,
                    gg_net *better, gg_err *err)
{
    static window w;
    static gg_synth_result res;
    gg_tt h;
    grow(n, readers, root, o->leaves > 0 ? o->leaves : 6, &w);
    if (w.n_gates < 2 || w.n_leaves > GG_TT_MAX_INPUTS)
        return 0;
    gg_net_window_tt(n, root, w.leaf, NULL, w.n_leaves, f, &h);
    double per = o->window_seconds > 0 ? o->window_seconds : 2;
    double left = deadline > 0 ? deadline - gg_kjob_now() : per;
    gg_synth_opts so = {.lib = o->lib, .k_max = w.n_gates - 1, .threads = 1,
                        .time_limit = left < per ? left : per};
    if (so.time_limit <= 0)
        return 0;
    if (gg_synth_run(&h, &so, &res, err))
        return -1;
    /* an inverted result would need a NOT inside the network */
    if (!res.exact || res.net.out_neg[0] || res.net.n_gates >= w.n_gates ||
        res.net.out[0] == GG_SIG_CONST0)
        return 0;
    if (splice(n, root, &w, &res.net, better, err))
        return -1;
    return gg_net_check(better, 0, f, NULL) == 0;
}

int gg_resynth(gg_net *net, const gg_tt *f, const gg_resynth_opts *o,
               gg_err *err)
{
    static gg_net better;
    int readers[MAX_SIG], before = net->n_gates;
    if (net->n_outputs != 1 || net->n_inputs != f->n_inputs ||
        !gg_net_in_lib(net, o->lib) || gg_net_check(net, 0, f, NULL))
        return gg_fail(err, "resynthesis needs a one-output network of the "
                       "library over the table's %d inputs that computes it",
                       f->n_inputs);
    double deadline = o->time_limit > 0 ? gg_kjob_now() + o->time_limit : 0;
    for (bool again = true; again;) {
        again = false;
        count_readers(net, readers);
        for (int root = net->n_gates - 1; root >= 0; root--) {
            if (deadline > 0 && gg_kjob_now() > deadline)
                return before - net->n_gates;
            int rc = try_root(net, readers, root, f, o, deadline, &better, err);
            if (rc < 0)
                return -1;
            if (rc == 1) {
                *net = better;
                gg_net_tidy(net);
                again = true;
                break;
            }
        }
    }
    return before - net->n_gates;
}

#include "net_rewrite.h"

#include <stdlib.h>
#include <string.h>

#include "net_enum.h"
#include "net_resub.h"

enum { MAX_WINDOW = 4, MAX_LEAVES = GG_ENUM_MAX_INPUTS };

typedef struct window {
    int gate[MAX_WINDOW]; /* gate[0]: the root */
    int n;
    int leaf[MAX_LEAVES]; /* signals */
    int n_leaves;
} window;

/* How many gates and outputs read each signal. */
static void count_readers(const gg_net *net, int *readers)
{
    memset(readers, 0, sizeof(int) * (size_t)(net->n_inputs + net->n_gates));
    for (int g = 0; g < net->n_gates; g++)
        for (int k = 0; k < 3; k++)
            readers[net->gate[g].in[k]]++;
    for (int o = 0; o < net->n_outputs; o++)
        if (net->out[o] != GG_SIG_CONST0)
            readers[net->out[o]]++;
}

static bool in_window(const window *w, int gate)
{
    for (int i = 0; i < w->n; i++)
        if (w->gate[i] == gate)
            return true;
    return false;
}

/* w's leaves: what its gates read from outside it (distinct signals);
 * false when more than MAX_LEAVES. */
static bool find_leaves(const gg_net *net, window *w)
{
    w->n_leaves = 0;
    for (int i = 0; i < w->n; i++)
        for (int k = 0; k < 3; k++) {
            int s = net->gate[w->gate[i]].in[k];
            bool seen = s >= net->n_inputs && in_window(w, s - net->n_inputs);
            for (int l = 0; l < w->n_leaves && !seen; l++)
                seen = w->leaf[l] == s;
            if (seen)
                continue;
            if (w->n_leaves == MAX_LEAVES)
                return false;
            w->leaf[w->n_leaves++] = s;
        }
    return true;
}

/* The gate's LUT with input k complemented. */
static uint8_t flip_input(uint8_t lut, int k)
{
    uint8_t r = 0;
    for (int x = 0; x < 8; x++)
        r |= (uint8_t)((lut >> (x ^ (4 >> k)) & 1) << x);
    return r;
}

/* net with w's gates replaced by sub (over w's leaves) into out; false
 * when it does not fit. */
static bool splice(const gg_net *net, const window *w, const gg_net *sub,
                   gg_net *out)
{
    int map[GG_NET_MAX_GATES + GG_TT_MAX_INPUTS];
    uint8_t neg[GG_NET_MAX_GATES + GG_TT_MAX_INPUTS] = {0};
    gg_err ignore;
    memset(out, 0, sizeof *out);
    out->n_inputs = net->n_inputs;
    for (int i = 0; i < net->n_inputs; i++)
        map[i] = i;
    for (int g = 0; g < net->n_gates; g++) {
        int s = net->n_inputs + g;
        if (g == w->gate[0]) {
            int sub_map[MAX_LEAVES], so;
            for (int l = 0; l < w->n_leaves; l++)
                sub_map[l] = map[w->leaf[l]];
            /* a leaf read complemented: sub reads its new signal */
            for (int l = 0; l < w->n_leaves; l++)
                if (neg[w->leaf[l]])
                    return false;
            if (gg_net_append(out, sub, sub_map, &so, &ignore) ||
                so == GG_SIG_CONST0)
                return false;
            map[s] = so;
            neg[s] = sub->out_neg[0];
            continue;
        }
        if (in_window(w, g))
            continue;
        gg_gate c = net->gate[g];
        for (int k = 0; k < 3; k++) {
            if (neg[c.in[k]])
                c.lut = flip_input(c.lut, k);
            c.in[k] = (uint16_t)map[c.in[k]];
        }
        map[s] = gg_net_add(out, (gg_op)c.op, c.lut, c.in[0], c.in[1],
                            c.in[2], &ignore);
        if (map[s] < 0)
            return false;
    }
    out->n_outputs = net->n_outputs;
    for (int o = 0; o < net->n_outputs; o++) {
        int s = net->out[o];
        out->out[o] = s == GG_SIG_CONST0 ? GG_SIG_CONST0 : (uint16_t)map[s];
        out->out_neg[o] = net->out_neg[o] ^ (s == GG_SIG_CONST0 ? 0 : neg[s]);
    }
    gg_net_tidy(out);
    return true;
}

/* w (its leaves found) replaced by fewer gates when enumeration finds
 * them on the rows where its root matters: true with *net changed. */
static bool rewrite_window(gg_net *net, const window *w, const gg_tt *t,
                           gg_tt *h, gg_net *sub, gg_net *next)
{
    gg_err ignore;
    int max = w->n - 1 < 2 ? w->n - 1 : 2;
    if (gg_net_window_tt(net, w->gate[0], w->leaf, NULL, w->n_leaves, t,
                         h) ||
        gg_net_enum(h, max, sub, &ignore) != 0 || sub->n_gates >= w->n ||
        !splice(net, w, sub, next) || next->n_gates >= net->n_gates ||
        gg_net_check(next, 0, t, NULL))
        return false;
    *net = *next;
    return true;
}

/* The gates that only gate g reads, into kids (at most 3). */
static int only_readers_of(const gg_net *net, int g, const int *readers,
                           int *kids)
{
    int n = 0;
    for (int k = 0; k < 3; k++) {
        int s = net->gate[g].in[k], c = s - net->n_inputs;
        bool dup = false;
        for (int j = 0; j < n; j++)
            dup |= kids[j] == c;
        if (c >= 0 && !dup && readers[s] == 1)
            kids[n++] = c;
    }
    return n;
}

enum { MAX_CONE = 12 };

/* The gates below r that only r's cone reads, breadth first, each with
 * its parent's index in the list (-1: r); at most MAX_CONE. */
static int cone_of(const gg_net *net, int r, const int *readers, int *cone,
                   int *parent)
{
    int n = 0, kids[3];
    for (int i = -1; i < n; i++) {
        int k = only_readers_of(net, i < 0 ? r : cone[i], readers, kids);
        for (int j = 0; j < k && n < MAX_CONE; j++) {
            cone[n] = kids[j];
            parent[n++] = i;
        }
    }
    return n;
}

/* The windows of three or four gates rooted at gate r: r with gates of
 * its cone whose parents are in the window, in a fixed order; true when
 * one was rewritten. */
static bool rewrite_at(gg_net *net, int r, const int *readers,
                       const gg_tt *t, gg_tt *h, gg_net *sub, gg_net *next)
{
    int cone[MAX_CONE], parent[MAX_CONE];
    int n = cone_of(net, r, readers, cone, parent);
    window w = {.gate = {r}};
    for (int a = 0; a < n; a++)
        for (int b = a + 1; b < n; b++)
            for (int c = b; c <= n; c++) {
                int pick[3] = {a, b, c}, m = c < n ? 3 : 2;
                bool closed = true;
                for (int i = 0; i < m; i++) {
                    int p = parent[pick[i]];
                    closed &= p < 0 || p == pick[0] || p == pick[1] ||
                              (m == 3 && p == pick[2]);
                }
                if (c == b || !closed)
                    continue;
                w.n = 1 + m;
                for (int i = 0; i < m; i++)
                    w.gate[1 + i] = cone[pick[i]];
                if (find_leaves(net, &w) &&
                    rewrite_window(net, &w, t, h, sub, next))
                    return true;
            }
    return false;
}

int gg_net_rewrite(gg_net *net, const gg_tt *t, gg_err *err)
{
    if (!gg_net_in_lib(net, GG_LIB_LUT3) || net->n_outputs != 1 ||
        net->n_inputs != t->n_inputs || gg_net_check(net, 0, t, NULL))
        return gg_fail(err, "rewriting takes a one-output LUT3 network "
                       "right on its table");
    gg_tt *h = gg_alloc(1, sizeof *h, err, "table");
    gg_net *sub = gg_alloc(2, sizeof *sub, err, "networks");
    int *readers = gg_alloc(GG_NET_MAX_GATES + GG_TT_MAX_INPUTS,
                            sizeof *readers, err, "counts");
    int start = net->n_gates;
    bool changed = h && sub && readers;
    while (changed) {
        gg_err ignore;
        changed = gg_net_resub(net, t, 0, &ignore) > 0;
        count_readers(net, readers);
        for (int r = net->n_gates - 1; r >= 0; r--)
            if (rewrite_at(net, r, readers, t, h, &sub[0], &sub[1])) {
                changed = true;
                break;
            }
    }
    free(h);
    free(sub);
    free(readers);
    return h && sub && readers ? start - net->n_gates : -1;
}

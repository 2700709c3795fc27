#include "adder.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "cms.h"
#include "net_build.h"
#include "net_enum.h"
#include "net_resub.h"

#define MAX_BITS 16
#define REST_BITS 4 /* count bits handed to exact synthesis */
#define MAX_PASS 2  /* uncounted inputs handed to it beside the centre */
#define WIDE_SECONDS 60 /* most a timed wide rest may take */

/* lop3 codes with a = 0xF0, b = 0xCC, c = 0xAA. */
enum { XOR3 = 0x96, MAJ3 = 0xE8, XOR2 = 0x3C, AND2 = 0xC0 };

typedef struct bit {
    int signal;
    int weight;
} bit;

typedef struct tree {
    gg_net *net;
    gg_lib lib;
    bit b[MAX_BITS];
    int n;
    int pass[MAX_PASS]; /* inputs handed to the rest as they are */
    int n_pass;
    gg_err *err;
} tree;

static int take(tree *t, int i)
{
    int s = t->b[i].signal;
    t->b[i] = t->b[--t->n];
    return s;
}

static int add_sum(tree *t, int w, int s, int c)
{
    if (s < 0 || c < 0)
        return -1;
    t->b[t->n++] = (bit){s, w};
    t->b[t->n++] = (bit){c, 2 * w};
    return 0;
}

static int full_adder(tree *t, int w, int x, int y, int z)
{
    gg_net *n = t->net;
    if (t->lib == GG_LIB_LUT3)
        return add_sum(t, w, gg_net_add(n, GG_OP_LUT3, XOR3, x, y, z, t->err),
                       gg_net_add(n, GG_OP_LUT3, MAJ3, x, y, z, t->err));
    int p = gg_net_add(n, GG_OP_XOR, 0, x, y, 0, t->err);
    int g = gg_net_add(n, GG_OP_AND, 0, x, y, 0, t->err);
    int s = gg_net_add(n, GG_OP_XOR, 0, p, z, 0, t->err);
    int q = gg_net_add(n, GG_OP_AND, 0, p, z, 0, t->err);
    return add_sum(t, w, s, gg_net_add(n, GG_OP_OR, 0, g, q, 0, t->err));
}

static int half_adder(tree *t, int w, int x, int y)
{
    gg_net *n = t->net;
    if (t->lib == GG_LIB_LUT3)
        return add_sum(t, w, gg_net_add(n, GG_OP_LUT3, XOR2, x, y, y, t->err),
                       gg_net_add(n, GG_OP_LUT3, AND2, x, y, y, t->err));
    return add_sum(t, w, gg_net_add(n, GG_OP_XOR, 0, x, y, 0, t->err),
                   gg_net_add(n, GG_OP_AND, 0, x, y, 0, t->err));
}

/* Indices of the bits of weight w (up to 3). */
static int column(const tree *t, int w, int *idx)
{
    int c = 0;
    for (int i = 0; i < t->n && c < 3; i++)
        if (t->b[i].weight == w)
            idx[c++] = i;
    return c;
}

/* One adder on the lightest column with three bits, else with two. */
static int reduce_once(tree *t)
{
    for (int want = 3; want >= 2; want--)
        for (int w = 1; w < 256; w *= 2) {
            int idx[3];
            if (column(t, w, idx) < want)
                continue;
            /* take the highest index first so the others stay valid */
            int z = want == 3 ? take(t, idx[2]) : -1;
            int y = take(t, idx[1]), x = take(t, idx[0]);
            return want == 3 ? full_adder(t, w, x, y, z)
                             : half_adder(t, w, x, y);
        }
    return 1; /* nothing left to add */
}

/* The rest as a table over (count bits, centre); fails if two rows of f
 * with the same count and centre disagree. */
static int rest_table(const tree *t, const gg_tt *f, gg_tt *g, gg_err *err)
{
    int centre = f->n_inputs - 1;
    uint64_t in[GG_TT_MAX_INPUTS], out[GG_NET_MAX_OUTPUTS];
    gg_net probe = *t->net;
    probe.n_outputs = t->n;
    for (int i = 0; i < t->n; i++)
        probe.out[i] = (uint16_t)t->b[i].signal;
    memset(g, 0, sizeof *g);
    g->n_inputs = t->n + t->n_pass + 1;
    for (int r = 0; r < gg_tt_rows(f); r++) {
        if (!gg_tt_get(f->care, r))
            continue;
        for (int i = 0; i < f->n_inputs; i++)
            in[i] = (r >> i & 1) ? ~0ull : 0;
        gg_net_eval64(&probe, in, out);
        int row = (r >> centre & 1) << (t->n + t->n_pass);
        for (int i = 0; i < t->n; i++)
            row |= (int)(out[i] & 1) << i;
        for (int i = 0; i < t->n_pass; i++)
            row |= (r >> t->pass[i] & 1) << (t->n + i);
        int v = gg_tt_get(f->on, r);
        if (gg_tt_get(g->care, row) && gg_tt_get(g->on, row) != v)
            return gg_fail(err, "final stage is not a function of the "
                           "weighted count, the centre and the uncounted "
                           "inputs");
        gg_tt_put(g->care, row, 1);
        gg_tt_put(g->on, row, v);
    }
    return 0;
}

/* Appends rest (inputs: the tree's bits, the uncounted inputs, then the
 * centre) to the net. */
static int append(tree *t, const gg_net *rest, int centre)
{
    int map[GG_TT_MAX_INPUTS], out;
    for (int i = 0; i < t->n; i++)
        map[i] = t->b[i].signal;
    for (int i = 0; i < t->n_pass; i++)
        map[t->n + i] = t->pass[i];
    map[t->n + t->n_pass] = centre;
    if (gg_net_append(t->net, rest, map, &out, t->err))
        return -1;
    t->net->n_outputs = 1;
    t->net->out[0] = (uint16_t)out;
    t->net->out_neg[0] = rest->out_neg[0];
    return 0;
}

/* 0: an uncounted input, named with a leading '=' (sat/choose/choose_gated.c's
 * m, which the rest reads beside the centre). */
static int weight_of(const char *name)
{
    if (name[0] == '=')
        return 0;
    return name[0] == 'c' && name[1] ? 2 : 1;
}

/* What the exact rest may spend: wall seconds (<= 0: the default), work
 * (gg_synth_opts.work_limit; 0: none), Ctrl-C. */
typedef struct budget {
    double seconds;
    uint64_t work;
    volatile sig_atomic_t *cancel;
} budget;

/* The rest g synthesized (with no solver, built as a decision diagram) and
 * appended after the tree. The result is large, so it lives on the heap,
 * one per call (a static would make concurrent adder builds collide). */
static int rest_append(tree *t, const gg_tt *g, const gg_synth_opts *o,
                       int centre, gg_err *err)
{
    gg_synth_result *res = gg_alloc(1, sizeof *res, err, "adder rest");
    if (!res)
        return -1;
    int rc = gg_sat_available() ? gg_synth_run(g, o, res, err)
                                : gg_net_build_from_tt(g, o->lib, &res->net,
                                                       err);
    /* without the solver, every network of up to three LUTs is tried
     * too (gen/circuits/net_enum.h): the diagram of a 5-input rest took
     * 6-9 LUTs where 2-3 do (hexagonal rules, uncached Life) */
    gg_net *small = rc || gg_sat_available() || o->lib != GG_LIB_LUT3
                        ? NULL
                        : gg_alloc(1, sizeof *small, err, "network");
    int found = small ? gg_net_enum(g, res->net.n_gates - 1, small, err) : 1;
    if (found == 0)
        res->net = *small;
    rc = found < 0 ? -1 : rc;
    free(small);
    if (rc == 0 && append(t, &res->net, centre))
        rc = -1;
    free(res);
    return rc ? -1 : 0;
}

/* Removes bit i keeping the others in order. */
static int take_in_order(tree *t, int i)
{
    int s = t->b[i].signal;
    memmove(&t->b[i], &t->b[i + 1], (size_t)(t->n - i - 1) * sizeof *t->b);
    t->n--;
    return s;
}

/* A full adder over the column of weight w first (0: none); 1 when that
 * column has fewer than three bits. The other bits keep the front's order:
 * the rest's solver is sensitive to it (HighLife's 5-gate rest after the
 * carries' adder: 8 s over sT sM sB, none in 60 s over sT sB sM). */
static int first_adder(tree *t, int w)
{
    int idx[3];
    if (w == 0)
        return 0;
    if (column(t, w, idx) < 3)
        return 1;
    int z = take_in_order(t, idx[2]), y = take_in_order(t, idx[1]),
        x = take_in_order(t, idx[0]);
    return full_adder(t, w, x, y, z);
}

/* How a try builds its tree (not a network shape of sat/exact/shape.h): where
 * the reduction stops, which column's adder comes first, and the cost the
 * whole network must stay under (0: none), which bounds the rest's
 * search. */
typedef struct tree_plan {
    int rest_bits;
    int first_weight;
    int beat;
} tree_plan;

/* The tree down to rest_bits count bits, then the rest synthesized.
 * Returns 1 (net unusable) when the tree cannot take that shape or leaves
 * the rest no gate to beat the cost with. */
static int adder_try(const gg_front *front, const gg_tt *f, gg_lib lib,
                     tree_plan sh, const budget *b, gg_net *net,
                     gg_err *err)
{
    int rest_bits = sh.rest_bits;
    int centre = f->n_inputs - 1;
    memset(net, 0, sizeof *net);
    net->n_inputs = f->n_inputs;
    tree t = {.net = net, .lib = lib, .err = err};
    for (int i = 0; i < centre && i < MAX_BITS; i++) {
        int w = weight_of(front->names[i]);
        if (w == 0 && t.n_pass == MAX_PASS)
            return gg_fail(err, "more than %d uncounted inputs", MAX_PASS);
        if (w == 0)
            t.pass[t.n_pass++] = i;
        else
            t.b[t.n++] = (bit){i, w};
    }
    int first = first_adder(&t, sh.first_weight);
    if (first)
        return first;
    while (t.n > rest_bits) {
        int rc = reduce_once(&t);
        if (rc < 0)
            return -1;
        if (rc > 0)
            break;
    }
    gg_tt g;
    if (rest_table(&t, f, &g, err))
        return -1;
    double limit = rest_bits > 4 ? WIDE_SECONDS : 30;
    /* the rest's gates: what the tree leaves of the cost to beat */
    int k_max = sh.beat > 0 ? sh.beat - 1 - net->n_gates : 0;
    if (sh.beat > 0 && k_max < 1)
        return 1;
    /* the wide rest only needs a good network, not a proof: 1 s per shape
     * (or the work budget) */
    gg_synth_opts o = {.lib = lib,
                       .k_max = k_max,
                       .time_limit = b->seconds > 0 && b->seconds < limit
                                         ? b->seconds : limit,
                       .shape_time_limit = rest_bits > 4 && !b->work ? 1 : 0,
                       .work_limit = b->work,
                       .cancel = b->cancel};
    if (rest_append(&t, &g, &o, centre, err))
        return -1;
    if (gg_net_check(net, 0, f, NULL))
        return gg_fail(err, "adder-tree network is wrong; a bug in sat/choose/adder.c");
    return 0;
}

/* The work-bounded wide try's budget: two thirds of the narrow one's
 * work (all_tries). */
static budget wide_budget(budget b)
{
    b.work = b.work * 2 / 3;
    return b;
}

/* The work-bounded wide try on a thread of its own (heap: a network is
 * several KB). */
typedef struct wide_job {
    const gg_front *front;
    const gg_tt *f;
    gg_lib lib;
    budget b;
    gg_net net;
    int rc;
} wide_job;

static void *wide_try(void *arg)
{
    wide_job *w = arg;
    tree_plan sh = {.rest_bits = REST_BITS + 1};
    gg_err ignore;
    w->rc = adder_try(w->front, w->f, w->lib, sh, &w->b, &w->net, &ignore);
    return NULL;
}

/* The work-bounded build's two tries side by side (each on one thread
 * and its own work, so the network is still the same everywhere): the
 * wide one cannot know the narrow one's cost, so it searches without that
 * bound. Over the 171 rules of bench/fallback_sizes.sh the networks are
 * the same as one after the other, the slowest rules take 0.68-0.79 s
 * instead of 1.24-1.44 s, and the total is the same (session 21). NULL
 * job (no memory or no thread): the caller runs them in turn. */
static wide_job *wide_beside(const gg_front *front, const gg_tt *f,
                             gg_lib lib, budget b, pthread_t *tid)
{
    wide_job *w = malloc(sizeof *w);
    if (!w)
        return NULL;
    *w = (wide_job){
        .front = front, .f = f, .lib = lib, .b = wide_budget(b), .rc = -1};
    if (pthread_create(tid, NULL, wide_try, w)) {
        free(w);
        return NULL;
    }
    return w;
}

/* Two stopping points: 4 count bits (a 5-input rest, always quick) and 5
 * (a 6-input rest, still solved in well under a second for Life, and it
 * is what finds Life's minimal 6 LUTs behind the rowsum-lr front: one full
 * adder over sT L R, then 4 LUTs). The cheaper network wins.
 *
 * Given wall seconds (golgen synth), a third try puts the first adder on
 * the row carries (cT cM cB behind rowsum), as HighLife's minimal 7 LUTs
 * do, and the wide rests look only for networks cheaper than the best so
 * far (or than beat). Their 5-gate rests took 4-40 s on one or two
 * threads for Bugs, Pseudo Life and Land Rush (7 LUTs, where the narrow
 * tree gives 8), so each gets up to WIDE_SECONDS. The work-bounded build
 * (emitters: the same network everywhere, in under a second) keeps the
 * two plain tries, side by side (wide_beside), the wide one with two
 * thirds of the work: on 171 rules (the corpus and 120 random ones) that
 * gave the same networks as the whole work in 40% less time (session
 * 21). Run in turn (no thread to be had) the wide try looks only below
 * the narrow one's cost. */
/* The work-bounded build's third try: the count reduced to binary, so
 * the rest is over few bits (3 and the centre for a hexagonal rule's six
 * neighbours), small enough for enumeration or the solver to find its
 * smallest network. The adders cost two or three LUTs more than the
 * 5-input rest saves where that takes two or three, but where it takes
 * four or more (no three-gate network; without the solver a decision
 * diagram of 12-16 LUTs, and the work-bounded solver did no better) the
 * binary count is the cheaper: the seeded hexagonal rules at 11-12 ops a
 * word -> 10 (B245/S035H, B36/S01345H, B5/S145H, B2/S34H). */
static int deep_try(const gg_front *front, const gg_tt *f, gg_lib lib,
                    const budget *b, gg_net *net, gg_err *err)
{
    if (lib != GG_LIB_LUT3 || !b->work)
        return 0;
    gg_net *deep = gg_alloc(2, sizeof *deep, err, "adder network");
    if (!deep)
        return -1;
    tree_plan d = {.rest_bits = REST_BITS - 1};
    gg_err ignore; /* a tree that cannot take this shape: no candidate */
    /* compared resubstituted, as the fallback's candidates are (sat/
     * choose/choose_resub.h): the 5-input rest's diagram shrinks more
     * (B145/S23H: 13 -> 9 LUTs, the binary count's 10 stays 10) */
    deep[1] = *net;
    if (adder_try(front, f, lib, d, b, deep, &ignore) == 0 &&
        gg_net_resub(&deep[0], f, 0, &ignore) >= 0 &&
        gg_net_resub(&deep[1], f, 0, &ignore) >= 0 &&
        gg_synth_cost(&deep[0], lib) < gg_synth_cost(&deep[1], lib))
        *net = deep[0];
    free(deep);
    return 0;
}

static int all_tries(const gg_front *front, const gg_tt *f, gg_lib lib,
                     budget b, int beat, gg_net *net, gg_err *err)
{
    bool timed = b.seconds > 0 && !b.work;
    pthread_t tid;
    wide_job *w = lib == GG_LIB_LUT3 && b.work
                      ? wide_beside(front, f, lib, b, &tid)
                      : NULL;
    if (w) {
        tree_plan narrow = {.rest_bits = REST_BITS};
        int rc = adder_try(front, f, lib, narrow, &b, net, err);
        pthread_join(tid, NULL);
        if (!rc && w->rc == 0 &&
            gg_synth_cost(&w->net, lib) < gg_synth_cost(net, lib))
            *net = w->net;
        free(w);
        return rc || deep_try(front, f, lib, &b, net, err) ? -1 : 0;
    }
    if (lib == GG_LIB_LUT3 && b.seconds > 0)
        b.seconds /= timed ? 3 : 2; /* the tries share it */
    tree_plan narrow = {.rest_bits = REST_BITS};
    if (adder_try(front, f, lib, narrow, &b, net, err))
        return -1;
    if (lib != GG_LIB_LUT3) /* gate2: 10 s for no gain on Life */
        return 0;
    /* several KB: heap, one per call, so builds may run concurrently */
    gg_net *wide = gg_alloc(1, sizeof *wide, err, "adder network");
    if (!wide)
        return -1;
    /* the row sums' column first (the plain wide try), then the carries' */
    for (int w = 1; w <= (timed ? 2 : 1); w++) {
        int best = gg_synth_cost(net, lib);
        tree_plan sh = {
            .rest_bits = REST_BITS + 1,
            .first_weight = timed ? w : 0,
            .beat = beat > 0 && beat < best ? beat : best};
        budget bw = wide_budget(b);
        gg_err ignore;
        if (adder_try(front, f, lib, sh, &bw, wide, &ignore) == 0 &&
            gg_synth_cost(wide, lib) < gg_synth_cost(net, lib))
            *net = *wide;
    }
    free(wide);
    return deep_try(front, f, lib, &b, net, err);
}

int gg_adder_net(const gg_front *front, const gg_tt *f, gg_lib lib,
                 double seconds, int beat, volatile sig_atomic_t *cancel,
                 gg_net *net, gg_err *err)
{
    return all_tries(front, f, lib, (budget){seconds, 0, cancel}, beat, net,
                     err);
}

int gg_adder_net_repro(const gg_front *front, const gg_tt *f, gg_lib lib,
                       uint64_t work, double seconds, gg_net *net,
                       gg_err *err)
{
    return all_tries(front, f, lib, (budget){seconds, work, NULL}, 0, net,
                     err);
}

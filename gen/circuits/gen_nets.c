#include "gen_nets.h"

#include <string.h>

#include "net_build.h"
#include "rule_gen.h"

/* The next state of a cell in state s whose two-state output is l. */
static int next_state(int states, int s, int l)
{
    if (s == 0)
        return l;
    if (s == 1)
        return l ? 1 : (states > 2 ? 2 : 0);
    return s + 1 == states ? 0 : s + 1;
}

void gg_gen_post_tt(int states, int o, gg_tt *t)
{
    int q = gg_gen_planes(states);
    memset(t, 0, sizeof *t);
    t->n_inputs = q + 1;
    for (int r = 0; r < (1 << (q + 1)); r++) {
        int l = r & 1, s = r >> 1;
        if (s >= states)
            continue;
        int n = next_state(states, s, l);
        gg_tt_put(t->care, r, 1);
        gg_tt_put(t->on, r, o == q ? n == 1 : (n >> o) & 1);
    }
}

void gg_gen_alive_tt(int states, gg_tt *t)
{
    int q = gg_gen_planes(states);
    memset(t, 0, sizeof *t);
    t->n_inputs = q;
    for (int s = 0; s < states; s++) {
        gg_tt_put(t->care, s, 1);
        gg_tt_put(t->on, s, s == 1);
    }
}

static int check_output(const gg_net *n, int o, const gg_tt *t,
                        const char *what, gg_err *err)
{
    int bad = -1;
    if (gg_net_check(n, o, t, &bad))
        return gg_fail(err, "the Generations %s network is wrong on row %d "
                       "(a bug: please report it)", what, bad);
    return 0;
}

int gg_gen_nets_verify(const gg_gen_nets *g, gg_err *err)
{
    gg_tt t;
    for (int o = 0; o <= g->planes; o++) {
        gg_gen_post_tt(g->states, o, &t);
        if (check_output(&g->post, o, &t, "per-cell", err))
            return -1;
    }
    gg_gen_alive_tt(g->states, &t);
    return check_output(&g->alive, 0, &t, "alive", err);
}

int gg_gen_nets_assemble(int states, const gg_net *const *outs,
                         const gg_net *alive, bool proven, gg_gen_nets *g,
                         gg_err *err)
{
    if (states < 3 || states > GG_GEN_MAX_STATES)
        return gg_fail(err, "a Generations stage needs 3..%d states, not %d",
                       GG_GEN_MAX_STATES, states);
    memset(g, 0, sizeof *g);
    g->states = states;
    g->planes = gg_gen_planes(states);
    g->a_is_p0 = states <= 3;
    g->proven = proven;
    g->alive = *alive;
    g->post.n_inputs = g->planes + 1;
    int map[GG_TT_MAX_INPUTS];
    for (int i = 0; i <= g->planes; i++)
        map[i] = i;
    for (int o = 0; o <= g->planes; o++) {
        int s;
        if (gg_net_append(&g->post, outs[o], map, &s, err))
            return -1;
        g->post.out[o] = (uint16_t)s;
        g->post.out_neg[o] = outs[o]->out_neg[0];
    }
    g->post.n_outputs = g->planes + 1;
    gg_net_tidy(&g->post);
    return gg_gen_nets_verify(g, err);
}

int gg_gen_nets_build(int states, gg_gen_nets *g, gg_err *err)
{
    int q = gg_gen_planes(states);
    gg_net outs[GG_GEN_NETS_MAX_PLANES + 1], alive;
    const gg_net *ptr[GG_GEN_NETS_MAX_PLANES + 1];
    gg_tt t;
    for (int o = 0; o <= q; o++) {
        gg_gen_post_tt(states, o, &t);
        if (gg_net_build_from_tt(&t, GG_LIB_GATE2, &outs[o], err))
            return -1;
        ptr[o] = &outs[o];
    }
    gg_gen_alive_tt(states, &t);
    if (gg_net_build_from_tt(&t, GG_LIB_GATE2, &alive, err))
        return -1;
    return gg_gen_nets_assemble(states, ptr, &alive, false, g, err);
}

/* A gate2 builder that remembers a failure (a full net) once. */
typedef struct bld {
    gg_net *n;
    gg_err *err;
    bool bad;
} bld;

static int gate(bld *b, gg_op op, int x, int y)
{
    if (b->bad)
        return 0;
    int s = gg_net_add(b->n, op, 0, x, y, 0, b->err);
    b->bad = s < 0;
    return s < 0 ? 0 : s;
}

/* A = (state == 1) over planes at signals p[0..q-1]: P0 and none of the
 * planes j with 1 + 2^j < C (a code with bit 0 and a higher bit set is
 * >= C, so never occurs). */
static int alive_of(bld *b, int states, int q, const int *p)
{
    int a = p[0];
    for (int j = 1; j < q && 1 + (1 << j) < states; j++)
        a = gate(b, GG_OP_ANDNOT, a, p[j]);
    return a;
}

int gg_gen_nets_counter(int states, gg_gen_nets *g, gg_err *err)
{
    if (states < 3 || states > GG_GEN_MAX_STATES)
        return gg_fail(err, "a Generations stage needs 3..%d states, not %d",
                       GG_GEN_MAX_STATES, states);
    memset(g, 0, sizeof *g);
    int q = gg_gen_planes(states);
    g->states = states;
    g->planes = q;
    g->a_is_p0 = states <= 3;
    int p[GG_GEN_NETS_MAX_PLANES] = {0}, l = 0;
    for (int i = 0; i < q; i++)
        p[i] = i;
    bld a = {&g->alive, err, false};
    g->alive.n_inputs = q;
    g->alive.n_outputs = 1;
    g->alive.out[0] = (uint16_t)alive_of(&a, states, q, p);

    bld b = {&g->post, err, false};
    g->post.n_inputs = q + 1;
    for (int i = 0; i < q; i++)
        p[i] = i + 1; /* input 0 is L */
    int al = alive_of(&b, states, q, p), nz = p[0];
    for (int i = 1; i < q; i++)
        nz = gate(&b, GG_OP_OR, nz, p[i]);
    int dying = gate(&b, GG_OP_ANDNOT, nz, al);
    int inc = gate(&b, GG_OP_OR, dying, gate(&b, GG_OP_ANDNOT, al, l));
    int wrap = -1; /* state C-1: its set bits (no code above it occurs) */
    for (int i = 0; i < q; i++)
        if ((states - 1) >> i & 1)
            wrap = wrap < 0 ? p[i] : gate(&b, GG_OP_AND, wrap, p[i]);
    int incw = gate(&b, GG_OP_ANDNOT, inc, wrap);
    int alive_next = gate(&b, GG_OP_ANDNOT, l, inc);
    int out[GG_GEN_NETS_MAX_PLANES + 1];
    out[0] = gate(&b, GG_OP_OR, gate(&b, GG_OP_ANDNOT, incw, p[0]),
                  alive_next);
    int carry = p[0];
    for (int i = 1; i < q; i++) {
        out[i] = gate(&b, GG_OP_AND, incw, gate(&b, GG_OP_XOR, p[i], carry));
        if (i + 1 < q)
            carry = gate(&b, GG_OP_AND, p[i], carry);
    }
    out[q] = alive_next;
    if (a.bad || b.bad)
        return -1;
    g->post.n_outputs = q + 1;
    for (int o = 0; o <= q; o++)
        g->post.out[o] = (uint16_t)out[o];
    gg_net_tidy(&g->post);
    return gg_gen_nets_verify(g, err);
}

int gg_gen_nets_cost(const gg_gen_nets *g)
{
    return g->post.n_gates + (g->a_is_p0 ? 0 : g->alive.n_gates);
}

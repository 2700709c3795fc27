/* Golly's JvN algorithm's three rules, built in: von Neumann's 29-state
 * cellular automaton (JvN29), Renato Nobili's 32-state extension with
 * signal crossing (Nobili32) and Tim Hutton's modification of it
 * (Hutton32). golgen evaluates each rule's transition function below over
 * every von Neumann neighbourhood and keeps the result as the decision
 * graph of a rule file (rulefile.h), so the engines and kernels that run
 * @TREE rules run these too.
 *
 * States, numbered as Golly numbers them (and as its RLE files write
 * them):
 *   0        ground (U)
 *   1..8     sensitized: S, S0, S1, S00, S01, S10, S11, S000 (the bits a
 *            ground cell has received since it was first excited)
 *   9..12    ordinary transmission (OTS) pointing east, north, west, south
 *   13..16   the same, excited
 *   17..24   special transmission (STS), quiet then excited, same order
 *   25..28   confluent: C00, C01, C10, C11 (excited now, excited next)
 *   29..31   Nobili's crossing confluent: the horizontal signal passing,
 *            the vertical one, both
 *
 * JvN29 and Nobili32, in words. A transmission cell points one way and
 * carries a signal one step a generation: it is excited next when a cell
 * of its own kind points into it excited (not head on: two cells pointing
 * at each other do not excite each other) or a confluent neighbour it
 * does not point at is emitting; an excited cell of the other kind
 * pointing into it (head on included) destroys it back to ground. A
 * confluent cell is a one-generation delay AND gate: it is excited next
 * when the ordinary cells pointing into it are all excited (at least
 * one), emits the generation after, and an excited special cell pointing
 * into it destroys it. Ground becomes sensitized when an excited
 * transmission cell of either kind points into it, and a sensitized cell
 * takes one more bit a generation (excited input or not) until the bits
 * read name what it becomes: 10000 OTS east, 10001 north, 1001 west,
 * 1010 south, 1011 STS east, 1100 north, 1101 west, 1110 south, 1111
 * confluent. Nobili32: a quiescent confluent with ordinary cells pointing
 * in on both axes and transmission cells leading out on both becomes a
 * crossing, passing each axis's excitation straight on, and a confluent
 * with no transmission cell leading out keeps its state (a memory).
 * These follow Golly's JvN algorithm exactly, down to what it settled
 * empirically (the confluent's cases its authors checked against Nobili's
 * simulator), since bgolly -a JvN is the oracle golgen is tested against.
 *
 * Hutton32 (Tim Hutton, 2008; described in Golly's sources) changes the
 * construction side so that one ordinary wire is a construction arm: the
 * wire's end marks itself with an excited special state while it writes,
 * a sensitized cell's product is turned relative to the arrow writing it,
 * and writing can retract the wire; it also reproduces what Golly's code
 * computes for a sensitized cell with no input (its arithmetic's
 * remainders), which random soups reach. */
#include "rulefile_parts.h"

#include <stdio.h>
#include <string.h>
#include <strings.h>

enum { EAST, NORTH, WEST, SOUTH };  /* the transmission states' order */

enum { QUIET_C = 25 };  /* confluent C00 */

static bool is_ts(int x) { return x >= 9 && x <= 24; }
static bool is_ots(int x) { return x >= 9 && x <= 16; }
static bool is_sts(int x) { return x >= 17 && x <= 24; }
static int ts_dir(int x) { return (x - 9) & 3; }
static bool ts_excited(int x) { return ((x - 9) & 4) != 0; }
static int ts_quiet(int x) { return ts_excited(x) ? x - 4 : x; }

/* A neighbour at direction d from the centre points into it. */
static bool points_in(int x, int d)
{
    return is_ts(x) && ts_dir(x) == (d ^ 2);
}

/* A confluent neighbour at direction d emits into the centre this
 * generation: C10 and C11 every way, a crossing along its axis. */
static bool emits(int x, int d)
{
    bool across = (d & 1) == 0; /* east or west: the horizontal axis */
    return x == 27 || x == 28 || x == 31 || (x == 29 && across) ||
           (x == 30 && !across);
}

/* ---- JvN29 and Nobili32 ---- */

/* What a ground or sensitized cell becomes, by the bit it takes now. */
static const uint8_t sensitized_next[9][2] = {
    {0, 1},   /* U: an excited input sensitizes it */
    {2, 3},   /* S */
    {4, 5},   /* S0 */
    {6, 7},   /* S1 */
    {8, 11},  /* S00: 1001 is OTS west */
    {12, 17}, /* S01: 1010 OTS south, 1011 STS east */
    {18, 19}, /* S10: 1100 STS north, 1101 STS west */
    {20, 25}, /* S11: 1110 STS south, 1111 confluent */
    {9, 10},  /* S000: 10000 OTS east, 10001 OTS north */
};

/* The four neighbours as the centre sees them. */
typedef struct jvn_view {
    bool o_exc;        /* an excited OTS points in */
    bool o_quiet;      /* a quiet OTS points in */
    bool s_exc;        /* an excited STS points in */
    bool o_fwd, s_fwd; /* the same, not head on with the centre */
    bool conf;         /* a confluent the centre does not point at emits */
    bool in[2];        /* an OTS points in, per axis (0 horizontal) */
    bool exc[2];       /* an excited OTS points in, per axis */
    bool out[2];       /* a transmission cell not pointing in, per axis */
} jvn_view;

static jvn_view jvn_look(int c, const uint8_t nb[4])
{
    jvn_view v = {0};
    int aim = is_ts(c) ? ts_dir(c) : -1;
    for (int d = 0; d < 4; d++) {
        int x = nb[d], axis = d & 1;
        bool head_on = aim == d;
        if (!is_ts(x)) {
            v.conf |= !head_on && emits(x, d);
            continue;
        }
        if (!points_in(x, d)) {
            v.out[axis] = true;
            continue;
        }
        bool e = ts_excited(x);
        if (is_ots(x)) {
            v.in[axis] = true;
            v.o_quiet |= !e;
            v.o_exc |= e;
            v.exc[axis] |= e;
            v.o_fwd |= e && !head_on;
        } else if (e) {
            v.s_exc = true;
            v.s_fwd |= !head_on;
        }
    }
    return v;
}

static int jvn_next(bool nobili, int c, const uint8_t nb[4])
{
    jvn_view v = jvn_look(c, nb);
    if (c <= 8)
        return sensitized_next[c][v.o_exc || v.s_exc];
    if (is_ts(c)) {
        bool ordinary = is_ots(c);
        if (ordinary ? v.s_exc : v.o_exc)
            return 0;
        bool e = v.conf || (ordinary ? v.o_fwd : v.s_fwd);
        return ts_quiet(c) + (e ? 4 : 0);
    }
    /* confluent */
    if (v.s_exc)
        return 0;
    if (nobili && v.in[0] && v.in[1] && v.out[0] && v.out[1])
        return !v.o_exc ? QUIET_C : 28 + v.exc[0] + 2 * v.exc[1];
    bool next = c == 26 || c == 28; /* a crossing carries nothing over */
    if (v.o_exc && !v.o_quiet)
        return next ? 28 : 26;
    if (!nobili || v.out[0] || v.out[1])
        return next ? 27 : QUIET_C;
    return c <= 28 ? c : QUIET_C; /* Nobili's memory */
}

/* A state standing for every state that the neighbour at direction d can
 * be with the same next state for every centre and other neighbours (the
 * graph is built over these only): what jvn_look reads of it. */
static int jvn_class(int x, int d)
{
    if (is_ts(x)) {
        if (!points_in(x, d))
            return 9 + d; /* an OTS pointing away */
        return is_sts(x) && !ts_excited(x) ? 0 : x;
    }
    return emits(x, d) ? 27 : 0;
}

/* ---- Hutton32 ---- */

/* The neighbours as Hutton32's centre sees them. `skip_o` and `skip_s`:
 * the direction an ordinary (special) centre points in, whose neighbour
 * does not count as an input of that kind (-1: none). */
typedef struct hutton_view {
    bool o_to_us;   /* an excited OTS or an emitting confluent, not skipped */
    bool o_arrow;   /* an excited OTS points in, not skipped */
    bool s_to_us;   /* special likewise */
    bool s_arrow;
    bool o_in;      /* an OTS points in, quiet or excited */
    bool o_quiet;   /* a quiet OTS points in */
    bool o_exc;     /* an excited OTS points in */
    bool exc[2];    /* an excited OTS points in, per axis (0 horizontal) */
    int n_in, n_out; /* transmission cells pointing in, and not */
    int input;      /* the first excited arrow in, west south east north */
} hutton_view;

static hutton_view hutton_look(int c, const uint8_t nb[4])
{
    hutton_view v = {0};
    int skip_o = is_ots(c) ? ts_dir(c) : -1;
    int skip_s = is_sts(c) ? ts_dir(c) : -1;
    static const int input_order[4] = {WEST, SOUTH, EAST, NORTH};
    for (int d = 0; d < 4; d++) {
        int x = nb[d];
        bool in = points_in(x, d), e = in && ts_excited(x);
        bool eo = e && is_ots(x), es = e && is_sts(x);
        v.o_to_us |= (eo || emits(x, d)) && d != skip_o;
        v.o_arrow |= eo && d != skip_o;
        v.s_to_us |= (es || emits(x, d)) && d != skip_s;
        v.s_arrow |= es && d != skip_s;
        v.o_in |= in && is_ots(x);
        v.o_quiet |= in && is_ots(x) && !e;
        v.o_exc |= eo;
        v.exc[d & 1] |= eo;
        v.n_in += in;
        v.n_out += is_ts(x) && !in;
    }
    for (int k = 0; k < 4 && !v.input; k++) {
        int x = nb[input_order[k]];
        if (points_in(x, input_order[k]) && ts_excited(x))
            v.input = x;
    }
    return v;
}

/* The crossing's state from the axes carrying excitation in. */
static int hutton_crossing(const hutton_view *v)
{
    return v->exc[0] && v->exc[1] ? 31 : v->exc[1] ? 30 : v->exc[0] ? 29
                                                                    : 25;
}

/* An arrow turned k quarter turns anticlockwise from the quiet input q's
 * direction, in the block starting at `base` (9 OTS, 17 STS), as Golly's
 * arithmetic computes it: with no input (q = 0) C's remainder of a
 * negative number is negative, and Golly's results are kept. */
static int turned(int q, int k, int base)
{
    return (q - 9 + k) % 4 + base;
}

/* A transmission centre (ordinary or special). */
static int hutton_ts(int c, const uint8_t nb[4], const hutton_view *v)
{
    int out = nb[ts_dir(c)]; /* the cell it points at */
    bool e = ts_excited(c);
    int q = ts_quiet(c);
    bool out_sensitized = out >= 1 && out <= 8;
    /* what the sensitized cell ahead becomes from this cell's bit */
    bool makes_ots = out == 8 || (out == 4 && e) || (out == 5 && !e);
    bool makes_conf = out == 7 && e;
    bool stays = (out == 0 && e) || (out >= 1 && out <= 3) ||
                 (out == 4 && !is_ots(c));
    if (is_ots(c)) {
        if (v->s_arrow)
            return 0;
        if (v->o_to_us) {
            if (makes_ots || (is_sts(out) && !ts_excited(out)))
                return 0;   /* the arm retracts */
            return makes_conf ? 1 : q + 4;
        }
        if (makes_conf)
            return 0;
        return e && stays ? q + 12 : q; /* the wire's end marks itself */
    }
    if (e && out_sensitized && v->o_in) { /* the mark at a wire's end */
        if (stays)
            return v->o_arrow ? c - 8 : c;
        return v->o_arrow ? 0 : q - 8;
    }
    if (e && out == 0)
        return v->s_arrow ? c : q;
    if (v->o_arrow)
        return 0;
    return v->s_to_us ? q + 4 : q;
}

static int hutton_next(int c, const uint8_t nb[4])
{
    hutton_view v = hutton_look(c, nb);
    if (is_ts(c))
        return hutton_ts(c, nb, &v);
    int in = v.input;
    int q = in ? ts_quiet(in) : 0;
    bool bit = v.o_arrow;
    switch (c) {
    case 0:
        return bit ? 1 : v.s_arrow ? q - 8 : 0;
    case 1: case 2: case 3:
        return 2 * c + bit;
    case 4:
        return bit ? turned(q, 2, 9) : 8;            /* reverse */
    case 5:
        return bit ? q + 8 : turned(q, 3, 9);        /* STS ahead; right */
    case 6:
        return turned(q, bit ? 2 : 1, 17);           /* STS reverse; left */
    case 7:
        return bit ? QUIET_C : turned(q, 3, 17);     /* STS right */
    case 8:
        /* ahead, or a left turn; with no input at all Golly's unsigned
         * arithmetic wraps back to 8 */
        return !in ? 8 : 9 + (ts_dir(in) + bit) % 4;
    }
    if (v.s_arrow)
        return 0;
    bool all_on = v.o_exc && !v.o_quiet;
    switch (c) {
    case 25:
        if (v.n_in == 2 && v.n_out == 2)
            return hutton_crossing(&v);
        return all_on ? 26 : 25;
    case 26: case 28:
        return all_on ? 28 : 27;
    case 27:
        return all_on ? 26 : 25;
    default:
        return hutton_crossing(&v);
    }
}

/* Hutton32's classes, as jvn_class, for centre c (-1: any): what
 * hutton_next reads of a neighbour for that centre. */
static int hutton_class(int c, int x, int d)
{
    bool in = points_in(x, d);
    if (c >= 0 && c <= 8) /* ground, sensitized: excited arrows in */
        return in && ts_excited(x) ? x : 0;
    if (c >= 25) /* confluent: arrows in, and how many lead out */
        return in ? x : is_ts(x) ? 9 + d : 0;
    if (c >= 0 && ts_dir(c) != d) { /* transmission, not ahead */
        if (in && (is_ots(x) || ts_excited(x)))
            return x;
        return emits(x, d) ? 27 : 0;
    }
    /* the cell a transmission centre points at: read whole */
    if (in)
        return x;
    if (x == 2 || x == 3)
        return 1;
    if (x <= 8)
        return x;
    if (is_sts(x))
        return (ts_excited(x) ? 21 : 17) + d;
    if (is_ts(x))
        return 9 + d; /* an OTS pointing away */
    return emits(x, d) ? 27 : QUIET_C;
}

/* ---- the rules by name, and their graphs ---- */

typedef enum { JVN29, NOBILI32, HUTTON32 } jvn_rule;

static const struct {
    const char *name, *alias; /* Golly's name and its older one */
    int n_states;
} rules[] = {
    [JVN29] = {"JvN29", "JvN-29", 29},
    [NOBILI32] = {"Nobili32", "JvN-32", 32},
    [HUTTON32] = {"Hutton32", "modJvN-32", 32},
};

int gg_rulefile_jvn_cell(int rule, int c, int n, int w, int e, int s)
{
    const uint8_t nb[4] = {(uint8_t)e, (uint8_t)n, (uint8_t)w, (uint8_t)s};
    return rule == HUTTON32 ? hutton_next(c, nb)
                            : jvn_next(rule == NOBILI32, c, nb);
}

static int class_of(jvn_rule rule, int c, int x, int d)
{
    return rule == HUTTON32 ? hutton_class(c, x, d) : jvn_class(x, d);
}

typedef struct jvn_build {
    jvn_rule rule;
    int ns;
    const uint8_t *reads; /* level -> input in tree order (n w e s c) */
    gg_rf_dag dag;
    gg_err *err;
} jvn_build;

/* The levels' inputs: tree order, but Hutton32 reads the centre first,
 * since which neighbour its transmission states read depends on the
 * centre: 1039 kernel terms where tree order needs 42079 (JvN29 and
 * Nobili32 are smallest in tree order, 269 and 534 terms). */
static const uint8_t tree_order[5] = {0, 1, 2, 3, 4};
static const uint8_t centre_first[5] = {4, 0, 1, 2, 3};

/* The node of level i, the inputs of the levels above chosen (v, by tree
 * input: a neighbour's class, or the centre; -1 not yet). */
static int64_t build(jvn_build *b, int i, int v[5])
{
    static const int dir_of[4] = {NORTH, WEST, EAST, SOUTH};
    int in = b->reads[i];
    uint32_t e[32];
    int64_t child[32];
    for (int k = 0; k < 32; k++)
        child[k] = -1;
    for (int x = 0; x < b->ns; x++) {
        int k = in == 4 ? x : class_of(b->rule, v[4], x, dir_of[in]);
        v[in] = k;
        if (child[k] < 0)
            child[k] = i == 4 ? gg_rulefile_jvn_cell(b->rule, v[4], v[0],
                                                     v[1], v[2], v[3])
                              : build(b, i + 1, v);
        if (child[k] < 0)
            return -1;
        e[x] = (uint32_t)child[k];
    }
    v[in] = -1;
    return gg_rf_dag_node(&b->dag, 5 - i, e, b->err);
}

int gg_rulefile_builtin(const char *name, size_t len, gg_rulefile *rf,
                        gg_err *err)
{
    memset(rf, 0, sizeof *rf);
    int r = -1;
    for (int k = 0; k < 3 && r < 0; k++)
        if ((strlen(rules[k].name) == len &&
             !strncasecmp(name, rules[k].name, len)) ||
            (strlen(rules[k].alias) == len &&
             !strncasecmp(name, rules[k].alias, len)))
            r = k;
    if (r < 0)
        return 0;
    jvn_build b = {.rule = (jvn_rule)r, .ns = rules[r].n_states,
                   .reads = r == HUTTON32 ? centre_first : tree_order,
                   .err = err};
    if (gg_rf_dag_init(&b.dag, b.ns, err))
        return -1;
    int v[5] = {-1, -1, -1, -1, -1};
    int64_t root = build(&b, 0, v);
    if (root < 0) {
        gg_rf_dag_free(&b.dag);
        return -1;
    }
    snprintf(rf->name, sizeof rf->name, "%s", rules[r].name);
    rf->builtin = true;
    rf->is_tree = true;
    rf->n_states = b.ns;
    rf->nbhd = GG_RF_VONNEUMANN;
    rf->n_inputs = 5;
    gg_rf_dag_finish(&b.dag, rf, (uint32_t)root);
    memcpy(rf->reads, b.reads, 5);
    return 1;
}

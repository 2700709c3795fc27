#include "net_enum.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

enum {
    MAX_SIG = GG_ENUM_MAX_INPUTS + 3,
    MAX_CAND = 4096, /* distinct one-gate tables; 5 inputs give ~1300 */
    HASH = 8192,     /* open addressing, > 2 * MAX_CAND */
};

/* An inner gate: its inputs (signal numbers), LUT and table, the table
 * normalised to 0 on row 0 (the LUT complemented to match). */
typedef struct cand {
    uint64_t v;
    uint8_t lut, in[3];
} cand;

typedef struct set {
    uint64_t key[HASH];
    bool used[HASH];
} set;

typedef struct search {
    int n; /* inputs */
    uint64_t mask, on, care;
    uint64_t sig[MAX_SIG];
    cand l1[MAX_CAND], l2[MAX_CAND];
    int n1, n2;
    set seen;
    gg_gate gate[3];
    int n_gates, out; /* out: the output's signal (-1 constant) */
    bool out_neg;
} search;

static uint64_t lut3(uint8_t lut, uint64_t a, uint64_t b, uint64_t c)
{
    uint64_t r = 0;
    for (int x = 0; x < 8; x++)
        if (lut >> x & 1)
            r |= (x & 4 ? a : ~a) & (x & 2 ? b : ~b) & (x & 1 ? c : ~c);
    return r;
}

/* Whether the target is a function of a, b, c on its care rows: the
 * LUT (rows no care row reaches: 0) into *lut. */
static bool fits(const search *s, uint64_t a, uint64_t b, uint64_t c,
                 uint8_t *lut)
{
    uint8_t l = 0;
    for (int x = 0; x < 8; x++) {
        uint64_t sel = (x & 4 ? a : ~a) & (x & 2 ? b : ~b) &
                       (x & 1 ? c : ~c) & s->care;
        uint64_t on = sel & s->on;
        if (on && (sel & ~s->on))
            return false;
        l |= (uint8_t)((on != 0) << x);
    }
    *lut = l;
    return true;
}

static void set_clear(set *h) { memset(h->used, 0, sizeof h->used); }

/* Adds v; false when it was there. */
static bool set_add(set *h, uint64_t v)
{
    uint64_t x = v * 0x9E3779B97F4A7C15ull;
    for (unsigned i = (unsigned)(x >> 51) % HASH;; i = (i + 1) % HASH) {
        if (!h->used[i]) {
            h->used[i] = true;
            h->key[i] = v;
            return true;
        }
        if (h->key[i] == v)
            return false;
    }
}

/* The candidates over signals 0..n_sig-1 that read signal `must` (-1:
 * any), new to s->seen, appended to list (*n of them). Constants and
 * copies of a signal are left out: a reader takes the signal itself. */
static void gates_over(search *s, int n_sig, int must, cand *list, int *n)
{
    for (int i = 0; i < n_sig; i++)
        for (int j = i + 1; j < n_sig; j++)
            for (int k = j + 1; k < n_sig; k++) {
                if (must >= 0 && i != must && j != must && k != must)
                    continue;
                for (int lut = 0; lut < 256 && *n < MAX_CAND; lut++) {
                    uint64_t v = lut3((uint8_t)lut, s->sig[i], s->sig[j],
                                      s->sig[k]) &
                                 s->mask;
                    uint8_t l = (uint8_t)lut;
                    if (v & 1) {
                        v = ~v & s->mask;
                        l = (uint8_t)~l;
                    }
                    if (!v || !set_add(&s->seen, v))
                        continue;
                    list[(*n)++] = (cand){v, l, {(uint8_t)i, (uint8_t)j,
                                                 (uint8_t)k}};
                }
            }
}

/* The output over a triple of signals 0..n_sig-1 holding `must` (and
 * `also` when >= 0): true with it in s->gate[n_gates]. */
static bool output_over(search *s, int n_sig, int must, int also)
{
    for (int i = 0; i < n_sig; i++)
        for (int j = i + 1; j < n_sig; j++)
            for (int k = j + 1; k < n_sig; k++) {
                bool has = must < 0 || i == must || j == must || k == must;
                bool has2 = also < 0 || i == also || j == also || k == also;
                uint8_t lut;
                if (!has || !has2 ||
                    !fits(s, s->sig[i], s->sig[j], s->sig[k], &lut))
                    continue;
                s->gate[s->n_gates] = (gg_gate){
                    .op = GG_OP_LUT3, .lut = lut,
                    .in = {(uint16_t)i, (uint16_t)j, (uint16_t)k}};
                s->out = s->n + s->n_gates++;
                return true;
            }
    return false;
}

static void take(search *s, const cand *c)
{
    s->gate[s->n_gates++] = (gg_gate){
        .op = GG_OP_LUT3, .lut = c->lut,
        .in = {c->in[0], c->in[1], c->in[2]}};
}

static bool no_gate(search *s)
{
    uint64_t on = s->on & s->care, off = ~s->on & s->care;
    s->out = -1;
    if (!on || !off) {
        s->out_neg = on != 0;
        return true;
    }
    for (int i = 0; i < s->n; i++)
        for (int neg = 0; neg < 2; neg++) {
            uint64_t v = neg ? ~s->sig[i] : s->sig[i];
            if (!((v ^ s->on) & s->care)) {
                s->out = i;
                s->out_neg = neg;
                return true;
            }
        }
    return false;
}

/* The tables a new gate must not repeat: the inputs (a copy is no
 * gate), and with l1 the one-gate tables. */
static void reset_seen(search *s, bool l1)
{
    set_clear(&s->seen);
    for (int i = 0; i < s->n; i++)
        set_add(&s->seen, s->sig[i] & 1 ? ~s->sig[i] & s->mask : s->sig[i]);
    for (int q = 0; l1 && q < s->n1; q++)
        set_add(&s->seen, s->l1[q].v);
}

/* Fewer than three signals: pad the triples with a copy of the last. */
static int padded(search *s, int n_sig)
{
    for (int i = n_sig; i < 3; i++)
        s->sig[i] = s->sig[n_sig - 1];
    return n_sig < 3 ? 3 : n_sig;
}

static bool find(search *s, int max_gates)
{
    if (no_gate(s))
        return true;
    int n = s->n;
    if (max_gates >= 1 && output_over(s, padded(s, n), -1, -1))
        return true;
    if (max_gates < 2)
        return false;
    s->n1 = 0;
    reset_seen(s, false);
    gates_over(s, padded(s, n), -1, s->l1, &s->n1);
    for (int p = 0; p < s->n1; p++) {
        s->n_gates = 0;
        s->sig[n] = s->l1[p].v;
        take(s, &s->l1[p]);
        if (output_over(s, padded(s, n + 1), n, -1))
            return true;
    }
    if (max_gates < 3 || n > 5)
        return false;
    /* g1, then g2 reading it (new tables only: one over the inputs is
     * some later l1 entry) or a later l1 entry, then the output */
    for (int p = 0; p < s->n1; p++) {
        s->sig[n] = s->l1[p].v;
        s->n2 = 0;
        gates_over(s, n + 1, n, s->l2, &s->n2);
        for (int q = 0; q < s->n2; q++) {
            s->n_gates = 0;
            take(s, &s->l1[p]);
            take(s, &s->l2[q]);
            s->sig[n + 1] = s->l2[q].v;
            if (output_over(s, n + 2, n + 1, -1))
                return true;
        }
        for (int q = p + 1; q < s->n1; q++) {
            s->n_gates = 0;
            take(s, &s->l1[p]);
            take(s, &s->l1[q]);
            s->sig[n + 1] = s->l1[q].v;
            if (output_over(s, n + 2, n + 1, n))
                return true;
        }
        /* g2's tables are new per g1: forget them (the set again) */
        reset_seen(s, true);
    }
    return false;
}

int gg_net_enum(const gg_tt *t, int max_gates, gg_net *net, gg_err *err)
{
    if (t->n_inputs > GG_ENUM_MAX_INPUTS || t->n_inputs < 1)
        return 1;
    search *s = gg_alloc(1, sizeof *s, err, "network search");
    if (!s)
        return -1;
    s->n = t->n_inputs;
    s->mask = gg_tt_word_mask(t, 0);
    s->on = t->on[0] & s->mask;
    s->care = t->care[0] & s->mask;
    for (int i = 0; i < s->n; i++)
        s->sig[i] = gg_tt_input_word(i, 0) & s->mask;
    int rc = 1;
    if (find(s, max_gates < 3 ? max_gates : 3)) {
        memset(net, 0, sizeof *net);
        net->n_inputs = s->n;
        net->n_gates = s->n_gates;
        memcpy(net->gate, s->gate, sizeof s->gate);
        net->n_outputs = 1;
        net->out[0] = s->out < 0 ? GG_SIG_CONST0 : (uint16_t)s->out;
        net->out_neg[0] = s->out_neg;
        gg_net_tidy(net);
        uint64_t in[GG_ENUM_MAX_INPUTS], out[GG_NET_MAX_OUTPUTS];
        for (int i = 0; i < s->n; i++)
            in[i] = s->sig[i];
        gg_net_eval64(net, in, out);
        rc = (out[0] ^ s->on) & s->care
                 ? gg_fail(err, "an enumerated network is wrong; a bug in "
                           "gen/circuits/net_enum.c")
                 : 0;
    }
    free(s);
    return rc;
}

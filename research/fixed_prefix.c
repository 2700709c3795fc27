/* Is there a rowsum final stage made of fixed full adders plus k more
 * LUT3s? The adders sum row-sum bits: S = carry and sum of sT sM sB,
 * C = those of cT cM cB, SC = both (4 gates; the 9-cell count is then
 * sumS + 2 (carryS + sumC) + 4 carryC). "i,j,k" is one adder over the
 * front's inputs i, j and k (0-based, in the front's order): with
 * --front rowsum-lr (sT cT L R sB cB C) "0,2,3" sums sT, L and R, the
 * adder that gives Maze and Move 7 gates behind that front (session 19);
 * there S and C still mean inputs 0,2,4 and 1,3,5. The adders' outputs
 * become extra inputs of the final stage's table (rows where they
 * disagree with the other inputs are don't-cares) and exact synthesis
 * looks for k more gates that may read anything. An UNSAT at k rules out
 * every network that contains those adders and k more gates; a SAT gives
 * one with adders + k gates (rewrite it over the 7 inputs and check it
 * with `golgen verify`).
 * research/adder_split.c is the brute-force cousin for SC with the gates
 * reading only the adders and the centre.
 *
 * usage: fixed_prefix [--gate2] [--front F] RULE S|C|SC|i,j,k K [THREADS
 *                     [SECONDS [SHAPE_SECONDS]]]
 * --gate2: the k gates are and/or/xor/andnot (a full adder costs 5 of
 * them: 2 xor, 2 and, 1 or), not LUT3s (2 each).
 * SHAPE_SECONDS: a first pass with that budget per shape, to find a
 * network fast (gg_synth_opts.shape_time_limit).
 * Exit 0: answered (SAT or UNSAT for every k up to K), 1: out of time. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "front.h"
#include "net_text.h"
#include "rule.h"
#include "synth.h"
#include "truth.h"

/* Inputs of the final stage's table (rowsum: sT cT sM cM sB cB C, bits
 * 0..6; rowsum-lr: sT cT L R sB cB C). */
enum { RAW = 7 };

/* The adders: input triples, each giving a carry and a sum. */
typedef struct {
    int n;
    int in[2][3];
} adders;

/* "S", "C", "SC" or "i,j,k"; -1 when which is none of those. */
static int parse_adders(const char *which, adders *a)
{
    int i, j, k;
    char end;
    a->n = 0;
    if (sscanf(which, "%d,%d,%d%c", &i, &j, &k, &end) == 3) {
        if (i < 0 || j < 0 || k < 0 || i >= RAW || j >= RAW || k >= RAW ||
            i == j || j == k || i == k)
            return -1;
        a->in[a->n][0] = i, a->in[a->n][1] = j, a->in[a->n][2] = k;
        a->n++;
        return 0;
    }
    if (strcmp(which, "S") && strcmp(which, "C") && strcmp(which, "SC"))
        return -1;
    for (int c = 0; c < 2; c++)
        if (strchr(which, c ? 'C' : 'S')) {
            for (int b = 0; b < 3; b++)
                a->in[a->n][b] = 2 * b + c;
            a->n++;
        }
    return 0;
}

/* Carry and sum of bits a, b, c of row r. */
static void adder(int r, int a, int b, int c, int *carry, int *sum)
{
    int n = (r >> a & 1) + (r >> b & 1) + (r >> c & 1);
    *carry = n >> 1;
    *sum = n & 1;
}

/* The adders' outputs of raw row r, as bits from 0 on. */
static int adder_bits(int r, const adders *a)
{
    int bits = 0, carry, sum;
    for (int i = 0; i < a->n; i++) {
        adder(r, a->in[i][0], a->in[i][1], a->in[i][2], &carry, &sum);
        bits |= (carry | sum << 1) << 2 * i;
    }
    return bits;
}

/* t with the adders' outputs as inputs RAW.. (2 per adder). */
static void extend(const gg_tt *t, const adders *a, gg_tt *x)
{
    memset(x, 0, sizeof *x);
    x->n_inputs = RAW + 2 * a->n;
    for (int r = 0; r < gg_tt_rows(x); r++) {
        int raw = r & ((1 << RAW) - 1), extra = r >> RAW;
        int care = gg_tt_get(t->care, raw) && extra == adder_bits(raw, a);
        gg_tt_put(x->care, r, care);
        gg_tt_put(x->on, r, care && gg_tt_get(t->on, raw));
    }
}

int main(int argc, char **argv)
{
    gg_lib lib = GG_LIB_LUT3;
    gg_front_kind kind = GG_FRONT_ROWSUM;
    gg_err err;
    for (;;) {
        if (argc > 1 && !strcmp(argv[1], "--gate2"))
            lib = GG_LIB_GATE2, argv++, argc--;
        else if (argc > 2 && !strcmp(argv[1], "--front")) {
            if (gg_front_parse(argv[2], &kind, &err))
                return fprintf(stderr, "fixed_prefix: %s\n", err.msg), 2;
            argv += 2, argc -= 2;
        } else
            break;
    }
    adders a;
    if (argc < 4 || parse_adders(argv[2], &a)) {
        fprintf(stderr, "usage: fixed_prefix [--gate2] [--front F] RULE "
                        "S|C|SC|i,j,k K [THREADS [SECONDS "
                        "[SHAPE_SECONDS]]]\n");
        return 2;
    }
    if (kind != GG_FRONT_ROWSUM && kind != GG_FRONT_ROWSUM_LR)
        return fprintf(stderr, "fixed_prefix: the front must have 7 "
                               "inputs: rowsum or rowsum-lr\n"), 2;
    const char *which = argv[2];
    gg_synth_opts o = {.lib = lib, .k_min = 1, .k_max = atoi(argv[3]),
                       .threads = argc > 4 ? atoi(argv[4]) : 2,
                       .time_limit = argc > 5 ? atof(argv[5]) : 0,
                       .shape_time_limit = argc > 6 ? atof(argv[6]) : 0,
                       .progress = true};
    gg_rule rule;
    gg_front front;
    static gg_tt t, x;
    if (o.k_max < 1 || o.k_max > GG_ENC_MAX_GATES)
        return fprintf(stderr, "fixed_prefix: K must be 1 .. %d\n",
                       GG_ENC_MAX_GATES), 2;
    if (gg_rule_parse(argv[1], &rule, &err) ||
        gg_front_build(&rule, kind, &front, &err) ||
        gg_front_final_tt(&rule, &front, &t, &err)) {
        fprintf(stderr, "fixed_prefix: %s\n", err.msg);
        return 2;
    }
    extend(&t, &a, &x);
    static gg_synth_result res;
    if (gg_synth_run(&x, &o, &res, &err)) {
        fprintf(stderr, "fixed_prefix: %s\n", err.msg);
        return 2;
    }
    bool answered = true;
    for (int i = 0; i < res.n_k; i++) {
        const gg_synth_k *k = &res.per_k[i];
        printf("%s + %d gates: %s (%d of %d shapes, %.2f s, %llu conflicts)\n",
               which, k->k,
               k->status == GG_SYNTH_SAT     ? "SAT"
               : k->status == GG_SYNTH_UNSAT ? "UNSAT"
                                             : "unknown",
               k->shapes, k->shapes_total, k->seconds,
               (unsigned long long)k->conflicts);
        /* A first pass's unknown is settled by the second pass's entry
         * for the same k, which follows it. */
        bool settled_later = i + 1 < res.n_k && res.per_k[i + 1].k == k->k;
        answered &= k->status != GG_SYNTH_UNKNOWN || settled_later;
    }
    if (res.exact && res.gates <= o.k_max) {
        static char names[RAW + 4][GG_NET_NAME_MAX] = {
            [RAW] = "a0", "a1", "a2", "a3"};
        for (int i = 0; i < RAW; i++)
            snprintf(names[i], sizeof names[i], "%s", front.names[i]);
        printf("a0 a1 (a2 a3): the adders' carry and sum, %s\n", which);
        gg_net_write_text(stdout, &res.net, names);
    }
    return answered ? 0 : 1;
}

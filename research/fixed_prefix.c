/* Is there a rowsum final stage made of fixed full adders plus k more
 * LUT3s? The adders sum row-sum bits: S = carry and sum of sT sM sB,
 * C = those of cT cM cB, SC = both (4 gates; the 9-cell count is then
 * sumS + 2 (carryS + sumC) + 4 carryC). Their outputs become extra inputs
 * of the final stage's table (rows where they disagree with the other
 * inputs are don't-cares) and exact synthesis looks for k more gates that
 * may read anything. An UNSAT at k rules out every network that contains
 * those adders and k more gates; a SAT gives one with adders + k gates
 * (rewrite it over the 7 inputs and check it with `golgen verify`).
 * research/adder_split.c is the brute-force cousin for SC with the gates
 * reading only the adders and the centre.
 *
 * usage: fixed_prefix [--gate2] RULE S|C|SC K [THREADS [SECONDS
 *                     [SHAPE_SECONDS]]]
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

/* Inputs of the rowsum table: sT cT sM cM sB cB C (bits 0..6). */
enum { RAW = 7 };

/* Carry and sum of bits a, b, c of row r. */
static void adder(int r, int a, int b, int c, int *carry, int *sum)
{
    int n = (r >> a & 1) + (r >> b & 1) + (r >> c & 1);
    *carry = n >> 1;
    *sum = n & 1;
}

/* The adders' outputs of raw row r, as bits from 0 on; returns how many. */
static int adder_bits(int r, const char *which)
{
    int bits = 0, n = 0, carry, sum;
    if (strchr(which, 'S')) {
        adder(r, 0, 2, 4, &carry, &sum);
        bits |= (carry | sum << 1) << n;
        n += 2;
    }
    if (strchr(which, 'C')) {
        adder(r, 1, 3, 5, &carry, &sum);
        bits |= (carry | sum << 1) << n;
    }
    return bits;
}

/* t with the adders' outputs as inputs RAW.. (n_extra of them). */
static void extend(const gg_tt *t, const char *which, int n_extra, gg_tt *x)
{
    memset(x, 0, sizeof *x);
    x->n_inputs = RAW + n_extra;
    for (int r = 0; r < gg_tt_rows(x); r++) {
        int raw = r & ((1 << RAW) - 1), extra = r >> RAW;
        int care = gg_tt_get(t->care, raw) && extra == adder_bits(raw, which);
        gg_tt_put(x->care, r, care);
        gg_tt_put(x->on, r, care && gg_tt_get(t->on, raw));
    }
}

int main(int argc, char **argv)
{
    gg_lib lib = GG_LIB_LUT3;
    if (argc > 1 && !strcmp(argv[1], "--gate2"))
        lib = GG_LIB_GATE2, argv++, argc--;
    if (argc < 4 || (strcmp(argv[2], "S") && strcmp(argv[2], "C") &&
                     strcmp(argv[2], "SC"))) {
        fprintf(stderr, "usage: fixed_prefix [--gate2] RULE S|C|SC K "
                        "[THREADS [SECONDS [SHAPE_SECONDS]]]\n");
        return 2;
    }
    const char *which = argv[2];
    int n_extra = 2 * (int)strlen(which);
    gg_synth_opts o = {.lib = lib, .k_min = 1, .k_max = atoi(argv[3]),
                       .threads = argc > 4 ? atoi(argv[4]) : 2,
                       .time_limit = argc > 5 ? atof(argv[5]) : 0,
                       .shape_time_limit = argc > 6 ? atof(argv[6]) : 0,
                       .progress = true};
    gg_rule rule;
    gg_front front;
    static gg_tt t, x;
    gg_err err;
    if (o.k_max < 1 || o.k_max > GG_ENC_MAX_GATES)
        return fprintf(stderr, "fixed_prefix: K must be 1 .. %d\n",
                       GG_ENC_MAX_GATES), 2;
    if (gg_rule_parse(argv[1], &rule, &err) ||
        gg_front_build(&rule, GG_FRONT_ROWSUM, &front, &err) ||
        gg_front_final_tt(&rule, &front, &t, &err)) {
        fprintf(stderr, "fixed_prefix: %s\n", err.msg);
        return 2;
    }
    extend(&t, which, n_extra, &x);
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
        answered &= k->status != GG_SYNTH_UNKNOWN;
    }
    if (res.exact && res.gates <= o.k_max) {
        static const char names[RAW + 4][GG_NET_NAME_MAX] = {
            "sT", "cT", "sM", "cM", "sB", "cB", "C", "a0", "a1", "a2", "a3"};
        printf("a0 a1 (a2 a3): the adders' carry and sum, %s\n", which);
        gg_net_write_text(stdout, &res.net, names);
    }
    return answered ? 0 : 1;
}

/* Can two output rows share three gates of the rowsum final stage, with
 * a final network of three gates per row (9 lop3 per pair of rows, 6.5
 * per 32-cell word with the 2-lop3 row sum, against 8 today)?
 *
 * Row y's final reads the row sums of rows y-1, y, y+1 (T, M, B) and its
 * centre; rows y and y+1 can share only gates over the rows they both
 * read, M and B. So sharing three gates needs a network for row y whose
 * first three gates read only sM, cM, sB, cB (and each other; with
 * PREFIX_C=1 also the centre, a cell of row M) followed by three gates
 * that read anything: six gates, the proven minimum of the final stage.
 * This program asks exact synthesis for exactly that (k = 6, the three
 * gates' other inputs forbidden; free topology, since the shape list's
 * one numbering per isomorphism class need not put those gates first).
 * UNSAT answers the question for every sharing scheme of three gates
 * (swap-closed or not); SAT prints the network, whose prefix must then
 * also be closed under the swap of M and B to serve row y+1.
 *
 * usage: prefix_share RULE [THREADS [SECONDS]]
 *   PREFIX_CELLS=1 adds C_B and asks for a swap-closed shared set;
 *   with PREFIX_ENUM=1 as well it enumerates the shared sets instead (no
 *   closure; see enum_search), with PREFIX_CLOSED=0 it drops the
 *   closure (row y alone). PREFIX_PAIR=1: both rows in one CNF.
 *   PREFIX_FORBID=hex sets the forbidden inputs instead (bit i = input i
 *   of sT cT sM cM sB cB C); 0x62 is a control that the cached Life
 *   network meets. PREFIX_GATES=p, PREFIX_FINAL=f: p shared gates and f
 *   after them (default 3 and 3; 4 and 3 would be 10 per pair, 7 per
 *   word). Exit 0 on UNSAT. */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "front.h"
#include "cegar.h"
#include "cms.h"
#include "encode.h"
#include "kjob.h"
#include "net_text.h"
#include "rule.h"
#include "synth.h"
#include "truth.h"

/* The 8-input table's inputs sT cT sM cM sB cB C C_B with rows y and
 * y+1 traded (sM sB, cM cB, C C_B). */
static const int row_swap[8] = {0, 1, 4, 5, 2, 3, 7, 6};

/* Row r with its n input bits moved by swap. */
static int swapped(int r, const int *swap, int n)
{
    int t = 0;
    for (int b = 0; b < n; b++)
        t |= (r >> b & 1) << swap[b];
    return t;
}

/* A row's centre c can go with its 3-sum: a live centre needs a sum of
 * at least 1, a dead one at most 2. */
static bool centre_fits(int sum, int c)
{
    return c ? sum >= 1 : sum <= 2;
}

/* Gate g of n on input row r (LUT3 networks). */
static int gate_value(const gg_net *n, int g, int r)
{
    int v[3] = {0, 0, 0};
    for (int i = 0; i < 3; i++) {
        int src = n->gate[g].in[i];
        v[i] = src < n->n_inputs ? r >> src & 1
                                 : gate_value(n, src - n->n_inputs, r);
    }
    return n->gate[g].lut >> (v[0] << 2 | v[1] << 1 | v[2]) & 1;
}

/* The solver's closure claim, checked apart from it: each of gates
 * 0 .. np-1 equals some gate of the set on the swapped row, or its
 * complement, on every care row. */
static bool closed(const gg_net *n, const gg_tt *t, const int *swap, int np)
{
    for (int i = 0; i < np; i++) {
        bool found = false;
        for (int j = 0; j < np && !found; j++)
            for (int c = 0; c < 2 && !found; c++) {
                bool same = true;
                for (int r = 0; r < gg_tt_rows(t) && same; r++) {
                    if (!gg_tt_get(t->care, r))
                        continue;
                    int r2 = swapped(r, swap, t->n_inputs);
                    same = gate_value(n, j, r2) == (gate_value(n, i, r) ^ c);
                }
                found = same;
            }
        if (!found)
            return false;
    }
    return true;
}

/* The rule's next state for a live-cell count n that includes the
 * centre. */
static int next_state(const gg_rule *rule, int n, int centre)
{
    return centre ? rule->survive >> (n - 1) & 1 : rule->birth >> n & 1;
}

/* PREFIX_PAIR=1: the whole pair at once. Inputs sT cT sM cM sB cB CM CB
 * sN cN (rows y-1 .. y+2, the centres of rows y and y+1); gates 0 .. p-1
 * are shared (rows y and y+1 only), gates p .. p+f-1 end in row y's
 * output (not reading row y+2), the last f gates in row y+1's (not
 * reading row y-1 or row y's final gates). No closure or mirror is
 * assumed: any shared set that serves both rows. */
static int pair_search(const gg_rule *rule, int np, int nf, int threads,
                       double limit)
{
    enum { sT, cT, sM, cM, sB, cB, CM, CB, sN, cN, N_IN };
    static gg_tt f, f2;
    memset(&f, 0, sizeof f);
    f.n_inputs = f2.n_inputs = N_IN;
    for (int r = 0; r < 1 << N_IN; r++) {
        int st = (r >> sT & 1) + 2 * (r >> cT & 1);
        int sm = (r >> sM & 1) + 2 * (r >> cM & 1);
        int sb = (r >> sB & 1) + 2 * (r >> cB & 1);
        int sn = (r >> sN & 1) + 2 * (r >> cN & 1);
        int cm = r >> CM & 1, cb = r >> CB & 1;
        if (!centre_fits(sm, cm) || !centre_fits(sb, cb))
            continue;
        int y = next_state(rule, st + sm + sb, cm);
        int y1 = next_state(rule, sm + sb + sn, cb);
        gg_tt_put(f.care, r, 1);
        gg_tt_put(f2.care, r, 1);
        gg_tt_put(f.on, r, y1); /* the last gate: row y+1 */
        gg_tt_put(f2.on, r, y);
    }
    int k = np + 2 * nf, out_y = np + nf - 1;
    uint32_t forbid[GG_ENC_MAX_GATES] = {0};
    for (int g = 0; g < k; g++) {
        if (g < np)
            forbid[g] = 1u << sT | 1u << cT | 1u << sN | 1u << cN;
        else if (g <= out_y)
            forbid[g] = 1u << sN | 1u << cN;
        else {
            forbid[g] = 1u << sT | 1u << cT;
            for (int j = np; j <= out_y; j++)
                forbid[g] |= 1u << (N_IN + j);
        }
    }
    gg_kjob_in in = {.f = &f, .lib = GG_LIB_LUT3, .k = k,
                     .lim = {.forbid = forbid, .f2 = &f2, .out2 = out_y,
                             .order_groups = !getenv("PREFIX_NO_ORDER")},
                     .threads = threads,
                     .init_rows = 1 << N_IN,
                     .deadline = limit > 0 ? gg_kjob_now() + limit : 0,
                     .progress = true};
    gg_synth_k st;
    static gg_net net;
    gg_err err;
    if (gg_kjob_run(&in, &net, &st, NULL, NULL, &err)) {
        fprintf(stderr, "prefix_share: %s\n", err.msg);
        return 2;
    }
    const char *what = st.status == GG_SYNTH_UNSAT ? "UNSAT"
                       : st.status == GG_SYNTH_SAT ? "SAT"
                                                   : "UNKNOWN";
    printf("pair of rows, %d shared gates and %d + %d: %s, %.1f s, %llu "
           "conflicts\n", np, nf, nf, what, st.seconds,
           (unsigned long long)st.conflicts);
    if (st.status == GG_SYNTH_SAT) {
        static const char names[N_IN][GG_NET_NAME_MAX] = {
            "sT", "cT", "sM", "cM", "sB", "cB", "CM", "CB", "sN", "cN"};
        gg_net_write_text(stdout, &net, names);
        /* both outputs on every care row, apart from the solver (row
         * y's gate up to complement: its polarity is not decoded) */
        int bad1 = 0, bad0[2] = {0, 0};
        for (int r = 0; r < 1 << N_IN; r++) {
            if (!gg_tt_get(f.care, r))
                continue;
            bad1 += (gate_value(&net, k - 1, r) ^ net.out_neg[0]) !=
                    gg_tt_get(f.on, r);
            for (int c = 0; c < 2; c++)
                bad0[c] += (gate_value(&net, out_y, r) ^ c) !=
                           gg_tt_get(f2.on, r);
        }
        printf("check: row y (gate %d) %s, row y+1 (gate %d) %s\n", out_y,
               bad0[0] && bad0[1] ? "WRONG" : "right", k - 1,
               bad1 ? "WRONG" : "right");
    }
    return st.status == GG_SYNTH_UNSAT ? 0 : 1;
}

/* The 36 consistent values of rows y and y+1 (sM cM CM sB cB CB) as
 * 8-input rows with sT = cT = 0: the shared gates' whole domain. */
static int mb_rows(const gg_tt *t8, int *rows)
{
    int n = 0;
    for (int r = 0; r < 256; r += 4)
        if (gg_tt_get(t8->care, r))
            rows[n++] = r;
    return n;
}

/* Whether three shared signals h (values on the rows of mb_rows) can
 * start row y's network: a final of at most 3 LUTs over the 8 inputs
 * and h exists. */
static bool valid_prefix(const gg_tt *t8, const int *rows, int nrow,
                         const uint64_t h[3], int threads)
{
    static gg_tt t;
    memset(&t, 0, sizeof t);
    t.n_inputs = 11;
    for (int r = 0; r < 1 << 11; r++) {
        int base = r & 255, mb = base & ~3, j = 0;
        if (!gg_tt_get(t8->care, base))
            continue;
        while (j < nrow && rows[j] != mb)
            j++;
        int ok = 1;
        for (int i = 0; i < 3; i++)
            ok &= (int)(h[i] >> j & 1) == (r >> (8 + i) & 1);
        gg_tt_put(t.care, r, ok);
        gg_tt_put(t.on, r, ok && gg_tt_get(t8->on, base));
    }
    static gg_synth_result res;
    gg_synth_opts o = {.lib = GG_LIB_LUT3, .k_max = 3, .threads = threads};
    gg_err err;
    return gg_synth_run(&t, &o, &res, &err) == 0 &&
           gg_synth_cost(&res.net, GG_LIB_LUT3) <= 3;
}

/* PREFIX_ENUM=1: every set S of three shared gates (over rows y and y+1,
 * centres included) that starts some 6-LUT network of row y, one by one
 * (each found set is excluded, in every order and polarity, and the
 * solver goes on); for each, whether the mirror image of S, which is
 * what row y+1's network would present to a mirrored row y, can start
 * one too. Both is a pair of rows in 3 + 3 + 3 = 9 LUTs. The solver
 * running out of sets is the proof that none exists. */
static int enum_search(const gg_tt *t8, int threads, double limit)
{
    static const int perm[6][3] = {{0, 1, 2}, {0, 2, 1}, {1, 0, 2},
                                   {1, 2, 0}, {2, 0, 1}, {2, 1, 0}};
    int rows[64], nrow = mb_rows(t8, rows), mirror[64];
    for (int j = 0; j < nrow; j++) {
        int r2 = swapped(rows[j], row_swap, 8);
        mirror[j] = 0;
        while (rows[mirror[j]] != r2)
            mirror[j]++;
    }
    uint32_t off = 1u << 0 | 1u << 1;
    uint32_t forbid[GG_ENC_MAX_GATES] = {off, off, off};
    gg_enc_spec spec = {.f = t8, .lib = GG_LIB_LUT3, .k = 6,
                        .lim.forbid = forbid};
    gg_sat *s = gg_sat_new();
    gg_err err;
    if (s) /* before any variable */
        gg_sat_set_threads(s, threads);
    gg_enc *e = s ? gg_enc_new(&spec, s, &err) : NULL;
    if (!e) {
        fprintf(stderr, "prefix_share: no solver\n");
        return 2;
    }
    /* the shared gates' domain up front (the exclusions read it), the
     * rest of the table by counterexamples */
    for (int j = 0; j < nrow; j++)
        gg_enc_add_row(e, rows[j]);
    double t0 = gg_kjob_now();
    static gg_net net;
    int sets = 0, found = 0;
    for (;;) {
        gg_synth_status sr = gg_cegar_solve(e, s, t8, 64,
                                            limit > 0 ? t0 + limit : 0, &net);
        if (sr != GG_SYNTH_SAT) {
            printf("%s after %d sets, %.1f s: %s\n",
                   sr == GG_SYNTH_UNSAT ? "no more sets" : "out of time", sets,
                   gg_kjob_now() - t0,
                   found ? "a pair of rows in 9 LUTs exists"
                   : sr == GG_SYNTH_UNSAT ? "no pair of rows in 3 + 3 + 3"
                                          : "open");
            return sr == GG_SYNTH_UNSAT && !found ? 0 : 1;
        }
        uint64_t h[3] = {0, 0, 0}, hm[3] = {0, 0, 0};
        for (int i = 0; i < 3; i++)
            for (int j = 0; j < nrow; j++)
                h[i] |= (uint64_t)gg_sat_value(
                            s, gg_enc_gate_lit(e, i, rows[j])) << j;
        for (int i = 0; i < 3; i++)
            for (int j = 0; j < nrow; j++)
                hm[i] |= (h[i] >> mirror[j] & 1) << j;
        sets++;
        if (valid_prefix(t8, rows, nrow, hm, 1)) {
            found++;
            printf("FOUND: shared %llx %llx %llx (on the %d (M, B) rows)\n",
                   (unsigned long long)h[0], (unsigned long long)h[1],
                   (unsigned long long)h[2], nrow);
        }
        if (sets % 50 == 0)
            fprintf(stderr, "  %d sets, %.1f s\n", sets, gg_kjob_now() - t0);
        /* exclude S in every gate order and polarity */
        int lits[3 * 64];
        for (int q = 0; q < 6; q++)
            for (int c = 0; c < 8; c++) {
                int n = 0;
                for (int i = 0; i < 3; i++)
                    for (int j = 0; j < nrow; j++) {
                        int v = (int)(h[i] >> j & 1) ^ (c >> i & 1);
                        int x = gg_enc_gate_lit(e, perm[q][i], rows[j]);
                        lits[n++] = v ? -x : x;
                    }
                gg_sat_clause(s, lits, n);
            }
    }
}

int main(int argc, char **argv)
{
    const char *rule_text = argc > 1 ? argv[1] : "B3/S23";
    int threads = argc > 2 ? atoi(argv[2]) : 2;
    double limit = argc > 3 ? atof(argv[3]) : 0;
    gg_rule rule;
    gg_front front;
    gg_tt t;
    gg_err err;
    if (gg_rule_parse(rule_text, &rule, &err) ||
        gg_front_build(&rule, GG_FRONT_ROWSUM, &front, &err) ||
        gg_front_final_tt(&rule, &front, &t, &err)) {
        fprintf(stderr, "prefix_share: %s\n", err.msg);
        return 2;
    }
    /* PREFIX_CELLS=1: an eighth input, C_B, the centre cell of row B
     * (consistent with sB, cB); the shared gates may read both centres,
     * and must form a set closed under the swap of M and B (sM sB, cM cB,
     * C C_B) up to complement, so that the mirror network of row y+1
     * finds them. */
    const char *pcells = getenv("PREFIX_CELLS");
    bool cells = pcells && atoi(pcells);
    if (cells) {
        gg_tt t8;
        memset(&t8, 0, sizeof t8);
        t8.n_inputs = 8;
        for (int r = 0; r < 256; r++) {
            int sb = (r >> 4 & 1) + 2 * (r >> 5 & 1), cb = r >> 7 & 1;
            int ok = gg_tt_get(t.care, r & 127) && centre_fits(sb, cb);
            gg_tt_put(t8.care, r, ok);
            gg_tt_put(t8.on, r, ok && gg_tt_get(t.on, r & 127));
        }
        t = t8;
    }
    /* PREFIX_CLOSED=0 (with PREFIX_CELLS): no closure, one row only */
    const char *pcl = getenv("PREFIX_CLOSED");
    bool closed_set = !pcl || atoi(pcl);
    const char *penum = getenv("PREFIX_ENUM");
    if (cells && penum && atoi(penum))
        return enum_search(&t, threads, limit);
    /* inputs sT cT sM cM sB cB C (C_B) = 0 .. 6 (7) */
    const char *pc = getenv("PREFIX_C"), *pf = getenv("PREFIX_FORBID");
    uint32_t off = 1u << 0 | 1u << 1 | (cells || (pc && atoi(pc)) ? 0 : 1u << 6);
    if (pf) /* a control: the cached Life network fits 0x62 (cT cB C) */
        off = (uint32_t)strtoul(pf, NULL, 16);
    const char *ppair = getenv("PREFIX_PAIR");
    if (ppair && atoi(ppair)) {
        const char *pg = getenv("PREFIX_GATES"), *pl = getenv("PREFIX_FINAL");
        return pair_search(&rule, pg ? atoi(pg) : 3, pl ? atoi(pl) : 3,
                           threads, limit);
    }
    /* PREFIX_GATES=p shared gates and PREFIX_FINAL=f after them */
    const char *pg = getenv("PREFIX_GATES"), *pl = getenv("PREFIX_FINAL");
    int np = pg ? atoi(pg) : 3, nf = pl ? atoi(pl) : 3, k = np + nf;
    if (np < 1 || nf < 1 || k > GG_ENC_MAX_GATES) {
        fprintf(stderr, "prefix_share: bad PREFIX_GATES/PREFIX_FINAL\n");
        return 2;
    }
    uint32_t forbid[GG_ENC_MAX_GATES] = {0};
    for (int g = 0; g < np; g++)
        forbid[g] = off;
    gg_synth_opts o = {.lib = GG_LIB_LUT3, .k_min = k, .k_max = k,
                       .threads = threads, .time_limit = limit,
                       .shape_max_k = k - 1, .no_symmetry = true,
                       .progress = true,
                       .lim = {.forbid = forbid,
                               .order_groups = !getenv("PREFIX_NO_ORDER"),
                               .swap = cells && closed_set ? row_swap : NULL,
                               .n_closed = np},
                       .init_rows = cells ? 256 : 0};
    static gg_synth_result res;
    if (gg_synth_run(&t, &o, &res, &err)) {
        fprintf(stderr, "prefix_share: %s\n", err.msg);
        return 2;
    }
    const gg_synth_k *k6 = res.n_k ? &res.per_k[0] : NULL; /* k = p + f */
    const char *st = !k6                             ? "not run"
                     : k6->status == GG_SYNTH_UNSAT  ? "UNSAT"
                     : k6->status == GG_SYNTH_SAT    ? "SAT"
                                                     : "UNKNOWN";
    printf("%s prefix of %d gates reading no input of mask 0x%02x, then %d: "
           "%s, %.1f s, %llu conflicts\n", rule_text, np, (unsigned)off, nf,
           st,
           k6 ? k6->seconds : 0.0,
           (unsigned long long)(k6 ? k6->conflicts : 0));
    if (k6 && k6->status == GG_SYNTH_SAT) {
        static const char names[8][GG_NET_NAME_MAX] = {
            "sT", "cT", "sM", "cM", "sB", "cB", "C", "CB"};
        gg_net_write_text(stdout, &res.net, names);
        if (cells && closed_set)
            printf("shared gates closed under the swap on every care row: "
                   "%s\n", closed(&res.net, &t, row_swap, np) ? "yes" : "NO");
    }
    return k6 && k6->status == GG_SYNTH_UNSAT ? 0 : 1;
}

/* Can two output rows share gates of the rowsum final stage?
 *
 * Output row y reads the row sums of rows y-1, y, y+1 (T, M, B) and its
 * centre; row y+1 reads M, B, N. The final function f is symmetric in
 * its top and bottom rows, so row y+1 is f(N, B, M, C_B): the same
 * network with T -> N and the roles of M and B swapped. Gates over the
 * M and B row sums alone, as a set closed under that swap, can serve
 * both rows. With s shared gates and a final network of F gates per row
 * a pair of rows costs s + 2F lop3; today 2 * 6 = 12 (8 per 32-cell word
 * with the 2-lop3 row sum), and s = 2, F = 4 would make it 7 per word.
 *
 * This program takes each candidate set of s = 2 shared gates (two
 * swap-symmetric gates, the second may read the first, or a gate over
 * three of the four pair inputs with its mirror image) and asks golgen's
 * exact synthesis for a final network of at most KMAX gates over the
 * seven inputs plus the two shared signals (rows where a shared signal
 * disagrees with its definition are don't-cares). Up to complement
 * (a LUT absorbs it) that is 880 candidates for Life.
 *
 * PAIR_SHARE_THREADS=n gives each candidate's search n solver threads
 * (default 1: one process per core). With PAIR_SHARE_ONE=1 it tries one
 * shared gate instead (s = 1: the six swap-symmetric gates and, or, xor
 * over (sM, sB) or (cM, cB)); a final stage of 5 would then cost 11 per
 * pair of rows, 7.5 lop3 per word.
 *
 * usage: pair_share RULE KMAX ID NPROC [SKIP_FILE]
 *   processes ID = 0 .. NPROC-1 deal the candidates round-robin; lines
 *   "done #N ..." of SKIP_FILE (an earlier run's output) are not retried.
 * Prints "FOUND ..." with the network for every candidate that works and
 * "done #N ..." after each candidate. research/pair_share.sh runs it. */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "front.h"
#include "rule.h"
#include "synth.h"
#include "truth.h"

#define MAX_CAND 1024

/* A shared gate: LUT imm over three signals of the 7-input row (sT cT sM
 * cM sB cB C = 0..6), or -1 for the first shared gate's value. */
typedef struct shared {
    int imm, src[3];
} shared;

typedef struct cand {
    shared g[2];
    int n; /* shared gates: 1 or 2 */
} cand;

static int lut(int imm, int a, int b, int c)
{
    return imm >> (a << 2 | b << 1 | c) & 1;
}

static int eval(const shared *g, int row, int first)
{
    int v[3];
    for (int s = 0; s < 3; s++)
        v[s] = g->src[s] < 0 ? first : (row >> g->src[s] & 1);
    return lut(g->imm, v[0], v[1], v[2]);
}

/* f over the 7 inputs and the shared signals (inputs 7 and 8). */
static void extend(const gg_tt *base, const cand *c, gg_tt *t)
{
    memset(t, 0, sizeof *t);
    t->n_inputs = 7 + c->n;
    for (int r = 0; r < 1 << t->n_inputs; r++) {
        int b = r & 127;
        if (!gg_tt_get(base->care, b))
            continue;
        int g0 = eval(&c->g[0], b, 0), g1 = eval(&c->g[1], b, g0);
        if ((r >> 7 & 1) != g0 || (c->n > 1 && (r >> 8 & 1) != g1))
            continue;
        t->care[r >> 6] |= 1ull << (r & 63);
        if (gg_tt_get(base->on, b))
            t->on[r >> 6] |= 1ull << (r & 63);
    }
}

static int list(cand *cs, bool one)
{
    static const int swap[7] = {0, 1, 4, 5, 2, 3, 6}; /* M <-> B */
    static const int pairs[2][2] = {{2, 4}, {3, 5}};  /* (sM sB) (cM cB) */
    static const int sym2[3] = {0x88, 0xee, 0x66};    /* and, or, xor */
    int n = 0;
    if (one) {
        for (int p0 = 0; p0 < 2; p0++)
            for (int f0 = 0; f0 < 3; f0++) {
                cs[n].g[0] = (shared){sym2[f0], {pairs[p0][0],
                                      pairs[p0][0], pairs[p0][1]}};
                cs[n].g[1] = cs[n].g[0];
                cs[n++].n = 1;
            }
        return n;
    }
    /* a symmetric gate over a pair, then one over (it, a pair) that is
     * symmetric in the pair */
    for (int p0 = 0; p0 < 2; p0++)
        for (int f0 = 0; f0 < 3; f0++)
            for (int p1 = 0; p1 < 2; p1++)
                for (int imm = 1; imm < 128; imm++) {
                    if (lut(imm, 0, 0, 1) != lut(imm, 0, 1, 0) ||
                        lut(imm, 1, 0, 1) != lut(imm, 1, 1, 0))
                        continue;
                    cs[n].g[0] = (shared){sym2[f0], {pairs[p0][0],
                                          pairs[p0][0], pairs[p0][1]}};
                    cs[n].g[1] = (shared){imm, {-1, pairs[p1][0],
                                          pairs[p1][1]}};
                    cs[n++].n = 2;
                }
    /* a gate over three of sM cM sB cB and its mirror image */
    for (int drop = 2; drop <= 5; drop++) {
        int s[3], m = 0;
        for (int i = 2; i <= 5; i++)
            if (i != drop)
                s[m++] = i;
        for (int imm = 1; imm < 128; imm++) {
            cs[n].g[0] = (shared){imm, {s[0], s[1], s[2]}};
            cs[n].g[1] = (shared){imm, {swap[s[0]], swap[s[1]], swap[s[2]]}};
            cs[n++].n = 2;
        }
    }
    return n;
}

static void label(const cand *c, int i, char *buf, size_t size)
{
    int n = snprintf(buf, size, "#%d g0 0x%02x(%d,%d,%d)", i, c->g[0].imm,
                     c->g[0].src[0], c->g[0].src[1], c->g[0].src[2]);
    if (c->n > 1 && n > 0 && (size_t)n < size)
        snprintf(buf + n, size - (size_t)n, " g1 0x%02x(%d,%d,%d)",
                 c->g[1].imm, c->g[1].src[0], c->g[1].src[1],
                 c->g[1].src[2]);
}

int main(int argc, char **argv)
{
    if (argc < 5) {
        fprintf(stderr, "usage: pair_share RULE KMAX ID NPROC [SKIP_FILE]\n");
        return 2;
    }
    int kmax = atoi(argv[2]), id = atoi(argv[3]), np = atoi(argv[4]);
    gg_rule rule;
    gg_front front;
    gg_tt base, t;
    gg_err err;
    if (gg_rule_parse(argv[1], &rule, &err) ||
        gg_front_build(&rule, GG_FRONT_ROWSUM, &front, &err) ||
        gg_front_final_tt(&rule, &front, &base, &err)) {
        fprintf(stderr, "pair_share: %s\n", err.msg);
        return 2;
    }
    if (kmax < 1 || np < 1 || id < 0 || id >= np) {
        fprintf(stderr, "pair_share: need KMAX >= 1 and 0 <= ID < NPROC\n");
        return 2;
    }
    static cand cs[MAX_CAND];
    static char skip[MAX_CAND];
    const char *one = getenv("PAIR_SHARE_ONE");
    int nc = list(cs, one && *one == '1');
    FILE *f = argc > 5 ? fopen(argv[5], "r") : NULL;
    char line[512];
    while (f && fgets(line, sizeof line, f)) {
        int c;
        if (sscanf(line, "done #%d", &c) == 1 && c >= 0 && c < nc)
            skip[c] = 1;
    }
    if (f)
        fclose(f);
    static gg_synth_result res;
    int k = 0, found = 0;
    for (int c = 0; c < nc; c++) {
        if (skip[c] || k++ % np != id)
            continue;
        char lab[128];
        label(&cs[c], c, lab, sizeof lab);
        extend(&base, &cs[c], &t);
        const char *th = getenv("PAIR_SHARE_THREADS");
        gg_synth_opts o = {.lib = GG_LIB_LUT3, .k_max = kmax,
                           .threads = th ? atoi(th) : 1};
        if (gg_synth_run(&t, &o, &res, &err)) {
            fprintf(stderr, "pair_share: %s\n", err.msg);
            return 3;
        }
        if (res.gates <= kmax) {
            found++;
            printf("FOUND %s: final stage of %d gates, %d per pair of rows\n",
                   lab, res.gates, cs[c].n + 2 * res.gates);
            for (int i = 0; i < res.net.n_gates; i++) {
                const gg_gate *g = &res.net.gate[i];
                printf("  g%d = lut3 0x%02x %d %d %d\n", i + 7 + cs[c].n, g->lut,
                       g->in[0], g->in[1], g->in[2]);
            }
        }
        printf("done %s\n", lab);
        fflush(stdout);
    }
    return found ? 0 : 1;
}

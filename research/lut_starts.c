/* Many LUT networks as gate2 skeletons: does another lut3 network of the
 * same or one more gate map to fewer and/or/xor/andnot gates than the
 * cached one?
 *
 * `golgen synth --lib gate2` maps one lut3 network (the cache's) to gate2
 * and shrinks it by windows; the result depends on that skeleton. This
 * lists lut3 networks of k gates shape by shape (each shape's models
 * enumerated up to a count, every model excluded by the tuple of its gate
 * functions), maps each one and resynthesizes it briefly, and prints the
 * best gate2 network found and how the counts fall.
 *
 * usage: lut_starts RULE K [PER_SHAPE_MODELS [SECONDS [STRIDE [OFFSET]]]]
 * (defaults 8 models, 120 s, every shape, from shape 0); STRIDE 0: one
 * free-topology CNF instead of shapes, enumerated for SECONDS. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cms.h"
#include "encode.h"
#include "front.h"
#include "kjob.h"
#include "lut_map.h"
#include "net_text.h"
#include "resynth.h"
#include "rule.h"
#include "symm.h"

#define MAX_COUNT 64
#define ND_CAP 4096

/* f's non-decomposable input pairs (sat/exact/symm.h): they prune most shapes
 * in milliseconds, as in the search itself. */
static unsigned nd[ND_CAP][2], nd4[ND_CAP][2];
static int n_nd, n_nd4;

typedef struct tally {
    int hist[MAX_COUNT];
    int models;
    gg_net best;
    int best_gates;
} tally;

/* Excludes the model's tuple of gate functions on every care row. */
static void exclude(gg_sat *s, const gg_enc *e, const gg_tt *f, int k)
{
    static int lits[GG_ENC_MAX_GATES * (64 * GG_TT_WORDS)];
    int n = 0;
    for (int i = 0; i < k; i++)
        for (int r = 0; r < gg_tt_rows(f); r++) {
            if (!gg_tt_get(f->care, r))
                continue;
            int x = gg_enc_gate_lit(e, i, r);
            lits[n++] = gg_sat_value(s, x) ? -x : x;
        }
    gg_sat_clause(s, lits, n);
}

/* One LUT network mapped and shrunk; counts it in t. */
static void score(const gg_net *lut, const gg_tt *f, tally *t)
{
    gg_net g2;
    gg_err err;
    if (gg_lut3_to_gate2(lut, f, &g2, &err)) {
        fprintf(stderr, "lut_starts: map: %s\n", err.msg);
        exit(1);
    }
    gg_resynth_opts o = {.lib = GG_LIB_GATE2, .window_seconds = 0.5,
                         .time_limit = 5, .no_pairs = false};
    if (gg_resynth(&g2, f, &o, &err) < 0) {
        fprintf(stderr, "lut_starts: resynth: %s\n", err.msg);
        exit(1);
    }
    if (gg_net_check(&g2, 0, f, NULL)) {
        fprintf(stderr, "lut_starts: a mapped network is wrong\n");
        exit(1);
    }
    int g = g2.n_gates + (g2.out_neg[0] ? 1 : 0);
    t->hist[g < MAX_COUNT ? g : MAX_COUNT - 1]++;
    t->models++;
    if (g < t->best_gates) {
        t->best_gates = g;
        t->best = g2;
        printf("new best: %d gate2 gates (model %d)\n", g, t->models);
        gg_net_write_text(stdout, &t->best, NULL);
        fflush(stdout);
    }
}

/* The models of one shape, up to max. */
static void one_shape(const gg_tt *f, int k, const gg_shape *sh,
                      const int *class_of, int max, double end, tally *t)
{
    gg_err err;
    gg_sat *s = gg_sat_new();
    gg_enc_spec spec = {.f = f, .lib = GG_LIB_LUT3, .k = k, .shape = sh,
                        .class_of = class_of, .nd = nd, .n_nd = n_nd,
                        .nd4 = nd4, .n_nd4 = n_nd4};
    gg_enc *e = gg_enc_new(&spec, s, &err);
    if (!e) {
        fprintf(stderr, "lut_starts: %s\n", err.msg);
        exit(1);
    }
    for (int r = 0; r < gg_tt_rows(f); r++)
        if (gg_tt_get(f->care, r))
            gg_enc_add_row(e, r);
    for (int m = 0; m < max; m++) {
        double left = end - gg_kjob_now();
        if (left <= 0)
            break;
        /* a shape gets at most 1 s per model: most answer in ms */
        double cap = sh ? 1 : left;
        if (gg_sat_solve(s, left < cap ? left : cap) != GG_SAT_SAT)
            break;
        gg_net net;
        if (gg_enc_decode(e, &net, &err)) {
            fprintf(stderr, "lut_starts: %s\n", err.msg);
            exit(1);
        }
        score(&net, f, t);
        exclude(s, e, f, k);
    }
    gg_enc_free(e);
    gg_sat_free(s);
}

int main(int argc, char **argv)
{
    if (argc < 3) {
        fprintf(stderr, "usage: lut_starts RULE K [MODELS [SECONDS [STRIDE "
                        "[OFFSET]]]]\n");
        return 2;
    }
    int k = atoi(argv[2]);
    int max = argc > 3 ? atoi(argv[3]) : 8;
    double seconds = argc > 4 ? atof(argv[4]) : 120;
    int stride = argc > 5 ? atoi(argv[5]) : 1;
    int offset = argc > 6 ? atoi(argv[6]) : 0;
    gg_rule rule;
    gg_front front;
    gg_tt f;
    gg_err err;
    if (gg_rule_parse(argv[1], &rule, &err) ||
        gg_front_build(&rule, GG_FRONT_ROWSUM, &front, &err) ||
        gg_front_final_tt(&rule, &front, &f, &err)) {
        fprintf(stderr, "lut_starts: %s\n", err.msg);
        return 2;
    }
    if (!gg_sat_available() || k < 1 || k > GG_SHAPE_MAX_GATES ||
        stride < 0) {
        fprintf(stderr, "lut_starts: needs the solver and 1 <= K <= %d\n",
                GG_SHAPE_MAX_GATES);
        return 2;
    }
    int class_of[GG_TT_MAX_INPUTS];
    gg_symm_classes(&f, class_of);
    n_nd = gg_symm_nondecomp(&f, nd, ND_CAP);
    n_nd4 = gg_symm_nondecomp_k(&f, 4, nd4, ND_CAP);
    gg_shape *shapes;
    int n = gg_shape_enum(k, 3, gg_symm_essential(&f, NULL), &shapes, &err);
    if (n < 0) {
        fprintf(stderr, "lut_starts: %s\n", err.msg);
        return 1;
    }
    tally t = {.best_gates = 1 << 30};
    double t0 = gg_kjob_now(), end = t0 + seconds;
    int tried = 0;
    if (stride == 0)
        one_shape(&f, k, NULL, class_of, 1 << 30, end, &t);
    for (int i = offset; stride && i < n && gg_kjob_now() < end; i += stride, tried++)
        one_shape(&f, k, &shapes[i], class_of, max, end, &t);
    printf("%s k=%d: %d of %d shapes, %d LUT networks, %.1f s; gate2 "
           "counts:", argv[1], k, tried, n, t.models, gg_kjob_now() - t0);
    for (int g = 0; g < MAX_COUNT; g++)
        if (t.hist[g])
            printf(" %d:%d", g, t.hist[g]);
    printf("\n");
    free(shapes);
    return 0;
}

/* One incremental solver per k against one fresh solver per shape (issue
 * 18): the same lut3 shapes of a rule's final stage (rowsum front) proven
 * both ways, answers compared, CPU seconds of each.
 *
 * `old` is what `golgen synth` does per shape (sat/exact/kjob.c solve_one:
 * CaDiCaL, difference clauses, automorphism order, the rows of
 * sat/exact/cegar.c). `new` builds the shape-union CNF of union_cnf.h once per
 * group of shapes and proves each shape under its cube. `both` runs old
 * then new and fails (exit 1) on any answer that differs; every SAT
 * answer's network is checked against the truth table.
 *
 * usage: shape_union RULE KMIN KMAX old|new|both [STRIDE [PART NPARTS]]
 * Every k from KMIN to KMAX, each stopping at its first SAT shape (as the
 * search does) unless SHAPE_UNION_ALL=1; STRIDE > 1 takes every
 * STRIDE-th shape; PART of NPARTS takes that contiguous block of them (a
 * second process on the other core). SHAPE_UNION_GROUP=n gives the union
 * a fresh solver every n shapes (0, the default: one per k);
 * SHAPE_UNION_BATCH=b decides b shapes per solve (uc_group);
 * SHAPE_UNION_TRACE=1 prints every shape. Exit 0 when all agree. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cegar.h"
#include "cms.h"
#include "encode.h"
#include "front.h"
#include "kjob.h"
#include "rule.h"
#include "symm.h"
#include "union_cnf.h"

#define ND_CAP 4096

static unsigned nd[ND_CAP][2], nd4[ND_CAP][2];
static int n_nd, n_nd4, class_of[GG_TT_MAX_INPUTS];
static bool trace;

static double cpu_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static gg_sat *new_solver(void)
{
    gg_sat *s = gg_sat_new_for_shapes();
    if (!s) {
        fprintf(stderr, "shape_union: no solver\n");
        exit(2);
    }
    return s;
}

static void check_net(const gg_net *net, const gg_tt *f, int shape)
{
    if (gg_net_check(net, 0, f, NULL)) {
        fprintf(stderr, "shape_union: shape %d's network is wrong\n", shape);
        exit(1);
    }
}


/* sat/exact/kjob.c solve_one without threads. */
static gg_synth_status old_shape(const gg_tt *f, const gg_shape *sh,
                                 uint64_t *conflicts)
{
    gg_err err;
    gg_sat *s = new_solver();
    gg_enc_spec spec = {.f = f, .lib = GG_LIB_LUT3, .k = sh->k, .shape = sh,
                        .class_of = class_of, .nd = nd, .n_nd = n_nd,
                        .nd4 = nd4, .n_nd4 = n_nd4, .diff = true,
                        .automorphisms = true};
    gg_enc *e = gg_enc_new(&spec, s, &err);
    if (!e) {
        fprintf(stderr, "shape_union: %s\n", err.msg);
        exit(2);
    }
    gg_net net;
    int rows = gg_tt_rows(f) <= 128 ? 128 : 64;
    gg_synth_status st = gg_cegar_solve(e, s, f, rows, 0, &net);
    if (st == GG_SYNTH_SAT)
        check_net(&net, f, -1);
    *conflicts += gg_sat_conflicts(s);
    gg_enc_free(e);
    gg_sat_free(s);
    return st;
}

/* The union's solver for a group of shapes, rows as sat/exact/cegar.c adds
 * them (every care row of a table of up to 128 rows). */
typedef struct group {
    gg_sat *s;
    uc_cnf *u;
    int *cube;
} group;

/* The care rows where net differs from f join the CNF (counterexamples);
 * how many there were. */
static int add_wrong_rows(group *g, const gg_net *net, const gg_tt *f)
{
    gg_tt got;
    gg_net_output_tt(net, 0, &got);
    int wrong = 0;
    for (int row = 0; row < gg_tt_rows(f); row++)
        if (gg_tt_get(f->care, row) &&
            gg_tt_get(got.on, row) != gg_tt_get(f->on, row)) {
            uc_add_row(g->u, row);
            wrong++;
        }
    return wrong;
}

static void group_open(group *g, const gg_tt *f, int k)
{
    gg_err err;
    g->s = new_solver();
    uc_spec spec = {.f = f, .k = k, .class_of = class_of, .nd = nd,
                          .n_nd = n_nd, .nd4 = nd4, .n_nd4 = n_nd4,
                          .diff = true, .automorphisms = true};
    g->u = uc_new(&spec, g->s, &err);
    if (!g->u) {
        fprintf(stderr, "shape_union: %s\n", err.msg);
        exit(2);
    }
    g->cube = malloc((size_t)uc_cube_max(g->u) * sizeof *g->cube);
    int rows = gg_tt_rows(f), want = rows <= 128 ? 128 : 64, added = 0;
    for (int i = 0; i < rows && added < want; i++) {
        int r = (int)(((unsigned)i * 2654435761u) & (unsigned)(rows - 1));
        if (gg_tt_get(f->care, r)) {
            uc_add_row(g->u, r);
            added++;
        }
    }
}

static void group_close(group *g, uint64_t *conflicts)
{
    if (!g->s)
        return;
    *conflicts += gg_sat_conflicts(g->s);
    uc_free(g->u);
    gg_sat_free(g->s);
    free(g->cube);
    memset(g, 0, sizeof *g);
}

/* One shape under its cube; wrong rows of a SAT answer are added and the
 * shape solved again (sat/exact/cegar.c's loop). */
static gg_synth_status new_shape(group *g, const gg_tt *f,
                                 const gg_shape *sh, int idx)
{
    gg_err err;
    for (;;) {
        int n = uc_cube(g->u, sh, g->cube);
        gg_sat_result r = gg_sat_solve_assuming(g->s, g->cube, n, 0);
        if (r != GG_SAT_SAT)
            return r == GG_SAT_UNSAT ? GG_SYNTH_UNSAT : GG_SYNTH_UNKNOWN;
        gg_net net;
        if (uc_decode(g->u, &net, &err)) {
            fprintf(stderr, "shape_union: %s\n", err.msg);
            exit(1);
        }
        if (!add_wrong_rows(g, &net, f)) {
            check_net(&net, f, idx);
            return GG_SYNTH_SAT;
        }
    }
}

/* One solve for a batch of shapes (uc_group); SAT: *at is the
 * shape in the batch whose network it found (checked). */
static gg_synth_status batch_solve(group *g, const gg_tt *f, int lit,
                                   const gg_shape *v, int n, int *at)
{
    gg_err err;
    for (;;) {
        gg_sat_result r = gg_sat_solve_assuming(g->s, &lit, 1, 0);
        if (r != GG_SAT_SAT)
            return r == GG_SAT_UNSAT ? GG_SYNTH_UNSAT : GG_SYNTH_UNKNOWN;
        gg_net net;
        *at = uc_which(g->u, v, n);
        if (*at < 0 || uc_decode(g->u, &net, &err)) {
            fprintf(stderr, "shape_union: a batch model fits no shape\n");
            exit(1);
        }
        if (!add_wrong_rows(g, &net, f)) {
            check_net(&net, f, *at);
            return GG_SYNTH_SAT;
        }
    }
}

static const char *name(gg_synth_status st)
{
    return st == GG_SYNTH_SAT ? "SAT" : st == GG_SYNTH_UNSAT ? "UNSAT" : "?";
}

int main(int argc, char **argv)
{
    if (argc < 5) {
        fprintf(stderr, "usage: shape_union RULE KMIN KMAX old|new|both "
                        "[STRIDE [PART NPARTS]]\n");
        return 2;
    }
    int kmin = atoi(argv[2]), kmax = atoi(argv[3]);
    const char *mode = argv[4];
    int stride = argc > 5 ? atoi(argv[5]) : 1;
    int part = argc > 7 ? atoi(argv[6]) : 0, parts = argc > 7 ? atoi(argv[7]) : 1;
    bool do_old = !strcmp(mode, "old") || !strcmp(mode, "both");
    bool do_new = !strcmp(mode, "new") || !strcmp(mode, "both");
    const char *e_all = getenv("SHAPE_UNION_ALL");
    const char *e_group = getenv("SHAPE_UNION_GROUP");
    const char *e_trace = getenv("SHAPE_UNION_TRACE");
    const char *e_batch = getenv("SHAPE_UNION_BATCH");
    int batch = e_batch ? atoi(e_batch) : 1;
    bool all = e_all && atoi(e_all);
    int group_size = e_group ? atoi(e_group) : 0;
    trace = e_trace && atoi(e_trace);
    gg_rule rule;
    gg_front front;
    gg_tt f;
    gg_err err;
    if (gg_rule_parse(argv[1], &rule, &err) ||
        gg_front_build(&rule, GG_FRONT_ROWSUM, &front, &err) ||
        gg_front_final_tt(&rule, &front, &f, &err)) {
        fprintf(stderr, "shape_union: %s\n", err.msg);
        return 2;
    }
    if (!gg_sat_available() || kmin < 1 || kmax > GG_SHAPE_MAX_GATES ||
        stride < 1 || parts < 1 || part < 0 || part >= parts ||
        (!do_old && !do_new)) {
        fprintf(stderr, "shape_union: bad arguments (or no solver)\n");
        return 2;
    }
    gg_symm_classes(&f, class_of);
    n_nd = gg_symm_nondecomp(&f, nd, ND_CAP);
    n_nd4 = gg_symm_nondecomp_k(&f, 4, nd4, ND_CAP);
    int bad = 0;
    double cpu_old = 0, cpu_new = 0;
    for (int k = kmin; k <= kmax; k++) {
        gg_shape *shapes;
        int n = gg_shape_enum(k, 3, gg_symm_essential(&f, NULL), &shapes, &err);
        if (n < 0) {
            fprintf(stderr, "shape_union: %s\n", err.msg);
            return 2;
        }
        int m = (n + stride - 1) / stride;
        int lo = (int)((long)m * part / parts), hi = (int)((long)m * (part + 1) / parts);
        gg_shape *mine = malloc((size_t)(hi > lo ? hi - lo : 1) * sizeof *mine);
        int8_t *st_old = malloc((size_t)(hi > lo ? hi - lo : 1));
        int8_t *st_new = malloc((size_t)(hi > lo ? hi - lo : 1));
        for (int q = lo; q < hi; q++) {
            mine[q - lo] = shapes[q * stride];
            st_old[q - lo] = st_new[q - lo] = -1;
        }
        int cnt = hi - lo, sat_old = -1, sat_new = -1, tried_old = 0,
            tried_new = 0;
        uint64_t conf_old = 0, conf_new = 0;
        double t0 = cpu_now();
        for (int q = 0; do_old && q < cnt && (all || sat_old < 0); q++) {
            double a0 = cpu_now();
            st_old[q] = (int8_t)old_shape(&f, &mine[q], &conf_old);
            tried_old++;
            if (st_old[q] == GG_SYNTH_SAT && sat_old < 0)
                sat_old = (lo + q) * stride;
            if (trace)
                fprintf(stderr, "  k=%d shape %d: old %s %.2f s\n", k,
                        (lo + q) * stride, name(st_old[q]), cpu_now() - a0);
        }
        double t1 = cpu_now();
        group g = {0};
        for (int q = 0; do_new && q < cnt && (all || sat_new < 0);) {
            double a0 = cpu_now();
            if (g.s && group_size > 0 && q % group_size == 0)
                group_close(&g, &conf_new);
            if (!g.s)
                group_open(&g, &f, k);
            int b = batch > 1 ? batch : 1;
            if (group_size > 0 && b > group_size - q % group_size)
                b = group_size - q % group_size;
            b = b < cnt - q ? b : cnt - q;
            gg_synth_status sn;
            int at = q;
            if (b == 1) {
                sn = new_shape(&g, &f, &mine[q], (lo + q) * stride);
            } else {
                int lit;
                if (uc_group(g.u, &mine[q], b, &lit, &err)) {
                    fprintf(stderr, "shape_union: %s\n", err.msg);
                    return 2;
                }
                sn = batch_solve(&g, &f, lit, &mine[q], b, &at);
                at += q;
            }
            if (sn == GG_SYNTH_SAT) { /* the rest of the batch: untried */
                st_new[at] = GG_SYNTH_SAT;
                if (sat_new < 0)
                    sat_new = (lo + at) * stride;
                if (all && at + 1 < q + b) {
                    q = at + 1; /* go on after the SAT shape */
                    tried_new += at + 1 - q;
                    continue;
                }
            } else {
                for (int t = q; t < q + b; t++)
                    st_new[t] = (int8_t)sn;
            }
            tried_new += b;
            if (trace)
                fprintf(stderr, "  k=%d shapes %d..%d: new %s %.2f s\n", k,
                        (lo + q) * stride, (lo + q + b - 1) * stride,
                        name(sn), cpu_now() - a0);
            q += b;
        }
        group_close(&g, &conf_new);
        double t2 = cpu_now();
        for (int q = 0; do_old && do_new && q < cnt; q++)
            if (st_old[q] >= 0 && st_new[q] >= 0 && st_old[q] != st_new[q]) {
                fprintf(stderr, "DIFFER k=%d shape %d: old %s new %s\n", k,
                        (lo + q) * stride, name(st_old[q]), name(st_new[q]));
                bad = 1;
            }
        /* a SAT shape of one method must not be UNSAT for the other */
        if (do_old && do_new && (sat_old < 0) != (sat_new < 0) &&
            tried_old == cnt && tried_new == cnt) {
            fprintf(stderr, "DIFFER k=%d: old %s new %s\n", k,
                    sat_old < 0 ? "UNSAT" : "SAT", sat_new < 0 ? "UNSAT" : "SAT");
            bad = 1;
        }
        cpu_old += t1 - t0, cpu_new += t2 - t1;
        printf("%s k=%d shapes %d-%d of %d (stride %d):", argv[1], k,
               lo * stride, (hi - 1) * stride, n, stride);
        if (do_old)
            printf(" old %s (shape %d, %d tried) %.1f cpu-s %llu conflicts;",
                   sat_old >= 0 ? "SAT" : "UNSAT", sat_old, tried_old,
                   t1 - t0, (unsigned long long)conf_old);
        if (do_new)
            printf(" new %s (shape %d, %d tried) %.1f cpu-s %llu conflicts;",
                   sat_new >= 0 ? "SAT" : "UNSAT", sat_new, tried_new,
                   t2 - t1, (unsigned long long)conf_new);
        printf("\n");
        fflush(stdout);
        free(shapes);
        free(mine);
        free(st_old);
        free(st_new);
        if ((!do_old || sat_old >= 0) && (!do_new || sat_new >= 0) && !all)
            break;
    }
    printf("%s total: old %.1f cpu-s, new %.1f cpu-s%s\n", argv[1], cpu_old,
           cpu_new, bad ? " (ANSWERS DIFFER)" : "");
    return bad;
}

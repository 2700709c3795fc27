/* Cube-and-conquer inside one hard shape (issue 18): is a lut3 shape's
 * proof cheaper in total CPU when its CNF is split into cubes on what some
 * gates read, each cube proven on its own?
 *
 * For each shape: `plain` proves the unsplit CNF (sat/exact/kjob.c solve_one:
 * CaDiCaL, difference clauses, automorphism order, every care row of the
 * 128-row final-stage table). Then the split, over dimensions: a gate's
 * fanin choice (one alternative per choice, gg_enc_option) or one bit of
 * a gate's function (true, false; gg_enc_fn_var); the cubes are every
 * combination of one alternative per dimension. Every model of the CNF
 * sets at least one choice variable of each gate true, and every bit is
 * true or false, so every model falls in some cube: the shape is UNSAT
 * iff every cube is (a complete split; cubes may overlap where the CNF
 * lets two choices hold, which costs time, never soundness). `fresh`
 * builds a new solver per cube with the cube as unit clauses; `inc` builds
 * one solver per shape and solves each cube under assumptions
 * (gg_sat_solve_assuming), keeping what it learnt. A SAT cube stops its shape (as the search stops
 * at a network); its network is checked against the truth table. Every
 * split verdict is compared with the plain one (exit 1 if any differs).
 *
 * usage: shape_cubes RULE K SHAPES SPLIT [MODES]
 *   SHAPES  "959,960,963" or "950-970" (gg_shape_enum's indices, as
 *           `golgen synth --shapes`)
 *   SPLIT   what to split on, comma-separated: "0" gate 0's fanin
 *           choice, "f5" every function bit of gate 5 (2^(2^slots-1)
 *           cubes); or alone "autoN", the N gates with the most fanin
 *           choices (ties: the earlier gate), or "chainN", the first N gates
 *           that read a gate and primary inputs (chain links), else autoN,
 *           or "lastN", the last N gates with more than one choice
 *   MODES   any of plain,fresh,inc separated by commas (default all three)
 * CPU seconds are the process's CPU clock per cube (encoding included);
 * "2 threads" is the makespan of handing the cubes in order to two
 * workers, each taking the next cube when it is free (from those CPU
 * times: what two idle cores would take). SHAPE_CUBES_TRACE=1 prints every
 * cube that takes over 0.5 s; SHAPE_CUBES_LIMIT=s gives up on a plain
 * proof after s seconds of wall clock (its verdict then "?", no
 * cross-check).
 *
 * Result (BENCHMARKS.md "Proof speed: cubes inside a hard shape"): no
 * split reaches 2x. `fresh` loses (0.23-1.13x), `inc` on the last gate
 * with choices (last1) gains 1.0-1.37x on the hard chain shapes of k=6. */
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

#define ND_CAP 4096
#define MAX_DIMS 16
#define MAX_CUBES 100000

typedef struct problem {
    const gg_tt *f;
    const gg_shape *sh;
    int class_of[GG_TT_MAX_INPUTS];
    const unsigned (*nd)[2], (*nd4)[2];
    int n_nd, n_nd4;
} problem;

/* One dimension of the split: gate's fanin choice (bit 0) or its function
 * bit `bit` (1 ..), whose alternatives are true and false. */
typedef struct dim {
    int gate, bit;
} dim;

typedef struct split {
    dim d[MAX_DIMS];
    int n;
} split;

typedef struct outcome {
    gg_synth_status st;
    int cubes;          /* cubes solved (a SAT cube stops the rest) */
    int trivial;        /* cubes refuted without a conflict */
    double cpu, hardest, wall2;
    uint64_t conflicts;
} outcome;

static bool trace;

static double cpu_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static const char *name(gg_synth_status st)
{
    return st == GG_SYNTH_SAT ? "SAT" : st == GG_SYNTH_UNSAT ? "UNSAT" : "?";
}

static void die(const char *what, const gg_err *err)
{
    fprintf(stderr, "shape_cubes: %s%s%s\n", what, err ? ": " : "",
            err ? err->msg : "");
    exit(2);
}

static gg_sat *new_solver(void)
{
    gg_sat *s = gg_sat_new_for_shapes();
    if (!s)
        die("no solver", NULL);
    return s;
}

/* The per-shape CNF exactly as the search builds it. */
static gg_enc *encode(const problem *p, gg_sat *s)
{
    gg_err err;
    gg_enc_spec spec = {.f = p->f, .lib = GG_LIB_LUT3, .k = p->sh->k,
                        .shape = p->sh, .class_of = p->class_of,
                        .nd = p->nd, .n_nd = p->n_nd, .nd4 = p->nd4,
                        .n_nd4 = p->n_nd4, .diff = true,
                        .automorphisms = true};
    gg_enc *e = gg_enc_new(&spec, s, &err);
    if (!e)
        die("encoder", &err);
    return e;
}

static int init_rows(const gg_tt *f)
{
    return gg_tt_rows(f) <= 128 ? 128 : 64;
}

static void check_net(const gg_net *net, const gg_tt *f, int shape)
{
    if (gg_net_check(net, 0, f, NULL)) {
        fprintf(stderr, "shape_cubes: shape %d's network is wrong\n", shape);
        exit(1);
    }
}

static int alternatives(const gg_enc *e, const dim *d)
{
    return d->bit ? 2 : gg_enc_options(e, d->gate);
}

static int alternative(const gg_enc *e, const dim *d, int a)
{
    if (d->bit)
        return a ? -gg_enc_fn_var(e, d->gate, d->bit)
                 : gg_enc_fn_var(e, d->gate, d->bit);
    return gg_enc_option(e, d->gate, a, NULL);
}

/* Cube c of the split as literals, in mixed radix (dimension 0 fastest). */
static void cube_lits(const gg_enc *e, const split *sp, long c, int *lits)
{
    for (int t = 0; t < sp->n; t++) {
        int n = alternatives(e, &sp->d[t]);
        lits[t] = alternative(e, &sp->d[t], (int)(c % n));
        c /= n;
    }
}

static long cube_count(const gg_enc *e, const split *sp)
{
    long n = 1;
    for (int t = 0; t < sp->n && n <= MAX_CUBES; t++)
        n *= alternatives(e, &sp->d[t]);
    return n;
}

/* Two workers taking the cubes in order: when does the last one end? */
static void schedule(double *w, double t)
{
    int i = w[0] <= w[1] ? 0 : 1;
    w[i] += t;
}

static void add_cube_time(outcome *o, double *w, double t, uint64_t conf)
{
    o->cpu += t;
    o->hardest = t > o->hardest ? t : o->hardest;
    o->trivial += conf == 0;
    o->cubes++;
    schedule(w, t);
    o->wall2 = w[0] > w[1] ? w[0] : w[1];
}

static outcome solve_plain(const problem *p, int idx, double limit)
{
    outcome o = {0};
    double t0 = cpu_now();
    gg_sat *s = new_solver();
    gg_enc *e = encode(p, s);
    gg_net net;
    o.st = gg_cegar_solve(e, s, p->f, init_rows(p->f),
                          limit > 0 ? gg_kjob_now() + limit : 0, &net);
    if (o.st == GG_SYNTH_SAT)
        check_net(&net, p->f, idx);
    o.conflicts = gg_sat_conflicts(s);
    gg_enc_free(e);
    gg_sat_free(s);
    o.cpu = o.hardest = o.wall2 = cpu_now() - t0;
    o.cubes = 1;
    return o;
}

/* A new solver per cube, the cube as unit clauses. */
static outcome solve_fresh(const problem *p, int idx, const split *sp,
                           long n_cubes)
{
    outcome o = {.st = GG_SYNTH_UNSAT};
    double w[2] = {0, 0};
    int lits[MAX_DIMS];
    for (long c = 0; c < n_cubes; c++) {
        double t0 = cpu_now();
        gg_sat *s = new_solver();
        gg_enc *e = encode(p, s);
        cube_lits(e, sp, c, lits);
        for (int t = 0; t < sp->n; t++)
            gg_sat_clause(s, &lits[t], 1);
        gg_net net;
        gg_synth_status st = gg_cegar_solve(e, s, p->f, init_rows(p->f), 0,
                                            &net);
        if (st == GG_SYNTH_SAT)
            check_net(&net, p->f, idx);
        uint64_t conf = gg_sat_conflicts(s);
        o.conflicts += conf;
        gg_enc_free(e);
        gg_sat_free(s);
        double t = cpu_now() - t0;
        add_cube_time(&o, w, t, conf);
        if (trace && t > 0.5)
            fprintf(stderr, "    shape %d cube %ld: fresh %s %.2f s\n", idx,
                    c, name(st), t);
        if (st != GG_SYNTH_UNSAT) {
            o.st = st;
            break;
        }
    }
    return o;
}

/* One cube under assumptions, counterexample rows until the answer is
 * final (sat/exact/cegar.h). */
static gg_synth_status solve_cube(gg_enc *e, gg_sat *s, const gg_tt *f,
                                  const int *lits, int n, int idx)
{
    gg_net net;
    gg_synth_status st = gg_cegar_solve_assuming(e, s, f, lits, n, 0, &net);
    if (st == GG_SYNTH_SAT)
        check_net(&net, f, idx);
    return st;
}

/* One solver for the shape, each cube as assumptions. The 2-thread
 * makespan assumes one such solver per worker, each taking every other
 * cube as fast as the single solver did: an estimate only (each would
 * learn from its own cubes alone). */
static outcome solve_inc(const problem *p, int idx, const split *sp,
                         long n_cubes)
{
    outcome o = {.st = GG_SYNTH_UNSAT};
    double w[2] = {0, 0}, t0 = cpu_now();
    gg_sat *s = new_solver();
    gg_enc *e = encode(p, s);
    for (int t = 0; t < sp->n; t++)
        for (int a = 0; a < alternatives(e, &sp->d[t]); a++) {
            int lit = alternative(e, &sp->d[t], a);
            gg_sat_freeze(s, lit > 0 ? lit : -lit);
        }
    gg_cegar_start(e, p->f, init_rows(p->f));
    double setup = cpu_now() - t0;
    o.cpu = setup, w[0] = w[1] = setup; /* each worker encodes once */
    int lits[MAX_DIMS];
    for (long c = 0; c < n_cubes; c++) {
        double c0 = cpu_now();
        uint64_t k0 = gg_sat_conflicts(s);
        cube_lits(e, sp, c, lits);
        gg_synth_status st = solve_cube(e, s, p->f, lits, sp->n, idx);
        double t = cpu_now() - c0;
        add_cube_time(&o, w, t, gg_sat_conflicts(s) - k0);
        if (trace && t > 0.5)
            fprintf(stderr, "    shape %d cube %ld: inc %s %.2f s\n", idx, c,
                    name(st), t);
        if (st != GG_SYNTH_UNSAT) {
            o.st = st;
            break;
        }
    }
    o.conflicts = gg_sat_conflicts(s);
    gg_enc_free(e);
    gg_sat_free(s);
    return o;
}

/* Gates that read at least one gate and some primary inputs, in order:
 * the links of a chain. */
static int chain_gates(const gg_shape *sh, int want, int *gates)
{
    int n = 0;
    for (int i = 0; i < sh->k && n < want; i++)
        if (sh->fanin[i] && gg_shape_pi_slots(sh, i) > 0)
            gates[n++] = i;
    return n;
}

/* The last n gates with more than one fanin choice, the output first:
 * the end of a chain, where a fixed choice leaves the most of the
 * network's function to the gates before it. */
static int last_gates(const gg_enc *e, const gg_shape *sh, int want,
                      int *gates)
{
    int n = 0;
    for (int i = sh->k - 1; i >= 0 && n < want; i--)
        if (gg_enc_options(e, i) > 1)
            gates[n++] = i;
    return n;
}

/* The n gates with the most fanin choices (ties: the earlier gate). */
static int most_choices(const gg_enc *e, const gg_shape *sh, int want,
                        int *gates)
{
    bool used[GG_SHAPE_MAX_GATES] = {0};
    int n = 0;
    for (; n < want && n < sh->k; n++) {
        int best = -1;
        for (int i = 0; i < sh->k; i++)
            if (!used[i] && (best < 0 || gg_enc_options(e, i) >
                                             gg_enc_options(e, best)))
                best = i;
        used[best] = true;
        gates[n] = best;
    }
    return n;
}

/* Adds dimension (gate, bit) unless the split is full. */
static void add_dim(split *sp, int gate, int bit)
{
    if (sp->n < MAX_DIMS)
        sp->d[sp->n++] = (dim){gate, bit};
}

/* The split of SPLIT (see the usage); false on a gate out of range. */
static bool pick(const char *arg, const gg_enc *e, const gg_shape *sh,
                 split *sp)
{
    int gates[GG_SHAPE_MAX_GATES], n = 0;
    sp->n = 0;
    if (!strncmp(arg, "chain", 5) || !strncmp(arg, "auto", 4) ||
        !strncmp(arg, "last", 4)) {
        int want = atoi(arg + (arg[0] == 'c' ? 5 : 4));
        if (arg[0] == 'c')
            n = chain_gates(sh, want, gates);
        if (arg[0] == 'l')
            n = last_gates(e, sh, want, gates);
        if (n < want) /* too few links: the gates with most choices */
            n = most_choices(e, sh, want, gates);
        for (int t = 0; t < n; t++)
            add_dim(sp, gates[t], 0);
        return n > 0;
    }
    for (const char *q = arg; *q;) {
        bool fn = *q == 'f';
        int g = atoi(q + fn);
        if (g < 0 || g >= sh->k)
            return false;
        for (int b = 1; fn && b < 1 << gg_enc_option_slots(e, g); b++)
            add_dim(sp, g, b);
        if (!fn)
            add_dim(sp, g, 0);
        q = strchr(q, ',');
        if (!q)
            break;
        q++;
    }
    return sp->n > 0;
}

static void print_shape(const gg_enc *e, const gg_shape *sh, int idx)
{
    printf("shape %d:", idx);
    for (int i = 0; i < sh->k; i++) {
        printf(" g%d(", i);
        for (int j = 0; j < sh->k; j++)
            if (sh->fanin[i] >> j & 1)
                printf("g%d ", j);
        printf("%dpi;%d)", gg_shape_pi_slots(sh, i), gg_enc_options(e, i));
    }
    printf("\n");
}

static void print_outcome(const char *mode, const outcome *o, double plain)
{
    printf("  %-5s %-5s cubes %5d (trivial %5d) cpu %8.2f s  hardest %7.2f"
           "  2 threads %8.2f  conflicts %9llu", mode, name(o->st), o->cubes,
           o->trivial, o->cpu, o->hardest, o->wall2,
           (unsigned long long)o->conflicts);
    if (plain > 0 && o->cpu > 0)
        printf("  cpu x%.2f wall2 x%.2f", plain / o->cpu, plain / o->wall2);
    printf("\n");
    fflush(stdout);
}

/* "959,960" or "950-970" into a malloc'd list. */
static int parse_shapes(const char *arg, int n_shapes, int **out)
{
    int cap = 16, n = 0;
    int *v = malloc((size_t)cap * sizeof *v);
    for (const char *q = arg; v && *q;) {
        char *end;
        long a = strtol(q, &end, 10), b = a;
        if (*end == '-')
            b = strtol(end + 1, &end, 10);
        for (long i = a; i <= b; i++) {
            if (i < 0 || i >= n_shapes)
                continue;
            if (n == cap) {
                int *w = realloc(v, (size_t)(cap *= 2) * sizeof *v);
                if (!w) {
                    free(v);
                    return -1;
                }
                v = w;
            }
            v[n++] = (int)i;
        }
        if (*end != ',')
            break;
        q = end + 1;
    }
    *out = v;
    return v ? n : -1;
}

typedef struct totals {
    double cpu[3], wall2[3];
    int bad;
} totals;

static void run_shape(problem *p, int idx, const char *arg,
                      const bool *modes, double limit, totals *tot)
{
    gg_sat *s = new_solver();
    gg_enc *e = encode(p, s);
    split sp;
    bool ok = pick(arg, e, p->sh, &sp);
    long n_cubes = ok ? cube_count(e, &sp) : 0;
    print_shape(e, p->sh, idx);
    gg_enc_free(e);
    gg_sat_free(s);
    if (!ok || n_cubes > MAX_CUBES)
        die("bad split (no gate, or too many cubes)", NULL);
    printf("  split on");
    for (int t = 0; t < sp.n; t++)
        printf(sp.d[t].bit ? " g%d.fn%d" : " g%d", sp.d[t].gate,
               sp.d[t].bit);
    printf(": %ld cubes\n", n_cubes);
    outcome o[3];
    double plain = 0;
    for (int m = 0; m < 3; m++) {
        if (!modes[m])
            continue;
        o[m] = m == 0 ? solve_plain(p, idx, limit)
             : m == 1 ? solve_fresh(p, idx, &sp, n_cubes)
                      : solve_inc(p, idx, &sp, n_cubes);
        print_outcome(m == 0 ? "plain" : m == 1 ? "fresh" : "inc", &o[m],
                      modes[0] && m > 0 && o[0].st != GG_SYNTH_UNKNOWN
                          ? plain : 0);
        if (m == 0)
            plain = o[0].cpu;
        tot->cpu[m] += o[m].cpu, tot->wall2[m] += o[m].wall2;
        if (modes[0] && m > 0 && o[0].st != GG_SYNTH_UNKNOWN &&
            o[m].st != o[0].st) {
            printf("  DIFFER: plain %s, split %s\n", name(o[0].st),
                   name(o[m].st));
            tot->bad = 1;
        }
    }
}

int main(int argc, char **argv)
{
    if (argc < 5) {
        fprintf(stderr, "usage: shape_cubes RULE K SHAPES SPLIT "
                        "[plain,fresh,inc]\n");
        return 2;
    }
    int k = atoi(argv[2]);
    const char *mode_arg = argc > 5 ? argv[5] : "plain,fresh,inc";
    bool modes[3] = {strstr(mode_arg, "plain") != NULL,
                     strstr(mode_arg, "fresh") != NULL,
                     strstr(mode_arg, "inc") != NULL};
    const char *e_trace = getenv("SHAPE_CUBES_TRACE");
    const char *e_limit = getenv("SHAPE_CUBES_LIMIT");
    trace = e_trace && atoi(e_trace);
    double limit = e_limit ? atof(e_limit) : 0;
    gg_rule rule;
    gg_front front;
    gg_tt f;
    gg_err err;
    if (gg_rule_parse(argv[1], &rule, &err) ||
        gg_front_build(&rule, GG_FRONT_ROWSUM, &front, &err) ||
        gg_front_final_tt(&rule, &front, &f, &err))
        die("rule", &err);
    if (!gg_sat_available() || k < 1 || k > GG_SHAPE_MAX_GATES)
        die("bad arguments (or no solver)", NULL);
    static unsigned nd[ND_CAP][2], nd4[ND_CAP][2];
    problem p = {.f = &f, .nd = nd, .nd4 = nd4};
    gg_symm_classes(&f, p.class_of);
    p.n_nd = gg_symm_nondecomp(&f, nd, ND_CAP);
    p.n_nd4 = gg_symm_nondecomp_k(&f, 4, nd4, ND_CAP);
    gg_shape *shapes;
    int n = gg_shape_enum(k, 3, gg_symm_essential(&f, NULL), &shapes, &err);
    if (n < 0)
        die("shapes", &err);
    int *list, n_list = parse_shapes(argv[3], n, &list);
    if (n_list < 0)
        die("out of memory", NULL);
    totals tot = {.bad = 0};
    for (int q = 0; q < n_list; q++) {
        p.sh = &shapes[list[q]];
        run_shape(&p, list[q], argv[4], modes, limit, &tot);
    }
    printf("%s k=%d shapes %s split %s: plain %.1f cpu-s; fresh %.1f cpu-s "
           "(2 threads %.1f); inc %.1f cpu-s (2 threads %.1f)%s\n", argv[1],
           k, argv[3], argv[4], tot.cpu[0], tot.cpu[1], tot.wall2[1],
           tot.cpu[2], tot.wall2[2], tot.bad ? " (VERDICTS DIFFER)" : "");
    free(list);
    free(shapes);
    return tot.bad;
}

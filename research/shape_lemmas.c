/* Which lut3 network shapes can compute no Life-like final stage at all
 * (issue 18)? The per-shape conflicts of a k = 6 proof are nearly the same
 * for every rule (log-correlation 0.99-1.00 over six rules, session 17),
 * which suggests that most shapes fail for reasons that do not depend on
 * the rule. This program asks each shape the rule-free question: the CNF
 * of sat/exact/encode.h with the output free on each class (neighbour count,
 * centre) of the rowsum front's rows (gg_enc_spec.keys), every input
 * read, the function depending on every input, Life's input classes
 * (which every rule with full support and no further symmetry shares).
 * UNSAT: no rule of that kind has a network of that shape.
 *
 * usage: shape_lemmas K [FIRST [LAST]]   (shapes of gg_shape_enum(K, 3, 7))
 * SHAPE_LEMMAS_THREADS=n (default 2), SHAPE_LEMMAS_LIMIT=s seconds per
 * solve (default none). One line per shape on stdout:
 *   "shape I: UNSAT|SAT|? CONFLICTS SECONDS"
 * and for SAT the rule found (B.../S... of the classes set).
 * SHAPE_LEMMAS_ENUM=1: every rule the shape can compute, each excluded in
 * turn until UNSAT: "shape I: N rules CONFLICTS SECONDS" (N = -1 when a
 * solve ran out of time), then "rule I B.../S..." for each.
 * SHAPE_LEMMAS_RULES="R1 R2 ...": does what a shape learns about one rule
 * help the next? One solver per shape answers each rule in turn under
 * assumptions (its classes' values): "shape I rule R: inc ANSWER
 * CONFLICTS SECONDS", and with SHAPE_LEMMAS_FRESH=1 the same CNF in a
 * fresh solver per rule beside it ("fresh ..."). Each rule must have
 * Life's input classes and depend on every input.
 *
 * Measured (BENCHMARKS.md, session 17): 385 of k=6's 1781 shapes fit no
 * rule, but none of a rule's proof work lies in them; a k=5 shape fits
 * 644-1335 rules; a solver kept across rules saves 1.3-1.9x. */
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cms.h"
#include "encode.h"
#include "front.h"
#include "kjob.h"
#include "rule.h"
#include "symm.h"

#define N_KEYS 18 /* B0..B8, S0..S8 */

static gg_tt life;
static uint8_t keys[1 << GG_TT_MAX_INPUTS];
static int class_of[GG_TT_MAX_INPUTS];
static gg_shape *shapes;
static int first, last;
static double limit;
static bool enumerate, fresh;
static int n_rules;
static int rule_lits[64][N_KEYS]; /* per rule and class: +1 on, -1 off */
static char rule_names[64][32];
static atomic_int next;
static pthread_mutex_t out_mu = PTHREAD_MUTEX_INITIALIZER;

static void die(const char *what, const gg_err *err)
{
    fprintf(stderr, "shape_lemmas: %s%s%s\n", what, err ? ": " : "",
            err ? err->msg : "");
    exit(2);
}

static void final_tt(const char *text, gg_tt *f)
{
    gg_rule rule;
    gg_front front;
    gg_err err;
    if (gg_rule_parse(text, &rule, &err) ||
        gg_front_build(&rule, GG_FRONT_ROWSUM, &front, &err) ||
        gg_front_final_tt(&rule, &front, f, &err))
        die(text, &err);
}

/* Row r's class: the one single-transition rule (B<n>/S or B/S<n>) whose
 * final stage is 1 on r. */
static void build_keys(void)
{
    gg_tt one[N_KEYS];
    char text[16];
    for (int c = 0; c < N_KEYS; c++) {
        snprintf(text, sizeof text, c < 9 ? "B%d/S" : "B/S%d", c % 9);
        final_tt(text, &one[c]);
    }
    for (int r = 0; r < gg_tt_rows(&life); r++) {
        if (!gg_tt_get(life.care, r))
            continue;
        int n = 0;
        for (int c = 0; c < N_KEYS; c++)
            if (gg_tt_get(one[c].care, r) && gg_tt_get(one[c].on, r))
                keys[r] = (uint8_t)c, n++;
        if (n != 1)
            die("a care row is in no class or in two", NULL);
    }
}

/* The function reads input i: some care row pair differing in i alone
 * lies in two classes whose outputs differ. */
static void depends_on_every_input(gg_sat *s, const gg_enc *e)
{
    for (int i = 0; i < life.n_inputs; i++) {
        bool pair[N_KEYS][N_KEYS] = {{false}};
        int lits[N_KEYS * N_KEYS], n = 0;
        for (int r = 0; r < gg_tt_rows(&life); r++) {
            int r2 = r ^ (1 << i);
            if (r2 < r || !gg_tt_get(life.care, r) ||
                !gg_tt_get(life.care, r2) || keys[r] == keys[r2])
                continue;
            int a = keys[r] < keys[r2] ? keys[r] : keys[r2];
            int b = keys[r] ^ keys[r2] ^ a;
            if (pair[a][b])
                continue;
            pair[a][b] = true;
            int d = gg_sat_var(s), ga = gg_enc_key_var(e, a),
                gb = gg_enc_key_var(e, b);
            gg_sat_clause(s, (int[]){-d, ga, gb}, 3);
            gg_sat_clause(s, (int[]){-d, -ga, -gb}, 3);
            lits[n++] = d;
        }
        if (n == 0)
            die("an input no class pair tells apart", NULL);
        gg_sat_clause(s, lits, n);
    }
}

/* The rule of the solver's model: bit c set when class c is on. */
static uint32_t model_rule(gg_sat *s, const gg_enc *e)
{
    uint32_t g = 0;
    for (int c = 0; c < N_KEYS; c++)
        g |= (uint32_t)gg_sat_value(s, gg_enc_key_var(e, c)) << c;
    return g;
}

static void print_rule(FILE *out, uint32_t g)
{
    fputc('B', out);
    for (int c = 0; c < N_KEYS; c++) {
        if (c == 9)
            fputs("/S", out);
        if (g >> c & 1)
            fprintf(out, "%d", c % 9);
    }
}

/* Every rule of the shape, one blocking clause per rule found. */
static void enumerate_rules(gg_sat *s, const gg_enc *e, int i, double t0)
{
    static const int cap = 1 << 16;
    uint32_t *found = malloc(cap * sizeof *found);
    if (!found)
        die("out of memory listing rules", NULL);
    int n = 0;
    gg_sat_result res;
    while (n < cap && (res = gg_sat_solve(s, limit)) == GG_SAT_SAT) {
        uint32_t g = model_rule(s, e);
        int block[N_KEYS];
        for (int c = 0; c < N_KEYS; c++) {
            int v = gg_enc_key_var(e, c);
            block[c] = g >> c & 1 ? -v : v;
        }
        found[n++] = g;
        gg_sat_clause(s, block, N_KEYS);
    }
    pthread_mutex_lock(&out_mu);
    printf("shape %d: %d rules %llu %.2f\n", i,
           res == GG_SAT_UNSAT ? n : -1,
           (unsigned long long)gg_sat_conflicts(s), gg_kjob_now() - t0);
    for (int q = 0; q < n; q++) {
        printf("rule %d ", i);
        print_rule(stdout, found[q]);
        fputc('\n', stdout);
    }
    fflush(stdout);
    pthread_mutex_unlock(&out_mu);
    free(found);
}

static const char *answer(gg_sat_result res)
{
    return res == GG_SAT_SAT ? "SAT" : res == GG_SAT_UNSAT ? "UNSAT" : "?";
}

/* The rules of SHAPE_LEMMAS_RULES as assumptions on the class variables
 * (+1: the class is on, -1: off; gg_enc_key_var gives the variable). */
static void read_rules(const char *list)
{
    char buf[2048];
    snprintf(buf, sizeof buf, "%s", list);
    for (char *t = strtok(buf, " "); t && n_rules < 64; t = strtok(NULL, " ")) {
        gg_tt f;
        int cls[GG_TT_MAX_INPUTS];
        bool ess[GG_TT_MAX_INPUTS];
        final_tt(t, &f);
        gg_symm_classes(&f, cls);
        if (gg_symm_essential(&f, ess) != life.n_inputs ||
            memcmp(cls, class_of, sizeof(int) * (size_t)life.n_inputs))
            die("a rule without Life's input classes or full support", NULL);
        for (int r = 0; r < gg_tt_rows(&life); r++)
            if (gg_tt_get(life.care, r))
                rule_lits[n_rules][keys[r]] = gg_tt_get(f.on, r) ? 1 : -1;
        snprintf(rule_names[n_rules++], 32, "%s", t);
    }
}

static gg_sat *new_solver(void)
{
    gg_sat *s = gg_sat_new_for_shapes();
    if (!s)
        die("no solver", NULL);
    return s;
}

static gg_enc *universal_cnf(gg_sat *s, int i)
{
    gg_err err;
    gg_enc_spec spec = {.f = &life, .lib = GG_LIB_LUT3, .k = shapes[i].k,
                        .shape = &shapes[i], .class_of = class_of,
                        .diff = true, .automorphisms = true,
                        .keys = keys, .n_keys = N_KEYS};
    gg_enc *e = gg_enc_new(&spec, s, &err);
    if (!e)
        die("encoder", &err);
    for (int r = 0; r < gg_tt_rows(&life); r++)
        if (gg_tt_get(life.care, r))
            gg_enc_add_row(e, r);
    depends_on_every_input(s, e);
    return e;
}

/* Rule q of the list under assumptions on solver s. */
static void solve_rule(gg_sat *s, const gg_enc *e, int i, int q,
                       const char *how)
{
    int lits[N_KEYS];
    for (int c = 0; c < N_KEYS; c++) {
        lits[c] = rule_lits[q][c] * gg_enc_key_var(e, c);
        gg_sat_freeze(s, gg_enc_key_var(e, c));
    }
    uint64_t c0 = gg_sat_conflicts(s);
    double t0 = gg_kjob_now();
    gg_sat_result res = gg_sat_solve_assuming(s, lits, N_KEYS, limit);
    pthread_mutex_lock(&out_mu);
    printf("shape %d rule %s: %s %s %llu %.2f\n", i, rule_names[q], how,
           answer(res), (unsigned long long)(gg_sat_conflicts(s) - c0),
           gg_kjob_now() - t0);
    fflush(stdout);
    pthread_mutex_unlock(&out_mu);
}

static void solve_rules(int i)
{
    gg_sat *s = new_solver();
    gg_enc *e = universal_cnf(s, i);
    for (int q = 0; q < n_rules; q++) {
        solve_rule(s, e, i, q, "inc");
        if (!fresh)
            continue;
        gg_sat *s1 = new_solver();
        gg_enc *e1 = universal_cnf(s1, i);
        solve_rule(s1, e1, i, q, "fresh");
        gg_enc_free(e1);
        gg_sat_free(s1);
    }
    gg_enc_free(e);
    gg_sat_free(s);
}

static void solve_shape(int i)
{
    if (n_rules) {
        solve_rules(i);
        return;
    }
    double t0 = gg_kjob_now();
    gg_sat *s = new_solver();
    gg_enc *e = universal_cnf(s, i);
    if (enumerate) {
        enumerate_rules(s, e, i, t0);
    } else {
        gg_sat_result res = gg_sat_solve(s, limit);
        pthread_mutex_lock(&out_mu);
        printf("shape %d: %s %llu %.2f", i, answer(res),
               (unsigned long long)gg_sat_conflicts(s), gg_kjob_now() - t0);
        if (res == GG_SAT_SAT) {
            fputc(' ', stdout);
            print_rule(stdout, model_rule(s, e));
        }
        fputc('\n', stdout);
        fflush(stdout);
        pthread_mutex_unlock(&out_mu);
    }
    gg_enc_free(e);
    gg_sat_free(s);
}

static void *worker(void *arg)
{
    (void)arg;
    for (int i; (i = atomic_fetch_add(&next, 1)) <= last;)
        solve_shape(i);
    return NULL;
}

int main(int argc, char **argv)
{
    if (argc < 2 || !gg_sat_available()) {
        fprintf(stderr, "usage: shape_lemmas K [FIRST [LAST]] (needs the "
                        "solver)\n");
        return 2;
    }
    int k = atoi(argv[1]);
    const char *e_threads = getenv("SHAPE_LEMMAS_THREADS");
    const char *e_limit = getenv("SHAPE_LEMMAS_LIMIT");
    int threads = e_threads ? atoi(e_threads) : 2;
    limit = e_limit ? atof(e_limit) : 0;
    const char *e_enum = getenv("SHAPE_LEMMAS_ENUM");
    enumerate = e_enum && atoi(e_enum);
    const char *e_fresh = getenv("SHAPE_LEMMAS_FRESH");
    fresh = e_fresh && atoi(e_fresh);
    final_tt("B3/S23", &life);
    build_keys();
    gg_symm_classes(&life, class_of);
    const char *e_rules = getenv("SHAPE_LEMMAS_RULES");
    if (e_rules)
        read_rules(e_rules);
    gg_err err;
    int n = gg_shape_enum(k, 3, life.n_inputs, &shapes, &err);
    if (n < 0)
        die("shapes", &err);
    first = argc > 2 ? atoi(argv[2]) : 0;
    last = argc > 3 ? atoi(argv[3]) : n - 1;
    if (first < 0 || last >= n || first > last || threads < 1 ||
        threads > 64)
        die("bad shape range or thread count", NULL);
    fprintf(stderr, "shape_lemmas: k=%d, %d shapes, %d..%d, classes", k, n,
            first, last);
    for (int i = 0; i < life.n_inputs; i++)
        fprintf(stderr, " %d", class_of[i]);
    fputc('\n', stderr);
    atomic_store(&next, first);
    pthread_t tid[64];
    for (int t = 0; t < threads; t++)
        pthread_create(&tid[t], NULL, worker, NULL);
    for (int t = 0; t < threads; t++)
        pthread_join(tid[t], NULL);
    free(shapes);
    return 0;
}

/* Generations kernels of the PTX target without a GPU: every row load and
 * store is made once per state plane, the entries take the plane stride
 * (p_ps) as the CUDA target's do, shapes the planes cannot run are refused
 * by name, the modules assemble with ptxas -arch=sm_90 (skipped without
 * ptxas: GOLGEN_PTXAS, /usr/local/cuda/bin/ptxas or PATH), and they
 * compute what the rule says: tests/ptx_sim.py runs them warp by warp the
 * way the runtime drives them, against a plain stepper of its own, on odd
 * tori and planes (skipped without python3). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "test_util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "emit_ptx.h"
#include "kernel_source.h"
#include "rule_gen.h"

/* The Generations tuner's launch shapes (runtime/gpu/cuda_tune.c
 * gen_candidates) as PTX emitter options. */
static gg_ptx_opts gen_shape(int i)
{
    static const struct { int tmax, turn, pf, warm; } s[] = {
        {8, 6, 2, 6}, {8, 3, 1, 0}, {16, 3, 1, 0}};
    gg_ptx_opts o = gg_ptx_tuned(s[i].tmax, true, 4, 1);
    o.turn = s[i].turn;
    o.prefetch = s[i].pf;
    o.warm = s[i].warm;
    return o;
}

static char *emit(const char *rule, const gg_ptx_opts *o, size_t *len)
{
    gg_rule r = gg_test_rule(rule);
    char *src;
    gg_err err;
    if (gg_kernel_ptx(&r, o, NULL, &src, len, &err))
        fail_msg("%s: %s", rule, err.msg);
    return src;
}

/* Occurrences of s in text[0 .. n). */
static int count_in(const char *text, size_t n, const char *s)
{
    int k = 0;
    size_t sl = strlen(s);
    for (const char *p = text; (p = strstr(p, s)) && (size_t)(p - text) < n;
         p += sl)
        k++;
    return k;
}

/* Entry gg_step_<t> of src: its start and length. */
static const char *entry(const char *src, int t, size_t *n)
{
    char head[48];
    snprintf(head, sizeof head, ".entry gg_step_%d(", t);
    const char *p = strstr(src, head);
    assert_non_null(p);
    const char *end = strstr(p, "\n}\n");
    assert_non_null(end);
    *n = (size_t)(end - p);
    return p;
}

/* Against the same shape's two-state kernel of B/S: each load site
 * loads every plane, each store site stores every plane (whole words and
 * halves), each warmed row is warmed in every plane; only the entries
 * take p_ps. C = 3 keeps the alive cells as plane 0, C = 8 and 200
 * compute them from the planes. */
static void test_one_access_per_plane(void **state)
{
    (void)state;
    static const struct { const char *gen, *two; } rules[] = {
        {"/2/3", "B2/S"}, {"12/34/8", "B34/S12"}, {"3/2/200", "B2/S3"}};
    gg_ptx_opts shapes[2] = {gg_ptx_tuned(4, true, 4, 1), gen_shape(0)};
    shapes[0].turn = 6;
    shapes[1].tmax = 4; /* the ticks of T8, fewer levels */
    static const char *const per_site[] = {
        "ld.global.nc.u32", "st.global.u32", "st.global.u16",
        "prefetch.global.L1"};
    for (size_t i = 0; i < sizeof rules / sizeof *rules; i++)
        for (int s = 0; s < 2; s++) {
            size_t lg, l2;
            char *g = emit(rules[i].gen, &shapes[s], &lg);
            char *two = emit(rules[i].two, &shapes[s], &l2);
            gg_rule r = gg_test_rule(rules[i].gen);
            int np = gg_gen_planes_of(&r);
            for (int t = 1; t <= shapes[s].tmax; t *= 2) {
                size_t ng, n2;
                const char *eg = entry(g, t, &ng), *e2 = entry(two, t, &n2);
                for (size_t k = 0; k < 4; k++) {
                    int a = count_in(eg, ng, per_site[k]);
                    int b = count_in(e2, n2, per_site[k]);
                    if (a != np * b)
                        fail_msg("%s, shape %d, gg_step_%d: %d %s, want %d "
                                 "planes x %d", rules[i].gen, s, t, a,
                                 per_site[k], np, b);
                }
                assert_int_equal(count_in(eg, ng, ".param .u64 p_ps)"), 1);
                assert_int_equal(count_in(eg, ng, "[p_ps]"), 1);
                assert_int_equal(count_in(e2, n2, "p_ps"), 0);
            }
            assert_non_null(strstr(g, "Generations, "));
            free(g);
            free(two);
        }
}

/* Several words per lane, chains of levels and a constant row stride are
 * two-state shapes: a Generations rule is refused, naming what to drop. */
static void test_refused_shapes(void **state)
{
    (void)state;
    gg_rule r = gg_test_rule("23/3/3");
    gg_ptx_opts o[3] = {gg_ptx_tuned(4, true, 4, 2),
                        gg_ptx_tuned(4, true, 4, 1),
                        gg_ptx_tuned(4, true, 4, 1)};
    o[1].chain = 2;
    o[1].inner = 0;
    o[2].kstride = 2080;
    for (int i = 0; i < 3; i++) {
        char *src = NULL;
        size_t len;
        gg_err err;
        assert_int_equal(gg_kernel_ptx(&r, &o[i], NULL, &src, &len, &err),
                         -1);
        assert_null(src);
        assert_non_null(strstr(err.msg, "Generations"));
        assert_non_null(strstr(err.msg, "GOLGEN_GPU_TUNE"));
    }
}

static const char *ptxas_path(void)
{
    const char *env = getenv("GOLGEN_PTXAS");
    if (env)
        return access(env, X_OK) ? NULL : env;
    if (!access("/usr/local/cuda/bin/ptxas", X_OK))
        return "/usr/local/cuda/bin/ptxas";
    return system("command -v ptxas >/dev/null 2>&1") == 0 ? "ptxas" : NULL;
}

/* src into a new file under the scratch directory; its path in path. */
static void write_module(const char *src, size_t len, const char *name,
                         char *path, size_t size)
{
    snprintf(path, size, "%s/%s.ptx", gg_test_dir, name);
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    assert_int_equal(fwrite(src, 1, len, f), len);
    fclose(f);
}

/* What `golgen --target ptx` prints and the tuner's shapes, C = 3 to 40
 * (1 to 6 planes), assemble. */
static void test_ptxas(void **state)
{
    (void)state;
    const char *ptxas = ptxas_path();
    if (!ptxas) {
        print_message("ptxas not found; PTX assembly tests skipped\n");
        skip();
    }
    static const struct { const char *rule; int shape; } cases[] = {
        {"/2/3", -1}, {"23/3/3", 0}, {"12/34/8", 1}, {"345/2/40", 0}};
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        gg_ptx_opts o = gen_shape(cases[i].shape < 0 ? 0 : cases[i].shape);
        size_t len;
        char *src = emit(cases[i].rule, cases[i].shape < 0 ? NULL : &o,
                         &len);
        char path[300], cmd[800];
        write_module(src, len, "gen", path, sizeof path);
        snprintf(cmd, sizeof cmd, "'%s' -arch=sm_90 -o /dev/null '%s'",
                 ptxas, path);
        if (gg_test_status(cmd) != 0)
            fail_msg("ptxas rejected the %s module (%s)", cases[i].rule,
                     path);
        free(src);
    }
}

/* tests/ptx_sim.py on the emitted modules: two-state Life first (the
 * interpreter against a kernel the H100 runs), then Generations rules of
 * 1 to 5 planes on odd tori and planes, strips of several tasks, a grid
 * wide enough for interior tasks on the plane, every tuner shape. */
static void test_simulated(void **state)
{
    (void)state;
    const char *root = getenv("GG_SOURCE_ROOT");
    if (!root || gg_test_status("command -v python3 >/dev/null") != 0) {
        print_message("python3 or GG_SOURCE_ROOT missing; PTX simulation "
                      "skipped\n");
        skip();
    }
    static const struct {
        const char *rule;
        int shape; /* gen_shape, -1: golgen --target ptx's */
        const char *args;
    } cases[] = {
        {"B3/S23", 1, "--size 70x41 --gens 19 --strip 9"},
        {"/2/3", -1, "--size 70x41 --gens 19"},
        {"/2/3", 0, "--size 67x29 --topo P --gens 21 --strip 7"},
        {"23/3/3", 1, "--size 45x30 --gens 13 --strip 5 --seed 2"},
        {"12/34/8", 2, "--size 65x37 --gens 23 --strip 11 --seed 3"},
        {"12/34/8", 0, "--size 33x20 --topo P --gens 17 --seed 4"},
        {"345/2/17H", 0, "--size 40x23 --gens 11 --seed 5"},
        {"2/3/5V", 1, "--size 2100x40 --topo P --gens 9 --strip 6"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        gg_ptx_opts o = gen_shape(cases[i].shape < 0 ? 0 : cases[i].shape);
        size_t len;
        char *src = emit(cases[i].rule, cases[i].shape < 0 ? NULL : &o,
                         &len);
        char path[300], cmd[1200];
        write_module(src, len, "sim", path, sizeof path);
        snprintf(cmd, sizeof cmd, "python3 '%s/tests/ptx_sim.py' '%s' '%s' "
                 "%s", root, path, cases[i].rule, cases[i].args);
        if (gg_test_status(cmd) != 0)
            fail_msg("%s (shape %d) %s: the simulated kernel differs from "
                     "the rule (ptx_sim.py said why above)", cases[i].rule,
                     cases[i].shape, cases[i].args);
        free(src);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_one_access_per_plane),
        cmocka_unit_test(test_refused_shapes),
        cmocka_unit_test(test_ptxas),
        cmocka_unit_test(test_simulated),
    };
    return cmocka_run_group_tests(tests, gg_test_setup_dir,
                                  gg_test_teardown_dir);
}

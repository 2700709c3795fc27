/* The CPU backend: random rules and sizes against the reference, validation
 * refusing broken kernels, the universe and the run/bench commands. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "test_util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cpu_backend.h"
#include "kernel_source.h"
#include "emit_c.h"
#include "choose.h"
#include "reference.h"
#include "universe.h"


static uint64_t rng = 0x9e3779b97f4a7c15ull;
static uint64_t next_rand(void)
{
    return gg_test_xorshift(&rng);
}

static gg_cpu *open_cpu(const gg_rule *r)
{
    gg_cpu_opts o = {.cache_dir = gg_test_dir};
    gg_cpu *cpu;
    gg_fail_kind why;
    gg_err err;
    if (gg_cpu_open(r, &o, &cpu, &why, &err))
        fail_msg("%s", err.msg);
    return cpu;
}

/* Random birth and survival sets; neighbourhood k: Moore, von Neumann, hex. */
static gg_rule random_rule(int k)
{
    static const int counts[3] = {8, 4, 6};
    char text[64];
    gg_rule r;
    gg_err err;
    uint32_t mask = (1u << (counts[k] + 1)) - 1;
    uint32_t b = (uint32_t)next_rand() & mask, s = (uint32_t)next_rand() & mask;
    int n = snprintf(text, sizeof text, "B");
    for (int i = 0; i <= counts[k]; i++)
        if (b >> i & 1)
            n += snprintf(text + n, sizeof text - (size_t)n, "%d", i);
    n += snprintf(text + n, sizeof text - (size_t)n, "/S");
    for (int i = 0; i <= counts[k]; i++)
        if (s >> i & 1)
            n += snprintf(text + n, sizeof text - (size_t)n, "%d", i);
    snprintf(text + n, sizeof text - (size_t)n, "%s",
             k == 1 ? "V" : k == 2 ? "H" : "");
    assert_int_equal(gg_rule_parse(text, &r, &err), 0);
    return r;
}

/* 6 random rules x 9 random grids = 54 cases, odd widths included. */
static void test_random_cases(void **state)
{
    (void)state;
    static const int64_t widths[] = {1, 2, 7, 63, 64, 65, 97, 128, 131, 250};
    for (int i = 0; i < 6; i++) {
        gg_rule r = random_rule(i % 3);
        gg_cpu *cpu = open_cpu(&r);
        for (int k = 0; k < 9; k++) {
            int64_t w = widths[next_rand() % 10];
            int64_t h = 1 + (int64_t)(next_rand() % 70);
            int64_t gens = 1 + (int64_t)(next_rand() % 40);
            gg_topo topo = next_rand() % 2 ? GG_TOPO_PLANE : GG_TOPO_TORUS;
            gg_grid a, b;
            gg_err err;
            assert_int_equal(gg_grid_init(&a, w, h, &err), 0);
            gg_grid_random(&a, 0.1 + 0.1 * (double)(next_rand() % 7),
                           next_rand());
            assert_int_equal(gg_grid_copy(&b, &a, &err), 0);
            assert_int_equal(gg_cpu_step(cpu, topo, &a, gens, &err), 0);
            gg_test_reference_run(&r, topo, &b, gens);
            if (!gg_grid_equal(&a, &b)) {
                char text[128];
                gg_rule_format(&r, text, sizeof text);
                fail_msg("%s %s %lldx%lld %lld gens differs", text,
                         topo == GG_TOPO_TORUS ? "torus" : "plane",
                         (long long)w, (long long)h, (long long)gens);
            }
            gg_grid_free(&a);
            gg_grid_free(&b);
        }
        gg_cpu_close(cpu);
    }
}

/* Open from source; must be refused by validation. */
static void expect_invalid(const gg_rule *r, const char *src, size_t len,
                           const char *isa)
{
    gg_cpu_opts o = {.cache_dir = gg_test_dir, .isa = isa};
    gg_cpu *cpu;
    gg_fail_kind why;
    gg_err err;
    assert_int_equal(gg_cpu_open_source(r, src, len, &o, &cpu, &why, &err),
                     -1);
    assert_null(cpu);
    assert_int_equal(why, GG_FAIL_INVALID);
    assert_non_null(strstr(err.msg, "validation failed"));
}

/* The kernel source of the LUT3 network c[0] and the gate2 network c[1]. */
/* The source goes straight to the caller's *src: returned through a local
 * here, gcc 12 took it for that local's address (-Wdangling-pointer). */
static void emit_pair(const gg_circuit c[2], char **src, size_t *len)
{
    gg_err err;
    assert_int_equal(gg_emit_c_circuits(&c[0], &c[1], NULL, src, len, &err),
                     0);
}

/* The network a kernel at `isa` runs: AVX-512's is the LUT3 one, AVX2's and
 * portable C's the gate2 one (templates/c/kernel.c.in). Which of them
 * "native" is depends on the compiler's target (an AVX2-only host, or a cc
 * capped as tests/run_all.sh does, builds avx2), so the intact kernel is
 * opened and asked; it must pass the validation the broken ones fail. */
static gg_circuit *net_run_at(const gg_rule *r, gg_circuit c[2],
                              const char *isa)
{
    gg_cpu_opts o = {.cache_dir = gg_test_dir, .isa = isa};
    gg_cpu *cpu;
    gg_fail_kind why;
    gg_err err;
    size_t len;
    char *src;
    emit_pair(c, &src, &len);
    if (gg_cpu_open_source(r, src, len, &o, &cpu, &why, &err))
        fail_msg("the intact kernel at %s: %s", isa, err.msg);
    free(src);
    bool lut3 = !strcmp(gg_cpu_isa(cpu), "avx512");
    gg_cpu_close(cpu);
    return lut3 ? &c[0] : &c[1];
}

/* *byte ^= flip breaks net (the circuit check says so); the kernel at isa
 * is refused. The byte is restored. */
static void expect_broken_refused(const gg_rule *r, gg_circuit c[2],
                                  gg_circuit *net, uint8_t *byte,
                                  uint8_t flip, const char *isa)
{
    int bad_row;
    size_t len;
    *byte ^= flip;
    assert_true(gg_circuit_check(net, &bad_row) > 0);
    char *src;
    emit_pair(c, &src, &len);
    expect_invalid(r, src, len, isa);
    free(src);
    *byte ^= flip;
}

/* At each ISA, the network that ISA runs with one wrong LUT bit (LUT3) or
 * a complemented output (gate2, which has no LUTs) compiles fine and is
 * refused; so is a template with a broken wrap. Breaking a network the
 * kernel does not run would prove nothing: validation rightly accepts. */
/* What the kernel's network costs, as the tree's leaf choice reads it:
 * Life's lut3 network is the row sum's 2 gates (shared by three rows)
 * and its proven-minimal 6-gate final stage (BENCHMARKS.md, "Life's
 * final stage"), 8 a word on the AVX-512 path; any path says > 0, and a
 * Hensel rule with more letters costs more than Life. */
static void test_gates_per_word(void **state)
{
    (void)state;
    gg_rule life, hensel;
    gg_err err;
    assert_int_equal(gg_rule_parse("B3/S23", &life, &err), 0);
    assert_int_equal(gg_rule_parse("B2ein3cijn4cnrwy5cnq6e/S1c2-ai3acny4an"
                                   "qy5c6ek8", &hensel, &err), 0);
    gg_cpu *a = open_cpu(&life), *b = open_cpu(&hensel);
    int ga = gg_cpu_gates_per_word(a), gb = gg_cpu_gates_per_word(b);
    assert_true(ga > 0);
    assert_true(gb > ga);
    if (!strcmp(gg_cpu_isa(a), "avx512"))
        assert_int_equal(ga, 8);
    gg_cpu_close(a);
    gg_cpu_close(b);
}

/* The pass the backend tells callers (gg_backend_desc.pass_gens: golgen
 * serve sizes its batches by it) is the one its kernel runs. */
static void test_pass_is_the_kernels(void **state)
{
    (void)state;
    gg_rule life;
    gg_err err;
    char *src;
    size_t len;
    assert_int_equal(gg_rule_parse("B3/S23", &life, &err), 0);
    assert_int_equal(gg_kernel_c(&life, NULL, &src, &len, &err), 0);
    char want[64];
    snprintf(want, sizeof want, "#define GG_TDEF %d\n", GG_CPU_PASS_GENS);
    assert_non_null(strstr(src, want));
    free(src);
}

static void test_validation_rejects(void **state)
{
    (void)state;
    gg_rule r;
    gg_err err;
    assert_int_equal(gg_rule_parse("B3/S23", &r, &err), 0);
    gg_circuit *c = calloc(2, sizeof *c);
    assert_non_null(c);
    assert_int_equal(gg_choose_kernel_circuit(&r, GG_LIB_LUT3, NULL, &c[0],
                                              &err), 0);
    assert_int_equal(gg_choose_kernel_circuit(&r, GG_LIB_GATE2, NULL, &c[1],
                                              &err), 0);
    static const char *const isas[] = {"native", "avx2", "portable"};
    for (int i = 0; i < 3; i++) {
        gg_circuit *net = net_run_at(&r, c, isas[i]);
        gg_gate *last = &net->final.gate[net->final.n_gates - 1];
        if (net == &c[0])
            expect_broken_refused(&r, c, net, &last->lut, 0x10, isas[i]);
        else
            expect_broken_refused(&r, c, net, &net->final.out_neg[0], 1,
                                  isas[i]);
    }

    /* The kernel itself: wrap the torus one cell off. */
    size_t len;
    char *src;
    emit_pair(c, &src, &len);
    char *wrap = strstr(src, "p = gg_mod(p, g->width);");
    assert_non_null(wrap);
    memcpy(wrap, "p=gg_mod(p+1,g->width);", 23);
    expect_invalid(&r, src, len, "native");
    free(src);
    free(c);
}

/* The unbounded plane through the universe's growing grid: the
 * R-pentomino settles at generation 1103 with 116 cells. */
static void test_universe_rpentomino(void **state)
{
    (void)state;
    static const char rle[] = "x = 3, y = 3, rule = B3/S23\nb2o$2o$bo!\n";
    gg_pattern p;
    gg_universe u;
    gg_rule r;
    gg_err err;
    assert_int_equal(gg_rule_parse("B3/S23", &r, &err), 0);
    assert_int_equal(gg_pattern_parse(rle, strlen(rle), "r", &p, &err), 0);
    assert_int_equal(gg_universe_from_pattern(&u, &r, &p, &err), 0);
    gg_cpu *cpu = open_cpu(&r);
    gg_stepper s = gg_cpu_stepper(cpu);
    assert_int_equal(gg_universe_run(&u, &s, 1103, NULL, NULL, &err), 0);
    assert_int_equal(gg_universe_population(&u), 116);
    gg_cpu_close(cpu);
    gg_universe_free(&u);
    gg_pattern_free(&p);
}

/* golgen run --backend cpu writes what the reference backend writes. */
static void test_cli_run(void **state)
{
    (void)state;
    const char *golgen = getenv("GG_GOLGEN");
    assert_non_null(golgen);
    char cmd[16384], a[1024], b[1024], in[1024];
    snprintf(in, sizeof in, "%s/in.rle", gg_test_dir);
    snprintf(a, sizeof a, "%s/a.rle", gg_test_dir);
    snprintf(b, sizeof b, "%s/b.rle", gg_test_dir);
    FILE *f = fopen(in, "w");
    assert_non_null(f);
    fputs("x = 10, y = 6, rule = B36/S23\nbo2bo3bo$2obobo2bo$bo2b3o$3o3b2o$"
          "o2bo$2bobo!\n", f);
    fclose(f);
    static const char *rules[] = {"B36/S23:T67,45", "B36/S23:P70,40",
                                  "B36/S23"};
    for (int i = 0; i < 3; i++) {
        snprintf(cmd, sizeof cmd, "GOLGEN_CACHE_DIR='%s' '%s' run --rule '%s' "
                 "--gens 300 --backend %s -o '%s' '%s' 2>/dev/null",
                 gg_test_dir, golgen, rules[i], "cpu", a, in);
        assert_int_equal(gg_test_status(cmd), 0);
        snprintf(cmd, sizeof cmd, "'%s' run --rule '%s' --gens 300 --backend "
                 "reference -o '%s' '%s' 2>/dev/null", golgen, rules[i], b,
                 in);
        assert_int_equal(gg_test_status(cmd), 0);
        snprintf(cmd, sizeof cmd, "cmp -s '%s' '%s'", a, b);
        assert_int_equal(gg_test_status(cmd), 0);
    }
}

/* bench --json carries the fields scripts read. */
static void test_cli_bench_json(void **state)
{
    (void)state;
    const char *golgen = getenv("GG_GOLGEN");
    assert_non_null(golgen);
    char cmd[8192], out[1024];
    snprintf(out, sizeof out, "%s/bench.json", gg_test_dir);
    snprintf(cmd, sizeof cmd, "GOLGEN_CACHE_DIR='%s' '%s' bench --backend cpu "
             "--rule B3/S23 --size 100x50 --gens 5 --json > '%s'", gg_test_dir,
             golgen, out);
    assert_int_equal(gg_test_status(cmd), 0);
    char buf[2048] = {0};
    FILE *fp = fopen(out, "r");
    assert_non_null(fp);
    size_t n = fread(buf, 1, sizeof buf - 1, fp);
    fclose(fp);
    assert_true(n > 0);
    static const char *keys[] = {
        "\"rule\": \"B3/S23\"", "\"backend\": \"cpu\"", "\"isa\": ",
        "\"threads\": ", "\"topology\": \"torus\"", "\"width\": 100",
        "\"height\": 50", "\"generations\": 5", "\"seconds\": ", "\"cups\": ",
        "\"cpu_seconds\": ", "\"population\": "};
    for (size_t i = 0; i < sizeof keys / sizeof *keys; i++)
        if (!strstr(buf, keys[i]))
            fail_msg("bench --json lacks %s: %s", keys[i], buf);
    snprintf(cmd, sizeof cmd, "'%s' bench --backend nope 2>/dev/null", golgen);
    assert_int_equal(gg_test_status(cmd), 2);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_random_cases),
        cmocka_unit_test(test_validation_rejects),
        cmocka_unit_test(test_gates_per_word),
        cmocka_unit_test(test_pass_is_the_kernels),
        cmocka_unit_test(test_universe_rpentomino),
        cmocka_unit_test(test_cli_run),
        cmocka_unit_test(test_cli_bench_json),
    };
    return cmocka_run_group_tests(tests, gg_test_setup_dir,
                                  gg_test_teardown_dir);
}

/* golgen's reference simulator against Golly itself (bgolly), on random
 * rules of all three neighbourhoods, random sizes (odd widths included),
 * torus and bounded plane, random densities and generation counts.
 * bgolly writes its result trimmed to the live bounding box and without a
 * position, so the comparison is of the trimmed boxes, cell for cell; the
 * input fills the whole grid, so there is no placement freedom. Set
 * GG_ORACLE_SEED to explore other cases. The CPU and OpenCL backends'
 * kernels are checked against bgolly the same way. */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "test_opencl_util.h"
#include "test_util.h"

#include "cpu_backend.h"
#include "universe.h"

#define CASES 60

static uint64_t rng_state;
static uint64_t rng(void)
{
    return gg_test_xorshift(&rng_state);
}
static int64_t pick(int64_t lo, int64_t hi)
{
    return lo + (int64_t)(rng() % (uint64_t)(hi - lo + 1));
}

static const int64_t widths[] = {1, 3, 37, 63, 64, 65, 100, 127, 130};

static gg_rule random_rule(void)
{
    gg_rule r;
    memset(&r, 0, sizeof r);
    r.nbhd = (gg_nbhd)pick(0, GG_NBHD_COUNT - 1);
    gg_nbhd_offsets(r.nbhd, &r.n_neighbours);
    uint32_t all = (2u << r.n_neighbours) - 1;
    /* B0 rules are covered separately: Golly emulates them. */
    r.birth = (uint32_t)rng() & all & ~1u;
    r.survive = (uint32_t)rng() & all;
    r.topo = pick(0, 1) ? GG_TOPO_TORUS : GG_TOPO_PLANE;
    r.width = pick(0, 3) ? widths[pick(0, 8)] : pick(1, 150);
    r.height = pick(1, 90);
    return r;
}

static char *tmpdir;

static int setup(void **state)
{
    (void)state;
    if (system("command -v bgolly >/dev/null 2>&1") != 0)
        return 0;
    static char templ[] = "/tmp/gg_oracle_XXXXXX";
    tmpdir = mkdtemp(templ);
    return tmpdir ? 0 : -1;
}

static int teardown(void **state)
{
    (void)state;
    return tmpdir ? gg_test_rmtree(tmpdir) : 0;
}

/* bgolly runs `in` for gens generations and writes `out`. */
static void bgolly(int64_t gens, const char *in, const char *out)
{
    char cmd[1200];
    snprintf(cmd, sizeof cmd, "bgolly -q -q -m %lld -o '%s' '%s' >/dev/null "
             "2>&1", (long long)gens, out, in);
    assert_int_equal(system(cmd), 0);
}

/* Write the whole universe grid as the input RLE (full x/y header). */
static void write_input(const gg_universe *u, const char *path)
{
    gg_pattern p;
    gg_err err;
    char rule[256];
    memset(&p, 0, sizeof p);
    gg_rule_format(&u->rule, rule, sizeof rule);
    p.rule = rule;
    p.x = u->x0;
    p.y = u->y0;
    p.n_planes = 1;
    p.plane[0] = u->grid;
    if (gg_pattern_write_rle(path, &p, &err))
        fail_msg("%s", err.msg);
}

/* Trimmed boxes equal: same size, same cells, same rule text. */
static void compare(const gg_universe *u, const char *path, int n)
{
    gg_pattern mine, theirs;
    gg_err err;
    assert_int_equal(gg_universe_to_pattern(u, &mine, &err), 0);
    if (gg_pattern_read(path, &theirs, &err))
        fail_msg("case %d: reading bgolly output: %s", n, err.msg);
    if (gg_universe_population(u) == 0) {
        assert_int_equal(gg_pattern_max_state(&theirs), 0);
    } else {
        if (!gg_grid_equal(&mine.plane[0], &theirs.plane[0]))
            fail_msg("case %d: %s: golgen and bgolly differ (box %lldx%lld "
                     "vs %lldx%lld)", n, mine.rule,
                     (long long)mine.plane[0].width,
                     (long long)mine.plane[0].height,
                     (long long)theirs.plane[0].width,
                     (long long)theirs.plane[0].height);
    }
    /* Golly writes the rule back in canonical form: so must we. */
    assert_non_null(theirs.rule);
    assert_string_equal(mine.rule, theirs.rule);
    gg_pattern_free(&mine);
    gg_pattern_free(&theirs);
}

/* One case: a random soup filling the rule's bounded grid, run by bgolly
 * and by `stepper` (the reference unless given), compared. */
static void run_case_with(int n, const gg_rule *rule, double density,
                          int64_t gens, const gg_stepper *stepper)
{
    char in[512], out[512];
    gg_universe u;
    gg_err err;
    snprintf(in, sizeof in, "%s/in%d.rle", tmpdir, n);
    snprintf(out, sizeof out, "%s/out%d.rle", tmpdir, n);
    /* The rule as golgen writes it must parse back to itself (bgolly reads
     * the same text). */
    char text[256];
    gg_rule parsed;
    gg_rule_format(rule, text, sizeof text);
    if (gg_rule_parse(text, &parsed, &err))
        fail_msg("case %d: '%s' does not parse: %s", n, text, err.msg);
    assert_memory_equal(&parsed, rule, sizeof parsed);
    assert_int_equal(gg_universe_init(&u, rule, &err), 0);
    gg_grid_random(&u.grid, density, rng());
    write_input(&u, in);
    bgolly(gens, in, out);
    gg_stepper s = stepper ? *stepper : gg_reference_stepper();
    assert_int_equal(gg_universe_run(&u, &s, gens, NULL, NULL, &err), 0);
    compare(&u, out, n);
    gg_universe_free(&u);
}

static void run_case(int n, const gg_rule *rule, double density,
                     int64_t gens)
{
    run_case_with(n, rule, density, gens, NULL);
}

/* Golly emulates B0 rules by complementing its stored cells: always when
 * the rule has S<max>, at odd generations otherwise; bgolly writes that
 * stored state. golgen simulates B0 literally, so on a torus (no outside)
 * the two agree after the same complement. */
static bool golly_complements(const gg_rule *r, int64_t gen)
{
    bool smax = (r->survive >> r->n_neighbours) & 1u;
    return smax || (gen & 1);
}

static void complement(gg_grid *g)
{
    for (int64_t y = 0; y < g->height; y++) {
        uint64_t *row = gg_grid_row(g, y);
        for (int64_t w = 0; w < g->stride; w++)
            row[w] = ~row[w];
        row[g->stride - 1] &= gg_grid_tail_mask(g);
    }
}

static void test_b0_torus_cases(void **state)
{
    (void)state;
    if (!tmpdir)
        skip();
    rng_state = 0x9E3779B97F4A7C15ull;
    for (int n = 0; n < 12; n++) {
        gg_rule r = random_rule();
        r.birth |= 1u;
        r.topo = GG_TOPO_TORUS;
        int64_t gens = pick(1, 40);
        char in[512], out[512];
        gg_universe u;
        gg_err err;
        snprintf(in, sizeof in, "%s/b0in%d.rle", tmpdir, n);
        snprintf(out, sizeof out, "%s/b0out%d.rle", tmpdir, n);
        assert_int_equal(gg_universe_init(&u, &r, &err), 0);
        gg_grid_random(&u.grid, 0.3, rng());
        /* With S<max> Golly stores even generation 0 complemented. */
        if (golly_complements(&r, 0))
            complement(&u.grid);
        write_input(&u, in);
        if (golly_complements(&r, 0))
            complement(&u.grid);
        bgolly(gens, in, out);
        gg_stepper s = gg_reference_stepper();
        assert_int_equal(gg_universe_run(&u, &s, gens, NULL, NULL, &err), 0);
        if (golly_complements(&r, gens))
            complement(&u.grid);
        compare(&u, out, 1000 + n);
        gg_universe_free(&u);
    }
}

/* A small soup read from its own RLE into a larger bounded plane: Golly
 * centres it; where it lands decides what the edges do to it. */
static void test_small_pattern_placement(void **state)
{
    (void)state;
    if (!tmpdir)
        skip();
    rng_state = 0xD1B54A32D192ED03ull;
    for (int n = 0; n < 16; n++) {
        gg_rule r;
        gg_err err;
        assert_int_equal(gg_rule_parse(n % 2 ? "B3/S23" : "B36/S23", &r, &err),
                         0);
        r.topo = GG_TOPO_PLANE;
        r.width = pick(8, 40), r.height = pick(8, 40);
        char rule[128], in[512], out[512];
        gg_rule_format(&r, rule, sizeof rule);
        gg_pattern p;
        memset(&p, 0, sizeof p);
        p.rule = rule;
        p.n_planes = 1;
        assert_int_equal(gg_grid_init(&p.plane[0], pick(2, 7), pick(2, 7),
                                      &err), 0);
        gg_grid_random(&p.plane[0], 0.5, rng());
        gg_grid_set(&p.plane[0], 0, 0, 1); /* the box is the whole grid */
        gg_grid_set(&p.plane[0], p.plane[0].width - 1,
                    p.plane[0].height - 1, 1);
        p.x = -(p.plane[0].width / 2), p.y = -(p.plane[0].height / 2);
        snprintf(in, sizeof in, "%s/small%d.rle", tmpdir, n);
        snprintf(out, sizeof out, "%s/smallout%d.rle", tmpdir, n);
        assert_int_equal(gg_pattern_write_rle(in, &p, &err), 0);
        gg_grid_free(&p.plane[0]);
        gg_pattern read_back;
        gg_universe u;
        assert_int_equal(gg_pattern_read(in, &read_back, &err), 0);
        assert_int_equal(gg_universe_from_pattern(&u, &r, &read_back, &err),
                         0);
        gg_pattern_free(&read_back);
        int64_t gens = pick(5, 80);
        bgolly(gens, in, out);
        gg_stepper s = gg_reference_stepper();
        assert_int_equal(gg_universe_run(&u, &s, gens, NULL, NULL, &err), 0);
        compare(&u, out, 2000 + n);
        gg_universe_free(&u);
    }
}

/* The i-th rule a backend is checked on: random, of neighbourhood i mod 3. */
static gg_rule backend_rule(int i)
{
    gg_rule rule = random_rule();
    rule.nbhd = (gg_nbhd)(i % GG_NBHD_COUNT);
    gg_nbhd_offsets(rule.nbhd, &rule.n_neighbours);
    uint32_t all = (2u << rule.n_neighbours) - 1;
    rule.birth &= all, rule.survive &= all;
    return rule;
}

/* 9 random grids (size, torus or plane, density, generations) of rule run
 * by stepper and by bgolly; cases numbered from *n on. */
static void backend_grids(gg_rule rule, const gg_stepper *s, int *n)
{
    for (int k = 0; k < 9; k++) {
        gg_rule grid = random_rule();
        rule.topo = grid.topo, rule.width = grid.width;
        rule.height = grid.height;
        double density = 0.1 + 0.5 * (double)(rng() % 1000) / 1000.0;
        run_case_with((*n)++, &rule, density, pick(1, 100), s);
    }
}

/* The JIT-compiled CPU kernels straight against bgolly: 6 random rules of
 * the three neighbourhoods x 9 grids each. */
static void test_cpu_backend_cases(void **state)
{
    (void)state;
    if (!tmpdir)
        skip();
    char cache[512];
    snprintf(cache, sizeof cache, "%s/jit", tmpdir);
    gg_cpu_opts opts = {.cache_dir = cache};
    rng_state = 0xA0761D6478BD642Full;
    int cases = 3000;
    for (int i = 0; i < 6; i++) {
        gg_rule rule = backend_rule(i);
        gg_cpu *cpu;
        gg_fail_kind why;
        gg_err err;
        if (gg_cpu_open(&rule, &opts, &cpu, &why, &err))
            fail_msg("cpu backend: %s", err.msg);
        gg_stepper s = gg_cpu_stepper(cpu);
        backend_grids(rule, &s, &cases);
        gg_cpu_close(cpu);
    }
    printf("oracle: %d cpu-backend cases identical to bgolly\n",
           cases - 3000);
}

/* The OpenCL kernels (PoCL in CI) straight against bgolly, as the CPU
 * kernels above: 6 random rules x 9 grids, each through the backend's own
 * validation first. */
static void test_opencl_backend_cases(void **state)
{
    (void)state;
    if (!tmpdir || gg_test_opencl_skipped())
        skip();
    rng_state = 0x9E3779B97F4A7C15ull;
    int cases = 4000;
    for (int i = 0; i < 6; i++) {
        gg_rule rule = backend_rule(i);
        gg_opencl *c = gg_test_opencl_open(&rule, NULL);
        if (!c)
            skip();
        gg_stepper s = gg_opencl_stepper(c);
        backend_grids(rule, &s, &cases);
        gg_opencl_close(c);
    }
    printf("oracle: %d opencl-backend cases identical to bgolly\n",
           cases - 4000);
}

static void test_random_cases(void **state)
{
    (void)state;
    if (!tmpdir)
        skip();
    const char *seed = getenv("GG_ORACLE_SEED");
    rng_state = seed ? strtoull(seed, NULL, 0) | 1 : 0x2545F4914F6CDD1Dull;
    int per_family[GG_NBHD_COUNT] = {0}, per_topo[2] = {0};
    for (int n = 0; n < CASES; n++) {
        gg_rule rule = random_rule();
        double density = 0.05 + 0.6 * (double)(rng() % 1000) / 1000.0;
        int64_t gens = pick(1, 120);
        run_case(n, &rule, density, gens);
        per_family[rule.nbhd]++;
        per_topo[rule.topo == GG_TOPO_TORUS]++;
    }
    printf("oracle: %d cases identical to bgolly (Moore %d, von Neumann %d, "
           "hexagonal %d; torus %d, plane %d)\n", CASES, per_family[0],
           per_family[1], per_family[2], per_topo[1], per_topo[0]);
}

/* ---- table rules: Hensel and MAP ---- */

/* Random Hensel text: per count of each part, nothing, the digit, the
 * digit and some letters, or the digit, '-' and some letters; no B0. */
static void random_hensel_text(char *buf, size_t size)
{
    static const char *letters[9] = {"", "ce", "ceaikn", "ceaiknjqry",
                                     "ceaiknjqrytwz", "ceaiknjqry",
                                     "ceaikn", "ce", ""};
    size_t n = 0;
    for (int part = 0; part < 2; part++) {
        n += (size_t)snprintf(buf + n, size - n, "%s", part ? "/S" : "B");
        for (int c = part ? 0 : 1; c <= 8; c++) {
            int how = (int)pick(0, 5), nl = (int)strlen(letters[c]);
            if (how < 2)
                continue;
            buf[n++] = (char)('0' + c);
            if (how == 5 && nl)
                buf[n++] = '-';
            for (int l = 0; how >= 4 && l < nl && n + 2 < size; l++)
                if (pick(0, 2) == 0)
                    buf[n++] = letters[c][l];
        }
        buf[n] = 0;
    }
}

static gg_rule canonical(const char *text);

/* A random MAP rule of any neighbourhood, without B0 (as read back from
 * its text, Golly digits included). */
static gg_rule random_map_rule(void)
{
    gg_rule r;
    memset(&r, 0, sizeof r);
    r.kind = GG_KIND_TABLE;
    r.notation = GG_NOTATION_MAP;
    r.nbhd = (gg_nbhd)pick(0, GG_NBHD_COUNT - 1);
    gg_nbhd_offsets(r.nbhd, &r.n_neighbours);
    for (int w = 0; w < GG_TABLE_WORDS; w++)
        r.table[w] = rng();
    int rows = 2 << r.n_neighbours;
    if (rows < 512)
        for (int w = 0; w < GG_TABLE_WORDS; w++)
            r.table[w] = w * 64 >= rows ? 0
                         : rows - w * 64 < 64 ? r.table[w] &
                                                 ((1ull << (rows - w * 64)) - 1)
                                              : r.table[w];
    r.table[0] &= ~1ull;
    char text[256];
    gg_rule_format(&r, text, sizeof text);
    return canonical(text);
}

/* The rule golgen reads back from its own canonical text (the letters as
 * written then, so that run_case_with's round trip holds). */
static gg_rule canonical(const char *text)
{
    gg_rule r, again;
    gg_err err;
    char canon[256];
    if (gg_rule_parse(text, &r, &err))
        fail_msg("'%s' does not parse: %s", text, err.msg);
    gg_rule_format(&r, canon, sizeof canon);
    if (gg_rule_parse(canon, &again, &err))
        fail_msg("canonical '%s' of '%s' does not parse: %s", canon, text,
                 err.msg);
    return again;
}

/* Hensel text as bgolly writes it back, for the notation check. */
static void bgolly_canonical(const char *text, char *out, size_t size)
{
    char in[512], res[512];
    snprintf(in, sizeof in, "%s/hensel.rle", tmpdir);
    snprintf(res, sizeof res, "%s/hensel-out.rle", tmpdir);
    FILE *f = fopen(in, "w");
    assert_non_null(f);
    fprintf(f, "x = 3, y = 3, rule = %s\nbo$2bo$3o!\n", text);
    fclose(f);
    bgolly(1, in, res);
    gg_pattern p;
    gg_err err;
    if (gg_pattern_read(res, &p, &err))
        fail_msg("%s", err.msg);
    snprintf(out, size, "%s", p.rule ? p.rule : "");
    gg_pattern_free(&p);
}

/* Hensel rules as written by hand and at random: golgen's canonical form
 * is Golly's, letter for letter. */
static void test_hensel_notation(void **state)
{
    (void)state;
    if (!tmpdir)
        skip();
    static const char *fixed[] = {
        "B2n3/S23-q", "B2-a/S12", "B34e/S2-i3", "b3-jqr/s23", "B3c3/S",
        "B33c/S", "B4cekainyjqrt/S", "B4cekainyj/S", "B4cekainyjq/S",
        "s23-q/b2n3", "B2n3S23-q", "B3-cekainyjqr/S23", "B3cekainyjqr/S23",
        "B2cekain/S", "B2ce3-q/S1e2-a"};
    rng_state = 0x5DEECE66Dull;
    int n = 0;
    for (size_t i = 0; i < sizeof fixed / sizeof *fixed + 40; i++, n++) {
        char text[128], mine[256], theirs[256];
        if (i < sizeof fixed / sizeof *fixed)
            snprintf(text, sizeof text, "%s", fixed[i]);
        else
            random_hensel_text(text, sizeof text);
        gg_rule r;
        gg_err err;
        if (gg_rule_parse(text, &r, &err))
            fail_msg("'%s': %s", text, err.msg);
        gg_rule_format(&r, mine, sizeof mine);
        bgolly_canonical(text, theirs, sizeof theirs);
        if (strcmp(mine, theirs))
            fail_msg("'%s': golgen writes '%s', Golly '%s'", text, mine,
                     theirs);
    }
    printf("oracle: %d Hensel rules written back as Golly writes them\n",
           n);
}

/* Random Hensel and MAP rules (MAP: Moore, hexagonal and von Neumann) on
 * random tori and bounded planes, on the reference simulator. */
static void test_table_rule_cases(void **state)
{
    (void)state;
    if (!tmpdir)
        skip();
    rng_state = 0xC2B2AE3D27D4EB4Full;
    int hensel = 0, map = 0;
    for (int n = 0; n < 36; n++) {
        char text[128];
        gg_rule rule;
        if (n % 2) {
            rule = random_map_rule();
            map++;
        } else {
            random_hensel_text(text, sizeof text);
            rule = canonical(text);
            hensel++;
        }
        gg_rule grid = random_rule();
        rule.topo = grid.topo, rule.width = grid.width;
        rule.height = grid.height;
        double density = 0.1 + 0.5 * (double)(rng() % 1000) / 1000.0;
        run_case(5000 + n, &rule, density, pick(1, 80));
    }
    printf("oracle: %d Hensel and %d MAP cases identical to bgolly\n",
           hensel, map);
}

/* One case on Golly's unbounded plane: p (one plane, its rule text set)
 * written at (0, 0), run gens generations by bgolly and by the
 * reference, compared; p's grid is freed. */
static void plane_case(int n, const gg_rule *rule, gg_pattern *p,
                       int64_t gens)
{
    char in[512], out[512];
    gg_err err;
    gg_universe u;
    snprintf(in, sizeof in, "%s/plane%d.rle", tmpdir, n);
    snprintf(out, sizeof out, "%s/planeout%d.rle", tmpdir, n);
    assert_int_equal(gg_pattern_write_rle(in, p, &err), 0);
    assert_int_equal(gg_universe_from_pattern(&u, rule, p, &err), 0);
    gg_grid_free(&p->plane[0]);
    bgolly(gens, in, out);
    gg_stepper s = gg_reference_stepper();
    assert_int_equal(gg_universe_run(&u, &s, gens, NULL, NULL, &err), 0);
    compare(&u, out, n);
    gg_universe_free(&u);
}

/* A pattern of one w x h plane under rule_text, its cells random. */
static void random_plane(gg_pattern *p, char *rule_text, int64_t w,
                         int64_t h, double density)
{
    gg_err err;
    memset(p, 0, sizeof *p);
    p->rule = rule_text;
    p->n_planes = 1;
    assert_int_equal(gg_grid_init(&p->plane[0], w, h, &err), 0);
    gg_grid_random(&p->plane[0], density, rng());
}

/* Hensel rules on Golly's unbounded plane: a soup at (0, 0) on both. */
static void test_table_rule_unbounded(void **state)
{
    (void)state;
    if (!tmpdir)
        skip();
    rng_state = 0x165667B19E3779F9ull;
    for (int n = 0; n < 8; n++) {
        char text[128], rule_text[256];
        random_hensel_text(text, sizeof text);
        gg_rule rule = canonical(text);
        gg_rule_format(&rule, rule_text, sizeof rule_text);
        gg_pattern p;
        int64_t w = pick(5, 30), h = pick(5, 30);
        random_plane(&p, rule_text, w, h, 0.4);
        plane_case(6000 + n, &rule, &p, pick(10, 60));
    }
}

/* Wolfram's elementary rules (W0..W254, even) on the unbounded plane, a
 * random row or block at (0, 0), and on random tori: bgolly's QuickLife
 * runs Golly's own Wn, golgen its MAP table (gen/rules/rule_wolfram.c). */
static void test_wolfram_rules(void **state)
{
    (void)state;
    if (!tmpdir)
        skip();
    rng_state = 0x57A1F0CADE5EED22ull;
    static const int fixed[] = {0, 22, 30, 90, 110, 150, 254};
    int n = 0;
    for (int i = 0; i < 24; i++, n++) {
        int w = i < 7 ? fixed[i] : (int)pick(0, 127) * 2;
        char text[16];
        snprintf(text, sizeof text, "W%d", w);
        gg_rule rule = canonical(text);
        gg_pattern p;
        int64_t rows = i % 3 ? 1 : pick(2, 12);
        random_plane(&p, text, pick(1, 60), rows, 0.5);
        gg_grid_set(&p.plane[0], 0, 0, 1);
        plane_case(9000 + i, &rule, &p, pick(1, 90));
    }
    for (int i = 0; i < 8; i++, n++) {
        char text[64];
        snprintf(text, sizeof text, "W%d:T%d,%d", (int)pick(0, 127) * 2,
                 (int)pick(3, 70), (int)pick(3, 40));
        gg_rule rule = canonical(text);
        run_case(9100 + i, &rule, 0.3, pick(1, 50));
    }
    printf("oracle: %d Wolfram cases identical to bgolly\n", n);
}

/* The cpu and OpenCL kernels of Hensel and MAP rules against bgolly. */
static void test_table_rule_backends(void **state)
{
    (void)state;
    if (!tmpdir)
        skip();
    char cache[512];
    snprintf(cache, sizeof cache, "%s/jit", tmpdir);
    gg_cpu_opts opts = {.cache_dir = cache};
    rng_state = 0x27BB2EE687B0B0FDull;
    int cases = 7000;
    bool opencl = !gg_test_opencl_skipped();
    for (int i = 0; i < 4; i++) {
        char text[128];
        random_hensel_text(text, sizeof text);
        gg_rule rule = i % 2 ? random_map_rule() : canonical(text);
        gg_cpu *cpu;
        gg_fail_kind why;
        gg_err err;
        if (gg_cpu_open(&rule, &opts, &cpu, &why, &err))
            fail_msg("cpu backend: %s", err.msg);
        gg_stepper s = gg_cpu_stepper(cpu);
        backend_grids(rule, &s, &cases);
        gg_cpu_close(cpu);
        gg_opencl *c = opencl ? gg_test_opencl_open(&rule, NULL) : NULL;
        if (!c)
            continue;
        s = gg_opencl_stepper(c);
        backend_grids(rule, &s, &cases);
        gg_opencl_close(c);
    }
    printf("oracle: %d cpu%s cases of Hensel and MAP rules identical to "
           "bgolly\n", cases - 7000, opencl ? " and opencl" : "");
}

/* A whole text file into a malloc'd string. */
static char *slurp_text(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    char *buf = calloc(1, 1 << 20);
    size_t n = buf ? fread(buf, 1, (1 << 20) - 1, f) : 0;
    (void)n;
    fclose(f);
    return buf;
}

/* bgolly's HashLife (-h) writes `in` after `gens` generations to `out`
 * (.mc or .rle, by name); its default algorithm cannot write .mc. */
static void bgolly_hash(int64_t gens, const char *in, const char *out)
{
    char cmd[1200];
    snprintf(cmd, sizeof cmd, "bgolly -q -q -h -m %lld -o '%s' '%s' "
             ">/dev/null 2>&1", (long long)gens, out, in);
    assert_int_equal(system(cmd), 0);
}

/* A random two-state pattern of w x h at (x, y), corners live (so the box
 * is the live box), written as RLE to path. */
static void random_pattern(gg_pattern *p, int64_t w, int64_t h, int64_t x,
                           int64_t y, const char *path)
{
    gg_err err;
    memset(p, 0, sizeof *p);
    assert_int_equal(gg_pattern_init(p, w, h, 1, &err), 0);
    gg_grid_random(&p->plane[0], 0.4, rng());
    gg_grid_set(&p->plane[0], 0, 0, 1);
    gg_grid_set(&p->plane[0], w - 1, h - 1, 1);
    p->x = x, p->y = y;
    p->rule = strdup("B3/S23");
    if (gg_pattern_write_rle(path, p, &err))
        fail_msg("%s", err.msg);
}

/* golgen's .mc is bgolly's, line for line after the first ("[M2] (golly
 * 3.3)" there, "[M2] (golgen)" here): placements around the root's
 * quadrant edges (y runs from -2^(L-1) + 1), then random patterns. */
static void test_macrocell_write_as_bgolly(void **state)
{
    (void)state;
    if (!tmpdir)
        skip();
    rng_state = 0x8CB92BA72F3D8DD7ull;
    static const int64_t at[][2] = {{0, 0},   {-8, 0},  {0, -7},  {0, -8},
                                    {7, 8},   {8, 8},   {-9, 3},  {100, -3},
                                    {0, 9},   {-4, -3}, {-1000, 777},
                                    {70000, -123456}};
    int n = 0;
    for (int i = 0; i < 24; i++, n++) {
        int64_t w = i < 12 ? 1 : pick(1, 90), h = i < 12 ? 1 : pick(1, 90);
        int64_t x = i < 12 ? at[i][0] : pick(-300, 300);
        int64_t y = i < 12 ? at[i][1] : pick(-300, 300);
        char in[512], theirs_path[512];
        snprintf(in, sizeof in, "%s/mc%d.rle", tmpdir, i);
        snprintf(theirs_path, sizeof theirs_path, "%s/mc%d.mc", tmpdir, i);
        gg_pattern p;
        random_pattern(&p, w, h, x, y, in);
        bgolly_hash(0, in, theirs_path);
        char *mine, *theirs = slurp_text(theirs_path);
        size_t len;
        gg_err err;
        assert_non_null(theirs);
        assert_int_equal(gg_pattern_format_mc(&p, &mine, &len, &err), 0);
        const char *a = strchr(mine, '\n'), *b = strchr(theirs, '\n');
        assert_non_null(a);
        assert_non_null(b);
        if (strcmp(a, b))
            fail_msg("%dx%d at (%lld, %lld): golgen wrote\n%s\nbgolly "
                     "wrote\n%s", (int)w, (int)h, (long long)x, (long long)y,
                     mine, theirs);
        free(mine);
        free(theirs);
        gg_pattern_free(&p);
    }
    printf("oracle: %d macrocell files written as bgolly writes them\n", n);
}

/* golgen reads bgolly's .mc (a gun after 0..300 generations, soups) to
 * the cells bgolly's own RLE of the same run holds, with #G. */
static void test_macrocell_read_from_bgolly(void **state)
{
    (void)state;
    if (!tmpdir)
        skip();
    rng_state = 0x5851F42D4C957F2Dull;
    int n = 0;
    for (int i = 0; i < 8; i++, n++) {
        char in[512], mc[512], rle[512];
        snprintf(in, sizeof in, "%s/mcr%d.rle", tmpdir, i);
        snprintf(mc, sizeof mc, "%s/mcr%d.mc", tmpdir, i);
        snprintf(rle, sizeof rle, "%s/mcr%d-out.rle", tmpdir, i);
        gg_pattern p, from_mc, from_rle;
        gg_err err;
        random_pattern(&p, pick(3, 60), pick(3, 60), pick(-50, 50),
                       pick(-50, 50), in);
        gg_pattern_free(&p);
        int64_t gens = i == 0 ? 0 : pick(1, 300);
        bgolly_hash(gens, in, mc);
        bgolly_hash(gens, in, rle);
        if (gg_pattern_read(mc, &from_mc, &err))
            fail_msg("reading bgolly's %s: %s", mc, err.msg);
        assert_int_equal(gg_pattern_read(rle, &from_rle, &err), 0);
        assert_int_equal(from_mc.generation, gens);
        assert_string_equal(from_mc.rule, "B3/S23");
        /* bgolly's RLE is trimmed and has no position: compare boxes */
        if (gg_pattern_max_state(&from_rle) == 0) {
            assert_int_equal(gg_pattern_max_state(&from_mc), 0);
        } else if (!gg_grid_equal(&from_mc.plane[0], &from_rle.plane[0])) {
            fail_msg("case %d: golgen's reading of bgolly's .mc differs from "
                     "bgolly's RLE", i);
        }
        gg_pattern_free(&from_mc);
        gg_pattern_free(&from_rle);
    }
    printf("oracle: %d bgolly macrocell files read as bgolly's RLE\n", n);
}

/* What golgen writes as .cells and Life 1.06, bgolly reads to the same
 * cells (and Life 1.06 to the same rule). */
static void test_text_formats_read_by_bgolly(void **state)
{
    (void)state;
    if (!tmpdir)
        skip();
    rng_state = 0x2545F4914F6CDD1Dull;
    static const char *const ext[] = {"cells", "lif"};
    for (int i = 0; i < 8; i++) {
        char in[512], mine[512], back[512];
        snprintf(in, sizeof in, "%s/txt%d.rle", tmpdir, i);
        gg_pattern p, q;
        gg_err err;
        random_pattern(&p, pick(1, 70), pick(1, 50), pick(-90, 90),
                       pick(-90, 90), in);
        free(p.rule);
        p.rule = strdup("B36/S23");
        for (int e = 0; e < 2; e++) {
            snprintf(mine, sizeof mine, "%s/txt%d.%s", tmpdir, i, ext[e]);
            snprintf(back, sizeof back, "%s/txt%d-%s.rle", tmpdir, i, ext[e]);
            if (gg_pattern_write(mine, &p, &err))
                fail_msg("%s", err.msg);
            bgolly(0, mine, back);
            assert_int_equal(gg_pattern_read(back, &q, &err), 0);
            if (!gg_grid_equal(&p.plane[0], &q.plane[0]))
                fail_msg("bgolly reads golgen's %s to other cells", mine);
            /* .cells has no rule: bgolly runs it as Life */
            assert_string_equal(q.rule, e ? "B36/S23" : "B3/S23");
            gg_pattern_free(&q);
        }
        gg_pattern_free(&p);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_random_cases),
        cmocka_unit_test(test_b0_torus_cases),
        cmocka_unit_test(test_small_pattern_placement),
        cmocka_unit_test(test_cpu_backend_cases),
        cmocka_unit_test(test_opencl_backend_cases),
        cmocka_unit_test(test_hensel_notation),
        cmocka_unit_test(test_table_rule_cases),
        cmocka_unit_test(test_table_rule_unbounded),
        cmocka_unit_test(test_wolfram_rules),
        cmocka_unit_test(test_table_rule_backends),
        cmocka_unit_test(test_macrocell_write_as_bgolly),
        cmocka_unit_test(test_macrocell_read_from_bgolly),
        cmocka_unit_test(test_text_formats_read_by_bgolly),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}

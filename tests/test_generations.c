/* Generations rules (gen/rules/rule_gen.h, runtime/reference/reference_gen.h): notation as
 * Golly 3.3 reads and writes it, and the multi-state reference against
 * bgolly -a Generations state for state on random rules, odd tori,
 * bounded and unbounded planes; known behaviour; the CLI's RLE. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "backend.h"
#include "choose.h"
#include "choose_gen.h"
#include "cms.h"
#include "gen_nets.h"
#include "gen_universe.h"
#include "reference_gen.h"
#include "rule_gen.h"
#include "validate_gen.h"
#include "test_util.h"

static char *tmpdir; /* NULL: no bgolly, oracle cases skip */
static uint64_t rng_state = 0x9e3779b97f4a7c15ull;

static int64_t pick(int64_t lo, int64_t hi)
{
    return lo + (int64_t)(gg_test_xorshift(&rng_state) %
                          (uint64_t)(hi - lo + 1));
}

static int setup(void **state)
{
    if (gg_test_setup_dir(state)) /* the kernel cache of the cpu cases */
        return -1;
    if (system("command -v bgolly >/dev/null 2>&1") != 0)
        return 0;
    static char templ[] = "/tmp/gg_gen_XXXXXX";
    tmpdir = mkdtemp(templ);
    return tmpdir ? 0 : -1;
}

static int teardown(void **state)
{
    int bad = gg_test_teardown_dir(state);
    return (tmpdir ? gg_test_rmtree(tmpdir) : 0) || bad;
}

static void canon(const char *text, char *out, size_t size)
{
    gg_rule r = gg_test_rule(text);
    gg_rule_format(&r, out, size);
}

/* The rule bgolly writes back for `text` (a one-cell pattern, 0 gens). */
static void bgolly_canonical(const char *text, char *out, size_t size)
{
    char in[300], res[300], cmd[1024];
    snprintf(in, sizeof in, "%s/n.rle", tmpdir);
    snprintf(res, sizeof res, "%s/n_out.rle", tmpdir);
    FILE *f = fopen(in, "w");
    assert_non_null(f);
    fprintf(f, "x = 1, y = 1, rule = %s\nA!\n", text);
    fclose(f);
    remove(res);
    snprintf(cmd, sizeof cmd, "bgolly -a Generations -q -q -m 0 -o '%s' "
             "'%s' >/dev/null 2>&1", res, in);
    out[0] = 0;
    if (gg_test_status(cmd) != 0)
        return;
    gg_pattern p;
    gg_err err;
    if (gg_pattern_read(res, &p, &err))
        fail_msg("%s: %s", text, err.msg);
    snprintf(out, size, "%s", p.rule ? p.rule : "");
    gg_pattern_free(&p);
}

static void test_notation(void **state)
{
    (void)state;
    static const char *cases[][2] = {
        {"23/3/3", "23/3/3"},        {"B2/S/3", "/2/3"},
        {"/2/3", "/2/3"},            {"12/34/3", "12/34/3"},
        {"23/3/3V", "23/3/3V"},      {"23/3/3H", "23/3/3H"},
        {"23/3/V3", "23/3/3V"},      {"b3/s23/4h", "23/3/4H"},
        {"B3/S23/3", "23/3/3"},      {"S23/B3/3", "23/3/3"},
        {"23/B3/3", "23/3/3"},       {"23/3/03", "23/3/3"},
        {"23/3/256", "23/3/256"},    {"0/3/3", "0/3/3"},
        {"23/3/2", "23/3/2"},        {"23/3/3:T10,8", "23/3/3:T10,8"},
        {"23/3/3:P7", "23/3/3:P7,7"}, {"23/3/3v:T5,5", "23/3/3V:T5,5"},
        {"345/2/4", "345/2/4"},      {"01234/12/16V", "01234/12/16V"},
        {"B2/S/C3", "/2/3"}, /* LifeWiki's form: bgolly 3.3 refuses it */
    };
    int n = (int)(sizeof cases / sizeof cases[0]), checked = 0;
    for (int i = 0; i < n; i++) {
        char mine[128], again[128], theirs[128];
        canon(cases[i][0], mine, sizeof mine);
        assert_string_equal(mine, cases[i][1]);
        canon(mine, again, sizeof again); /* canonical is a fixed point */
        assert_string_equal(again, mine);
        if (!tmpdir || i == n - 1)
            continue;
        bgolly_canonical(cases[i][0], theirs, sizeof theirs);
        if (strcmp(mine, theirs))
            fail_msg("%s: golgen %s, bgolly %s", cases[i][0], mine, theirs);
        checked++;
    }
    /* The two-state families are untouched. */
    gg_rule life = gg_test_rule("23/3");
    assert_int_equal(life.states, 0);
    assert_false(gg_rule_is_generations(&life));
    gg_rule bb = gg_test_rule("/2/3");
    assert_int_equal(bb.states, 3);
    assert_int_equal(bb.birth, 1u << 2);
    assert_int_equal(bb.survive, 0);
    assert_false(gg_rule_same_transition(&bb, &(gg_rule){0}));
    assert_int_equal(gg_gen_planes(2), 1);
    assert_int_equal(gg_gen_planes(3), 2);
    assert_int_equal(gg_gen_planes(256), 8);
    printf("generations: %d notations, %d checked against bgolly\n", n,
           checked);
}

static void test_errors(void **state)
{
    (void)state;
    /* text, words the message must hold, bgolly refuses it too */
    static const struct {
        const char *text, *want;
        bool golly_refuses;
    } cases[] = {
        {"23/0/3", "'0' at column 4", true},
        {"23/3/1", "too few states", true},
        {"23/3/257", "too many states from '2' at column 6", true},
        {"23/3/", "unexpected character '/' at column 5", true},
        {"23/3/C", "missing number of states at column 7", true},
        {"9/3/3", "'9' at column 1", true},
        {"5/3/3V", "count out of range '5' at column 1", true},
        {"23_3_3", "underscore '_' at column 3", true},
        {"23/3/3/4", "third separator '/' at column 7", true},
        {"B3S2/3/3", "B and S in one part 'S' at column 3", true},
        {"B3/B2/3", "B or S on both sides", true},
        {"23V/3/3", "neighbourhood letter 'V' at column 3", true},
        {"23/3/3X", "unexpected character 'X' at column 7", true},
        {"23/3/3VH", "unexpected character 'H' at column 8", true},
        {"2n/3/3", "non-totalistic letter 'n' at column 2", false},
        {"23/3/3:Q5", "unknown topology 'Q' at column 8", true},
    };
    int n = (int)(sizeof cases / sizeof cases[0]);
    for (int i = 0; i < n; i++) {
        gg_rule r;
        gg_err err;
        if (!gg_rule_parse(cases[i].text, &r, &err))
            fail_msg("%s parsed", cases[i].text);
        if (!strstr(err.msg, cases[i].want))
            fail_msg("%s: '%s' lacks '%s'", cases[i].text, err.msg,
                     cases[i].want);
        if (tmpdir && cases[i].golly_refuses) {
            char theirs[128];
            bgolly_canonical(cases[i].text, theirs, sizeof theirs);
            if (theirs[0])
                fail_msg("%s: bgolly took it as %s", cases[i].text, theirs);
        }
    }
    printf("generations: %d malformed rules refused\n", n);
}

/* A pattern of the whole grid: a soup of all states, full x/y header. */
static void soup(const gg_rule *rule, int64_t w, int64_t h, double density,
                 gg_pattern *p)
{
    gg_err err;
    char text[128];
    assert_int_equal(gg_pattern_init(p, w, h, gg_gen_planes(rule->states),
                                     &err), 0);
    gg_rule_format(rule, text, sizeof text);
    p->rule = strdup(text);
    p->multistate = rule->states > 2;
    gg_pattern_default_pos(text, w, h, &p->x, &p->y); /* as if read */
    for (int64_t y = 0; y < h; y++)
        for (int64_t x = 0; x < w; x++)
            if (pick(0, 999) < (int64_t)(density * 1000))
                assert_int_equal(gg_pattern_set(p, x, y,
                                 (int)pick(1, rule->states - 1), &err), 0);
}

/* Run p under rule in golgen and bgolly; trimmed boxes state for state
 * and the rule text equal. */
static void oracle_case(int n, const gg_rule *rule, const gg_pattern *p,
                        int64_t gens)
{
    char in[300], out[300], cmd[1024];
    gg_err err;
    snprintf(in, sizeof in, "%s/in%d.rle", tmpdir, n);
    snprintf(out, sizeof out, "%s/out%d.rle", tmpdir, n);
    assert_int_equal(gg_pattern_write_rle(in, p, &err), 0);
    snprintf(cmd, sizeof cmd, "bgolly -a Generations -q -q -m %lld -o '%s' "
             "'%s' >/dev/null 2>&1", (long long)gens, out, in);
    if (gg_test_status(cmd) != 0)
        fail_msg("case %d: bgolly failed: %s", n, cmd);
    gg_gen_universe u;
    gg_pattern mine, theirs;
    gg_gen_stepper rs = gg_reference_gen_stepper();
    if (gg_gen_universe_from_pattern(&u, rule, p, &err) ||
        gg_gen_universe_run(&u, &rs, gens, NULL, NULL, &err) ||
        gg_gen_universe_to_pattern(&u, &mine, &err))
        fail_msg("case %d: %s", n, err.msg);
    if (gg_pattern_read(out, &theirs, &err))
        fail_msg("case %d: reading bgolly output: %s", n, err.msg);
    int64_t w = gg_pattern_width(&mine), h = gg_pattern_height(&mine);
    if (w != gg_pattern_width(&theirs) || h != gg_pattern_height(&theirs))
        fail_msg("case %d (%s, %lld gens): box %lldx%lld, bgolly %lldx%lld",
                 n, mine.rule, (long long)gens, (long long)w, (long long)h,
                 (long long)gg_pattern_width(&theirs),
                 (long long)gg_pattern_height(&theirs));
    for (int64_t y = 0; y < h; y++)
        for (int64_t x = 0; x < w; x++)
            if (gg_pattern_get(&mine, x, y) != gg_pattern_get(&theirs, x, y))
                fail_msg("case %d (%s, %lld gens): cell %lld,%lld is %d, "
                         "bgolly %d", n, mine.rule, (long long)gens,
                         (long long)x, (long long)y,
                         gg_pattern_get(&mine, x, y),
                         gg_pattern_get(&theirs, x, y));
    assert_non_null(theirs.rule);
    assert_string_equal(mine.rule, theirs.rule);
    gg_pattern_free(&mine);
    gg_pattern_free(&theirs);
    gg_gen_universe_free(&u);
    remove(in);
    remove(out);
}

/* Random B (no 0), S and C; C = 2 or a large C now and then. */
static gg_rule random_rule(int i, gg_topo topo, int64_t w, int64_t h)
{
    static const char nb[] = {0, 'V', 'H'};
    char text[128], b[16] = "", s[16] = "";
    int nbhd = (int)pick(0, 2), max = nbhd == 0 ? 8 : nbhd == 1 ? 4 : 6;
    for (int c = 0; c <= max; c++) {
        if (c && pick(0, 2) == 0)
            b[strlen(b)] = (char)('0' + c);
        if (pick(0, 2) == 0)
            s[strlen(s)] = (char)('0' + c);
    }
    int states = i % 17 == 0 ? 200 : i % 11 == 0 ? 2 : (int)pick(3, 20);
    int n = snprintf(text, sizeof text, "%s/%s/%d", s, b, states);
    if (nb[nbhd])
        text[n++] = nb[nbhd], text[n] = 0;
    if (topo != GG_TOPO_UNBOUNDED)
        snprintf(text + n, sizeof text - (size_t)n, ":%c%lld,%lld",
                 topo == GG_TOPO_TORUS ? 'T' : 'P', (long long)w,
                 (long long)h);
    return gg_test_rule(text);
}

static void test_random_bounded(void **state)
{
    (void)state;
    if (!tmpdir)
        skip();
    int cases = 0, tori = 0;
    for (int i = 0; i < 160; i++) {
        gg_topo topo = i % 2 ? GG_TOPO_PLANE : GG_TOPO_TORUS;
        int64_t w = pick(0, 30) * 2 + 1, h = pick(0, 30) * 2 + 1;
        if (i % 10 == 3)
            w = 65 + 2 * pick(0, 40); /* past one 64-bit word */
        gg_rule rule = random_rule(i, topo, w, h);
        gg_pattern p;
        soup(&rule, w, h, 0.2 + 0.6 * (double)pick(0, 10) / 10.0, &p);
        oracle_case(i, &rule, &p, pick(1, rule.states > 30 ? 60 : 40));
        gg_pattern_free(&p);
        cases++;
        tori += topo == GG_TOPO_TORUS;
    }
    printf("generations: %d bounded cases identical to bgolly (%d tori, "
           "%d planes)\n", cases, tori, cases - tori);
}

/* The unbounded plane: a small soup, Golly places it at (0, 0). */
static void test_random_unbounded(void **state)
{
    (void)state;
    if (!tmpdir)
        skip();
    int cases = 0;
    for (int i = 0; i < 24; i++) {
        gg_rule rule = random_rule(i + 1000, GG_TOPO_UNBOUNDED, 0, 0);
        gg_pattern p;
        soup(&rule, pick(1, 16), pick(1, 16), 0.5, &p);
        oracle_case(2000 + i, &rule, &p, pick(1, 150));
        gg_pattern_free(&p);
        cases++;
    }
    printf("generations: %d unbounded cases identical to bgolly\n", cases);
}

/* `gens` generations of an RLE body under `rule` on the unbounded plane;
 * the result's RLE text. */
static char *evolve(const char *rule, const char *body, int64_t gens)
{
    char text[512];
    snprintf(text, sizeof text, "x = 9, y = 9, rule = %s\n%s\n", rule, body);
    gg_pattern p, out;
    gg_gen_universe u;
    gg_err err;
    gg_rule r = gg_test_rule(rule);
    gg_gen_stepper rs = gg_reference_gen_stepper();
    char *rle = NULL;
    size_t len;
    if (gg_pattern_parse(text, strlen(text), "test", &p, &err) ||
        gg_gen_universe_from_pattern(&u, &r, &p, &err) ||
        gg_gen_universe_run(&u, &rs, gens, NULL, NULL, &err) ||
        gg_gen_universe_to_pattern(&u, &out, &err))
        fail_msg("%s: %s", rule, err.msg);
    out.x = out.y = 0, out.generation = 0; /* compare the cells alone */
    if (gg_pattern_format_rle(&out, &rle, &len, &err))
        fail_msg("%s", err.msg);
    gg_pattern_free(&p);
    gg_pattern_free(&out);
    gg_gen_universe_free(&u);
    return rle;
}

static void expect(const char *rule, const char *body, int64_t gens,
                   const char *want)
{
    char *got = evolve(rule, body, gens);
    if (!strstr(got, want))
        fail_msg("%s, %s after %lld: got\n%s\nwant %s", rule, body,
                 (long long)gens, got, want);
    free(got);
}

static void test_known(void **state)
{
    (void)state;
    /* Brian's Brain: nothing survives; its spaceship (two live cells
     * pulling two dying ones) moves one cell per generation. */
    expect("/2/3", "2A$2B!", 1, "x = 2, y = 2, rule = /2/3\n2A$2B!");
    expect("/2/3", "2A$2B!", 40, "x = 2, y = 2, rule = /2/3\n2A$2B!");
    /* 23/3/3: a block stays; a blinker's ends start dying and can't be
     * reborn, so it is gone after 4 generations. */
    expect("23/3/3", "2A$2A!", 10, "x = 2, y = 2, rule = 23/3/3\n2A$2A!");
    expect("23/3/3", "3A!", 1, "x = 3, y = 3, rule = 23/3/3\n.A$BAB$.A!");
    expect("23/3/3", "3A!", 3, "x = 1, y = 1, rule = 23/3/3\nB!");
    expect("23/3/3", "3A!", 4, "x = 0, y = 0, rule = 23/3/3\n!");
    /* A lone cell walks through all 199 dying states of a 200-state rule:
     * state 199 (wG: w is 193..216) at generation 198, gone at 199. */
    expect("/2/200", "A!", 198, "x = 1, y = 1, rule = /2/200\nwG!");
    expect("/2/200", "A!", 199, "x = 0, y = 0, rule = /2/200\n!");
    /* Two states: Life itself, in b/o letters as Golly writes it. */
    expect("23/3/2", "3o!", 1, "x = 1, y = 3, rule = 23/3/2\no$o$o!");
}

static const gg_backend_info *find_backend(const char *name)
{
    gg_err err;
    const gg_backend_info *info = gg_backend_find(name, &err);
    if (!info)
        fail_msg("%s", err.msg);
    return info;
}

/* Next state by the rule's words (gen/rules/rule_gen.h), written apart from
 * gen/circuits/gen_nets.c: the oracle of the per-cell stage. */
static int stage_next(int states, int s, int alive_next)
{
    if (s == 0 || s == 1)
        return alive_next ? 1 : s == 1 ? 2 % states : 0;
    return (s + 1) % states;
}

/* The per-cell stage of every state count, both constructions: each
 * output on every (state, L) row against stage_next, and the counter
 * stays about 5 gates a plane. */
/* g computes the per-cell stage of C states on every (state, alive
 * next) pair, against stage_next. */
static void check_stage(int c, const gg_gen_nets *g)
{
    int q = g->planes;
    for (int s = 0; s < c; s++)
        for (int l = 0; l < 2; l++) {
            uint64_t in[GG_TT_MAX_INPUTS] = {0}, out[GG_NET_MAX_OUTPUTS];
            in[0] = l ? ~0ull : 0;
            for (int i = 0; i < q; i++)
                in[i + 1] = (s >> i & 1) ? ~0ull : 0;
            gg_net_eval64(&g->post, in, out);
            int want = stage_next(c, s, l), got = 0;
            for (int i = 0; i < q; i++)
                got |= (int)(out[i] & 1) << i;
            assert_int_equal(got, want);
            assert_int_equal((int)(out[q] & 1), want == 1);
            gg_net_eval64(&g->alive, in + 1, out);
            assert_int_equal((int)(out[0] & 1), s == 1);
        }
}

static void test_stage(void **state)
{
    (void)state;
    gg_gen_nets *g = malloc(sizeof *g);
    assert_non_null(g);
    for (int c = 3; c <= 256; c++) {
        gg_err err;
        for (int k = 0; k < 2; k++) {
            int rc = k ? gg_gen_nets_counter(c, g, &err)
                       : c <= 40 || c % 37 == 0 ? gg_gen_nets_build(c, g, &err)
                                                : 1;
            if (rc == 1)
                continue;
            if (rc)
                fail_msg("C=%d: %s", c, err.msg);
            check_stage(c, g);
            if (k)
                assert_true(gg_gen_nets_cost(g) <= 6 * g->planes + 8);
        }
    }
    free(g);
}

/* The stage kept between runs (sat/choose/choose_gen.h): written by the
 * first call, read back by the next (the same networks as made afresh),
 * and made again when the kept file is missing, damaged, or holds
 * another state count's stage. */
static void test_stage_kept(void **state)
{
    (void)state;
    gg_gen_nets *fresh = malloc(sizeof *fresh), *g = malloc(sizeof *g);
    assert_non_null(fresh);
    assert_non_null(g);
    char root[512], path[700], cmd[1600], folder[64];
    snprintf(root, sizeof root, "%s/kept", gg_test_dir);
    if (gg_sat_available())
        snprintf(folder, sizeof folder, "gen-stage-v1-work%d",
                 GG_CHOOSE_WORK);
    else
        snprintf(folder, sizeof folder, "gen-stage-v1-diagrams");
    gg_err err;
    for (int c = 7; c <= 25; c += 18) {
        assert_int_equal(gg_choose_gen_nets(c, fresh, &err), 0);
        for (int round = 0; round < 2; round++) {
            assert_int_equal(gg_choose_gen_nets_kept(c, root, g, &err), 0);
            check_stage(c, g);
            assert_int_equal(gg_gen_nets_cost(g), gg_gen_nets_cost(fresh));
            assert_int_equal(g->proven, fresh->proven);
        }
        snprintf(path, sizeof path, "%s/%s/C%d.txt", root, folder, c);
        snprintf(cmd, sizeof cmd, "test -s '%s'", path);
        assert_int_equal(gg_test_status(cmd), 0);
    }
    /* C=7's stage under C=25's name (it parses, and is wrong), then a
     * truncated file: each is made again, right */
    snprintf(cmd, sizeof cmd, "cd '%s/%s' && sed '1s/C=7/C=25/' C7.txt "
             ">C25.txt", root, folder);
    assert_int_equal(gg_test_status(cmd), 0);
    assert_int_equal(gg_choose_gen_nets_kept(25, root, g, &err), 0);
    check_stage(25, g);
    snprintf(cmd, sizeof cmd, "truncate -s 60 '%s'", path);
    assert_int_equal(gg_test_status(cmd), 0);
    assert_int_equal(gg_choose_gen_nets_kept(25, root, g, &err), 0);
    check_stage(25, g);
    assert_int_equal(gg_gen_nets_cost(g), gg_gen_nets_cost(fresh));
    free(fresh);
    free(g);
}

/* Open backend `info` for rule (its open validates the kernel against
 * the reference: runtime/backends/validate_gen.h). */
static gg_backend *open_backend(const gg_backend_info *info,
                                const gg_rule *rule)
{
    gg_backend *b = NULL;
    gg_fail_kind why;
    gg_err err;
    gg_config cfg; /* compiled kernels go to the test's own cache */
    gg_config_defaults(&cfg);
    snprintf(cfg.cache_dir, sizeof cfg.cache_dir, "%s", gg_test_dir);
    gg_backend_opts o = {.config = &cfg};
    if (gg_backend_open(info, rule, &o, &b, &why, &err))
        fail_msg("%s: %s", info->name, err.msg);
    return b;
}

/* The emitted cpu kernel (templates/c/kernel.c.in with the per-cell stage
 * of gen/circuits/gen_nets.h) through the backend table, against the reference,
 * state for state: random rules (C 2..20 and 200, all three
 * neighbourhoods) on odd tori and planes round the 64-bit word edges and
 * wider than a tile, then every state count at the bit-plane boundaries
 * (their opens validate), then the unbounded plane through the universe.
 * Needs no bgolly. */
static void test_cpu_kernel(void **state)
{
    (void)state;
    int cases = 0;
    for (int i = 1; i <= 10; i++) {
        gg_topo topo = i % 2 ? GG_TOPO_PLANE : GG_TOPO_TORUS;
        int64_t w = i % 5 == 0 ? pick(1, 3) : pick(0, 1100) * 2 + 1;
        int64_t h = i % 7 == 0 ? pick(1, 2) : pick(0, 30) * 2 + 1;
        gg_rule rule = random_rule(i, topo, w, h);
        gg_backend *b = open_backend(find_backend("cpu"), &rule);
        int planes = gg_gen_planes(rule.states);
        gg_gen_cells want, got;
        gg_err err;
        assert_int_equal(gg_gen_cells_init(&want, planes, w, h, &err), 0);
        assert_int_equal(gg_gen_cells_init(&got, planes, w, h, &err), 0);
        gg_gen_cells_random(&want, rule.states, (uint64_t)i);
        gg_gen_cells_random(&got, rule.states, (uint64_t)i);
        int64_t gens = pick(1, rule.states > 20 ? 300 : 60);
        if (gg_reference_gen_run(&rule, topo, &want, gens, &err) ||
            gg_backend_advance_cells(b, topo, &got, gens, &err))
            fail_msg("case %d: %s", i, err.msg);
        char text[128];
        gg_rule_format(&rule, text, sizeof text);
        for (int64_t y = 0; y < h; y++)
            for (int64_t x = 0; x < w; x++)
                if (gg_gen_cells_get(&want, x, y) !=
                    gg_gen_cells_get(&got, x, y))
                    fail_msg("case %d (%s, %lldx%lld %s, %lld gens): cell "
                             "%lld,%lld is %d, the reference %d", i, text,
                             (long long)w, (long long)h,
                             topo == GG_TOPO_TORUS ? "torus" : "plane",
                             (long long)gens, (long long)x, (long long)y,
                             gg_gen_cells_get(&got, x, y),
                             gg_gen_cells_get(&want, x, y));
        for (int p = 0; p < planes; p++) /* bits past the width stay 0 */
            assert_true(gg_grid_equal(&want.plane[p], &got.plane[p]));
        gg_gen_cells_free(&want);
        gg_gen_cells_free(&got);
        gg_backend_close(b);
        cases++;
    }
    static const int counts[] = {2, 3, 4, 5, 9, 17, 129, 256};
    for (size_t k = 0; k < sizeof counts / sizeof counts[0]; k++) {
        char text[64];
        snprintf(text, sizeof text, "23/36/%d", counts[k]);
        gg_rule rule = gg_test_rule(text);
        gg_backend_close(open_backend(find_backend("cpu"), &rule));
    }
    for (int i = 0; i < 4; i++) {
        gg_rule rule = random_rule(i * 3 + 1, GG_TOPO_UNBOUNDED, 0, 0);
        gg_backend *b = open_backend(find_backend("cpu"), &rule);
        gg_gen_stepper st = gg_backend_gen_stepper(b);
        gg_gen_stepper rs = gg_reference_gen_stepper();
        gg_pattern p;
        gg_gen_universe u, v;
        gg_pattern mine, ref;
        gg_err err;
        soup(&rule, pick(1, 40), pick(1, 40), 0.4, &p);
        int64_t gens = pick(1, 150);
        if (gg_gen_universe_from_pattern(&u, &rule, &p, &err) ||
            gg_gen_universe_from_pattern(&v, &rule, &p, &err) ||
            gg_gen_universe_run(&u, &rs, gens, NULL, NULL, &err) ||
            gg_gen_universe_run(&v, &st, gens, NULL, NULL, &err) ||
            gg_gen_universe_to_pattern(&u, &ref, &err) ||
            gg_gen_universe_to_pattern(&v, &mine, &err))
            fail_msg("unbounded case %d: %s", i, err.msg);
        assert_int_equal(mine.x, ref.x);
        assert_int_equal(mine.y, ref.y);
        assert_int_equal(gg_pattern_width(&mine), gg_pattern_width(&ref));
        assert_int_equal(gg_pattern_height(&mine), gg_pattern_height(&ref));
        for (int64_t y = 0; y < gg_pattern_height(&ref); y++)
            for (int64_t x = 0; x < gg_pattern_width(&ref); x++)
                assert_int_equal(gg_pattern_get(&mine, x, y),
                                 gg_pattern_get(&ref, x, y));
        gg_pattern_free(&p);
        gg_pattern_free(&mine);
        gg_pattern_free(&ref);
        gg_gen_universe_free(&u);
        gg_gen_universe_free(&v);
        gg_backend_close(b);
        cases++;
    }
    printf("generations: cpu kernel equal to the reference in %d cases\n",
           cases);
}

/* The OpenCL kernel (PoCL here) through the table: its open validates
 * against the reference (runtime/backends/validate_gen.h); then whole universes,
 * bounded and unbounded, against the cpu kernel. Skips where no OpenCL
 * platform runs. */
static void test_opencl_kernel(void **state)
{
    (void)state;
    const gg_backend_info *cl = find_backend("opencl");
    gg_backend_opts none = {0};
    gg_err err;
    if (cl->probe(&none, &err))
        skip();
    static const char *const rules[] = {"/2/3", "12/34/5:T77,45",
                                        "345/2/17H:P61,39", "23/3/3:T40,30"};
    for (int i = 0; i < 4; i++) {
        gg_rule rule = gg_test_rule(rules[i]);
        gg_backend *a = open_backend(cl, &rule);
        gg_backend *b = open_backend(find_backend("cpu"), &rule);
        gg_gen_stepper sa = gg_backend_gen_stepper(a);
        gg_gen_stepper sb = gg_backend_gen_stepper(b);
        gg_pattern p, pa, pb;
        gg_gen_universe u, v;
        soup(&rule, 30, 20, 0.4, &p);
        if (gg_gen_universe_from_pattern(&u, &rule, &p, &err) ||
            gg_gen_universe_from_pattern(&v, &rule, &p, &err) ||
            gg_gen_universe_run(&u, &sa, 90, NULL, NULL, &err) ||
            gg_gen_universe_run(&v, &sb, 90, NULL, NULL, &err) ||
            gg_gen_universe_to_pattern(&u, &pa, &err) ||
            gg_gen_universe_to_pattern(&v, &pb, &err))
            fail_msg("%s: %s", rules[i], err.msg);
        assert_int_equal(pa.x, pb.x);
        assert_int_equal(pa.y, pb.y);
        assert_int_equal(gg_pattern_width(&pa), gg_pattern_width(&pb));
        assert_int_equal(gg_pattern_height(&pa), gg_pattern_height(&pb));
        for (int64_t y = 0; y < gg_pattern_height(&pa); y++)
            for (int64_t x = 0; x < gg_pattern_width(&pa); x++)
                assert_int_equal(gg_pattern_get(&pa, x, y),
                                 gg_pattern_get(&pb, x, y));
        gg_pattern_free(&p);
        gg_pattern_free(&pa);
        gg_pattern_free(&pb);
        gg_gen_universe_free(&u);
        gg_gen_universe_free(&v);
        gg_backend_close(a);
        gg_backend_close(b);
    }
}

/* golgen run writes what bgolly writes (but golgen's #CXRLE line). */
static void test_cli(void **state)
{
    (void)state;
    if (!tmpdir)
        skip();
    const char *golgen = getenv("GG_GOLGEN"); /* set by meson test */
    if (!golgen)
        skip();
    static const char *rules[] = {"/2/3:T33,21", "23/3/3:P31,17",
                                  "345/2/4:T15,15", "12/34/7H:T25,19"};
    for (int i = 0; i < 4; i++) {
        gg_rule rule = gg_test_rule(rules[i]);
        gg_pattern p;
        gg_err err;
        char in[300], a[300], b[300], cmd[2048];
        soup(&rule, rule.width, rule.height, 0.4, &p);
        snprintf(in, sizeof in, "%s/cli.rle", tmpdir);
        snprintf(a, sizeof a, "%s/cli_golgen.rle", tmpdir);
        snprintf(b, sizeof b, "%s/cli_bgolly.rle", tmpdir);
        assert_int_equal(gg_pattern_write_rle(in, &p, &err), 0);
        gg_pattern_free(&p);
        snprintf(cmd, sizeof cmd, "'%s' run --gens 25 -o '%s' '%s' "
                 "2>/dev/null && bgolly -a Generations -q -q -m 25 -o '%s' "
                 "'%s' >/dev/null 2>&1 && grep -v '^#' '%s' | cmp -s - '%s'",
                 golgen, a, in, b, in, a, b);
        if (gg_test_status(cmd) != 0)
            fail_msg("%s: golgen run's RLE differs from bgolly's", rules[i]);
        /* the emitted cpu and OpenCL kernels write the same (OpenCL
         * where a platform runs: PoCL in CI) */
        static const char *const kernels[] = {"cpu", "opencl"};
        for (int k = 0; k < 2; k++) {
            snprintf(cmd, sizeof cmd, "'%s' --version | grep -q '%s  *usable'",
                     golgen, kernels[k]);
            if (k && gg_test_status(cmd) != 0)
                continue;
            snprintf(cmd, sizeof cmd, "'%s' run --backend %s --gens 25 -o "
                     "'%s' '%s' 2>/dev/null && grep -v '^#' '%s' | cmp -s - "
                     "'%s'", golgen, kernels[k], a, in, a, b);
            if (gg_test_status(cmd) != 0)
                fail_msg("%s: golgen run --backend %s differs from bgolly",
                         rules[i], kernels[k]);
        }
    }
    char cmd[1024];
    /* the unbounded plane on the cpu step, against bgolly */
    snprintf(cmd, sizeof cmd, "printf 'x = 5, y = 3, rule = /2/3\\n2o2bA$bo"
             ".2o$BAo!\\n' >'%s/u.rle' && '%s' run --backend cpu --gens 60 "
             "-o '%s/u_golgen.rle' '%s/u.rle' 2>/dev/null && bgolly -a "
             "Generations -q -q -m 60 -o '%s/u_bgolly.rle' '%s/u.rle' "
             ">/dev/null 2>&1 && grep -v '^#' '%s/u_golgen.rle' | cmp -s - "
             "'%s/u_bgolly.rle'", tmpdir, golgen, tmpdir, tmpdir, tmpdir,
             tmpdir, tmpdir, tmpdir);
    assert_int_equal(gg_test_status(cmd), 0);
    /* every backend of the table runs Generations rules, and golgen rule
     * lists them from the table (runtime/backends/backends.c) */
    snprintf(cmd, sizeof cmd, "'%s' rule /2/3 | grep -q '^backends: *"
             "reference, cpu, cuda, ptx, opencl '", golgen);
    assert_int_equal(gg_test_status(cmd), 0);
    /* and every target emits them: ptx's kernel takes the plane stride */
    snprintf(cmd, sizeof cmd, "'%s' --target ptx --rule /2/3 2>/dev/null | "
             "grep -q '.param .u64 p_ps)'", golgen);
    assert_int_equal(gg_test_status(cmd), 0);
    snprintf(cmd, sizeof cmd, "'%s' rule 23/3/3V | grep -q 'Generations, 3 "
             "states'", golgen);
    assert_int_equal(gg_test_status(cmd), 0);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_notation),
        cmocka_unit_test(test_errors),
        cmocka_unit_test(test_known),
        cmocka_unit_test(test_random_bounded),
        cmocka_unit_test(test_random_unbounded),
        cmocka_unit_test(test_stage),
        cmocka_unit_test(test_stage_kept),
        cmocka_unit_test(test_cpu_kernel),
        cmocka_unit_test(test_opencl_kernel),
        cmocka_unit_test(test_cli),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}

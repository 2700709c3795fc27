/* Golly's rule files (gen/rulefile/rulefile.h), their search
 * (runtime/formats/rule_find.h), MCell files and the reference for rule
 * tables and trees (runtime/reference/reference_table.h): every .rule file
 * Golly ships parses; a table equals the tree Golly generated from it in
 * the same file, input for input; variables bind as in Golly; errors name
 * the line and the problem; mangled files never crash; and Golly's own
 * patterns run cell for cell and state for state as bgolly -a RuleLoader
 * runs them (-a Generations for MCell's Generations files). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include <dirent.h>

#include "pattern.h"
#include "rule_dag_cache.h"
#include "rule_find.h"
#include "rulefile.h"
#include "test_util.h"

#define RULES GG_GOLLY_RULES_DIR
#define PATTERNS "/usr/share/golly/Patterns"

static uint64_t rng_state = 0x2545f4914f6cdd1dull;

static int parse_text(const char *text, gg_rulefile *rf, gg_err *err)
{
    return gg_rulefile_parse(text, strlen(text), "t.rule", rf, err);
}

static int lookup5(const gg_rulefile *rf, int n, int w, int e, int s, int c)
{
    uint8_t in[5] = {(uint8_t)n, (uint8_t)w, (uint8_t)e, (uint8_t)s,
                     (uint8_t)c};
    return gg_rulefile_lookup(rf, in);
}

static void every_golly_rule_parses(void **state)
{
    (void)state;
    FILE *ls = popen("ls " RULES "/*.rule 2>/dev/null", "r");
    char path[4096];
    int n = 0;
    while (ls && fgets(path, sizeof path, ls)) {
        path[strcspn(path, "\n")] = 0;
        size_t len;
        char *text = gg_test_read_file(path, &len);
        assert_non_null(text);
        gg_rulefile rf;
        gg_err err;
        if (gg_rulefile_parse(text, len, path, &rf, &err))
            fail_msg("%s", err.msg);
        assert_true(rf.n_states >= 2 && rf.n_nodes > 0);
        gg_rulefile_free(&rf);
        free(text);
        n++;
    }
    if (ls)
        pclose(ls);
    if (n == 0)
        skip(); /* no Golly installed */
    assert_int_equal(n, 51); /* the 53 count two generator folders */
}

/* Golly's files with both sections hold the tree made from the table. */
static void table_equals_its_tree(void **state)
{
    (void)state;
    static const char *const names[] = {"Byl-Loop", "Chou-Reggia-1",
                                        "Chou-Reggia-2", "Evoloop",
                                        "Langtons-Loops", "SDSR-Loop"};
    for (size_t i = 0; i < sizeof names / sizeof *names; i++) {
        char path[256];
        snprintf(path, sizeof path, RULES "/%s.rule", names[i]);
        size_t len;
        char *text = gg_test_read_file(path, &len);
        if (!text)
            skip();
        char *tree = strstr(text, "\n@TREE");
        assert_non_null(tree);
        gg_rulefile a, t;
        gg_err err;
        assert_int_equal(gg_rulefile_parse(text, len, path, &a, &err), 0);
        assert_int_equal(gg_rulefile_parse(tree + 1, strlen(tree + 1), path,
                                           &t, &err), 0);
        assert_false(a.is_tree);
        assert_true(t.is_tree);
        int ns = a.n_states;
        long combos = (long)ns * ns * ns * ns * ns;
        for (long c = 0; c < combos; c++) {
            uint8_t in[5];
            long x = c;
            for (int k = 0; k < 5; k++, x /= ns)
                in[k] = (uint8_t)(x % ns);
            assert_int_equal(gg_rulefile_lookup(&a, in),
                             gg_rulefile_lookup(&t, in));
        }
        gg_rulefile_free(&a);
        gg_rulefile_free(&t);
        free(text);
    }
}

/* A variable named twice takes one value; once, any of its values; the
 * first matching line wins; no match keeps the state. */
static void variables_bind_as_golly(void **state)
{
    (void)state;
    gg_rulefile rf;
    gg_err err;
    assert_int_equal(parse_text("@RULE t\n@TABLE\nn_states:3\n"
                                "neighborhood:vonNeumann\nsymmetries:none\n"
                                "var a={1,2}\nvar b={1,2}\n"
                                "0,a,a,0,0,1 # c,n,e,s,w: n and e equal\n"
                                "0,a,b,0,0,2\n"
                                "1,a,0,0,0,a # the output is n's state\n",
                                &rf, &err), 0);
    assert_string_equal(rf.name, "t");
    /* tree order n w e s c */
    assert_int_equal(lookup5(&rf, 1, 0, 1, 0, 0), 1);
    assert_int_equal(lookup5(&rf, 2, 0, 2, 0, 0), 1);
    assert_int_equal(lookup5(&rf, 1, 0, 2, 0, 0), 2);
    assert_int_equal(lookup5(&rf, 2, 0, 0, 0, 1), 2);
    assert_int_equal(lookup5(&rf, 0, 0, 0, 0, 2), 2); /* kept */
    assert_int_equal(lookup5(&rf, 0, 1, 0, 0, 0), 0);
    gg_rulefile_free(&rf);
    /* rotate4: a north neighbour's rule holds for east, south and west */
    assert_int_equal(parse_text("@TABLE\nn_states:2\nneighborhood:vonNeumann"
                                "\nsymmetries:rotate4\n010001\n", &rf, &err),
                     0);
    assert_int_equal(lookup5(&rf, 1, 0, 0, 0, 0), 1);
    assert_int_equal(lookup5(&rf, 0, 0, 0, 1, 0), 1);
    assert_int_equal(lookup5(&rf, 0, 1, 0, 0, 0), 1);
    assert_int_equal(lookup5(&rf, 1, 1, 0, 0, 0), 0);
    gg_rulefile_free(&rf);
    /* permute: any two live neighbours of eight give birth */
    assert_int_equal(parse_text("@TABLE\nn_states:2\nneighborhood:Moore\n"
                                "symmetries:permute\n0110000001\n", &rf,
                                &err), 0);
    uint8_t two[9] = {0, 1, 0, 0, 0, 0, 0, 1, 0}; /* n and sw */
    uint8_t three[9] = {1, 1, 0, 0, 0, 0, 0, 1, 0};
    assert_int_equal(gg_rulefile_next(&rf, two), 1);
    assert_int_equal(gg_rulefile_next(&rf, three), 0);
    gg_rulefile_free(&rf);
    /* hexagonal reads neither NE nor SW */
    assert_int_equal(parse_text("@TABLE\nn_states:2\nneighborhood:hexagonal\n"
                                "symmetries:none\n00000000\n01000001\n",
                                &rf, &err), 0);
    uint8_t ne[9] = {0, 0, 1, 0, 0, 0, 0, 0, 0}, n[9] = {0, 1};
    assert_int_equal(gg_rulefile_next(&rf, ne), 0);
    assert_int_equal(gg_rulefile_next(&rf, n), 1);
    gg_rulefile_free(&rf);
}

static void expect_error(const char *text, const char *want)
{
    gg_rulefile rf;
    gg_err err;
    assert_int_equal(parse_text(text, &rf, &err), -1);
    if (!strstr(err.msg, want))
        fail_msg("got \"%s\", wanted \"%s\"", err.msg, want);
}

static void errors_name_line_and_problem(void **state)
{
    (void)state;
    const char *head = "@TABLE\nn_states:3\nneighborhood:Moore\n"
                       "symmetries:rotate4\n";
    char t[512];
    expect_error("@RULE x\n", "no @TABLE or @TREE");
    expect_error("@TABLE\nn_states:300\n", "t.rule:2: n_states out of range");
    expect_error("@TABLE\nn_states:3\nneighborhood:Square\n",
                 "t.rule:3: unsupported neighborhood 'Square'");
    expect_error("@TABLE\nn_states:3\nsymmetries:none\n",
                 "t.rule:3: neighborhood must be declared");
    expect_error("@TABLE\nn_states:3\nneighborhood:vonNeumann\n"
                 "symmetries:rotate8\n", "t.rule:4: unsupported symmetries");
    snprintf(t, sizeof t, "%s0,1,2\n", head);
    expect_error(t, "t.rule:5: too few entries");
    snprintf(t, sizeof t, "%s0,1,2,0,0,0,0,0,0,7\n", head);
    expect_error(t, "t.rule:5: state 7 out of range");
    snprintf(t, sizeof t, "%svar a={0,1}\n0,1,2,0,0,0,0,0,0,a\n", head);
    expect_error(t, "t.rule:6: output must be a state");
    snprintf(t, sizeof t, "%s0,x,2,0,0,0,0,0,0,1\n", head);
    expect_error(t, "t.rule:5: 'x' is neither a state nor a variable");
    expect_error("@TABLE\n000000\n", "t.rule:2: one or more of n_states");
    expect_error("@TREE\nnum_states=2\nnum_neighbors=8\nnum_nodes=1\n1 0 1\n",
                 "t.rule:5: num_nodes must be");
    expect_error("@TREE\nnum_states=2\nnum_neighbors=4\nnum_nodes=5\n1 0 1\n"
                 "2 0 5\n", "t.rule:6: node 5 is not defined above");
    expect_error("@TREE\nnum_states=2\nnum_neighbors=4\nnum_nodes=5\n1 0 1\n"
                 "1 0 1 1\n", "t.rule:6: more than num_states=2 values");
    expect_error("@TREE\nnum_states=2\nnum_neighbors=4\nnum_nodes=5\n1 0 1\n",
                 "1 node lines, num_nodes=5");
}

/* Mangled copies of a table and a tree: a clean error or a rule, never
 * a crash (run under the sanitizers in CI). */
static void mangled_files_never_crash(void **state)
{
    (void)state;
    static const char *const seeds[] = {
        "@RULE W\n@TABLE\nn_states:4\nneighborhood:Moore\nsymmetries:rotate8"
        "\nvar a={0,1,2,3}\nvar b={0,1,2,3}\nvar c={2,3}\n1,a,b,c,0,0,0,0,0,"
        "2\n2,a,a,a,a,a,a,a,a,3\n3,1,a,b,0,0,0,0,0,1\n@COLORS\n1 255 0 0\n",
        "@RULE T\n@TREE\nnum_states=2\nnum_neighbors=4\nnum_nodes=6\n1 0 1\n"
        "2 0 0\n3 1 1\n4 2 2\n5 3 3\n5 4 4\n",
        "@TABLE\nn_states:3\nneighborhood:hexagonal\nsymmetries:permute\n"
        "var x={0,1,2}\n0,1,1,x,x,0,0,2\n"};
    char buf[1024];
    int ok = 0;
    for (int round = 0; round < 3000; round++) {
        const char *s = seeds[round % 3];
        size_t n = strlen(s);
        memcpy(buf, s, n + 1);
        int edits = 1 + (int)(gg_test_xorshift(&rng_state) % 6);
        for (int e = 0; e < edits; e++) {
            size_t at = gg_test_xorshift(&rng_state) % n;
            static const char pool[] = "0123456789,{}=:# \n@abvxMT-";
            uint64_t r = gg_test_xorshift(&rng_state);
            if (r % 3 == 0)
                buf[at] = pool[(r >> 8) % (sizeof pool - 1)];
            else if (r % 3 == 1)
                memmove(buf + at, buf + at + 1, n - at), n--;
            else
                buf[at] = (char)(r >> 16);
        }
        gg_rulefile rf;
        gg_err err;
        if (!gg_rulefile_parse(buf, n, "m.rule", &rf, &err)) {
            uint8_t block[9] = {0};
            for (int k = 0; k < 9; k++)
                block[k] = (uint8_t)(gg_test_xorshift(&rng_state) %
                                     (uint64_t)rf.n_states);
            int next = gg_rulefile_next(&rf, block);
            assert_true(next >= 0 && next < rf.n_states);
            gg_rulefile_free(&rf);
            ok++;
        } else {
            assert_true(strlen(err.msg) > 0);
        }
    }
    assert_true(ok > 0);
}

static void rule_search_order(void **state)
{
    (void)state;
    char dir[] = "/tmp/gg_rf_XXXXXX", path[128];
    assert_non_null(mkdtemp(dir));
    snprintf(path, sizeof path, "%s/Mine.rule", dir);
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs("@RULE Mine\n@TABLE\nn_states:2\nneighborhood:oneDimensional\n"
          "symmetries:reflect\n0101\n", f);
    fclose(f);
    gg_rule_found found;
    gg_err err;
    snprintf(path, sizeof path, "%s/p.rle", dir);
    assert_int_equal(
        gg_rule_find("Mine:T30,20", path, NULL, NULL, &found, &err), 1);
    assert_string_equal(found.rule, "Mine:T30,20");
    assert_int_equal(found.topo, GG_TOPO_TORUS);
    assert_int_equal(found.rf.nbhd, GG_RF_ONEDIM);
    uint8_t east[9] = {0, 0, 0, 0, 0, 1, 0, 0, 0};
    assert_int_equal(gg_rulefile_next(&found.rf, east), 1);
    gg_rule_found_free(&found);
    assert_int_equal(gg_rule_find("Mine", NULL, dir, NULL, &found, &err), 1);
    gg_rule_found_free(&found);
    assert_int_equal(gg_rule_find("Mine", NULL, NULL, NULL, &found, &err), 0);
    assert_non_null(strstr(err.msg, "no Mine.rule"));
    assert_int_equal(
        gg_rule_find("Mine:Q3", NULL, dir, NULL, &found, &err), -1);
    assert_non_null(strstr(err.msg, "bad grid suffix"));
    gg_test_rmtree(dir);
}

static void assert_same_graph(const gg_rulefile *a, const gg_rulefile *b)
{
    assert_string_equal(a->name, b->name);
    assert_string_equal(a->symmetries, b->symmetries);
    assert_int_equal(a->is_tree, b->is_tree);
    assert_int_equal(a->n_states, b->n_states);
    assert_int_equal(a->nbhd, b->nbhd);
    assert_int_equal(a->n_transitions, b->n_transitions);
    assert_int_equal(a->n_expanded, b->n_expanded);
    assert_int_equal(a->n_inputs, b->n_inputs);
    assert_memory_equal(a->reads, b->reads, sizeof a->reads);
    assert_int_equal(a->n_nodes, b->n_nodes);
    assert_int_equal(a->root, b->root);
    assert_memory_equal(a->flat, b->flat,
                        (size_t)(a->n_nodes * a->n_states) * sizeof *a->flat);
}

/* The one entry a fresh cache folder holds, by name. */
static void only_entry(const char *dir, char *path, size_t size)
{
    DIR *d = opendir(dir);
    struct dirent *e;
    int n = 0;
    assert_non_null(d);
    while ((e = readdir(d)))
        if (strstr(e->d_name, ".dag")) {
            snprintf(path, size, "%s/%s", dir, e->d_name);
            n++;
        }
    closedir(d);
    assert_int_equal(n, 1);
}

/* Rewrite the entry at path: the flat array's entry `at` set to v
 * (the array ends the file), or `cut` bytes cut off its end, or its first
 * byte changed (cut == 1 and at < 0). */
static void damage(const char *path, const gg_rulefile *rf, int64_t at,
                   uint32_t v, size_t cut)
{
    size_t len;
    char *b = gg_test_read_file(path, &len);
    assert_non_null(b);
    size_t flat = len - (size_t)(rf->n_nodes * rf->n_states) * 4;
    if (cut == 1 && at < 0)
        b[0] ^= 1, cut = 0;
    else if (!cut)
        memcpy(b + flat + (size_t)at * 4, &v, 4);
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    assert_int_equal(fwrite(b, 1, len - cut, f), len - cut);
    fclose(f);
    free(b);
}

/* Every one of Golly's rule files: the graph kept in the cache comes back
 * equal to the one parsed, field for field and entry for entry. */
static void graph_cache_round_trip(void **state)
{
    (void)state;
    char dir[] = "/tmp/gg_dag_XXXXXX";
    assert_non_null(mkdtemp(dir));
    DIR *d = opendir(RULES);
    if (!d)
        skip();
    struct dirent *e;
    int files = 0;
    while ((e = readdir(d))) {
        if (!strstr(e->d_name, ".rule"))
            continue;
        char path[600];
        size_t len;
        snprintf(path, sizeof path, "%s/%s", RULES, e->d_name);
        char *text = gg_test_read_file(path, &len);
        assert_non_null(text);
        gg_rulefile rf, back;
        gg_err err;
        int bad = gg_rulefile_parse(text, len, path, &rf, &err);
        if (!bad) {
            assert_false(gg_rule_dag_load(dir, text, len, &back));
            gg_rule_dag_save(dir, text, len, &rf);
            assert_true(gg_rule_dag_load(dir, text, len, &back));
            assert_same_graph(&rf, &back);
            gg_rulefile_free(&back);
            gg_rulefile_free(&rf);
            files++;
        }
        free(text);
    }
    closedir(d);
    assert_true(files >= 40);
    gg_test_rmtree(dir);
}

/* gg_rule_find through the cache gives the parsed graph; an entry that is
 * cut short, points outside its nodes, names a state the rule lacks or
 * belongs to other text is never read, and the run parses instead. */
static void graph_cache_damage(void **state)
{
    (void)state;
    char dir[] = "/tmp/gg_dag_XXXXXX", entry[700];
    assert_non_null(mkdtemp(dir));
    gg_rule_found direct, found;
    gg_err err;
    if (gg_rule_find("Evoloop", NULL, RULES, NULL, &direct, &err) != 1)
        skip();
    for (int round = 0; round < 2; round++) { /* a miss, then a hit */
        assert_int_equal(gg_rule_find("Evoloop", NULL, RULES, dir, &found,
                                      &err), 1);
        assert_same_graph(&direct.rf, &found.rf);
        gg_rule_found_free(&found);
    }
    only_entry(dir, entry, sizeof entry);
    size_t len;
    char *text = gg_test_read_file(RULES "/Evoloop.rule", &len);
    assert_non_null(text);
    gg_rulefile rf;
    assert_true(gg_rule_dag_load(dir, text, len, &rf));
    gg_rulefile_free(&rf);
    assert_false(gg_rule_dag_load(dir, text, len - 1, &rf));
    const gg_rulefile *g = &direct.rf;
    int64_t leaf = g->root; /* a last-level node: first entries down */
    for (int i = 0; i < g->n_inputs - 1; i++)
        leaf = g->flat[leaf];
    struct {
        int64_t at;
        uint32_t v;
        size_t cut;
    } cases[] = {
        {0, 0, 4},                               /* cut short */
        {-1, 0, 1},                              /* not its magic */
        {g->root, 0x7fffffffu, 0},               /* outside the nodes */
        {g->root, g->flat[g->root] + 1, 0},      /* inside a node */
        {g->root, g->root, 0},                   /* the root at two levels */
        {leaf, (uint32_t)g->n_states, 0},        /* no such state */
    };
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        damage(entry, g, cases[c].at, cases[c].v, cases[c].cut);
        assert_false(gg_rule_dag_load(dir, text, len, &rf));
        assert_null(rf.flat);
        assert_int_equal(gg_rule_find("Evoloop", NULL, RULES, dir, &found,
                                      &err), 1);
        assert_same_graph(&direct.rf, &found.rf); /* parsed, kept again */
        gg_rule_found_free(&found);
        assert_true(gg_rule_dag_load(dir, text, len, &rf));
        gg_rulefile_free(&rf);
    }
    free(text);
    gg_rule_found_free(&direct);
    gg_test_rmtree(dir);
}

static void mcell_files(void **state)
{
    (void)state;
    gg_pattern p;
    gg_err err;
    if (gg_pattern_read(PATTERNS "/WireWorld/gate-AND.mcl", &p, &err))
        skip();
    assert_string_equal(p.rule, "WireWorld:P60,60");
    assert_int_equal(gg_pattern_max_state(&p), 3);
    gg_pattern_free(&p);
    assert_int_equal(gg_pattern_read(PATTERNS "/Generations/Lava.mcl", &p,
                                     &err), 0);
    assert_string_equal(p.rule, "12345/45678/8:T300,300");
    gg_pattern_free(&p);
    /* Larger than Life is read now (tests/test_ltl.c runs it) */
    assert_int_equal(gg_pattern_read(PATTERNS "/Larger-than-Life/Bosco.mcl",
                                     &p, &err), 0);
    assert_string_equal(p.rule, "R5,C0,M1,S34..58,B34..45,NM:T100,100");
    gg_pattern_free(&p);
    const char *table = "#MCell 4.00\n#GAME Rules table\n#RULE 1,0,0,2\n"
                        "#L 3A\n";
    assert_int_equal(gg_pattern_parse(table, strlen(table), "t.mcl", &p,
                                      &err), -1);
    assert_non_null(strstr(err.msg, "#GOLLY"));
    const char *bad = "#MCell 4.00\n#L 2.A$kB\n";
    assert_int_equal(gg_pattern_parse(bad, strlen(bad), "b.mcl", &p, &err),
                     -1);
    assert_non_null(strstr(err.msg, "b.mcl:2: 'k'"));
    /* a run of 88888888 cells in 12 bytes: refused before it is stored
     * (it took 3.3 s and 2 GB) */
    const char *huge = "#MCell 4.00\n#L 88888888A\n";
    assert_int_equal(gg_pattern_parse(huge, strlen(huge), "h.mcl", &p, &err),
                     -1);
    assert_non_null(strstr(err.msg, "h.mcl:2: the pattern passes"));
}

/* golgen run against bgolly: the RLE bodies (bgolly writes no #CXRLE). */
static void agree_with_bgolly(const char *pattern, int gens, const char *algo)
{
    const char *golgen = getenv("GG_GOLGEN");
    char cmd[2048];
    snprintf(cmd, sizeof cmd,
             "set -e; d=$(mktemp -d /tmp/gg_rfb_XXXXXX); "
             "'%s' run --backend reference --gens %d -o $d/g.rle '%s' "
             "2>/dev/null; bgolly -a %s -s %s/ -q -q -m %d -o $d/b.rle '%s' "
             ">/dev/null 2>&1; grep -v '^#' $d/g.rle > $d/g2.rle; "
             "cmp -s $d/g2.rle $d/b.rle || { diff $d/g2.rle $d/b.rle | "
             "head -5; exit 1; }; rm -rf $d",
             golgen, gens, pattern, algo, RULES, gens, pattern);
    if (gg_test_status(cmd) != 0)
        fail_msg("%s differs from bgolly at generation %d", pattern, gens);
}

static void golly_patterns_match_bgolly(void **state)
{
    (void)state;
    if (!getenv("GG_GOLGEN") ||
        gg_test_status("command -v bgolly >/dev/null 2>&1") != 0 ||
        gg_test_status("test -d " PATTERNS) != 0)
        skip();
    static const struct {
        const char *file;
        int gens;
    } cases[] = {
        {"Loops/Langtons-Loops.rle", 1000},
        {"Loops/Byl-Loop.rle", 1000},
        {"Loops/Evoloop-finite.rle", 1000},
        {"Loops/Chou-Reggia-Loop-1.rle", 1000},
        {"Loops/SDSR-Loop.rle", 1000},
        {"Loops/Perrier-Loop.rle", 1000},
        {"Loops/Tempesti-Loop.rle", 300},
        {"Self-Rep/Codd/signals-demo.rle", 1000},
        {"Self-Rep/Banks/Banks-I-demo.rle", 1000},
        {"Self-Rep/Banks/Banks-IV-demo.rle", 1000},
        {"WireWorld/gate-AND.mcl", 1000},
        {"WireWorld/flip-flop.mcl", 1000},
        {"WireWorld/NylesHeise.mcl", 200},
        {"Turmites/AlienCounter.rle", 1000},
        {"Turmites/WormTrails.rle", 1000},
        {"Turmites/TriangularLangtonsAnt.rle", 1000},
        {"Turmites/LangtonsAnt_LLRR.rle", 1000},
        {"Other-Rules/Langtons-Ant.rle", 1000},
        {"Other-Rules/HPP-demo-small.rle", 300},
        {"Other-Rules/life-on-the-edge.rle", 300},
        {"Other-Rules/Ed-rep.rle", 300},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        char path[512];
        snprintf(path, sizeof path, PATTERNS "/%s", cases[i].file);
        agree_with_bgolly(path, cases[i].gens, "RuleLoader");
    }
    /* MCell's Generations files, bounded as MCell saved them */
    agree_with_bgolly(PATTERNS "/Generations/Lava.mcl", 200, "Generations");
    agree_with_bgolly(PATTERNS "/Generations/Steeplechase.mcl", 100,
                      "Generations");
    agree_with_bgolly(PATTERNS "/Generations/Bloomerang.mcl", 300,
                      "Generations");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(every_golly_rule_parses),
        cmocka_unit_test(table_equals_its_tree),
        cmocka_unit_test(variables_bind_as_golly),
        cmocka_unit_test(errors_name_line_and_problem),
        cmocka_unit_test(mangled_files_never_crash),
        cmocka_unit_test(rule_search_order),
        cmocka_unit_test(graph_cache_round_trip),
        cmocka_unit_test(graph_cache_damage),
        cmocka_unit_test(mcell_files),
        cmocka_unit_test(golly_patterns_match_bgolly),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

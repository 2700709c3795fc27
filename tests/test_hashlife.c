/* The hash-tree engine (runtime/engines/hashlife.h) through `golgen run`,
 * against bgolly -a HashLife: Golly's own patterns at 10^3 to 2^40
 * generations, random soups of every two-state family and Generations
 * rules (against bgolly -a Generations and the dense engine), Golly's rule
 * tables (against bgolly -a RuleLoader), runs that must
 * collect garbage to finish under --mem, stops, and engine auto's
 * choices. Without bgolly the oracle cases skip. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>

#include "hl_rle.h"
#include "test_golgen.h"

#define GOLLY "/usr/share/golly/Patterns/"

static bool have_bgolly(void)
{
    if (gg_test_status("command -v bgolly >/dev/null 2>&1") == 0)
        return true;
    printf("hashlife: no bgolly, the oracle cases skip\n");
    return false;
}

/* golgen (engine hashlife, with options opt) and bgolly's algo run IN
 * for GENS and write macrocell; their node lines must match (the first
 * lines name the writer, #R its rule's notation). */
static void agree_as(const char *in, const char *gens, const char *opt,
                     const char *algo)
{
    char script[2048];
    snprintf(script, sizeof script,
             "rm -f h.mc b.mc && $G run --engine hashlife %s --gens %s '%s' "
             "-o h.mc 2>h.log && bgolly -a %s -q -q -m %s -o b.mc "
             "'%s' >/dev/null && grep -v '^[[#]' h.mc >h.body && "
             "grep -v '^[[#]' b.mc >b.body && cmp -s h.body b.body",
             opt, gens, in, algo, gens, in);
    shell_ok(in, script);
}

static void agree(const char *in, const char *gens)
{
    agree_as(in, gens, "", "HashLife");
}

static void test_golly_patterns(void **state)
{
    (void)state;
    if (!have_bgolly())
        return;
    static const char *const cases[][2] = {
        {GOLLY "HashLife/ruler.mc", "1000"},
        {GOLLY "HashLife/wedge-grow.mc", "4096"},
        {GOLLY "HashLife/metacatacryst.mc", "1000"},
        {GOLLY "HashLife/logarithmic-width.mc", "65536"},
        {GOLLY "HashLife/totalperiodic.mc", "1000"},
        {GOLLY "Life/Methuselahs/acorn.lif", "20000"},
        {GOLLY "Life/Breeders/breeder.lif", "1000"},
        {GOLLY "Life/Guns/golly-ticker.rle", "3000"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++)
        agree(cases[i][0], cases[i][1]);
    /* the Gosper gun to 2^40: 1.8e11 cells, byte for byte */
    write_file("gun.rle", "x = 36, y = 9, rule = B3/S23\n24bo$22bobo$12b2o6b"
               "2o12b2o$11bo3bo4b2o12b2o$2o8bo5bo3b2o$2o8bo3bob2o4bobo$10bo"
               "5bo7bo$11bo3bo$12b2o!\n");
    agree("gun.rle", "1099511627776");
    expect("run --engine hashlife --gens 1099511627776 gun.rle -o g.mc", 0,
           "population 183251938004");
}

/* 64 x 64 blinkers, each at its own offset in a 32x32 cell: a tree of
 * thousands of nodes (one pass a count: hl_step.c's HL_ONE_PASS_NODES)
 * whose every node recurs every 2 generations. */
static void write_blinkers(const char *name, uint64_t seed)
{
    static char rle[64 * 64 * 8 + 1024];
    int n = sprintf(rle, "x = 2048, y = 2048, rule = B3/S23\n");
    for (int i = 0, y_was = 0; i < 64; i++) {
        int y = 32 * i + 1 + (int)(gg_test_xorshift(&seed) % 28);
        if (i)
            n += sprintf(rle + n, "%d$", y - y_was);
        for (int j = 0, x_was = 0; j < 64; j++) {
            int x = 32 * j + 1 + (int)(gg_test_xorshift(&seed) % 28);
            n += sprintf(rle + n, "%db3o", x - x_was);
            x_was = x + 3;
        }
        y_was = y;
    }
    sprintf(rle + n, "!\n");
    write_file(name, rle);
}

/* A count of generations is one pass on a large tree (hl_step.c's step
 * codes): counts that are not powers of two run one after another on
 * one tree, whose results for one count must not answer another (the
 * blinkers' results kept from the step of 1000 and read for the 501
 * after it give the other phase: checked with the sweep that forgets
 * them disabled), a small tree's counts by their binary expansion, and
 * an odd count split in two under a memory budget, all as bgolly's. */
static void test_odd_counts(void **state)
{
    (void)state;
    if (!have_bgolly())
        return;
    write_blinkers("blinkers.rle", 38);
    agree_as("blinkers.rle", "1501", "--checkpoint-every 1000", "HashLife");
    write_file("bl.rle", "x = 3, y = 1, rule = B3/S23\n3o!\n");
    agree_as("bl.rle", "1501", "--checkpoint-every 1000", "HashLife");
    agree_as(GOLLY "HashLife/linear-propagator-p237228340.mc.gz", "2500",
             "--checkpoint-every 1000", "HashLife");
    agree_as(GOLLY "HashLife/jagged.mc", "10000", "--mem 3M", "HashLife");
    shell_ok("10000 under 3M collected", "! grep -q ' 0 collections' h.log");
}

/* Every leaf size (--tree-leaf) gives Golly's answer: two-state rules,
 * a Generations rule (states as planes, macrocell lines of states) and a
 * rule table, whose auto size (4x4 unless the box is busy) the log says. */
static void test_leaf_sizes(void **state)
{
    (void)state;
    if (!have_bgolly())
        return;
    static const char *const cases[][3] = {
        {GOLLY "HashLife/metacatacryst.mc", "1000", "HashLife"},
        {GOLLY "Life/Breeders/breeder.lif", "1000", "HashLife"},
        {GOLLY "Generations/Delta.rle", "500", "Generations"},
        {GOLLY "Loops/Langtons-Loops.rle", "1000",
         "RuleLoader -s /usr/share/golly/Rules/"},
    };
    static const char *const sides[] = {"4", "8", "16", "32", "64"};
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++)
        for (int s = 0; s < 5; s++) {
            char opt[32];
            snprintf(opt, sizeof opt, "--tree-leaf %s", sides[s]);
            agree_as(cases[i][0], cases[i][1], opt, cases[i][2]);
            char want[96];
            snprintf(want, sizeof want, "grep -q '; %sx%s leaves' h.log",
                     sides[s], sides[s]);
            shell_ok(sides[s], want);
        }
    shell_ok("auto 4x4", "$G run --gens 10 " GOLLY "Loops/Byl-Loop.rle "
             "2>&1 >/dev/null | grep -q '; 4x4 leaves'");
    /* two-state macrocell in and out across 4x4 leaves (Golly's smallest
     * two-state node is 8x8): read back, run on, the same as one run */
    shell_ok("4x4 mc", "$G run --tree-leaf 4 --gens 100 " GOLLY
             "HashLife/metacatacryst.mc -o m100.mc 2>/dev/null && $G run "
             "--tree-leaf 4 --gens 900 m100.mc -o m1000.mc 2>/dev/null && "
             "$G run --gens 1000 " GOLLY "HashLife/metacatacryst.mc -o "
             "w1000.mc 2>/dev/null && grep -v '^[[#]' m1000.mc >m.body && "
             "grep -v '^[[#]' w1000.mc >w.body && cmp -s m.body w.body");
    expect("run --tree-leaf 12 --gens 1", 2, "4, 8, 16, 32 or 64");
    expect("run --tree-leaf 16 --engine dense --gens 1", 2,
           "--tree-leaf shapes the hash tree");
}

/* auto's 32x32 leaves turn to 8x8 after a long run's first 1024
 * generations where the leaves are made of few 8x8 blocks (hashlife.h's
 * gg_hl_set_revise): jagged2 does, in one run and across checkpoints
 * (the revision in the first call, the rest on the new leaves), and
 * under a budget that forces collections; wedge-grow, whose leaves vary,
 * does not; a named leaf size is kept. Every result as bgolly's. */
static void test_leaf_revised(void **state)
{
    (void)state;
    if (!have_bgolly())
        return;
    const char *j2 = GOLLY "HashLife/jagged2.mc";
    agree(j2, "16384");
    shell_ok("jagged2 revised", "grep -q '; 8x8 leaves' h.log");
    agree_as(j2, "20000", "--checkpoint-every 9000", "HashLife");
    shell_ok("revised at a checkpoint", "grep -q '; 8x8 leaves' h.log");
    agree_as(j2, "12000", "--mem 8M", "HashLife");
    shell_ok("revised in 8M", "grep -q '; 8x8 leaves' h.log && "
             "! grep -q ' 0 collections' h.log");
    agree_as(j2, "16384", "--tree-leaf 32", "HashLife");
    shell_ok("a named size stays", "grep -q '; 32x32 leaves' h.log");
    agree(GOLLY "HashLife/wedge-grow.mc", "16384");
    shell_ok("wedge-grow stays", "grep -q '; 32x32 leaves' h.log");
}

/* A w x h soup (40% alive) under rule, RLE, the same for the same seed. */
static void write_soup(const char *name, const char *rule, uint64_t seed)
{
    char rle[4096];
    int n = snprintf(rle, sizeof rle, "x = 48, y = 48, rule = %s\n", rule);
    for (int y = 0; y < 48; y++) {
        for (int x = 0; x < 48; x++)
            rle[n++] = gg_test_xorshift(&seed) % 5 < 2 ? 'o' : 'b';
        rle[n++] = y < 47 ? '$' : '!';
    }
    rle[n] = 0;
    write_file(name, rle);
}

/* A random MAP rule without B0: 512 bits, base64 as Golly writes it. */
static void random_map(char *out, uint64_t seed)
{
    static const char b64[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqr"
                              "stuvwxyz0123456789+/";
    unsigned char bits[66] = {0};
    for (int i = 0; i < 64; i++)
        bits[i] = (unsigned char)(gg_test_xorshift(&seed) & 0x94);
    bits[0] &= 0x7f; /* the all-dead neighbourhood stays dead */
    int n = sprintf(out, "MAP");
    for (int i = 0; i < 516; i += 6) {
        int v = 0;
        for (int k = 0; k < 6; k++) {
            int b = i + k;
            v = v << 1 | (b < 512 ? bits[b / 8] >> (7 - b % 8) & 1 : 0);
        }
        out[n++] = b64[v];
    }
    out[n] = 0;
}

static void test_family_soups(void **state)
{
    (void)state;
    if (!have_bgolly())
        return;
    char map[128];
    random_map(map, 0x243f6a8885a308d3ull);
    const char *rules[] = {"B36/S23", "B2n3/S23-q", "B3/S23V", "B2/S34H", map};
    for (int i = 0; i < 5; i++) {
        write_soup("soup.rle", rules[i], 0x9e3779b97f4a7c15ull * (i + 1));
        agree("soup.rle", "1000");
    }
}

/* Generations rules: states as planes in the leaves, against bgolly's
 * Generations and the dense engine, and in and out as multi-state
 * macrocell. */
static void test_generations(void **state)
{
    (void)state;
    static const char *const rules[][2] = {
        {"/2/3", "3"}, {"345/2/4", "4"}, {"12/34/5", "5"}};
    for (int i = 0; i < 3; i++) {
        char rle[4096];
        uint64_t seed = 0x2545f4914f6cdd1dull + (uint64_t)i;
        int states = atoi(rules[i][1]);
        int n = snprintf(rle, sizeof rle, "x = 40, y = 40, rule = %s\n",
                         rules[i][0]);
        for (int y = 0; y < 40; y++) {
            for (int x = 0; x < 40; x++) {
                int s = (int)(gg_test_xorshift(&seed) % (2 * states - 2));
                rle[n++] = s < states - 1 ? (char)('A' + s) : '.';
            }
            rle[n++] = y < 39 ? '$' : '!';
        }
        rle[n] = 0;
        write_file("gs.rle", rle);
        shell_ok(rules[i][0],
                 "$G run --engine hashlife --gens 500 gs.rle -o h.rle "
                 "2>/dev/null && $G run --engine dense --gens 500 gs.rle -o "
                 "d.rle 2>/dev/null && cmp h.rle d.rle");
        if (!have_bgolly())
            continue;
        shell_ok(rules[i][0],
                 "bgolly -a Generations -q -q -m 500 -o b.rle gs.rle "
                 ">/dev/null && grep -v '^#' h.rle >h.body && "
                 "grep -v '^#' b.rle >b.body && cmp -s h.body b.body");
        /* multi-state macrocell both ways: bgolly's file at 250 run on by
         * the tree and the dense engine, and the tree's file at 500 read
         * back by bgolly, all as bgolly's own 500 */
        shell_ok(rules[i][0],
                 "bgolly -a Generations -q -q -m 250 -o b250.mc gs.rle "
                 ">/dev/null && $G run --engine hashlife --gens 250 b250.mc "
                 "-o h500.mc 2>/dev/null && $G run --engine dense --gens 250 "
                 "b250.mc -o d500.rle 2>/dev/null && bgolly -a Generations "
                 "-q -q -m 0 -o hb.rle h500.mc >/dev/null && "
                 "grep -v '^#' hb.rle >hb.body && cmp -s hb.body b.body && "
                 "grep -v '^#' d500.rle >d.body && cmp -s d.body b.body && "
                 "grep -q '^#G 500$' h500.mc");
        /* the dense writer: bgolly's own bytes after the first line */
        shell_ok(rules[i][0],
                 "$G run --engine dense --gens 500 gs.rle -o d.mc "
                 "2>/dev/null && bgolly -a Generations -q -q -m 500 -o b.mc "
                 "gs.rle >/dev/null && tail -n +2 d.mc >d.tail && "
                 "tail -n +2 b.mc >b.tail && cmp -s d.tail b.tail");
    }
    /* a state the rule does not have */
    write_file("s9.mc", "[M2] (golly 3.3)\n#R /2/3\n1 9 0 0 1\n"
               "2 1 0 0 0\n3 2 0 0 0\n");
    expect("run --engine hashlife --gens 1 s9.mc", 2,
           "cells in state 9, but /2/3 has 3 states");
}

/* --png: the dense picture where the box is small (the same file as the
 * dense engine's), and one drawn from the tree at any size. */
/* A 48 x 48 soup of states 0 .. states - 1 (half of them 0) under a
 * rule named in the file, Golly's letters. */
static void write_state_soup(const char *name, const char *rule, int states,
                             uint64_t seed)
{
    char rle[4096];
    int n = snprintf(rle, sizeof rle, "x = 48, y = 48, rule = %s\n", rule);
    for (int y = 0; y < 48; y++) {
        for (int x = 0; x < 48; x++) {
            int s = (int)(gg_test_xorshift(&seed) % (2 * (states - 1)));
            rle[n++] = s < states - 1 ? (char)('A' + s) : '.';
        }
        rle[n++] = y < 47 ? '$' : '!';
    }
    rle[n] = 0;
    write_file(name, rle);
}

/* Golly's rule tables and trees (.rule files, found as Golly finds them)
 * on the plane through the tree: its leaves by the table's compiled
 * kernel, against bgolly's RuleLoader, the dense engine and the tree
 * over the reference. */
static void test_rule_tables(void **state)
{
    (void)state;
    static const char *const golly[][2] = {
        {GOLLY "Loops/Langtons-Loops.rle", "1000"},
        {GOLLY "Loops/Byl-Loop.rle", "1000"},
        {GOLLY "Self-Rep/Codd/sheathing-demo.rle", "1000"},
        {GOLLY "Self-Rep/Devore/crossover.rle", "1000"},
        /* 64 states (6 planes: a 4x4 window's key in two words), through
         * the 4x4 leaves' memo and the grid both (hl_small.c) */
        {GOLLY "Loops/Perrier-Loop.rle", "1000"},
    };
    bool oracle = have_bgolly();
    for (size_t i = 0; i < sizeof golly / sizeof *golly; i++) {
        char script[2048];
        snprintf(script, sizeof script,
                 "rm -f h.rle d.rle && $G run --gens %s '%s' -o h.rle "
                 "2>h.log && grep -q 'engine auto -> hashlife' h.log && "
                 "$G run --engine dense --gens %s '%s' -o d.rle 2>/dev/null "
                 "&& cmp h.rle d.rle",
                 golly[i][1], golly[i][0], golly[i][1], golly[i][0]);
        shell_ok(golly[i][0], script);
        if (!oracle)
            continue;
        snprintf(script, sizeof script,
                 "bgolly -a RuleLoader -s /usr/share/golly/Rules/ -q -q -m %s "
                 "-o b.rle '%s' >/dev/null && grep -v '^#' h.rle >h.body && "
                 "grep -v '^#' b.rle >b.body && cmp -s h.body b.body",
                 golly[i][1], golly[i][0]);
        shell_ok(golly[i][0], script);
    }
    /* the WireWorld computer as a macrocell, out as bgolly writes it */
    if (oracle)
        shell_ok("primes.mc",
                 "rm -f h.mc b.mc && $G run --gens 1000 " GOLLY
                 "WireWorld/primes.mc -o h.mc 2>/dev/null && bgolly -a "
                 "RuleLoader -s /usr/share/golly/Rules/ -q -q -m 1000 -o b.mc "
                 GOLLY "WireWorld/primes.mc >/dev/null && grep -v '^[[#]' "
                 "h.mc >h.body && grep -v '^[[#]' b.mc >b.body && "
                 "cmp -s h.body b.body");
    /* soups: cpu leaves, reference leaves and the dense engine agree, and
     * bgolly with them */
    static const char *const soups[][2] = {{"WireWorld", "4"},
                                           {"Byl-Loop", "6"}};
    for (int i = 0; i < 2; i++) {
        write_state_soup("ts.rle", soups[i][0], atoi(soups[i][1]),
                         0x632be59bd9b4e019ull * (uint64_t)(i + 1));
        shell_ok(soups[i][0],
                 "$G run --engine hashlife --gens 700 ts.rle -o h.rle "
                 "2>/dev/null && $G run --engine hashlife --backend reference "
                 "--gens 700 ts.rle -o r.rle 2>/dev/null && $G run --engine "
                 "dense --gens 700 ts.rle -o d.rle 2>/dev/null && "
                 "cmp h.rle r.rle && cmp h.rle d.rle");
        if (oracle)
            shell_ok(soups[i][0],
                     "bgolly -a RuleLoader -s /usr/share/golly/Rules/ -q -q "
                     "-m 700 -o b.rle ts.rle >/dev/null && grep -v '^#' "
                     "h.rle >h.body && grep -v '^#' b.rle >b.body && "
                     "cmp -s h.body b.body");
    }
    /* its macrocell read back and run on: the same as one run */
    shell_ok("table mc", "$G run --engine hashlife --gens 300 ts.rle -o "
             "t300.mc 2>/dev/null && $G run --gens 400 t300.mc -o t700.rle "
             "2>/dev/null && grep -v '^#' t700.rle >t.body && "
             "grep -v '^#' h.rle >h.body && cmp t.body h.body");
    /* a picture of it, and what the tree does not take */
    expect("run --engine hashlife --gens 10 ts.rle --png t.png", 0,
           "hashlife, leaves by");
    expect("run --engine hashlife --gens 1 --rule Byl-Loop:T64,64 ts.rle", 2,
           "on a bounded grid");
    expect("run --engine hashlife --backend opencl --gens 1 ts.rle", 2,
           "use --backend reference or cpu");
    expect("run --engine hashlife --gens 1 --rule NoSuchRule ts.rle", 2,
           "nor a rule file");
}

static void test_pictures(void **state)
{
    (void)state;
    write_file("acorn.rle", "x = 7, y = 3\nbo5b$3bo3b$2o2b3o!\n");
    shell_ok("small", "$G run --gens 1000 acorn.rle --png t.png 2>/dev/null "
             "&& $G run --engine dense --gens 1000 acorn.rle --png d.png "
             "2>/dev/null && cmp t.png d.png");
    write_file("gun2.rle", "x = 36, y = 9, rule = B3/S23\n24bo$22bobo$12b2o6b"
               "2o12b2o$11bo3bo4b2o12b2o$2o8bo5bo3b2o$2o8bo3bob2o4bobo$10bo"
               "5bo7bo$11bo3bo$12b2o!\n");
    expect("run --gens 1099511627776 gun2.rle --png g.png", 0,
           "134217728 x 134217728 cells a pixel (shaded by density)");
    /* PNG's width and height: bytes 16..23, big-endian */
    shell_ok("size", "test $(od -An -tu1 -j16 -N8 g.png | tr -s ' ' | "
             "cut -d' ' -f2-9 | awk '{print $3*256+$4, $7*256+$8}' | "
             "tr ' ' x) = 2049x2050");
    expect("run --engine hashlife --gens 100 gun2.rle --frames fr", 2,
           "does not take --frames");
}

/* Under a budget the run collects and still ends where an unbounded one
 * does. */
static void test_memory_bound(void **state)
{
    (void)state;
    shell_ok("--mem 3M", "$G run --engine hashlife --gens 16384 "
             "'" GOLLY "HashLife/jagged.mc' -o big.mc 2>/dev/null && "
             "$G run --engine hashlife --mem 3M --gens 16384 "
             "'" GOLLY "HashLife/jagged.mc' -o small.mc 2>small.log && "
             "cmp big.mc small.mc && ! grep -q ' 0 collections' small.log");
    write_file("g.rle", "x = 3, y = 3\nbo$2bo$3o!\n");
    expect("run --engine hashlife --mem 64K --gens 100 g.rle", 2,
           "allow more with --mem");
}

/* --mem bounds the whole process: a run that must collect to finish
 * stays under it (peak RSS of that child, by wait4), and ends where an
 * unbounded run ends. Sanitizer builds carry shadow memory: there the
 * peak is not checked. */
static void test_memory_peak(void **state)
{
    (void)state;
    char out[300], log[300];
    snprintf(out, sizeof out, "%s/peak.mc", gg_test_dir);
    snprintf(log, sizeof log, "%s/peak.log", gg_test_dir);
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid == 0) {
        int fd = open(log, O_WRONLY | O_CREAT | O_TRUNC, 0644);
        dup2(fd, 2);
        execl(getenv("GG_GOLGEN"), "golgen", "run", "--engine", "hashlife",
              "--mem", "20M", "--gens", "65536",
              GOLLY "HashLife/jagged.mc", "-o", out, (char *)NULL);
        _exit(127);
    }
    int status;
    struct rusage ru;
    assert_int_equal(wait4(pid, &status, 0, &ru), pid);
    assert_true(WIFEXITED(status) && WEXITSTATUS(status) == 0);
    if (!getenv("ASAN_OPTIONS"))
        assert_true(ru.ru_maxrss < 20 * 1024); /* KB */
    else
        printf("hashlife: sanitizer build, peak RSS %ld KB not checked\n",
               ru.ru_maxrss);
    shell_ok("unbounded", "$G run --engine hashlife --gens 65536 "
             "'" GOLLY "HashLife/jagged.mc' -o free.mc 2>/dev/null && "
             "cmp free.mc peak.mc && ! grep -q ' 0 collections' peak.log");
}

/* A stop in the middle of a long step ends the run within two seconds,
 * with the generation reached written whole (the step in flight, here
 * the one step of 2^24, is given up). */
static void test_stop_mid_step(void **state)
{
    (void)state;
    /* a step far longer than the wait (the tree ran 2^20 in 1.8-2.9 s,
     * near enough the 1.5 s to race the run's end) */
    shell_ok("SIGTERM", "rm -f stop.mc && { $G run --engine hashlife --gens "
             "16777216 '" GOLLY "HashLife/unlimited-novelty.mc' -o "
             "stop.mc 2>stop.log & pid=$!; sleep 1.5; kill -TERM $pid; "
             "t0=$(date +%s%N); wait $pid; rc=$?; t1=$(date +%s%N); "
             "test $rc = 143 && test $(( (t1 - t0) / 1000000 )) -lt 2000; } "
             "&& grep -q 'interrupted by SIGTERM' stop.log && $G run --gens 0 "
             "stop.mc >/dev/null 2>&1");
}

/* --progress inside one long step (2^24 generations of
 * unlimited-novelty): a line a second says the step is under
 * way with the tree's counts, before any generation arrives. */
static void test_progress_in_step(void **state)
{
    (void)state;
    /* a step of 2^24, far longer than the wait for its first progress
     * line (the tree ran 2^20 of it in 1.8-2.9 s, so a fixed 2.5 s sleep
     * raced the run's end); SIGTERM once the line is there */
    shell_ok("in a step", "rm -f pr.mc && { $G run --progress --engine "
             "hashlife --gens 16777216 '" GOLLY "HashLife/unlimited-novelty"
             ".mc' -o pr.mc 2>pr.log & pid=$!; i=0; while [ $i -lt 600 ] && "
             "! tr '\\r' '\\n' <pr.log | grep -q 'a step of 2^24 under "
             "way'; do sleep 0.1; i=$((i+1)); done; kill -TERM $pid; "
             "wait $pid; test $? = 143; } && tr '\\r' '\\n' <pr.log | "
             "grep -q '^generation 0 of 16777216 (0%), a step of 2^24 under "
             "way: [0-9]* leaf squares, [0-9]* nodes, [0-9]* MB'");
}

/* bench --engine: tiles time the dense bench's soup through active tiles
 * and end on the same cells (population), the tree times the soup on the
 * unbounded plane and says what it did; what an engine cannot take is
 * refused by name. */
static void test_bench_engines(void **state)
{
    (void)state;
    shell_ok("tiles = dense", "$G bench --engine dense --size 512x512 "
             "--gens 300 --json >d.json 2>/dev/null && $G bench --engine "
             "tiles --size 512x512 --gens 300 --json >t.json 2>/dev/null && "
             "grep -o '\"population\": [0-9]*' d.json >d.pop && "
             "grep -o '\"population\": [0-9]*' t.json >t.pop && "
             "cmp d.pop t.pop && grep -q '\"engine\": \"tiles\"' t.json");
    expect("bench --engine hashlife --size 128x128 --gens 1000", 0,
           "unbounded plane, a 128x128 soup, 1000 generations: ");
    assert_non_null(strstr(out_text, " generations/s, "));
    assert_non_null(strstr(out_text, "CUpS over the soup's box (hashlife, "
                                     "leaves by "));
    expect("bench --engine hashlife --size 64x64 --gens 100 --json", 0,
           "\"topology\": \"unbounded\"");
    assert_non_null(strstr(out_text, "\"leaf_steps\": "));
    expect("bench --size 64x64 --gens 2", 0, "engine auto -> dense");
    expect("bench --engine hashlife --plane", 2, "unbounded plane; --plane");
    expect("bench --engine hashlife --rule B3/S23:T64,64", 2,
           "does not take a bounded grid");
    expect("bench --engine hashlife --rule B03/S23", 2,
           "does not take a B0 rule");
    expect("bench --engine tiles --mem 1G", 2, "--mem bounds the hash tree");
    expect("bench --engine warp", 2, "unknown engine 'warp'");
}

/* auto takes the tree for the unbounded plane and says so, the dense
 * grid elsewhere; what the tree cannot take is refused by name. */
static void test_engine_choice(void **state)
{
    (void)state;
    write_file("glider.rle", "x = 3, y = 3\nbo$2bo$3o!\n");
    expect("run --gens 100 glider.rle", 0, "engine auto -> hashlife");
    assert_non_null(strstr(out_text, "population 5"));
    expect("run --gens 100 --rule B3/S23:T64,64 glider.rle", 0, "(cpu)");
    assert_null(strstr(out_text, "engine auto"));
    expect("run --engine hashlife --gens 1 --rule B3/S23:T64,64 glider.rle",
           2, "a bounded grid");
    /* B0 without S<max>: both rules by parity (b0_oracle checks the
     * cells against bgolly) */
    expect("run --engine hashlife --gens 1 --rule B03/S23 glider.rle", 0,
           "(hashlife, leaves by ");
    expect("run --engine hashlife --gens 1 --store s.ggu glider.rle", 2,
           "does not take stores");
    expect("run --engine warp --gens 1 glider.rle", 2, "unknown engine");
    expect("run --gens 100 glider.rle -o /nonexistent/g.rle", 2,
           "create the directory first");
    assert_null(strstr(out_text, "generation 100"));
    expect("run --engine dense --mem 1G --gens 1 glider.rle", 2,
           "--mem bounds the hash tree");
    /* four blocks at the corners of a 40002^2 box: dense grids of it
     * (3 x 200 MB) do not fit in --mem 256M, so auto takes the tree even
     * for few generations (a 19 GB box was OOM-killed before) */
    write_file("far.rle", "x = 40002, y = 40002\n2o39998b2o$2o39998b2o"
                          "39999$2o39998b2o$2o39998b2o!\n");
    expect("run --mem 256M --gens 3 far.rle -o far.mc", 0,
           "too big for dense grids");
    assert_non_null(strstr(out_text, "population 16"));
    /* the same blocks 3000 apart: a box of 9e6 cells that fits, but 16
     * cells alive is sparse (a circuit, not a soup): the tree, whose
     * answer the dense engine gives too */
    write_file("sparse.rle", "x = 3002, y = 3002\n2o2998b2o$2o2998b2o"
                             "2999$2o2998b2o$2o2998b2o!\n");
    expect("run --gens 3 sparse.rle -o t.rle", 0,
           "engine auto -> hashlife (unbounded plane)");
    shell_ok("sparse box", "$G run --engine dense --gens 3 sparse.rle -o "
             "d.rle 2>/dev/null && cmp t.rle d.rle");
}

/* ---- big sparse boxes: RLE into and out of the tree as runs ---- */

static int no_step(void *ctx, gg_gen_cells *cells, int64_t gens, gg_err *err)
{
    (void)ctx, (void)cells, (void)gens;
    return gg_fail(err, "not stepped here");
}

/* Golly's letters for state s: A..X, then pA..yO. */
static int put_state(char *o, int states, int s)
{
    if (states == 2)
        return o[0] = s ? 'o' : 'b', 1;
    if (s == 0)
        return o[0] = '.', 1;
    if (s <= 24)
        return o[0] = (char)('A' + s - 1), 1;
    o[0] = (char)('p' + (s - 1) / 24 - 1);
    o[1] = (char)('A' + (s - 1) % 24);
    return 2;
}

/* A 5000 x 3000 box at (-1000, -700) with a few hundred runs of random
 * states: single cells, runs across leaf edges, one 128-cell run on a
 * 64-cell boundary, blank rows between. */
static char *sparse_text(const char *rule, int states, uint64_t seed)
{
    size_t cap = 1 << 20, n = 0;
    char *t = malloc(cap);
    assert_non_null(t);
    n += (size_t)snprintf(t, cap, "#CXRLE Pos=-1000,-700\n#C sparse\n"
                          "x = 5000, y = 3000, rule = %s\n", rule);
    int64_t gap = 0;
    for (int64_t y = 0; y < 3000; y++) {
        uint64_t r = gg_test_xorshift(&seed);
        if (r % 16 && y != 1500) {
            gap++;
            continue;
        }
        if (y)
            n += (size_t)snprintf(t + n, cap - n, "%lld$", (long long)gap + 1);
        gap = 0;
        int64_t x = 0;
        if (y == 1500) { /* 128 cells from column 64 */
            n += (size_t)snprintf(t + n, cap - n, "64%c128", states > 2 ?
                                  '.' : 'b');
            n += (size_t)put_state(t + n, states, 1);
            x = 192;
        }
        for (int k = 0; k < 3; k++) {
            int64_t skip = (int64_t)(gg_test_xorshift(&seed) % 1500);
            int64_t len = 1 + (int64_t)(gg_test_xorshift(&seed) % 70);
            int st = 1 + (int)(gg_test_xorshift(&seed) % (uint64_t)(states - 1));
            if (x + skip + len > 5000)
                break;
            n += (size_t)snprintf(t + n, cap - n, "%lld", (long long)skip);
            n += (size_t)put_state(t + n, states, 0);
            n += (size_t)snprintf(t + n, cap - n, "%lld", (long long)len);
            n += (size_t)put_state(t + n, states, st);
            x += skip + len;
        }
    }
    n += (size_t)snprintf(t + n, cap - n, "!\n");
    return t;
}

/* The tree from the runs and from the dense pattern, at every leaf size,
 * written as RLE by the tree writer and through the dense pattern: one
 * file, byte for byte. */
static void test_sparse_tree_io(void **state)
{
    (void)state;
    char dense[512], tree_a[512], tree_b[512];
    snprintf(dense, sizeof dense, "%s/dense.rle", gg_test_dir);
    snprintf(tree_a, sizeof tree_a, "%s/tree_a.rle", gg_test_dir);
    snprintf(tree_b, sizeof tree_b, "%s/tree_b.rle", gg_test_dir);
    static const struct { const char *rule; int states; } cases[] = {
        {"B3/S23", 2}, {"/2/3", 3}, {"345/2/40", 40}};
    for (int c = 0; c < 3; c++) {
        char *text = sparse_text(cases[c].rule, cases[c].states, 77 + c);
        gg_err err;
        gg_pattern p;
        gg_pattern_runs r;
        assert_int_equal(gg_pattern_parse(text, strlen(text), "s", &p, &err),
                         0);
        assert_int_equal(gg_pattern_runs_parse(text, strlen(text), "s", NULL,
                                               0.0, &r, &err), 0);
        for (int leaf = HL_LEAF_LOG_MIN; leaf <= HL_LEAF_LOG_MAX; leaf++) {
            gg_hl_leaf_stepper s = {.rule_text = cases[c].rule,
                                    .states = cases[c].states,
                                    .leaf_log = leaf, .step = no_step};
            gg_hl *a, *b;
            assert_int_equal(gg_hl_new_stepped(&s, 1 << 28, &a, &err), 0);
            assert_int_equal(gg_hl_new_stepped(&s, 1 << 28, &b, &err), 0);
            assert_int_equal(gg_hl_set_pattern(a, &p, &err), 0);
            assert_int_equal(gg_hl_set_runs(b, &r, &err), 0);
            assert_int_equal(gg_hl_population(a), gg_hl_population(b));
            assert_int_equal(gg_hl_population(b),
                             r.population > 0 ? gg_hl_population(a) : 0);
            gg_pattern d;
            assert_int_equal(gg_hl_to_pattern(a, 1 << 30, &d, &err), 0);
            assert_int_equal(gg_pattern_write_rle(dense, &d, &err), 0);
            gg_pattern_free(&d);
            assert_int_equal(gg_hl_write_rle(a, tree_a, &err), 0);
            assert_int_equal(gg_hl_write_rle(b, tree_b, &err), 0);
            shell_ok(cases[c].rule, "cmp -s dense.rle tree_a.rle && "
                     "cmp -s dense.rle tree_b.rle && "
                     "grep -q '^#CXRLE Pos=-' dense.rle");
            gg_hl_free(a);
            gg_hl_free(b);
        }
        /* the empty tree: the same header and "!" */
        gg_hl_leaf_stepper s = {.rule_text = cases[c].rule,
                                .states = cases[c].states, .step = no_step};
        gg_hl *e;
        gg_pattern d;
        assert_int_equal(gg_hl_new_stepped(&s, 1 << 28, &e, &err), 0);
        assert_int_equal(gg_hl_to_pattern(e, 1 << 30, &d, &err), 0);
        assert_int_equal(gg_pattern_write_rle(dense, &d, &err), 0);
        assert_int_equal(gg_hl_write_rle(e, tree_a, &err), 0);
        shell_ok("empty", "cmp -s dense.rle tree_a.rle");
        gg_pattern_free(&d);
        gg_hl_free(e);
        gg_pattern_runs_free(&r);
        gg_pattern_free(&p);
        free(text);
    }
}

/* Golly's big sparse boxes through `golgen run`: read as runs (the
 * file) and dense (standard input, --engine hashlife), the same RLE byte
 * for byte, and bgolly's RLE after the #CXRLE line. */
static void test_sparse_golly(void **state)
{
    (void)state;
    static const char *const cases[][3] = {
        {GOLLY "Life/Signal-Circuitry/constructor-memory-loop.rle", "1000",
         "HashLife"},
        {GOLLY "Life/Signal-Circuitry/constructor-memory-tape.rle", "1000",
         "HashLife"},
        {GOLLY "Life/Syntheses/slow-salvo-eater-recipes.rle", "100",
         "HashLife"},
        {GOLLY "Self-Rep/Devore/Devore-rep.rle", "100",
         "RuleLoader -s /usr/share/golly/Rules/"},
        {"gsparse.rle", "200", "Generations"},
        /* a 210515 x 183739 box: 4.8 GB dense, so not read dense here */
        {GOLLY "Life/Breeders/switch-engine-ping-pong.rle", "1000",
         "HashLife"},
    };
    write_file("gsparse.rle", "x = 30000, y = 20000, rule = 345/2/4\n"
               "3A$ABC$.3A19000$29990.3A$29990.2AC!\n");
    /* few bytes for a big box, but every cell alive: auto hands it to
     * the dense engine, drawn from its runs, which gives dense's answer */
    shell_ok("busy runs", "printf 'x = 100000, y = 100\\n' >busy.rle && "
             "for i in $(seq 99); do printf '100000o$'; done >>busy.rle && "
             "echo '100000o!' >>busy.rle && $G run --gens 2 busy.rle -o a.rle "
             "2>a.log && grep -q 'auto -> dense' a.log && $G run --engine "
             "dense --gens 2 busy.rle -o d.rle 2>/dev/null && cmp -s a.rle "
             "d.rle");
    bool oracle = have_bgolly();
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        char script[2048];
        snprintf(script, sizeof script,
                 "rm -f s.rle d.rle b.rle && $G run --gens %s '%s' -o s.rle "
                 "2>/dev/null && { [ %zu = 5 ] || { $G run --engine hashlife "
                 "--gens %s - <'%s' -o d.rle 2>/dev/null && cmp -s s.rle "
                 "d.rle; }; }", cases[i][1], cases[i][0], i, cases[i][1],
                 cases[i][0]);
        shell_ok(cases[i][0], script);
        if (!oracle)
            continue;
        snprintf(script, sizeof script,
                 "bgolly -a %s -q -q -m %s -o b.rle '%s' >/dev/null && "
                 "grep -v '^#CXRLE' s.rle | cmp -s - b.rle", cases[i][2],
                 cases[i][1], cases[i][0]);
        shell_ok(cases[i][0], script);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_golly_patterns),
        cmocka_unit_test(test_odd_counts),
        cmocka_unit_test(test_leaf_sizes),
        cmocka_unit_test(test_leaf_revised),
        cmocka_unit_test(test_family_soups),
        cmocka_unit_test(test_generations),
        cmocka_unit_test(test_rule_tables),
        cmocka_unit_test(test_pictures),
        cmocka_unit_test(test_memory_bound),
        cmocka_unit_test(test_memory_peak),
        cmocka_unit_test(test_stop_mid_step),
        cmocka_unit_test(test_engine_choice),
        cmocka_unit_test(test_progress_in_step),
        cmocka_unit_test(test_bench_engines),
        cmocka_unit_test(test_sparse_tree_io),
        cmocka_unit_test(test_sparse_golly),
    };
    if (!getenv("GG_GOLGEN"))
        return 1;
    return cmocka_run_group_tests(tests, gg_test_setup_dir,
                                  gg_test_teardown_dir);
}

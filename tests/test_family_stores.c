/* Golly rule tables and trees through stores, checkpoints, resume and
 * pictures (issue 39 part 5; Larger than Life's are in tests/test_ltl.c):
 * N generations straight equal N/2 stored and N/2 resumed, cell for cell,
 * on cpu and the reference and across them, and equal bgolly -a
 * RuleLoader; the rule's file found again at resume (beside the store, by
 * --rules, in Golly's folder) or its absence named; a checkpointed run
 * killed part way resumes to the straight run's end; hostile store
 * headers (planes, states, names, sizes) refused by name; PNGs decoded
 * and checked pixel for pixel against the run's RLE. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "test_golgen.h"
#include "test_util.h"

#define RULES "/usr/share/golly/Rules"
#define PATTERNS "/usr/share/golly/Patterns"

static uint64_t rng = 0x2545f4914f6cdd1dull;

static bool have_bgolly(void)
{
    return gg_test_status("command -v bgolly >/dev/null 2>&1") == 0 &&
           gg_test_status("test -d " PATTERNS "/Loops") == 0;
}

/* A rule file of n states (3..8) in the scratch folder's rules/, Brian's
 * Brain's kind: state 0 is born with exactly two neighbours in state 1,
 * the others count up to n - 1 and die (state 0 amid 0s stays 0: the
 * unbounded plane takes it). */
static void write_rule(const char *name, int n)
{
    char path[512];
    snprintf(path, sizeof path, "%s/rules", gg_test_dir);
    char cmd[600];
    snprintf(cmd, sizeof cmd, "mkdir -p '%s'", path);
    assert_int_equal(gg_test_status(cmd), 0);
    snprintf(path, sizeof path, "%s/rules/%s.rule", gg_test_dir, name);
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fprintf(f, "@RULE %s\n@TABLE\nn_states:%d\nneighborhood:Moore\n"
            "symmetries:permute\nvar a={", name, n);
    for (int s = 0; s < n; s++)
        fprintf(f, "%s%d", s ? "," : "", s);
    fputs("}\nvar b=a\nvar c=a\nvar d=a\nvar e=a\nvar f=a\nvar g=a\n"
          "var h=a\nvar z={0", f);
    for (int s = 2; s < n; s++)
        fprintf(f, ",%d", s);
    fputs("}\nvar y=z\nvar x=z\nvar w=z\nvar v=z\nvar u=z\n"
          "0,1,1,z,y,x,w,v,u,1\n", f);
    for (int s = 1; s < n; s++)
        fprintf(f, "%d,a,b,c,d,e,f,g,h,%d\n", s, (s + 1) % n);
    fclose(f);
}

/* A side x side soup of states 0 .. n-1 under rule. */
static void write_soup(const char *name, const char *rule, int side, int n)
{
    char path[512];
    snprintf(path, sizeof path, "%s/%s", gg_test_dir, name);
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fprintf(f, "x = %d, y = %d, rule = %s\n", side, side, rule);
    for (int y = 0; y < side; y++) {
        for (int x = 0; x < side; x++) {
            int st = gg_test_xorshift(&rng) % 100 < 50
                         ? 1 + (int)(gg_test_xorshift(&rng) %
                                     (uint64_t)(n - 1))
                         : 0;
            fputc(st ? 'A' + st - 1 : '.', f);
        }
        fputs(y + 1 < side ? "$\n" : "!\n", f);
    }
    fclose(f);
}

/* N straight = N/2 stored on b1 + N/2 resumed on b2 (the RLE, #CXRLE line
 * included); = bgolly's when `rules` (its -s folder) is given. `opts`:
 * the runs' --rules. */
static void straight_equals_resumed(const char *in, int n, const char *b1,
                                    const char *b2, const char *opts,
                                    const char *rules)
{
    char script[3072];
    int k = snprintf(script, sizeof script,
                     "IN='%s' && rm -f half.ggu full.rle res.rle && "
                     "$G run %s --backend %s --gens %d \"$IN\" -o full.rle "
                     "2>/dev/null && "
                     "$G run %s --backend %s --gens %d --store half.ggu "
                     "\"$IN\" 2>/dev/null && "
                     "$G run %s --backend %s --resume half.ggu --gens %d "
                     "-o res.rle 2>/dev/null && cmp full.rle res.rle && "
                     "$G store info half.ggu | "
                     "grep -q 'family:     Golly rule table or tree'",
                     in, opts, b1, n, opts, b1, n / 2, opts, b2, n - n / 2);
    if (rules)
        snprintf(script + k, sizeof script - (size_t)k,
                 " && bgolly -a RuleLoader -s %s/ -q -q -m %d -o b.rle "
                 "\"$IN\" >/dev/null 2>&1 && grep -v '^#' res.rle | "
                 "cmp - b.rle", rules, n);
    shell_ok(in, script);
}

static void golly_patterns(void **state)
{
    (void)state;
    if (!getenv("GG_GOLGEN") || !have_bgolly())
        skip();
    straight_equals_resumed(PATTERNS "/Loops/Byl-Loop.rle", 300, "cpu",
                            "cpu", "", RULES);
    straight_equals_resumed(PATTERNS "/Loops/Langtons-Loops.rle", 200,
                            "reference", "cpu", "", RULES);
    straight_equals_resumed(PATTERNS "/WireWorld/gate-AND.mcl", 150, "cpu",
                            "reference", "", RULES);
}

/* A rule of our own: found by --rules, then beside the store; a store
 * whose rule file is nowhere is refused with the folder to give. */
static void own_rules(void **state)
{
    (void)state;
    if (!getenv("GG_GOLGEN"))
        skip();
    write_rule("GgEight", 8);
    write_soup("e.rle", "GgEight:T40,36", 30, 8);
    char rules[600];
    snprintf(rules, sizeof rules, "%s/rules", gg_test_dir);
    straight_equals_resumed("e.rle", 120, "cpu", "reference", "--rules rules",
                            have_bgolly() ? rules : NULL);
    write_soup("u.rle", "GgEight", 30, 8);
    straight_equals_resumed("u.rle", 80, "reference", "cpu", "--rules rules",
                            have_bgolly() ? rules : NULL);
    expect("run --rules rules --gens 10 --store h.ggu e.rle", 0,
           "generation 10");
    expect("run --resume h.ggu --gens 5", 2,
           "holds the Golly rule GgEight:T40,36: give --rules DIR");
    expect("run --rules rules --resume h.ggu --gens 5", 0, "generation 15");
    shell_ok("beside the store", "mkdir -p aside && cp h.ggu aside/ && "
             "cp rules/GgEight.rule aside/ && "
             "$G run --resume aside/h.ggu --gens 5 2>&1 | "
             "grep -q 'generation 15'");
    expect("run --rules rules --resume h.ggu --rule Other --gens 5", 2,
           "");
    write_rule("GgEight2", 8);
    expect("run --rules rules --resume h.ggu --rule GgEight2:T40,36 "
           "--gens 5", 2, "holds GgEight:T40,36, not GgEight2:T40,36");
    /* checkpoints; killed after one, resumed on the other backend */
    write_soup("k.rle", "GgEight:T200,200", 180, 8);
    shell_ok("checkpoint, kill, resume",
             "rm -f ck.ggu && "
             "$G run --rules rules --backend cpu --gens 2000 k.rle "
             "-o full.rle 2>/dev/null && "
             "{ $G run --rules rules --backend reference --gens 2000 "
             "--store ck.ggu --checkpoint-every 5 k.rle 2>/dev/null & "
             "pid=$!; for i in $(seq 400); do [ -e ck.ggu ] && break; "
             "sleep 0.05; done; sleep 0.2; kill -KILL $pid; wait $pid; } ; "
             "g=$($G store info ck.ggu | awk '/generation/{print $2}') && "
             "test \"$g\" -gt 0 && test \"$g\" -lt 2000 && "
             "test $((g % 5)) = 0 && "
             "$G run --rules rules --backend cpu --resume ck.ggu "
             "--gens $((2000 - g)) -o resumed.rle 2>/dev/null && "
             "cmp full.rle resumed.rle");
    expect("store export h.ggu -o x.rle", 0, "");
    shell_ok("export", "grep -q 'rule = GgEight:T40,36' x.rle");
    expect("store import e.rle -o i.ggu", 2,
           "(nor a rule file: no GgEight.rule");
    shell_ok("import beside the pattern",
             "cp rules/GgEight.rule . && $G store import e.rle -o i.ggu && "
             "$G run --resume i.ggu --gens 9 -o a.rle 2>/dev/null && "
             "$G run --gens 9 e.rle -o b.rle 2>/dev/null && cmp a.rle b.rle "
             "&& rm GgEight.rule");
    expect("run --rules rules --gens 3 --devices 0,0 e.rle", 2,
           "Golly rule tables and trees do not take --devices");
    expect("run --rules rules --gens 3 --resume h.ggu --host-mem 64M "
           "--store o.ggu", 2,
           "Golly rule tables and trees do not take --host-mem");
}

/* Headers that pass their checksum but are not golgen's: a name whose
 * rule has fewer planes, a state past the rule's, a bounded grid not
 * the rule's size, a name no rule has. */
static void hostile_stores(void **state)
{
    (void)state;
    if (!getenv("GG_GOLGEN"))
        skip();
    write_rule("GgRuleH", 8);
    write_rule("GgRuleF", 5); /* 3 planes, states 0..4 */
    write_rule("GgRuleT", 3); /* 2 planes */
    write_file("h.rle", "x = 8, y = 1, rule = GgRuleH:T20,20\n"
                        "ABCDEFG!\n");
    expect("run --rules rules --gens 0 --store h.ggu h.rle", 0,
           "generation 0");
    shell_ok("copies", "for f in planes state wide junk; do "
             "cp h.ggu $f.ggu; done");
    gg_test_patch_store_header("planes.ggu", 78, 1, 'T'); /* GgRuleT */
    gg_test_patch_store_header("state.ggu", 78, 1, 'F');  /* GgRuleF */
    gg_test_patch_store_header("wide.ggu", 16, 8, 21);
    gg_test_patch_store_header("junk.ggu", 74, 1, '/');
    expect("run --rules rules --resume planes.ggu --gens 1", 2,
           "GgRuleT:T20,20 has 3 states (2 planes), but the store holds 3 "
           "planes");
    expect("run --rules rules --resume state.ggu --gens 1", 2,
           "is in state 5, but GgRuleF:T20,20 has states 0..4");
    expect("run --rules rules --resume wide.ggu --gens 1", 2,
           "its grid is 21x20, but its rule GgRuleH:T20,20 asks for 20x20");
    expect("store info junk.ggu", 2, "its rule is none golgen knows");
    expect("run --rules rules --resume h.ggu --gens 1", 0, "generation 1");
}

/* --png and --frames: size, palette and pixels against the RLE (a bounded
 * grid whole; the unbounded plane's live box). */
static void pictures(void **state)
{
    (void)state;
    if (!getenv("GG_GOLGEN"))
        skip();
    if (golgen("run --gens 1 --png probe.png") == 3)
        skip(); /* no libpng */
    if (!getenv("GG_SOURCE_ROOT") ||
        gg_test_status("command -v python3 >/dev/null 2>&1"))
        skip();
    write_rule("GgSix", 6);
    write_soup("p.rle", "GgSix:T50,40", 36, 6);
    expect("run --rules rules --gens 7 --png t.png -o t.rle p.rle", 0,
           "t.png: 50 x 40 cells from (-25, -20), 1 pixel a cell");
    shell_ok("torus picture",
             GG_TEST_PNG_CHECK "t.png t.rle 6 50 40 -25 -20");
    write_soup("q.rle", "GgSix", 30, 6);
    expect("run --rules rules --gens 9 --png u.png -o u.rle q.rle", 0,
           "1 pixel a cell");
    shell_ok("plane picture", GG_TEST_PNG_CHECK "u.png u.rle 6");
    if (gg_test_status("test -d " PATTERNS "/WireWorld") == 0) {
        shell_ok("import from Golly's folder",
                 "$G store import " PATTERNS "/WireWorld/gate-AND.mcl "
                 "-o wi.ggu && $G store info wi.ggu | grep -q "
                 "'rule:       WireWorld:P60,60' && "
                 "$G run --resume wi.ggu --gens 40 -o wr.rle 2>/dev/null");
        expect("run --gens 40 --png w.png -o w.rle " PATTERNS
               "/WireWorld/gate-AND.mcl", 0,
               "w.png: 60 x 60 cells from (-30, -30)");
        shell_ok("WireWorld picture",
                 GG_TEST_PNG_CHECK "w.png w.rle 4 60 60 -30 -30 && "
                 "cmp w.rle wr.rle");
    }
    expect("run --rules rules --gens 5 --frames fr --every 2 p.rle", 0,
           "generation 5");
    shell_ok("frames", "test -s fr/frame_000000.png && "
             "test -s fr/frame_000003.png && ! test -e fr/frame_000004.png");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(golly_patterns),
        cmocka_unit_test(own_rules),
        cmocka_unit_test(hostile_stores),
        cmocka_unit_test(pictures),
    };
    return cmocka_run_group_tests(tests, gg_test_setup_dir,
                                  gg_test_teardown_dir);
}

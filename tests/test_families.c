/* Every family through the backend table (issue 37 part 1): a 3D run's
 * checkpoints and resume end where the straight run ends (cross-checked
 * between the cpu kernel and the reference), a 3D store's header is
 * checked as a 2D one's, and a Generations torus split into bands by
 * --devices ends where the run in memory and bgolly -a Generations end. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "test_golgen.h"

/* An n^3 RLE3 soup of density about 3/8 at pos=4,4,4 of a size=`size`
 * torus, the same for the same seed. */
static void write_soup3d(const char *name, const char *rule, int n,
                         int size, uint64_t seed)
{
    size_t cap = (size_t)(n + 1) * (size_t)n * (size_t)n + 256;
    char *text = malloc(cap);
    assert_non_null(text);
    int k = sprintf(text, "3D version=1 size=%d pos=4,4,4\nx=%d y=%d z=%d "
                    "rule=%s\n", size, n, n, n, rule);
    for (int z = 0; z < n; z++)
        for (int y = 0; y < n; y++) {
            for (int x = 0; x < n; x++)
                text[k++] = gg_test_xorshift(&seed) % 8 < 3 ? 'o' : 'b';
            text[k++] = y < n - 1 ? '$' : z < n - 1 ? '/' : '!';
        }
    text[k++] = '\n';
    text[k] = 0;
    write_file(name, text);
    free(text);
}

/* Stored and resumed part way, in either order of backends, a 3D run
 * ends where the straight run ends on the cpu kernel and on the
 * reference: the default N^3 torus, a box and an odd torus. */
static void test_3d_store_resume(void **state)
{
    (void)state;
    static const char *const rules[] = {"3D4..6/5", "3D4..6/5:P17,19,23",
                                        "3D5..7/6:T23,17,19"};
    write_soup3d("s.rle3", "3D4..6/5", 12, 20, 0x9e3779b97f4a7c15ull);
    for (int i = 0; i < 3; i++) {
        char script[2048];
        snprintf(script, sizeof script,
                 "rm -f *.ggu && R=%s && "
                 "$G run --backend reference --rule $R --gens 60 s.rle3 "
                 "-o ref.rle3 2>/dev/null && "
                 "$G run --backend cpu --rule $R --gens 60 s.rle3 "
                 "-o cpu.rle3 2>/dev/null && cmp ref.rle3 cpu.rle3 && "
                 "$G run --backend cpu --rule $R --gens 25 s.rle3 "
                 "--store mid.ggu 2>/dev/null && "
                 "$G run --backend reference --resume mid.ggu --gens 35 "
                 "-o a.rle3 2>/dev/null && cmp ref.rle3 a.rle3 && "
                 "$G run --backend reference --rule $R --gens 30 s.rle3 "
                 "--store mid2.ggu --checkpoint-every 7 2>/dev/null && "
                 "$G run --resume mid2.ggu --rule $R --gens 30 -o b.rle3 "
                 "2>/dev/null && cmp ref.rle3 b.rle3", rules[i]);
        shell_ok(rules[i], script);
    }
    expect("store info mid2.ggu", 0, "23 x 17 x 19 cells (3D)");
    expect("run --resume mid2.ggu --rule 3D4/4 --gens 1", 2,
           "is not the rule of store mid2.ggu (3D5..7/6:T23,17,19)");
    expect("run --resume mid2.ggu --gens 1 --devices 0,0", 2,
           "3D rules do not take --devices");
    expect("run --resume mid2.ggu --gens 1 --backend opencl", 2,
           "the opencl backend does not run 3D rules yet; use --backend "
           "reference, cpu, cuda, ptx");
    expect("store export mid2.ggu -o x.rle", 2, "holds a 3D universe");
}

/* Checkpoints land every N generations: a reference run killed after
 * its first checkpoint resumes on the cpu kernel to the straight run's
 * end. */
static void test_3d_checkpoint_kill_resume(void **state)
{
    (void)state;
    write_soup3d("k.rle3", "3D4..6/5", 20, 48, 0x2545f4914f6cdd1dull);
    shell_ok("checkpoint, kill, resume",
             "rm -f ck.ggu && "
             "$G run --backend cpu --gens 400 k.rle3 -o full.rle3 "
             "2>/dev/null && "
             "{ $G run --backend reference --gens 400 --store ck.ggu "
             "--checkpoint-every 5 k.rle3 2>/dev/null & pid=$!; "
             "for i in $(seq 400); do [ -e ck.ggu ] && break; sleep 0.05; "
             "done; sleep 0.2; kill -KILL $pid; wait $pid; } ; "
             "g=$($G store info ck.ggu | awk '/generation/{print $2}') && "
             "test \"$g\" -gt 0 && test \"$g\" -lt 400 && "
             "test $((g % 5)) = 0 && "
             "$G run --backend cpu --resume ck.ggu --gens $((400 - g)) "
             "-o resumed.rle3 2>/dev/null && "
             "sed 1d full.rle3 >f && sed 1d resumed.rle3 >r && cmp f r");
}

/* The depth field (offset 320) is checked as the other sizes are: one
 * that does not divide the rows, a negative one, or a 3D grid whose rule
 * is not its size, is refused by name before anything runs. */
static void test_3d_hostile_depth(void **state)
{
    (void)state;
    write_soup3d("h.rle3", "3D4..6/5", 6, 10, 7);
    expect("run --gens 3 --store h.ggu h.rle3", 0, "generation 3");
    shell_ok("copies", "cp h.ggu odd.ggu && cp h.ggu neg.ggu && "
             "cp h.ggu deep.ggu");
    gg_test_patch_store_header("odd.ggu", 320, 8, 3);
    gg_test_patch_store_header("neg.ggu", 320, 8, (uint64_t)-1);
    gg_test_patch_store_header("deep.ggu", 320, 8, 5);
    expect("run --resume odd.ggu --gens 1", 2,
           "depth (3D layers) does not divide its rows");
    expect("store info neg.ggu", 2, "depth (3D layers)");
    expect("run --resume deep.ggu --gens 1", 2,
           "is not the size of its 10x20x5 grid");
    expect("run --resume h.ggu --gens 1", 0, "generation 4");
}

/* A w x h soup of states 0 .. 2 (Golly's letters) as RLE under rule. */
static void write_gen_soup(const char *name, const char *rule, int w, int h,
                           uint64_t seed)
{
    char *rle = malloc((size_t)(w + 1) * (size_t)h + 128);
    assert_non_null(rle);
    int n = sprintf(rle, "x = %d, y = %d, rule = %s\n", w, h, rule);
    for (int y = 0; y < h; y++) {
        for (int x = 0; x < w; x++) {
            int s = (int)(gg_test_xorshift(&seed) % 4);
            rle[n++] = s < 2 ? '.' : (char)('A' + s - 2);
        }
        rle[n++] = y < h - 1 ? '$' : '!';
    }
    rle[n] = 0;
    write_file(name, rle);
    free(rle);
}

/* `golgen run --rule /2/3:T64,64 --devices 0,0` (issue 37's bar): bands
 * on the host backends (and OpenCL where it runs) end where the run in
 * memory ends and where bgolly -a Generations ends, on the torus, a
 * bounded plane and the unbounded plane. */
static void test_generations_devices(void **state)
{
    (void)state;
    static const char *const rules[] = {"/2/3:T64,64", "345/2/4:T61,47",
                                        "/2/3:P50,41", "/2/3"};
    static const char *const runs[][2] = {
        {"cpu", "0,0"}, {"reference", "0,0,0"}, {"cpu", "0,0,0,0,0"}};
    bool bgolly = system("command -v bgolly >/dev/null 2>&1") == 0;
    for (int i = 0; i < 4; i++) {
        write_gen_soup("g.rle", rules[i], 40, 30, 0x9e3779b97f4a7c15ull + i);
        char script[2048];
        for (int k = 0; k < 3; k++) {
            snprintf(script, sizeof script,
                     "$G run --backend %s --gens 100 g.rle -o m.rle "
                     "2>/dev/null && $G run --backend %s --devices %s "
                     "--gens 100 g.rle -o d.rle 2>d.log && cmp m.rle d.rle "
                     "&& grep -q 'bands (Generations' d.log", runs[k][0],
                     runs[k][0], runs[k][1]);
            shell_ok(rules[i], script);
        }
        /* PoCL: exit 3 where no OpenCL device runs here */
        shell_ok(rules[i], "$G run --backend opencl --devices 0,0 --gens 100 "
                 "g.rle -o o.rle 2>/dev/null; s=$?; [ $s = 3 ] || "
                 "{ [ $s = 0 ] && cmp m.rle o.rle; }");
        if (bgolly && strchr(rules[i], ':'))
            shell_ok(rules[i], "bgolly -a Generations -q -q -m 100 -o b.rle "
                     "g.rle >/dev/null && grep -v '^#' b.rle >b2 && "
                     "grep -v '^#' d.rle >d2 && cmp b2 d2");
    }
    expect("run --gens 1 --rule /2/3:T100,100 --backend cpu --device-mem 1K",
           2, "Generations rules do not take --device-mem");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_3d_store_resume),
        cmocka_unit_test(test_3d_checkpoint_kill_resume),
        cmocka_unit_test(test_3d_hostile_depth),
        cmocka_unit_test(test_generations_devices),
    };
    if (!getenv("GG_GOLGEN"))
        return 1;
    return cmocka_run_group_tests(tests, gg_test_setup_dir,
                                  gg_test_teardown_dir);
}

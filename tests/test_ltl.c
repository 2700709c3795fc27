/* Larger than Life (issue 39 part 3): the rule notation (gen/rules/rule_ltl.h),
 * the reference's running sums (runtime/reference/reference_ltl.h) against
 * counting every neighbourhood cell by cell, malformed rules (clear errors,
 * never a crash), and golgen run against bgolly -a "Larger than Life" on
 * Golly's bundled patterns (R100 and R500 bugs included) and on random
 * soups under random rules (torus, bounded plane, unbounded plane), on the
 * reference and on the cpu backend's compiled kernel; the kernel against
 * the reference on random rules (every neighbourhood, R up to 120, C up
 * to 255) and a broken kernel refused. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "cpu_ltl.h"
#include "emit_ltl.h"
#include "reference_ltl.h"
#include "rule_ltl.h"
#include "test_golgen.h"
#include "test_util.h"

#define PATTERNS "/usr/share/golly/Patterns/Larger-than-Life"

static uint64_t rng = 0x9e3779b97f4a7c15ull;

static uint64_t next_rand(void)
{
    return gg_test_xorshift(&rng);
}

static void canon(const char *text, const char *want)
{
    gg_ltl_rule r;
    gg_err err;
    char buf[1200];
    if (gg_ltl_parse(text, &r, &err))
        fail_msg("'%s' did not parse: %s", text, err.msg);
    gg_ltl_format(&r, buf, sizeof buf);
    if (strcmp(buf, want))
        fail_msg("'%s' reads as '%s', want '%s'", text, buf, want);
}

static void parse_and_format(void **state)
{
    (void)state;
    canon("R5,C0,M1,S34..58,B34..45,NM", "R5,C0,M1,S34..58,B34..45,NM");
    canon("R5,C0,M1,S34..58,B34..45,NM:T500,40",
          "R5,C0,M1,S34..58,B34..45,NM:T500,40");
    canon("5,34,45,34,58", "R5,C0,M1,S34..58,B34..45,NM");
    canon("1,3,3,3,4:P300,200", "R1,C0,M1,S3..4,B3..3,NM:P300,200");
    canon("R1,C2,M0,S2..3,B3..3,NM", "R1,C0,M0,S2..3,B3..3,NM");
    canon("R1,C1,M0,S2..3,B3..3,NN", "R1,C0,M0,S2..3,B3..3,NN");
    canon("R10,C255,M1,S2..3,B3..3,NC", "R10,C255,M1,S2..3,B3..3,NC");
    /* Golly's grid defaults: ":" and ":T" a 400x400 torus, one number a
     * square, a dangling comma, sides below 2R raised to 2R */
    canon("R2,C0,M1,S2..3,B3..3,NM:", "R2,C0,M1,S2..3,B3..3,NM:T400,400");
    canon("R2,C0,M1,S2..3,B3..3,NM:P", "R2,C0,M1,S2..3,B3..3,NM:P400,400");
    canon("R2,C0,M1,S2..3,B3..3,NM:T50", "R2,C0,M1,S2..3,B3..3,NM:T50,50");
    canon("R2,C0,M1,S2..3,B3..3,NM:T50,", "R2,C0,M1,S2..3,B3..3,NM:T50,50");
    canon("R10,C0,M1,S2..3,B3..3,NM:T5,0",
          "R10,C0,M1,S2..3,B3..3,NM:T20,20");
    canon("R2,C0,M1,S2..3,B0..3,NM:T9,9", "R2,C0,M1,S2..3,B0..3,NM:T9,9");
    /* golgen's extension: several ranges, a bare count */
    canon("R2,C0,M1,S2..3,5,7..9,B3,NM", "R2,C0,M1,S2..3,5..5,7..9,B3..3,NM");
    gg_ltl_rule r;
    gg_err err;
    assert_int_equal(gg_ltl_parse("R3,C0,M0,S1..1,B1..1,NN", &r, &err), 0);
    assert_int_equal(gg_ltl_nbhd_cells(&r), 25);
    assert_int_equal(gg_ltl_max_count(&r), 24);
    assert_int_equal(gg_ltl_parse("R6,C0,M1,S1..1,B1..1,NC", &r, &err), 0);
    assert_int_equal(gg_ltl_nbhd_cells(&r), 137); /* pi (6.5)^2 ~ 132.7 */
    assert_true(gg_ltl_looks_like("R5,C0"));
    assert_true(gg_ltl_looks_like("5,34,45,34,58:T10,10"));
    assert_false(gg_ltl_looks_like("B3/S23"));
    assert_false(gg_ltl_looks_like("23/3/3"));
    assert_false(gg_ltl_looks_like("WireWorld"));
}

static void expect_error(const char *text, const char *want)
{
    gg_ltl_rule r;
    gg_err err;
    if (gg_ltl_parse(text, &r, &err) == 0)
        fail_msg("'%s' parsed; want an error naming '%s'", text, want);
    if (!strstr(err.msg, want))
        fail_msg("'%s': %s (want '%s')", text, err.msg, want);
}

static void malformed_rules(void **state)
{
    (void)state;
    expect_error("R0,C0,M1,S1..2,B1..2,NM", "R (the range) must be from 1 "
                                            "to 500, not 0");
    expect_error("R501,C0,M1,S1..2,B1..2,NM", "not 501");
    expect_error("R5,C257,M1,S1..2,B1..2,NM", "C (the number of states)");
    expect_error("R5,C0,M2,S1..2,B1..2,NM", "M (middle cell counted)");
    expect_error("R5,C0,M1,S5..2,B1..2,NM", "S minimum must be <= S "
                                            "maximum (5..2)");
    expect_error("R5,C0,M1,S1..2,B9..2,NM", "B minimum");
    expect_error("R5,C0,M1,S1..122,B1..2,NM", "S counts must be from 0 to "
                                              "121");
    expect_error("R5,C0,M0,S1..121,B1..2,NM", "from 0 to 120");
    expect_error("R5,C0,M1,S1..2,B1..62,NN", "B counts must be from 0 to 61");
    expect_error("R5,C0,M1,S1..2,B0..2,NM", "B0 is not allowed on the "
                                            "unbounded plane");
    expect_error("R5,C0,M1,S1..2,B1..2,NX", "N must be followed by M");
    expect_error("R5,C0,M1,S1..2,B1..2", "expected ',N' next at the end");
    expect_error("R5,C0,M1,B1..2,S1..2,NM", "expected ',S' next");
    expect_error("R5,C0,M1,S1.2,B1..2,NM", "a range is written a..b");
    expect_error("R5,C0,M1,S..2,B1..2,NM", "S needs a number");
    expect_error("R5,C0,M1,S1..2,B1..2,NM:K9,9", "torus (T) or a plane (P)");
    expect_error("R5,C0,M1,S1..2,B1..2,NM:T9,9x", "unexpected character in "
                                                  "the grid suffix");
    expect_error("R5,C0,M1,S1..2,B1..2,NM:T20000,20000", "too big");
    expect_error("R5,C0,M1,S1..2,B1..2,NMM", "unexpected text after");
    expect_error("R99999999999,C0,M1,S1..2,B1..2,NM", "too long");
    expect_error("5,3,2,3,3", "B minimum must be <= B maximum (3..2)");
    expect_error("0,3,3,3,4", "the range must be from 1 to 500");
    /* mangled rules: an error or a rule, never a crash or a bad range */
    static const char *const seeds[] = {
        "R5,C0,M1,S34..58,B34..45,NM:T400,400", "5,34,45,34,58:P10,20",
        "R100,C3,M0,S1..2,3..4,B5..6,NC:T", "R1,C0,M1,S1..1,B1..1,NN"};
    static const char pool[] = "0123456789,.:RCMSBNTPK-x ";
    for (int i = 0; i < 20000; i++) {
        char text[64];
        snprintf(text, sizeof text, "%s", seeds[next_rand() % 4]);
        size_t n = strlen(text);
        for (int k = 0; k < 1 + (int)(next_rand() % 4); k++) {
            size_t at = next_rand() % n;
            switch (next_rand() % 3) {
            case 0:
                text[at] = pool[next_rand() % (sizeof pool - 1)];
                break;
            case 1:
                memmove(text + at, text + at + 1, n - at);
                n--;
                break;
            default:
                if (n + 1 < sizeof text) {
                    memmove(text + at + 1, text + at, n - at + 1);
                    text[at] = pool[next_rand() % (sizeof pool - 1)];
                    n++;
                }
            }
            if (n == 0)
                break;
        }
        gg_ltl_rule r;
        gg_err err;
        if (gg_ltl_parse(text, &r, &err) == 0) {
            assert_in_range(r.range, 1, 500);
            assert_in_range(r.states, 2, 256);
            assert_true(r.s_hi[0] <= gg_ltl_max_count(&r));
        } else {
            assert_non_null(strstr(err.msg, "Larger than Life"));
        }
    }
}

/* A random rule of range R with counts that do something. */
static void random_rule(gg_ltl_rule *r, int R, char nbhd, bool bounded)
{
    memset(r, 0, sizeof *r);
    r->range = R;
    r->nbhd = nbhd;
    r->middle = (int)(next_rand() % 2);
    r->states = next_rand() % 2 ? 2 : 3 + (int)(next_rand() % 3);
    int64_t max = gg_ltl_max_count(r);
    r->n_s = r->n_b = 1;
    int32_t a = (int32_t)(next_rand() % (uint64_t)(max / 2 + 1));
    r->s_lo[0] = a;
    r->s_hi[0] = a + (int32_t)(next_rand() % (uint64_t)(max / 3 + 1));
    a = (int32_t)(bounded ? next_rand() % (uint64_t)(max / 3 + 1)
                          : 1 + next_rand() % (uint64_t)(max / 3 + 1));
    r->b_lo[0] = a;
    r->b_hi[0] = a + (int32_t)(next_rand() % (uint64_t)(max / 4 + 1));
    if (r->s_hi[0] > max)
        r->s_hi[0] = (int32_t)max;
    if (r->b_hi[0] > max)
        r->b_hi[0] = (int32_t)max;
    r->topo = bounded ? GG_TOPO_TORUS : GG_TOPO_UNBOUNDED;
}

/* The running sums equal counting cell by cell, every neighbourhood,
 * torus and plane, ranges 1..7, a few generations of random grids. */
static void sums_equal_direct_counts(void **state)
{
    (void)state;
    static const char nbhds[] = "MNC";
    for (int t = 0; t < 120; t++) {
        gg_ltl_rule r;
        int R = 1 + (int)(next_rand() % 7);
        random_rule(&r, R, nbhds[t % 3], true);
        bool torus = next_rand() % 2;
        int64_t w = 2 * R + (int64_t)(next_rand() % 30),
                h = 2 * R + (int64_t)(next_rand() % 30);
        uint8_t *a = malloc((size_t)(w * h)), *b = malloc((size_t)(w * h)),
                *c = malloc((size_t)(w * h));
        assert_non_null(a);
        assert_non_null(b);
        assert_non_null(c);
        for (int64_t i = 0; i < w * h; i++)
            a[i] = next_rand() % 3 ? 0 : (uint8_t)(next_rand() % r.states);
        gg_ltl_ref s;
        gg_err err;
        assert_int_equal(gg_ltl_ref_init(&s, &r, &err), 0);
        for (int g = 0; g < 4; g++) {
            assert_int_equal(gg_ltl_ref_step(&s, a, b, w, h, torus, NULL,
                                             &err), 0);
            gg_ltl_ref_step_direct(&r, a, c, w, h, torus);
            if (memcmp(b, c, (size_t)(w * h))) {
                char text[1200];
                gg_ltl_format(&r, text, sizeof text);
                fail_msg("%s on a %lldx%lld %s, generation %d: the sums "
                         "differ from direct counts", text, (long long)w,
                         (long long)h, torus ? "torus" : "plane", g + 1);
            }
            memcpy(a, b, (size_t)(w * h));
        }
        gg_ltl_ref_free(&s);
        free(a);
        free(b);
        free(c);
    }
}

/* Whether cell (x, y) of a w x h board lies in a blob x blob square
 * from (bx, by) (blob 0: the whole board), round a torus's edges. */
static bool in_blob(int64_t x, int64_t y, int64_t w, int64_t h, bool torus,
                    int64_t blob, int64_t bx, int64_t by)
{
    if (!blob)
        return true;
    int64_t dx = torus ? ((x - bx) % w + w) % w : x - bx,
            dy = torus ? ((y - by) % h + h) % h : y - by;
    return dx >= 0 && dx < blob && dy >= 0 && dy < blob;
}

/* The compiled kernel (runtime/backends/cpu_ltl.h) against the reference
 * on w x h random cells (only in a blob x blob square from a random
 * place, blob > 0), gens generations in `calls` calls. */
static void kernel_matches_in(gg_cpu_ltl *k, const gg_ltl_rule *r,
                              int64_t w, int64_t h, bool torus, int gens,
                              int pct, int64_t blob, int calls)
{
    size_t n = (size_t)(w * h);
    uint8_t *a = malloc(n), *b = malloc(n), *c = malloc(n);
    assert_non_null(a);
    assert_non_null(b);
    assert_non_null(c);
    int64_t bx = (int64_t)(next_rand() % (uint64_t)w),
            by = (int64_t)(next_rand() % (uint64_t)h);
    for (size_t i = 0; i < n; i++) {
        bool in = in_blob((int64_t)i % w, (int64_t)i / w, w, h, torus, blob,
                          bx, by);
        a[i] = in && (int)(next_rand() % 100) < pct
                   ? (next_rand() % 3 ? 1 : (uint8_t)(next_rand() % r->states))
                   : 0;
    }
    memcpy(c, a, n);
    gg_err err;
    for (int done = 0, i = 0; i < calls; i++) {
        int part = i == calls - 1 ? gens - done : gens / calls;
        assert_int_equal(gg_cpu_ltl_step(k, c, w, h, torus, part, &err), 0);
        done += part;
    }
    gg_ltl_ref s;
    assert_int_equal(gg_ltl_ref_init(&s, r, &err), 0);
    for (int g = 0; g < gens; g++) {
        assert_int_equal(gg_ltl_ref_step(&s, a, b, w, h, torus, NULL, &err),
                         0);
        memcpy(a, b, n);
    }
    if (memcmp(a, c, n)) {
        char text[1200];
        gg_ltl_format(r, text, sizeof text);
        fail_msg("%s: the cpu kernel differs from the reference on a "
                 "%lldx%lld %s (blob %lld) after %d generations in %d "
                 "calls", text, (long long)w, (long long)h,
                 torus ? "torus" : "plane", (long long)blob, gens, calls);
    }
    gg_ltl_ref_free(&s);
    free(a);
    free(b);
    free(c);
}

static void kernel_matches(gg_cpu_ltl *k, const gg_ltl_rule *r, int64_t w,
                           int64_t h, bool torus, int gens, int pct)
{
    kernel_matches_in(k, r, w, h, torus, gens, pct, 0, 1);
}

/* Rule number t's kernel, compiled for isa (NULL: the machine's) into the
 * test's cache and validated. */
static gg_cpu_ltl *open_kernel(const gg_ltl_rule *r, const char *isa,
                               int threads, int t)
{
    gg_cpu_ltl_opts o = {.cache_dir = gg_test_dir, .isa = isa,
                         .threads = threads};
    gg_cpu_ltl *k;
    gg_fail_kind why;
    gg_err err;
    if (gg_cpu_ltl_open(r, &o, &k, &why, &err))
        fail_msg("rule %d: %s", t, err.msg);
    return k;
}

/* Random rules of every neighbourhood, ranges 1..120 (a word of rows and
 * more), C 2..255, M0 and M1, each compiled (and so validated) and then
 * run against the reference on more random grids, torus and plane; the
 * AVX2 and portable paths (4 and 1 strips a superstrip) too. */
static void cpu_kernel_matches_reference(void **state)
{
    (void)state;
    static const int ranges[] = {1, 2, 3, 5, 7, 13, 31, 64, 65, 120};
    static const char *const isas[] = {NULL, "avx2", "portable"};
    static const char nbhds[] = "MNC";
    for (int t = 0; t < 16; t++) {
        gg_ltl_rule r;
        int R = ranges[t % 10];
        random_rule(&r, R, nbhds[t % 3], true);
        if (t % 5 == 4)
            r.states = 100 + (int)(next_rand() % 156);
        if (t % 4 == 3) { /* a second range of each */
            r.n_s = r.n_b = 2;
            int64_t max = gg_ltl_max_count(&r);
            r.s_lo[1] = r.s_hi[1] = (int32_t)(next_rand() % (uint64_t)max);
            r.b_lo[1] = (int32_t)(next_rand() % (uint64_t)max) + 1;
            r.b_hi[1] = r.b_lo[1] + 2;
        }
        /* two threads on every grid (the kernel takes one per 4M cells
         * unless told): the bands and the barrier between generations */
        gg_cpu_ltl *k = open_kernel(&r, isas[t < 13 ? 0 : t - 13], 1 + t % 2,
                                    t);
        for (int c = 0; c < 3; c++) {
            int64_t w = 1 + (int64_t)(next_rand() % 700),
                    h = 1 + (int64_t)(next_rand() % 700);
            if (R > 30 && r.nbhd == 'C') /* the reference's circle is slow */
                w = w / 4 + 1, h = h / 4 + 1;
            kernel_matches(k, &r, w, h, next_rand() % 2, 1 + c,
                           10 + (int)(next_rand() % 60));
        }
        gg_cpu_ltl_close(k);
    }
}

/* A small pattern on a larger board, as the unbounded plane's board and
 * Golly's tori hold one (Jitterbug, Bosco): the kernel steps its live box
 * alone (templates/cltl's box path, NM rules without B0) and turns to
 * the whole board once the box grows past its cost; a torus's box laid
 * round its edges, a plane's clipped by them. Random NM rules (B0 ones
 * too, which never take the box), every ISA, several calls a run. */
static void small_patterns_match_reference(void **state)
{
    (void)state;
    static const int ranges[] = {1, 2, 4, 5, 10, 31, 64, 70};
    static const char *const isas[] = {NULL, "avx2", "portable"};
    for (int t = 0; t < 10; t++) {
        gg_ltl_rule r;
        int R = ranges[t % 8];
        random_rule(&r, R, 'M', t % 3 == 0);
        gg_cpu_ltl *k = open_kernel(&r, isas[t < 8 ? 0 : t - 7], 0, t);
        for (int c = 0; c < 4; c++) {
            int64_t w = 2 * R + 20 + (int64_t)(next_rand() % 300),
                    h = 2 * R + 20 + (int64_t)(next_rand() % 300),
                    blob = 2 + (int64_t)(next_rand() % (uint64_t)(R + 12));
            kernel_matches_in(k, &r, w, h, c % 2, 5 + (int)(next_rand() % 40),
                              30 + (int)(next_rand() % 50), blob, 1 + c % 3);
        }
        gg_cpu_ltl_close(k);
    }
}

/* A kernel whose compare is wrong is refused (GG_FAIL_INVALID) and never
 * stepped. */
static void broken_kernel_refused(void **state)
{
    (void)state;
    gg_ltl_rule r;
    gg_err err;
    assert_int_equal(gg_ltl_parse("R3,C0,M1,S10..20,B12..18,NN", &r, &err),
                     0);
    char *src;
    size_t len;
    assert_int_equal(gg_ltl_emit_c(&r, &src, &len, &err), 0);
    char *at = strstr(src, "*born |= g & ~h;");
    assert_non_null(at);
    memcpy(at, "*born |= g;     ", 16); /* births past the range's top */
    gg_cpu_ltl_opts o = {.cache_dir = gg_test_dir};
    gg_cpu_ltl *k;
    gg_fail_kind why;
    assert_int_equal(gg_cpu_ltl_open_source(&r, src, len, &o, &k, &why,
                                            &err), -1);
    assert_int_equal(why, GG_FAIL_INVALID);
    assert_null(k);
    assert_non_null(strstr(err.msg, "disagrees with the reference"));
    free(src);
}

/* golgen run on backend and bgolly from the same file, the RLE bodies
 * compared (bgolly writes no #CXRLE). */
static void agree_on(const char *backend, const char *pattern, int gens)
{
    char cmd[2048];
    snprintf(cmd, sizeof cmd,
             "set -e; d=$(mktemp -d /tmp/gg_ltl_XXXXXX); "
             "'%s' run --backend %s --gens %d -o $d/g.rle '%s' "
             "2>/dev/null; bgolly -a 'Larger than Life' -q -q -m %d "
             "-o $d/b.rle '%s' >/dev/null 2>&1; "
             "grep -v '^#' $d/g.rle > $d/g2.rle; "
             "cmp -s $d/g2.rle $d/b.rle || { diff $d/g2.rle $d/b.rle | "
             "head -5; exit 1; }; rm -rf $d",
             getenv("GG_GOLGEN"), backend, gens, pattern, gens, pattern);
    if (gg_test_status(cmd) != 0)
        fail_msg("%s on %s differs from bgolly at generation %d", pattern,
                 backend, gens);
}

/* The reference and the compiled kernel both. */
static void agree_with_bgolly(const char *pattern, int gens)
{
    agree_on("reference", pattern, gens);
    agree_on("cpu", pattern, gens);
}

static bool have_bgolly(void)
{
    return getenv("GG_GOLGEN") &&
           gg_test_status("command -v bgolly >/dev/null 2>&1") == 0 &&
           gg_test_status("test -d " PATTERNS) == 0;
}

static void golly_patterns_match_bgolly(void **state)
{
    (void)state;
    if (!have_bgolly())
        skip();
    static const struct {
        const char *file;
        int gens;
    } cases[] = {
        {"Blinkers.mcl", 500},      {"Bosco.mcl", 500},
        {"Globe.mcl", 300},         {"Gnarl.mcl", 300},
        {"Majority.mcl", 300},      {"ModernArt.mcl", 300},
        {"Waffle.mcl", 300},        {"Jitterbug.rle", 500},
        {"BugGun.rle", 500},        {"BugCollection.rle", 300},
        {"BugReactions.rle", 300},  {"Butterfly.rle", 500},
        {"SlowShip.rle", 500},      {"SoldierBugs.rle", 500},
        {"GunCollection.rle", 200}, {"R100-NN-bug.rle", 100},
        {"R100-alien-bug.rle", 100}, {"R500-alien-bug.rle", 10},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        char path[512];
        snprintf(path, sizeof path, PATTERNS "/%s", cases[i].file);
        agree_with_bgolly(path, cases[i].gens);
    }
}

/* Random soups under random rules (range 1..4, C 2..5, M0/M1, NM, NN and
 * NC) on a torus, a bounded plane and the unbounded plane. */
static void soups_match_bgolly(void **state)
{
    (void)state;
    if (!have_bgolly())
        skip();
    static const char nbhds[] = "MNC";
    for (int t = 0; t < 36; t++) {
        int kind = t % 3; /* torus, plane, unbounded */
        gg_ltl_rule r;
        random_rule(&r, 1 + (int)(next_rand() % 4), nbhds[(t / 3) % 3],
                    kind < 2);
        if (kind < 2) {
            r.topo = kind ? GG_TOPO_PLANE : GG_TOPO_TORUS;
            r.width = 40 + (int64_t)(next_rand() % 40);
            r.height = 40 + (int64_t)(next_rand() % 40);
        }
        char rule[1200], path[512];
        gg_ltl_format(&r, rule, sizeof rule);
        snprintf(path, sizeof path, "%s/soup%d.rle", gg_test_dir, t);
        FILE *f = fopen(path, "w");
        assert_non_null(f);
        int side = 24;
        fprintf(f, "x = %d, y = %d, rule = %s\n", side, side, rule);
        for (int y = 0; y < side; y++) {
            for (int x = 0; x < side; x++)
                fputc(next_rand() % 100 < 45 ? 'o' : 'b', f);
            fputs(y + 1 < side ? "$\n" : "!\n", f);
        }
        fclose(f);
        agree_with_bgolly(path, kind < 2 ? 150 : 40);
    }
}

/* golgen rule and run: the description, RLE to stdout, and what is
 * refused by name (other backends and engines, pictures, states past C,
 * cells outside the grid). */
static void command_line(void **state)
{
    (void)state;
    if (!getenv("GG_GOLGEN"))
        skip();
    expect("rule R5,C0,M1,S34..58,B34..45,NM:T500,40", 0,
           "torus 500x40");
    expect("rule 5,34,45,34,58", 0, "Moore box of range 5 (121 cells");
    expect("rule R5,C0,M1,S1..2,B0..2,NM", 2, "B0 is not allowed");
    write_file("j.rle", "x = 3, y = 3, rule = R2,C3,M1,S3..9,B3..6,NM\n"
                        "obo$3o$bo!\n");
    expect("run --gens 4 -o - j.rle", 0, "rule = R2,C3,M1,S3..9,B3..6,NM");
    expect("run --gens 4 j.rle", 0, "(cpu ");
    expect("run --backend cpu --gens 4 j.rle", 0, "(cpu ");
    expect("run --backend reference --gens 4 j.rle", 0, "(reference ");
    expect("run --backend opencl --gens 4 j.rle", 2,
           "does not run Larger than Life rules yet; use --backend "
           "reference, cpu");
    expect("run --backend nosuch --gens 4 j.rle", 2, "unknown backend");
    /* bench takes LtL rules through the same entries */
    expect("bench --backend cpu --rule R3,C4,M0,S5..20,B6..9,NN --size "
           "100x70 --gens 3", 0, "torus 100x70, 3 generations");
    expect("bench --backend reference --rule R2,C0,M1,S3..9,B3..6,NM "
           "--size 40x40 --gens 2 --json", 0, "\"backend\": \"reference\"");
    expect("bench --backend opencl --rule R2,C0,M1,S3..9,B3..6,NM", 2,
           "does not run Larger than Life rules");
    expect("bench --rule R2,C0,M1,S3..9,B3..6,NM --engine tiles", 2,
           "Larger than Life rules take --backend");
    expect("run --engine hashlife --gens 4 j.rle", 2,
           "the hash tree does not run");
    expect("run --devices 0,0 --gens 4 j.rle", 2,
           "Larger than Life rules do not take --devices");
    expect("run --device-mem 1M --gens 4 j.rle", 2,
           "Larger than Life rules do not take --device-mem");
    expect("run --engine tiles --png p.png --gens 4 j.rle", 2,
           "does not take --engine tiles");
    expect("run --rule R2,C0,M1,S3..9,B3..6,NN:T3,3 --gens 4 j.rle", 0,
           "T4,4"); /* sides below 2R grow to 2R, as Golly */
    write_file("s.rle", "x = 2, y = 1, rule = R2,C3,M1,S3..9,B3..6,NM\n"
                        "AC!\n");
    expect("run --gens 1 s.rle", 2, "cells in state 3, but");
    write_file("w.rle", "x = 30, y = 1, rule = R2,C0,M1,S3..9,B3..6,NM:T9,9"
                        "\n30o!\n");
    expect("run --gens 1 w.rle", 2, "lies outside the 9x9 grid");
}

/* A side x side soup of states 0 .. C-1 under rule. */
static void write_ltl_soup(const char *name, const char *rule, int side,
                           int states)
{
    char path[512];
    snprintf(path, sizeof path, "%s/%s", gg_test_dir, name);
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fprintf(f, "x = %d, y = %d, rule = %s\n", side, side, rule);
    for (int y = 0; y < side; y++) {
        for (int x = 0; x < side; x++) {
            int st = next_rand() % 100 < 45
                         ? 1 + (int)(next_rand() % (uint64_t)(states - 1))
                         : 0;
            fputc(st ? 'A' + st - 1 : '.', f);
        }
        fputs(y + 1 < side ? "$\n" : "!\n", f);
    }
    fclose(f);
}

/* N generations straight equal N/2 stored on backend `b1` and N/2
 * resumed on `b2`, cell for cell (the RLE, #CXRLE line included), and
 * equal bgolly's where it is installed. */
static void straight_equals_resumed(const char *in, int n, const char *b1,
                                    const char *b2, bool golly)
{
    char script[3072];
    int k = snprintf(script, sizeof script,
                     "IN='%s' && rm -f half.ggu full.rle res.rle && "
                     "$G run --backend %s --gens %d \"$IN\" -o full.rle "
                     "2>/dev/null && "
                     "$G run --backend %s --gens %d --store half.ggu "
                     "\"$IN\" 2>/dev/null && "
                     "$G run --backend %s --resume half.ggu --gens %d "
                     "-o res.rle 2>/dev/null && cmp full.rle res.rle && "
                     "$G store info half.ggu | "
                     "grep -q 'family:     Larger than Life'",
                     in, b1, n, b1, n / 2, b2, n - n / 2);
    if (golly)
        snprintf(script + k, sizeof script - (size_t)k,
                 " && bgolly -a 'Larger than Life' -q -q -m %d -o b.rle "
                 "\"$IN\" >/dev/null 2>&1 && grep -v '^#' res.rle | "
                 "cmp - b.rle", n);
    shell_ok(in, script);
}

/* Stores, checkpoints and resume (issue 39 part 5): straight runs equal
 * halves through a store on the unbounded plane, a torus and a bounded
 * plane, on cpu and the reference and across them; a checkpointed run
 * killed after a checkpoint resumes to the straight run's end; store
 * import and export take LtL rules. */
static void stores_and_resume(void **state)
{
    (void)state;
    if (!getenv("GG_GOLGEN"))
        skip();
    bool golly = have_bgolly();
    if (golly) {
        straight_equals_resumed(PATTERNS "/Bosco.mcl", 200, "cpu", "cpu",
                                true);
        straight_equals_resumed(PATTERNS "/Globe.mcl", 60, "reference",
                                "cpu", true);
    }
    write_ltl_soup("t4.rle", "R2,C4,M1,S3..9,B3..6,NM:T60,50", 40, 4);
    straight_equals_resumed("t4.rle", 80, "cpu", "reference", golly);
    write_ltl_soup("p3.rle", "R3,C3,M0,S8..20,B6..12,NN:P70,64", 50, 3);
    straight_equals_resumed("p3.rle", 60, "reference", "cpu", golly);
    write_ltl_soup("u2.rle", "R1,C0,M0,S2..3,B3..3,NM", 30, 2);
    straight_equals_resumed("u2.rle", 90, "cpu", "cpu", golly);
    /* a checkpoint every 5 generations; killed, resumed on the kernel */
    write_ltl_soup("k.rle", "R2,C3,M1,S3..9,B3..6,NM:T300,300", 200, 3);
    shell_ok("checkpoint, kill, resume",
             "rm -f ck.ggu && "
             "$G run --backend cpu --gens 3000 k.rle -o full.rle "
             "2>/dev/null && "
             "{ $G run --backend reference --gens 3000 --store ck.ggu "
             "--checkpoint-every 5 k.rle 2>/dev/null & pid=$!; "
             "for i in $(seq 400); do [ -e ck.ggu ] && break; sleep 0.05; "
             "done; sleep 0.2; kill -KILL $pid; wait $pid; } ; "
             "g=$($G store info ck.ggu | awk '/generation/{print $2}') && "
             "test \"$g\" -gt 0 && test \"$g\" -lt 3000 && "
             "test $((g % 5)) = 0 && "
             "$G run --backend cpu --resume ck.ggu --gens $((3000 - g)) "
             "-o resumed.rle 2>/dev/null && cmp full.rle resumed.rle");
    /* the end's store after checkpoints is the run's end */
    expect("run --gens 12 --checkpoint-every 5 --store e.ggu t4.rle", 0,
           "generation 12");
    expect("store info e.ggu", 0, "generation: 12");
    /* import places as run does; export writes the store's cells */
    shell_ok("import, export",
             "$G store import t4.rle -o i.ggu && "
             "$G run --gens 7 --resume i.ggu -o a.rle 2>/dev/null && "
             "$G run --gens 7 t4.rle -o b.rle 2>/dev/null && cmp a.rle b.rle "
             "&& $G run --gens 7 t4.rle --store x.ggu 2>/dev/null && "
             "$G store export x.ggu -o x.rle && grep -q 'rule = R2,C4' "
             "x.rle");
    expect("run --gens 3 --resume i.ggu --rule R2,C0,M1,S3..9,B3..6,NM", 2,
           "is not the rule of store i.ggu");
    expect("run --gens 3 --resume i.ggu --rule "
           "'R2,C4,M1,S3..9,B3..6,NM:T60,50'", 0, "generation 3");
    expect("run --gens 3 --resume i.ggu --host-mem 64M --store o.ggu", 2,
           "Larger than Life rules do not take --host-mem");
    expect("run --gens 3 --resume i.ggu --engine hashlife", 2,
           "does not take stores");
}

/* Stores whose header passed its checksum but cannot be golgen's: planes
 * the rule does not have, a rule text no family reads, a state the rule
 * lacks, a bounded grid not the rule's size; each refused by name. */
static void hostile_stores(void **state)
{
    (void)state;
    if (!getenv("GG_GOLGEN"))
        skip();
    write_file("c4.rle", "x = 3, y = 1, rule = R2,C4,M1,S3..9,B3..6,NM:"
                         "T60,50\nABC!\n");
    expect("store import c4.rle -o c4.ggu", 0, "");
    shell_ok("copies", "for f in planes junk state wide; do "
             "cp c4.ggu $f.ggu; done");
    gg_test_patch_store_header("planes.ggu", 76, 1, '5'); /* R2,C5 */
    gg_test_patch_store_header("junk.ggu", 72, 1, 0x01);
    gg_test_patch_store_header("state.ggu", 76, 1, '3'); /* R2,C3 */
    gg_test_patch_store_header("wide.ggu", 16, 8, 61);
    expect("run --resume planes.ggu --gens 1", 2,
           "needs 3 state planes, but its header says 2");
    expect("store export planes.ggu -o x.rle", 2, "needs 3 state planes");
    expect("store info junk.ggu", 2, "its rule is none golgen knows");
    expect("run --resume junk.ggu --gens 1", 2, "none golgen knows");
    expect("run --resume state.ggu --gens 1", 2,
           "is in state 3, but R2,C3,M1,S3..9,B3..6,NM:T60,50 has states "
           "0..2");
    expect("run --resume wide.ggu --gens 1", 2,
           "its grid is 61x50, but its rule");
    expect("run --resume c4.ggu --gens 1", 0, "generation 1");
    expect("store info c4.ggu", 0, "family:     Larger than Life");
}

/* --png and --frames: the picture's size, palette and every pixel
 * against the run's RLE (a torus's whole grid, the unbounded plane's live
 * box; Generations' colours past two states). */
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
    write_ltl_soup("pt.rle", "R2,C3,M1,S3..9,B3..6,NM:T60,50", 40, 3);
    expect("run --gens 5 --png t.png -o t.rle pt.rle", 0,
           "t.png: 60 x 50 cells from (-30, -25), 1 pixel a cell");
    shell_ok("torus picture",
             GG_TEST_PNG_CHECK "t.png t.rle 3 60 50 -30 -25");
    write_file("j.rle", "x = 3, y = 3, rule = R2,C4,M1,S3..9,B3..6,NM\n"
                        "obo$3o$bo!\n");
    expect("run --gens 30 --png u.png -o u.rle j.rle", 0, "1 pixel a cell");
    shell_ok("plane picture", GG_TEST_PNG_CHECK "u.png u.rle 4");
    write_ltl_soup("p2.rle", "R3,C0,M0,S8..20,B6..12,NN", 30, 2);
    expect("run --gens 20 --png b.png -o b.rle p2.rle", 0, "1 pixel a cell");
    shell_ok("two-state picture", GG_TEST_PNG_CHECK "b.png b.rle 2");
    expect("run --gens 5 --frames fr --every 2 pt.rle", 0, "generation 5");
    shell_ok("frames", "test -s fr/frame_000000.png && "
             "test -s fr/frame_000003.png && ! test -e fr/frame_000004.png");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(parse_and_format),
        cmocka_unit_test(malformed_rules),
        cmocka_unit_test(sums_equal_direct_counts),
        cmocka_unit_test(cpu_kernel_matches_reference),
        cmocka_unit_test(small_patterns_match_reference),
        cmocka_unit_test(broken_kernel_refused),
        cmocka_unit_test(golly_patterns_match_bgolly),
        cmocka_unit_test(soups_match_bgolly),
        cmocka_unit_test(command_line),
        cmocka_unit_test(stores_and_resume),
        cmocka_unit_test(hostile_stores),
        cmocka_unit_test(pictures),
    };
    return cmocka_run_group_tests(tests, gg_test_setup_dir,
                                  gg_test_teardown_dir);
}

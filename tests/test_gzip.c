/* Gzipped patterns (runtime/formats/file_text.h), the highest state the
 * readers count while parsing, and a stop while a pattern loads.
 *
 * The oracle for gzip is the plain file: every gzipped file must read to
 * the pattern (and the bytes) its plain self reads to, whatever its name.
 * Broken gzip (truncated, corrupt, unpacking past the limit, packed twice)
 * is refused with its cause. Where bgolly is installed, `golgen run` on a
 * .mc.gz and on a .rle.gz (also from standard input, and Golly's own where
 * installed) writes bgolly's macrocell for the same generation, and `golgen
 * store import` of a .rle.gz writes the plain file's store. */
#define _GNU_SOURCE
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include <signal.h>
#include <sys/stat.h>
#include <time.h>
#include <zlib.h>

#include "file_text.h"
#include "pattern.h"
#include "test_golgen.h"
#include "test_util.h"

static char path_buf[4096];

/* snprintf into an array, failing the test when it does not fit (and
 * using the result, so gcc does not warn of truncation it cannot rule
 * out). */
#define FMT(buf, ...)                                                      \
    do {                                                                   \
        if (snprintf(buf, sizeof buf, __VA_ARGS__) >= (int)sizeof buf)     \
            fail_msg("%s: text too long for its buffer", #buf);            \
    } while (0)

static const char *src(const char *rel)
{
    const char *root = getenv("GG_SOURCE_ROOT");
    snprintf(path_buf, sizeof path_buf, "%s/%s", root ? root : ".", rel);
    return path_buf;
}

static const char *scratch(const char *name)
{
    static char p[256];
    snprintf(p, sizeof p, "%s/%s", gg_test_dir, name);
    return p;
}

/* A multi-state macrocell (Generations /2/3, states up to 2), written
 * here: the corpus has two-state ones only. */
static const char gen_mc[] = "[M2] (golly 3.3)\n#R /2/3\n"
                             "1 0 1 2 0\n1 2 0 0 1\n2 1 2 0 1\n"
                             "3 3 0 0 0\n4 4 0 0 0\n";

/* The pattern files read both plain and gzipped: every reader. */
static const char *const samples[] = {
    "tests/data/patterns/glider.rle",
    "tests/data/patterns/multistate.rle",
    "tests/data/patterns/headerless.rle",
    "tests/data/patterns/crlf.rle",
    "tests/data/patterns/bgolly-acorn-5206.rle",
    "tests/data/patterns/glider.cells",
    "tests/data/patterns/glider.lif",
    "tests/data/patterns/glider-105.lif",
    "tests/data/patterns/empty-pattern.rle",
    "tests/fuzz/corpus/mc/gosper-gun.mc",
    "tests/fuzz/corpus/mc/comment-rule-gen.mc",
};

/* data as gzip into path, in `members` gzip members (gzip -d and Golly
 * read concatenated members as one file). */
static void write_gz(const char *path, const char *data, size_t len,
                     int members)
{
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    fclose(f);
    size_t at = 0;
    for (int m = 0; m < members; m++) {
        size_t n = m == members - 1 ? len - at : len / (size_t)members;
        gzFile g = gzopen(path, "ab");
        assert_non_null(g);
        if (n)
            assert_int_equal(gzwrite(g, data + at, (unsigned)n), (int)n);
        assert_int_equal(gzclose(g), Z_OK);
        at += n;
    }
}

static void gzip_file(const char *plain, const char *gz, int members)
{
    size_t len;
    char *text = gg_test_read_file(plain, &len);
    assert_non_null(text);
    write_gz(gz, text, len, members);
    free(text);
}

static void read_ok(const char *path, gg_pattern *p)
{
    gg_err err;
    if (gg_pattern_read(path, p, &err))
        fail_msg("%s: %s", path, err.msg);
}

/* Same cells, position, rule, comments as the plain file; the same bytes
 * through gg_file_text_alloc (what the tree's macrocell reader gets). */
static void test_gzip_reads_as_plain(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof samples / sizeof *samples; i++) {
        char plain[4096];
        snprintf(plain, sizeof plain, "%s", src(samples[i]));
        for (int members = 1; members <= 3; members += 2) {
            /* no .gz in the name: gzip is told by its bytes */
            const char *gz = scratch("sample.pattern");
            gzip_file(plain, gz, members);
            gg_pattern a, b;
            read_ok(plain, &a);
            read_ok(gz, &b);
            if (!gg_pattern_equal(&a, &b))
                fail_msg("%s gzipped in %d member(s) reads differently",
                         samples[i], members);
            assert_int_equal(gg_pattern_max_state(&a),
                             gg_pattern_max_state(&b));
            gg_pattern_free(&a);
            gg_pattern_free(&b);

            size_t n1, n2;
            gg_err err;
            char *t1 = gg_test_read_file(plain, &n1);
            char *t2 = gg_file_text_alloc(gz, NULL, &n2, &err);
            if (!t2)
                fail_msg("%s: %s", gz, err.msg);
            assert_int_equal(n1, n2);
            assert_memory_equal(t1, t2, n1);
            assert_int_equal(t2[n2], 0);
            free(t1);
            free(t2);
        }
    }
    /* a multi-state macrocell, and gzip text parsed from memory */
    gg_pattern a, b;
    gg_err err;
    assert_int_equal(gg_pattern_parse(gen_mc, strlen(gen_mc), "gen.mc", &a,
                                      &err), 0);
    write_gz(scratch("gen.mc.gz"), gen_mc, strlen(gen_mc), 1);
    size_t len;
    char *packed = gg_test_read_file(scratch("gen.mc.gz"), &len);
    assert_int_equal(gg_pattern_parse(packed, len, "gen.mc.gz", &b, &err), 0);
    assert_true(gg_pattern_equal(&a, &b));
    assert_int_equal(gg_pattern_max_state(&b), 2);
    free(packed);
    gg_pattern_free(&a);
    gg_pattern_free(&b);
}

/* The error of reading path starts with path and holds needle. */
static void read_fails(const char *path, const char *needle)
{
    gg_pattern p;
    gg_err err = {{0}};
    assert_int_equal(gg_pattern_read(path, &p, &err), -1);
    if (strncmp(err.msg, path, strlen(path)) || !strstr(err.msg, needle))
        fail_msg("reading %s: got '%s', want it to name the file and say "
                 "'%s'", path, err.msg, needle);
}

static void write_bytes(const char *path, const void *b, size_t n)
{
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    assert_int_equal(fwrite(b, 1, n, f), n);
    fclose(f);
}

static void test_gzip_broken(void **state)
{
    (void)state;
    size_t len;
    char *text = gg_test_read_file(src("tests/data/patterns/"
                                       "bgolly-acorn-5206.rle"), &len);
    assert_non_null(text);
    write_gz(scratch("good.gz"), text, len, 1);
    size_t glen;
    unsigned char *gz = (unsigned char *)gg_test_read_file(scratch("good.gz"),
                                                           &glen);
    assert_true(glen > 40);

    /* cut short: in the compressed data, and before the trailer */
    write_bytes(scratch("half.rle.gz"), gz, glen / 2);
    read_fails(scratch("half.rle.gz"), "the gzip file is truncated");
    write_bytes(scratch("notrailer.rle.gz"), gz, glen - 4);
    read_fails(scratch("notrailer.rle.gz"), "the gzip file is truncated");
    /* the CRC of the data flipped: corrupt, not a different pattern */
    gz[glen - 8] ^= 0x55;
    write_bytes(scratch("crc.rle.gz"), gz, glen);
    read_fails(scratch("crc.rle.gz"), "the gzip file is corrupt");
    gz[glen - 8] ^= 0x55;
    /* the first block's type made the reserved one (BTYPE 11) */
    gz[10] |= 0x06;
    write_bytes(scratch("block.rle.gz"), gz, glen);
    read_fails(scratch("block.rle.gz"), "the gzip file is corrupt");
    free(gz);
    gz = (unsigned char *)gg_test_read_file(scratch("good.gz"), &glen);

    /* packed twice: Golly unpacks one layer */
    write_gz(scratch("twice.gz"), (const char *)gz, glen, 1);
    read_fails(scratch("twice.gz"), "gzip-compressed twice");

    /* the size cap names itself, and exactly the cap still reads */
    char *out;
    size_t n;
    gg_err err;
    assert_int_equal(gg_gunzip(gz, glen, len - 1, "capped", NULL, &out, &n,
                               &err), -1);
    assert_non_null(strstr(err.msg, "unpacks to more than"));
    assert_non_null(strstr(err.msg, "bytes, the most golgen unpacks"));
    assert_int_equal(gg_gunzip(gz, glen, len, "exact", NULL, &out, &n, &err),
                     0);
    assert_int_equal(n, len);
    assert_memory_equal(out, text, len);
    free(out);
    free(gz);
    free(text);
}

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* A copy of p's max state found by scanning the planes (the reader's
 * count forgotten): the oracle for the count. */
static int scanned_max(const gg_pattern *p)
{
    gg_pattern q = *p;
    q.known_max = 0;
    return gg_pattern_max_state(&q);
}

/* Two cells 2^20 columns apart (a box of two 512 MiB planes) in 60 bytes
 * of RLE: the count comes from the parse, not from scanning the box. */
static void test_max_state_sparse(void **state)
{
    (void)state;
    static const char text[] = "x = 1048577, y = 4096, rule = LifeHistory\n"
                               "A4095$1048576bB!\n";
    gg_pattern p;
    gg_err err;
    if (gg_pattern_parse(text, strlen(text), "sparse", &p, &err))
        fail_msg("%s", err.msg);
    double t0 = now();
    int top = gg_pattern_max_state(&p);
    double dt = now() - t0;
    assert_int_equal(top, 2); /* the B the text holds */
    if (dt > 0.1)
        fail_msg("max state of a sparse 1 GiB box took %.3f s", dt);
    gg_pattern_free(&p);

    /* the count equals a scan for every reader and sample */
    for (size_t i = 0; i < sizeof samples / sizeof *samples; i++) {
        read_ok(src(samples[i]), &p);
        assert_int_equal(gg_pattern_max_state(&p), scanned_max(&p));
        gg_pattern_free(&p);
    }
    assert_int_equal(gg_pattern_parse(gen_mc, strlen(gen_mc), "gen.mc", &p,
                                      &err), 0);
    assert_int_equal(gg_pattern_max_state(&p), scanned_max(&p));
    /* a cell changed after reading: the count is dropped, not trusted */
    assert_int_equal(gg_pattern_set(&p, 0, 0, 0, &err), 0);
    assert_int_equal(gg_pattern_max_state(&p), scanned_max(&p));
    gg_pattern_free(&p);
}

/* A stop already asked for: every read gives up with its message; none
 * asked: the same files read. */
static void test_stop_while_reading(void **state)
{
    (void)state;
    volatile sig_atomic_t flag = 1;
    const char *files[] = {"tests/data/patterns/bgolly-acorn-5206.rle",
                           "tests/fuzz/corpus/mc/gosper-gun.mc"};
    for (size_t i = 0; i < 2; i++) {
        char path[4096];
        snprintf(path, sizeof path, "%s", src(files[i]));
        gzip_file(path, scratch("stop.gz"), 1);
        const char *both[] = {path, scratch("stop.gz")};
        for (int k = 0; k < 2; k++) {
            gg_pattern p;
            gg_err err;
            char want[4200];
            snprintf(want, sizeof want, "stopped while reading '%s'",
                     both[k]);
            flag = 1;
            assert_int_equal(gg_pattern_read_stop(both[k], &flag, &p, &err),
                             -1);
            assert_string_equal(err.msg, want);
            flag = 0;
            assert_int_equal(gg_pattern_read_stop(both[k], &flag, &p, &err),
                             0);
            gg_pattern_free(&p);
        }
        /* the parsers themselves poll (a file already in memory) */
        size_t len;
        char *text = gg_test_read_file(path, &len);
        gg_pattern p;
        gg_err err;
        flag = 1;
        int rc = i == 0 ? gg_pattern_parse_rle_stop(text, len, "t", &flag, &p,
                                                    &err)
                        : gg_pattern_parse_mc_stop(text, len, "t", &flag, &p,
                                                   &err);
        assert_int_equal(rc, -1);
        assert_string_equal(err.msg, "stopped while reading 't'");
        assert_int_equal(gg_pattern_parse_stop(text, len, "u", &flag, &p,
                                               &err), -1);
        assert_string_equal(err.msg, "stopped while reading 'u'");
        free(text);
    }
}

static bool have_bgolly(void)
{
    return gg_test_status("command -v bgolly >/dev/null 2>&1") == 0;
}

/* golgen run on IN and bgolly -a HashLife on GZ (gzipped), N generations,
 * both written as macrocell: the same bytes after the first line (bgolly's
 * writer is byte for byte golgen's; tests/test_oracle.c). golgen must also
 * give the same output for the plain file. */
static void run_against_bgolly(const char *in, const char *gz,
                               const char *plain, int gens)
{
    char script[2000];
    FMT(script,
        "$G run --gens %d -o gz.mc '%s' >/dev/null 2>&1 && "
        "$G run --gens %d -o plain.mc '%s' >/dev/null 2>&1 && "
        "bgolly -q -q -a HashLife -m %d -o bg.mc '%s' >/dev/null 2>&1 && "
        "tail -n +2 gz.mc > a && tail -n +2 bg.mc > b && cmp -s a b && "
        "cmp -s gz.mc plain.mc",
        gens, in, gens, plain, gens, gz);
    shell_ok(in, script);
}

static void test_run_gz_against_bgolly(void **state)
{
    (void)state;
    if (!have_bgolly()) {
        print_message("bgolly not installed; skipped\n");
        return;
    }
    char plain[512];
    FMT(plain, "%s", src("tests/fuzz/corpus/mc/gosper-gun.mc"));
    gzip_file(plain, scratch("gun.mc.gz"), 1);
    run_against_bgolly(scratch("gun.mc.gz"), scratch("gun.mc.gz"), plain,
                       100);
    FMT(plain, "%s", src("tests/data/patterns/bgolly-acorn-5206.rle"));
    gzip_file(plain, scratch("acorn.rle.gz"), 1);
    run_against_bgolly(scratch("acorn.rle.gz"), scratch("acorn.rle.gz"),
                       plain, 300);
    /* standard input, gzipped; a store imported from gzip */
    shell_ok("gzip on stdin",
             "$G run --gens 300 -o stdin.mc - < acorn.rle.gz >/dev/null "
             "2>&1 && cmp -s stdin.mc plain.mc");
    char script[2000];
    FMT(script,
        "$G store import acorn.rle.gz -o gz.ggu >/dev/null 2>&1 && "
        "$G store import '%s' -o plain.ggu >/dev/null 2>&1 && "
        "cmp -s gz.ggu plain.ggu", plain);
    shell_ok("store import from gzip", script);

    /* Golly's own gzipped files, where installed: a .rle.gz run as it
     * is; a .mc.gz read to gzip -d's bytes, and its run (from those bytes:
     * until cli/run_hashlife.c reads through gg_file_text_alloc, a .mc.gz
     * named to golgen run is drawn dense, minutes for this one) against
     * bgolly's run of the .mc.gz */
    const char *golly = getenv("GG_GOLLY_PATTERNS");
    if (!golly)
        golly = "/usr/share/golly/Patterns";
    const char *bundled[] = {
        "Life/Syntheses/syntheses-of-c2-spaceships.rle.gz",
        "HashLife/demonoid-c512-hashlife-friendly.mc.gz",
    };
    for (int i = 0; i < 2; i++) {
        char in[512], cmd[1200];
        FMT(in, "%s/%s", golly, bundled[i]);
        struct stat st;
        if (stat(in, &st) != 0) {
            print_message("%s not installed; skipped\n", in);
            continue;
        }
        FMT(cmd, "gzip -dc '%s' > '%s'", in, scratch("bundled.plain"));
        assert_int_equal(gg_test_status(cmd), 0);
        size_t n1, n2;
        gg_err err;
        char *want = gg_test_read_file(scratch("bundled.plain"), &n1);
        char *got = gg_file_text_alloc(in, NULL, &n2, &err);
        if (!got)
            fail_msg("%s: %s", in, err.msg);
        assert_int_equal(n1, n2);
        assert_memory_equal(want, got, n1);
        free(want);
        free(got);
        /* the .mc.gz named directly stays a tree (cli/run_hashlife.c) */
        run_against_bgolly(in, in, scratch("bundled.plain"), 64);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_gzip_reads_as_plain),
        cmocka_unit_test(test_gzip_broken),
        cmocka_unit_test(test_max_state_sparse),
        cmocka_unit_test(test_stop_while_reading),
        cmocka_unit_test(test_run_gz_against_bgolly),
    };
    return cmocka_run_group_tests(tests, gg_test_setup_dir,
                                  gg_test_teardown_dir);
}

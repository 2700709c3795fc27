/* Golly's own pattern collection (Debian package golly): every *.rle under
 * Patterns/Life and Patterns/Life-Like reads, writes back through a file,
 * and reads again identically (cells, planes, position, generation, rule,
 * comments); every .cells and .lif there reads. Where bgolly is installed,
 * each file is also run through `bgolly -m 0` and its output must hold the
 * same cells as our reading, and our writer must reproduce bgolly's bytes.
 * GG_GOLLY_PATTERNS overrides /usr/share/golly/Patterns. */
#define _GNU_SOURCE
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include <ftw.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "pattern.h"

typedef struct {
    char **v;
    size_t n, cap;
} list;

static list files;

static void push(list *l, const char *s)
{
    if (l->n == l->cap) {
        l->cap = l->cap ? 2 * l->cap : 64;
        l->v = realloc(l->v, l->cap * sizeof *l->v);
    }
    l->v[l->n++] = strdup(s);
}

static bool ends_with(const char *s, const char *suf)
{
    size_t a = strlen(s), b = strlen(suf);
    return a >= b && strcmp(s + a - b, suf) == 0;
}

static int visit(const char *path, const struct stat *st, int type,
                 struct FTW *ftw)
{
    (void)st;
    (void)ftw;
    if (type == FTW_F && (ends_with(path, ".rle") || ends_with(path, ".cells") ||
                          ends_with(path, ".lif")))
        push(&files, path);
    return 0;
}

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

static const char *root(void)
{
    const char *r = getenv("GG_GOLLY_PATTERNS");
    return r ? r : "/usr/share/golly/Patterns";
}

static char tmpdir[] = "/tmp/gg_test_golly.XXXXXX";

static int setup(void **state)
{
    (void)state;
    const char *sub[] = {"Life", "Life-Like"};
    for (int i = 0; i < 2; i++) {
        char dir[4096];
        snprintf(dir, sizeof dir, "%s/%s", root(), sub[i]);
        struct stat st;
        if (stat(dir, &st) == 0 && S_ISDIR(st.st_mode))
            nftw(dir, visit, 16, FTW_PHYS);
    }
    if (files.n)
        qsort(files.v, files.n, sizeof *files.v, cmp_str);
    return mkdtemp(tmpdir) ? 0 : -1;
}

static int teardown(void **state)
{
    (void)state;
    for (size_t i = 0; i < files.n; i++)
        free(files.v[i]);
    free(files.v);
    rmdir(tmpdir);
    return 0;
}

static void skip_if_missing(void)
{
    if (files.n == 0) {
        print_message("no Golly patterns under %s/Life or %s/Life-Like "
                      "(apt-get install golly, or set GG_GOLLY_PATTERNS); "
                      "0 files checked\n", root(), root());
        skip();
    }
}

static void test_round_trip(void **state)
{
    (void)state;
    skip_if_missing();
    char out[512];
    snprintf(out, sizeof out, "%s/out.rle", tmpdir);
    int rle = 0, cells = 0, lif = 0, multi = 0, placed = 0, failed = 0;
    for (size_t i = 0; i < files.n; i++) {
        const char *f = files.v[i];
        gg_pattern a, b;
        gg_err err;
        if (gg_pattern_read(f, &a, &err)) {
            print_error("%s\n", err.msg);
            failed++;
            continue;
        }
        if (!ends_with(f, ".rle")) {
            ends_with(f, ".cells") ? cells++ : lif++;
            gg_pattern_free(&a);
            continue;
        }
        if (gg_pattern_write_rle(out, &a, &err) ||
            gg_pattern_read(out, &b, &err)) {
            print_error("%s: %s\n", f, err.msg);
            failed++;
            gg_pattern_free(&a);
            continue;
        }
        if (!gg_pattern_equal(&a, &b)) {
            print_error("%s: differs after writing and reading back\n", f);
            failed++;
        } else {
            rle++;
            multi += a.multistate || a.n_planes > 1;
            placed += a.x != 0 || a.y != 0;
        }
        gg_pattern_free(&a);
        gg_pattern_free(&b);
    }
    unlink(out);
    print_message("Golly patterns under %s: %d .rle read, written and read "
                  "back identically (%d multi-state, %d not at 0,0), %d "
                  ".cells and %d .lif read, %d failed\n", root(), rle, multi,
                  placed, cells, lif, failed);
    assert_int_equal(failed, 0);
    assert_true(rle > 0);
}

/* 64 cells of row y of g from column x (cells past the row read 0). */
static uint64_t bits_at(const gg_grid *g, int64_t x, int64_t y)
{
    const uint64_t *row = gg_grid_row(g, y);
    int64_t wi = x >> 6;
    int sh = (int)(x & 63);
    uint64_t v = wi < g->stride ? row[wi] >> sh : 0;
    if (sh && wi + 1 < g->stride)
        v |= row[wi + 1] << (64 - sh);
    return v;
}

/* Two-state cells of a and b agree up to translation (bgolly trims to the
 * bounding box; our box is the header's). */
static bool same_cells(const gg_pattern *a, const gg_pattern *b)
{
    if (a->n_planes != 1 || b->n_planes != 1)
        return false;
    int64_t ax0, ay0, ax1, ay1, bx0, by0, bx1, by1;
    bool ea = !gg_pattern_width(a) ||
              !gg_grid_bbox(&a->plane[0], &ax0, &ay0, &ax1, &ay1);
    bool eb = !gg_pattern_width(b) ||
              !gg_grid_bbox(&b->plane[0], &bx0, &by0, &bx1, &by1);
    if (ea || eb)
        return ea && eb;
    if (ax1 - ax0 != bx1 - bx0 || ay1 - ay0 != by1 - by0)
        return false;
    int64_t w = ax1 - ax0 + 1;
    bool same = true;
    for (int64_t y = 0; y <= ay1 - ay0 && same; y++)
        for (int64_t x = 0; x < w && same; x += 64) {
            uint64_t m = w - x >= 64 ? ~0ull : (1ull << (w - x)) - 1;
            same = ((bits_at(&a->plane[0], ax0 + x, ay0 + y) ^
                     bits_at(&b->plane[0], bx0 + x, by0 + y)) & m) == 0;
        }
    return same;
}

static int run_bgolly(const char *in, const char *out)
{
    pid_t pid = fork();
    if (pid == 0) {
        if (!freopen("/dev/null", "w", stdout) ||
            !freopen("/dev/null", "w", stderr))
            _exit(127);
        alarm(60);
        execlp("bgolly", "bgolly", "-q", "-q", "-m", "0", "-o", out, in,
               (char *)NULL);
        _exit(127);
    }
    int status;
    if (pid < 0 || waitpid(pid, &status, 0) < 0)
        return -1;
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

static void test_against_bgolly(void **state)
{
    (void)state;
    skip_if_missing();
    if (system("command -v bgolly >/dev/null 2>&1") != 0) {
        print_message("bgolly not installed; cross-check skipped\n");
        skip();
    }
    char out[512];
    snprintf(out, sizeof out, "%s/bgolly.rle", tmpdir);
    int checked = 0, identical = 0, refused = 0, failed = 0;
    for (size_t i = 0; i < files.n; i++) {
        const char *f = files.v[i];
        unlink(out);
        struct stat st;
        if (run_bgolly(f, out) != 0 || stat(out, &st) != 0) {
            refused++; /* e.g. LifeHistory needs Golly's rule files */
            continue;
        }
        gg_pattern a, b;
        gg_err err;
        if (gg_pattern_read(f, &a, &err)) {
            failed++;
            continue;
        }
        if (gg_pattern_read(out, &b, &err)) {
            print_error("bgolly output for %s: %s\n", f, err.msg);
            gg_pattern_free(&a);
            failed++;
            continue;
        }
        checked++;
        if (!same_cells(&a, &b)) {
            print_error("%s: cells differ from bgolly's reading\n", f);
            failed++;
        }
        char *t = NULL, *want = NULL;
        size_t n;
        if (gg_pattern_format_rle(&b, &t, &n, &err) == 0) {
            FILE *fp = fopen(out, "rb");
            want = calloc(1, (size_t)st.st_size + 1);
            if (fp && fread(want, 1, (size_t)st.st_size, fp) ==
                          (size_t)st.st_size &&
                strcmp(want, t) == 0)
                identical++;
            else
                print_error("%s: our RLE of bgolly's output differs from "
                            "bgolly's bytes\n", f);
            if (fp)
                fclose(fp);
        }
        free(t);
        free(want);
        gg_pattern_free(&a);
        gg_pattern_free(&b);
    }
    unlink(out);
    print_message("bgolly cross-check: %d files with the same cells as "
                  "bgolly reads, %d rewritten byte for byte as bgolly "
                  "writes, %d that bgolly cannot load, %d failed\n",
                  checked, identical, refused, failed);
    assert_int_equal(failed, 0);
    assert_int_equal(identical, checked);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_round_trip),
        cmocka_unit_test(test_against_bgolly),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}

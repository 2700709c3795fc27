/* libgolgen's patterns and 2D runs (golgen_0.7, include/golgen/run.h):
 * a pattern read once is held as the tree takes it (a macrocell's tree,
 * a sparse RLE's runs) or as cells, with its rule, box and generation;
 * golgen_run_2d runs every 2D family by every engine that takes it, and the
 * engines agree cell for cell (the files they write are the same); a
 * run of a + b generations and one of a resumed from its store for b
 * agree; progress, the stop flag and the lines said reach the caller;
 * what a family or engine does not take is refused by name. Through
 * include/golgen.h only. */
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "golgen.h"
#include "test_lib_files.h"

static char *read_text(const char *p)
{
    FILE *f = fopen(p, "rb");
    assert_non_null(f);
    static char buf[1 << 16];
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    fclose(f);
    buf[n] = 0;
    return buf;
}

/* Two files' bytes are the same. */
static void same_file(const char *a, const char *b)
{
    char *x = strdup(read_text(a));
    assert_string_equal(x, read_text(b));
    free(x);
}

/* an electron going round a loop */
#define WIREWORLD "x = 6, y = 3, rule = WireWorld\n.4C$C4.C$.BA2C!\n"

static int setup(void **state)
{
    (void)state;
    if (lib_dir_make("gg_lib_run2d"))
        return -1;
    /* a glider in a box far bigger than its text: read as runs */
    write_text(path("sparse.rle"), "x = 4000, y = 4000, rule = B3/S23\n"
               "bo$2bo$3o!\n");
    write_text(path("acorn.rle"), "#CXRLE Pos=-3,-1 Gen=7\n"
               "x = 7, y = 3, rule = B3/S23\nbo5b$3bo3b$2o2b3o!\n");
    write_text(path("tree.mc"), "[M2] (golly 3.3)\n#R B3/S23\n#G 12\n"
               "$$$$$.*$..*$***$\n4 0 0 0 1\n");
    write_text(path("wire.rle"), WIREWORLD);
    write_text(path("ltl.rle"), "x = 5, y = 5, rule = R2,C0,M0,S2..3,B3..3,"
               "NM\nbo$2bo$3o$$5o!\n");
    write_text(path("gen.rle"), "x = 4, y = 3, rule = 23/3/3\n"
               "bo$2bo$3o!\n");
    return 0;
}

static void test_patterns(void **state)
{
    golgen_pattern *p;
    char err[512];
    int64_t x, y, w, h;
    (void)state;
    assert_int_equal(golgen_pattern_read(path("sparse.rle"),
                                         GOLGEN_PATTERN_AS_READ, NULL, &p,
                                         err, sizeof err), GOLGEN_OK);
    assert_string_equal(golgen_pattern_form(p), "runs");
    assert_string_equal(golgen_pattern_rule(p), "B3/S23");
    assert_int_equal(golgen_pattern_box(p, &x, &y, &w, &h), 1);
    assert_true(x == 0 && y == 0 && w == 4000 && h == 4000);
    golgen_pattern_free(p);
    assert_int_equal(golgen_pattern_read(path("sparse.rle"),
                                         GOLGEN_PATTERN_CELLS, NULL, &p, err,
                                         sizeof err), GOLGEN_OK);
    assert_string_equal(golgen_pattern_form(p), "cells");
    golgen_pattern_free(p);

    assert_int_equal(golgen_pattern_read(path("acorn.rle"),
                                         GOLGEN_PATTERN_AS_READ, NULL, &p,
                                         err, sizeof err), GOLGEN_OK);
    assert_string_equal(golgen_pattern_form(p), "cells");
    assert_int_equal(golgen_pattern_box(p, &x, &y, &w, &h), 1);
    assert_true(x == -3 && y == -1 && w == 7 && h == 3);
    assert_int_equal(golgen_pattern_generation(p), 7);
    golgen_pattern_free(p);

    /* a glider in the root's south-east leaf: its box as the cells of
     * the same file give it */
    int64_t cx, cy, cw, ch;
    assert_int_equal(golgen_pattern_read(path("tree.mc"),
                                         GOLGEN_PATTERN_CELLS, NULL, &p, err,
                                         sizeof err), GOLGEN_OK);
    assert_int_equal(golgen_pattern_box(p, &cx, &cy, &cw, &ch), 1);
    assert_true(cw == 3 && ch == 3);
    golgen_pattern_free(p);
    assert_int_equal(golgen_pattern_read(path("tree.mc"),
                                         GOLGEN_PATTERN_AS_READ, NULL, &p,
                                         err, sizeof err), GOLGEN_OK);
    assert_string_equal(golgen_pattern_form(p), "tree");
    assert_string_equal(golgen_pattern_rule(p), "B3/S23");
    assert_int_equal(golgen_pattern_generation(p), 12);
    assert_int_equal(golgen_pattern_box(p, &x, &y, &w, &h), 1);
    assert_true(x == cx && y == cy && w == cw && h == ch);
    golgen_pattern_free(p);

    const char text[] = "x = 3, y = 1\n3o!\n";
    assert_int_equal(golgen_pattern_parse(text, strlen(text), "blinker",
                                          GOLGEN_PATTERN_AS_READ, &p, err,
                                          sizeof err), GOLGEN_OK);
    assert_null(golgen_pattern_rule(p));
    assert_int_equal(golgen_pattern_box(p, NULL, NULL, &w, &h), 1);
    assert_true(w == 3 && h == 1);
    golgen_pattern_free(p);

    assert_int_equal(golgen_pattern_read(path("none.rle"),
                                         GOLGEN_PATTERN_AS_READ, NULL, &p,
                                         err, sizeof err), GOLGEN_ERR_INPUT);
    assert_null(p);
    assert_non_null(strstr(err, "none.rle"));
    assert_int_equal(golgen_pattern_parse("x = 2, y = 1\n2%!\n", 16, "bad",
                                          GOLGEN_PATTERN_CELLS, &p, err,
                                          sizeof err), GOLGEN_ERR_INPUT);
    assert_non_null(strstr(err, "bad"));
    /* a stop already asked for gives the reading up */
    volatile sig_atomic_t stop = 1;
    assert_int_equal(golgen_pattern_read(path("acorn.rle"),
                                         GOLGEN_PATTERN_CELLS, &stop, &p,
                                         err, sizeof err), GOLGEN_ERR_INPUT);
    assert_non_null(strstr(err, "stopped while reading"));
}

/* The lines said, kept: notes and auto's line. */
static char said[8192];

static void note(void *ctx, const char *line)
{
    (void)ctx;
    strncat(said, line, sizeof said - strlen(said) - 2);
    strcat(said, "\n");
}

/* golgen_run_2d, its message shown when it fails. */
static int run(const golgen_run2d_opts *o, golgen_run2d_result *res, char *err,
               size_t len)
{
    int rc = golgen_run_2d(o, res, err, len);
    if (rc)
        fprintf(stderr, "golgen_run_2d: %s\n", err);
    return rc;
}

static golgen_run2d_opts opts(int64_t gens, const char *in, const char *out)
{
    said[0] = 0;
    return (golgen_run2d_opts){.in = in, .gens = gens, .out = out,
                             .backend = "reference", .on_note = note};
}

static void test_default_pattern(void **state)
{
    golgen_run2d_result res;
    char err[2048];
    (void)state;
    golgen_run2d_opts o = opts(1103, NULL, path("r.mc"));
    o.backend = NULL; /* auto's leaves: the host's */
    assert_int_equal(run(&o, &res, err, sizeof err), GOLGEN_OK);
    assert_int_equal(res.population, 116);
    assert_int_equal(res.generation, 1103);
    assert_int_equal(res.reached, 1103);
    assert_string_equal(res.engine, "hashlife");
    assert_string_equal(res.family, "two-state");
    assert_int_equal(res.written, 1);
    assert_non_null(strstr(said, "golgen: engine auto -> hashlife"));
    assert_non_null(strstr(said, res.summary));
    assert_non_null(strstr(res.summary, "B3/S23: generation 1103, "
                                        "population 116"));
}

/* Engines a and b write the same out for the same run. */
static void engines_agree(const char *in, const char *rule, int64_t gens,
                          const char *a, const char *b, const char *family)
{
    golgen_run2d_result res;
    char err[2048];
    golgen_run2d_opts o = opts(gens, in, path("a.rle"));
    o.rule = rule;
    o.engine = a;
    assert_int_equal(run(&o, &res, err, sizeof err), GOLGEN_OK);
    assert_string_equal(res.family, family);
    int64_t pop = res.population;
    o = opts(gens, in, path("b.rle"));
    o.rule = rule;
    o.engine = b;
    assert_int_equal(run(&o, &res, err, sizeof err), GOLGEN_OK);
    assert_int_equal(res.population, pop);
    assert_true(pop > 0);
    same_file(path("a.rle"), path("b.rle"));
}

static void test_families_and_engines(void **state)
{
    (void)state;
    engines_agree(path("acorn.rle"), NULL, 300, "dense", "hashlife",
                  "two-state");
    engines_agree(path("acorn.rle"), NULL, 300, "tiles", "auto",
                  "two-state");
    engines_agree(path("sparse.rle"), NULL, 40, "dense", "hashlife",
                  "two-state");
    engines_agree(path("tree.mc"), NULL, 40, "dense", "hashlife",
                  "two-state");
    engines_agree(path("gen.rle"), "/2/3", 30, "dense", "hashlife",
                  "generations");
    engines_agree(path("wire.rle"), NULL, 20, "dense", "hashlife", "table");
    engines_agree(path("ltl.rle"), NULL, 10, "dense", "auto", "ltl");
}

/* A caller's pattern runs as a path would, and stays the caller's. */
static void test_pattern_handle(void **state)
{
    golgen_pattern *p;
    golgen_run2d_result res;
    char err[2048];
    (void)state;
    golgen_run2d_opts o = opts(100, path("sparse.rle"), path("a.rle"));
    assert_int_equal(run(&o, &res, err, sizeof err), GOLGEN_OK);
    assert_int_equal(golgen_pattern_read(path("sparse.rle"),
                                         GOLGEN_PATTERN_AS_READ, NULL, &p,
                                         err, sizeof err), GOLGEN_OK);
    const char *engines[] = {"auto", "dense"};
    for (int i = 0; i < 2; i++) {
        o = opts(100, NULL, path("b.rle"));
        o.pattern = p;
        o.engine = engines[i];
        assert_int_equal(run(&o, &res, err, sizeof err), GOLGEN_OK);
        same_file(path("a.rle"), path("b.rle"));
    }
    golgen_pattern_free(p);
}

static void test_store_resume(void **state)
{
    golgen_run2d_result res;
    char err[2048];
    (void)state;
    const char *rules[] = {"B3/S23:T32,32", "23/3/3:T32,32",
                           "WireWorld:T32,32",
                           "R2,C0,M0,S2..3,B3..3,NM:T32,32"};
    const char *ins[] = {"acorn.rle", "gen.rle", "wire.rle", "ltl.rle"};
    for (int i = 0; i < 4; i++) {
        golgen_run2d_opts o = opts(20, path(ins[i]), path("whole.rle"));
        o.rule = rules[i];
        assert_int_equal(run(&o, &res, err, sizeof err), GOLGEN_OK);
        o = opts(12, path(ins[i]), NULL);
        o.rule = rules[i];
        o.store = path("half.ggu");
        o.checkpoint_every = 5;
        assert_int_equal(run(&o, &res, err, sizeof err), GOLGEN_OK);
        o = opts(8, NULL, path("rest.rle"));
        o.resume = path("half.ggu");
        assert_int_equal(run(&o, &res, err, sizeof err), GOLGEN_OK);
        assert_int_equal(res.reached, 8);
        same_file(path("whole.rle"), path("rest.rle"));
    }
}

static int stop_at(void *ctx, const golgen_run2d_progress *p)
{
    (void)ctx;
    return p->done < 10;
}

static void test_stopped_early(void **state)
{
    golgen_run2d_result res;
    char err[2048];
    volatile sig_atomic_t stop = 1;
    (void)state;
    golgen_run2d_opts o = opts(100, path("acorn.rle"), path("a.rle"));
    o.engine = "dense";
    o.on_progress = stop_at;
    assert_int_equal(run(&o, &res, err, sizeof err), GOLGEN_OK);
    assert_true(res.reached >= 10 && res.reached < 100);
    assert_int_equal(res.ran, 1);

    /* a stop before the run: the default pattern (parsed, not read)
     * is written at generation 0 */
    o = opts(100, NULL, path("a.rle"));
    o.stop = &stop;
    assert_int_equal(run(&o, &res, err, sizeof err), GOLGEN_OK);
    assert_int_equal(res.reached, 0);
    assert_int_equal(res.written, 1);
    assert_int_equal(res.stop_exit, 0);

    /* a stop while a file is read: the run fails as for the stop */
    o = opts(100, path("acorn.rle"), path("a.rle"));
    o.stop = &stop;
    assert_int_equal(golgen_run_2d(&o, &res, err, sizeof err),
                     GOLGEN_ERR_INPUT);
    assert_non_null(strstr(err, "stopped while reading"));
    assert_int_equal(res.stop_exit, 1);
}

static void test_refusals(void **state)
{
    golgen_run2d_result res;
    char err[2048];
    (void)state;
    golgen_run2d_opts o = opts(5, path("acorn.rle"), NULL);
    o.engine = "nope";
    assert_int_equal(golgen_run_2d(&o, &res, err, sizeof err),
                     GOLGEN_ERR_INPUT);
    assert_non_null(strstr(err, "nope"));

    o = opts(5, path("acorn.rle"), NULL);
    o.engine = "hashlife";
    o.store = path("x.ggu");
    assert_int_equal(golgen_run_2d(&o, &res, err, sizeof err),
                     GOLGEN_ERR_INPUT);
    assert_non_null(strstr(err, "does not take stores"));

    o = opts(5, path("acorn.rle"), NULL);
    o.backend = "nope";
    assert_int_equal(golgen_run_2d(&o, &res, err, sizeof err),
                     GOLGEN_ERR_INPUT);
    assert_non_null(strstr(err, "or auto (the default)"));

    o = opts(5, path("wire.rle"), NULL);
    o.engine = "tiles";
    assert_int_equal(golgen_run_2d(&o, &res, err, sizeof err),
                     GOLGEN_ERR_INPUT);
    assert_non_null(strstr(err, "does not take --engine tiles"));

    o = opts(5, path("acorn.rle"), NULL);
    o.rule = "3D5/4";
    assert_int_equal(golgen_run_2d(&o, &res, err, sizeof err),
                     GOLGEN_ERR_INPUT);

    o = opts(5, path("acorn.rle"), "/nonexistent/dir/x.rle");
    assert_int_equal(golgen_run_2d(&o, &res, err, sizeof err),
                     GOLGEN_ERR_INPUT);
    assert_int_equal(res.ran, 0);

    o = opts(5, path("acorn.rle"), NULL);
    o.devices = "0,0";
    o.device_mem = 1 << 20;
    assert_int_equal(golgen_run_2d(&o, &res, err, sizeof err),
                     GOLGEN_ERR_INPUT);
    assert_non_null(strstr(err, "do not combine"));

    int ord[4];
    assert_int_equal(golgen_devices_parse("0,1,0", ord, 4, err, sizeof err),
                     3);
    assert_true(ord[0] == 0 && ord[1] == 1 && ord[2] == 0);
    assert_int_equal(golgen_devices_parse("0,x", ord, 4, err, sizeof err),
                     GOLGEN_ERR_INPUT);
    assert_non_null(strstr(err, "device ordinals"));
}

static void test_env_check(void **state)
{
    char err[512];
    int ranks = -1;
    (void)state;
    assert_int_equal(golgen_env_check(&ranks, err, sizeof err), GOLGEN_OK);
    assert_int_equal(ranks, 0);
    setenv("OMPI_COMM_WORLD_SIZE", "3", 1);
    assert_int_equal(golgen_env_check(&ranks, err, sizeof err), GOLGEN_OK);
    assert_int_equal(ranks, 3);
    unsetenv("OMPI_COMM_WORLD_SIZE");
    setenv("GOLGEN_FALLBACK_WORK", "lots", 1);
    assert_int_equal(golgen_env_check(NULL, err, sizeof err),
                     GOLGEN_ERR_INPUT);
    assert_non_null(strstr(err, "GOLGEN_FALLBACK_WORK"));
    unsetenv("GOLGEN_FALLBACK_WORK");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_patterns),
        cmocka_unit_test(test_default_pattern),
        cmocka_unit_test(test_families_and_engines),
        cmocka_unit_test(test_pattern_handle),
        cmocka_unit_test(test_store_resume),
        cmocka_unit_test(test_stopped_early),
        cmocka_unit_test(test_refusals),
        cmocka_unit_test(test_env_check),
    };
    return cmocka_run_group_tests(tests, setup, lib_dir_remove);
}

/* libgolgen's worlds (golgen_0.8, include/golgen/world.h), through
 * include/golgen.h only: a world of every family the viewer shows
 * (two-state on the plane and a torus, Generations, a rule table on a
 * torus and on the plane (the hash tree), Larger than Life, 3D) stepped
 * by the library equals `golgen run` of the same start cell for cell, and
 * the R-pentomino equals bgolly's where bgolly is installed; a stepper
 * keeps its tree across steps, edits and worlds; stops and progress end a
 * step early; cells set, pasted and cleared, windows and shades, 3D
 * slices and the projection, rules changed, soups, files written and read
 * back, and what is refused, with the sentence. */
#include <setjmp.h>
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

static int setup(void **state)
{
    (void)state;
    return lib_dir_make("gg_lib_world");
}

static golgen_world *parse(const char *text, const char *rule)
{
    golgen_world *w;
    char err[512];
    golgen_world_load_opts o = {.rule = rule};
    if (golgen_world_parse(text, strlen(text), &o, &w, err, sizeof err))
        fail_msg("%s: %s", text, err);
    return w;
}

static golgen_world *read_world(const char *p, const char *rule)
{
    golgen_world *w;
    char err[512];
    golgen_world_load_opts o = {.rule = rule};
    if (golgen_world_read(p, &o, &w, err, sizeof err))
        fail_msg("%s: %s", p, err);
    return w;
}

/* The cells of a and b agree in the window (x, y, wd, ht). */
static void same_window(const golgen_world *a, const golgen_world *b,
                        int64_t x, int64_t y, int64_t wd, int64_t ht,
                        const char *what)
{
    uint8_t *ca = malloc((size_t)(wd * ht)), *cb = malloc((size_t)(wd * ht));
    char err[512];
    assert_non_null(ca);
    assert_non_null(cb);
    assert_int_equal(golgen_world_window(a, x, y, wd, ht, ca, err,
                                         sizeof err), GOLGEN_OK);
    assert_int_equal(golgen_world_window(b, x, y, wd, ht, cb, err,
                                         sizeof err), GOLGEN_OK);
    for (int64_t i = 0; i < wd * ht; i++)
        if (ca[i] != cb[i])
            fail_msg("%s: cell (%lld, %lld) is %d, not %d", what,
                     (long long)(x + i % wd), (long long)(y + i / wd), ca[i],
                     cb[i]);
    free(ca);
    free(cb);
}

/* a and b hold the same cells: their boxes, then every cell of them (a
 * 3D grid: every slice). */
static void same_cells(golgen_world *a, golgen_world *b, const char *what)
{
    assert_int_equal(golgen_world_population(a), golgen_world_population(b));
    int64_t depth, da;
    golgen_world_z(a, &depth);
    golgen_world_z(b, &da);
    assert_int_equal(depth, da);
    for (int64_t z = 0; z < (depth ? depth : 1); z++) {
        char err[512];
        if (depth) {
            assert_int_equal(golgen_world_set_z(a, z, err, sizeof err), 0);
            assert_int_equal(golgen_world_set_z(b, z, err, sizeof err), 0);
        }
        int64_t x, y, wd, ht, x2, y2, wd2, ht2;
        int any = golgen_world_bbox(a, &x, &y, &wd, &ht);
        assert_int_equal(any, golgen_world_bbox(b, &x2, &y2, &wd2, &ht2));
        if (!any)
            continue;
        if (x != x2 || y != y2 || wd != wd2 || ht != ht2)
            fail_msg("%s (z %lld): box %lld,%lld %lldx%lld, not %lld,%lld "
                     "%lldx%lld", what, (long long)z, (long long)x,
                     (long long)y, (long long)wd, (long long)ht,
                     (long long)x2, (long long)y2, (long long)wd2,
                     (long long)ht2);
        same_window(a, b, x, y, wd, ht, what);
    }
}

/* `golgen run --gens gens` of w's cells as the world writes them, read
 * back under w's rule. */
static golgen_world *golgen_run(const golgen_world *w, int64_t gens)
{
    const char *golgen = getenv("GG_GOLGEN");
    if (!golgen)
        fail_msg("GG_GOLGEN is not set (meson test sets it)");
    char *text, err[512], rule[256];
    size_t len;
    assert_int_equal(golgen_world_format(w, "rle", &text, &len, err,
                                         sizeof err), GOLGEN_OK);
    int d3 = golgen_world_family(w) == GOLGEN_FAMILY_3D;
    const char *in = path(d3 ? "in.rle3" : "in.rle");
    const char *out = path(d3 ? "out.rle3" : "out.rle");
    write_bytes(in, text, len);
    golgen_free(text);
    golgen_world_rule_name(w, rule, sizeof rule);
    char cmd[1024];
    snprintf(cmd, sizeof cmd, "'%s' run --gens %lld --rule '%s' -o '%s' "
             "'%s' 2>/dev/null", golgen, (long long)gens, rule, out, in);
    if (system(cmd) != 0)
        fail_msg("%s failed", cmd);
    return read_world(out, rule);
}

/* w stepped gens by the library, and by golgen run, cell for cell. */
static void as_golgen_run(golgen_world *w, int64_t gens, const char *what)
{
    golgen_world *ref = golgen_run(w, gens);
    char err[512];
    int64_t g0 = golgen_world_generation(w);
    if (golgen_world_run(w, gens, NULL, err, sizeof err))
        fail_msg("%s: %s", what, err);
    assert_int_equal(golgen_world_generation(w), g0 + gens);
    assert_int_equal(golgen_world_generation(ref), g0 + gens);
    same_cells(w, ref, what);
    printf("world: %s, %lld generations: %lld cells equal golgen run's\n",
           what, (long long)gens, (long long)golgen_world_population(w));
    golgen_world_free(ref);
}

static golgen_world *soup(const char *rule_text, int64_t wd, int64_t ht,
                          int percent, uint64_t seed)
{
    golgen_world_rule *r;
    golgen_world *w;
    char err[512];
    if (golgen_world_rule_parse(rule_text, NULL, &r, err, sizeof err) ||
        golgen_world_soup(r, wd, ht, percent, seed, &w, err, sizeof err))
        fail_msg("%s: %s", rule_text, err);
    golgen_world_rule_free(r);
    return w;
}

static const char rpent[] = "x = 3, y = 3, rule = B3/S23\nb2o$2o$bo!\n";
/* a WireWorld loop with an electron, and copper beside it */
static const char wire[] = "x = 8, y = 4, rule = WireWorld\n"
                           ".BA4C$C6.C$.6C$8C!\n";

static void test_families_as_golgen_run(void **state)
{
    (void)state;
    golgen_world *w = parse(rpent, NULL);
    assert_int_equal(golgen_world_family(w), GOLGEN_FAMILY_TWO_STATE);
    assert_int_equal(golgen_world_topology(w), GOLGEN_TOPO_UNBOUNDED);
    as_golgen_run(w, 300, "B3/S23 on the plane");
    golgen_world_free(w);

    w = soup("B36/S23:T96,64", 96, 64, 30, 3);
    assert_int_equal(golgen_world_topology(w), GOLGEN_TOPO_TORUS);
    as_golgen_run(w, 100, "B36/S23 on a torus");
    golgen_world_free(w);

    w = parse(rpent, "B3/S23:P40,30");
    assert_int_equal(golgen_world_topology(w), GOLGEN_TOPO_BOUNDED);
    as_golgen_run(w, 150, "B3/S23 on a bounded plane");
    golgen_world_free(w);

    w = soup("/2/3:T64,48", 64, 48, 20, 5);
    assert_int_equal(golgen_world_family(w), GOLGEN_FAMILY_GENERATIONS);
    assert_int_equal(golgen_world_states(w), 3);
    as_golgen_run(w, 60, "Brian's Brain (Generations) on a torus");
    golgen_world_free(w);

    w = parse(rpent, "23/3/4");
    as_golgen_run(w, 80, "23/3/4 (Generations) on the plane");
    golgen_world_free(w);

    w = parse(wire, "WireWorld:T20,12");
    assert_int_equal(golgen_world_family(w), GOLGEN_FAMILY_TABLE);
    assert_int_equal(golgen_world_states(w), 4);
    as_golgen_run(w, 50, "WireWorld on a torus");
    golgen_world_free(w);

    w = parse(wire, NULL);
    as_golgen_run(w, 40, "WireWorld on the plane (the hash tree)");
    as_golgen_run(w, 25, "WireWorld on the plane, stepped again");
    golgen_world_free(w);

    w = soup("R5,C0,M1,S34..58,B34..45,NM:T64,64", 64, 64, 45, 9);
    assert_int_equal(golgen_world_family(w), GOLGEN_FAMILY_LTL);
    as_golgen_run(w, 20, "Bosco's rule (Larger than Life) on a torus");
    golgen_world_free(w);

    /* 3D: a 2D soup becomes the middle slice */
    golgen_world *flat = soup("B3/S23:T16,16", 16, 16, 40, 2);
    golgen_world_rule *r;
    char err[512];
    assert_int_equal(golgen_world_rule_parse("3D4/4:T16", NULL, &r, err,
                                             sizeof err), GOLGEN_OK);
    assert_int_equal(golgen_world_rule_family(r), GOLGEN_FAMILY_3D);
    assert_int_equal(golgen_world_with_rule(flat, r, 0, &w, err, sizeof err),
                     GOLGEN_OK);
    golgen_world_rule_free(r);
    int64_t depth;
    assert_int_equal(golgen_world_z(w, &depth), 8);
    assert_int_equal(depth, 16);
    assert_int_equal(golgen_world_population(w),
                     golgen_world_population(flat));
    same_window(w, flat, -8, -8, 16, 16, "the middle slice");
    golgen_world_free(flat);
    as_golgen_run(w, 6, "3D4/4 on a 16^3 torus");
    golgen_world_free(w);
}

/* bgolly's HashLife from the same start (its output has no position: the
 * trimmed cells). */
static void test_bgolly(void **state)
{
    (void)state;
    if (system("command -v bgolly >/dev/null 2>&1") != 0) {
        printf("world: no bgolly, its comparison skipped\n");
        return;
    }
    write_text(path("rpent.rle"), rpent);
    char cmd[512];
    snprintf(cmd, sizeof cmd, "bgolly -a HashLife -q -q -m 1103 -o '%s' "
             "'%s' >/dev/null 2>&1", path("bgolly.rle"), path("rpent.rle"));
    assert_int_equal(system(cmd), 0);
    golgen_world *b = read_world(path("bgolly.rle"), NULL);
    golgen_world *w = read_world(path("rpent.rle"), NULL);
    char err[512];
    assert_int_equal(golgen_world_run(w, 1103, "cpu", err, sizeof err), 0);
    assert_int_equal(golgen_world_population(w), 116);
    assert_int_equal(golgen_world_population(b), 116);
    int64_t x, y, wd, ht, bx, by, bw, bh;
    assert_int_equal(golgen_world_bbox(w, &x, &y, &wd, &ht), 1);
    assert_int_equal(golgen_world_bbox(b, &bx, &by, &bw, &bh), 1);
    assert_int_equal(wd, bw);
    assert_int_equal(ht, bh);
    uint8_t *cw = malloc((size_t)(wd * ht)), *cb = malloc((size_t)(wd * ht));
    assert_int_equal(golgen_world_window(w, x, y, wd, ht, cw, err,
                                         sizeof err), 0);
    assert_int_equal(golgen_world_window(b, bx, by, bw, bh, cb, err,
                                         sizeof err), 0);
    assert_memory_equal(cw, cb, (size_t)(wd * ht));
    printf("world: the R-pentomino at 1103 equals bgolly's, 116 cells\n");
    free(cw);
    free(cb);
    golgen_world_free(w);
    golgen_world_free(b);
}

/* A stepper keeps its tree (and memo) between steps; an edit, or another
 * world, puts the cells in again. */
static void test_stepper_tree(void **state)
{
    (void)state;
    char err[512];
    golgen_world *a = parse(wire, NULL), *b = parse(wire, NULL);
    golgen_world *c = parse(wire, NULL);
    golgen_world_rule *r;
    golgen_world_stepper *st;
    assert_int_equal(golgen_world_get_rule(a, &r), 0);
    golgen_world_stepper_opts o = {.backend = "cpu"};
    assert_int_equal(golgen_world_stepper_open(r, &o, &st, err, sizeof err),
                     GOLGEN_OK);
    assert_non_null(strstr(golgen_world_stepper_name(st), "tree"));
    assert_string_equal(golgen_world_stepper_auto_line(st), "");
    /* a: 10 + 10; b: 20 at once; with c stepped between a's steps */
    assert_int_equal(golgen_world_step(st, a, 10, NULL, err, sizeof err), 0);
    assert_int_equal(golgen_world_step(st, c, 3, NULL, err, sizeof err), 0);
    assert_int_equal(golgen_world_step(st, a, 10, NULL, err, sizeof err), 0);
    assert_int_equal(golgen_world_step(st, b, 20, NULL, err, sizeof err), 0);
    same_cells(a, b, "10 + 10 generations (another world between)");
    /* an edit: the tree takes the cells again */
    assert_int_equal(golgen_world_set(a, 3, 3, 3, err, sizeof err), 0);
    assert_int_equal(golgen_world_set(b, 3, 3, 3, err, sizeof err), 0);
    assert_int_equal(golgen_world_step(st, a, 7, NULL, err, sizeof err), 0);
    golgen_world *fresh = golgen_run(b, 7);
    same_cells(a, fresh, "stepped after an edit");
    golgen_world_free(fresh);
    /* a stepper of another family's rule is refused */
    golgen_world *life = parse(rpent, NULL);
    assert_int_equal(golgen_world_step(st, life, 1, NULL, err, sizeof err),
                     GOLGEN_ERR_INPUT);
    assert_non_null(strstr(err, "another family"));
    golgen_world_stepper_close(st);
    golgen_world_rule_free(r);
    golgen_world_free(a);
    golgen_world_free(b);
    golgen_world_free(c);
    golgen_world_free(life);
}

static int stop_after(void *ctx, int64_t done, int64_t total)
{
    int64_t *calls = ctx;
    (void)total;
    ++*calls;
    return done < 5; /* ends the step once 5 are done */
}

/* A stop set before the step runs none; progress ends one early. */
static void test_stop_progress(void **state)
{
    (void)state;
    char err[512];
    golgen_world *w = parse(rpent, NULL);
    golgen_world_rule *r;
    golgen_world_stepper *st;
    assert_int_equal(golgen_world_get_rule(w, &r), 0);
    assert_int_equal(golgen_world_stepper_open(r, NULL, &st, err,
                                               sizeof err), 0);
    assert_non_null(strstr(golgen_world_stepper_auto_line(st),
                           "backend auto -> "));
    volatile sig_atomic_t stop = 1;
    golgen_world_step_opts so = {.stop = &stop};
    assert_int_equal(golgen_world_step(st, w, 100, &so, err, sizeof err), 0);
    assert_int_equal(golgen_world_generation(w), 0);
    int64_t calls = 0;
    so = (golgen_world_step_opts){.on_progress = stop_after, .ctx = &calls};
    assert_int_equal(golgen_world_step(st, w, 1000, &so, err, sizeof err),
                     0);
    assert_true(calls >= 1);
    assert_true(golgen_world_generation(w) >= 5);
    assert_true(golgen_world_generation(w) < 1000);
    golgen_world_stepper_close(st);
    golgen_world_rule_free(r);
    golgen_world_free(w);
    /* a bounded grid's step, told a call at a time */
    w = soup("B3/S23:T64,64", 64, 64, 50, 1);
    assert_int_equal(golgen_world_get_rule(w, &r), 0);
    golgen_world_stepper_opts o = {.backend = "reference"};
    assert_int_equal(golgen_world_stepper_open(r, &o, &st, err, sizeof err),
                     0);
    assert_string_equal(golgen_world_stepper_name(st), "reference");
    calls = 0;
    assert_int_equal(golgen_world_step(st, w, 3, &so, err, sizeof err), 0);
    assert_true(calls >= 1);
    assert_int_equal(golgen_world_generation(w), 3);
    golgen_world_stepper_close(st);
    golgen_world_rule_free(r);
    golgen_world_free(w);
}

static void test_edits(void **state)
{
    (void)state;
    char err[512];
    /* the plane grows to take a cell far off */
    golgen_world *w = parse(rpent, NULL);
    int64_t x, y, wd, ht;
    assert_int_equal(golgen_world_set(w, 1000, -500, 1, err, sizeof err), 0);
    assert_int_equal(golgen_world_get(w, 1000, -500), 1);
    assert_int_equal(golgen_world_population(w), 6);
    assert_int_equal(golgen_world_bbox(w, &x, &y, &wd, &ht), 1);
    assert_int_equal(x, 0);
    assert_int_equal(y, -500);
    assert_int_equal(wd, 1001);
    assert_int_equal(ht, 503);
    assert_int_equal(golgen_world_set(w, 0, 0, 2, err, sizeof err),
                     GOLGEN_ERR_INPUT);
    assert_non_null(strstr(err, "states 0 .. 1"));
    /* a paste lays live cells over, at its top-left cell */
    assert_int_equal(golgen_world_paste(w, rpent, strlen(rpent), 100, 100,
                                        err, sizeof err), 0);
    assert_int_equal(golgen_world_population(w), 11);
    assert_int_equal(golgen_world_get(w, 101, 100), 1);
    assert_int_equal(golgen_world_paste(w, "x = 1", 5, 0, 0, err,
                                        sizeof err), GOLGEN_ERR_INPUT);
    golgen_world_clear(w);
    assert_int_equal(golgen_world_population(w), 0);
    assert_int_equal(golgen_world_bbox(w, &x, &y, &wd, &ht), 0);
    assert_int_equal(wd, 0);
    golgen_world_free(w);
    /* a torus wraps; a bounded plane refuses a cell outside */
    w = parse(rpent, "B3/S23:T10,10");
    assert_int_equal(golgen_world_set(w, 12, 12, 1, err, sizeof err), 0);
    assert_int_equal(golgen_world_get(w, 2, 2), 1);
    golgen_world_free(w);
    w = parse(rpent, "B3/S23:P10,10");
    assert_int_equal(golgen_world_set(w, 12, 12, 1, err, sizeof err),
                     GOLGEN_ERR_INPUT);
    assert_non_null(strstr(err, "outside the bounded grid"));
    int64_t ex, ey, ew, eh;
    golgen_world_extent(w, &ex, &ey, &ew, &eh);
    assert_int_equal(ex, -5);
    assert_int_equal(ew, 10);
    golgen_world_free(w);
    /* Generations: states drawn as they are */
    w = parse(rpent, "23/3/5");
    assert_int_equal(golgen_world_set(w, 5, 5, 4, err, sizeof err), 0);
    assert_int_equal(golgen_world_get(w, 5, 5), 4);
    golgen_world_free(w);
}

static void test_render(void **state)
{
    (void)state;
    char err[512];
    golgen_world *w = parse("x = 4, y = 4, rule = B3/S23\n4o$4o$4o$4o!\n",
                            NULL);
    uint8_t out[16];
    /* level 2: one 4x4 square, all alive */
    golgen_world_render(w, 0, 0, 2, 1, 2, 0, out);
    assert_int_equal(out[0], 255);
    assert_int_equal(out[1], 0);
    /* level 1: four 2x2 squares; sampled one row of each: still full */
    golgen_world_render(w, 0, 0, 2, 2, 1, 1, out);
    assert_int_equal(out[0], 255);
    assert_int_equal(out[3], 255);
    assert_int_equal(golgen_world_window(w, 0, 0, 0, 4, out, err,
                                         sizeof err), GOLGEN_ERR_INPUT);
    golgen_world_free(w);
    /* a rule table's @COLORS */
    w = parse(wire, NULL);
    uint8_t rgb[256][3];
    int coloured = golgen_world_colours(w, rgb);
    printf("world: WireWorld %s @COLORS\n", coloured ? "has" : "has no");
    golgen_world_free(w);
    w = parse(rpent, NULL);
    assert_int_equal(golgen_world_colours(w, rgb), 0);
    golgen_world_free(w);
}

static void test_3d(void **state)
{
    (void)state;
    char err[512];
    static const char g3[] = "3D version=1 size=8 pos=2,2,3\n"
                             "x=3 y=3 z=2 rule=3D5..7/6\n"
                             "bo$2bo$3o/3o$3o$3o!\n";
    golgen_world *w = parse(g3, NULL);
    assert_int_equal(golgen_world_family(w), GOLGEN_FAMILY_3D);
    int64_t depth;
    assert_int_equal(golgen_world_z(w, &depth), 4);
    assert_int_equal(depth, 8);
    assert_int_equal(golgen_world_population(w), 14);
    /* the projection: every plane's box, not edited */
    assert_int_equal(golgen_world_set_z(w, GOLGEN_WORLD_Z_SUM, err,
                                        sizeof err), 0);
    int64_t x, y, wd, ht;
    assert_int_equal(golgen_world_bbox(w, &x, &y, &wd, &ht), 1);
    assert_int_equal(wd, 3);
    assert_int_equal(ht, 3);
    assert_int_equal(golgen_world_set(w, 0, 0, 1, err, sizeof err),
                     GOLGEN_ERR_INPUT);
    assert_non_null(strstr(err, "projection"));
    assert_int_equal(golgen_world_set_z(w, 8, err, sizeof err),
                     GOLGEN_ERR_INPUT);
    assert_int_equal(golgen_world_set_z(w, 3, err, sizeof err), 0);
    /* slice 3 is the pattern's first: its cells at pos 2,2 (grid), Golly
     * (-4, -4) the grid's corner */
    assert_int_equal(golgen_world_get(w, -4 + 3, -4 + 2), 1);
    assert_int_equal(golgen_world_set(w, -4, -4, 1, err, sizeof err), 0);
    assert_int_equal(golgen_world_population(w), 15);
    /* no macrocell form; RLE3 written and read back */
    char *text;
    size_t len;
    assert_int_equal(golgen_world_format(w, "mc", &text, &len, err,
                                         sizeof err), GOLGEN_ERR_INPUT);
    assert_int_equal(golgen_world_write(w, path("w.rle3"), err, sizeof err),
                     0);
    golgen_world *back = read_world(path("w.rle3"), NULL);
    same_cells(w, back, "a 3D grid written and read back");
    golgen_world_free(back);
    /* soups are 2D */
    golgen_world_rule *r;
    assert_int_equal(golgen_world_get_rule(w, &r), 0);
    assert_int_equal(golgen_world_soup(r, 8, 8, 50, 1, &back, err,
                                       sizeof err), GOLGEN_ERR_INPUT);
    golgen_world_rule_free(r);
    golgen_world_free(w);
}

static void test_files(void **state)
{
    (void)state;
    char err[512];
    golgen_world *w = parse(wire, NULL);
    assert_int_equal(golgen_world_run(w, 5, NULL, err, sizeof err), 0);
    const char *names[] = {"w.rle", "w.mc"};
    for (int i = 0; i < 2; i++) {
        assert_int_equal(golgen_world_write(w, path(names[i]), err,
                                            sizeof err), 0);
        golgen_world *back = read_world(path(names[i]), NULL);
        assert_int_equal(golgen_world_generation(back), 5);
        same_cells(w, back, names[i]);
        golgen_world_free(back);
    }
    golgen_image *im;
    assert_int_equal(golgen_world_image(w, &im, err, sizeof err), 0);
    int64_t x, y, wd, ht;
    golgen_world_bbox(w, &x, &y, &wd, &ht);
    assert_int_equal(im->width, wd);
    assert_int_equal(im->height, ht);
    assert_true(im->colours >= 2);
    golgen_image_free(im);
    int png = golgen_world_write(w, path("w.png"), err, sizeof err);
    assert_true(png == GOLGEN_OK || png == GOLGEN_ERR_ENV);
    assert_int_equal(golgen_world_write(w, "-", err, sizeof err),
                     GOLGEN_ERR_INPUT);
    assert_non_null(strstr(err, "golgen_world_format gives the text"));
    assert_int_equal(golgen_world_write(w, "", err, sizeof err),
                     GOLGEN_ERR_INPUT);
    assert_non_null(strstr(err, "give a file name"));
    golgen_world_free(w);
}

static void test_refusals(void **state)
{
    (void)state;
    char err[512];
    golgen_world_rule *r;
    golgen_world *w;
    assert_int_equal(golgen_world_rule_parse("NoSuchRule", NULL, &r, err,
                                             sizeof err), GOLGEN_ERR_INPUT);
    assert_null(r);
    assert_non_null(strstr(err, "rule file"));
    assert_int_equal(golgen_world_rule_parse("R2,C0,M1,S2..3,B3..3,NX",
                                             NULL, &r, err, sizeof err),
                     GOLGEN_ERR_INPUT);
    assert_non_null(strstr(err, "Larger than Life"));
    golgen_world_load_opts o = {.rule = "B3/S23:T4096,4096",
                                .max_cells = 1 << 20};
    assert_int_equal(golgen_world_parse(rpent, strlen(rpent), &o, &w, err,
                                        sizeof err), GOLGEN_ERR_INPUT);
    assert_null(w);
    /* in words of no one caller, ending as the header says, so that golgen
     * serve can put its own way round there */
    assert_non_null(strstr(err, "B3/S23:T4096,4096 cells: more than the "
                                "1048576 cells"));
    assert_null(strstr(err, "page"));
    assert_string_equal(err + strlen(err) -
                            strlen(GOLGEN_WORLD_PAST_MAX_CELLS),
                        GOLGEN_WORLD_PAST_MAX_CELLS);
    assert_int_equal(golgen_world_parse(rpent, 5, NULL, &w, err, sizeof err),
                     GOLGEN_ERR_INPUT);
    /* an RLE3 under a 2D rule */
    static const char one3d[] = "3D version=1 size=4\nx=1 y=1 z=1 "
                                "rule=3D5..7/6\no!\n";
    o = (golgen_world_load_opts){.rule = "B3/S23"};
    assert_int_equal(golgen_world_parse(one3d, sizeof one3d - 1, &o, &w, err,
                                        sizeof err), GOLGEN_ERR_INPUT);
    assert_non_null(strstr(err, "3D"));
    assert_int_equal(golgen_world_backend_check("nope", err, sizeof err),
                     GOLGEN_ERR_INPUT);
    assert_non_null(strstr(err, "or auto (the default)"));
    assert_int_equal(golgen_world_backend_check(NULL, err, sizeof err), 0);
    assert_int_equal(golgen_world_backend_check("cpu", err, sizeof err), 0);
    /* a rule table named for a backend that does not run them */
    w = parse(wire, NULL);
    assert_int_equal(golgen_world_run(w, 1, "reference", err, sizeof err),
                     0);
    golgen_world_free(w);
    w = parse(rpent, NULL);
    assert_int_equal(golgen_world_run(w, -1, NULL, err, sizeof err),
                     GOLGEN_ERR_INPUT);
    assert_int_equal(golgen_world_run(w, 1, "nope", err, sizeof err),
                     GOLGEN_ERR_INPUT);
    golgen_world_free(w);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_families_as_golgen_run),
        cmocka_unit_test(test_bgolly),
        cmocka_unit_test(test_stepper_tree),
        cmocka_unit_test(test_stop_progress),
        cmocka_unit_test(test_edits),
        cmocka_unit_test(test_render),
        cmocka_unit_test(test_3d),
        cmocka_unit_test(test_files),
        cmocka_unit_test(test_refusals),
    };
    return cmocka_run_group_tests(tests, setup, lib_dir_remove);
}

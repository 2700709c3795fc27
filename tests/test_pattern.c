/* Pattern I/O: RLE, .cells and Life 1.05/1.06 readers, the RLE writer,
 * Golly's placement conventions, bad input and the atomic write. Expected
 * values are written out by hand or come from bgolly 3.3 output stored in
 * tests/data/patterns. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "test_util.h"

#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include "atomic_file.h"
#include "pattern.h"
#include "rle_runs.h"

static char path_buf[4096];

static const char *data(const char *name)
{
    const char *root = getenv("GG_SOURCE_ROOT");
    snprintf(path_buf, sizeof path_buf, "%s/tests/data/patterns/%s",
             root ? root : ".", name);
    return path_buf;
}

static void read_ok(const char *name, gg_pattern *p)
{
    gg_err err = {{0}};
    int rc = gg_pattern_read(data(name), p, &err);
    if (rc)
        print_error("%s\n", err.msg);
    assert_int_equal(rc, 0);
}

static void parse_ok(const char *text, gg_pattern *p)
{
    gg_err err = {{0}};
    int rc = gg_pattern_parse(text, strlen(text), "inline", p, &err);
    if (rc)
        print_error("%s\n", err.msg);
    assert_int_equal(rc, 0);
}

/* Cells as a string of rows, '.' 0, 'A'.. for states (two-state: 'A' = 1),
 * rows separated by '/'. */
static char *cells_of(const gg_pattern *p)
{
    int64_t w = gg_pattern_width(p), h = gg_pattern_height(p);
    char *s = malloc((size_t)((w + 1) * h + 1));
    char *o = s;
    for (int64_t y = 0; y < h; y++) {
        for (int64_t x = 0; x < w; x++) {
            int st = gg_pattern_get(p, x, y);
            *o++ = st ? (char)('A' + (st - 1) % 26) : '.';
        }
        if (y + 1 < h)
            *o++ = '/';
    }
    *o = 0;
    return s;
}

static void assert_cells(const gg_pattern *p, const char *want)
{
    char *got = cells_of(p);
    if (strcmp(got, want) != 0)
        print_error("cells %s, want %s\n", got, want);
    assert_string_equal(got, want);
    free(got);
}

static char *format(const gg_pattern *p)
{
    char *t;
    size_t n;
    gg_err err = {{0}};
    int rc = gg_pattern_format_rle(p, &t, &n, &err);
    if (rc)
        print_error("%s\n", err.msg);
    assert_int_equal(rc, 0);
    assert_int_equal(strlen(t), n);
    return t;
}

static void write_file(const char *path, const char *text)
{
    FILE *f = fopen(path, "wb");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
}

static char tmpdir[256];

static int setup_tmp(void **state)
{
    (void)state;
    snprintf(tmpdir, sizeof tmpdir, "/tmp/gg_test_pattern.XXXXXX");
    return mkdtemp(tmpdir) ? 0 : -1;
}

static int teardown_tmp(void **state)
{
    (void)state;
    return gg_test_rmtree(tmpdir);
}

static const char *tmp(const char *name)
{
    static char buf[512];
    snprintf(buf, sizeof buf, "%s/%s", tmpdir, name);
    return buf;
}

static int count_entries(const char *dir)
{
    DIR *d = opendir(dir);
    if (!d)
        return -1;
    int n = 0;
    struct dirent *e;
    while ((e = readdir(d)))
        if (strcmp(e->d_name, ".") && strcmp(e->d_name, ".."))
            n++;
    closedir(d);
    return n;
}

/* ---- readers ---- */

#define GLIDER ".A./..A/AAA"

static void test_glider_three_formats(void **state)
{
    (void)state;
    gg_pattern r, c, l;
    read_ok("glider.rle", &r);
    read_ok("glider.cells", &c);
    read_ok("glider.lif", &l);
    assert_cells(&r, GLIDER);
    assert_cells(&c, GLIDER);
    assert_cells(&l, GLIDER);
    /* Golly: RLE without #CXRLE Pos, .cells and these 1.06 coordinates all
     * put the top-left cell at (0, 0). */
    assert_true(r.x == 0 && r.y == 0 && c.x == 0 && c.y == 0 && l.x == 0 &&
                l.y == 0);
    assert_string_equal(r.rule, "B3/S23");
    assert_null(c.rule);
    assert_null(l.rule);
    assert_string_equal(r.comments, "#N Glider\n#O Richard K. Guy\n"
                                    "#C The smallest, most common "
                                    "spaceship.\n");
    assert_string_equal(c.comments, "#N Glider\n#C Author: Richard K. Guy\n");
    assert_string_equal(l.comments, "#D Glider\n");
    assert_int_equal(r.n_planes, 1);
    assert_false(r.multistate);
    assert_int_equal(gg_pattern_max_state(&r), 1);
    assert_int_equal(gg_grid_population(&r.plane[0]), 5);
    gg_pattern_free(&r);
    gg_pattern_free(&c);
    gg_pattern_free(&l);
}

static void test_life_positions(void **state)
{
    (void)state;
    gg_pattern a, b, d;
    read_ok("glider-shifted.lif", &a); /* 1.06: absolute coordinates */
    assert_cells(&a, GLIDER);
    assert_true(a.x == -10 && a.y == 5);
    read_ok("glider-105.lif", &b); /* 1.05: block at #P -10 5 */
    assert_cells(&b, GLIDER);
    assert_true(b.x == -10 && b.y == 5);
    assert_null(b.rule); /* #N: normal Life */
    assert_string_equal(b.comments, "#D Glider at -10,5\n");
    read_ok("blocks-105.lif", &d);
    assert_string_equal(d.rule, "23/3");
    assert_true(d.x == -3 && d.y == -3);
    assert_int_equal(gg_pattern_width(&d), 9);
    assert_int_equal(gg_pattern_height(&d), 6);
    /* Rows -3, -2 from the first #P; rows 1, 2 from the second. */
    assert_cells(&d, "AA......./AA......./........./"
                     "........./.......AA/.......AA");
    gg_pattern_free(&a);
    gg_pattern_free(&b);
    gg_pattern_free(&d);
}

static void test_rle_position_and_generation(void **state)
{
    (void)state;
    gg_pattern p, t, w;
    read_ok("glider-pos.rle", &p);
    assert_true(p.x == -5 && p.y == 7);
    assert_true(p.generation == 42);
    assert_string_equal(p.comments, "#CXRLE Pos=-5,7 Gen=42\n"
                                    "#C placed by Golly\n");
    /* Bounded grid without Pos: Golly centres the box, -(w/2), -(h/2). */
    read_ok("glider-torus.rle", &t);
    assert_true(t.x == -2 && t.y == -1);
    assert_int_equal(gg_pattern_width(&t), 5);
    assert_cells(&t, ".A.../..A../AAA..");
    /* ... unless the box is wider than the grid: the grid's corner. */
    read_ok("glider-torus-wide.rle", &w);
    assert_true(w.x == -10 && w.y == -5);
    gg_pattern_free(&p);
    gg_pattern_free(&t);
    gg_pattern_free(&w);

    int64_t x, y;
    gg_pattern_default_pos("B3/S23", 5, 3, &x, &y);
    assert_true(x == 0 && y == 0);
    gg_pattern_default_pos(NULL, 5, 3, &x, &y);
    assert_true(x == 0 && y == 0);
    gg_pattern_default_pos("LifeHistory:T30+7,20", 4, 5, &x, &y);
    assert_true(x == -2 && y == -2);
    gg_pattern_default_pos("LifeHistory:S30", 20, 20, &x, &y);
    assert_true(x == -10 && y == -10);
    gg_pattern_default_pos("B3/S23:P40,0", 7, 9, &x, &y); /* tube */
    assert_true(x == -3 && y == -4);
    gg_pattern_default_pos("B3/S23:T10,10", 0, 0, &x, &y); /* no header */
    assert_true(x == -5 && y == -5);
}

static void test_rle_syntax_variants(void **state)
{
    (void)state;
    gg_pattern p;
    read_ok("headerless.rle", &p); /* "2$b3o$o!": box from the cells */
    assert_int_equal(gg_pattern_width(&p), 4);
    assert_int_equal(gg_pattern_height(&p), 4);
    assert_cells(&p, "..../..../.AAA/A...");
    assert_true(p.x == 0 && p.y == 0);
    assert_null(p.rule);
    gg_pattern_free(&p);

    read_ok("crlf.rle", &p); /* CRLF, no spaces in the header */
    assert_cells(&p, GLIDER);
    assert_string_equal(p.rule, "B36/S23");
    gg_pattern_free(&p);

    read_ok("trailing-junk.rle", &p);
    assert_cells(&p, GLIDER);
    gg_pattern_free(&p);

    read_ok("hash-r.rle", &p); /* #r gives the rule when the header has none */
    assert_string_equal(p.rule, "23/3");
    assert_cells(&p, "AA/AA");
    gg_pattern_free(&p);

    read_ok("leading-blank.rle", &p);
    assert_cells(&p, "A");
    assert_string_equal(p.comments, "#C leading blank lines\n");
    gg_pattern_free(&p);

    read_ok("empty-pattern.rle", &p);
    assert_int_equal(gg_pattern_width(&p), 0);
    assert_int_equal(gg_pattern_height(&p), 0);
    assert_int_equal(gg_pattern_max_state(&p), 0);
    assert_int_equal(p.n_planes, 1);
    char *t = format(&p);
    assert_string_equal(t, "x = 0, y = 0, rule = B3/S23\n!\n");
    free(t);
    gg_pattern_free(&p);

    /* Long runs, counted blank rows, spaces between tokens, a comment
     * between data lines. */
    read_ok("runs.rle", &p);
    assert_int_equal(gg_pattern_width(&p), 100);
    assert_int_equal(gg_pattern_height(&p), 10);
    assert_int_equal(gg_grid_population(&p.plane[0]), 100 + 98 + 1);
    for (int x = 0; x < 100; x++) {
        assert_int_equal(gg_pattern_get(&p, x, 0), 1);
        assert_int_equal(gg_pattern_get(&p, x, 4), x >= 1 && x <= 98);
        assert_int_equal(gg_pattern_get(&p, x, 9), x == 99);
    }
    assert_string_equal(p.comments, "#C blank rows and long runs\n"
                                    "#C a comment between data lines\n");
    gg_pattern_free(&p);

    /* A run count split by a line break continues, as bgolly reads it. */
    parse_ok("x = 3, y = 2\no$3\no!", &p);
    assert_cells(&p, "A../AAA");
    gg_pattern_free(&p);
    parse_ok("x = 12, y = 1\n1\r\n2o!", &p);
    assert_int_equal(gg_grid_population(&p.plane[0]), 12);
    gg_pattern_free(&p);

    /* Header spacing and a rule with a trailing comma, as Golly allows. */
    parse_ok("x=2 ,y= 1 , rule = B3/S23,\n2o!", &p);
    assert_string_equal(p.rule, "B3/S23");
    assert_cells(&p, "AA");
    gg_pattern_free(&p);

    /* A lone p..y is state 1 in Golly; o, too. */
    parse_ok("x = 3, y = 1\nopq!", &p);
    assert_cells(&p, "AAA");
    gg_pattern_free(&p);
}

static void test_multistate(void **state)
{
    (void)state;
    gg_pattern p, q;
    read_ok("multistate.rle", &p);
    assert_true(p.multistate);
    assert_int_equal(p.n_planes, 8);
    assert_int_equal(gg_pattern_max_state(&p), 255);
    int want[3][8] = {{0, 1, 0, 2, 0, 3, 0, 0},
                      {4, 5, 5, 0, 6, 0, 0, 0},
                      {25, 255, 0, 0, 0, 0, 0, 0}};
    for (int y = 0; y < 3; y++)
        for (int x = 0; x < 8; x++)
            assert_int_equal(gg_pattern_get(&p, x, y), want[y][x]);
    char *t = format(&p);
    assert_string_equal(t, "#C LifeHistory states 1..6 and a two-letter "
                           "state\nx = 8, y = 3, rule = LifeHistory\n"
                           ".A.B.C$D2E.F$pAyO!\n");
    parse_ok(t, &q);
    assert_true(gg_pattern_equal(&p, &q));
    free(t);
    gg_pattern_free(&q);
    gg_pattern_free(&p);

    /* Every state 1..255 in one row: letters A..X, pA..yO, back unchanged. */
    gg_err err;
    assert_int_equal(gg_pattern_init(&p, 255, 2, 1, &err), 0);
    for (int s = 1; s <= 255; s++)
        assert_int_equal(gg_pattern_set(&p, s - 1, 1, s, &err), 0);
    assert_int_equal(p.n_planes, 8);
    t = format(&p);
    assert_non_null(strstr(t, "$ABCDEFGHIJKLMNOPQRSTUVWXpApBpC"));
    for (char *l = t; *l;) {
        char *nl = strchr(l, '\n');
        assert_true(nl - l <= 70);
        l = nl + 1;
    }
    parse_ok(t, &q);
    assert_true(gg_pattern_equal(&p, &q));
    free(t);
    gg_pattern_free(&q);
    gg_pattern_free(&p);

    /* LifeHistory with only state 1 stays in multi-state letters. */
    parse_ok("x = 3, y = 1, rule = LifeHistory\n3A!", &p);
    assert_int_equal(p.n_planes, 1);
    t = format(&p);
    assert_string_equal(t, "x = 3, y = 1, rule = LifeHistory\n3A!\n");
    free(t);
    gg_pattern_free(&p);
}

static void test_cells_format(void **state)
{
    (void)state;
    gg_pattern p;
    /* Blank rows count, trailing blank lines do not; 'O', 'o', '*' live. */
    parse_ok("!Name: x\n!\nO..\n\n.*o\n\n\n", &p);
    assert_int_equal(gg_pattern_width(&p), 3);
    assert_int_equal(gg_pattern_height(&p), 3);
    assert_cells(&p, "A../.../.AA");
    assert_string_equal(p.comments, "#N x\n#C\n");
    gg_pattern_free(&p);
    /* No '!' line at all: still plaintext (Golly's text pattern). */
    parse_ok(".O\nO.\n", &p);
    assert_cells(&p, ".A/A.");
    gg_pattern_free(&p);
}

/* ---- writer ---- */

static void test_writer_golly_style(void **state)
{
    (void)state;
    gg_pattern p;
    read_ok("glider.rle", &p);
    char *t = format(&p);
    assert_string_equal(t, "#N Glider\n#O Richard K. Guy\n#C The smallest, "
                           "most common spaceship.\nx = 3, y = 3, rule = "
                           "B3/S23\nbo$2bo$3o!\n");
    free(t);
    /* Moved: a #CXRLE line appears first, as Golly writes it. */
    p.x = -1;
    p.y = 2;
    t = format(&p);
    assert_true(strncmp(t, "#CXRLE Pos=-1,2\n#N Glider\n", 26) == 0);
    free(t);
    p.generation = 7;
    t = format(&p);
    assert_true(strncmp(t, "#CXRLE Pos=-1,2 Gen=7\n", 22) == 0);
    free(t);
    gg_pattern_free(&p);

    /* The file's own #CXRLE line is kept while it still holds ... */
    read_ok("glider-pos.rle", &p);
    t = format(&p);
    assert_string_equal(t, "#CXRLE Pos=-5,7 Gen=42\n#C placed by Golly\n"
                           "x = 3, y = 3, rule = B3/S23\nbo$2bo$3o!\n");
    free(t);
    /* ... and replaced when it does not. */
    p.x = 0;
    p.y = 0;
    p.generation = 0;
    t = format(&p);
    assert_string_equal(t, "#CXRLE Pos=0,0\n#C placed by Golly\n"
                           "x = 3, y = 3, rule = B3/S23\nbo$2bo$3o!\n");
    free(t);
    gg_pattern_free(&p);

    /* Bounded grid at its default (centred) place: no #CXRLE needed. */
    read_ok("glider-torus.rle", &p);
    t = format(&p);
    assert_string_equal(t, "x = 5, y = 3, rule = B3/S23:T20,10\n"
                           "bo$2bo$3o!\n");
    free(t);
    gg_pattern_free(&p);

    /* Blank rows and trailing dead cells as Golly: "$" counts, no trailing
     * b, no trailing $ before '!', no count for runs of one. */
    read_ok("runs.rle", &p);
    t = format(&p);
    assert_string_equal(t, "#C blank rows and long runs\n#C a comment "
                           "between data lines\nx = 100, y = 10\n"
                           "100o4$b98o5$99bo!\n");
    free(t);
    gg_pattern_free(&p);
}

static void test_writer_line_length(void **state)
{
    (void)state;
    gg_pattern p, q;
    gg_err err;
    assert_int_equal(gg_pattern_init(&p, 1000, 50, 1, &err), 0);
    gg_grid_random(&p.plane[0], 0.3, 99);
    p.rule = strdup("B3/S23");
    char *t = format(&p);
    int lines = 0;
    for (char *l = t; *l; lines++) {
        char *nl = strchr(l, '\n');
        assert_non_null(nl);
        assert_true(nl - l <= 70);
        l = nl + 1;
    }
    assert_true(lines > 100);
    parse_ok(t, &q);
    assert_true(gg_pattern_equal(&p, &q));
    free(t);
    gg_pattern_free(&p);
    gg_pattern_free(&q);
}

/* Soups of several sizes and densities through the word-at-a-time paths
 * (reader blocks, writer boundary walk) and back, compared to the grid. */
static void test_soup_round_trip(void **state)
{
    (void)state;
    const int64_t sizes[][2] = {{1, 1}, {63, 5}, {64, 3}, {65, 7},
                                {333, 41}, {1000, 17}, {4097, 9}};
    const double dens[] = {0.5, 0.05, 0.95, 1.0};
    for (size_t i = 0; i < sizeof sizes / sizeof *sizes; i++)
        for (size_t d = 0; d < sizeof dens / sizeof *dens; d++) {
            gg_pattern p, q;
            gg_err err;
            assert_int_equal(gg_pattern_init(&p, sizes[i][0], sizes[i][1], 1,
                                             &err), 0);
            gg_grid_random(&p.plane[0], dens[d], 7 + i);
            char *t = format(&p);
            parse_ok(t, &q);
            if (!gg_pattern_equal(&p, &q))
                print_error("soup %lldx%lld density %.2f differs\n",
                            (long long)sizes[i][0], (long long)sizes[i][1],
                            dens[d]);
            assert_true(gg_pattern_equal(&p, &q));
            gg_pattern_free(&q);
            /* The same data as one long line (tokens never span lines, so
             * dropping the line breaks keeps it valid) runs the reader's
             * 64-byte block path over whole rows. */
            char *body = strchr(t, '\n') + 1, *o = body;
            for (char *c = body; *c; c++)
                if (*c != '\n')
                    *o++ = *c;
            *o = 0;
            parse_ok(t, &q);
            assert_true(gg_pattern_equal(&p, &q));
            free(t);
            gg_pattern_free(&p);
            gg_pattern_free(&q);
        }
}

static void test_bgolly_output(void **state)
{
    (void)state;
    /* bgolly 3.3: R-pentomino after 1103 generations has 116 cells, acorn
     * after 5206 has 633; our writer reproduces bgolly's bytes. */
    struct {
        const char *name;
        int64_t pop;
    } cases[] = {{"bgolly-rpentomino-1103.rle", 116},
                 {"bgolly-acorn-5206.rle", 633}};
    for (size_t i = 0; i < 2; i++) {
        gg_pattern p;
        read_ok(cases[i].name, &p);
        assert_int_equal(gg_grid_population(&p.plane[0]), cases[i].pop);
        /* bgolly trims to the bounding box. */
        int64_t x0, y0, x1, y1;
        assert_true(gg_grid_bbox(&p.plane[0], &x0, &y0, &x1, &y1));
        assert_true(x0 == 0 && y0 == 0 && x1 == gg_pattern_width(&p) - 1 &&
                    y1 == gg_pattern_height(&p) - 1);
        char *want = gg_test_read_file(data(cases[i].name), NULL);
        char *t = format(&p);
        assert_string_equal(t, want);
        free(t);
        free(want);
        gg_pattern_free(&p);
    }
}

/* ---- bad input ---- */

static void test_bad_inputs(void **state)
{
    (void)state;
    char dir[4096];
    snprintf(dir, sizeof dir, "%s", data("bad"));
    DIR *d = opendir(dir);
    assert_non_null(d);
    struct dirent *e;
    int n = 0;
    while ((e = readdir(d))) {
        if (e->d_name[0] == '.')
            continue;
        char path[8192];
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        gg_pattern p;
        memset(&p, 0xab, sizeof p);
        gg_err err = {{0}};
        int rc = gg_pattern_read(path, &p, &err);
        if (rc == 0)
            print_error("%s was accepted\n", e->d_name);
        assert_int_equal(rc, -1);
        /* The message names the file; nothing is left to free. */
        if (!strstr(err.msg, e->d_name))
            print_error("%s: message does not name the file: %s\n",
                        e->d_name, err.msg);
        assert_non_null(strstr(err.msg, e->d_name));
        assert_null(p.plane[0].bits);
        assert_null(p.rule);
        assert_null(p.comments);
        print_message("%s\n", err.msg);
        n++;
    }
    closedir(d);
    assert_true(n >= 30);
}

/* Exact line and column, and the fix, for a few of them. */
static void test_bad_input_messages(void **state)
{
    (void)state;
    struct {
        const char *file, *want;
    } cases[] = {
        {"garbled-character.rle",
         "garbled-character.rle:2:5: unexpected character 'z'"},
        {"negative-count.rle", "negative-count.rle:2:1: '-' in RLE data"},
        {"leading-zero-count.rle", "leading-zero-count.rle:2:1: a run count "
                                   "starts with 0"},
        {"absurd-count.rle", "absurd-count.rle:2:1: run count is too large"},
        {"whitespace-in-count.rle", "whitespace-in-count.rle:2:2: whitespace "
                                    "after a run count"},
        {"truncated-in-count.rle", "truncated-in-count.rle:2:12: the file "
                                   "ends inside a run count"},
        {"truncated-no-bang.rle", "truncated-no-bang.rle:3:1: the pattern "
                                  "data ends without '!'"},
        {"cell-past-width.rle", "cell-past-width.rle:2:6: live cell at column "
                                "2, past the header's x = 2; fix the header's "
                                "width"},
        {"cell-below-height.rle", "cell-below-height.rle:2:9: live cell in "
                                  "row 2, below the header's y = 2"},
        {"header-width-overflow.rle", "header-width-overflow.rle:1:5: the "
                                      "width x is too large"},
        {"header-too-large-for-memory.rle", "header-too-large-for-memory.rle"
                                            ":1: the header's box x = "
                                            "2000000000, y = 2000000000 "
                                            "cannot be held"},
        {"header-negative-width.rle", "header-negative-width.rle:1:5: the "
                                      "width x must not be negative"},
        {"header-after-data.rle", "header-after-data.rle:2:1: the header "
                                  "line comes after pattern data"},
        {"state-above-255.rle", "state-above-255.rle:2:3: state 264 is "
                                "above 255"},
        {"empty.rle", "empty.rle: the file is empty"},
        {"cells-garbled-character.cells", "cells-garbled-character.cells:3:3"
                                          ": unexpected character 'X'"},
        {"life106-garbled-line.lif", "life106-garbled-line.lif:3:3: bad "
                                     "cell line"},
        {"life105-garbled-row.lif", "life105-garbled-row.lif:4:2: unexpected "
                                    "character 'o' in a Life 1.05 row"},
        {"unknown-format.txt", "unknown-format.txt:1:1: unexpected character "
                               "'h' in a plaintext row"},
        /* a gzip header and nothing more (tests/test_gzip.c reads gzip) */
        {"gzip-compressed.rle", "gzip-compressed.rle: the gzip file is "
                                "truncated"},
        /* a leaf of 9 rows: bgolly says "Illegal coordinates" */
        {"macrocell.mc", "macrocell.mc:3: bad leaf line"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        char want[4700];
        snprintf(want, sizeof want, "%s/%s", data("bad"), cases[i].want);
        char rel[300];
        snprintf(rel, sizeof rel, "bad/%s", cases[i].file);
        gg_pattern p;
        gg_err err = {{0}};
        assert_int_equal(gg_pattern_read(data(rel), &p, &err), -1);
        if (strncmp(err.msg, want, strlen(want)) != 0)
            print_error("got:  %s\nwant: %s...\n", err.msg, want);
        assert_true(strncmp(err.msg, want, strlen(want)) == 0);
    }
}

static void test_unreadable_paths(void **state)
{
    (void)state;
    gg_pattern p;
    gg_err err;
    assert_int_equal(gg_pattern_read("/nonexistent/dir/x.rle", &p, &err), -1);
    assert_string_equal(err.msg, "cannot read pattern '/nonexistent/dir/x.rle'"
                                 ": no such file");
    assert_int_equal(gg_pattern_read(tmpdir, &p, &err), -1);
    assert_non_null(strstr(err.msg, "it is a directory"));
    assert_int_equal(gg_pattern_parse("", 0, "mem", &p, &err), -1);
    assert_string_equal(err.msg, "mem: the file is empty; a pattern file "
                                 "needs at least an RLE header or some cells");
    /* an endless device: refused as binary at its first NUL byte (it
     * used to be read until memory ran out) */
    assert_int_equal(gg_pattern_read("/dev/zero", &p, &err), -1);
    assert_non_null(strstr(err.msg, "binary"));
}

/* ---- writing files ---- */

static void test_write_and_read_file(void **state)
{
    (void)state;
    gg_pattern p, q;
    gg_err err;
    read_ok("multistate.rle", &p);
    p.x = 12;
    p.y = -30;
    assert_int_equal(gg_pattern_write_rle(tmp("m.rle"), &p, &err), 0);
    assert_int_equal(gg_pattern_read(tmp("m.rle"), &q, &err), 0);
    assert_true(q.x == 12 && q.y == -30);
    /* The regenerated #CXRLE line is the only difference in comments. */
    assert_string_equal(q.comments, "#CXRLE Pos=12,-30\n#C LifeHistory "
                                    "states 1..6 and a two-letter state\n");
    for (int i = 0; i < p.n_planes; i++)
        assert_true(gg_grid_equal(&p.plane[i], &q.plane[i]));
    assert_int_equal(count_entries(tmpdir), 1); /* no temporary left */
    struct stat st;
    assert_int_equal(stat(tmp("m.rle"), &st), 0);
    mode_t um = umask(0);
    umask(um);
    assert_int_equal(st.st_mode & 0777, 0666 & ~um);
    gg_pattern_free(&p);
    gg_pattern_free(&q);
    unlink(tmp("m.rle"));
}

static void test_write_unwritable(void **state)
{
    (void)state;
    gg_pattern p;
    gg_err err;
    read_ok("glider.rle", &p);
    char path[600];
    snprintf(path, sizeof path, "%s/missing/out.rle", tmpdir);
    assert_int_equal(gg_pattern_write_rle(path, &p, &err), -1);
    assert_non_null(strstr(err.msg, "failed: No such file or directory; "
                                    "create the directory first"));
    assert_int_equal(count_entries(tmpdir), 0);

    /* A directory that exists but takes no files: the cause, not "does
     * not exist" (issue 21, part 6). */
    struct stat pst;
    if (stat("/proc", &pst) == 0) {
        assert_int_equal(gg_pattern_write_rle("/proc/x.rle", &p, &err), -1);
        assert_non_null(strstr(err.msg, "directory '/proc' failed: No such "
                                        "file or directory; that directory "
                                        "takes no new files"));
    }

    /* Parent is a regular file. */
    write_file(tmp("file"), "x");
    snprintf(path, sizeof path, "%s/file/out.rle", tmpdir);
    assert_int_equal(gg_pattern_write_rle(path, &p, &err), -1);
    assert_non_null(strstr(err.msg, "failed: Not a directory"));
    /* Target is a directory. */
    assert_int_equal(gg_pattern_write_rle(tmpdir, &p, &err), -1);
    assert_non_null(strstr(err.msg, "it is a directory"));
    assert_int_equal(count_entries(tmpdir), 1);
    unlink(tmp("file"));

    /* A directory without write permission (root ignores permissions, so
     * this part only runs as another user). */
    if (geteuid() != 0) {
        mkdir(tmp("ro"), 0555);
        snprintf(path, sizeof path, "%s/ro/out.rle", tmpdir);
        assert_int_equal(gg_pattern_write_rle(path, &p, &err), -1);
        assert_non_null(strstr(err.msg, "failed: Permission denied"));
        assert_int_equal(count_entries(tmp("ro")), 0);
        rmdir(tmp("ro"));
    } else {
        print_message("running as root: the read-only directory case is "
                      "not testable here\n");
    }

    /* Patterns that cannot be written fail before any file is made. */
    free(p.rule);
    p.rule = strdup("B3/S23 junk");
    assert_int_equal(gg_pattern_write_rle(tmp("x.rle"), &p, &err), -1);
    assert_non_null(strstr(err.msg, "whitespace"));
    assert_int_equal(count_entries(tmpdir), 0);
    gg_pattern_free(&p);
}

/* A write that fails half way (file size limit, EFBIG) leaves the old file
 * as it was and no temporary behind. */
static void test_write_failure_keeps_old_file(void **state)
{
    (void)state;
    const char *target = tmp("old.rle");
    write_file(target, "x = 1, y = 1\no!\n");
    gg_pattern p;
    gg_err err;
    assert_int_equal(gg_pattern_init(&p, 3000, 3000, 1, &err), 0);
    gg_grid_random(&p.plane[0], 0.5, 5); /* about 7 MB of RLE */

    struct rlimit old, lim;
    getrlimit(RLIMIT_FSIZE, &old);
    lim = old;
    lim.rlim_cur = 1 << 20;
    void (*prev)(int) = signal(SIGXFSZ, SIG_IGN);
    assert_int_equal(setrlimit(RLIMIT_FSIZE, &lim), 0);
    int rc = gg_pattern_write_rle(target, &p, &err);
    setrlimit(RLIMIT_FSIZE, &old);
    signal(SIGXFSZ, prev);

    assert_int_equal(rc, -1);
    print_message("%s\n", err.msg);
    assert_non_null(strstr(err.msg, target));
    char *now = gg_test_read_file(target, NULL);
    assert_string_equal(now, "x = 1, y = 1\no!\n");
    free(now);
    assert_int_equal(count_entries(tmpdir), 1);
    unlink(target);
    gg_pattern_free(&p);
}

static void test_atomic_file_api(void **state)
{
    (void)state;
    gg_atomic_file f;
    gg_err err;
    const char *target = tmp("a.txt");
    write_file(target, "old\n");
    chmod(target, 0640);
    /* Abort: nothing changes. */
    assert_int_equal(gg_atomic_open(target, &f, &err), 0);
    assert_int_equal(gg_atomic_write(&f, "new\n", 4, &err), 0);
    assert_int_equal(count_entries(tmpdir), 2);
    gg_atomic_abort(&f);
    gg_atomic_abort(&f); /* twice is harmless */
    assert_int_equal(count_entries(tmpdir), 1);
    char *s = gg_test_read_file(target, NULL);
    assert_string_equal(s, "old\n");
    free(s);
    /* Commit: replaced, mode kept. */
    assert_int_equal(gg_atomic_open(target, &f, &err), 0);
    fprintf(f.fp, "new %d\n", 2);
    assert_int_equal(gg_atomic_commit(&f, &err), 0);
    s = gg_test_read_file(target, NULL);
    assert_string_equal(s, "new 2\n");
    free(s);
    struct stat st;
    assert_int_equal(stat(target, &st), 0);
    assert_int_equal(st.st_mode & 0777, 0640);
    assert_int_equal(count_entries(tmpdir), 1);
    unlink(target);
    /* Relative name in the current directory. */
    char cwd[4096];
    assert_non_null(getcwd(cwd, sizeof cwd));
    assert_int_equal(chdir(tmpdir), 0);
    assert_int_equal(gg_atomic_open("rel.txt", &f, &err), 0);
    assert_int_equal(gg_atomic_write(&f, "r", 1, &err), 0);
    assert_int_equal(gg_atomic_commit(&f, &err), 0);
    assert_int_equal(chdir(cwd), 0);
    assert_int_equal(count_entries(tmpdir), 1);
    unlink(tmp("rel.txt"));
    assert_int_equal(gg_atomic_open("", &f, &err), -1);
    /* Lazy (no fsync): still replaced whole, nothing left beside it; a
     * sync afterwards, and one of a file that is not there. */
    write_file(target, "old\n");
    assert_int_equal(gg_atomic_open_lazy(target, &f, &err), 0);
    assert_int_equal(gg_atomic_write(&f, "lazy\n", 5, &err), 0);
    assert_int_equal(count_entries(tmpdir), 2);
    assert_int_equal(gg_atomic_commit(&f, &err), 0);
    s = gg_test_read_file(target, NULL);
    assert_string_equal(s, "lazy\n");
    free(s);
    assert_int_equal(count_entries(tmpdir), 1);
    assert_int_equal(gg_atomic_sync(target, &err), 0);
    unlink(target);
    assert_int_equal(gg_atomic_sync(target, &err), -1);
    assert_non_null(strstr(err.msg, "syncing"));
}

static bool is_link(const char *path)
{
    struct stat st;
    return lstat(path, &st) == 0 && S_ISLNK(st.st_mode);
}

/* Targets that must not be replaced by a rename: a link to a file is
 * followed (the file changes, the link stays), a link to /dev/null is
 * written through (the rename used to put a regular file in the link's
 * place, and as root -o /dev/null replaced the device node), a dangling
 * link is refused. */
static void test_atomic_file_links_and_devices(void **state)
{
    (void)state;
    gg_atomic_file f;
    gg_err err;
    /* tmp() returns one static buffer: keep copies */
    char real[512], link[512], null_link[512], dangling[512], nowhere[512];
    snprintf(real, sizeof real, "%s", tmp("real.txt"));
    snprintf(link, sizeof link, "%s", tmp("link.txt"));
    snprintf(null_link, sizeof null_link, "%s", tmp("null"));
    snprintf(dangling, sizeof dangling, "%s", tmp("dangling"));
    snprintf(nowhere, sizeof nowhere, "%s", tmp("nowhere/x"));
    write_file(real, "old\n");
    assert_int_equal(symlink(real, link), 0);
    assert_int_equal(gg_atomic_open(link, &f, &err), 0);
    assert_int_equal(gg_atomic_write(&f, "new\n", 4, &err), 0);
    assert_int_equal(gg_atomic_commit(&f, &err), 0);
    assert_true(is_link(link));
    char *s = gg_test_read_file(real, NULL);
    assert_string_equal(s, "new\n");
    free(s);
    unlink(link);
    unlink(real);

    assert_int_equal(symlink("/dev/null", null_link), 0);
    assert_int_equal(gg_atomic_open(null_link, &f, &err), 0);
    assert_int_equal(gg_atomic_write(&f, "x\n", 2, &err), 0);
    assert_int_equal(gg_atomic_commit(&f, &err), 0);
    assert_true(is_link(null_link));
    struct stat st;
    assert_int_equal(stat("/dev/null", &st), 0);
    assert_true(S_ISCHR(st.st_mode));
    unlink(null_link);

    assert_int_equal(symlink(nowhere, dangling), 0);
    assert_int_equal(gg_atomic_open(dangling, &f, &err), -1);
    assert_non_null(strstr(err.msg, "cannot be followed"));
    unlink(dangling);
    assert_int_equal(count_entries(tmpdir), 0);
}

/* -o NAME writes the format the name asks for (issue 21, part 6): each
 * reads back to the same cells; Life 1.06 and macrocell keep the place. */
static void test_write_by_name(void **state)
{
    (void)state;
    gg_pattern p, q;
    gg_err err;
    parse_ok("#CXRLE Pos=-5,7\n#N glider\nx = 3, y = 3, rule = B36/S23\n"
             "bo$2bo$3o!\n", &p);
    static const struct {
        const char *name, *starts;
        bool keeps_place;
    } cases[] = {
        {"g.cells", "!Name: glider\n!Rule: B36/S23\n.O\n..O\nOOO\n", false},
        {"g.CELLS", "!Name: glider\n", false},
        {"g.lif", "#Life 1.06\n#D #N glider\n#R B36/S23\n-4 7\n-3 8\n-5 9\n",
         true},
        {"g.life", "#Life 1.06\n", true},
        {"g.mc", "[M2] (golgen)\n#R B36/S23\n#N glider\n", true},
        {"g.rle", "#CXRLE Pos=-5,7\n#N glider\nx = 3", true},
        {"g", "#CXRLE Pos=-5,7\n", true},
    };
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        char path[600];
        snprintf(path, sizeof path, "%s", tmp(cases[i].name));
        if (gg_pattern_write(path, &p, &err))
            fail_msg("%s: %s", cases[i].name, err.msg);
        FILE *f = fopen(path, "rb");
        char text[512] = {0};
        assert_non_null(f);
        assert_true(fread(text, 1, sizeof text - 1, f) > 0);
        fclose(f);
        if (strncmp(text, cases[i].starts, strlen(cases[i].starts)))
            fail_msg("%s starts\n%s\nwant\n%s", cases[i].name, text,
                     cases[i].starts);
        assert_int_equal(gg_pattern_read(path, &q, &err), 0);
        assert_cells(&q, ".A./..A/AAA");
        if (cases[i].keeps_place) {
            assert_int_equal(q.x, -5);
            assert_int_equal(q.y, 7);
            assert_string_equal(q.rule, "B36/S23");
        }
        gg_pattern_free(&q);
        unlink(path);
    }
    gg_pattern_free(&p);
}

/* Names of formats golgen does not write are refused before anything is
 * made, and formats of two states refuse states above 1. */
static void test_write_refusals(void **state)
{
    (void)state;
    gg_pattern p;
    gg_err err;
    read_ok("glider.rle", &p);
    static const char *const names[][2] = {
        {"x.rle.gz", "compressed output is not written"},
        {"x.zip", "zip archives are not written"},
        {"x.mcl", "MCell files are not written"},
        {"x.rle3", "RLE3 is the 3D format"},
        {"x.png", "not pictures"},
    };
    for (size_t i = 0; i < sizeof names / sizeof *names; i++) {
        assert_int_equal(gg_pattern_write(tmp(names[i][0]), &p, &err), -1);
        assert_non_null(strstr(err.msg, names[i][1]));
        assert_non_null(strstr(err.msg, "name it .rle, .cells, .lif or .mc"));
        assert_int_equal(gg_pattern_check_output(tmp(names[i][0]), &err), -1);
    }
    assert_int_equal(count_entries(tmpdir), 0);
    assert_int_equal(gg_pattern_check_output(tmp("ok.mc"), &err), 0);
    gg_pattern_free(&p);

    read_ok("multistate.rle", &p);
    static const char *const two_state[] = {"m.cells", "m.lif"};
    for (size_t i = 0; i < 2; i++) {
        assert_int_equal(gg_pattern_write(tmp(two_state[i]), &p, &err), -1);
        assert_non_null(strstr(err.msg, "cannot write states above 1"));
    }
    assert_int_equal(count_entries(tmpdir), 0);
    /* macrocell holds them (level-1 lines of states), read back the same */
    gg_pattern back;
    assert_int_equal(gg_pattern_write(tmp("m.mc"), &p, &err), 0);
    assert_int_equal(gg_pattern_read(tmp("m.mc"), &back, &err), 0);
    assert_int_equal(gg_pattern_max_state(&back), gg_pattern_max_state(&p));
    for (int64_t y = 0; y < gg_pattern_height(&p); y++)
        for (int64_t x = 0; x < gg_pattern_width(&p); x++)
            assert_int_equal(gg_pattern_get(&back, x + p.x - back.x,
                                            y + p.y - back.y),
                             gg_pattern_get(&p, x, y));
    gg_pattern_free(&back);
    remove(tmp("m.mc"));
    assert_int_equal(gg_pattern_write(tmp("m.rle"), &p, &err), 0);
    unlink(tmp("m.rle"));
    gg_pattern_free(&p);
}

/* Macrocell text as bgolly 3.3 writes a glider four generations on
 * (tests/test_oracle.c checks many more against bgolly itself). */
static const char glider_mc[] = "[M2] (golly 3.3)\n#R B3/S23\n#G 4\n"
                                "$.......*$$......**$\n$$*$*$\n"
                                "4 0 0 1 2\n5 0 3 0 0\n";

static void test_macrocell(void **state)
{
    (void)state;
    gg_pattern p;
    gg_err err;
    parse_ok(glider_mc, &p);
    assert_int_equal(p.x, 6);
    assert_int_equal(p.y, -6);
    assert_int_equal(p.generation, 4);
    assert_string_equal(p.rule, "B3/S23");
    assert_cells(&p, ".A./..A/AAA");
    char *text;
    size_t len;
    assert_int_equal(gg_pattern_format_mc(&p, &text, &len, &err), 0);
    assert_string_equal(text + strlen("[M2] (golgen)"),
                        glider_mc + strlen("[M2] (golly 3.3)"));
    free(text);
    gg_pattern_free(&p);

    /* a leaf as the root, an empty file, CRLF line ends */
    parse_ok("[M2]\r\n*$\r\n", &p);
    assert_int_equal(p.x, -4);
    assert_int_equal(p.y, -3);
    assert_cells(&p, "A");
    gg_pattern_free(&p);
    parse_ok("[M2] (golly 3.3)\n#R B3/S23\n", &p);
    assert_int_equal(gg_pattern_max_state(&p), 0);
    gg_pattern_free(&p);

    static const char *const bad[][2] = {
        {"[M2]\n1 0 0 0 256\n", "four states 0..255"},
        {"[M2]\n*$\n4 0 2 0 0\n", "each child 0 or an earlier line's number"},
        {"[M2]\n*$\n4 1 0 0 0\n5 1 0 0 0\n", "child 1 is level 3; a level-5 "
                                              "node takes level-4 children"},
        {"[M2]\n*********$\n", "bad leaf line"},
        {"[M2]\n*$\n4 1 0 0 0 7\n", "text after the node's four children"},
        {"[M2]\n#G -3\n", "bad #G line"},
        {"[M2]\n#G 9223372036854775808\n", "bad #G line"},
        {"[M2]\n#G 99999999999999999999\n", "bad #G line"},
        {"[M2]\nx\n", "unexpected 'x'"},
        {"[M2]\n*$\n64 1 0 0 0\n", "beyond golgen's 64-bit coordinates"},
    };
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        assert_int_equal(gg_pattern_parse(bad[i][0], strlen(bad[i][0]),
                                          "bad.mc", &p, &err), -1);
        if (!strstr(err.msg, bad[i][1]))
            fail_msg("%s: got '%s', want '%s'", bad[i][0], err.msg,
                     bad[i][1]);
    }
    /* #G up to 2^63-1, as #CXRLE Gen= reads it (the fuzzer wrote an RLE
     * at generation 8e18 as .mc and could not read it back) */
    static const char last[] = "[M2]\n#G 9223372036854775807\n";
    assert_int_equal(gg_pattern_parse(last, strlen(last), "g.mc", &p, &err),
                     0);
    assert_true(p.generation == INT64_MAX);
    gg_pattern_free(&p);
}

/* Coordinates beyond Golly's +-2^31 are refused on write, as the Life
 * 1.06 reader refuses them on read; .cells has no place and writes. */
static void test_write_coordinate_limits(void **state)
{
    (void)state;
    gg_pattern p;
    gg_err err;
    char *text;
    size_t len;
    parse_ok("x = 2, y = 1\n2o!\n", &p);
    p.x = 2147483646; /* the last two columns Golly has */
    assert_int_equal(gg_pattern_format_rle(&p, &text, &len, &err), 0);
    free(text);
    assert_int_equal(gg_pattern_format_life106(&p, &text, &len, &err), 0);
    free(text);
    p.x = 2147483647;
    assert_int_equal(gg_pattern_format_rle(&p, &text, &len, &err), -1);
    assert_non_null(strstr(err.msg, "beyond Golly's coordinates "
                                    "(-2147483648..2147483647)"));
    assert_int_equal(gg_pattern_format_life106(&p, &text, &len, &err), -1);
    assert_int_equal(gg_pattern_format_mc(&p, &text, &len, &err), -1);
    assert_int_equal(gg_pattern_write_rle(tmp("far.rle"), &p, &err), -1);
    assert_int_equal(count_entries(tmpdir), 0);
    assert_int_equal(gg_pattern_format_cells(&p, &text, &len, &err), 0);
    free(text);
    p.x = 0;
    p.y = -2147483649LL;
    assert_int_equal(gg_pattern_format_rle(&p, &text, &len, &err), -1);
    p.y = -2147483648LL;
    assert_int_equal(gg_pattern_format_mc(&p, &text, &len, &err), 0);
    gg_pattern q;
    parse_ok(text, &q); /* read back at the edge */
    assert_int_equal(q.y, -2147483648LL);
    gg_pattern_free(&q);
    free(text);
    gg_pattern_free(&p);
}

/* A tall narrow box is refused, not given 15 GiB of row padding for one
 * live cell (issue 21, part 6). */
static void test_tall_narrow_box(void **state)
{
    (void)state;
    gg_pattern p;
    gg_err err;
    const char *lif = "#Life 1.06\n0 0\n2 2000000000\n";
    assert_int_equal(gg_pattern_parse(lif, strlen(lif), "tall.lif", &p, &err),
                     -1);
    assert_non_null(strstr(err.msg, "grid size 3x2000000001 needs 14.9 GiB"));
    assert_non_null(strstr(err.msg, "turn it on its side"));
    gg_grid g;
    assert_int_equal(gg_grid_init(&g, 1, 2000000000, &err), -1);
    assert_non_null(strstr(err.msg, "64 times what its cells take"));
    assert_int_equal(gg_grid_init(&g, 1, 100000, &err), 0); /* small: fine */
    gg_grid_free(&g);
}

/* Every input the fuzzers found (tests/data/fuzz/<reader>/) reads or is
 * refused with a message, and what reads (boxes up to 2^22 cells) writes
 * back as RLE to the same pattern; tests/fuzz/run.sh replays them under
 * libFuzzer too. */
static void test_fuzz_regressions(void **state)
{
    (void)state;
    static const struct {
        const char *dir;
        int (*parse)(const char *, size_t, const char *, gg_pattern *,
                     gg_err *);
    } readers[] = {
        {"pattern", gg_pattern_parse},      {"rle", gg_pattern_parse_rle},
        {"cells", gg_pattern_parse_cells},  {"life", gg_pattern_parse_life},
        {"mc", gg_pattern_parse_mc},
    };
    const char *root = getenv("GG_SOURCE_ROOT");
    int n = 0;
    for (size_t r = 0; r < sizeof readers / sizeof *readers; r++) {
        char dir[4200];
        snprintf(dir, sizeof dir, "%s/tests/data/fuzz/%s", root ? root : ".",
                 readers[r].dir);
        DIR *d = opendir(dir);
        if (!d)
            continue;
        for (struct dirent *e; (e = readdir(d));) {
            /* *-bigbox inputs name boxes of many GiB (allocated lazily):
             * the harness replays them on its 1 GiB machine
             * (tests/fuzz/fuzz_memory.h); here meson test's MALLOC_PERTURB_
             * would fill every page when the box is freed */
            if (e->d_name[0] == '.' || strstr(e->d_name, "-bigbox"))
                continue;
            char path[4500], *text = NULL;
            snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
            FILE *f = fopen(path, "rb");
            assert_non_null(f);
            text = malloc(1 << 16);
            size_t len = fread(text, 1, 1 << 16, f);
            fclose(f);
            gg_pattern p, q;
            gg_err err = {{0}};
            if (!readers[r].parse(text, len, e->d_name, &p, &err)) {
                char *out;
                size_t olen;
                /* as the harness: huge lazily allocated boxes (a 60-byte
                 * input names 3e8 x 253) are read, not written back */
                bool small = gg_pattern_width(&p) * gg_pattern_height(&p) <=
                             (1LL << 22);
                if (small && !gg_pattern_format_rle(&p, &out, &olen, &err)) {
                    assert_int_equal(gg_pattern_parse_rle(out, olen, "back",
                                                          &q, &err), 0);
                    free(q.comments), free(p.comments);
                    q.comments = p.comments = NULL;
                    if (!gg_pattern_equal(&p, &q))
                        fail_msg("%s: RLE round trip changed it", path);
                    gg_pattern_free(&q);
                    free(out);
                }
                gg_pattern_free(&p);
            } else {
                assert_true(err.msg[0] != 0);
            }
            free(text);
            n++;
        }
        closedir(d);
    }
    assert_true(n >= 10);
}

/* The RLE reader's run mode (rle_runs.h) against its dense mode on the
 * same text: the same pattern (drawn from the runs), or the same error;
 * 1 (left to the dense reader) only for what is not an RLE with a box. */
static void runs_as_dense(const char *text, size_t len, const char *name)
{
    gg_pattern p, q;
    gg_pattern_runs r;
    gg_err e1 = {{0}}, e2 = {{0}};
    int dense = gg_pattern_parse(text, len, name, &p, &e1);
    int runs = gg_pattern_runs_parse(text, len, name, NULL, 0.0, &r, &e2);
    if (runs == 1) { /* no header, or another format */
        if (!dense)
            gg_pattern_free(&p);
        return;
    }
    if (dense) {
        if (!runs || strcmp(e1.msg, e2.msg))
            fail_msg("%s: dense '%s', runs %d '%s'", name, e1.msg, runs,
                     e2.msg);
        gg_pattern_runs_free(&r);
        return;
    }
    if (runs)
        fail_msg("%s: read dense, runs refused: %s", name, e2.msg);
    int64_t pop = 0;
    for (int i = 0; i < p.n_planes; i++)
        pop += gg_grid_population(&p.plane[i]);
    assert_int_equal(r.population, pop);
    assert_int_equal(gg_pattern_runs_to_pattern(&r, &q, &e2), 0);
    if (!gg_pattern_equal(&p, &q) || p.multistate != q.multistate ||
        gg_pattern_max_state(&p) != gg_pattern_max_state(&q))
        fail_msg("%s: the runs draw another pattern", name);
    gg_pattern_free(&p);
    gg_pattern_free(&q);
    gg_pattern_runs_free(&r);
}

static void test_rle_runs_reader(void **state)
{
    (void)state;
    static const char *const texts[] = {
        "x = 100, y = 50, rule = B3/S23\n3o$bo!\n",
        "#CXRLE Pos=-7,9 Gen=12\n#C hi\nx = 300, y = 9\n2b3o$\n#C mid\n"
        "299o!",
        "#r B36/S23\nx = 90, y = 4\n70b2o$o!\n",
        "x = 70, y = 5, rule = /2/3\n.A2B$3$60.pA!\n",
        "x = 40, y = 3, rule = LifeHistory\n2A.C$D.E!\n",
        "x = 10, y = 2\n20o!\n",
        "x = 10, y = 2\nbo$o$o!\n",
        "x = 10, y = 2\n0bo!\n",
        "x = 10, y = 2\n3q!\n",
        "x = 10, y = 2\n3o\n",
        "x = 10, y = 2\n3\n",
        "x = 10, y = 2\nbo!\nx = 3, y = 3\n",
        "x = 0, y = 0\n!\n",
        "x = 3000000000, y = 2\no!\n",
        "3o$o!\n",
        "#Life 1.06\n0 0\n",
    };
    for (size_t i = 0; i < sizeof texts / sizeof *texts; i++)
        runs_as_dense(texts[i], strlen(texts[i]), texts[i]);
    /* the header decides whether runs pay: box cells against bytes */
    gg_pattern_runs r;
    gg_err err;
    const char *t = texts[0];
    assert_int_equal(gg_pattern_runs_parse(t, strlen(t), "s", NULL, 1e9, &r,
                                           &err), 1);
    assert_int_equal(gg_pattern_runs_parse(t, strlen(t), "s", NULL, 64, &r,
                                           &err), 0);
    assert_int_equal(r.width, 100);
    assert_int_equal(r.n, 2);
    assert_int_equal(r.population, 4);
    assert_true(r.x0 == 0 && r.y0 == 0 && r.x1 == 2 && r.y1 == 1);
    gg_pattern_runs_free(&r);
    /* the fuzzers' RLE and pattern inputs, each through both modes */
    const char *root = getenv("GG_SOURCE_ROOT");
    static const char *const dirs[] = {"rle", "pattern"};
    for (int k = 0; k < 2; k++) {
        char dir[4096];
        snprintf(dir, sizeof dir, "%s/tests/data/fuzz/%s", root ? root : ".",
                 dirs[k]);
        DIR *d = opendir(dir);
        if (!d)
            continue;
        for (struct dirent *e; (e = readdir(d));) {
            if (e->d_name[0] == '.' || strstr(e->d_name, "-bigbox"))
                continue;
            char path[4500];
            snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
            FILE *f = fopen(path, "rb");
            assert_non_null(f);
            char *text = malloc(1 << 16);
            size_t len = fread(text, 1, 1 << 16, f);
            fclose(f);
            runs_as_dense(text, len, e->d_name);
            free(text);
        }
        closedir(d);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_glider_three_formats),
        cmocka_unit_test(test_life_positions),
        cmocka_unit_test(test_rle_position_and_generation),
        cmocka_unit_test(test_rle_syntax_variants),
        cmocka_unit_test(test_multistate),
        cmocka_unit_test(test_cells_format),
        cmocka_unit_test(test_writer_golly_style),
        cmocka_unit_test(test_writer_line_length),
        cmocka_unit_test(test_soup_round_trip),
        cmocka_unit_test(test_bgolly_output),
        cmocka_unit_test(test_bad_inputs),
        cmocka_unit_test(test_bad_input_messages),
        cmocka_unit_test(test_unreadable_paths),
        cmocka_unit_test(test_write_and_read_file),
        cmocka_unit_test(test_write_unwritable),
        cmocka_unit_test(test_write_failure_keeps_old_file),
        cmocka_unit_test(test_atomic_file_api),
        cmocka_unit_test(test_atomic_file_links_and_devices),
        cmocka_unit_test(test_write_by_name),
        cmocka_unit_test(test_write_refusals),
        cmocka_unit_test(test_macrocell),
        cmocka_unit_test(test_write_coordinate_limits),
        cmocka_unit_test(test_tall_narrow_box),
        cmocka_unit_test(test_fuzz_regressions),
        cmocka_unit_test(test_rle_runs_reader),
    };
    return cmocka_run_group_tests(tests, setup_tmp, teardown_tmp);
}

/* libFuzzer harness for golgen serve's message parser (cli/serve/
 * serve_msg.h, issue 41): any bytes parse or fail with a message; what
 * parses stays in its ranges and points into the input; a parsed view is
 * drawn (exact and row-sampled), a cell set, a pattern pasted, a small
 * soup made and the universe saved as RLE, macrocell or a picture on a
 * small universe (the library's world, include/golgen/world.h), as the
 * server would; a z slice or the projection of a small 3D grid taken and
 * drawn. */
#define _GNU_SOURCE /* memmem */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "golgen.h"
#include "pattern.h"
#include "rule.h"
#include "serve_msg.h"

static const char glider[] = "x = 3, y = 3, rule = B3/S23\nbo$2bo$3o!\n";

/* The decimal numbers of text added up (saturating): a bound on the
 * sides of the box a pattern text describes in RLE, Life 1.06 or plain
 * text (a box of w x h needs numbers or characters adding up to w + h). */
static int64_t numbers_sum(const char *t, size_t n)
{
    int64_t sum = (int64_t)n, v = 0;
    for (size_t i = 0; i <= n && sum < (1LL << 40); i++) {
        if (i < n && t[i] >= '0' && t[i] <= '9') {
            v = v * 10 + (t[i] - '0');
            if (v > (1LL << 40))
                v = 1LL << 40;
            continue;
        }
        sum += v;
        v = 0;
    }
    return sum;
}

/* z N or z sum on a small 3D grid (a glider in its middle slice): the
 * slice or projection taken, drawn at levels 0 to 3 (one row in two
 * sampled for odd z), a cell set (refused on the projection), fitted. */
static int slice_3d(const sv_msg *m)
{
    golgen_world *w;
    char e[512];
    golgen_world_load_opts o = {.rule = "3D5..7/6:T8", .name = "glider"};
    if (golgen_world_parse(glider, strlen(glider), &o, &w, e, sizeof e))
        abort();
    int64_t depth, z = m->n == SV_Z_SUM ? GOLGEN_WORLD_Z_SUM : m->n;
    bool ok = !golgen_world_set_z(w, z, e, sizeof e);
    int64_t shown = golgen_world_z(w, &depth);
    if (ok != (z == GOLGEN_WORLD_Z_SUM || z < 8) || (ok && shown != z) ||
        (!ok && shown != 4) || depth != 8)
        abort();
    uint8_t out[16 * 16];
    for (int level = 0; level < 4; level++)
        golgen_world_render(w, -8 + level, -8, 16, 16, level,
                            (z & 1) ? 2 : 0, out);
    if (ok && z == GOLGEN_WORLD_Z_SUM &&
        !golgen_world_set(w, 0, 0, 1, e, sizeof e))
        abort(); /* the projection is not edited */
    int64_t x, y, wd, ht;
    if (z == GOLGEN_WORLD_Z_SUM &&
        (!golgen_world_bbox(w, &x, &y, &wd, &ht) || wd != 3 || ht != 3))
        abort(); /* the glider's box, over every plane */
    golgen_world_free(w);
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    sv_msg m;
    char err[300];
    err[0] = 0;
    if (sv_msg_parse((const char *)data, size, &m, err, sizeof err)) {
        if (!err[0])
            abort(); /* a refusal always says why */
        return 0;
    }
    if (m.text && (m.text < (const char *)data ||
                   m.text + m.text_len > (const char *)data + size))
        abort();
    if (m.kind == SV_VIEW &&
        (m.cols < 1 || m.rows < 1 || m.cols > SV_MAX_SIDE ||
         m.rows > SV_MAX_SIDE || (long)m.cols * m.rows > SV_MAX_BLOCKS ||
         m.level < 0 || m.level > SV_MAX_LEVEL || m.x > SV_MAX_COORD ||
         m.x < -SV_MAX_COORD || m.y > SV_MAX_COORD || m.y < -SV_MAX_COORD))
        abort();
    if ((m.kind == SV_STEP && (m.n < 1 || m.n > SV_MAX_STEP)) ||
        (m.kind == SV_SPEED && (m.n < 0 || m.n > SV_MAX_DELAY)) ||
        (m.kind == SV_SET && (m.n < 0 || m.n > 255)) ||
        (m.kind == SV_RULE && (m.text_len < 1 || m.text_len > SV_MAX_RULE)) ||
        (m.kind == SV_LOAD && (m.text_len < 1 || m.text_len > SV_MAX_LOAD)) ||
        (m.kind == SV_PASTE &&
         (m.text_len < 1 || m.text_len > SV_MAX_LOAD || m.x > SV_MAX_COORD ||
          m.x < -SV_MAX_COORD || m.y > SV_MAX_COORD ||
          m.y < -SV_MAX_COORD)) ||
        (m.kind == SV_SOUP &&
         (m.x < 1 || m.y < 1 || m.x > SV_MAX_SOUP_SIDE ||
          m.y > SV_MAX_SOUP_SIDE || m.n < 0 || m.n > 100 || m.seed < 0)) ||
        (m.kind == SV_SAVE && m.format != SV_RLE && m.format != SV_MC &&
         m.format != SV_PNG) ||
        (m.kind == SV_Z && m.n != SV_Z_SUM && (m.n < 0 || m.n >= SV_MAX_Z)))
        abort();
    if (m.kind == SV_Z)
        return slice_3d(&m);
    /* what the server does with it, on a glider (Generations for odd
     * levels, to draw planes too) */
    golgen_world *w;
    char e[512];
    gg_err pe;
    golgen_world_load_opts o = {.rule = m.level & 1 ? "23/3/3" : NULL,
                                .name = "glider"};
    if (golgen_world_parse(glider, strlen(glider), &o, &w, e, sizeof e))
        abort();
    if (m.kind == SV_VIEW && (long)m.cols * m.rows <= 1 << 16) {
        uint8_t *out = malloc((size_t)m.cols * m.rows);
        if (!out)
            abort();
        golgen_world_render(w, m.x, m.y, m.cols, m.rows, m.level,
                            (m.x & 7) ? 1LL << (m.x & 7) : 0, out);
        free(out);
    }
    if (m.kind == SV_SET && m.x > -5000 && m.x < 5000 && m.y > -5000 &&
        m.y < 5000)
        golgen_world_set(w, m.x, m.y, (int)m.n, e, sizeof e);
    /* (not MCell text: its reader stores a run of live cells one by one,
     * 16 bytes each up to 2^28 cells, so "#L 88888888A" costs seconds and
     * gigabytes; found here, left to runtime/formats/pattern_mcl.c) */
    /* (and boxes of at most 2^20 cells: a paste scans its box, up to 2^32
     * cells, a word at a time, which under the sanitizers and the
     * fuzzer's comparison tracing takes over 20 s; 1.2 s in a release
     * build, most of it the reader's) */
    /* (and texts whose numbers add up past 2^14: the box measured here
     * is the reader's dense grid, and a run of 4444444 cells over 2664
     * rows is a 1.5 GB one, which ASan's quarantine fills on free: 24 s
     * on a loaded machine, the harness's check and not the server's) */
    gg_pattern box;
    if (m.kind == SV_PASTE && m.x > -5000 && m.x < 5000 && m.y > -5000 &&
        m.y < 5000 && m.text_len < 4096 &&
        numbers_sum(m.text, m.text_len) <= 1 << 14 &&
        !memmem(m.text, m.text_len, "MCell", 5) &&
        !gg_pattern_parse(m.text, m.text_len, "paste", &box, &pe)) {
        bool small = gg_pattern_width(&box) * gg_pattern_height(&box) <=
                     1 << 20;
        gg_pattern_free(&box);
        if (small)
            golgen_world_paste(w, m.text, m.text_len, m.x, m.y, e, sizeof e);
    }
    if (m.kind == SV_SOUP && m.x * m.y <= 1 << 16) {
        golgen_world *w2;
        golgen_world_rule *r;
        if (golgen_world_get_rule(w, &r) ||
            golgen_world_soup(r, m.x, m.y, (int)m.n, (uint64_t)m.seed, &w2,
                              e, sizeof e))
            abort(); /* a small torus is always made */
        golgen_world_rule_free(r);
        if (golgen_world_population(w2) > m.x * m.y)
            abort();
        uint8_t out[64];
        golgen_world_render(w2, m.x / 3, -m.y, 8, 8, (int)(m.n % 3), 0, out);
        golgen_world_free(w);
        w = w2;
    }
    if (m.kind == SV_SAVE) {
        char *text;
        size_t len;
        golgen_image *im;
        if (m.format == SV_MC &&
            !golgen_world_format(w, "mc", &text, &len, e, sizeof e))
            golgen_free(text);
        if (m.format == SV_PNG && !golgen_world_image(w, &im, e, sizeof e))
            golgen_image_free(im);
    }
    if (m.kind == SV_RULE) {
        char text[SV_MAX_RULE + 1];
        memcpy(text, m.text, m.text_len);
        text[m.text_len] = 0;
        /* (two-state and Generations rules, as before the world took
         * every family: a rule file is not looked for) */
        gg_rule r;
        golgen_world_rule *wr;
        golgen_world *w2;
        if (!gg_rule_parse(text, &r, &pe) &&
            !golgen_world_rule_parse(text, NULL, &wr, e, sizeof e)) {
            if (!golgen_world_with_rule(w, wr, 1 << 20, &w2, e, sizeof e))
                golgen_world_free(w2);
            golgen_world_rule_free(wr);
        }
    }
    char *rle;
    size_t len;
    if (!golgen_world_format(w, "rle", &rle, &len, e, sizeof e))
        golgen_free(rle);
    golgen_world_free(w);
    return 0;
}

/* libFuzzer harness for the 2D pattern readers. Built once per reader
 * (tests/fuzz/meson.build defines GG_FUZZ_PARSE): gg_pattern_parse (the
 * content dispatch), or one format's parser directly, so each reader is
 * explored past what the dispatch would send it.
 *
 * Beyond "no crash, no sanitizer report", a pattern that reads must write
 * back as RLE and read again to the same pattern, and a two-state one must
 * keep its cells through .cells, Life 1.06 and macrocell: a reader that
 * accepts what a writer cannot reproduce loses cells silently. A writer
 * may refuse (a message, e.g. coordinates beyond +-2^31). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz_memory.h"
#include "pattern.h"

#ifndef GG_FUZZ_PARSE
#define GG_FUZZ_PARSE gg_pattern_parse
#endif

/* Boxes above this many cells are read (the reader allocates lazily) but
 * not written back: formatting them would time the fuzzer out. */
#define ROUNDTRIP_MAX_CELLS (1LL << 22)
/* The other formats are compared cell by cell: smaller boxes only. */
#define OTHER_MAX_CELLS (1LL << 16)

static void roundtrip(const gg_pattern *p)
{
    int64_t w = gg_pattern_width(p), h = gg_pattern_height(p);
    if (w * h > ROUNDTRIP_MAX_CELLS)
        return;
    char *text = NULL;
    size_t len = 0;
    gg_err err;
    if (gg_pattern_format_rle(p, &text, &len, &err))
        return; /* a refusal with a message is fine (e.g. a rule with
                   blanks); a crash or a wrong pattern is not */
    gg_pattern q;
    if (gg_pattern_parse_rle(text, len, "roundtrip", &q, &err)) {
        fprintf(stderr, "written RLE does not read back: %s\n---\n%s---\n",
                err.msg, text);
        abort();
    }
    /* RLE keeps cells, planes, position, generation, rule: the comments
     * may gain a #CXRLE line, so compare without them. */
    char *pc = p->comments, *qc = q.comments;
    ((gg_pattern *)p)->comments = q.comments = NULL;
    bool same = gg_pattern_equal(p, &q);
    ((gg_pattern *)p)->comments = pc;
    q.comments = qc;
    if (!same) {
        fprintf(stderr, "RLE round trip changed the pattern:\n---\n%s---\n",
                text);
        abort();
    }
    gg_pattern_free(&q);
    free(text);
}

/* The live cells of a and b agree, at the same Golly coordinates (or,
 * with `shift`, after moving b's live box onto a's: .cells has no
 * position). Box margins may differ between formats. */
static bool same_cells(const gg_pattern *a, const gg_pattern *b, bool shift)
{
    int64_t ax0 = 0, ay0 = 0, ax1, ay1, bx0 = 0, by0 = 0, bx1, by1;
    bool ea = !a->plane[0].bits ||
              !gg_grid_bbox(&a->plane[0], &ax0, &ay0, &ax1, &ay1);
    bool eb = !b->plane[0].bits ||
              !gg_grid_bbox(&b->plane[0], &bx0, &by0, &bx1, &by1);
    if (ea || eb)
        return ea == eb;
    if (gg_grid_population(&a->plane[0]) != gg_grid_population(&b->plane[0]))
        return false;
    int64_t dx = shift ? bx0 - ax0 : a->x - b->x;
    int64_t dy = shift ? by0 - ay0 : a->y - b->y;
    for (int64_t y = ay0; y <= ay1; y++)
        for (int64_t x = ax0; x <= ax1; x++)
            if (gg_pattern_get(a, x, y) != gg_pattern_get(b, x + dx, y + dy))
                return false;
    return true;
}

typedef int (*format_fn)(const gg_pattern *, char **, size_t *, gg_err *);
typedef int (*parse_fn)(const char *, size_t, const char *, gg_pattern *,
                        gg_err *);

/* Two-state patterns also go through .cells, Life 1.06 and macrocell. */
static void roundtrip_other(const gg_pattern *p, const char *what,
                            format_fn format, parse_fn parse, bool shift)
{
    char *text = NULL;
    size_t len = 0;
    gg_err err;
    if (format(p, &text, &len, &err))
        return;
    gg_pattern q;
    if (parse(text, len, what, &q, &err)) {
        fprintf(stderr, "written %s does not read back: %s\n---\n%s---\n",
                what, err.msg, text);
        abort();
    }
    bool gen_kept = format != gg_pattern_format_mc ||
                    p->generation == q.generation;
    if (!same_cells(p, &q, shift) || !gen_kept) {
        fprintf(stderr, "%s round trip changed the cells:\n---\n%s---\n",
                what, text);
        abort();
    }
    gg_pattern_free(&q);
    free(text);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    gg_pattern p;
    gg_err err;
    if (GG_FUZZ_PARSE((const char *)data, size, "fuzz", &p, &err))
        return 0;
    roundtrip(&p);
    if (gg_pattern_width(&p) * gg_pattern_height(&p) <= OTHER_MAX_CELLS &&
        gg_pattern_max_state(&p) <= 1) {
        roundtrip_other(&p, "cells", gg_pattern_format_cells,
                        gg_pattern_parse_cells, true);
        roundtrip_other(&p, "life", gg_pattern_format_life106,
                        gg_pattern_parse_life, false);
        roundtrip_other(&p, "mc", gg_pattern_format_mc, gg_pattern_parse_mc,
                        false);
    }
    gg_pattern_free(&p);
    return 0;
}

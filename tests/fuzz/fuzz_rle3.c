/* libFuzzer harness for the RLE3 reader (runtime/formats/pattern_rle3.c). A file
 * that reads must format and read back to the same cells. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fuzz_memory.h"
#include "pattern_rle3.h"

/* Grids above this many cells are read but not written back (time). */
#define ROUNDTRIP_MAX_CELLS (1LL << 22)

static void roundtrip(const gg_rle3 *p)
{
    if (!p->cells.bits || p->w * p->h * p->d > ROUNDTRIP_MAX_CELLS)
        return;
    char *text = NULL;
    size_t len = 0;
    gg_err err;
    if (gg_rle3_format(&p->cells, p->rule, p->gen, p->comments, &text, &len,
                       &err))
        return;
    gg_rle3 q;
    if (gg_rle3_parse(text, len, "roundtrip", &q, &err)) {
        fprintf(stderr, "written RLE3 does not read back: %s\n---\n%s---\n",
                err.msg, text);
        abort();
    }
    gg_rle3_free(&q);
    free(text);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    gg_rle3 p;
    gg_err err;
    if (gg_rle3_parse((const char *)data, size, "fuzz", &p, &err))
        return 0;
    roundtrip(&p);
    gg_rle3_free(&p);
    return 0;
}

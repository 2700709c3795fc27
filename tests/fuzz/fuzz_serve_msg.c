/* libFuzzer harness for golgen serve's message parser (cli/serve/
 * serve_msg.h, issue 41): any bytes parse or fail with a message; what
 * parses stays in its ranges and points into the input; a parsed view is
 * drawn and a parsed cell set on a small universe (serve_world.h), as the
 * server would. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "serve_msg.h"
#include "serve_world.h"

static const char glider[] = "x = 3, y = 3, rule = B3/S23\nbo$2bo$3o!\n";

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
        (m.kind == SV_LOAD && (m.text_len < 1 || m.text_len > SV_MAX_LOAD)))
        abort();
    /* what the server does with it, on a glider (Generations for odd
     * levels, to draw planes too) */
    sv_world w;
    gg_err e;
    const char *rule = m.level & 1 ? "23/3/3" : NULL;
    if (sv_world_parse(&w, rule, NULL, glider, strlen(glider), "glider", 0,
                       &e))
        abort();
    if (m.kind == SV_VIEW && (long)m.cols * m.rows <= 1 << 16) {
        uint8_t *out = malloc((size_t)m.cols * m.rows);
        if (!out)
            abort();
        sv_world_render(&w, m.x, m.y, m.cols, m.rows, m.level, out);
        free(out);
    }
    if (m.kind == SV_SET && m.x > -5000 && m.x < 5000 && m.y > -5000 &&
        m.y < 5000)
        sv_world_set(&w, m.x, m.y, (int)m.n, &e);
    if (m.kind == SV_RULE) {
        char text[SV_MAX_RULE + 1];
        memcpy(text, m.text, m.text_len);
        text[m.text_len] = 0;
        gg_rule r;
        sv_world w2;
        if (!gg_rule_parse(text, &r, &e) &&
            !sv_world_with_rule(&w, &r, 1 << 20, &w2, &e))
            sv_world_free(&w2);
    }
    char *rle;
    size_t len;
    if (!sv_world_rle(&w, &rle, &len, &e))
        free(rle);
    sv_world_free(&w);
    return 0;
}

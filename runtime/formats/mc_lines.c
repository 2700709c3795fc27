/* Macrocell lines as bgolly 3.3's HashLife writes them (runtime/
 * mc_lines.h): shared by the dense writer (runtime/formats/pattern_mc_write.c)
 * and the hash-tree engine's (runtime/engines/hl_io.c). */
#include "mc_lines.h"

#include <stdlib.h>
#include <string.h>

typedef struct mc_key {
    uint64_t a, b; /* leaf: bits, 0; node: nw | ne << 32, sw | se << 32 */
    uint32_t level, id;
} mc_key;

static uint64_t mix(uint64_t a, uint64_t b, uint32_t level)
{
    uint64_t h = a * 0x9E3779B97F4A7C15ull ^
                 (b + level) * 0xC2B2AE3D27D4EB4Full;
    return h ^ (h >> 29);
}

static bool grow(gg_mc_lines *w)
{
    size_t cap = w->mask ? 2 * (w->mask + 1) : 4096;
    mc_key *t = calloc(cap, sizeof *t);
    if (!t)
        return false;
    mc_key *old = w->table;
    for (size_t i = 0; w->mask && i <= w->mask; i++) {
        if (!old[i].id)
            continue;
        size_t j = mix(old[i].a, old[i].b, old[i].level) & (cap - 1);
        while (t[j].id)
            j = (j + 1) & (cap - 1);
        t[j] = old[i];
    }
    free(old);
    w->table = t;
    w->mask = cap - 1;
    return true;
}

/* The line number of (level, a, b); *fresh when it is new and its line is
 * still to be written. 0 when out of memory (out.failed set). */
static uint32_t intern(gg_mc_lines *w, uint32_t level, uint64_t a,
                       uint64_t b, bool *fresh)
{
    *fresh = false;
    if ((w->used + 1) * 2 > w->mask + 1 && !grow(w)) {
        w->out.failed = true;
        return 0;
    }
    mc_key *t = w->table;
    size_t j = mix(a, b, level) & w->mask;
    for (; t[j].id; j = (j + 1) & w->mask)
        if (t[j].a == a && t[j].b == b && t[j].level == level)
            return t[j].id;
    t[j] = (mc_key){a, b, level, ++w->next_id};
    w->used++;
    *fresh = true;
    return w->next_id;
}

static void put_leaf(gg_textbuf *b, uint64_t bits)
{
    int rows = 8;
    while (rows > 0 && !((bits >> (8 * (rows - 1))) & 0xff))
        rows--;
    for (int y = 0; y < rows; y++) {
        unsigned r = (unsigned)(bits >> (8 * y)) & 0xff;
        for (int x = 0; r >> x; x++)
            gg_textbuf_char(b, (r >> x) & 1 ? '*' : '.');
        gg_textbuf_char(b, '$');
    }
    gg_textbuf_char(b, '\n');
}

uint32_t gg_mc_leaf_line(gg_mc_lines *w, uint64_t bits)
{
    bool fresh;
    if (!bits || w->out.failed)
        return 0;
    uint32_t id = intern(w, 3, bits, 0, &fresh);
    if (fresh)
        put_leaf(&w->out, bits);
    return id;
}

uint32_t gg_mc_node_line(gg_mc_lines *w, int level, const uint32_t c[4])
{
    bool fresh;
    if (!(c[0] | c[1] | c[2] | c[3]) || w->out.failed)
        return 0;
    uint32_t id = intern(w, (uint32_t)level, c[0] | (uint64_t)c[1] << 32,
                         c[2] | (uint64_t)c[3] << 32, &fresh);
    if (fresh)
        gg_textbuf_printf(&w->out, "%d %u %u %u %u\n", level, c[0], c[1],
                          c[2], c[3]);
    return id;
}

uint32_t gg_mc_state_line(gg_mc_lines *w, const uint8_t s[4])
{
    bool fresh;
    uint64_t a = s[0] | (uint64_t)s[1] << 8 | (uint64_t)s[2] << 16 |
                 (uint64_t)s[3] << 24;
    if (!a || w->out.failed)
        return 0;
    uint32_t id = intern(w, 1, a, 0, &fresh);
    if (fresh)
        gg_textbuf_printf(&w->out, "1 %u %u %u %u\n", s[0], s[1], s[2],
                          s[3]);
    return id;
}

int gg_mc_root_level(int64_t x0, int64_t y0, int64_t x1, int64_t y1)
{
    int level = 4;
    for (; level < 63; level++) {
        int64_t half = (int64_t)1 << (level - 1);
        if (x0 >= -half && x1 < half && y0 >= -half + 1 && y1 < half + 1)
            break;
    }
    return level;
}

void gg_mc_header(gg_textbuf *b, const char *rule, int64_t generation,
                  const char *comments)
{
    gg_textbuf_str(b, "[M2] (golgen)\n");
    if (rule)
        gg_textbuf_printf(b, "#R %.200s\n", rule);
    if (generation)
        gg_textbuf_printf(b, "#G %lld\n", (long long)generation);
    /* comments as they are, but never a line the reader would take for
     * #R or #G; #CXRLE is dropped (the tree gives the position) */
    for (const char *l = comments; l && *l;) {
        const char *nl = strchr(l, '\n');
        size_t n = nl ? (size_t)(nl - l) : strlen(l);
        if (strncmp(l, "#CXRLE", 6) != 0) {
            bool named = n >= 2 && (l[1] == 'R' || l[1] == 'G');
            gg_textbuf_str(b, l[0] != '#' || named ? "#C " : "");
            gg_textbuf_put(b, l, n);
            gg_textbuf_char(b, '\n');
        }
        l += n + (nl ? 1 : 0);
    }
}

int gg_mc_lines_take(gg_mc_lines *w, char **text, size_t *len, gg_err *err)
{
    free(w->table);
    w->table = NULL;
    if (!gg_textbuf_room(&w->out, 0)) {
        free(w->out.s);
        return gg_fail(err, "out of memory formatting a macrocell pattern");
    }
    *text = w->out.s;
    *len = w->out.len;
    return 0;
}

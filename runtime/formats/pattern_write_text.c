/* Plaintext (.cells) and Life 1.06 writers: the two text formats golgen
 * reads (runtime/formats/pattern_text.c), for `-o out.cells` and `-o out.lif`.
 * Both carry two states only. .cells has no position (Golly reads it at
 * 0,0) and no rule, so the live cells' box is written and the rule goes
 * into a comment; Life 1.06 has absolute coordinates and takes "#R". */
#include "pattern.h"

#include "pattern_buf.h"

static int two_states_only(const gg_pattern *p, const char *format,
                           gg_err *err)
{
    if (gg_pattern_max_state(p) > 1)
        return gg_fail(err, "cannot write states above 1 as %s, which has "
                       "two states; write RLE (.rle) instead", format);
    return 0;
}

/* The text of a '#' comment line without its "#X " prefix. */
static void comment_text(const char *l, size_t n, const char **t, size_t *tn)
{
    size_t i = n >= 2 ? 2 : n;
    if (i < n && l[i] == ' ')
        i++;
    *t = l + i;
    *tn = n - i;
}

/* The next comment line of *cur (a pattern's comments) into l, n (without
 * '\n'); #CXRLE lines are skipped: the position they give is the
 * pattern's, which these formats say their own way or not at all. */
static bool next_comment(const char **cur, const char **l, size_t *n)
{
    while (*cur && **cur) {
        const char *nl = strchr(*cur, '\n');
        *l = *cur;
        *n = nl ? (size_t)(nl - *cur) : strlen(*cur);
        *cur = nl ? nl + 1 : *cur + *n;
        if (strncmp(*l, "#CXRLE", 6) != 0)
            return true;
    }
    return false;
}

static void cells_comments(gg_textbuf *b, const gg_pattern *p)
{
    const char *cur = p->comments, *l;
    size_t n;
    while (next_comment(&cur, &l, &n)) {
        const char *t;
        size_t tn;
        comment_text(l, n, &t, &tn);
        /* "#N name" was "!Name: name" when read (pattern.h) */
        gg_textbuf_str(b, n >= 2 && l[1] == 'N' ? "!Name: " : "!");
        gg_textbuf_put(b, t, tn);
        gg_textbuf_char(b, '\n');
    }
    if (p->rule)
        gg_textbuf_printf(b, "!Rule: %.200s\n", p->rule);
}

int gg_pattern_format_cells(const gg_pattern *p, char **text, size_t *len,
                            gg_err *err)
{
    *text = NULL;
    *len = 0;
    if (two_states_only(p, "plaintext (.cells)", err))
        return -1;
    gg_textbuf b = {0};
    cells_comments(&b, p);
    int64_t x0, y0, x1, y1;
    const gg_grid *g = &p->plane[0];
    if (g->bits && gg_grid_bbox(g, &x0, &y0, &x1, &y1))
        for (int64_t y = y0; y <= y1 && !b.failed; y++) {
            int64_t last = x0 - 1; /* rows end at their last live cell */
            for (int64_t x = x0; x <= x1; x++)
                if (gg_grid_get(g, x, y))
                    last = x;
            if (!gg_textbuf_room(&b, (size_t)(last - x0 + 2)))
                break;
            for (int64_t x = x0; x <= last; x++)
                b.s[b.len++] = gg_grid_get(g, x, y) ? 'O' : '.';
            b.s[b.len++] = '\n';
            b.s[b.len] = 0;
        }
    if (!gg_textbuf_room(&b, 0)) {
        free(b.s);
        return gg_fail(err, "out of memory formatting a .cells pattern");
    }
    *text = b.s;
    *len = b.len;
    return 0;
}

static void life_comments(gg_textbuf *b, const gg_pattern *p)
{
    const char *cur = p->comments, *l;
    size_t n;
    while (next_comment(&cur, &l, &n)) {
        /* #N, #R, #P mean normal rules, a rule and a block position in
         * Life 1.05/1.06: every comment becomes a #D line. */
        if (n >= 2 && (l[1] == 'D' || l[1] == 'C') &&
            (n == 2 || l[2] == ' ')) {
            gg_textbuf_put(b, l, n);
        } else {
            gg_textbuf_str(b, "#D ");
            gg_textbuf_put(b, l, n);
        }
        gg_textbuf_char(b, '\n');
    }
}

int gg_pattern_format_life106(const gg_pattern *p, char **text, size_t *len,
                              gg_err *err)
{
    *text = NULL;
    *len = 0;
    if (two_states_only(p, "Life 1.06 (.lif)", err) ||
        gg_pattern_check_coords(p, err))
        return -1;
    gg_textbuf b = {0};
    gg_textbuf_str(&b, "#Life 1.06\n");
    life_comments(&b, p);
    if (p->rule)
        gg_textbuf_printf(&b, "#R %.200s\n", p->rule);
    const gg_grid *g = &p->plane[0];
    for (int64_t y = 0; g->bits && y < g->height && !b.failed; y++) {
        const uint64_t *row = gg_grid_row(g, y);
        for (int64_t w = 0; w < g->stride; w++)
            for (uint64_t v = row[w]; v; v &= v - 1) {
                int64_t x = w * 64 + __builtin_ctzll(v);
                gg_textbuf_printf(&b, "%lld %lld\n", (long long)(p->x + x),
                                  (long long)(p->y + y));
            }
    }
    if (!gg_textbuf_room(&b, 0)) {
        free(b.s);
        return gg_fail(err, "out of memory formatting a Life 1.06 pattern");
    }
    *text = b.s;
    *len = b.len;
    return 0;
}

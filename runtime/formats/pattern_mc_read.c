/* Golly's macrocell format (.mc), two states, read here and written in
 * runtime/formats/pattern_mc_write.c as bgolly 3.3's HashLife writes it (checked
 * against bgolly in tests/test_oracle.c):
 *
 *   [M2] (golly 3.3)
 *   #R B3/S23          rule          #G 4   generation (when not 0)
 *   $$$$$$$.*$         an 8x8 leaf: rows top down, '.' dead, '*' live,
 *   ..*$***$           trailing dead cells and rows left out
 *   4 0 1 0 2          a node: level, then its nw ne sw se children
 *
 * Every leaf or node line gets the next number (from 1; 0 is empty); a
 * node names earlier lines one level down (leaves are level 3). A
 * multi-state file (Generations) has no 8x8 leaves: its level-1 lines
 * give a 2x2 square's states, "1 nw ne sw se", and nodes start at level 2. The last
 * line is the root. A root of level L covers x from -2^(L-1) and, as
 * Golly's HashLife stores y upwards, y from -2^(L-1) + 1; the writer takes
 * the smallest L >= 4 that holds the cells, as bgolly does. Identical
 * subtrees are written once.
 *
 * golgen refuses what it cannot hold: roots above level 63 (64-bit
 * coordinates), states above 255 and cells beyond Golly's +-2^31. */
#include "pattern.h"

#include <stdlib.h>
#include <string.h>

#include "mc_tree.h"

#define MC_MAX_LEVEL 63
#define MC_MAX_COORD 2147483647LL

typedef gg_mc_node mc_node;

typedef struct mc_reader {
    const char *name;
    gg_err *err;
    mc_node *node; /* node[0] is the empty node */
    size_t n, cap;
    char *comments;
    size_t clen;
    char *rule;     /* #R */
    int64_t gen;    /* #G */
    int max_state;  /* the highest state a line gave */
    gg_stop_flag *stop; /* polled once a line and while drawing */
} mc_reader;

#define MC_FAIL(r, line, ...)                                              \
    gg_fail((r)->err, "%s:%d: " MC_FIRST(__VA_ARGS__), (r)->name,          \
            (line) MC_REST(__VA_ARGS__))
#define MC_FIRST(a, ...) a
#define MC_REST(a, ...) , ##__VA_ARGS__

static int add_node(mc_reader *r, const mc_node *nd, int line)
{
    if (r->n == r->cap) {
        size_t cap = r->cap ? 2 * r->cap : 1024;
        if (cap > UINT32_MAX)
            return MC_FAIL(r, line, "more than %u nodes", UINT32_MAX);
        mc_node *b = realloc(r->node, cap * sizeof *b);
        if (!b)
            return MC_FAIL(r, line, "out of memory for %zu nodes", cap);
        r->node = b;
        r->cap = cap;
    }
    r->node[r->n++] = *nd;
    return 0;
}

static int add_comment(mc_reader *r, const char *s, size_t n)
{
    char *c = realloc(r->comments, r->clen + n + 2);
    if (!c)
        return gg_fail(r->err, "%s: out of memory for comments", r->name);
    memcpy(c + r->clen, s, n);
    r->clen += n;
    c[r->clen++] = '\n';
    c[r->clen] = 0;
    r->comments = c;
    return 0;
}

static int read_leaf(mc_reader *r, const char *s, const char *e, int line)
{
    mc_node nd = {.level = 3, .x0 = 8, .y0 = 8, .x1 = -1, .y1 = -1};
    int x = 0, y = 0;
    for (; s < e; s++) {
        if (*s == '$') {
            x = 0;
            y++;
            continue;
        }
        if ((*s != '.' && *s != '*') || x > 7 || y > 7)
            return MC_FAIL(r, line, "bad leaf line; an 8x8 leaf is rows of "
                           "'.' and '*' (8 at most), each ended by '$'");
        if (*s == '*') {
            nd.leaf |= 1ull << (8 * y + x);
            nd.x0 = x < nd.x0 ? x : nd.x0;
            nd.x1 = x > nd.x1 ? x : nd.x1;
            nd.y0 = y < nd.y0 ? y : nd.y0;
            nd.y1 = y;
        }
        x++;
    }
    nd.empty = nd.leaf == 0;
    nd.top = !nd.empty;
    return add_node(r, &nd, line);
}

/* An unsigned decimal within max; advances *s. */
static bool read_uint(const char **s, const char *e, uint64_t max,
                      uint64_t *v)
{
    while (*s < e && **s == ' ')
        (*s)++;
    if (*s >= e || **s < '0' || **s > '9')
        return false;
    uint64_t n = 0;
    for (; *s < e && **s >= '0' && **s <= '9'; (*s)++) {
        uint64_t d = (uint64_t)(**s - '0');
        if (d > max || n > (max - d) / 10) /* n * 10 + d would pass max */
            return false;
        n = n * 10 + d;
    }
    *v = n;
    return true;
}

/* The box and highest state of a node from its children's. */
static void node_box(mc_reader *r, mc_node *nd)
{
    int64_t half = (int64_t)1 << (nd->level - 1);
    nd->empty = true;
    for (int q = 0; q < 4; q++) {
        const mc_node *c = &r->node[nd->child[q]];
        if (c->empty)
            continue;
        if (c->top > nd->top)
            nd->top = c->top;
        int64_t dx = (q & 1) * half, dy = (q >> 1) * half;
        if (nd->empty || c->x0 + dx < nd->x0)
            nd->x0 = c->x0 + dx;
        if (nd->empty || c->y0 + dy < nd->y0)
            nd->y0 = c->y0 + dy;
        if (nd->empty || c->x1 + dx > nd->x1)
            nd->x1 = c->x1 + dx;
        if (nd->empty || c->y1 + dy > nd->y1)
            nd->y1 = c->y1 + dy;
        nd->empty = false;
    }
}

/* A multi-state file's "1 nw ne sw se": four states of a 2x2 square. */
static int read_states(mc_reader *r, const char *s, const char *e, int line)
{
    mc_node nd = {.level = 1, .x0 = 2, .y0 = 2, .x1 = -1, .y1 = -1,
                  .empty = true};
    for (int q = 0; q < 4; q++) {
        uint64_t v;
        if (!read_uint(&s, e, 255, &v))
            return MC_FAIL(r, line, "bad level-1 line; it is \"1 nw ne sw "
                           "se\" with four states 0..255");
        nd.state[q] = (uint8_t)v;
        if (v > (uint64_t)r->max_state)
            r->max_state = (int)v;
        if (v > nd.top)
            nd.top = (uint8_t)v;
        if (!v)
            continue;
        int x = q & 1, y = q >> 1;
        nd.x0 = x < nd.x0 ? x : nd.x0;
        nd.x1 = x > nd.x1 ? x : nd.x1;
        nd.y0 = y < nd.y0 ? y : nd.y0;
        nd.y1 = y > nd.y1 ? y : nd.y1;
        nd.empty = false;
    }
    while (s < e && *s == ' ')
        s++;
    if (s < e)
        return MC_FAIL(r, line, "text after the level-1 node's four states");
    return add_node(r, &nd, line);
}

static int read_node(mc_reader *r, const char *s, const char *e, int line)
{
    uint64_t level, c[4];
    if (!read_uint(&s, e, 1000, &level))
        return MC_FAIL(r, line, "bad node line; a node is \"level nw ne sw "
                       "se\" with numbers");
    if (level == 1)
        return read_states(r, s, e, line);
    if (level < 2)
        return MC_FAIL(r, line, "a level-0 node; nodes start at level 1");
    if (level > MC_MAX_LEVEL)
        return MC_FAIL(r, line, "a level-%d node is beyond golgen's 64-bit "
                       "coordinates (level %d at most)", (int)level,
                       MC_MAX_LEVEL);
    mc_node nd = {.level = (int)level};
    for (int q = 0; q < 4; q++) {
        if (!read_uint(&s, e, r->n - 1, &c[q]))
            return MC_FAIL(r, line, "bad node line; a node is \"level nw ne "
                           "sw se\", each child 0 or an earlier line's "
                           "number (below %zu)", r->n);
        if (c[q] && r->node[c[q]].level != (int)level - 1)
            return MC_FAIL(r, line, "child %llu is level %d; a level-%d "
                           "node takes level-%d children",
                           (unsigned long long)c[q], r->node[c[q]].level,
                           (int)level, (int)level - 1);
        nd.child[q] = (uint32_t)c[q];
    }
    while (s < e && *s == ' ')
        s++;
    if (s < e)
        return MC_FAIL(r, line, "text after the node's four children");
    node_box(r, &nd);
    return add_node(r, &nd, line);
}

/* "#R rule", "#G gen"; other '#' lines are comments. */
static int read_hash_line(mc_reader *r, const char *s, const char *e,
                          int line)
{
    if (e - s >= 2 && (s[1] == 'R' || s[1] == 'G')) {
        const char *v = s + 2, *ve;
        while (v < e && (*v == ' ' || *v == '\t'))
            v++;
        for (ve = v; ve < e && (unsigned char)*ve > ' ';)
            ve++;
        if (s[1] == 'G') {
            uint64_t g;
            const char *t = v;
            if (!read_uint(&t, ve, INT64_MAX, &g) || t != ve)
                return MC_FAIL(r, line, "bad #G line; write the generation "
                               "as #G N with N >= 0");
            r->gen = (int64_t)g;
            return 0;
        }
        if (ve == v)
            return MC_FAIL(r, line, "#R line without a rule");
        free(r->rule);
        if (!(r->rule = strndup(v, (size_t)(ve - v))))
            return gg_fail(r->err, "%s: out of memory", r->name);
        return 0;
    }
    return add_comment(r, s, (size_t)(e - s));
}

/* Eight cells of a leaf row into grid row y from column x, a word at a
 * time (a dense 64k x 64k file drew cell by cell for seconds). The live
 * cells lie inside the grid; the dead ones may not, so only words that
 * receive live bits are touched. */
static void or_byte(gg_grid *g, int64_t x, int64_t y, unsigned bits)
{
    if (!bits)
        return;
    if (x < 0) {
        bits >>= -x;
        x = 0;
    }
    uint64_t *row = gg_grid_row(g, y);
    int s = (int)(x & 63);
    row[x >> 6] |= (uint64_t)bits << s;
    if (s > 56 && bits >> (64 - s))
        row[(x >> 6) + 1] |= (uint64_t)bits >> (64 - s);
}

/* Nodes this high poll stop while drawing: a level-12 node is 4096^2
 * cells, milliseconds of drawing at most. */
#define DRAW_POLL_LEVEL 12

/* gg_mc_draw_planes; false once stop is set (the planes then half drawn). */
static bool draw(const gg_mc_node *node, uint32_t id, gg_grid *planes,
                 int np, int64_t ox, int64_t oy, gg_stop_flag *stop)
{
    const mc_node *nd = &node[id];
    if (nd->empty)
        return true;
    if (nd->level >= DRAW_POLL_LEVEL && gg_stop_asked(stop))
        return false;
    if (nd->level == 1) {
        for (int q = 0; q < 4; q++)
            for (int p = 0; p < np; p++)
                or_byte(&planes[p], ox + (q & 1), oy + (q >> 1),
                        (nd->state[q] >> p) & 1u);
        return true;
    }
    if (nd->level == 3 && !nd->child[0] && !nd->child[1] && !nd->child[2] &&
        !nd->child[3]) { /* an 8x8 leaf line: state 1 */
        for (int r = 0; r < 8; r++)
            or_byte(&planes[0], ox, oy + r,
                    (unsigned)(nd->leaf >> (8 * r)) & 0xff);
        return true;
    }
    int64_t half = (int64_t)1 << (nd->level - 1);
    for (int q = 0; q < 4; q++)
        if (!draw(node, nd->child[q], planes, np, ox + (q & 1) * half,
                  oy + (q >> 1) * half, stop))
            return false;
    return true;
}

void gg_mc_draw_planes(const gg_mc_node *node, uint32_t id, gg_grid *planes,
                       int np, int64_t ox, int64_t oy)
{
    (void)draw(node, id, planes, np, ox, oy, NULL);
}

void gg_mc_draw(const gg_mc_node *node, uint32_t id, gg_grid *g, int64_t ox,
                int64_t oy)
{
    gg_mc_draw_planes(node, id, g, 1, ox, oy);
}

/* Planes for states 0..max (bit p of a state in plane p). */
static int planes_for(int max_state)
{
    int np = 1;
    while ((1 << np) <= max_state)
        np++;
    return np;
}

/* The root's cells into p: box, position, cells. */
static int render(mc_reader *r, gg_pattern *p)
{
    uint32_t root = (uint32_t)(r->n - 1);
    const mc_node *nd = &r->node[root];
    if (root == 0 || nd->empty)
        return gg_pattern_init(p, 0, 0, 1, r->err);
    int64_t half = (int64_t)1 << (nd->level - 1);
    int64_t rx = -half, ry = -half + 1; /* the root's top-left cell */
    int64_t x0 = rx + nd->x0, y0 = ry + nd->y0;
    int64_t x1 = rx + nd->x1, y1 = ry + nd->y1;
    if (x0 < -MC_MAX_COORD - 1 || y0 < -MC_MAX_COORD - 1 ||
        x1 > MC_MAX_COORD || y1 > MC_MAX_COORD)
        return gg_fail(r->err, "%s: cells from (%lld, %lld) to (%lld, %lld) "
                       "lie beyond Golly's coordinates (+-2^31)", r->name,
                       (long long)x0, (long long)y0, (long long)x1,
                       (long long)y1);
    /* planes for the states the root reaches, not for every line's (an
     * unreachable line may name higher ones), as RLE reads them back */
    int np = planes_for(nd->top);
    if (gg_pattern_init(p, x1 - x0 + 1, y1 - y0 + 1, np, r->err))
        return -1;
    p->x = x0;
    p->y = y0;
    p->multistate = r->max_state > 1;
    p->known_max = nd->top + 1;
    if (!draw(r->node, root, p->plane, np, rx - x0, ry - y0, r->stop))
        return gg_fail(r->err, "stopped while reading '%s'", r->name);
    return 0;
}

static int read_lines(mc_reader *r, const char *s, const char *end)
{
    int line = 1;
    for (const char *e; s < end; line++) {
        for (e = s; e < end && *e != '\n' && *e != '\r';)
            e++;
        int rc = 0;
        if (gg_stop_asked(r->stop))
            return gg_fail(r->err, "stopped while reading '%s'", r->name);
        if (line == 1)
            rc = e - s >= 4 && memcmp(s, "[M2]", 4) == 0
                     ? 0
                     : MC_FAIL(r, line, "not a macrocell file: the first "
                               "line starts with [M2]");
        else if (s < e && *s == '#')
            rc = read_hash_line(r, s, e, line);
        else if (s < e && (*s == '.' || *s == '*' || *s == '$'))
            rc = read_leaf(r, s, e, line);
        else if (s < e && *s >= '0' && *s <= '9')
            rc = read_node(r, s, e, line);
        else if (s < e)
            rc = MC_FAIL(r, line, "unexpected '%c'; macrocell lines are "
                         "'#' lines, leaves (. * $) and nodes (numbers)",
                         *s);
        if (rc)
            return -1;
        s = e < end && *e == '\r' && e + 1 < end && e[1] == '\n' ? e + 2
                                                                  : e + 1;
    }
    return 0;
}

/* The file's lines into r (r->node[0] the empty node); -1 with r->err. */
static int parse(mc_reader *r, const char *text, size_t len)
{
    mc_node empty = {.level = 0, .empty = true};
    const char *s = text, *end = text + len;
    if (len >= 3 && memcmp(s, "\xEF\xBB\xBF", 3) == 0)
        s += 3;
    if (add_node(r, &empty, 0) || read_lines(r, s, end)) {
        free(r->node);
        free(r->comments);
        free(r->rule);
        return -1;
    }
    return 0;
}

int gg_mc_tree_parse(const char *text, size_t len, const char *name,
                     gg_mc_tree *t, gg_err *err)
{
    memset(t, 0, sizeof *t);
    mc_reader r = {.name = name ? name : "<pattern>", .err = err};
    if (parse(&r, text, len))
        return -1;
    t->node = r.node;
    t->n = r.n;
    t->rule = r.rule;
    t->comments = r.comments;
    t->generation = r.gen;
    t->max_state = r.max_state > 1 ? r.max_state : 1;
    return 0;
}

void gg_mc_tree_free(gg_mc_tree *t)
{
    free(t->node);
    free(t->rule);
    free(t->comments);
    memset(t, 0, sizeof *t);
}

int gg_pattern_parse_mc(const char *text, size_t len, const char *name,
                        gg_pattern *p, gg_err *err)
{
    return gg_pattern_parse_mc_stop(text, len, name, NULL, p, err);
}

int gg_pattern_parse_mc_stop(const char *text, size_t len, const char *name,
                             gg_stop_flag *stop, gg_pattern *p, gg_err *err)
{
    memset(p, 0, sizeof *p);
    mc_reader r = {.name = name ? name : "<pattern>", .err = err,
                   .stop = stop};
    if (parse(&r, text, len))
        return -1;
    int rc = render(&r, p);
    free(r.node);
    if (rc) {
        free(r.comments);
        free(r.rule);
        gg_pattern_free(p);
        return -1;
    }
    p->comments = r.comments;
    p->rule = r.rule;
    p->generation = r.gen;
    return 0;
}

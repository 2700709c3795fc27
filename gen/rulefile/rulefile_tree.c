/* @TREE as Golly 3.3's ruletreealgo reads it: num_states, num_neighbors
 * (4 or 8) and num_nodes, then one line per node, "level v0 v1 ...", the
 * last node the root; a level-1 node's values are states, a higher one's
 * the indices of nodes one level down. */
#include "rulefile_parts.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct tree {
    int states, neighbours, nodes; /* -1 until read */
    int64_t n;                     /* node lines read */
    int last_level;
} tree;

/* "num_states = 3" and the like, spaces anywhere around the '=' */
static bool header(const char *l, const char *key, int *v)
{
    char fmt[40];
    snprintf(fmt, sizeof fmt, " %s = %%d", key);
    return sscanf(l, fmt, v) == 1;
}

static int check_header(const tree *tr, const gg_rf_text *t, int line,
                        gg_err *err)
{
    if (tr->states < 2 || tr->states > 256)
        return gg_rf_fail(err, t, line, "num_states must be 2..256 before "
                          "the first node (got %d)", tr->states);
    if (tr->neighbours != 4 && tr->neighbours != 8)
        return gg_rf_fail(err, t, line, "num_neighbors must be 4 or 8 "
                          "before the first node (got %d)", tr->neighbours);
    if (tr->nodes < tr->neighbours || tr->nodes > 100000000)
        return gg_rf_fail(err, t, line, "num_nodes must be %d..100000000 "
                          "before the first node (got %d)", tr->neighbours,
                          tr->nodes);
    return 0;
}

/* One node line into the DAG's flat array (node index tr->n). */
static int read_node(tree *tr, gg_rf_dag *d, const char *l, size_t n,
                     const gg_rf_text *t, int line, gg_err *err)
{
    int lev = l[0] - '0';
    if (lev < 1 || lev > tr->neighbours + 1)
        return gg_rf_fail(err, t, line, "a node line starts with its level, "
                          "1..%d", tr->neighbours + 1);
    if (tr->n == tr->nodes)
        return gg_rf_fail(err, t, line, "more nodes than num_nodes=%d",
                          tr->nodes);
    if ((tr->n + 1) * tr->states > (int64_t)UINT32_MAX)
        return gg_rf_fail(err, t, line, "the tree passes 2^32 entries");
    uint32_t e[256];
    int count = 0;
    for (size_t i = 1; i < n;) {
        while (i < n && isspace((unsigned char)l[i]))
            i++;
        if (i == n)
            break;
        int64_t v = 0;
        for (; i < n && !isspace((unsigned char)l[i]); i++) {
            if (!isdigit((unsigned char)l[i]))
                return gg_rf_fail(err, t, line, "'%c' in a node line (only "
                                  "digits and spaces)", l[i]);
            if (v < 1000000000)
                v = v * 10 + l[i] - '0';
        }
        if (count == tr->states)
            return gg_rf_fail(err, t, line, "more than num_states=%d values "
                              "on a node line", tr->states);
        if (lev == 1 && v >= tr->states)
            return gg_rf_fail(err, t, line, "state %lld out of range "
                              "(0..%d)", (long long)v, tr->states - 1);
        if (lev > 1 && v >= tr->n)
            return gg_rf_fail(err, t, line, "node %lld is not defined above",
                              (long long)v);
        if (lev > 1 && d->level[v] != lev - 1)
            return gg_rf_fail(err, t, line, "node %lld is not one level down "
                              "(level %d, this node's %d)", (long long)v,
                              d->level[v], lev);
        e[count++] = lev == 1 ? (uint32_t)v : (uint32_t)(v * tr->states);
    }
    if (count != tr->states)
        return gg_rf_fail(err, t, line, "%d values on a node line, "
                          "num_states=%d wants %d", count, tr->states,
                          tr->states);
    /* nodes keep their file order (children are referred to by index),
     * so they are appended, not shared */
    if (d->n_nodes == d->cap_nodes) {
        int64_t cap = d->cap_nodes ? d->cap_nodes * 2 : 256;
        uint32_t *f = realloc(d->flat, (size_t)(cap * tr->states) * 4);
        if (f)
            d->flat = f;
        uint8_t *lv = f ? realloc(d->level, (size_t)cap) : NULL;
        if (!lv)
            return gg_fail(err, "out of memory for the rule's tree");
        d->level = lv;
        d->cap_nodes = cap;
    }
    memcpy(d->flat + d->n_nodes * tr->states, e, (size_t)count * 4);
    d->level[d->n_nodes++] = (uint8_t)lev;
    tr->n++;
    tr->last_level = lev;
    return 0;
}

static int read_lines(gg_rf_text *t, tree *tr, gg_rf_dag *d, gg_err *err)
{
    const char *l;
    size_t n;
    char buf[64];
    while (gg_rf_next_line(t, &l, &n)) {
        int line = t->line - 1;
        size_t k = n < sizeof buf - 1 ? n : sizeof buf - 1;
        memcpy(buf, l, k);
        buf[k] = 0;
        size_t blank = 0;
        while (blank < n && isspace((unsigned char)l[blank]))
            blank++;
        if (blank == n || l[0] == '#')
            continue;
        if (header(buf, "num_states", &tr->states) ||
            header(buf, "num_neighbors", &tr->neighbours) ||
            header(buf, "num_nodes", &tr->nodes))
            continue;
        if (check_header(tr, t, line, err))
            return -1;
        if (!d->slots && gg_rf_dag_init(d, tr->states, err))
            return -1;
        if (read_node(tr, d, l, n, t, line, err))
            return -1;
    }
    return 0;
}

int gg_rf_tree_read(gg_rf_text *t, gg_rulefile *rf, gg_err *err)
{
    tree tr = {.states = -1, .neighbours = -1, .nodes = -1};
    gg_rf_dag d = {0};
    int bad = read_lines(t, &tr, &d, err);
    if (!bad && tr.n == 0)
        bad = gg_rf_fail(err, t, t->line, "@TREE has no node lines");
    if (!bad && tr.n != tr.nodes)
        bad = gg_rf_fail(err, t, t->line, "%lld node lines, num_nodes=%d",
                         (long long)tr.n, tr.nodes);
    if (!bad && tr.last_level != tr.neighbours + 1)
        bad = gg_rf_fail(err, t, t->line, "the last node (the root) is at "
                         "level %d, not %d", tr.last_level,
                         tr.neighbours + 1);
    if (bad) {
        gg_rf_dag_free(&d);
        return -1;
    }
    rf->is_tree = true;
    rf->n_states = tr.states;
    rf->nbhd = tr.neighbours == 8 ? GG_RF_MOORE : GG_RF_VONNEUMANN;
    rf->n_inputs = tr.neighbours + 1;
    gg_rf_dag_finish(&d, rf, (uint32_t)((tr.n - 1) * tr.states));
    return 0;
}

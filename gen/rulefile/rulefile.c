#include "rulefile_parts.h"

#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

bool gg_rf_next_line(gg_rf_text *t, const char **l, size_t *n)
{
    if (t->s >= t->end || *t->s == '@')
        return false;
    const char *e = memchr(t->s, '\n', (size_t)(t->end - t->s));
    if (!e)
        e = t->end;
    *l = t->s;
    *n = (size_t)(e - t->s);
    if (*n && (*l)[*n - 1] == '\r') /* files saved on Windows */
        (*n)--;
    t->s = e < t->end ? e + 1 : e;
    t->line++;
    return true;
}

int gg_rf_fail(gg_err *err, const gg_rf_text *t, int line, const char *fmt,
               ...)
{
    char what[400];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(what, sizeof what, fmt, ap);
    va_end(ap);
    return gg_fail(err, "%s:%d: %s", t->name, line, what);
}

/* ---- the DAG under construction ---- */

int gg_rf_dag_init(gg_rf_dag *d, int n_states, gg_err *err)
{
    memset(d, 0, sizeof *d);
    d->n_states = n_states;
    d->n_slots = 1024;
    d->slots = gg_alloc((size_t)d->n_slots, sizeof *d->slots, err,
                        "the rule's node table");
    return d->slots ? 0 : -1;
}

static uint64_t node_hash(int level, const uint32_t *e, int n)
{
    uint64_t h = 0x9e3779b97f4a7c15ull ^ (uint64_t)level;
    for (int i = 0; i < n; i++)
        h = (h ^ e[i]) * 0x100000001b3ull;
    return h ^ (h >> 29);
}

static bool same_node(const gg_rf_dag *d, int64_t node, int level,
                      const uint32_t *e)
{
    return d->level[node] == level &&
           !memcmp(d->flat + node * d->n_states, e,
                   (size_t)d->n_states * sizeof *e);
}

/* Double the slots when half full, so probes stay short. */
static int grow_slots(gg_rf_dag *d, gg_err *err)
{
    int64_t n = d->n_slots * 2;
    int64_t *s = gg_alloc((size_t)n, sizeof *s, err, "the rule's node table");
    if (!s)
        return -1;
    for (int64_t i = 0; i < d->n_nodes; i++) {
        uint64_t h = node_hash(d->level[i], d->flat + i * d->n_states,
                               d->n_states);
        int64_t k = (int64_t)(h & (uint64_t)(n - 1));
        while (s[k])
            k = (k + 1) & (n - 1);
        s[k] = i + 1;
    }
    free(d->slots);
    d->slots = s;
    d->n_slots = n;
    return 0;
}

static int grow_nodes(gg_rf_dag *d, gg_err *err)
{
    int64_t cap = d->cap_nodes ? d->cap_nodes * 2 : 256;
    /* offsets are 32-bit: Golly's own limit is 10^8 nodes */
    if (cap * d->n_states > UINT32_MAX)
        return gg_fail(err, "the rule's decision DAG passes 2^32 entries");
    uint32_t *f = realloc(d->flat, (size_t)(cap * d->n_states) * sizeof *f);
    if (f)
        d->flat = f;
    uint8_t *l = f ? realloc(d->level, (size_t)cap) : NULL;
    if (!l)
        return gg_fail(err, "out of memory for the rule's decision DAG");
    d->level = l;
    d->cap_nodes = cap;
    return 0;
}

int64_t gg_rf_dag_node(gg_rf_dag *d, int level, const uint32_t *entries,
                       gg_err *err)
{
    uint64_t h = node_hash(level, entries, d->n_states);
    int64_t k = (int64_t)(h & (uint64_t)(d->n_slots - 1));
    for (; d->slots[k]; k = (k + 1) & (d->n_slots - 1))
        if (same_node(d, d->slots[k] - 1, level, entries))
            return (d->slots[k] - 1) * d->n_states;
    if (d->n_nodes == d->cap_nodes && grow_nodes(d, err))
        return -1;
    int64_t node = d->n_nodes++;
    memcpy(d->flat + node * d->n_states, entries,
           (size_t)d->n_states * sizeof *entries);
    d->level[node] = (uint8_t)level;
    d->slots[k] = node + 1;
    if (2 * d->n_nodes > d->n_slots && grow_slots(d, err))
        return -1;
    return node * d->n_states;
}

void gg_rf_dag_finish(gg_rf_dag *d, gg_rulefile *rf, uint32_t root)
{
    rf->flat = d->flat;
    rf->n_nodes = d->n_nodes;
    rf->root = root;
    for (int i = 0; i < GG_RF_MAX_INPUTS; i++)
        rf->reads[i] = (uint8_t)i;
    d->flat = NULL;
    gg_rf_dag_free(d);
}

void gg_rf_dag_free(gg_rf_dag *d)
{
    free(d->flat);
    free(d->level);
    free(d->slots);
    memset(d, 0, sizeof *d);
}

/* ---- the file ---- */

static bool line_is(const char *l, size_t n, const char *word)
{
    while (n && isspace((unsigned char)l[n - 1]))
        n--;
    return n == strlen(word) && !memcmp(l, word, n);
}

/* "@RULE name": the name, trimmed, as far as it fits. */
static void read_name(const char *l, size_t n, gg_rulefile *rf)
{
    size_t i = 5;
    while (i < n && isspace((unsigned char)l[i]))
        i++;
    while (n > i && isspace((unsigned char)l[n - 1]))
        n--;
    size_t k = n - i < sizeof rf->name - 1 ? n - i : sizeof rf->name - 1;
    memcpy(rf->name, l + i, k);
    rf->name[k] = 0;
}

/* Golly reads the first @TABLE or @TREE section and nothing after it. */
int gg_rulefile_parse(const char *text, size_t len, const char *name,
                      gg_rulefile *rf, gg_err *err)
{
    memset(rf, 0, sizeof *rf);
    gg_rf_text t = {.name = name, .s = text, .end = text + len, .line = 1};
    while (t.s < t.end) {
        const char *l = t.s, *e = memchr(t.s, '\n', (size_t)(t.end - t.s));
        size_t n = (size_t)((e ? e : t.end) - l);
        t.s = e ? e + 1 : t.end;
        t.line++;
        if (n >= 5 && !memcmp(l, "@RULE", 5) && !rf->name[0])
            read_name(l, n, rf);
        if (line_is(l, n, "@TREE")) {
            if (!gg_rf_tree_read(&t, rf, err))
                return 0;
            gg_rulefile_free(rf);
            return -1;
        }
        if (line_is(l, n, "@TABLE")) {
            gg_rf_table tab;
            int bad = gg_rf_table_read(&t, &tab, err) ||
                      gg_rf_table_build(&tab, &t, rf, err);
            gg_rf_table_free(&tab);
            if (bad)
                gg_rulefile_free(rf);
            return bad ? -1 : 0;
        }
    }
    return gg_fail(err, "%s: no @TABLE or @TREE section (the rule's "
                   "transitions); golgen runs rule files that define one",
                   name);
}

void gg_rulefile_free(gg_rulefile *rf)
{
    free(rf->flat);
    memset(rf, 0, sizeof *rf);
}

int gg_rulefile_next(const gg_rulefile *rf, const uint8_t block[9])
{
    static const int moore[9] = {0, 2, 6, 8, 1, 3, 5, 7, 4};
    static const int vn[5] = {1, 3, 5, 7, 4};
    const int *order = rf->n_inputs == 9 ? moore : vn;
    uint8_t in[9];
    for (int i = 0; i < rf->n_inputs; i++)
        in[i] = block[order[i]];
    return gg_rulefile_lookup(rf, in);
}

const char *gg_rf_nbhd_name(gg_rf_nbhd n)
{
    static const char *const names[] = {"Moore", "vonNeumann", "hexagonal",
                                        "oneDimensional"};
    return names[n];
}

int gg_rf_nbhd_neighbours(gg_rf_nbhd n)
{
    static const int count[] = {8, 4, 6, 2};
    return count[n];
}

bool gg_rulefile_zero_stays(const gg_rulefile *rf)
{
    static const uint8_t zero[9] = {0};
    return gg_rulefile_next(rf, zero) == 0;
}

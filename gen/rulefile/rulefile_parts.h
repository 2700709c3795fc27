/* The parts gen/rulefile/ shares inside itself: a section's lines, the
 * DAG under construction (hash-consed nodes) and a parsed @TABLE before
 * its symmetries are applied. Not for use outside gen/rulefile/. */
#ifndef GG_RULEFILE_PARTS_H
#define GG_RULEFILE_PARTS_H

#include "rulefile.h"

/* One section's lines: `line` is the number of the next line to read. */
typedef struct gg_rf_text {
    const char *name; /* the file, for messages */
    const char *s, *end;
    int line;
} gg_rf_text;

/* The next line of the section (without its line end) into *l, *n; false
 * at the end of the text or at a line starting with '@' (the next
 * section, which is left unread). */
bool gg_rf_next_line(gg_rf_text *t, const char **l, size_t *n);

/* Error naming the file and line: always -1. */
int gg_rf_fail(gg_err *err, const gg_rf_text *t, int line, const char *fmt,
               ...) __attribute__((format(printf, 4, 5)));

/* Nodes as gg_rulefile's flat array, equal nodes of one level stored
 * once so a table's DAG stays as small as its distinct sub-functions. */
typedef struct gg_rf_dag {
    int n_states;
    uint32_t *flat;
    uint8_t *level;  /* per node */
    int64_t n_nodes, cap_nodes;
    int64_t *slots;  /* hash of node -> node index + 1 (0: empty) */
    int64_t n_slots;
} gg_rf_dag;

int gg_rf_dag_init(gg_rf_dag *d, int n_states, gg_err *err);
/* Offset in flat of the node at `level` with these n_states entries, an
 * existing equal one if there is one; -1 with err when too large. */
int64_t gg_rf_dag_node(gg_rf_dag *d, int level, const uint32_t *entries,
                       gg_err *err);
/* Hand the nodes to rf (root: the root's offset; level i reading input
 * i); d is then empty. */
void gg_rf_dag_finish(gg_rf_dag *d, gg_rulefile *rf, uint32_t root);
void gg_rf_dag_free(gg_rf_dag *d);

#define GG_RF_MAX_INPUTS 9

/* A table after its lines were read and its variables bound: n_base
 * transitions, each n_inputs sets of states (256 bits each, in the
 * table's own input order: c n ne e se s sw w nw for Moore, c n e s w
 * for vonNeumann, c n e se s w nw hexagonal, c w e one-dimensional) and
 * an output. */
typedef struct gg_rf_table {
    int n_states, n_inputs;
    gg_rf_nbhd nbhd;
    char symmetries[24];
    int64_t n_lines;
    int64_t n_base, cap_base;
    uint64_t *sets; /* n_base * n_inputs * 4 words */
    uint8_t *out;
} gg_rf_table;

/* Read an @TABLE section (t at its first line). */
int gg_rf_table_read(gg_rf_text *t, gg_rf_table *tab, gg_err *err);
void gg_rf_table_free(gg_rf_table *tab);

/* The DAG of a read table, into rf (gen/rulefile/rulefile_build.c). */
int gg_rf_table_build(const gg_rf_table *tab, const gg_rf_text *t,
                      gg_rulefile *rf, gg_err *err);

/* Read an @TREE section into rf. */
int gg_rf_tree_read(gg_rf_text *t, gg_rulefile *rf, gg_err *err);

#endif

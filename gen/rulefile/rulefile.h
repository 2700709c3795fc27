/* Golly's rule files (.rule): @RULE name, then an @TABLE (n_states,
 * neighborhood, symmetries, variables, transitions) or an @TREE (the
 * decision DAG Golly's RuleTree algorithm reads); @COLORS, @ICONS and
 * other sections are read past. Both map to one representation, a
 * decision DAG in @TREE's shape: one level per input, the inputs in
 * Golly's tree order (nw ne sw se n w e s c for 8 neighbours, n w e s c
 * for 4), the last level's entries the next state. A table's semantics
 * are Golly 3.3's ruletable_algo: a variable named more than once in one
 * transition takes the same value each time (bound), once it is any of
 * its values; symmetries add the transition's permuted copies; the first
 * transition (in file order) that matches wins; a cell no transition
 * matches keeps its state. Hexagonal tables read the square grid's
 * neighbours without NE and SW, one-dimensional ones W and E, as Golly.
 *
 * Pure text: finding a rule's file is the runtime's job
 * (runtime/formats/rule_find.h). */
#ifndef GG_RULEFILE_H
#define GG_RULEFILE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "error.h"

typedef enum gg_rf_nbhd {
    GG_RF_MOORE,       /* 8 neighbours */
    GG_RF_VONNEUMANN,  /* 4 */
    GG_RF_HEXAGONAL,   /* 6: Moore without NE and SW */
    GG_RF_ONEDIM,      /* 2: W and E */
} gg_rf_nbhd;

typedef struct gg_rulefile {
    char name[128];       /* @RULE's name ("" when the file has none) */
    bool is_tree;         /* from @TREE (else @TABLE); also builtin's */
    bool builtin;         /* one of Golly's JvN rules, no file read */
    int n_states;         /* 2..256 */
    gg_rf_nbhd nbhd;      /* a tree's: Moore or vonNeumann */
    char symmetries[24];  /* a table's, as written ("" for a tree) */
    int64_t n_transitions; /* a table's transition lines */
    int64_t n_expanded;    /* after binding variables and symmetries */
    /* The DAG: n_inputs levels (9 or 5), node entries n_states each in
     * flat; an entry of a node above the last level is the offset in flat
     * of its child, of a last-level node the next state. Level i reads
     * input reads[i] (in tree order): input i for rule files, the centre
     * first for a built-in rule whose graph is smaller that way. */
    int n_inputs;
    uint8_t reads[9];
    int64_t n_nodes;
    uint32_t *flat;
    uint32_t root; /* offset of the root node */
} gg_rulefile;

/* Parse a whole .rule file; `name` is how messages name it (its path).
 * Errors name the line and the problem; *rf is then empty. */
int gg_rulefile_parse(const char *text, size_t len, const char *name,
                      gg_rulefile *rf, gg_err *err);

void gg_rulefile_free(gg_rulefile *rf);

/* Golly's JvN algorithm's rules, JvN29, Nobili32 and Hutton32
 * (gen/rulefile/rulefile_jvn.c), built in: 1 with *rf filled (its name
 * Golly's, builtin set, as a vonNeumann tree) when the `len` characters of
 * `name` name one, in any case, or by its older name (JvN-29, JvN-32,
 * modJvN-32) as Golly reads them; 0 when they do not; -1 with err out of
 * memory. */
int gg_rulefile_builtin(const char *name, size_t len, gg_rulefile *rf,
                        gg_err *err);

/* Those rules' transition, cell by cell: the next state of centre c with
 * neighbours n w e s, for rule 0 (JvN29), 1 (Nobili32) or 2 (Hutton32);
 * the graph gg_rulefile_builtin builds is this function's. */
int gg_rulefile_jvn_cell(int rule, int c, int n, int w, int e, int s);

/* Next state from the inputs in tree order (rf->n_inputs of them). */
static inline int gg_rulefile_lookup(const gg_rulefile *rf,
                                     const uint8_t *in)
{
    uint32_t o = rf->root;
    for (int i = 0; i < rf->n_inputs - 1; i++)
        o = rf->flat[o + in[rf->reads[i]]];
    return (int)rf->flat[o + in[rf->reads[rf->n_inputs - 1]]];
}

/* Next state of the centre of a 3x3 block given row by row (nw n ne w c
 * e sw s se); the neighbours the rule does not read are ignored. */
int gg_rulefile_next(const gg_rulefile *rf, const uint8_t block[9]);

/* Neighbourhood as Golly names it ("Moore", "vonNeumann", ...) and its
 * neighbour count. */
const char *gg_rf_nbhd_name(gg_rf_nbhd n);
int gg_rf_nbhd_neighbours(gg_rf_nbhd n);

/* Whether a cell in state 0 with every neighbour 0 stays 0: the unbounded
 * plane needs it (else the whole plane would wake). */
bool gg_rulefile_zero_stays(const gg_rulefile *rf);

#endif

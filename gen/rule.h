/* Rules in Golly's notation for the outer-totalistic families.
 *
 * A rule is a neighbourhood (a list of neighbour offsets), a transition
 * (today: birth and survival sets over neighbour counts) and a topology.
 * Everything downstream asks the rule for the next state of one cell given
 * its centre and the bits of its neighbours in offset order
 * (gg_rule_next), so non-totalistic transitions and the 26-cell 3D
 * neighbourhood can be added as new `kind`/`nbhd` values without changing
 * the callers. */
#ifndef GG_RULE_H
#define GG_RULE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "error.h"

typedef enum gg_nbhd {
    GG_NBHD_MOORE,       /* 8 neighbours */
    GG_NBHD_VONNEUMANN,  /* 4 orthogonal neighbours, Golly suffix V */
    GG_NBHD_HEX,         /* Moore minus NE and SW, Golly suffix H */
    GG_NBHD_COUNT
} gg_nbhd;

typedef enum gg_rule_kind {
    GG_KIND_TOTALISTIC,  /* outcome depends on centre and neighbour count */
} gg_rule_kind;

typedef enum gg_topo {
    GG_TOPO_UNBOUNDED,   /* Golly's infinite plane (no suffix) */
    GG_TOPO_TORUS,       /* :TW,H */
    GG_TOPO_PLANE,       /* :PW,H, dead cells outside */
} gg_topo;

/* dz stays 0 for the 2D families; the 3D Moore neighbourhood (26 cells,
 * seed 003) will use it. */
typedef struct gg_offset {
    int dx, dy, dz;
} gg_offset;

#define GG_MAX_NEIGHBOURS 26 /* counts fit the 32-bit birth/survive masks */
#define GG_MAX_GRID_SIDE 2000000000LL /* Golly's own limit */

typedef struct gg_rule {
    gg_rule_kind kind;
    gg_nbhd nbhd;
    int n_neighbours;
    uint32_t birth;    /* bit c set: a dead cell with c live neighbours is born */
    uint32_t survive;  /* bit c set: a live cell with c neighbours survives */
    gg_topo topo;
    int64_t width, height; /* bounded topologies only */
} gg_rule;

/* Parse Golly notation: B3/S23, b3/s23, 23/3 (old S/B form), B2/S013V,
 * B245/S3H, optional :TW,H / :PW,H / :TW (square). On error the message
 * names the offending character and its column. */
int gg_rule_parse(const char *text, gg_rule *rule, gg_err *err);

/* Canonical form as Golly writes it, e.g. "B36/S23:T512,512". */
void gg_rule_format(const gg_rule *rule, char *buf, size_t size);

/* Canonical form of the transition only (no topology suffix). */
void gg_rule_format_transition(const gg_rule *rule, char *buf, size_t size);

/* Neighbour offsets of a neighbourhood, in the order the truth table and
 * every circuit use for neighbour bits. */
const gg_offset *gg_nbhd_offsets(gg_nbhd nbhd, int *count);

const char *gg_nbhd_name(gg_nbhd nbhd);

/* Next state of one cell: centre is 0/1, bit i of neighbours is the state of
 * the neighbour at gg_nbhd_offsets()[i]. */
static inline int gg_rule_next(const gg_rule *rule, int centre,
                               uint32_t neighbours)
{
    int count = __builtin_popcount(neighbours);
    uint32_t set = centre ? rule->survive : rule->birth;
    return (int)((set >> count) & 1u);
}

/* True when a dead cell with no live neighbours is born (B0). */
static inline bool gg_rule_has_b0(const gg_rule *rule)
{
    return rule->birth & 1u;
}

bool gg_rule_is_bounded(const gg_rule *rule);

#endif

/* Rules in Golly's notation for the 2D two-state families: outer-totalistic
 * (B3/S23, V and H neighbourhoods), isotropic non-totalistic in Hensel's
 * notation (B2n3/S23-q; gen/rules/rule_hensel.c) and MAP rules (base64 of the
 * whole 3x3 table).
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
    GG_KIND_TABLE,       /* any function of the centre and the neighbours:
                            Hensel (isotropic) or MAP rules; table[] holds
                            it, and a Hensel rule whose table turns out
                            totalistic is stored as GG_KIND_TOTALISTIC */
} gg_rule_kind;

/* How a GG_KIND_TABLE rule is written back. */
typedef enum gg_notation {
    GG_NOTATION_HENSEL, /* B2n3/S23-q (Moore only) */
    GG_NOTATION_MAP,    /* MAP + base64, for Moore, hexagonal, von Neumann */
    GG_NOTATION_WOLFRAM, /* W22: Wolfram's 1D rules, a row a generation */
} gg_notation;

/* Hensel letter sets as written: bit i is letter "ceaiknjqrytwz"[i],
 * GG_HENSEL_NEGATIVE marks a set written after '-'; index count (birth)
 * or 9 + count (survival). Golly's canonical form is made from these. */
#define GG_HENSEL_NEGATIVE (1u << 13)
#define GG_TABLE_WORDS 8 /* 512 rows: 8 neighbours and the centre */

typedef enum gg_topo {
    GG_TOPO_UNBOUNDED,   /* Golly's infinite plane (no suffix) */
    GG_TOPO_TORUS,       /* :TW,H */
    GG_TOPO_PLANE,       /* :PW,H, dead cells outside */
    /* Golly's other bounded grids (its Help, bounded.html), which only
     * gg_rule_parse_grid takes; an edge's neighbours beyond it are the
     * cells its map names (runtime/universes/topo_ring.h) */
    GG_TOPO_KLEIN,       /* :KW*,H / :KW,H*: one pair of edges reversed */
    GG_TOPO_CROSS,       /* :CW,H: both pairs reversed */
    GG_TOPO_SPHERE,      /* :SW: top joined to left, right to bottom */
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
    int64_t width, height; /* bounded topologies only; 0 (:T and :P under
                              gg_rule_parse_grid): that side infinite */
    /* :TW+s,H / :TW,H+s: the edges' shift (C's sign, |s| < the side);
     * :KW*+1,H: 1; else 0. vertical_edges: the shift or the Klein twist
     * is on the left and right edges (written after H), else on the top
     * and bottom ones (written after W) */
    int64_t shift;
    bool vertical_edges;
    /* GG_KIND_TABLE: bit r of the table is the next state of row r (bits
     * 0..n-1 the neighbours in gg_nbhd_offsets order, bit n the centre);
     * birth and survive then hold the counts that have any birth or
     * survival, as Golly's digits. */
    gg_notation notation;
    uint64_t table[GG_TABLE_WORDS];
    uint16_t letters[18];
    /* MAP: the last base64 character's bits past the table, kept so the
     * rule is written back as given (bgolly 3.3 does) */
    uint8_t map_tail;
    uint8_t wolfram;   /* GG_NOTATION_WOLFRAM: the rule's number */
    /* Generations rules (gen/rules/rule_gen.h): the number of states C, 2..256;
     * birth and survive then say what state-1 neighbours do. 0 for the
     * two-state families. */
    int states;
} gg_rule;

/* A Generations rule (S/B/C), which only the multi-state reference
 * simulator (runtime/reference/reference_gen.h) runs today. */
static inline bool gg_rule_is_generations(const gg_rule *rule)
{
    return rule->states != 0;
}

/* Parse Golly notation: B3/S23, b3/s23, 23/3 (old S/B form), B2/S013V,
 * B245/S3H, B2n3/S23-q, MAP<base64>, optional :TW,H / :PW,H / :TW
 * (square). On error the message names the offending character and its
 * column. */
int gg_rule_parse(const char *text, gg_rule *rule, gg_err *err);

/* As gg_rule_parse, and Golly's other grids too: :K, :C, :S, shifted tori
 * and infinite sides (:T0,H tubes, :PW,0 strips), which gg_rule_parse
 * refuses by name (gg_rule_has_ring_grid). Only a run that fills the
 * ring round the grid (lib/run_topo.c) may call it. */
int gg_rule_parse_grid(const char *text, gg_rule *rule, gg_err *err);

/* The grid is one that gg_rule_parse refuses: its ring of neighbours is
 * not a plain torus or dead cells. */
static inline bool gg_rule_has_ring_grid(const gg_rule *rule)
{
    return rule->topo >= GG_TOPO_KLEIN || rule->shift != 0 ||
           ((rule->topo == GG_TOPO_TORUS || rule->topo == GG_TOPO_PLANE) &&
            (rule->width == 0 || rule->height == 0));
}

/* The grid suffix of text (from its last ':', any rule's, a rule file's
 * name too) when it names a ring grid: true with *grid (Life on that
 * grid: only its topology counts). */
bool gg_rule_ring_grid_of(const char *text, gg_rule *grid);

/* The topology in words for `golgen rule`: "Klein bottle 40 x 20 (the top
 * and bottom edges joined reversed)". */
void gg_rule_topology_text(const gg_rule *rule, char *buf, size_t size);

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
    if (rule->kind == GG_KIND_TABLE) {
        uint32_t r = neighbours | (uint32_t)centre << rule->n_neighbours;
        return (int)((rule->table[r >> 6] >> (r & 63)) & 1u);
    }
    int count = __builtin_popcount(neighbours);
    uint32_t set = centre ? rule->survive : rule->birth;
    return (int)((set >> count) & 1u);
}

/* True when a dead cell with no live neighbours is born (B0). */
static inline bool gg_rule_has_b0(const gg_rule *rule)
{
    return rule->kind == GG_KIND_TABLE ? rule->table[0] & 1u
                                       : rule->birth & 1u;
}

/* Whether the next state depends only on the centre and the neighbour
 * count (every GG_KIND_TOTALISTIC rule; a MAP rule may be too). */
bool gg_rule_is_totalistic(const gg_rule *rule);

/* The same rule as GG_KIND_TOTALISTIC when it is totalistic (a MAP
 * rule's circuits and cache entries are then the totalistic rule's);
 * otherwise a copy. */
gg_rule gg_rule_totalistic_view(const gg_rule *rule);

/* a and b compute the same next states on the same neighbourhood. */
bool gg_rule_same_transition(const gg_rule *a, const gg_rule *b);

bool gg_rule_is_bounded(const gg_rule *rule);

#endif

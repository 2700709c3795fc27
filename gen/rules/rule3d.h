/* 3D totalistic rules in the notation of Golly's Scripts/Lua/3D.lua.
 *
 * 3D.lua writes a rule as "3D" S "/" B [letter]: survival counts FIRST, then
 * birth counts (3D5..7/6: a live cell with 5, 6 or 7 live neighbours
 * survives, a dead one with 6 is born). Each part is a comma list of
 * counts and ranges a..b. The letter picks the neighbourhood:
 *   (none) Moore, 26 cells        F (or V) face, 6
 *   C      corner, 8              E edge, 12
 *   H      hexahedral, 12 (Bays' close packing: the offsets of
 *          gui-wx/wxoverlay.cpp Do3DNextGenHexahedral)
 * Survival counts run 0..max, birth counts 1..max (3D.lua has no B0). The
 * text is read case-insensitively (3D.lua upper-cases it). The canonical
 * form is written back as 3D.lua's CanonicalForm writes it: a run of two
 * as "a,b", of three or more as "a..b", the letter F for V.
 *
 * Where 3D.lua is lax golgen refuses: more than one '/', "a..b..c" (3D.lua
 * silently drops ..c), signs. A trailing comma ("5,6,/6") is accepted, as
 * 3D.lua's split accepts it.
 *
 * Topology (a golgen suffix; 3D.lua's universe is always an N^3 torus and
 * its rule text carries no size):
 *   (none)      the N^3 torus of the pattern's size (RLE3 size=N, or
 *               bench's --size)
 *   :TN         N^3 torus          :TX,Y,Z  X*Y*Z torus
 *   :PN         N^3 bounded box    :PX,Y,Z  box, dead cells outside
 * The unbounded 3D space (a 0 side, as Golly's :T0 means an infinite
 * dimension) is refused. */
#ifndef GG_RULE3D_H
#define GG_RULE3D_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "error.h"
#include "rule.h"

typedef enum gg_nbhd3d {
    GG_NBHD3D_MOORE,  /* 26 */
    GG_NBHD3D_FACE,   /* 6, suffix F (V read as F) */
    GG_NBHD3D_CORNER, /* 8, suffix C */
    GG_NBHD3D_EDGE,   /* 12, suffix E */
    GG_NBHD3D_HEX,    /* 12, suffix H */
    GG_NBHD3D_COUNT
} gg_nbhd3d;

typedef enum gg_topo3d {
    GG_TOPO3D_SIZED_BY_PATTERN, /* no suffix: the pattern's N^3 torus */
    GG_TOPO3D_TORUS,            /* :T */
    GG_TOPO3D_BOX,              /* :P, dead cells outside */
} gg_topo3d;

/* Largest side golgen accepts (cells are also bounded by memory). */
#define GG_MAX_SIDE3D (1LL << 24)

typedef struct gg_rule3d {
    gg_nbhd3d nbhd;
    int n_neighbours;
    uint32_t birth;   /* bit c: a dead cell with c live neighbours is born */
    uint32_t survive; /* bit c: a live cell with c live neighbours lives */
    gg_topo3d topo;
    int64_t sx, sy, sz; /* TORUS and BOX only */
} gg_rule3d;

/* True when text looks like a 3D rule (starts with "3D", any case): the
 * CLI's hook hands such texts to the 3D path. */
bool gg_rule3d_is_3d(const char *text);

/* Parse; on error the message names the rule, the offending character and
 * its column (1-based) and what to write instead. */
int gg_rule3d_parse(const char *text, gg_rule3d *rule, gg_err *err);

/* Canonical form as 3D.lua writes it plus golgen's topology suffix, e.g.
 * "3D5..7/6:T64" or "3D4,5/5F:P32,16,8". */
void gg_rule3d_format(const gg_rule3d *rule, char *buf, size_t size);
/* Without the topology suffix: exactly 3D.lua's rulestring. */
void gg_rule3d_format_transition(const gg_rule3d *rule, char *buf,
                                 size_t size);
/* One of 3D.lua's count lists, e.g. "5..7" or "2,3" ("" when empty). */
void gg_rule3d_format_counts(uint32_t counts, int max, char *buf,
                             size_t size);

/* Offsets in the order every 3D path counts them (dz carries the third
 * dimension). */
const gg_offset *gg_nbhd3d_offsets(gg_nbhd3d nbhd, int *count);
const char *gg_nbhd3d_name(gg_nbhd3d nbhd);

static inline int gg_rule3d_next(const gg_rule3d *r, int centre, int count)
{
    uint32_t set = centre ? r->survive : r->birth;
    return (int)((set >> count) & 1u);
}

#endif

/* Larger than Life rules in Golly's notation (issue 39 part 3):
 * "R5,C0,M1,S34..58,B34..45,NM" (MCell's, as Golly 3.3 writes it) or
 * Kellie Evans' "r,bmin,bmax,smin,smax" (C0, M1, NM), with an optional
 * ":TW,H" torus or ":PW,H" plane suffix.
 *
 * R is the range (1..500), C the number of states (0, 1 and 2 mean two;
 * above 2 a cell that fails to survive decays through 2, 3, ... C-1 and
 * dies, as Generations), M whether a live middle cell counts itself, S and
 * B the counts of state-1 cells in the neighbourhood for a state-1 cell to
 * survive and a state-0 cell to be born, N the neighbourhood: M the
 * (2R+1)^2 box, N the von Neumann diamond |dx|+|dy| <= R, C the circle
 * dx^2+dy^2 <= R^2+R (distance below R+1/2), as Golly 3.3's ltlalgo.
 *
 * Golly 3.3 takes one S and one B range; golgen also takes several
 * ("S34..58,60..62", or a bare count "S3"), an extension bgolly 3.3 does
 * not read, written back the same way. Bounded grids follow Golly: a side
 * below 2R becomes 2R, ":" alone or ":T" is a 400x400 torus, at most
 * 100,000,000 cells; B0 needs a bounded grid. */
#ifndef GG_RULE_LTL_H
#define GG_RULE_LTL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "error.h"
#include "rule.h"

#define GG_LTL_MAX_RANGE 500
#define GG_LTL_MAX_RANGES 16
#define GG_LTL_MAX_CELLS 100000000LL /* Golly 3.3's bounded grids */

typedef struct gg_ltl_rule {
    int range;       /* R, 1..500 */
    int states;      /* 2..256 (C0, C1 and C2 are 2) */
    int middle;      /* M: 1 when a live middle cell counts itself */
    char nbhd;       /* 'M' box, 'N' diamond, 'C' circle */
    int n_s, n_b;    /* ranges of S and of B, 1..GG_LTL_MAX_RANGES */
    int32_t s_lo[GG_LTL_MAX_RANGES], s_hi[GG_LTL_MAX_RANGES];
    int32_t b_lo[GG_LTL_MAX_RANGES], b_hi[GG_LTL_MAX_RANGES];
    gg_topo topo;    /* GG_TOPO_UNBOUNDED, _TORUS or _PLANE */
    int64_t width, height; /* bounded grids, each at least 2R */
} gg_ltl_rule;

/* Whether text is written as a Larger than Life rule (R<digit>..., or
 * five comma-separated numbers): its parse errors are then the ones to
 * show, not B/S notation's. */
bool gg_ltl_looks_like(const char *text);

/* Parse; the message names the field and the limit it breaks. */
int gg_ltl_parse(const char *text, gg_ltl_rule *rule, gg_err *err);

/* Golly's canonical form, "R5,C0,M1,S34..58,B34..45,NM:T400,400". */
void gg_ltl_format(const gg_ltl_rule *rule, char *buf, size_t size);

/* Cells in the neighbourhood, the middle included. */
int64_t gg_ltl_nbhd_cells(const gg_ltl_rule *rule);

/* Highest S or B count the rule may name (Golly: the neighbourhood less
 * the middle when M0). */
int64_t gg_ltl_max_count(const gg_ltl_rule *rule);

/* The circle's half-widths: half[j + R] for rows j = -R..R. */
void gg_ltl_circle(int range, int *half);

const char *gg_ltl_nbhd_name(char nbhd);

/* count lies in one of the n ranges lo[i]..hi[i] */
static inline bool gg_ltl_in(const int32_t *lo, const int32_t *hi, int n,
                             int64_t count)
{
    for (int i = 0; i < n; i++)
        if (count >= lo[i] && count <= hi[i])
            return true;
    return false;
}

#endif

/* The universe store (.ggu): a universe on disk, bit-packed, with a
 * documented, versioned header and a checksum per band of rows, so that a
 * checkpoint can be trusted and a window read without the rest.
 *
 * Format version 1, all integers little-endian:
 *
 *   offset  size  field
 *   0       8     magic "GGUSTORE"
 *   8       4     version (1)
 *   12      4     header bytes (GG_STORE_HEADER, 4096): the cells start here
 *   16      8     width  (cells)
 *   24      8     height (cells)
 *   32      8     generation
 *   40      8     x0: Golly x of cell (0, 0) (the unbounded plane moves)
 *   48      8     y0
 *   56      4     state planes: 1 for two-state rules, ceil(log2 C) for a
 *                 Generations rule of C states (the rule's, checked)
 *   60      4     rows per band (the checksum unit)
 *   64      8     bands = ceil(height / rows per band)
 *   72      248   rule, canonical text, NUL-padded (at most 247 bytes):
 *                 B/S or Generations (gen/rules/rule.h), Larger than
 *                 Life (gen/rules/rule_ltl.h: R5,C0,M1,S34..58,B34..45,NM
 *                 with its grid suffix; ceil(log2 C) planes), or a Golly
 *                 rule's name and suffix (WireWorld:T60,60: its .rule
 *                 file is found again at resume, which checks the planes
 *                 against its n_states); gg_store_family_of tells which.
 *                 Golly's grids that golgen run steps through a ring
 *                 (B3/S23:K40*,30, LifeHistory:S50) keep their suffix
 *                 and the W x H grid alone (an infinite side: the extent
 *                 the run held), x0, y0 its top-left cell
 *   320     8     depth: 0 for a 2D universe; a 3D grid's layers (its z
 *                 size), its rows then row y of layer z at row z * (height
 *                 / depth) + y, one plane (runtime/universes/grid3d.h's
 *                 order). Stores from before this field held the rule's
 *                 NUL padding here, so they read as depth 0, and an older
 *                 golgen refuses a 3D store by its rule text (3D...).
 *   328     8     FNV-1a 64 of bytes 0..327
 *   336     8*b   FNV-1a 64 of each band's bytes
 *   ...           zero up to the header size (at most 469 bands)
 *   4096          the rows: ceil(width / 64) words each, cell x of a row
 *                 is bit x % 64 of word x / 64, bits past the width 0;
 *                 with several planes, row y of plane 0, of plane 1 ..
 *                 (state bit p of a cell is its bit in plane p), so a
 *                 band holds every state of its cells
 *
 * Bands of rows are the unit of checking and of partial reads: a window
 * reads only the bands it covers. Writes go aside, are fsynced and renamed
 * into place (runtime/base/atomic_file.h), so a crash never leaves a corrupt
 * store under the name, and a store whose checksum fails is refused with
 * the band named. */
#ifndef GG_STORE_H
#define GG_STORE_H

#include <stdint.h>

#include "error.h"
#include "gen_universe.h"
#include "grid3d.h"
#include "pattern.h"
#include "universe.h"

#define GG_STORE_HEADER 4096
#define GG_STORE_MAX_BANDS ((GG_STORE_HEADER - 336) / 8)
#define GG_STORE_RULE_BYTES 248 /* the rule field, its NUL included */

typedef struct gg_store_info {
    int version;
    int64_t width, height, generation, x0, y0;
    int planes, band_rows;
    int64_t bands;
    int64_t depth; /* 0: 2D; a 3D grid's z size */
    char rule[256];
} gg_store_info;

/* Write u to path atomically. */
int gg_store_write(const char *path, const gg_universe *u, gg_err *err);

/* A Generations universe (its state planes) to path atomically. */
int gg_store_write_gen(const char *path, const gg_gen_universe *u,
                       gg_err *err);

/* The family a store's rule text names (B/S first, then Larger than
 * Life, then a Golly rule's name); UNKNOWN for text none of them reads,
 * which every reader refuses. */
typedef enum gg_store_family {
    GG_STORE_UNKNOWN,
    GG_STORE_TWO_STATE,
    GG_STORE_GENERATIONS,
    GG_STORE_3D,
    GG_STORE_LTL,
    GG_STORE_TABLE,
} gg_store_family;

gg_store_family gg_store_family_of(const gg_store_info *s);
/* "two-state", "Generations", "3D", "Larger than Life", "Golly rule table
 * or tree" (`golgen store info`). */
const char *gg_store_family_name(gg_store_family f);

/* Cells of any state as planes (Larger than Life and Golly rule tables,
 * whose universes the store does not know) under rule_text, to path
 * atomically. */
int gg_store_write_cells(const char *path, const gg_gen_cells *c,
                         const char *rule_text, int64_t generation,
                         int64_t x0, int64_t y0, gg_err *err);

/* The planes of a Larger than Life or rule-table store, or of any
 * family's on a grid that only golgen run's ring takes (B3/S23:K40*,30:
 * gen/rules/rule.h's gg_rule_ring_grid_of), and its header (every band
 * checked; the planes checked against the header where the rule says
 * how many); the caller parses the rule (or finds its file) and checks
 * that no cell holds a state the rule lacks. Other families are refused
 * by name. */
int gg_store_read_cells(const char *path, gg_gen_cells *c,
                        gg_store_info *s, gg_err *err);

/* The header alone (checked). */
int gg_store_info_read(const char *path, gg_store_info *info, gg_err *err);

/* The whole universe, every band checked; the rule comes from the store
 * (parsed with gg_rule_parse). A store of a Generations rule is refused
 * (gg_store_read_gen reads it), and the reverse: a family is never lost
 * between the file and the stepper. */
int gg_store_read(const char *path, gg_universe *u, gg_err *err);
int gg_store_read_gen(const char *path, gg_gen_universe *u, gg_err *err);

/* A 3D grid (runtime/universes/grid3d.h) under its rule's canonical text
 * (gen/rules/rule3d.h's gg_rule3d_format) at generation `generation`. */
int gg_store_write3d(const char *path, const gg_grid3d *g,
                     const char *rule_text, int64_t generation, gg_err *err);

/* A 3D store's grid, rule text and generation (every band checked); a 2D
 * store is refused by name, as a 3D one is by gg_store_read and
 * gg_store_read_gen. The caller parses the rule and checks its size
 * against the grid's. */
int gg_store_read3d(const char *path, gg_grid3d *g, char rule[256],
                    int64_t *generation, gg_err *err);

/* Cells of the window (Golly coordinates x, y, w x h), in every state,
 * as a pattern, reading and checking only the bands it covers. */
int gg_store_window(const char *path, int64_t x, int64_t y, int64_t w,
                    int64_t h, gg_pattern *p, gg_err *err);

#endif

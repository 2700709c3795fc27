/* RLE into and out of the hash tree without a dense box
 * (runtime/engines/hashlife.h, runtime/formats/rle_runs.h): a pattern of
 * few live cells in a huge box costs its runs, not its box. */
#ifndef GG_HL_RLE_H
#define GG_HL_RLE_H

#include "hashlife.h"
#include "rle_runs.h"

/* The runs placed at the head's Golly coordinates (its generation
 * taken): the tree gg_hl_set_pattern makes from the dense pattern. */
int gg_hl_set_runs(gg_hl *h, const gg_pattern_runs *r, gg_err *err);

/* The live cells as RLE (path "-": standard output), band of leaves by
 * band at any size: byte for byte what gg_pattern_write_rle writes for
 * gg_hl_to_pattern's pattern. */
int gg_hl_write_rle(gg_hl *h, const char *path, gg_err *err);

#endif

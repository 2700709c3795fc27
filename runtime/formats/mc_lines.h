/* Golly's macrocell lines (format: runtime/formats/pattern_mc_read.c), numbered
 * and written once each, children before parents, as bgolly 3.3's
 * HashLife writes them: what the dense writer (runtime/formats/pattern_mc_write.c)
 * and the hash-tree engine (runtime/engines/hl_io.c) share. */
#ifndef GG_MC_LINES_H
#define GG_MC_LINES_H

#include <stdint.h>
#include <stdbool.h>

#include "error.h"
#include "pattern_buf.h"

typedef struct gg_mc_lines {
    struct mc_key *table; /* (level, content) -> line number */
    size_t mask, used;
    uint32_t next_id;
    gg_textbuf out;       /* out.failed: out of memory */
} gg_mc_lines;

/* "[M2] (golgen)", #R, #G (when not 0) and the comments. */
void gg_mc_header(gg_textbuf *b, const char *rule, int64_t generation,
                  const char *comments);

/* The line number of an 8x8 leaf (bit 8 * row + x), or of a node of
 * `level` with children's line numbers c (nw ne sw se), its line written
 * when new; 0 for an empty one (or out of memory: out.failed). */
uint32_t gg_mc_leaf_line(gg_mc_lines *w, uint64_t bits);
uint32_t gg_mc_node_line(gg_mc_lines *w, int level, const uint32_t c[4]);
/* A multi-state file's level-1 node: the states of a 2x2 square (nw ne
 * sw se), "1 a b c d"; 0 when all four are 0. */
uint32_t gg_mc_state_line(gg_mc_lines *w, const uint8_t s[4]);

/* The smallest root level >= 4 whose area holds the box (Golly
 * coordinates: a root of level L covers x from -2^(L-1), y from
 * -2^(L-1) + 1). */
int gg_mc_root_level(int64_t x0, int64_t y0, int64_t x1, int64_t y1);

/* The text written (the caller frees it); frees the rest. */
int gg_mc_lines_take(gg_mc_lines *w, char **text, size_t *len, gg_err *err);

#endif

/* A macrocell file's nodes as it numbers them (format and coordinates:
 * runtime/formats/pattern_mc_read.c), for readers that keep the tree instead of
 * drawing it dense: the hash-tree engine (runtime/engines/hl_io.c). */
#ifndef GG_MC_TREE_H
#define GG_MC_TREE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "error.h"
#include "grid.h"

typedef struct gg_mc_node {
    int level;          /* 3: an 8x8 leaf or a node; 1: a multi-state
                           file's 2x2 of states; 0: node[0], the empty one */
    uint32_t child[4];  /* nw ne sw se; 0: empty */
    uint64_t leaf;      /* an 8x8 leaf line: bit 8 * row + x */
    uint8_t state[4];   /* level 1: nw ne sw se states */
    bool empty;
    uint8_t top;        /* the highest state inside the node */
    int64_t x0, y0, x1, y1; /* live cells' box inside the node */
} gg_mc_node;

typedef struct gg_mc_tree {
    gg_mc_node *node; /* node[n - 1] is the root (n 1: no lines) */
    size_t n;
    char *rule, *comments; /* #R; other '#' lines; NULL when none */
    int64_t generation;    /* #G */
    int max_state;         /* the highest state (1: two states) */
} gg_mc_tree;

/* The file's lines checked and numbered; errors name the line. */
int gg_mc_tree_parse(const char *text, size_t len, const char *name,
                     gg_mc_tree *t, gg_err *err);
void gg_mc_tree_free(gg_mc_tree *t);

/* OR node id's live cells into g with its top-left cell at grid (ox, oy);
 * its live cells must lie inside g (its dead ones need not). */
void gg_mc_draw(const gg_mc_node *node, uint32_t id, gg_grid *g, int64_t ox,
                int64_t oy);
/* The same for a multi-state file: bit p of each state ORed into
 * planes[p] (np planes: enough for the tree's max_state). */
void gg_mc_draw_planes(const gg_mc_node *node, uint32_t id, gg_grid *planes,
                       int np, int64_t ox, int64_t oy);

#endif

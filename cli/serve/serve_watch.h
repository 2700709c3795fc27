/* golgen serve: frames from inside the cpu kernel's pass. The kernel runs
 * 32 generations a pass over memory, so on a big torus a new generation
 * reaches memory only a few times a second; a watcher (golgen_row_watch,
 * include/golgen/world.h) sees
 * chosen rows of every `every`-th generation while the kernel's tiles
 * hold them in cache, and counts them into one map of blocks per frame
 * and view: each frame shows one generation whole (never a mix), and
 * costs a popcount of the rows it samples. serve_sim.c queues the frames
 * of a batch to go out spread over the next batch, at the rate they were
 * made; a frame is drawn from its map only when it is sent, by the
 * server's thread (a frame no page takes costs nothing more). Two sets of
 * maps take turns: one is written by the batch running while the frames
 * of the other are sent.
 *
 * A view is watched when its blocks line up with the grid's (its corner a
 * multiple of the block side from the grid's, and on a torus the sides
 * multiples of the block side too); others get a frame between batches. */
#ifndef GG_SERVE_WATCH_H
#define GG_SERVE_WATCH_H

#include <stdbool.h>
#include <stdint.h>

#include "golgen.h"

#define SV_WATCH_VIEWS 64  /* SV_MAX_VIEWS (serve_sim.h) */
#define SV_WATCH_FRAMES 32 /* frames of one batch at most */
#define SV_WATCH_BYTES (64L << 20) /* the maps of one batch at most */
#define SV_WATCH_SIDE 4096 /* cols, rows at most (SV_MAX_SIDE) */
/* Running, a frame reads at most about this many cells: a zoomed-out
 * window of a big universe samples rows (2^26 cells: ~3 ms here) */
#define SV_EXACT_CELLS (double)(1 << 26)

/* One view's maps: blocks [bx0, bx0 + nbx) x [by0, by0 + nby) of the
 * grid (mod wb x hb on a torus), for each of the `lines` rows a block
 * reads the count of its live cells (shifted right by `shift`, rounded
 * up, so that it fits 16 bits): a (line, block) has one writer, the tile
 * holding that row, except a block split between two tiles' words (added
 * atomically), so counting takes no locked instruction a word. */
typedef struct sv_watch_view {
    int slot;
    uint64_t owner, asked;   /* the view as it was asked for */
    int64_t x, y;
    int cols, rows, level;
    bool torus;
    int64_t width, height;   /* the grid */
    int64_t bx0, by0;        /* the window's first block (grid blocks) */
    int64_t wb, hb;          /* blocks around a torus (0: a plane) */
    int64_t nbx, nby;        /* the map */
    int64_t wlo[2], whi[2];  /* the grid words its columns touch */
    int64_t stride;          /* entries a map line: nbx, or for single
                                cells its words (4 entries each: the
                                grid's words themselves, wlo[0] ..
                                whi[0], then wlo[1] .. whi[1]) */
    int64_t every;           /* one row of every `every` sampled */
    int64_t lines;           /* rows a block reads: side / every */
    int shift;               /* counts kept >> shift: level - 15, >= 0 */
    int64_t first, count;    /* the sampled rows: the kernel's filter */
    uint16_t *maps;          /* frames x nby x lines x nbx (the set's) */
} sv_watch_view;

/* One batch's views and maps. */
typedef struct sv_watch_set {
    sv_watch_view v[SV_WATCH_VIEWS];
    int n;
    int frames;     /* frames: generations every, 2 every ... of the batch */
    int64_t every;
    uint16_t *maps; /* every view's maps, one block */
    size_t cap;     /* entries */
    uint64_t id;    /* changed before the set is written again: a queued
                       frame of an older id is gone */
} sv_watch_set;

typedef struct sv_watch {
    sv_watch_set set[2];
    int last; /* the set the last batch wrote */
} sv_watch;

/* Rows of each block a running frame reads (a power of two; 0: all):
 * fewer than a block's side when the window holds over SV_EXACT_CELLS. */
int64_t sv_watch_sample(int cols, int rows, int level);
/* A view of (x, y, cols, rows, level) for w's grid, into wv: false when
 * its blocks do not line up with the grid (or the universe is not one
 * bounded two-state grid). sampled: running frames read a sample of
 * rows (sv_watch_sample), else every row. */
bool sv_watch_view_init(sv_watch_view *wv, const golgen_world *w, int64_t x,
                        int64_t y, int cols, int rows, int level,
                        bool sampled);
/* Zeroed maps for the set's views, frames of generations every, 2 every
 * ... of a batch; -1 when they would take more than SV_WATCH_BYTES (fewer
 * frames then may fit) or memory ran out. */
int sv_watch_begin(sv_watch_set *ws, int frames, int64_t every);
/* The kernel's watcher for the set's views (ctx: ws). */
golgen_row_watch sv_watch_kernel(sv_watch_set *ws, int64_t height);
/* Frame f of view k as the page's bytes (cols x rows, golgen_world_render's
 * values). */
void sv_watch_render(const sv_watch_set *ws, int k, int f, uint8_t *out);
void sv_watch_free(sv_watch *wt);

#endif

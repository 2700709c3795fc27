/* Golly's RLE3 files (Scripts/Lua/3D.lua: ReadPattern, WritePattern).
 *
 *   3D version=1 size=30 pos=12,10,14 gen=7
 *   # comment lines
 *   x=3 y=2 z=2 rule=3D5..7/6
 *   o$3o/bo!
 *
 * The first line starts with "3D" and carries key=value words: version
 * (must be 1), size (the N of the N^3 torus; 3D.lua's default 100 when
 * absent), pos (the box's corner; 0,0,0 when absent), gen. Then '#'
 * comments, the x= y= z= rule= line, and the cells: b dead, o live, $ next
 * row, / next z-plane, ! end, each optionally preceded by a run count (a
 * count may continue across a line break). CR line ends are read as LF.
 *
 * Differences from 3D.lua, all refusals of what it would misread: a cell
 * outside the x/y/z box, data before the x= line, a missing '!' (read as
 * truncation, as golgen's 2D RLE reader does), a bad number. 3D.lua clamps
 * size to 3..100; golgen takes any size its grids hold. Blanks between
 * runs are ignored. */
#ifndef GG_PATTERN_RLE3_H
#define GG_PATTERN_RLE3_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "error.h"
#include "grid3d.h"

#define GG_RLE3_DEFAULT_SIZE 100 /* 3D.lua's MAXN, used without size= */

typedef struct gg_rle3 {
    int64_t size;     /* size=N, else GG_RLE3_DEFAULT_SIZE */
    bool has_size;
    int64_t pos[3];   /* pos=x,y,z, else 0,0,0 */
    int64_t gen;      /* gen=G, else 0 */
    char rule[256];   /* the rule= text as written */
    int64_t w, h, d;  /* x=, y=, z= */
    gg_grid3d cells;  /* the w x h x d box; bits NULL when w*h*d == 0 */
    char *comments;   /* the '#' lines, each ending in \n; NULL if none */
} gg_rle3;

/* Parse RLE3 text; `name` names it in errors ("file.rle3:3:7: ..."). */
int gg_rle3_parse(const char *text, size_t len, const char *name,
                  gg_rle3 *p, gg_err *err);
/* Read a file ("-": standard input). */
int gg_rle3_read(const char *path, gg_rle3 *p, gg_err *err);
void gg_rle3_free(gg_rle3 *p);

/* Whether text looks like RLE3 (first line starts with "3D"). */
bool gg_rle3_sniff(const char *text, size_t len);

/* The whole grid g as RLE3, exactly as 3D.lua's WritePattern writes it:
 * size=max side, pos= the live cells' corner (omitted at 0,0,0 or when
 * empty), gen= when > 0, then comments (each line starting with '#'), the
 * x= line with `rule`, the runs wrapped before 70 columns. malloc'd. */
int gg_rle3_format(const gg_grid3d *g, const char *rule, int64_t gen,
                   const char *comments, char **out, size_t *len,
                   gg_err *err);
/* gg_rle3_format into a file, atomically ("-": standard output). */
int gg_rle3_write(const char *path, const gg_grid3d *g, const char *rule,
                  int64_t gen, const char *comments, gg_err *err);

#endif

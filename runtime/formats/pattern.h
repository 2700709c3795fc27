/* Pattern files: RLE (read and write, as Golly does), plaintext .cells,
 * Life 1.06 and Golly's macrocell (read and write), Life 1.05 (read);
 * gg_pattern_write picks the format by the file's name. A pattern is the
 * bounding box of its cells, its position in Golly's coordinates and the
 * file's rule and comments. States above 1 (multi-state RLE such as
 * LifeHistory) are kept bit by bit in planes so a file reads and writes
 * back unchanged. */
#ifndef GG_PATTERN_H
#define GG_PATTERN_H

#include <stdbool.h>
#include <stdint.h>

#include "error.h"
#include "grid.h"
#include "stop.h"

#define GG_PATTERN_MAX_PLANES 8 /* states 0..255 */

typedef struct gg_pattern {
    char *rule;      /* rule text as the file gives it, NULL if none */
    char *comments;  /* '#' lines verbatim, '\n'-terminated each; NULL if none */
    int64_t x, y;    /* Golly coordinates of the box's top-left cell */
    int64_t generation; /* from #CXRLE Gen=, else 0 */
    bool positioned; /* an RLE's #CXRLE Pos= gave x, y */
    int n_planes;    /* 1 for two-state patterns */
    gg_grid plane[GG_PATTERN_MAX_PLANES]; /* bit p of each cell's state */
    /* Write with multi-state letters (. A..X pA..) even when every state is
     * 0 or 1; the RLE reader sets it when the file used them. States above 1
     * always use them. */
    bool multistate;
    /* The highest state present + 1, as the reader that filled the planes
     * counted it while parsing (0: not known). gg_pattern_max_state takes
     * it instead of scanning the box, which for a few cells in a huge box
     * (an RLE header x = 150000, y = 150000) costs seconds. Code that
     * changes a read pattern's cells must set it to 0: gg_pattern_set
     * does; gg_pattern_init starts at 0, so patterns built cell by cell
     * are scanned. */
    int known_max;
} gg_pattern;

/* Conventions (as Golly 3.3's readpattern.cpp, checked against bgolly):
 * - The box is the RLE header's x = W, y = H (blank margins kept); without a
 *   header, and for .cells and Life 1.05/1.06, it is the extent of the cells
 *   (.cells: the longest row and the last non-blank row).
 * - Position: RLE honours a leading "#CXRLE Pos=X,Y"; without one Golly puts
 *   the top-left cell at (0, 0), except on a bounded grid (rule suffix
 *   :T/:P/:K/:C/:S W,H) where it centres the box: x = -(W/2), y = -(H/2)
 *   (or the grid's top-left corner when the box does not fit); see
 *   gg_pattern_default_pos. .cells start at (0, 0). Life 1.06 coordinates
 *   are absolute; Life 1.05 blocks start at their #P X Y.
 * - comments: RLE keeps every '#' line verbatim (#CXRLE included; the writer
 *   regenerates #CXRLE from x, y, generation: it keeps the file's first
 *   #CXRLE line when that still holds, else writes "#CXRLE Pos=X,Y[ Gen=G]"
 *   first, as Golly does, whenever the place is not the default or the
 *   generation is not 0).
 *   .cells '!' lines become "#N name" (for "!Name: name") or "#C text";
 *   Life 1.05/1.06 keep their #D/#C/other '#' lines but not the "#Life"
 *   header, #N, #R or #P, which they interpret (#R gives rule, #N none);
 *   a stray "#r" line becomes "#C #r ..." so it cannot name a rule in RLE.
 * - The RLE reader fills whole 64-bit words per run; a 32768^2 soup
 *   (0.8 GB of RLE) reads in 2-4 s and writes, fsync included, in 3-5 s
 *   (bench/rle_roundtrip.sh). The writer is byte for byte Golly's (lines
 *   <= 70 characters). "x = W, y = H" is written
 *   without ", rule = R" when rule is NULL.
 * - An empty pattern has width = height = 0 planes (bits NULL), n_planes 1.
 * - Missing '!' is accepted (as Golly); text after '!' is ignored. Other
 *   faults are errors: unknown characters, leading zeros or whitespace
 *   inside a count, counts above 2^31-1, live cells outside the header's box,
 *   boxes larger than this machine's memory. */

/* Read any supported format, chosen by content; path "-" is standard
 * input. A gzip-compressed file or text (by its magic bytes, as Golly
 * reads .rle.gz and .mc.gz) is unpacked first (runtime/formats/
 * file_text.h). Errors name the path, line and column. On failure *p is
 * left empty (nothing to free). */
int gg_pattern_read(const char *path, gg_pattern *p, gg_err *err);
/* The same, giving up with "stopped while reading 'PATH'" once *stop is set
 * (NULL: never; runtime/base/stop.h): a command that catches stop signals
 * (golgen run) passes its flag and, when gg_stop_asked(stop) after a
 * failure, exits as for the signal. */
int gg_pattern_read_stop(const char *path, gg_stop_flag *stop,
                         gg_pattern *p, gg_err *err);
int gg_pattern_parse(const char *text, size_t len, const char *name,
                     gg_pattern *p, gg_err *err);
/* gg_pattern_parse polling stop as gg_pattern_read_stop does. */
int gg_pattern_parse_stop(const char *text, size_t len, const char *name,
                          gg_stop_flag *stop, gg_pattern *p, gg_err *err);

/* Write RLE through a temporary file renamed into place, so a failure
 * never leaves a partial file. */
int gg_pattern_write_rle(const char *path, const gg_pattern *p, gg_err *err);

/* Highest state present (0 for an empty pattern). */
int gg_pattern_max_state(const gg_pattern *p);
/* The box (in box coordinates) of the cells in any state but 0, over
 * every plane; false when there are none. */
bool gg_pattern_bbox(const gg_pattern *p, int64_t *x0, int64_t *y0,
                     int64_t *x1, int64_t *y1);

void gg_pattern_free(gg_pattern *p);

/* One parser per format (gg_pattern_parse picks by content, as Golly). */
int gg_pattern_parse_rle(const char *text, size_t len, const char *name,
                         gg_pattern *p, gg_err *err);
int gg_pattern_parse_cells(const char *text, size_t len, const char *name,
                           gg_pattern *p, gg_err *err);
/* Life 1.05 and 1.06 (Alan Hensel's PC Life formats). */
int gg_pattern_parse_life(const char *text, size_t len, const char *name,
                          gg_pattern *p, gg_err *err);

/* MCell (.mcl), as Golly reads it (runtime/formats/pattern_mcl.c): the
 * rule gets the file's bounded grid as a :TW,H / :PW,H suffix, and the
 * cells keep MCell's placing (positioned). */
int gg_pattern_parse_mcl(const char *text, size_t len, const char *name,
                         gg_pattern *p, gg_err *err);

/* Golly's macrocell (.mc), two states (runtime/formats/pattern_mc_read.c). */
int gg_pattern_parse_mc(const char *text, size_t len, const char *name,
                        gg_pattern *p, gg_err *err);

/* The RLE and macrocell parsers polling stop (NULL: never) once a row or
 * line, and the macrocell one while it draws the tree dense: what
 * gg_pattern_read_stop calls, so a big file's load ends soon after a stop
 * signal ("stopped while reading 'NAME'"). The other formats' files are
 * small; theirs poll only while the file is read or unpacked. */
int gg_pattern_parse_rle_stop(const char *text, size_t len, const char *name,
                              gg_stop_flag *stop, gg_pattern *p, gg_err *err);
int gg_pattern_parse_mc_stop(const char *text, size_t len, const char *name,
                             gg_stop_flag *stop, gg_pattern *p, gg_err *err);

/* Other formats into a malloc'd, NUL-terminated buffer (*len excludes the
 * NUL): plaintext .cells (the live cells' box, no position, the rule in a
 * "!Rule:" comment), Life 1.06 (absolute coordinates, #R rule) and
 * macrocell, byte for byte bgolly's HashLife output after the first line.
 * All three refuse states above 1; Life 1.06 and macrocell also a box
 * beyond Golly's coordinates (gg_pattern_check_coords). */
int gg_pattern_format_cells(const gg_pattern *p, char **text, size_t *len,
                            gg_err *err);
int gg_pattern_format_life106(const gg_pattern *p, char **text, size_t *len,
                              gg_err *err);
int gg_pattern_format_mc(const gg_pattern *p, char **text, size_t *len,
                         gg_err *err);

/* Refuse a box that reaches beyond Golly's coordinates, -2^31..2^31-1 (the
 * Life 1.06 reader's and Golly's limit): every writer that gives a
 * position checks it, so golgen never writes what it or Golly cannot read
 * back. */
int gg_pattern_check_coords(const gg_pattern *p, gg_err *err);

/* The output formats, chosen by file name (gg_pattern_write). */
typedef enum gg_pattern_format {
    GG_PATTERN_RLE,     /* .rle, and any name not below */
    GG_PATTERN_CELLS,   /* .cells */
    GG_PATTERN_LIFE106, /* .lif, .life */
    GG_PATTERN_MC,      /* .mc */
} gg_pattern_format;

/* The format a name asks for (case-insensitive extension); -1 with a
 * message for names of formats golgen does not write (.gz, .zip, .mcl,
 * .rle3 for a 2D pattern, pictures). "-" is RLE. */
int gg_pattern_format_for_name(const char *path, gg_pattern_format *fmt,
                               gg_err *err);

/* Write p in the format its name asks for, atomically ("-": standard
 * output, RLE). */
int gg_pattern_write(const char *path, const gg_pattern *p, gg_err *err);

/* A pattern file's formatted text to path ("-": standard output), a file
 * written aside and renamed into place (runtime/base/atomic_file.h). */
int gg_pattern_write_text(const char *path, const char *text, size_t len,
                          gg_err *err);

/* Before a long run: the name asks for a format golgen writes and the
 * file can be created (gg_atomic_probe). "-" and NULL pass. */
int gg_pattern_check_output(const char *path, gg_err *err);

/* RLE text of p into a malloc'd, NUL-terminated buffer (*len excludes the
 * NUL); byte for byte what gg_pattern_write_rle writes. */
int gg_pattern_format_rle(const gg_pattern *p, char **text, size_t *len,
                          gg_err *err);

/* An all-dead W x H box with n_planes planes (W or H 0: empty pattern);
 * position 0,0, no rule or comments. */
int gg_pattern_init(gg_pattern *p, int64_t width, int64_t height,
                    int n_planes, gg_err *err);
static inline int64_t gg_pattern_width(const gg_pattern *p)
{
    return p->plane[0].width;
}
static inline int64_t gg_pattern_height(const gg_pattern *p)
{
    return p->plane[0].height;
}
/* State of the cell at box coordinates (x, y) (0 outside the box). */
int gg_pattern_get(const gg_pattern *p, int64_t x, int64_t y);
/* Set a cell's state (0..255), adding planes as needed. */
int gg_pattern_set(gg_pattern *p, int64_t x, int64_t y, int state,
                   gg_err *err);

/* Where Golly puts the top-left cell of an RLE box of w x h (0 x 0 when the
 * file has no header) with no #CXRLE Pos: (0, 0), or centred on a bounded
 * grid named by the rule's suffix. */
void gg_pattern_default_pos(const char *rule, int64_t w, int64_t h,
                            int64_t *x, int64_t *y);

/* What a "#CXRLE ..." line of n characters says, read as the RLE reader
 * reads it: position (dx, dy when it has no Pos) and generation (0 when
 * no Gen). False when the reader would refuse the line. The writer keeps a
 * file's own line only when this gives the pattern's values. */
bool gg_pattern_cxrle_values(const char *line, size_t n, int64_t dx,
                             int64_t dy, int64_t *x, int64_t *y, int64_t *gen);

/* Same cells, planes, position, generation, rule and comments. */
bool gg_pattern_equal(const gg_pattern *a, const gg_pattern *b);

#endif

/* golgen serve: the messages a page sends over the WebSocket, parsed by a
 * fixed, small grammar (what tests/fuzz/fuzz_serve_msg.c fuzzes). One
 * command per message, ASCII words separated by single spaces:
 *
 *   view X Y COLS ROWS LEVEL   frames of the window whose top-left cell
 *                              is (X, Y), COLS x ROWS blocks of 2^LEVEL
 *                              cells a side (LEVEL 0: single cells)
 *   run | pause | fit | clear
 *   save [rle | mc | png]      the universe to the page, as a download
 *                              (RLE when not named)
 *   step N                     N generations (1 .. 2^40), then pause
 *   speed MS                   a delay of MS (0 .. 1000) ms after each step
 *   set X Y STATE              one cell
 *   rule TEXT                  the universe goes on under rule TEXT
 *   load\nTEXT                 a new universe from pattern TEXT (RLE...)
 *   paste X Y\nTEXT            pattern TEXT's live cells laid over the
 *                              universe, its top-left cell at (X, Y)
 *   soup W H PERCENT SEED      a new W x H torus (1 .. 2^32 a side) under
 *                              the rule, PERCENT (0 .. 100) of its cells
 *                              alive at random from SEED (0 .. 2^63-1)
 *   z Z                        a 3D grid's slice shown (0 .. 2^24-1)
 *   z sum                      a 3D grid shown as its projection along z
 *                              (each cell's shade: the live cells of its
 *                              column of z)
 *   colours                    the rule's colours, answered as
 *                              "colours\nS R G B\n..." (a rule table's
 *                              @COLORS; empty: the page's own)
 *
 * Numbers: an optional '-' and 1 to 19 decimal digits, in the ranges
 * below; anything else (extra words, other bytes, a bigger message) is an
 * error naming what is wrong. No allocation: text points into the
 * message. */
#ifndef GG_SERVE_MSG_H
#define GG_SERVE_MSG_H

#include <stddef.h>
#include <stdint.h>

#define SV_MAX_COORD (1LL << 62)    /* |X|, |Y| */
#define SV_MAX_LEVEL 40             /* 2^40 cells a block side */
#define SV_MAX_SIDE 4096            /* COLS, ROWS */
#define SV_MAX_BLOCKS (1L << 22)    /* COLS * ROWS: 4 MiB a frame */
#define SV_MAX_STEP (1LL << 40)
#define SV_MAX_DELAY 1000
#define SV_MAX_RULE 255
#define SV_MAX_LOAD (1L << 20)      /* a pasted pattern: 1 MiB */
#define SV_MAX_MSG (SV_MAX_LOAD + 64)
#define SV_MAX_SOUP_SIDE (1LL << 32)
#define SV_MAX_Z (1LL << 24)         /* a 3D grid's side (rule3d.h) */
#define SV_Z_SUM (-1)                /* z sum: sv_msg.n */

typedef enum sv_kind {
    SV_VIEW, SV_RUN, SV_PAUSE, SV_STEP, SV_SPEED, SV_SET, SV_RULE, SV_LOAD,
    SV_SAVE, SV_FIT, SV_CLEAR, SV_PASTE, SV_SOUP, SV_Z, SV_COLOURS
} sv_kind;

typedef enum sv_format { SV_RLE, SV_MC, SV_PNG } sv_format;

typedef struct sv_msg {
    sv_kind kind;
    int64_t x, y;     /* view, set, paste; soup: width, height */
    int64_t n;        /* step: generations; speed: ms; set: state;
                         soup: percent; z: the slice,
                         or SV_Z_SUM */
    int64_t seed;     /* soup */
    sv_format format; /* save */
    int cols, rows, level; /* view */
    const char *text; /* rule, load, paste: into the message, not
                         NUL-ended */
    size_t text_len;
} sv_msg;

/* 0 and *m, or -1 with a one-line reason in err. */
int sv_msg_parse(const char *buf, size_t len, sv_msg *m, char *err,
                 size_t errlen);

#endif

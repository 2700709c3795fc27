/* The picture options of `golgen run`, the same for 2D, Generations and
 * 3D rules: --png FILE (the final state), --frames DIR --every N (numbered
 * pictures during the run), --window, --png-scale, --png-zoom. What a
 * picture shows and how it is drawn is runtime/formats/picture.h's; here the
 * options are parsed and the run is cut at the frames. */
#ifndef GG_CLI_PICTURES_H
#define GG_CLI_PICTURES_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "error.h"
#include "picture.h"

/* getopt_long codes, above every short option. */
enum {
    GG_OPT_PNG = 0x100,
    GG_OPT_PNG_SCALE,
    GG_OPT_PNG_ZOOM,
    GG_OPT_WINDOW,
    GG_OPT_FRAMES,
    GG_OPT_EVERY,
};

/* Entries of a struct option table. */
#define GG_CLI_PICTURE_OPTIONS                                               \
    {"png", required_argument, 0, GG_OPT_PNG},                               \
        {"png-scale", required_argument, 0, GG_OPT_PNG_SCALE},               \
        {"png-zoom", required_argument, 0, GG_OPT_PNG_ZOOM},                 \
        {"window", required_argument, 0, GG_OPT_WINDOW},                     \
        {"frames", required_argument, 0, GG_OPT_FRAMES},                     \
        {"every", required_argument, 0, GG_OPT_EVERY}

typedef struct gg_cli_pictures {
    const char *png;    /* --png FILE; NULL: none */
    const char *frames; /* --frames DIR; NULL: none */
    int64_t every;      /* --every N generations (default 1) */
    gg_picture_opts pic;
} gg_cli_pictures;

/* getopt's code c with its argument: 1 when c is not a picture option, 0
 * when taken, -1 (err) for a bad value. */
int gg_cli_picture_option(int c, const char *arg, gg_cli_pictures *p,
                          gg_err *err);

/* Before the run: the options agree, libpng is there, --png's file can be
 * written and --frames' directory exists (made when its parent does). 0,
 * or the exit status with err. */
int gg_cli_pictures_ready(const gg_cli_pictures *p, gg_err *err);

/* Advance the universe gens generations; *stopped when interrupted (the
 * universe then holds the generation reached). */
typedef int (*gg_cli_advance_fn)(void *ctx, int64_t gens, bool *stopped,
                                 gg_err *err);
/* Write the universe's picture to path. */
typedef int (*gg_cli_draw_fn)(void *ctx, const char *path,
                              const gg_picture_opts *o,
                              gg_picture_info *info, gg_err *err);

/* gens generations by advance; with --frames in steps of --every, with
 * DIR/frame_000000.png before the first and one after each step. 0, or
 * the exit status with err (a frame that cannot be written: 2; a failed
 * advance: 3). */
int gg_cli_run_frames(const gg_cli_pictures *p, int64_t gens,
                      gg_cli_advance_fn advance, gg_cli_draw_fn draw,
                      void *ctx, gg_err *err);

/* --png after the run, when given: draw, and say on stderr what the
 * picture shows. 0, or the exit status with err. */
int gg_cli_write_png(const gg_cli_pictures *p, gg_cli_draw_fn draw,
                     void *ctx, gg_err *err);

/* The options' lines for a usage text; what3d: 3D's projection. */
void gg_cli_pictures_usage(FILE *out, bool what3d);

#endif

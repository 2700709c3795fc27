/* The pictures of the `golgen run` paths not yet on the library (2D,
 * Generations, hash tree, Larger than Life, rule tables): the options
 * (cli/cli_pictures.h) on runtime/formats/picture_run.h's checks and
 * frames, drawn by the run's own universe. Goes when those runs move
 * onto the library (issue 37), as lib/run3d.c did for 3D. */
#ifndef GG_CLI_FRAMES_H
#define GG_CLI_FRAMES_H

#include "cli_pictures.h"
#include "error.h"
#include "picture_run.h"

/* Before the run: the options agree, libpng is there, --png's file can be
 * written and --frames' directory exists (made when its parent does). 0,
 * or the exit status with err. */
int gg_cli_pictures_ready(const gg_cli_pictures *p, gg_err *err);

/* gens generations by advance, with --frames' pictures
 * (gg_picture_run_frames). 0, or the exit status with err (a frame that
 * cannot be written: 2; a failed advance: 3). */
int gg_cli_run_frames(const gg_cli_pictures *p, int64_t gens,
                      gg_picture_advance_fn advance, gg_picture_draw_fn draw,
                      void *ctx, gg_err *err);

/* --png after the run, when given: draw, and say on stderr what the
 * picture shows. 0, or the exit status with err. */
int gg_cli_write_png(const gg_cli_pictures *p, gg_picture_draw_fn draw,
                     void *ctx, gg_err *err);

#endif

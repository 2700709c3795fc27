/* What a run does with its pictures (golgen run --png, --frames, for
 * every family): before it, the PNG's file and the frames' directory
 * checked; during it, the generations cut at the frames. The run's own
 * universe is the caller's: it advances and draws through the callbacks.
 * The command (cli/cli_frames.c) and the library's runs (lib/run3d.c)
 * share this. */
#ifndef GG_PICTURE_RUN_H
#define GG_PICTURE_RUN_H

#include <stdbool.h>
#include <stdint.h>

#include "error.h"
#include "fail.h"
#include "picture.h"

typedef struct gg_picture_run {
    const char *png;    /* the final state's picture; NULL: none */
    const char *frames; /* a picture every `every` generations; NULL */
    int64_t every;      /* 0: 1 */
    gg_picture_opts pic;
} gg_picture_run;

/* Before the run (the options' combinations already checked): libpng is
 * there, png's file can be written and frames' directory exists (made
 * when its parent does). 0, or -1 with err and *why (GG_FAIL_ENV: no
 * libpng). */
int gg_picture_run_ready(const gg_picture_run *p, gg_fail_kind *why,
                         gg_err *err);

/* Advance the universe gens generations; *stopped when interrupted (the
 * universe then holds the generation reached). */
typedef int (*gg_picture_advance_fn)(void *ctx, int64_t gens, bool *stopped,
                                     gg_err *err);
/* Write the universe's picture to path. */
typedef int (*gg_picture_draw_fn)(void *ctx, const char *path,
                                  const gg_picture_opts *o,
                                  gg_picture_info *info, gg_err *err);

/* gens generations by advance; with frames in steps of every, with
 * DIR/frame_000000.png before the first and one after each step. 0, or
 * -1 with err and *why (a frame that cannot be written: GG_FAIL_INPUT; a
 * failed advance: GG_FAIL_ENV). */
int gg_picture_run_frames(const gg_picture_run *p, int64_t gens,
                          gg_picture_advance_fn advance,
                          gg_picture_draw_fn draw, void *ctx,
                          gg_fail_kind *why, gg_err *err);

#endif

/* The picture options of `golgen run`, the same for 2D, Generations and
 * 3D rules: --png FILE (the final state), --frames DIR --every N (numbered
 * pictures during the run), --window, --png-scale, --png-zoom. Here the
 * options are parsed and checked, in the library's shape (include/golgen.h's
 * golgen_picture_opts); what a picture shows and how it is drawn is the
 * library's and the engine's (runtime/formats/picture.h), and the run's
 * cut at the frames runtime/formats/picture_run.h's (cli/cli_frames.h for
 * the runs not yet on the library). */
#ifndef GG_CLI_PICTURES_H
#define GG_CLI_PICTURES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "golgen.h"

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
    golgen_picture_opts pic;
} gg_cli_pictures;

/* getopt's code c with its argument: 1 when c is not a picture option, 0
 * when taken, -1 (a sentence in msg, len bytes) for a bad value. */
int gg_cli_picture_option(int c, const char *arg, gg_cli_pictures *p,
                          char *msg, size_t len);

/* The options' combinations, before anything runs: 0, or -1 with a
 * sentence in msg (a usage error). */
int gg_cli_pictures_check(const gg_cli_pictures *p, char *msg, size_t len);

/* The stderr line on what --png's picture at path shows. */
void gg_cli_say_png(const char *path, const golgen_picture_info *in);

/* The options' lines for a usage text; what3d: 3D's projection. */
void gg_cli_pictures_usage(FILE *out, bool what3d);

#endif

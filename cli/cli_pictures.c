#include "cli_pictures.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "atomic_file.h"
#include "cli_util.h"

/* --window x,y,w,h (cli_util.h). */
static int parse_window(const char *arg, gg_picture_opts *o, gg_err *err)
{
    if (gg_cli_window("--window", arg, &o->wx, &o->wy, &o->ww, &o->wh, err))
        return -1;
    o->window = true;
    return 0;
}

int gg_cli_picture_option(int c, const char *arg, gg_cli_pictures *p,
                          gg_err *err)
{
    switch (c) {
    case GG_OPT_PNG: p->png = arg; return 0;
    case GG_OPT_FRAMES: p->frames = arg; return 0;
    case GG_OPT_EVERY:
        return gg_cli_int("--every", arg, 1, INT64_MAX / 4, &p->every, err);
    case GG_OPT_PNG_SCALE:
        return gg_cli_int("--png-scale", arg, 1, INT64_C(1) << 31,
                          &p->pic.scale, err);
    case GG_OPT_PNG_ZOOM:
        return gg_cli_int("--png-zoom", arg, 1, 64, &p->pic.zoom, err);
    case GG_OPT_WINDOW: return parse_window(arg, &p->pic, err);
    default: return 1;
    }
}

/* DIR exists as a directory, or is made (its parent must exist). */
static int frames_dir(const char *dir, gg_err *err)
{
    struct stat st;
    if (!stat(dir, &st))
        return S_ISDIR(st.st_mode)
                   ? 0
                   : gg_fail(err, "--frames %s is not a directory; name a "
                             "directory for the pictures", dir);
    if (mkdir(dir, 0777))
        return gg_fail(err, "cannot make --frames directory %s: %s; make "
                       "its parent first", dir, strerror(errno));
    return 0;
}

/* The options' combinations, before anything runs. */
static int check_options(const gg_cli_pictures *p, gg_err *err)
{
    bool any = p->png || p->frames;
    if (p->every && !p->frames)
        return gg_fail(err, "--every N says how often --frames DIR gets a "
                       "picture; add --frames DIR");
    if (!any && (p->pic.window || p->pic.scale || p->pic.zoom))
        return gg_fail(err, "--window, --png-scale and --png-zoom shape "
                       "the pictures of --png FILE or --frames DIR; add "
                       "one");
    if (p->pic.scale > 1 && p->pic.zoom > 1)
        return gg_fail(err, "--png-scale (cells a pixel) and --png-zoom "
                       "(pixels a cell) exclude each other; give one");
    if (p->png && !strcmp(p->png, "-"))
        return gg_fail(err, "--png writes a file; give it a name such as "
                       "out.png");
    return 0;
}

int gg_cli_pictures_ready(const gg_cli_pictures *p, gg_err *err)
{
    if (check_options(p, err))
        return GG_EXIT_USAGE;
    if ((p->png || p->frames) && !gg_png_available()) {
        gg_fail(err, "pictures need libpng, and this golgen was built "
                "without it; install libpng-dev (Debian) and rebuild");
        return GG_EXIT_ENV;
    }
    /* fail before a long run, not after it */
    if ((p->png && gg_atomic_probe(p->png, err)) ||
        (p->frames && frames_dir(p->frames, err)))
        return GG_EXIT_USAGE;
    return 0;
}

static int frame(const gg_cli_pictures *p, int64_t k, gg_cli_draw_fn draw,
                 void *ctx, gg_err *err)
{
    char path[4200];
    gg_picture_info info;
    snprintf(path, sizeof path, "%s/frame_%06lld.png", p->frames,
             (long long)k);
    return draw(ctx, path, &p->pic, &info, err) ? GG_EXIT_USAGE : 0;
}

int gg_cli_run_frames(const gg_cli_pictures *p, int64_t gens,
                      gg_cli_advance_fn advance, gg_cli_draw_fn draw,
                      void *ctx, gg_err *err)
{
    bool stopped = false;
    if (!p->frames)
        return advance(ctx, gens, &stopped, err) ? GG_EXIT_ENV : 0;
    int64_t every = p->every ? p->every : 1, k = 0;
    int status = frame(p, k++, draw, ctx, err);
    for (int64_t done = 0; !status && done < gens && !stopped;) {
        int64_t n = gens - done < every ? gens - done : every;
        if (advance(ctx, n, &stopped, err))
            return GG_EXIT_ENV;
        done += n;
        if (!stopped) /* an interrupted step is written by the caller */
            status = frame(p, k++, draw, ctx, err);
    }
    return status;
}

int gg_cli_write_png(const gg_cli_pictures *p, gg_cli_draw_fn draw,
                     void *ctx, gg_err *err)
{
    gg_picture_info in;
    if (!p->png)
        return 0;
    if (draw(ctx, p->png, &p->pic, &in, err))
        return GG_EXIT_USAGE;
    fprintf(stderr, "golgen: %s: %lld x %lld cells from (%lld, %lld), ",
            p->png, (long long)in.w, (long long)in.h, (long long)in.x,
            (long long)in.y);
    if (in.scale > 1)
        fprintf(stderr, "%lld x %lld cells a pixel (shaded by density)\n",
                (long long)in.scale, (long long)in.scale);
    else
        fprintf(stderr, "%lld pixel%s a cell\n", (long long)in.zoom,
                in.zoom > 1 ? "s" : "");
    return 0;
}

void gg_cli_pictures_usage(FILE *out, bool what3d)
{
    fprintf(out,
            "\npictures (PNG):\n"
            "  --png FILE        the final state%s\n"
            "  --frames DIR      DIR/frame_000000.png at the start, then one "
            "every N generations\n"
            "                    and one at the end\n"
            "  --every N         (with --frames; default 1)\n"
            "  --window X,Y,W,H  only W x H cells from (X, Y)%s; default: %s\n"
            "  --png-scale N     N x N cells a pixel, shaded by their density "
            "(default: 1,\n"
            "                    or what keeps the picture within %d pixels "
            "a side)\n"
            "  --png-zoom N      N x N pixels a cell, for small patterns\n",
            what3d ? ", projected along z (a pixel's shade: the\n"
                     "                    share of live cells behind it)"
                   : " (a colour per state: dead black, alive\n"
                     "                    white, Generations' dying states "
                     "orange to purple)",
            what3d ? " (x, y of the grid)" : " (Golly coordinates)",
            what3d ? "the whole x-y face"
                   : "a bounded grid whole,\n                    the live "
                     "cells' box on the unbounded plane",
            GG_PICTURE_MAX_SIDE);
}

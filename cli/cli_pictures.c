#include "cli_pictures.h"

#include <string.h>

#include "cli_args.h"

/* --window x,y,w,h (cli_args.h). */
static int parse_window(const char *arg, golgen_picture_opts *o, char *msg,
                        size_t len)
{
    int64_t v[4];
    if (gg_cli_parse_window("--window", arg, v, msg, len))
        return -1;
    o->x = v[0], o->y = v[1], o->w = v[2], o->h = v[3];
    o->window = 1;
    return 0;
}

int gg_cli_picture_option(int c, const char *arg, gg_cli_pictures *p,
                          char *msg, size_t len)
{
    switch (c) {
    case GG_OPT_PNG: p->png = arg; return 0;
    case GG_OPT_FRAMES: p->frames = arg; return 0;
    case GG_OPT_EVERY:
        return gg_cli_parse_int("--every", arg, 1, INT64_MAX / 4, &p->every,
                                msg, len);
    case GG_OPT_PNG_SCALE:
        return gg_cli_parse_int("--png-scale", arg, 1, INT64_C(1) << 31,
                                &p->pic.scale, msg, len);
    case GG_OPT_PNG_ZOOM:
        return gg_cli_parse_int("--png-zoom", arg, 1, 64, &p->pic.zoom, msg,
                                len);
    case GG_OPT_WINDOW: return parse_window(arg, &p->pic, msg, len);
    default: return 1;
    }
}

int gg_cli_pictures_check(const gg_cli_pictures *p, char *msg, size_t len)
{
    bool any = p->png || p->frames;
    const char *why = NULL;
    if (p->every && !p->frames)
        why = "--every N says how often --frames DIR gets a picture; add "
              "--frames DIR";
    else if (!any && (p->pic.window || p->pic.scale || p->pic.zoom))
        why = "--window, --png-scale and --png-zoom shape the pictures of "
              "--png FILE or --frames DIR; add one";
    else if (p->pic.scale > 1 && p->pic.zoom > 1)
        why = "--png-scale (cells a pixel) and --png-zoom (pixels a cell) "
              "exclude each other; give one";
    else if (p->png && !strcmp(p->png, "-"))
        why = "--png writes a file; give it a name such as out.png";
    if (why)
        snprintf(msg, len, "%s", why);
    return why ? -1 : 0;
}

void gg_cli_say_png(const char *path, const golgen_picture_info *in)
{
    fprintf(stderr, "golgen: %s: %lld x %lld cells from (%lld, %lld), ",
            path, (long long)in->w, (long long)in->h, (long long)in->x,
            (long long)in->y);
    if (in->scale > 1)
        fprintf(stderr, "%lld x %lld cells a pixel (shaded by density)\n",
                (long long)in->scale, (long long)in->scale);
    else
        fprintf(stderr, "%lld pixel%s a cell\n", (long long)in->zoom,
                in->zoom > 1 ? "s" : "");
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
            GOLGEN_PICTURE_MAX_SIDE);
}

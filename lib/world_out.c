/* A world written (lib/world_core.h): RLE (a 3D grid's RLE3) and
 * macrocell text as golgen run -o writes them, the picture golgen run
 * --png draws, and files of either (include/golgen/world.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "picture.h"
#include "world_core.h"

int gg_world_rle(const golgen_world *w, char **text, size_t *len, gg_err *err)
{
    if (w->family ==
        GOLGEN_FAMILY_3D) /* as golgen run -o OUT.rle3 writes it */
        return gg_rle3_format(&w->d.g, w->d.text, w->d.generation, NULL,
                              text, len, err);
    gg_pattern p;
    if (gg_world_to_pattern(w, &p, err))
        return -1;
    int bad = gg_pattern_format_rle(&p, text, len, err);
    gg_pattern_free(&p);
    return bad;
}

int gg_world_mc(const golgen_world *w, char **text, size_t *len, gg_err *err)
{
    if (w->family == GOLGEN_FAMILY_3D)
        return gg_fail(err, "a 3D grid has no macrocell form: save RLE "
                       "(RLE3) instead");
    gg_pattern p;
    if (gg_world_to_pattern(w, &p, err))
        return -1;
    int bad = gg_pattern_format_mc(&p, text, len, err);
    gg_pattern_free(&p);
    return bad;
}

int gg_world_picture(const golgen_world *w, gg_image *im, gg_err *err)
{
    gg_picture_opts o;
    memset(&o, 0, sizeof o);
    gg_picture_info info;
    switch (w->family) {
    case GOLGEN_FAMILY_TWO_STATE:
        return gg_picture_universe(&w->u, &o, im, &info, err);
    case GOLGEN_FAMILY_GENERATIONS:
        return gg_picture_gen_universe(&w->g, &o, im, &info, err);
    case GOLGEN_FAMILY_TABLE:
        return gg_picture_cells(&w->t.cells, gg_world_states(w),
                                w->t.topo != GG_TOPO_UNBOUNDED, w->t.x0,
                                w->t.y0, &o, im, &info, err);
    case GOLGEN_FAMILY_3D:
        return gg_picture_grid3d(&w->d.g, &o, im, &info, err);
    case GOLGEN_FAMILY_LTL: break;
    }
    gg_pattern p;
    if (gg_world_to_pattern(w, &p, err))
        return -1;
    gg_gen_cells c = {.n_planes = p.n_planes};
    for (int q = 0; q < p.n_planes; q++)
        c.plane[q] = p.plane[q];
    /* (the live box: a bounded grid's dead border is not drawn) */
    int bad = gg_picture_cells(&c, gg_world_states(w), false, p.x, p.y, &o,
                               im, &info, err);
    gg_pattern_free(&p);
    return bad;
}

/* ---- the public calls ---- */

int golgen_world_format(const golgen_world *w, const char *format,
                        char **text, size_t *len, char *errbuf,
                        size_t errlen)
{
    gg_err err;
    *text = NULL;
    *len = 0;
    bool mc = format && !strcmp(format, "mc");
    if (format && !mc && strcmp(format, "rle"))
        return gg_world_fail(GOLGEN_ERR_INPUT, &(gg_err){"the format is "
                             "\"rle\" or \"mc\""}, errbuf, errlen);
    if (mc ? gg_world_mc(w, text, len, &err) : gg_world_rle(w, text, len,
                                                            &err))
        return gg_world_fail(GOLGEN_ERR_INPUT, &err, errbuf, errlen);
    return GOLGEN_OK;
}

int golgen_world_image(const golgen_world *w, golgen_image **im,
                       char *errbuf, size_t errlen)
{
    gg_err err;
    gg_image g;
    *im = NULL;
    if (gg_world_picture(w, &g, &err))
        return gg_world_fail(GOLGEN_ERR_INPUT, &err, errbuf, errlen);
    golgen_image *out = calloc(1, sizeof *out);
    if (!out) {
        gg_image_free(&g);
        return gg_world_fail(GOLGEN_ERR_ENV, &(gg_err){"out of memory for "
                             "the picture"}, errbuf, errlen);
    }
    out->width = g.width, out->height = g.height;
    out->index = g.index; /* (taken over) */
    memcpy(out->palette, g.palette, sizeof out->palette);
    out->colours = g.colours;
    *im = out;
    return GOLGEN_OK;
}

void golgen_image_free(golgen_image *im)
{
    if (!im)
        return;
    gg_image g = {.width = im->width, .height = im->height,
                  .index = im->index, .colours = im->colours};
    gg_image_free(&g);
    free(im);
}

/* Whether path's name ends in ext (case-insensitive). */
static bool named(const char *path, const char *ext)
{
    size_t n = strlen(path), k = strlen(ext);
    return n > k && !strcasecmp(path + n - k, ext);
}

int golgen_world_write(const golgen_world *w, const char *path,
                       char *errbuf, size_t errlen)
{
    gg_err err;
    if (gg_lib_out_path(path, "golgen_world_format", &err))
        return gg_world_fail(GOLGEN_ERR_INPUT, &err, errbuf, errlen);
    int bad;
    if (named(path, ".png")) {
        if (gg_lib_png_check(&err))
            return gg_world_fail(GOLGEN_ERR_ENV, &err, errbuf, errlen);
        gg_image im;
        bad = gg_world_picture(w, &im, &err);
        if (!bad) {
            bad = gg_png_write(path, &im, &err);
            gg_image_free(&im);
        }
    } else if (w->family == GOLGEN_FAMILY_3D) {
        bad = gg_rle3_write(path, &w->d.g, w->d.text, w->d.generation, NULL,
                            &err);
    } else {
        gg_pattern p;
        bad = gg_world_to_pattern(w, &p, &err);
        if (!bad) {
            bad = gg_pattern_write(path, &p, &err);
            gg_pattern_free(&p);
        }
    }
    return bad ? gg_world_fail(GOLGEN_ERR_INPUT, &err, errbuf, errlen)
               : GOLGEN_OK;
}

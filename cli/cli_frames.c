#include "cli_frames.h"

#include "cli_args.h"

/* The options in the engine's shape (as lib/golgen.c's pictures take
 * them). */
static gg_picture_run engine_shape(const gg_cli_pictures *p)
{
    const golgen_picture_opts *o = &p->pic;
    return (gg_picture_run){
        .png = p->png, .frames = p->frames, .every = p->every,
        .pic = {.window = o->window, .wx = o->x, .wy = o->y, .ww = o->w,
                .wh = o->h, .scale = o->scale, .zoom = o->zoom,
                .max_side = o->max_side}};
}

int gg_cli_pictures_ready(const gg_cli_pictures *p, gg_err *err)
{
    gg_picture_run r = engine_shape(p);
    gg_fail_kind why;
    if (gg_cli_pictures_check(p, err->msg, sizeof err->msg))
        return GG_EXIT_USAGE;
    return gg_picture_run_ready(&r, &why, err) ? gg_fail_exit_status(why)
                                               : 0;
}

int gg_cli_run_frames(const gg_cli_pictures *p, int64_t gens,
                      gg_picture_advance_fn advance, gg_picture_draw_fn draw,
                      void *ctx, gg_err *err)
{
    gg_picture_run r = engine_shape(p);
    gg_fail_kind why;
    return gg_picture_run_frames(&r, gens, advance, draw, ctx, &why, err)
               ? gg_fail_exit_status(why)
               : 0;
}

int gg_cli_write_png(const gg_cli_pictures *p, gg_picture_draw_fn draw,
                     void *ctx, gg_err *err)
{
    gg_picture_run r = engine_shape(p);
    gg_picture_info in;
    if (!p->png)
        return 0;
    if (draw(ctx, p->png, &r.pic, &in, err))
        return GG_EXIT_USAGE;
    gg_cli_say_png(p->png, &(golgen_picture_info){in.x, in.y, in.w, in.h,
                                                   in.scale, in.zoom});
    return 0;
}

/* golgen_run_2d for Generations rules (S/B/C, gen/rules/rule_gen.h) on the
 * dense engine: any backend of the table that takes state planes
 * (runtime/backends/backend.h: upload_cells), in tiles on a host backend
 * or cuda and ptx, in bands on devices (runtime/universes/gen_bands.h).
 * Moved from the command's cli/run_gen.c. */
#include "run_lib.h"

#include <stdio.h>
#include <string.h>

#include "atomic_file.h"
#include "gen_bands.h"
#include "picture.h"
#include "store.h"

static int write_out(const char *out, const gg_gen_universe *u, gg_err *err)
{
    gg_pattern p;
    if (gg_gen_universe_to_pattern(u, &p, err))
        return -1;
    int bad = gg_run_save_pattern(out, &p, err);
    gg_pattern_free(&p);
    return bad;
}

/* The universe as the frames and the png see it. */
typedef struct gen_run {
    const gg_run *r;
    gg_gen_universe *u;
    const gg_gen_stepper *step; /* the open backend's */
    gg_run_parts parts;
} gen_run;

static int64_t gen_part(void *ctx, int64_t n, gg_err *err)
{
    gen_run *g = ctx;
    int64_t before = g->u->generation;
    return gg_gen_universe_run(g->u, g->step, n, gg_run_progress,
                               &g->parts.prog, err)
               ? -1
               : g->u->generation - before;
}

static int gen_store(void *ctx, gg_err *err)
{
    gen_run *g = ctx;
    return gg_store_write_gen(g->r->o->store, g->u, err);
}

static int gen_advance(void *ctx, int64_t gens, bool *stopped, gg_err *err)
{
    gen_run *g = ctx;
    return gg_run_parts_advance(&g->parts, g, gens, stopped, err);
}

static int gen_draw(void *ctx, const char *path, const gg_picture_opts *o,
                    gg_picture_info *info, gg_err *err)
{
    gen_run *g = ctx;
    return gg_picture_write_gen_universe(path, g->u, o, info, err);
}

/* out, the store and the picture once the run ended: a status. */
static int gen_outputs(gen_run *run, gg_err *err)
{
    gg_run *r = (gg_run *)run->r;
    const golgen_run2d_opts *o = r->o;
    if (o->out && write_out(o->out, run->u, err))
        return GG_RUN_USAGE;
    if (o->store && gg_store_write_gen(o->store, run->u, err))
        return GG_RUN_USAGE;
    return gg_run_write_png(r, gen_draw, run, err);
}

/* The run itself, once the backends are open (b the first, what the
 * report names; st steps the universe): a status. */
static int run_open(gg_run *r, gg_gen_universe *u, gg_backend *b,
                    gg_tiles *tiles, gg_gen_stepper st, gg_err *err)
{
    const golgen_run2d_opts *o = r->o;
    golgen_run2d_result *res = r->res;
    char text[128];
    gg_rule_format(&u->rule, text, sizeof text);
    double start = gg_run_now();
    st.stop = o->stop; /* a reference step gives up at a stop */
    gen_run run = {.r = r, .u = u, .step = &st,
                   .parts = {.prog = {.r = r}, .stopped = gg_run_stop_asked,
                             .step = gen_part, .store = gen_store}};
    int64_t first = u->generation;
    gg_fail_kind why;
    int status = gg_picture_run_frames(&r->pics, o->gens, gen_advance,
                                       gen_draw, &run, &why, err)
                     ? gg_run_status(why)
                     : GG_RUN_OK;
    double seconds = gg_run_now() - start;
    res->reached = u->generation - first;
    res->generation = u->generation;
    res->seconds = seconds;
    if (!status) {
        res->ran = 1;
        status = gen_outputs(&run, err);
    }
    bool tiled = tiles->side != 0;
    if (status) {
        gg_tiles_free(tiles);
        return status;
    }
    /* a rate only where the grid kept its size: the unbounded plane
     * grows between batches */
    char rate[64] = "";
    double cells = (double)gg_gen_cells_width(&u->cells) *
                   (double)gg_gen_cells_height(&u->cells) *
                   (double)(u->generation - first);
    if (gg_rule_is_bounded(&u->rule) && seconds > 0)
        snprintf(rate, sizeof rate, ", %.3e cell updates/s", cells / seconds);
    char engine[160];
    gg_run_tiles_done(tiles, gg_backend_of(b)->name, engine, sizeof engine);
    res->written = o->out != NULL;
    res->population = gg_gen_universe_population(u);
    snprintf(res->engine, sizeof res->engine, "%s",
             tiled ? "tiles" : "dense");
    snprintf(res->rule, sizeof res->rule, "%s", text);
    gg_run_summary(r, "%s: generation %lld, "
             "population %lld, %.3f s%s (%s, Generations)", text,
             (long long)u->generation, (long long)res->population, seconds,
             rate, engine);
    return GG_RUN_OK;
}

int gg_run_gen(gg_run *r, gg_gen_universe *u, gg_err *err)
{
    const golgen_run2d_opts *o = r->o;
    gg_backend *b;
    int status;
    snprintf(r->res->family, sizeof r->res->family, "generations");
    /* fail before a long run, not after it, when out cannot be made */
    if ((o->out && strcmp(o->out, "-") &&
         gg_pattern_check_output(o->out, err)) ||
        (o->store && gg_atomic_probe(o->store, err)) ||
        gg_generations_check(u->generation, o->gens, err)) {
        gg_gen_universe_free(u);
        return GG_RUN_USAGE;
    }
    /* devices: a backend per band (lib/run_devices.c), the bands cut by
     * runtime/universes/gen_bands.h; else the one backend */
    gg_backend_opts bo = {.config = &r->cfg, .announce = o->announce != 0};
    gg_run_devices d = {.n = r->n_devices};
    memcpy(d.ordinal, r->ordinal, sizeof d.ordinal);
    if (gg_run_devices_open(r, &d, r->backend, &u->rule, bo, &status, err)) {
        gg_run_devices_close(&d);
        gg_gen_universe_free(u);
        return status;
    }
    b = d.b[0];
    gg_gen_bands bands = {.b = d.b, .n = d.n};
    gg_gen_stepper st = d.n > 1 ? gg_gen_bands_view(&bands)
                                : gg_backend_gen_stepper(b);
    gg_tiles tiles = {0};
    status = gg_run_tiles_wrap_gen(r->engine, b, d.n > 1, &tiles, &st, err)
                 ? GG_RUN_USAGE
                 : run_open(r, u, b, &tiles, st, err);
    if (d.n > 1)
        gg_run_note(r, "golgen: %d bands (Generations, through the host), "
                    "%lld rounds", bands.bands_used, (long long)bands.rounds);
    gg_run_devices_close(&d);
    gg_gen_universe_free(u);
    return status;
}

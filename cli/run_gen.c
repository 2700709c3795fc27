#include "run_gen.h"
#include "run_tiles.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "atomic_file.h"
#include "cli_frames.h"
#include "cli_util.h"
#include "run_control.h"
#include "backend.h"
#include "cli_devices.h"
#include "gen_bands.h"
#include "gen_universe.h"
#include "rule_gen.h"
#include "store.h"

static int write_out(const char *out, const gg_gen_universe *u, gg_err *err)
{
    gg_pattern p;
    if (gg_gen_universe_to_pattern(u, &p, err))
        return -1;
    int bad = gg_cli_save_pattern(out, &p, err);
    gg_pattern_free(&p);
    return bad;
}

/* The universe as --frames and --png see it (cli/cli_pictures.h). */
typedef struct gen_run {
    gg_gen_universe *u;
    const gg_gen_stepper *step; /* the open backend's */
    gg_run_progress ps;
    const char *store; /* checkpoints every `every` generations */
    int64_t every, since;
} gen_run;

/* gens generations (fewer after a stop signal), in parts that end at
 * each checkpoint, as two-state runs do (cli/cmd_run.c). */
static int gen_advance(void *ctx, int64_t gens, bool *stopped, gg_err *err)
{
    gen_run *g = ctx;
    for (int64_t done = 0; done < gens && !gg_run_stopped();) {
        int64_t n = gens - done, before = g->u->generation;
        if (g->every > 0 && n > g->every - g->since)
            n = g->every - g->since;
        if (gg_gen_universe_run(g->u, g->step, n, gg_run_progress_cb,
                                &g->ps, err))
            return -1;
        int64_t ran = g->u->generation - before;
        done += ran;
        g->ps.base += ran;
        g->since += ran;
        if (g->every > 0 && g->since >= g->every) {
            if (gg_store_write_gen(g->store, g->u, err))
                return -1;
            g->since = 0;
        }
    }
    *stopped = gg_run_stopped();
    return 0;
}

static int gen_draw(void *ctx, const char *path, const gg_picture_opts *o,
                    gg_picture_info *info, gg_err *err)
{
    gen_run *g = ctx;
    return gg_picture_write_gen_universe(path, g->u, o, info, err);
}

/* OUT, the store and the picture once the run ended: exit status. */
static int gen_outputs(gen_run *run, const gg_gen_run *o, gg_err *err)
{
    if (o->out && write_out(o->out, run->u, err))
        return GG_EXIT_USAGE;
    if (o->store && gg_store_write_gen(o->store, run->u, err))
        return GG_EXIT_USAGE;
    return gg_cli_write_png(o->pics, gen_draw, run, err);
}

/* The run itself, once the backends are open (b the first, what the
 * report names; st steps the universe): exit status. */
static int run_open(gg_gen_universe *u, const gg_gen_run *o, gg_backend *b,
                    gg_tiles *tiles, gg_gen_stepper st, gg_err *err)
{
    char text[128];
    gg_rule_format(&u->rule, text, sizeof text);
    double start = gg_cli_now();
    st.stop = gg_run_stop_flag(); /* a reference step gives up at a stop */
    gen_run run = {.u = u, .step = &st, .store = o->store,
                   .every = o->every};
    gg_run_progress_init(&run.ps, o->progress, o->gens);
    int64_t first = u->generation;
    int status = gg_cli_run_frames(o->pics, o->gens, gen_advance, gen_draw,
                                   &run, err);
    double seconds = gg_cli_now() - start;
    if (!status)
        status = gen_outputs(&run, o, err);
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
    gg_cli_tiles_done(tiles, gg_backend_of(b)->name, engine, sizeof engine);
    fprintf(stderr, "%s: generation %lld, population %lld, %.3f s%s (%s, "
            "Generations)\n", text, (long long)u->generation,
            (long long)gg_gen_universe_population(u), seconds, rate, engine);
    return gg_run_stop_report(u->generation - first, o->gens, o->out != NULL);
}

int gg_run_generations(gg_gen_universe *u, const gg_gen_run *o)
{
    gg_err err;
    gg_backend *b;
    int status;
    /* fail before a long run, not after it, when OUT cannot be made */
    if ((o->out && strcmp(o->out, "-") &&
         gg_pattern_check_output(o->out, &err)) ||
        (o->store && gg_atomic_probe(o->store, &err)) ||
        gg_generations_check(u->generation, o->gens, &err)) {
        gg_gen_universe_free(u);
        return gg_cli_error("run", GG_EXIT_USAGE, &err);
    }
    /* --devices: a backend per band (cli/cli_devices.h), the bands cut by
     * runtime/universes/gen_bands.h; else the one backend */
    gg_cli_devices one = {0}, *d = o->devices ? o->devices : &one;
    if (gg_cli_devices_open(d, o->backend, &u->rule, *o->bo, &status,
                            &err)) {
        gg_cli_devices_close(d);
        gg_gen_universe_free(u);
        return gg_cli_error("run", status, &err);
    }
    b = d->b[0];
    gg_gen_bands bands = {.b = d->b, .n = d->n};
    gg_gen_stepper st = d->n > 1 ? gg_gen_bands_view(&bands)
                                 : gg_backend_gen_stepper(b);
    gg_tiles tiles = {0}; /* cli/run_tiles.h */
    status = gg_cli_tiles_wrap_gen(o->engine, b, d->n > 1, &tiles, &st, &err)
                 ? GG_EXIT_USAGE
                 : run_open(u, o, b, &tiles, st, &err);
    if (d->n > 1)
        fprintf(stderr, "golgen: %d bands (Generations, through the host), "
                "%lld rounds\n", bands.bands_used, (long long)bands.rounds);
    gg_cli_devices_close(d);
    gg_gen_universe_free(u);
    /* a stop signal's status (130, 143, 129) was said already */
    return status && status < 128 ? gg_cli_error("run", status, &err)
                                  : status;
}

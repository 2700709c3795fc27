#include "run_tiles.h"

#include <stdio.h>
#include <string.h>

#include "engine_choice.h"

/* Auto leaves alone a backend that gives up a long generation at a stop
 * (step_until: the reference): tiles step through calls a stop cannot
 * cut short, and the reference's generations are slow enough to matter
 * (a stop within a second, tests/test_stop.c). */
static bool gives_up_in_a_step(gg_backend *b, bool asked)
{
    return !asked && gg_backend_of(b)->step_until != NULL;
}

int gg_cli_tiles_wrap(const char *engine, gg_backend *b, bool split,
                      gg_tiles *tiles, gg_stepper *stepper, gg_err *err)
{
    bool asked = !strcmp(engine, "tiles");
    if (!asked && strcmp(engine, "auto"))
        return 0;
    bool host = gg_engine_tiles_take(b), device = gg_engine_tiles_device(b);
    if (asked && (split || (!host && !device)))
        return gg_fail(err, "--engine tiles steps tiles on a host backend "
                       "or on cuda and ptx, without --devices, "
                       "--device-mem or ranks; use --engine dense");
    if (split || (!host && !device) || gives_up_in_a_step(b, asked))
        return 0;
    /* a device's grid stays there: only tile lists and flags travel */
    *stepper = host ? gg_tiles_stepper(tiles, stepper, 0, 0)
                    : gg_tiles_device_stepper(tiles, b, 0, 0);
    return 0;
}

int gg_cli_tiles_wrap_gen(const char *engine, gg_backend *b, bool split,
                          gg_tiles *tiles, gg_gen_stepper *stepper,
                          gg_err *err)
{
    bool asked = engine && !strcmp(engine, "tiles");
    if (!asked && (!engine || strcmp(engine, "auto")))
        return 0;
    bool host = gg_engine_tiles_take(b), device = gg_engine_tiles_device(b);
    if (asked && (split || (!host && !device)))
        return gg_fail(err, "--engine tiles steps a Generations grid's "
                       "tiles on a host backend or on cuda and ptx, without "
                       "--devices; use --engine dense");
    if (split || (!host && !device) || gives_up_in_a_step(b, asked))
        return 0;
    *stepper = host ? gg_tiles_gen_stepper(tiles, stepper, 0, 0)
                    : gg_tiles_gen_device_stepper(tiles, b, 0, 0);
    return 0;
}

void gg_cli_tiles_done(gg_tiles *tiles, const char *backend, char *buf,
                       size_t size)
{
    const gg_tiles_stats *st = &tiles->stats;
    /* a grid too small for tiles (or a bounded plane) ran whole */
    if (!tiles->side || (!tiles->off && st->tile_steps + st->tile_slept +
                                                st->whole_gens == 0)) {
        snprintf(buf, size, "%s", backend);
        gg_tiles_free(tiles);
        return;
    }
    char what[120];
    gg_tiles_describe(tiles, what, sizeof what);
    snprintf(buf, size, "%s, %s", backend, what);
    gg_tiles_free(tiles);
}

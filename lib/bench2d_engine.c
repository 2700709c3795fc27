/* golgen_bench_2d's engines above the backends (lib/bench2d.h): the same
 * soup as the dense bench through active tiles, or on the unbounded
 * plane in the hash tree, with what each engine did in engine_detail. */
#include "bench2d.h"

#include <stdio.h>
#include <string.h>

#include "hashlife.h"
#include "pattern.h"
#include "tiles.h"

/* gens generations through s, at most its max_batch a call. */
static int step_all(const gg_stepper *s, const gg_rule *rule, gg_topo topo,
                    gg_grid *g, int64_t gens, gg_err *err)
{
    while (gens > 0) {
        int64_t n = s->max_batch > 0 && gens > s->max_batch ? s->max_batch
                                                            : gens;
        if (s->step(s->ctx, rule, topo, g, n, err))
            return -1;
        gens -= n;
    }
    return 0;
}

static int step_all_gen(const gg_gen_stepper *s, const gg_rule *rule,
                        gg_topo topo, gg_gen_cells *c, int64_t gens,
                        gg_err *err)
{
    while (gens > 0) {
        int64_t n = s->max_batch > 0 && gens > s->max_batch ? s->max_batch
                                                            : gens;
        if (s->step(s->ctx, rule, topo, c, n, err))
            return -1;
        gens -= n;
    }
    return 0;
}

/* Two-state: the backend's stepper in tiles (on the host, or on a device
 * whose backend tiles its grid); the device's grid held for the warm-up
 * and the timed part, as gg_backend_bench keeps it there. */
static int tiles_run(gg_lib_bench2d *b, gg_backend *be, gg_tiles *tiles,
                     gg_grid *g, gg_err *err)
{
    golgen_bench2d_result *r = b->res;
    bool host = gg_engine_tiles_take(be), device = gg_engine_tiles_device(be);
    if (!host && !device)
        return gg_fail(err, "--engine tiles steps tiles on a host backend "
                       "or on cuda and ptx, without --devices, "
                       "--device-mem or ranks; use --engine dense");
    gg_stepper s = gg_backend_stepper(be);
    s = host ? gg_tiles_stepper(tiles, &s, 0, 0)
             : gg_tiles_device_stepper(tiles, be, 0, 0);
    if (s.hold && s.hold(s.ctx, b->topo, g, err))
        return -1;
    int bad = step_all(&s, &b->rule, b->topo, g, 1, err);
    if (!bad) {
        double t0 = gg_lib_wall_now(), c0 = gg_lib_cpu_now();
        bad = step_all(&s, &b->rule, b->topo, g, b->o.gens, err);
        r->seconds = gg_lib_wall_now() - t0;
        r->cpu_seconds = gg_lib_cpu_now() - c0;
    }
    gg_err later; /* the first failure is the one reported */
    if (s.drop && s.drop(s.ctx, g, bad ? &later : err))
        bad = -1;
    return bad;
}

static int tiles_run_gen(gg_lib_bench2d *b, gg_backend *be, gg_tiles *tiles,
                         gg_gen_cells *cells, gg_err *err)
{
    golgen_bench2d_result *r = b->res;
    bool host = gg_engine_tiles_take(be), device = gg_engine_tiles_device(be);
    if (!host && !device)
        return gg_fail(err, "--engine tiles steps a Generations grid's "
                       "tiles on a host backend or on cuda and ptx, without "
                       "--devices; use --engine dense");
    gg_gen_stepper s = gg_backend_gen_stepper(be);
    s = host ? gg_tiles_gen_stepper(tiles, &s, 0, 0)
             : gg_tiles_gen_device_stepper(tiles, be, 0, 0);
    if (step_all_gen(&s, &b->rule, b->topo, cells, 1, err))
        return -1;
    double t0 = gg_lib_wall_now(), c0 = gg_lib_cpu_now();
    int bad = step_all_gen(&s, &b->rule, b->topo, cells, b->o.gens, err);
    r->seconds = gg_lib_wall_now() - t0;
    r->cpu_seconds = gg_lib_cpu_now() - c0;
    return bad;
}

/* What the tiles did ("cpu" or "cpu, tiles 256: ..."); frees them. */
static void tiles_done(gg_tiles *tiles, const char *backend, char *buf,
                       size_t size)
{
    const gg_tiles_stats *st = &tiles->stats;
    /* a grid too small for tiles (or a bounded plane) ran whole */
    if (!tiles->side || (!tiles->off && st->tile_steps + st->tile_slept +
                                                st->whole_gens == 0)) {
        snprintf(buf, size, "%s", backend);
    } else {
        char what[120];
        gg_tiles_describe(tiles, what, sizeof what);
        snprintf(buf, size, "%s, %s", backend, what);
    }
    gg_tiles_free(tiles);
}

int gg_lib_bench_tiles(gg_lib_bench2d *b, gg_gen_cells *cells, int *code,
                       gg_err *err)
{
    golgen_bench2d_result *r = b->res;
    gg_backend *be;
    if (gg_lib_bench2d_open(b, &b->bo, &be, code, err))
        return -1;
    *code = GOLGEN_ERR_INPUT;
    gg_tiles tiles;
    memset(&tiles, 0, sizeof tiles);
    int bad = cells->n_planes > 1
                  ? tiles_run_gen(b, be, &tiles, cells, err)
                  : tiles_run(b, be, &tiles, &cells->plane[0], err);
    r->population = gg_gen_cells_population(cells);
    tiles_done(&tiles, r->backend, r->engine_detail,
               sizeof r->engine_detail);
    gg_backend_close(be);
    return bad;
}

int gg_lib_bench_tree(gg_lib_bench2d *b, gg_gen_cells *cells, int *code,
                      gg_err *err)
{
    golgen_bench2d_result *r = b->res;
    /* as run opens it for the tree: leaves are small squares, stepped by
     * one host thread unless threads says otherwise */
    gg_backend_opts bo = b->bo;
    bo.threads = bo.threads ? bo.threads : 1;
    bo.host_only = true;
    bo.width_hint = bo.height_hint = 0;
    gg_backend *be;
    if (gg_lib_bench2d_open(b, &bo, &be, code, err))
        return -1;
    *code = GOLGEN_ERR_INPUT;
    gg_hl *h = NULL;
    int64_t mem = b->o.mem ? b->o.mem : gg_engine_default_mem();
    /* the soup's box centred on the origin, dead cells all around */
    gg_pattern p;
    memset(&p, 0, sizeof p);
    p.n_planes = cells->n_planes;
    for (int i = 0; i < cells->n_planes; i++)
        p.plane[i] = cells->plane[i];
    p.x = -(b->o.width / 2);
    p.y = -(b->o.height / 2);
    int64_t done = 0;
    int bad = gg_hl_new(&b->rule, be, gg_engine_tree_bytes(mem), &h, err) ||
              gg_hl_set_pattern(h, &p, err);
    if (!bad) {
        double w0 = gg_lib_wall_now(), c0 = gg_lib_cpu_now();
        bad = gg_hl_run(h, b->o.gens, NULL, &done, err);
        r->seconds = gg_lib_wall_now() - w0;
        r->cpu_seconds = gg_lib_cpu_now() - c0;
    }
    if (!bad) {
        gg_hl_stats st;
        gg_hl_stats_get(h, &st);
        r->population = gg_hl_population(h);
        r->leaf_steps = st.base_steps;
        r->nodes = st.nodes;
        r->tree_bytes = st.bytes;
        snprintf(r->engine_detail, sizeof r->engine_detail,
                 "hashlife, leaves by %s; %lld leaf steps in %lld batches, "
                 "%lld nodes, %.1f MB, %lld collections",
                 r->backend, (long long)st.base_steps,
                 (long long)st.batches, (long long)st.nodes,
                 (double)st.bytes / 1e6, (long long)st.collections);
    }
    gg_hl_free(h);
    gg_backend_close(be);
    return bad;
}

/* golgen bench --engine tiles and --engine hashlife (cli/cmd_bench.h):
 * the same soup as the dense bench, through the engines above the
 * backends, with what each engine did in the closing line. */
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "cli_util.h"
#include "cmd_bench.h"
#include "gen_universe.h"
#include "hashlife.h"
#include "pattern.h"
#include "run_tiles.h"

static double cpu_now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static int open_backend(bench_opts *o, const gg_backend_opts *bo,
                        bench_result *r, gg_backend **b, int *status,
                        gg_err *err)
{
    double t0 = gg_cli_now();
    if (gg_cli_open_backend(o->backend, &o->rule, bo, b, status, err))
        return -1;
    r->open_seconds = gg_cli_now() - t0;
    r->backend = gg_backend_of(*b);
    gg_backend_describe(*b, &r->desc);
    *status = GG_EXIT_USAGE;
    return 0;
}

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

/* Two-state: the backend's stepper in tiles; a device's grid held for
 * the warm-up and the timed part, as gg_backend_bench keeps it there. */
static int tiles_run(bench_opts *o, gg_backend *b, gg_tiles *tiles,
                     gg_grid *g, bench_result *r, gg_err *err)
{
    gg_stepper s = gg_backend_stepper(b);
    if (gg_cli_tiles_wrap("tiles", b, false, tiles, &s, err))
        return -1;
    if (s.hold && s.hold(s.ctx, o->topo, g, err))
        return -1;
    int bad = step_all(&s, &o->rule, o->topo, g, 1, err);
    if (!bad) {
        double t0 = gg_cli_now(), c0 = cpu_now();
        bad = step_all(&s, &o->rule, o->topo, g, o->gens, err);
        r->time.seconds = gg_cli_now() - t0;
        r->time.cpu_seconds = cpu_now() - c0;
    }
    gg_err later; /* the first failure is the one reported */
    if (s.drop && s.drop(s.ctx, g, bad ? &later : err))
        bad = -1;
    return bad;
}

static int tiles_run_gen(bench_opts *o, gg_backend *b, gg_tiles *tiles,
                         gg_gen_cells *cells, bench_result *r, gg_err *err)
{
    gg_gen_stepper s = gg_backend_gen_stepper(b);
    if (gg_cli_tiles_wrap_gen("tiles", b, false, tiles, &s, err) ||
        step_all_gen(&s, &o->rule, o->topo, cells, 1, err))
        return -1;
    double t0 = gg_cli_now(), c0 = cpu_now();
    int bad = step_all_gen(&s, &o->rule, o->topo, cells, o->gens, err);
    r->time.seconds = gg_cli_now() - t0;
    r->time.cpu_seconds = cpu_now() - c0;
    return bad;
}

int gg_bench_tiles(bench_opts *o, gg_gen_cells *cells, bench_result *r,
                   int *status, gg_err *err)
{
    gg_backend *b;
    if (open_backend(o, &o->bo, r, &b, status, err))
        return -1;
    gg_tiles tiles;
    memset(&tiles, 0, sizeof tiles);
    int bad = cells->n_planes > 1
                  ? tiles_run_gen(o, b, &tiles, cells, r, err)
                  : tiles_run(o, b, &tiles, &cells->plane[0], r, err);
    r->population = gg_gen_cells_population(cells);
    gg_cli_tiles_done(&tiles, r->backend->name, r->engine, sizeof r->engine);
    gg_backend_close(b);
    return bad;
}

int gg_bench_tree(bench_opts *o, gg_gen_cells *cells, bench_result *r,
                  int *status, gg_err *err)
{
    /* as run opens it for the tree: leaves are small squares, stepped by
     * one host thread unless --threads says otherwise */
    gg_backend_opts bo = o->bo;
    bo.threads = bo.threads ? bo.threads : 1;
    bo.host_only = true;
    bo.width_hint = bo.height_hint = 0;
    gg_backend *b;
    if (open_backend(o, &bo, r, &b, status, err))
        return -1;
    gg_hl *h = NULL;
    int64_t mem = o->mem ? o->mem : gg_engine_default_mem();
    /* the soup's box centred on the origin, dead cells all around */
    gg_pattern p;
    memset(&p, 0, sizeof p);
    p.n_planes = cells->n_planes;
    for (int i = 0; i < cells->n_planes; i++)
        p.plane[i] = cells->plane[i];
    p.x = -(o->width / 2);
    p.y = -(o->height / 2);
    int64_t done = 0;
    int bad = gg_hl_new(&o->rule, b, gg_engine_tree_bytes(mem), &h, err) ||
              gg_hl_set_pattern(h, &p, err);
    if (!bad) {
        double t0 = gg_cli_now(), c0 = cpu_now();
        bad = gg_hl_run(h, o->gens, NULL, &done, err);
        r->time.seconds = gg_cli_now() - t0;
        r->time.cpu_seconds = cpu_now() - c0;
    }
    if (!bad) {
        gg_hl_stats st;
        gg_hl_stats_get(h, &st);
        r->population = gg_hl_population(h);
        r->leaf_steps = st.base_steps;
        r->nodes = st.nodes;
        r->tree_bytes = st.bytes;
        snprintf(r->engine, sizeof r->engine,
                 "hashlife, leaves by %s; %lld leaf steps in %lld batches, "
                 "%lld nodes, %.1f MB, %lld collections",
                 r->backend->name, (long long)st.base_steps,
                 (long long)st.batches, (long long)st.nodes,
                 (double)st.bytes / 1e6, (long long)st.collections);
    }
    gg_hl_free(h);
    gg_backend_close(b);
    return bad;
}

void gg_bench_engine_report(const bench_opts *o, const bench_result *r)
{
    char rule[128];
    gg_rule_format_transition(&o->rule, rule, sizeof rule);
    bool tree = o->engine == GG_ENGINE_HASHLIFE;
    const char *topo = tree                        ? "unbounded"
                       : o->topo == GG_TOPO_TORUS ? "torus"
                                                  : "plane";
    double secs = r->time.seconds > 0 ? r->time.seconds : 1e-9;
    /* the soup's box x generations / s: for the tree, what the dense
     * engine would have to reach on that box to keep up (the tree may
     * compute far less, or, as the pattern grows, more) */
    double cups = (double)o->width * (double)o->height * (double)o->gens /
                  secs;
    double gps = (double)o->gens / secs;
    if (o->json) {
        printf("{\"rule\": \"%s\", \"engine\": \"%s\", \"backend\": \"%s\", "
               "\"isa\": \"%s\", \"threads\": %d, \"topology\": \"%s\", "
               "\"width\": %lld, \"height\": %lld, \"generations\": %lld, "
               "\"seconds\": %.6f, \"cups\": %.6e, "
               "\"generations_per_second\": %.6e, \"cpu_seconds\": %.6f, "
               "\"population\": %lld, \"kernel_cached\": %s, "
               "\"open_seconds\": %.3f, \"engine_detail\": \"%s\"",
               rule, gg_engine_name(o->engine), r->backend->name,
               r->desc.what, r->desc.threads, topo, (long long)o->width,
               (long long)o->height, (long long)o->gens, r->time.seconds,
               cups, gps, r->time.cpu_seconds, (long long)r->population,
               r->desc.cache_hit ? "true" : "false", r->open_seconds,
               r->engine);
        if (tree)
            printf(", \"leaf_steps\": %lld, \"nodes\": %lld, "
                   "\"tree_bytes\": %lld", (long long)r->leaf_steps,
                   (long long)r->nodes, (long long)r->tree_bytes);
        printf("}\n");
        return;
    }
    if (tree)
        printf("%s unbounded plane, a %lldx%lld soup, %lld generations: "
               "%.3f s, %.3e generations/s, %.3e CUpS over the soup's box "
               "(%s; %.3f CPU s; population %lld)\n",
               rule, (long long)o->width, (long long)o->height,
               (long long)o->gens, r->time.seconds, gps, cups, r->engine,
               r->time.cpu_seconds, (long long)r->population);
    else
        printf("%s %s %lldx%lld, %lld generations: %.3f s, %.3e CUpS (%s, "
               "%s, %d thread%s; %.3f CPU s)\n",
               rule, topo, (long long)o->width, (long long)o->height,
               (long long)o->gens, r->time.seconds, cups, r->engine,
               r->desc.what, r->desc.threads,
               r->desc.threads == 1 ? "" : "s", r->time.cpu_seconds);
}

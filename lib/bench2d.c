/* golgen_bench_2d (include/golgen.h, golgen_0.5): what `golgen bench`
 * does for a 2D rule. The options are checked in the command's order and
 * with its sentences (they name its options: this is the command's bench
 * as a call); a soup is stepped by the backend the registry opens, on
 * the whole grid, streamed within device memory, or in bands resident on
 * several devices, and timed. Tiles and the hash tree: bench2d_engine.c. */
#include "bench2d.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "backend_auto.h"
#include "fail.h"
#include "grid.h"
#include "multi_band.h"
#include "rule_gen.h"
#include "validate_gen.h"

_Static_assert(GOLGEN_MAX_SIDE == GG_MAX_GRID_SIDE,
               "the public bound is gen/rules/rule.h's");

double gg_lib_wall_now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

double gg_lib_cpu_now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

void gg_lib_bench2d_note(const gg_lib_bench2d *b, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    gg_lib_note_v(b->o.on_note, b->o.ctx, fmt, ap);
    va_end(ap);
}

static int fail_code(gg_fail_kind why)
{
    return why == GG_FAIL_ENV       ? GOLGEN_ERR_ENV
           : why == GG_FAIL_INVALID ? GOLGEN_ERR_CHECK
                                    : GOLGEN_ERR_INPUT;
}

void gg_lib_bench2d_describe(gg_lib_bench2d *b, gg_backend *be)
{
    gg_backend_desc d;
    gg_backend_describe(be, &d);
    golgen_bench2d_result *r = b->res;
    snprintf(r->backend, sizeof r->backend, "%s", gg_backend_of(be)->name);
    snprintf(r->what, sizeof r->what, "%s", d.what);
    snprintf(r->open_detail, sizeof r->open_detail, "%s", d.open);
    r->threads = d.threads;
    r->kernel_cached = d.cache_hit;
}

int gg_lib_bench2d_open(gg_lib_bench2d *b, const gg_backend_opts *bo,
                        gg_backend **out, int *code, gg_err *err)
{
    gg_fail_kind why = GG_FAIL_INPUT;
    gg_auto_line line;
    double t0 = gg_lib_wall_now();
    if (b->info ? gg_backend_open(b->info, &b->rule, bo, out, &why, err)
                : gg_backend_open_auto(&b->rule, bo, out, &line, &why,
                                       err)) {
        *code = fail_code(why);
        return -1;
    }
    b->res->open_seconds += gg_lib_wall_now() - t0;
    gg_lib_bench2d_describe(b, *out);
    if (!b->told_open) {
        b->told_open = true;
        if (!b->info)
            snprintf(b->res->auto_line, sizeof b->res->auto_line, "%s",
                     line.text);
        if (b->o.on_open)
            b->o.on_open(b->o.ctx, b->res);
    }
    return 0;
}

/* --devices as golgen run reads it (golgen_devices_parse): one reader, so
 * the two commands take the same lists with the same sentences. */
static int parse_devices(gg_lib_bench2d *b, const char *text, gg_err *err)
{
    int n = golgen_devices_parse(text, b->ordinal, GG_LIB_MAX_DEVICES,
                                 err->msg, sizeof err->msg);
    if (n < 0)
        return -1;
    b->n_devices = n;
    return 0;
}

/* What the engines above the backends take here, and auto's choice,
 * noted. */
static int engine_check(gg_lib_bench2d *b, gg_err *err)
{
    const golgen_bench2d_opts *o = &b->o;
    bool tree = b->engine == GG_ENGINE_HASHLIFE;
    if (b->engine != GG_ENGINE_DENSE && b->engine != GG_ENGINE_AUTO &&
        (o->device_mem || b->n_devices))
        return gg_fail(err, "--engine %s steps one backend's grid; "
                       "--device-mem and --devices go with --engine dense",
                       gg_engine_name(b->engine));
    if (o->mem && !tree)
        return gg_fail(err, "--mem bounds the hash tree; it needs --engine "
                       "hashlife");
    if (tree && o->plane)
        return gg_fail(err, "--engine hashlife runs the soup on the "
                       "unbounded plane; --plane (dead cells outside a "
                       "bounded box) goes with dense or tiles");
    if (b->engine == GG_ENGINE_AUTO) {
        gg_lib_bench2d_note(b, "golgen bench: engine auto -> dense (a soup "
                            "that fills its bounded grid; --engine tiles or "
                            "hashlife time those)");
        b->engine = GG_ENGINE_DENSE;
    }
    return 0;
}

/* An option the chosen backend does not read is an error naming one that
 * does; under auto the option picks the backend that reads it, noted. */
static int option_applies(gg_lib_bench2d *b, const char *option, bool given,
                          unsigned bit, gg_err *err)
{
    const gg_backend_info *reader = gg_backend_accepting(bit);
    if (given && !b->info && reader) {
        b->info = reader;
        gg_lib_bench2d_note(b, "golgen: backend auto -> %s (%s is read by "
                            "%s only)", reader->name, option, reader->name);
    }
    if (!given || (b->info->options & bit) || !reader)
        return 0;
    return gg_fail(err, "%s applies to the %s backend only; add --backend %s "
                   "or leave %s out", option, reader->name, reader->name,
                   option);
}

/* The options as golgen bench checks them after reading its command
 * line, in its order; -1 with err (GOLGEN_ERR_INPUT). */
static int check_opts(gg_lib_bench2d *b, const char *text, gg_err *err)
{
    golgen_bench2d_opts *o = &b->o;
    if (!text)
        return gg_fail(err, "golgen_bench_2d: no rule given");
    if (o->width < 0 || o->height < 0 || o->width > GOLGEN_MAX_SIDE ||
        o->height > GOLGEN_MAX_SIDE || !o->width != !o->height ||
        o->gens < 1 || o->seed < 0 || o->threads < 0 || o->mem < 0 ||
        o->device_mem < 0)
        return gg_fail(err, "golgen_bench_2d: width and height "
                       "1..%lld (both or neither), gens 1.., seed, threads, "
                       "mem and device_mem 0..",
                       (long long)GOLGEN_MAX_SIDE);
    if (o->devices && parse_devices(b, o->devices, err))
        return -1;
    if (b->n_devices && o->device_mem)
        return gg_fail(err, "--devices and --device-mem do not combine yet: "
                       "bands on several devices, or one device streaming");
    if (o->host_halos && !b->n_devices)
        return gg_fail(err, "--halos applies to bands (--devices LIST)");
    if (gg_engine_parse(o->engine, &b->engine, err) || engine_check(b, err))
        return -1;
    if (gg_rule_parse(text, &b->rule, err))
        return -1;
    const char *no_tree = gg_engine_tree_refuses(&b->rule);
    if (b->engine == GG_ENGINE_HASHLIFE && no_tree)
        return gg_fail(err, "--engine hashlife does not take %s; use "
                       "--engine dense or tiles", no_tree);
    bool bounded = gg_rule_is_bounded(&b->rule);
    b->topo = o->plane ? GG_TOPO_PLANE
                       : bounded ? b->rule.topo : GG_TOPO_TORUS;
    if (!o->width && bounded) {
        o->width = b->rule.width;
        o->height = b->rule.height;
    } else if (!o->width) {
        o->width = o->height = 4096;
    }
    b->info = NULL;
    if (!gg_backend_is_auto(o->backend)) {
        b->info = gg_backend_find(o->backend, err);
        if (!b->info) { /* "auto" is a choice too */
            strncat(err->msg, ", or auto (the default)",
                    sizeof err->msg - strlen(err->msg) - 1);
            return -1;
        }
    }
    /* options only some backends read: elsewhere they would be ignored
     * without a word */
    return option_applies(b, "--isa", o->isa != NULL, GG_BACKEND_OPT_ISA,
                          err) ||
                   option_applies(b, "--threads", o->threads != 0,
                                  GG_BACKEND_OPT_THREADS, err)
               ? -1
               : 0;
}

/* device_mem: the whole streamed run on the host's clock, after a
 * warm-up of one generation (the in-memory bench has one too). */
static int bench_streamed(gg_lib_bench2d *b, gg_backend *be, gg_grid *grid,
                          gg_err *err)
{
    golgen_bench2d_result *r = b->res;
    if (gg_backend_takes(b->info, gg_rule_family(&b->rule),
                         GG_FEATURE_DEVICE_MEM, err))
        return -1;
    gg_memory_stepper m;
    gg_stepper s = gg_backend_memory_stepper(be, b->o.device_mem, &m);
    /* the warm-up plans, loads the band module and allocates the slots
     * and pinned staging, which later calls keep */
    if (s.step(s.ctx, &b->rule, b->topo, grid, 1, err))
        return -1;
    double t0 = gg_lib_wall_now();
    int bad = s.step(s.ctx, &b->rule, b->topo, grid, b->o.gens, err);
    r->seconds = gg_lib_wall_now() - t0;
    if (m.bands.bands_run)
        gg_lib_bench2d_note(b, "golgen: streamed through %s in %lld bands "
                            "(--device-mem %lld bytes)", s.name,
                            (long long)m.bands.bands_run,
                            (long long)m.max_bytes);
    if (m.stats.bands)
        gg_lib_bench2d_note(
            b, "golgen: streamed through %s in %lld bands, %lld passes of "
            "%lld generations, %lld rows a band, transfers overlapped "
            "(host: %.2f s setting up, %.2f s copying rows to staging and "
            "back, %.2f s waiting for the device; --device-mem %lld bytes)",
            s.name, (long long)m.stats.bands, (long long)m.stats.passes,
            (long long)m.stats.t, (long long)m.stats.rows,
            m.stats.setup_seconds, m.stats.copy_seconds,
            m.stats.wait_seconds, (long long)m.max_bytes);
    return bad;
}

/* One backend per listed device; auto's choice, once made, for the
 * rest. */
static int open_bands(gg_lib_bench2d *b, gg_backend **be, int *n, int *code,
                      gg_err *err)
{
    gg_backend_opts bo = b->bo;
    for (*n = 0; *n < b->n_devices; ++*n) {
        bo.device = b->ordinal[*n];
        if (gg_lib_bench2d_open(b, &bo, &be[*n], code, err))
            return -1;
        b->info = gg_backend_of(be[0]);
        if (bo.device && !gg_backend_steps_in_threads(be[*n])) {
            ++*n;
            *code = GOLGEN_ERR_INPUT;
            return gg_fail(err, "--devices: the %s backend runs on the host, "
                           "device 0 only (--devices 0,0 runs two bands "
                           "there)", b->info->name);
        }
        bo.announce = false; /* the first open said what it does */
    }
    return 0;
}

/* devices: the bands kept resident on their devices and timed as one
 * backend's grid is (uploaded, one warm-up generation, the timed
 * generations with their halo exchanges, downloaded), on the host's
 * clock; moving the bands in and out is reported apart. */
static int bench_bands(gg_lib_bench2d *b, gg_grid *grid, int *code,
                       gg_err *err)
{
    golgen_bench2d_result *r = b->res;
    if (gg_backend_takes(b->info, gg_rule_family(&b->rule),
                         GG_FEATURE_BENCH_BANDS, err))
        return -1;
    gg_backend *be[GG_LIB_MAX_DEVICES];
    int n;
    if (open_bands(b, be, &n, code, err)) {
        for (int k = 0; k < n; k++)
            gg_backend_close(be[k]);
        return -1;
    }
    gg_lib_bench2d_describe(b, be[0]);
    gg_multi_band m = {.b = be, .n = n, .host_halos = b->o.host_halos};
    int bad = gg_multi_band_upload(&m, b->topo, grid, err) ||
              gg_multi_band_step(&m, 1, err);
    if (!bad) {
        m.step_seconds = m.exchange_seconds = 0;
        m.exchanges = 0;
        double t0 = gg_lib_wall_now();
        bad = gg_multi_band_step(&m, b->o.gens, err);
        r->seconds = gg_lib_wall_now() - t0;
    }
    gg_err later; /* the first failure is the one reported */
    bad = (m.set && gg_multi_band_download(&m, grid, bad ? &later : err)) ||
          bad;
    gg_multi_band_release(&m);
    r->population = gg_grid_population(grid);
    r->bands = m.n;
    r->peer = m.peer;
    r->exchanges = m.exchanges;
    r->step_seconds = m.step_seconds;
    r->halo_seconds = m.exchange_seconds;
    r->transfer_seconds = m.transfer_seconds;
    if (n > 1)
        gg_lib_bench2d_note(b, "golgen: %d bands, %lld halo exchanges (%s): "
                            "%.3f s stepping, %.3f s exchanging halos, %.3f "
                            "s moving bands in and out", n,
                            (long long)m.exchanges,
                            m.peer ? "band to band" : "through the host",
                            m.step_seconds, m.exchange_seconds,
                            m.transfer_seconds);
    for (int k = 0; k < n; k++)
        gg_backend_close(be[k]);
    *code = GOLGEN_ERR_ENV;
    return bad;
}

/* The backend opened and o.gens generations timed after its warm-up: a
 * device backend times on the device with the grid resident there. */
static int run_bench(gg_lib_bench2d *b, gg_gen_cells *cells, int *code,
                     gg_err *err)
{
    if (b->n_devices)
        return bench_bands(b, &cells->plane[0], code, err);
    if (b->engine == GG_ENGINE_TILES)
        return gg_lib_bench_tiles(b, cells, code, err);
    if (b->engine == GG_ENGINE_HASHLIFE)
        return gg_lib_bench_tree(b, cells, code, err);
    golgen_bench2d_result *r = b->res;
    gg_backend *be;
    if (gg_lib_bench2d_open(b, &b->bo, &be, code, err))
        return -1;
    if (b->bo.threads > r->threads) /* said, not silently clamped */
        gg_lib_bench2d_note(b, "golgen bench: --threads %d is more than the "
                            "%d this machine runs at once; using %d",
                            b->bo.threads, r->threads, r->threads);
    *code = GOLGEN_ERR_INPUT;
    gg_backend_timing time = {0};
    /* a Generations rule's state planes, or the one plane of the rest */
    int bad = b->o.device_mem
                  ? bench_streamed(b, be, &cells->plane[0], err)
                  : cells->n_planes > 1
                  ? gg_backend_bench_cells(be, b->topo, cells, b->o.gens,
                                           &time, err)
                  : gg_backend_bench(be, b->topo, &cells->plane[0],
                                     b->o.gens, &time, err);
    if (!b->o.device_mem) {
        r->seconds = time.seconds;
        r->cpu_seconds = time.cpu_seconds;
    }
    r->population = gg_gen_cells_population(cells);
    gg_backend_desc after; /* the kernel checked at the grid's width too */
    gg_backend_describe(be, &after);
    snprintf(r->open_detail, sizeof r->open_detail, "%s", after.open);
    gg_backend_close(be);
    return bad;
}

int golgen_bench_2d(const char *rule, const golgen_bench2d_opts *opts,
                    golgen_bench2d_result *res, char *errbuf, size_t errlen)
{
    gg_err err = {{0}};
    if (errbuf && errlen)
        errbuf[0] = 0;
    if (!res)
        return gg_lib_fail(GOLGEN_ERR_INPUT, &(gg_err){"golgen_bench_2d: no "
                           "place for the result (res is NULL)"}, errbuf,
                           errlen);
    memset(res, 0, sizeof *res);
    gg_lib_bench2d *b = calloc(1, sizeof *b);
    if (!b)
        return gg_lib_fail(GOLGEN_ERR_ENV, &(gg_err){"out of memory"}, errbuf,
                           errlen);
    b->res = res;
    b->o = opts ? *opts : (golgen_bench2d_opts){0};
    if (!b->o.gens)
        b->o.gens = 100;
    b->hook = (gg_lib_search_hook){b->o.on_search, b->o.search_ctx};
    int code = GOLGEN_ERR_INPUT;
    gg_gen_cells cells;
    bool have_cells = false;
    if (gg_lib_choose_opts(NULL, &b->hook, &b->cfg, &b->cfg.choose, &err) ||
        check_opts(b, rule, &err))
        goto out;
    b->bo = (gg_backend_opts){.config = &b->cfg, .threads = b->o.threads,
                              .isa = b->o.isa,
                              .announce = b->o.announce != 0,
                              .width_hint = b->o.width,
                              .height_hint = b->o.height};
    int planes = gg_gen_planes_of(&b->rule);
    if (gg_gen_cells_init(&cells, planes, b->o.width, b->o.height, &err))
        goto out;
    have_cells = true;
    if (planes > 1) /* half 0, a quarter alive, a quarter dying */
        gg_gen_cells_random(&cells, b->rule.states, (uint64_t)b->o.seed);
    else
        gg_grid_random(&cells.plane[0], 0.5, (uint64_t)b->o.seed);
    if (run_bench(b, &cells, &code, &err))
        goto out;
    code = GOLGEN_OK;
    gg_rule_format_transition(&b->rule, res->rule, sizeof res->rule);
    snprintf(res->engine, sizeof res->engine, "%s",
             gg_engine_name(b->engine));
    res->torus = b->engine != GG_ENGINE_HASHLIFE &&
                 b->topo == GG_TOPO_TORUS;
    res->width = b->o.width;
    res->height = b->o.height;
    res->gens = b->o.gens;
out:
    if (have_cells)
        gg_gen_cells_free(&cells);
    free(b);
    return code ? gg_lib_fail(code, &err, errbuf, errlen) : GOLGEN_OK;
}

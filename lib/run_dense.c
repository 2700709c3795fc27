/* golgen_run_2d by the dense engine (lib/run_lib.h): the pattern or store
 * loaded under its rule's family (Generations, rule tables and Larger
 * than Life run beside: lib/run_gen.c, lib/run_family.c), then a
 * two-state universe stepped whole, in tiles, streamed within device
 * memory, in bands on devices, on the devices alone, or over MPI ranks
 * (runtime/universes/rank_run.h), and written. Moved from the command's
 * cli/cmd_run.c: the same order of checks, lines and files. */
#include "run_lib.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "atomic_file.h"
#include "backend_auto.h"
#include "picture.h"
#include "rank_run.h"
#include "rule_ltl.h"
#include "store.h"

/* ---- MPI ranks (one process: what one process does) ---- */

/* Rank 0 loaded the universe (bad: it failed); on 0 every rank's u holds
 * its band of it. */
static int ranks_scatter(const gg_run *r, int bad, gg_universe *u,
                         gg_err *err)
{
    const golgen_run_ranks *k = r->ranks;
    if (!k)
        return bad;
    if (k->agree(k->ctx, bad, err)) {
        if (!bad && r->rank == 0)
            gg_universe_free(u);
        return -1;
    }
    if (r->rank > 0)
        memset(u, 0, sizeof *u);
    return k->scatter(k->ctx, u, err);
}

/* The backend on every rank, only rank 0 announcing auto's choice; fails
 * on all (each closing its backend) when it fails on any, *status the
 * worst. */
static int ranks_open_backend(gg_run *r, const gg_rule *rule,
                              const gg_backend_opts *bo, gg_backend **out,
                              int *status, gg_err *err)
{
    const golgen_run_ranks *k = r->ranks;
    if (!k)
        return gg_run_open_backend(r, r->backend, rule, bo, out, status,
                                   err);
    int bad;
    if (r->rank == 0 || r->backend) {
        bad = gg_run_open_backend(r, r->backend, rule, bo, out, status, err);
    } else { /* auto's choice, said once by rank 0 */
        gg_auto_line line;
        gg_fail_kind why;
        bad = gg_backend_open_auto(rule, bo, out, &line, &why, err);
        *status = bad ? gg_run_status(why) : GG_RUN_OK;
    }
    int worst = k->worst(k->ctx, *status);
    if (k->agree(k->ctx, bad, err)) {
        if (!bad)
            gg_backend_close(*out);
        *out = NULL;
        *status = worst;
        return -1;
    }
    return 0;
}

/* The store of the whole universe: the bands gathered to rank 0, which
 * writes. */
static int ranks_store_write(const gg_run *r, const char *path,
                             const gg_universe *u, gg_err *err)
{
    const golgen_run_ranks *k = r->ranks;
    if (!k)
        return gg_store_write(path, u, err);
    gg_universe whole;
    if (k->gather(k->ctx, u, &whole, err))
        return -1;
    int bad = r->rank == 0 && gg_store_write(path, &whole, err);
    gg_universe_free(&whole);
    return k->agree(k->ctx, bad, err);
}

/* The bands gathered: on rank 0 u becomes the whole universe; the others
 * keep their band. */
static int ranks_gather(const gg_run *r, gg_universe *u, gg_err *err)
{
    const golgen_run_ranks *k = r->ranks;
    if (!k)
        return 0;
    gg_universe whole;
    if (k->gather(k->ctx, u, &whole, err))
        return -1;
    if (r->rank == 0) {
        gg_universe_free(u);
        *u = whole;
    }
    return 0;
}

/* ---- loading ---- */

/* The universe a store holds; rule may only repeat its rule. */
static int load_store(const gg_run *r, gg_universe *u, gg_err *err)
{
    const golgen_run2d_opts *o = r->o;
    if (gg_store_read(o->resume, u, err))
        return -1;
    if (gg_run_store_rule_check(o->rule, &u->rule, o->resume, err) ||
        gg_generations_check(u->generation, o->gens, err)) {
        gg_universe_free(u);
        return -1;
    }
    return 0;
}

/* What the Generations family does not take, refused before the universe
 * is read by the registry's one place (gg_backend_takes). */
static int gen_refusals(const gg_run *r, gg_err *err)
{
    gg_family f = GG_FAMILY_GENERATIONS;
    if ((r->o->device_mem &&
         gg_backend_takes(r->backend, f, GG_FEATURE_DEVICE_MEM, err)) ||
        (r->n_devices &&
         gg_backend_takes(r->backend, f, GG_FEATURE_DEVICES, err)))
        return -1;
    if (r->n_ranks > 1 &&
        gg_backend_takes(r->backend, f, GG_FEATURE_RANKS, err))
        return gg_run_ranks_refuse(r, "Generations rules", err);
    return 0;
}

/* A Generations universe from the store or the pattern, run by
 * lib/run_gen.c: its status. */
static int run_generations(gg_run *r, const gg_rule *rule,
                           const gg_pattern *p, gg_err *err)
{
    const golgen_run2d_opts *o = r->o;
    gg_gen_universe u;
    int bad = gen_refusals(r, err);
    if (!bad && o->resume) {
        bad = gg_store_read_gen(o->resume, &u, err);
        if (!bad && gg_run_store_rule_check(o->rule, &u.rule, o->resume,
                                            err)) {
            gg_gen_universe_free(&u);
            bad = -1;
        }
    } else if (!bad) {
        bad = gg_gen_universe_from_pattern(&u, rule, p, err);
    }
    if (bad)
        return GG_RUN_USAGE;
    return gg_run_gen(r, &u, err);
}

/* Whether the store to resume holds a Generations universe (its rule read
 * from the header alone); false also when it cannot be read, which
 * gg_store_read then says. */
static bool store_is_generations(const char *path)
{
    gg_store_info s;
    gg_rule rule;
    gg_err ignored;
    return !gg_store_info_read(path, &s, &ignored) &&
           !gg_rule_parse(s.rule, &rule, &ignored) &&
           gg_rule_is_generations(&rule);
}

/* The family of the store to resume (its header alone); UNKNOWN also
 * when it cannot be read, which the reader then says. */
static gg_store_family store_family(const char *path)
{
    gg_store_info s;
    gg_err ignored;
    return gg_store_info_read(path, &s, &ignored) ? GG_STORE_UNKNOWN
                                                  : gg_store_family_of(&s);
}

/* A rule B/S notation does not know may name a Golly rule file: 1 with
 * the run's status in *status when one was found and run, 0 when none
 * was (err then holds the parse error and where the file was looked
 * for). */
static int try_rule_file(gg_run *r, const char *text, const gg_pattern *p,
                         const char *near, int *status, gg_err *err)
{
    gg_rule_found f;
    gg_err ferr;
    int got = gg_rule_find(text, near, r->o->rules_dir, r->cfg.cache_dir,
                           &f, &ferr);
    if (got < 0) {
        *err = ferr;
        *status = GG_RUN_USAGE;
        return 1;
    }
    if (got == 0) {
        size_t n = strlen(err->msg);
        snprintf(err->msg + n, sizeof err->msg - n,
                 " (nor a rule file: %.300s)", ferr.msg);
        return 0;
    }
    *status = gg_run_family_refusals(r, GG_FAMILY_TABLE, err)
                  ? GG_RUN_USAGE
                  : gg_run_table(r, &f, p, err);
    gg_rule_found_free(&f);
    return 1;
}

/* The pattern as cells: the one the tree read (or the caller's), else
 * `in` read now, else the default. */
static gg_pattern *pattern_cells(gg_run *r, gg_err *err)
{
    const golgen_run2d_opts *o = r->o;
    if (!r->pat) {
        r->own_pat = true;
        if (o->in ? gg_lib_pattern_read(o->in, GOLGEN_PATTERN_CELLS, o->stop,
                                        &r->pat, err)
                  : gg_lib_pattern_parse(gg_run_default_pattern,
                                         strlen(gg_run_default_pattern),
                                         "built-in R-pentomino",
                                         GOLGEN_PATTERN_CELLS, &r->pat, err))
            return NULL;
    }
    return gg_lib_pattern_cells(r->pat, o->stop, err);
}

/* The pattern's cells are placed: they go unless the caller's. */
static void pattern_done(gg_run *r)
{
    if (r->own_pat) {
        golgen_pattern_free(r->pat);
        r->pat = NULL;
    }
}

/* 1 (with the status in *fam_status) when a Generations rule, a Larger
 * than Life rule or a Golly rule file was run instead; 0 with u (or, when
 * *resident, res) loaded; -1 with err. */
static int load(gg_run *r, gg_universe *u, gg_resident *res, bool *resident,
                int *fam_status, gg_err *err)
{
    const golgen_run2d_opts *o = r->o;
    if (o->resume && store_is_generations(o->resume)) {
        *fam_status = run_generations(r, NULL, NULL, err);
        return 1;
    }
    gg_store_family fam = o->resume ? store_family(o->resume)
                                    : GG_STORE_UNKNOWN;
    if (fam == GG_STORE_LTL || fam == GG_STORE_TABLE) {
        bool ltl = fam == GG_STORE_LTL;
        *fam_status = gg_run_family_refusals(r, ltl ? GG_FAMILY_LTL
                                                    : GG_FAMILY_TABLE,
                                             err)
                          ? GG_RUN_USAGE
                      : ltl ? gg_run_ltl(r, NULL, NULL, err)
                            : gg_run_table(r, NULL, NULL, err);
        return 1;
    }
    if (o->resume)
        return load_store(r, u, err);
    gg_pattern *p = pattern_cells(r, err);
    if (!p)
        return -1;
    gg_rule rule;
    const char *text = o->rule ? o->rule : p->rule ? p->rule : "B3/S23";
    int bad = gg_rule_parse(text, &rule, err);
    if (bad && gg_ltl_looks_like(text)) { /* lib/run_family.c */
        *fam_status = gg_run_family_refusals(r, GG_FAMILY_LTL, err)
                          ? GG_RUN_USAGE
                          : gg_run_ltl(r, text, p, err);
        pattern_done(r);
        return 1;
    }
    if (bad && try_rule_file(r, text, p, r->pat->path, fam_status, err)) {
        pattern_done(r);
        return 1;
    }
    if (!bad && gg_rule_is_generations(&rule)) {
        *fam_status = run_generations(r, &rule, p, err);
        pattern_done(r);
        return 1;
    }
    *resident = !bad && res && gg_resident_suits(&rule, p);
    if (*resident)
        bad = gg_resident_from_pattern(res, &rule, p, err) ||
              gg_generations_check(res->generation, o->gens, err);
    else
        bad = bad || gg_universe_from_pattern(u, &rule, p, err) ||
              gg_generations_check(u->generation, o->gens, err);
    pattern_done(r);
    return bad ? -1 : 0;
}

/* ---- the run ---- */

/* Write the result; if out cannot be written after all, keep the work in
 * a rescue file in $TMPDIR rather than lose a long run. */
static int save(const gg_run *r, const gg_universe *u, gg_err *err)
{
    const char *out = r->o->out;
    gg_pattern p;
    if (gg_universe_to_pattern(u, &p, err))
        return -1;
    int bad = gg_run_save_pattern(out, &p, err);
    if (bad && strcmp(out, "-")) {
        char rescue[256];
        gg_err ignored;
        snprintf(rescue, sizeof rescue, "%s/golgen-rescue-%ld.rle",
                 r->cfg.tmpdir, (long)getpid());
        if (!gg_pattern_write_rle(rescue, &p, &ignored)) {
            size_t n = strlen(err->msg);
            snprintf(err->msg + n, sizeof err->msg - n,
                     "; the result was saved to %.200s instead", rescue);
        }
    }
    gg_pattern_free(&p);
    return bad;
}

int gg_run_parts_advance(gg_run_parts *p, void *ctx, int64_t gens,
                         bool *stopped, gg_err *err)
{
    const gg_run *r = p->prog.r;
    int64_t every = r->o->checkpoint_every;
    for (int64_t done = 0; done < gens && !p->stopped(r);) {
        int64_t n = gens - done;
        if (every > 0 && n > every - p->since)
            n = every - p->since;
        int64_t ran = p->step(ctx, n, err);
        if (ran < 0)
            return -1;
        done += ran;
        p->prog.base += ran;
        p->since += ran;
        if (every > 0 && p->since >= every) {
            if (p->store(ctx, err))
                return -1;
            p->since = 0;
        }
        if (ran < n) /* a stop inside the part (universes give up only
                        there) */
            break;
    }
    *stopped = gg_run_stop_asked(r);
    return 0;
}

/* The universe as the frames and the png see it. */
typedef struct run2d {
    const gg_run *r;
    gg_universe *u;
    const gg_stepper *stepper;
    gg_run_parts parts;
} run2d;

static int64_t part2d(void *ctx, int64_t n, gg_err *err)
{
    run2d *x = ctx;
    int64_t before = x->u->generation;
    return gg_universe_run(x->u, x->stepper, n, gg_run_progress,
                           &x->parts.prog, err)
               ? -1
               : x->u->generation - before;
}

static int store2d(void *ctx, gg_err *err)
{
    run2d *x = ctx;
    return ranks_store_write(x->r, x->r->o->store, x->u, err);
}

static int advance2d(void *ctx, int64_t gens, bool *stopped, gg_err *err)
{
    run2d *x = ctx;
    return gg_run_parts_advance(&x->parts, x, gens, stopped, err);
}

static int draw2d(void *ctx, const char *path, const gg_picture_opts *o,
                  gg_picture_info *info, gg_err *err)
{
    run2d *x = ctx;
    return gg_picture_write_universe(path, x->u, o, info, err);
}

/* After the run: out and the store written, the picture drawn, the
 * summary line; u freed. */
static int finish_run(gg_run *r, gg_universe *u, int64_t first,
                      double seconds, const char *engine, gg_err *err)
{
    const golgen_run2d_opts *o = r->o;
    golgen_run2d_result *res = r->res;
    run2d x = {.r = r, .u = u}; /* what the png draws */
    res->ran = 1;
    res->reached = u->generation - first;
    res->generation = u->generation;
    res->seconds = seconds;
    int status = GG_RUN_OK;
    if ((o->out && save(r, u, err)) ||
        (o->store && gg_store_write(o->store, u, err)))
        status = GG_RUN_USAGE;
    else
        status = gg_run_write_png(r, draw2d, &x, err);
    if (status) {
        gg_universe_free(u);
        res->stop_exit = gg_run_stop_asked(r);
        return status;
    }
    res->written = o->out != NULL;
    res->population = gg_universe_population(u);
    gg_rule_format(&u->rule, res->rule, sizeof res->rule);
    gg_run_summary(r, "%s: generation %lld, "
             "population %lld, %.3f s (%s)", res->rule,
             (long long)u->generation, (long long)res->population, seconds,
             engine);
    gg_universe_free(u);
    return GG_RUN_OK;
}

/* The grid on the devices alone (runtime/universes/resident.h) when
 * nothing asks for it whole on the host: no store, checkpoint, picture,
 * device_mem or ranks, and bands (devices) or the dense engine on one
 * device (auto's active tiles keep their own way there). */
static bool resident_wanted(const gg_run *r)
{
    const golgen_run2d_opts *o = r->o;
    return !o->store && !o->resume && !o->checkpoint_every && !o->png &&
           !o->frames && !o->device_mem && !o->host_mem && r->n_ranks == 1 &&
           (r->n_devices ? strcmp(r->engine, "tiles") != 0
                         : !strcmp(r->engine, "dense"));
}

/* A run of the seeded res on the devices alone: 0 when it ran (*status
 * its outcome), 1 when the backends cannot (u the whole grid now: the
 * host path runs it), -1 with *status. */
static int run_resident(gg_run *r, gg_run_devices *d, gg_resident *res,
                        gg_universe *u, int *status, gg_err *err)
{
    gg_backend_opts bo = {.config = &r->cfg, .announce = r->o->announce != 0,
                          .width_hint = res->rule.width,
                          .height_hint = res->rule.height};
    gg_run_prog prog = {.r = r};
    double start = gg_run_now();
    int64_t first = res->generation;
    *status = GG_RUN_ENV;
    int got = gg_run_devices_resident(r, d, r->backend, bo, res, r->o->gens,
                                      gg_run_progress, &prog, u, status, err);
    if (got == 1) {
        if (!gg_resident_to_universe(res, u, err))
            return 1;
        *status = GG_RUN_USAGE;
        return -1;
    }
    gg_resident_free(res);
    if (got < 0) {
        r->res->stop_exit = gg_run_stop_asked(r);
        return -1;
    }
    /* as the host path counts: from the backends open */
    double seconds = gg_run_now() - start - d->open_seconds;
    gg_run_devices_report(r, d);
    char engine[160];
    snprintf(engine, sizeof engine, "%s, on the device%s alone",
             gg_backend_of(d->b[0])->name, d->n > 1 ? "s" : "");
    snprintf(r->res->engine, sizeof r->res->engine, "resident");
    gg_run_devices_close(d);
    *status = finish_run(r, u, first, seconds, engine, err);
    return 0;
}

/* devices: a backend per band; *b is the first (what reports name). */
static int open_devices(gg_run *r, gg_run_devices *d, const gg_rule *rule,
                        gg_backend_opts bo, gg_backend **b, int *status,
                        gg_err *err)
{
    if (r->n_ranks > 1) {
        *status = GG_RUN_USAGE;
        return gg_run_ranks_refuse(r, "runs with --devices", err);
    }
    if (gg_run_devices_open(r, d, r->backend, rule, bo, status, err)) {
        gg_run_devices_close(d);
        return -1;
    }
    *b = d->b[0];
    return 0;
}

static void close_backends(gg_run_devices *d, gg_backend *b)
{
    if (d->n)
        gg_run_devices_close(d);
    else
        gg_backend_close(b);
}

/* One note on how a device_mem run streamed (nothing when the grid
 * fitted). */
void gg_run_report_streaming(const gg_run *r, const gg_memory_stepper *m,
                             const char *name)
{
    if (m->bands.bands_run)
        gg_run_note(r, "golgen: streamed through %s in %lld bands "
                    "(--device-mem %lld bytes)", name,
                    (long long)m->bands.bands_run, (long long)m->max_bytes);
    if (m->stats.bands)
        gg_run_note(r, "golgen: streamed through %s in %lld bands, %lld "
                    "passes of %lld generations, %lld rows a band, "
                    "transfers overlapped (host: %.2f s setting up, %.2f s "
                    "copying rows to staging and back, %.2f s waiting for "
                    "the device; --device-mem %lld bytes)",
                    name, (long long)m->stats.bands,
                    (long long)m->stats.passes, (long long)m->stats.t,
                    (long long)m->stats.rows, m->stats.setup_seconds,
                    m->stats.copy_seconds, m->stats.wait_seconds,
                    (long long)m->max_bytes);
}

/* The loaded universe u stepped on the host grid: its status. */
static int run_host(gg_run *r, gg_run_devices *d, gg_universe *u,
                    gg_err *err)
{
    const golgen_run2d_opts *o = r->o;
    int status;
    gg_backend *b;
    gg_backend_opts bo = {.config = &r->cfg,
                          .announce = o->announce && r->rank == 0,
                          .width_hint = gg_rule_is_bounded(&u->rule)
                                            ? u->grid.width
                                            : 0,
                          .height_hint = u->grid.height};
    if (d->n ? open_devices(r, d, &u->rule, bo, &b, &status, err)
             : ranks_open_backend(r, &u->rule, &bo, &b, &status, err)) {
        gg_universe_free(u);
        return status;
    }
    gg_memory_stepper mem;
    gg_stepper stepper = gg_backend_memory_stepper(b, o->device_mem, &mem);
    if (!o->device_mem)
        stepper = d->n ? gg_run_devices_stepper(d) : mem.whole;
    gg_stepper local = stepper; /* with the other ranks' halos around */
    if (r->ranks && r->ranks->stepper(r->ranks->ctx, &local, u->grid.height,
                                      &stepper, err)) {
        close_backends(d, b);
        gg_universe_free(u);
        return GG_RUN_ENV;
    }
    gg_tiles tiles = {0};
    if (gg_run_tiles_wrap(r->engine, b, d->n || o->device_mem ||
                                            r->n_ranks > 1,
                          &tiles, &stepper, err)) {
        close_backends(d, b);
        gg_universe_free(u);
        return GG_RUN_USAGE;
    }
    /* a reference step gives up a slow generation at a stop (the ranks'
     * stepper, which must stop all together, has no step_until) */
    stepper.stop = o->stop;
    /* (ranks stop together: the check between parts is all of theirs) */
    run2d x = {.r = r, .u = u, .stepper = &stepper,
               .parts = {.prog = {.r = r}, .stopped = gg_run_all_stopped,
                         .step = part2d, .store = store2d}};
    double start = gg_run_now();
    int64_t first = u->generation;
    gg_fail_kind why;
    status = gg_picture_run_frames(&r->pics, o->gens, advance2d, draw2d, &x,
                                   &why, err)
                 ? gg_run_status(why)
                 : GG_RUN_OK;
    double seconds = gg_run_now() - start;
    gg_run_devices_report(r, d);
    close_backends(d, b);
    if (r->ranks)
        r->ranks->stepper_free(r->ranks->ctx);
    gg_run_report_streaming(r, &mem, stepper.name);
    char engine[160];
    bool tiled = tiles.side != 0;
    gg_run_tiles_done(&tiles, stepper.name, engine, sizeof engine);
    snprintf(r->res->engine, sizeof r->res->engine, "%s",
             tiled ? "tiles" : "dense");
    if (status) { /* the backend failed part way, or a frame */
        gg_universe_free(u);
        return status;
    }
    if (ranks_gather(r, u, err)) {
        gg_universe_free(u);
        return GG_RUN_ENV;
    }
    if (r->rank > 0) { /* rank 0 writes and reports */
        r->res->ran = 1;
        gg_universe_free(u);
        return GG_RUN_OK;
    }
    return finish_run(r, u, first, seconds, engine, err);
}

int gg_run_dense(gg_run *r, gg_err *err)
{
    gg_universe u;
    gg_resident res;
    gg_run_devices d = {.n = r->n_devices};
    memcpy(d.ordinal, r->ordinal, sizeof d.ordinal);
    int status = gg_run_pictures_ready(r, err);
    if (status)
        return status;
    snprintf(r->res->family, sizeof r->res->family, "two-state");
    /* rank 0 reads (the one rank of one process), then cuts the universe
     * into bands over the ranks */
    gg_resident *seed = resident_wanted(r) ? &res : NULL;
    bool resident = false;
    int fam_status = 0, loaded = 0; /* -1 failed, 1 a family ran instead */
    if (r->rank == 0)
        loaded = gg_run_probe_outputs(r, err)
                     ? -1
                     : load(r, &u, seed, &resident, &fam_status, err);
    if (loaded > 0)
        return fam_status;
    int bad = loaded < 0;
    if (resident && bad)
        gg_resident_free(&res);
    if (resident && !bad) { /* runtime/universes/resident.h */
        int how = run_resident(r, &d, &res, &u, &status, err);
        if (how <= 0)
            return status;
    }
    if (ranks_scatter(r, bad, &u, err)) { /* a stop while loading */
        r->res->stop_exit = gg_run_stop_asked(r);
        return GG_RUN_USAGE;
    }
    return run_host(r, &d, &u, err);
}

/* golgen_run_3d and golgen_file_is_rle3 (include/golgen.h, golgen_0.6):
 * what `golgen run` does for a 3D rule. The grid comes from an RLE3
 * pattern (placed at its pos= in the rule's grid) or a 3D store, runs on
 * the backend the registry opens (runtime/backends/backend3d.h) in
 * batches (runtime/universes/batch.h) cut at the checkpoints and frames
 * (runtime/formats/picture_run.h), and is written as RLE3, a store and a
 * picture at the end. The command (cli/run3d.c) reads the options, says
 * the lines and maps the codes to exit statuses. */
#include "golgen.h"

#include <stdio.h>
#include <string.h>

#include "atomic_file.h"
#include "backend3d.h"
#include "batch.h"
#include "config.h"
#include "net_common.h"
#include "pattern_rle3.h"
#include "picture_run.h"
#include "rule3d.h"
#include "store.h"
#include "universe.h"

int golgen_file_is_rle3(const char *path)
{
    char head[64];
    FILE *f = path && strcmp(path, "-") ? fopen(path, "rb") : NULL;
    if (!f)
        return 0;
    size_t n = fread(head, 1, sizeof head, f);
    fclose(f);
    return gg_rle3_sniff(head, n);
}

/* The run's grid and where it stands: what the frames, the png and the
 * checkpoints see. */
typedef struct run3d {
    const golgen_run3d_opts *o;
    gg_backend3d *b;
    gg_grid3d *g;
    char rule[320];  /* canonical, with the size: what stores keep */
    int64_t first;   /* the generation the run started from */
    int64_t reached; /* generations run */
    int64_t since;   /* since the last checkpoint */
} run3d;

static bool stopped(const run3d *x)
{
    return x->o->stop && *x->o->stop;
}

/* A checkpoint when checkpoint_every generations passed since the last
 * one. */
static int checkpoint3d(run3d *x, gg_err *err)
{
    int64_t every = x->o->checkpoint_every;
    if (every <= 0 || x->since < every)
        return 0;
    x->since = 0;
    return gg_store_write3d(x->o->store, x->g, x->rule,
                            x->first + x->reached, err);
}

/* In batches (the universe runs' policy, runtime/universes/batch.h) so
 * progress shows after each and a batch ends at each checkpoint; a stop
 * ends the batch in flight, the grid at the last generation completed. */
static int advance3d(void *ctx, int64_t gens, bool *stop, gg_err *err)
{
    run3d *x = ctx;
    int64_t every = x->o->checkpoint_every;
    gg_batch batch;
    gg_batch_init(&batch, 0, 0);
    for (int64_t done = 0; done < gens && !stopped(x);) {
        int64_t n = gg_batch_take(&batch, gens - done);
        if (every > 0 && n > every - x->since)
            n = every - x->since;
        double t0 = gg_batch_clock();
        int64_t ran = gg_backend3d_step_until(x->b, x->g, n, x->o->stop,
                                              err);
        if (ran < 0)
            return -1;
        done += ran;
        x->reached += ran;
        x->since += ran;
        gg_batch_done(&batch, ran, gg_batch_clock() - t0);
        if (checkpoint3d(x, err))
            return -1;
        if (ran < n || (x->o->on_progress &&
                        !x->o->on_progress(x->o->ctx, x->reached,
                                           x->o->gens)))
            break;
    }
    *stop = stopped(x);
    return 0;
}

static int draw3d(void *ctx, const char *path, const gg_picture_opts *o,
                  gg_picture_info *info, gg_err *err)
{
    run3d *x = ctx;
    return gg_picture_write_grid3d(path, x->g, o, info, err);
}

/* The grid from the pattern, placed at its pos= in the rule's grid (a
 * rule sized by the pattern takes the pattern's size= torus). */
static int from_pattern(const char *rule, gg_rle3 *p, gg_rule3d *r,
                        gg_grid3d *g, gg_err *err)
{
    const char *rt = rule ? rule : p->rule;
    if (gg_rule3d_parse(rt, r, err))
        return -1;
    if (r->topo == GG_TOPO3D_SIZED_BY_PATTERN) {
        r->topo = GG_TOPO3D_TORUS;
        r->sx = r->sy = r->sz = p->size;
    }
    if (p->pos[0] + p->w > r->sx || p->pos[1] + p->h > r->sy ||
        p->pos[2] + p->d > r->sz)
        return gg_fail(err, "the %lldx%lldx%lld pattern at pos=%lld,%lld,"
                       "%lld does not fit the %lldx%lldx%lld grid of rule "
                       "'%s'; give a larger :T or :P size",
                       (long long)p->w, (long long)p->h, (long long)p->d,
                       (long long)p->pos[0], (long long)p->pos[1],
                       (long long)p->pos[2], (long long)r->sx,
                       (long long)r->sy, (long long)r->sz, rt);
    if (gg_grid3d_init(g, r->sx, r->sy, r->sz, err))
        return -1;
    for (int64_t z = 0; p->cells.bits && z < p->d; z++)
        for (int64_t y = 0; y < p->h; y++)
            for (int64_t x = 0; x < p->w; x++)
                if (gg_grid3d_get(&p->cells, x, y, z))
                    gg_grid3d_set(g, p->pos[0] + x, p->pos[1] + y,
                                  p->pos[2] + z, 1);
    return 0;
}

/* 0 when rule `given` (NULL: none) repeats the store's rule r; a rule
 * sized by the pattern repeats it at the store's size. */
static int rule_repeats(const char *given, const gg_rule3d *r,
                        const char *path, gg_err *err)
{
    gg_rule3d g;
    if (!given)
        return 0;
    if (gg_rule3d_parse(given, &g, err))
        return -1;
    if (g.topo == GG_TOPO3D_SIZED_BY_PATTERN) {
        g.topo = r->topo;
        g.sx = r->sx, g.sy = r->sy, g.sz = r->sz;
    }
    char mine[320], theirs[320];
    gg_rule3d_format(r, theirs, sizeof theirs);
    gg_rule3d_format(&g, mine, sizeof mine);
    if (strcmp(mine, theirs))
        return gg_fail(err, "--rule %s is not the rule of store %s (%s): "
                       "drop --rule to continue it", given, path, theirs);
    return 0;
}

/* The grid a 3D store holds, its rule (which rule may only repeat)
 * matching its size, and its generation. */
static int from_store(const golgen_run3d_opts *o, gg_rule3d *r,
                      gg_grid3d *g, int64_t *generation, gg_err *err)
{
    char text[256];
    if (gg_store_read3d(o->resume, g, text, generation, err))
        return -1;
    int bad = gg_rule3d_parse(text, r, err);
    if (!bad && (r->topo == GG_TOPO3D_SIZED_BY_PATTERN || r->sx != g->sx ||
                 r->sy != g->sy || r->sz != g->sz))
        bad = gg_fail(err, "store %s: its rule %s is not the size of its "
                      "%lldx%lldx%lld grid: the file is not what golgen "
                      "wrote", o->resume, text, (long long)g->sx,
                      (long long)g->sy, (long long)g->sz);
    bad = bad || rule_repeats(o->rule, r, o->resume, err);
    if (bad)
        gg_grid3d_free(g);
    return bad ? -1 : 0;
}

/* out and the store once the run ended: 0 or -1 with err. */
static int outputs3d(const run3d *x, const gg_rule3d *r,
                     const char *comments, gg_err *err)
{
    const golgen_run3d_opts *o = x->o;
    int64_t gen = x->first + x->reached;
    if (o->out) {
        char rs[320];
        /* 3D.lua's own form when the grid is its N^3 torus */
        if (r->topo == GG_TOPO3D_TORUS && r->sx == r->sy && r->sy == r->sz)
            gg_rule3d_format_transition(r, rs, sizeof rs);
        else
            gg_rule3d_format(r, rs, sizeof rs);
        if (gg_rle3_write(o->out, x->g, rs, gen, comments, err))
            return -1;
    }
    if (o->store && gg_store_write3d(o->store, x->g, x->rule, gen, err))
        return -1;
    return 0;
}

/* Outputs that cannot be made fail before a long run, not after it. */
static int probe3d(const golgen_run3d_opts *o, gg_err *err)
{
    return (o->out && strcmp(o->out, "-") && gg_atomic_probe(o->out, err)) ||
                   (o->store && gg_atomic_probe(o->store, err))
               ? -1
               : 0;
}

static int fail_code(gg_fail_kind why)
{
    return why == GG_FAIL_ENV       ? GOLGEN_ERR_ENV
           : why == GG_FAIL_INVALID ? GOLGEN_ERR_CHECK
                                    : GOLGEN_ERR_INPUT;
}

/* The run once the grid is loaded: GOLGEN_OK or a code with err. */
static int run_loaded(const golgen_run3d_opts *o, const gg_picture_run *pics,
                      const gg_backend_info *info, gg_rule3d *r,
                      gg_grid3d *g, int64_t first, const char *comments,
                      golgen_run3d_result *res, gg_err *err)
{
    gg_config cfg;
    gg_auto_line line;
    gg_fail_kind why = GG_FAIL_INPUT;
    run3d x = {.o = o, .g = g, .first = first};
    gg_rule3d_format(r, x.rule, sizeof x.rule);
    if (gg_generations_check(first, o->gens, err) ||
        gg_config_from_env(&cfg, err))
        return GOLGEN_ERR_INPUT;
    gg_backend_opts bo = {.config = &cfg, .threads = o->threads,
                          .announce = o->announce != 0};
    if (gg_backend3d_open(info, r, &bo, &x.b, &line, &why, err))
        return fail_code(why);
    snprintf(res->backend, sizeof res->backend, "%s",
             gg_backend3d_table(x.b)->name);
    if (!info)
        snprintf(res->auto_line, sizeof res->auto_line, "%s", line.text);
    if (o->on_open)
        o->on_open(o->ctx, res);
    double t0 = gg_batch_clock();
    int code = gg_picture_run_frames(pics, o->gens, advance3d, draw3d, &x,
                                     &why, err)
                   ? fail_code(why)
                   : GOLGEN_OK;
    res->reached = x.reached;
    res->generation = first + x.reached;
    if (!code) {
        res->ran = 1;
        res->population = gg_grid3d_population(g);
        res->seconds = gg_batch_clock() - t0;
    }
    gg_backend3d_close(x.b);
    if (!code && outputs3d(&x, r, comments, err))
        code = GOLGEN_ERR_INPUT;
    if (!code && o->png) {
        gg_picture_info in;
        if (draw3d(&x, o->png, &pics->pic, &in, err))
            return GOLGEN_ERR_INPUT;
        res->png_written = 1;
        res->png_info = (golgen_picture_info){in.x, in.y, in.w, in.h,
                                              in.scale, in.zoom};
    }
    return code;
}

int golgen_run_3d(const golgen_run3d_opts *opts, golgen_run3d_result *res,
                  char *errbuf, size_t errlen)
{
    gg_err err = {{0}};
    const golgen_run3d_opts *o = opts;
    const golgen_picture_opts *po = &o->picture;
    gg_picture_run pics = {
        .png = o->png, .frames = o->frames, .every = o->frame_every,
        .pic = {.window = po->window, .wx = po->x, .wy = po->y, .ww = po->w,
                .wh = po->h, .scale = po->scale, .zoom = po->zoom,
                .max_side = po->max_side}};
    const gg_backend_info *info;
    gg_fail_kind why;
    memset(res, 0, sizeof *res);
    if (errbuf && errlen)
        errbuf[0] = 0;
    if (gg_lib_backend(o->backend, &info, &err) ||
        gg_backend_takes(info, GG_FAMILY_3D, GG_FEATURE_RUN, &err))
        return gg_lib_fail(GOLGEN_ERR_INPUT, &err, errbuf, errlen);
    if (o->gens < 0 || (!o->in == !o->resume) ||
        (o->checkpoint_every && !o->store))
        return gg_lib_fail(GOLGEN_ERR_INPUT, &(gg_err){"golgen_run_3d: "
                           "gens 0.., in or resume (one), store with "
                           "checkpoint_every"}, errbuf, errlen);
    if (gg_picture_run_ready(&pics, &why, &err))
        return gg_lib_fail(fail_code(why), &err, errbuf, errlen);
    gg_rle3 p = {0};
    gg_rule3d r;
    gg_grid3d g = {0};
    int64_t first = 0;
    int bad = probe3d(o, &err) ||
              (o->resume ? from_store(o, &r, &g, &first, &err)
                         : gg_rle3_read(o->in, &p, &err) ||
                               from_pattern(o->rule, &p, &r, &g, &err));
    if (!o->resume)
        first = p.gen;
    int code = bad ? GOLGEN_ERR_INPUT
                   : run_loaded(o, &pics, info, &r, &g, first,
                                o->resume ? NULL : p.comments, res, &err);
    gg_grid3d_free(&g);
    gg_rle3_free(&p);
    return code ? gg_lib_fail(code, &err, errbuf, errlen) : GOLGEN_OK;
}

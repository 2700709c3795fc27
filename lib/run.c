/* golgen_run_2d (include/golgen/run.h, golgen_0.7): what `golgen run` does
 * for a 2D rule. The options are checked in the command's order and with
 * its sentences (they name its options: this is the command's run as a
 * call); then the hash tree tries (engine auto or hashlife,
 * lib/run_tree.c), else a store runs into a store band by band
 * (lib/run_stream.c), else the dense engine and the families beside it
 * (lib/run_dense.c). What is shared by those: here. */
#include "run_lib.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "atomic_file.h"
#include "backend_auto.h"
#include "engine_choice.h"
#include "hashlife.h"
#include "rank_run.h"
#include "run_b0.h"
#include "run_topo.h"

/* ---- what the family runs share ---- */

void gg_run_note(const gg_run *r, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    gg_lib_note_v(r->o->on_note, r->o->ctx, fmt, ap);
    va_end(ap);
}

bool gg_run_stop_asked(const gg_run *r)
{
    return r->halted || (r->o->stop && *r->o->stop);
}

bool gg_run_all_stopped(const gg_run *r)
{
    if (r->ranks)
        return r->ranks->stopped(r->ranks->ctx);
    return gg_run_stop_asked(r);
}

bool gg_run_progress(void *ctx, int64_t done, int64_t total)
{
    const gg_run_prog *p = ctx;
    gg_run *r = p->r;
    (void)total;
    bool go = true;
    if (r->o->on_progress) {
        golgen_run2d_progress g = {.done = done + p->base,
                                 .total = r->o->gens, .step_log = -1};
        go = r->o->on_progress(r->o->ctx, &g) != 0;
    }
    if (r->ranks) /* every rank stops together */
        return !r->ranks->stopped(r->ranks->ctx);
    if (!go)
        r->halted = true;
    return !gg_run_stop_asked(r);
}

int gg_run_status(gg_fail_kind why)
{
    return gg_fail_exit_status(why);
}

void gg_run_told_open(gg_run *r, bool opened_by_auto)
{
    if (!opened_by_auto)
        r->res->auto_line[0] = '\0';
    if (r->o->on_open)
        r->o->on_open(r->o->ctx, r->res);
}

int gg_run_open_backend(gg_run *r, const gg_backend_info *info,
                        const gg_rule *rule, const gg_backend_opts *bo,
                        gg_backend **out, int *status, gg_err *err)
{
    gg_fail_kind why;
    gg_auto_line line;
    int bad = info ? gg_backend_open(info, rule, bo, out, &why, err)
                   : gg_backend_open_auto(rule, bo, out, &line, &why, err);
    golgen_run2d_result *res = r->res;
    snprintf(res->backend, sizeof res->backend, "%s",
             bad ? "" : gg_backend_of(*out)->name);
    if (!info && !bad)
        snprintf(res->auto_line, sizeof res->auto_line, "%s", line.text);
    /* a new rule's networks are searched for as its kernel is built: the
     * caller's note of it ends here */
    gg_run_told_open(r, !info && !bad);
    *status = bad ? gg_run_status(why) : GG_RUN_OK;
    return bad;
}

int gg_run_save_pattern(const char *out, const gg_pattern *p, gg_err *err)
{
    if (strcmp(out, "-"))
        return gg_pattern_write(out, p, err); /* format by name */
    char *text = NULL;
    size_t len = 0;
    int bad = gg_pattern_format_rle(p, &text, &len, err);
    if (!bad && (fwrite(text, 1, len, stdout) != len || fflush(stdout)))
        bad = gg_fail(err, "writing the pattern to stdout failed");
    free(text);
    return bad;
}

bool gg_run_named_mc(const char *path)
{
    size_t n = path ? strlen(path) : 0;
    return n > 3 && !strcmp(path + n - 3, ".mc");
}

int gg_run_probe_outputs(const gg_run *r, gg_err *err)
{
    const golgen_run2d_opts *o = r->o;
    return (o->out && strcmp(o->out, "-") &&
            gg_pattern_check_output(o->out, err)) ||
                   (o->store && gg_atomic_probe(o->store, err))
               ? -1
               : 0;
}

int gg_run_write_png(gg_run *r, gg_picture_draw_fn draw, void *ctx,
                     gg_err *err)
{
    gg_picture_info in;
    if (!r->o->png)
        return 0;
    if (draw(ctx, r->o->png, &r->pics.pic, &in, err))
        return GG_RUN_USAGE;
    r->res->png_written = 1;
    r->res->png_info = (golgen_picture_info){in.x, in.y, in.w, in.h,
                                             in.scale, in.zoom};
    char shown[200];
    if (in.scale > 1)
        snprintf(shown, sizeof shown, "%lld x %lld cells a pixel (shaded "
                 "by density)", (long long)in.scale, (long long)in.scale);
    else
        snprintf(shown, sizeof shown, "%lld pixel%s a cell",
                 (long long)in.zoom, in.zoom > 1 ? "s" : "");
    gg_run_note(r, "golgen: %s: %lld x %lld cells from (%lld, %lld), %s",
                r->o->png, (long long)in.w, (long long)in.h, (long long)in.x,
                (long long)in.y, shown);
    return 0;
}

void gg_run_summary(gg_run *r, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(r->res->summary, sizeof r->res->summary, fmt, ap);
    va_end(ap);
    gg_run_note(r, "%s", r->res->summary);
}

/* The options' combinations (the command's sentences, as
 * cli/cli_pictures.c checks them for 3D runs). */
static const char *pictures_refused(const golgen_run2d_opts *o)
{
    const golgen_picture_opts *p = &o->picture;
    bool any = o->png || o->frames;
    if (o->frame_every && !o->frames)
        return "--every N says how often --frames DIR gets a picture; add "
               "--frames DIR";
    if (!any && (p->window || p->scale || p->zoom))
        return "--window, --png-scale and --png-zoom shape the pictures of "
               "--png FILE or --frames DIR; add one";
    if (p->scale > 1 && p->zoom > 1)
        return "--png-scale (cells a pixel) and --png-zoom (pixels a cell) "
               "exclude each other; give one";
    if (o->png && !strcmp(o->png, "-"))
        return "--png writes a file; give it a name such as out.png";
    return NULL;
}

int gg_run_pictures_ready(const gg_run *r, gg_err *err)
{
    gg_fail_kind why;
    const char *no = pictures_refused(r->o);
    if (no) {
        gg_fail(err, "%s", no);
        return GG_RUN_USAGE;
    }
    return gg_picture_run_ready(&r->pics, &why, err) ? gg_run_status(why)
                                                     : 0;
}

double gg_run_now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

int gg_run_ranks_refuse(const gg_run *r, const char *what, gg_err *err)
{
    if (r->n_ranks == 1)
        return 0;
    if (r->rank > 0) { /* every rank refuses; rank 0 says it */
        err->msg[0] = '\0';
        return -1;
    }
    return gg_fail(err, "%s run in one process only, not over %d MPI ranks: "
                   "drop mpirun (or give -np 1)", what, r->n_ranks);
}

int gg_run_family_refusals(const gg_run *r, gg_family f, gg_err *err)
{
    const golgen_run2d_opts *o = r->o;
    const struct {
        bool given;
        gg_family_feature feature;
    } asked[] = {
        {o->store || o->checkpoint_every || o->resume, GG_FEATURE_STORE},
        {o->png || o->frames, GG_FEATURE_PICTURES},
        {o->device_mem, GG_FEATURE_DEVICE_MEM},
        {r->n_devices, GG_FEATURE_DEVICES},
        {o->host_mem, GG_FEATURE_HOST_MEM},
        {r->n_ranks > 1, GG_FEATURE_RANKS},
    };
    for (size_t i = 0; i < sizeof asked / sizeof *asked; i++)
        if (asked[i].given &&
            gg_backend_takes(NULL, f, asked[i].feature, err))
            return -1;
    return 0;
}

/* ---- the options ---- */

static int parse_devices(const char *text, int *ordinal, int max, int *n,
                         gg_err *err)
{
    const char *p = text;
    *n = 0;
    while (*p) {
        char *end;
        long v = strtol(p, &end, 10);
        if (end == p || v < 0 || v >= GG_RUN_MAX_DEVICES ||
            (*end && *end != ','))
            return gg_fail(err, "--devices wants device ordinals 0..%d "
                           "separated by commas (e.g. 0,1, or 0,0 for two "
                           "bands on GPU 0), not '%s'",
                           GG_RUN_MAX_DEVICES - 1, text);
        if (*n == max)
            return gg_fail(err, "--devices lists more than %d bands", max);
        ordinal[(*n)++] = (int)v;
        p = *end ? end + 1 : end;
    }
    if (!*n)
        return gg_fail(err, "--devices wants at least one ordinal, e.g. 0,1");
    return 0;
}

int golgen_devices_parse(const char *text, int *ordinals, int max,
                         char *errbuf, size_t errlen)
{
    gg_err err = {{0}};
    int n;
    if (errbuf && errlen)
        errbuf[0] = '\0';
    if (!text || !ordinals || max < 1)
        return gg_lib_fail(GOLGEN_ERR_INPUT, &(gg_err){"golgen_devices_parse:"
                           " text and room for its ordinals"}, errbuf,
                           errlen);
    return parse_devices(text, ordinals, max, &n, &err)
               ? gg_lib_fail(GOLGEN_ERR_INPUT, &err, errbuf, errlen)
               : n;
}

int golgen_env_check(int *launcher_ranks, char *errbuf, size_t errlen)
{
    gg_config cfg;
    gg_err err = {{0}};
    if (launcher_ranks)
        *launcher_ranks = 0;
    if (gg_config_from_env(&cfg, &err))
        return gg_lib_fail(GOLGEN_ERR_INPUT, &err, errbuf, errlen);
    if (errbuf && errlen)
        errbuf[0] = '\0';
    if (launcher_ranks)
        *launcher_ranks = cfg.launcher_ranks;
    return GOLGEN_OK;
}

/* What the hash-tree engine does not take yet, refused by name. */
static const char *hashlife_refuses(const gg_run *r)
{
    const golgen_run2d_opts *o = r->o;
    return o->store || o->resume ? "stores (--store, --resume)"
           : o->device_mem || r->n_devices || o->host_mem
               ? "--device-mem, --devices and --host-mem"
           : o->frames || o->frame_every ? "--frames (nor --every)"
           : r->n_ranks > 1              ? "MPI ranks"
                                         : NULL;
}

/* engine, mem and tree_leaf: known names (runtime/engines/
 * engine_choice.h), and options the engine takes. */
static int engine_check(gg_run *r, gg_err *err)
{
    const golgen_run2d_opts *o = r->o;
    gg_engine e;
    if (gg_engine_parse(o->engine, &e, err))
        return -1;
    r->engine = gg_engine_name(e);
    if (e == GG_ENGINE_HASHLIFE && hashlife_refuses(r))
        return gg_fail(err, "--engine hashlife does not take %s yet; use "
                       "--engine dense", hashlife_refuses(r));
    if (e == GG_ENGINE_AUTO && hashlife_refuses(r))
        r->engine = "dense";
    if (o->mem && (e == GG_ENGINE_DENSE || e == GG_ENGINE_TILES))
        return gg_fail(err, "--mem bounds the hash tree; it needs --engine "
                       "hashlife or auto");
    if (o->tree_leaf && (e == GG_ENGINE_DENSE || e == GG_ENGINE_TILES))
        return gg_fail(err, "--tree-leaf shapes the hash tree; it needs "
                       "--engine hashlife or auto");
    r->mem = o->mem ? o->mem : gg_engine_default_mem();
    return 0;
}

/* tree_leaf: 4, 8, 16, 32 or 64 cells a side. */
static int leaf_check(gg_run *r, gg_err *err)
{
    int side = r->o->tree_leaf;
    if (!side)
        return 0;
    for (int k = HL_LEAF_LOG_MIN; k <= HL_LEAF_LOG_MAX; k++)
        if (side == 1 << k) {
            r->leaf_log = k;
            return 0;
        }
    return gg_fail(err, "--tree-leaf %d: a leaf is 4, 8, 16, 32 or 64 cells "
                   "a side", side);
}

const char *gg_run_plain_refuses(const gg_run *r)
{
    const golgen_run2d_opts *o = r->o;
    return o->store || o->checkpoint_every ? "stores (--store, "
                                             "--checkpoint-every)"
           : o->png || o->frames           ? "pictures (--png, --frames)"
           : o->device_mem || r->n_devices || o->host_mem
               ? "--device-mem, --devices or --host-mem"
           : r->n_ranks > 1 ? "MPI ranks"
           : strcmp(r->engine, "auto") && strcmp(r->engine, "dense")
               ? "--engine tiles or hashlife"
               : NULL;
}

/* What the command checks once it has read its options, in its order. */
static int check_opts(gg_run *r, gg_err *err)
{
    const golgen_run2d_opts *o = r->o;
    if (o->gens < 0 || o->mem < 0 || o->device_mem < 0 || o->host_mem < 0 ||
        o->checkpoint_every < 0 || o->frame_every < 0)
        return gg_fail(err, "golgen_run_2d: gens, mem, device_mem, host_mem, "
                       "checkpoint_every and frame_every are 0 or more");
    if (o->pattern && o->in)
        return gg_fail(err, "golgen_run_2d: a pattern or a path in, not both");
    if (o->resume && (o->in || o->pattern))
        return gg_fail(err, "--resume %s continues that store: drop the "
                       "input pattern %s", o->resume,
                       o->in ? o->in : "given");
    if (leaf_check(r, err))
        return -1;
    if (o->devices &&
        parse_devices(o->devices, r->ordinal, GG_RUN_MAX_DEVICES,
                      &r->n_devices, err))
        return -1;
    if (r->n_devices && o->device_mem)
        return gg_fail(err, "--devices and --device-mem do not combine yet: "
                       "bands on several devices, or one device streaming");
    if (engine_check(r, err))
        return -1;
    /* the tree checkpoints into OUT.mc itself (run it to resume) */
    bool tree_mc = o->out && strcmp(r->engine, "dense") &&
                   strcmp(r->engine, "tiles") && gg_run_named_mc(o->out);
    if (o->checkpoint_every && !o->store && !tree_mc)
        return gg_fail(err, "--checkpoint-every N needs --store S.ggu (the "
                       "file the checkpoints go to), or with the hash "
                       "tree (--engine hashlife or auto) -o OUT.mc");
    return gg_lib_backend(o->backend, &r->backend, err);
}

/* The run after its options: a status with err. */
static int run(gg_run *r, gg_err *err)
{
    const golgen_run2d_opts *o = r->o;
    bool ring; /* Golly's other grids: lib/run_topo.c */
    int ring_status = gg_run_topo(r, &ring, err);
    if (ring)
        return ring_status;
    bool b0; /* B0 on the unbounded plane: lib/run_b0.c */
    int b0_status = gg_run_b0(r, &b0, err);
    if (b0)
        return b0_status;
    if (strcmp(r->engine, "dense") && strcmp(r->engine, "tiles")) {
        bool dense;
        int status = gg_run_tree(r, &dense, err);
        if (!dense)
            return status;
        if (o->checkpoint_every && !o->store) { /* auto chose dense */
            gg_fail(err, "--checkpoint-every without --store checkpoints "
                    "the hash tree into OUT.mc, but this run takes the "
                    "dense engine (a bounded grid, a B0 rule or a busy "
                    "box); give --store S.ggu");
            return GG_RUN_USAGE;
        }
    }
    if (o->frames && gg_run_ranks_refuse(r, "runs with --frames", err))
        return GG_RUN_USAGE;
    if (o->host_mem) /* store to store, never whole: lib/run_stream.c */
        return gg_run_host_mem(r, err);
    return gg_run_dense(r, err);
}

static int code_of(int status)
{
    return status == GG_RUN_CHECK ? GOLGEN_ERR_CHECK
           : status == GG_RUN_ENV ? GOLGEN_ERR_ENV
                                  : GOLGEN_ERR_INPUT;
}

int golgen_run_2d(const golgen_run2d_opts *opts, golgen_run2d_result *res,
               char *errbuf, size_t errlen)
{
    gg_err err = {{0}};
    if (errbuf && errlen)
        errbuf[0] = '\0';
    if (!opts || !res) {
        if (res)
            memset(res, 0, sizeof *res);
        return gg_lib_fail(GOLGEN_ERR_INPUT, &(gg_err){"golgen_run_2d: "
                           "options and a result to fill"}, errbuf, errlen);
    }
    memset(res, 0, sizeof *res);
    gg_run *r = calloc(1, sizeof *r);
    if (!r)
        return gg_lib_fail(GOLGEN_ERR_ENV, &(gg_err){"golgen_run_2d: out of "
                           "memory"}, errbuf, errlen);
    r->o = opts;
    r->res = res;
    r->ranks = opts->ranks;
    r->n_ranks = r->ranks ? r->ranks->n : 1;
    r->rank = r->ranks ? r->ranks->rank : 0;
    r->pat = opts->pattern;
    const golgen_picture_opts *po = &opts->picture;
    r->pics = (gg_picture_run){
        .png = opts->png, .frames = opts->frames,
        .every = opts->frame_every,
        .pic = {.window = po->window, .wx = po->x, .wy = po->y, .ww = po->w,
                .wh = po->h, .scale = po->scale, .zoom = po->zoom,
                .max_side = po->max_side}};
    r->hook = (gg_lib_search_hook){opts->on_search, opts->search_ctx};
    int status = check_opts(r, &err) ||
                         gg_lib_choose_opts(NULL, &r->hook, &r->cfg,
                                            &r->cfg.choose, &err)
                     ? GG_RUN_USAGE
                     : run(r, &err);
    if (r->own_pat)
        golgen_pattern_free(r->pat);
    free(r);
    return status ? gg_lib_fail(code_of(status), &err, errbuf, errlen)
                  : GOLGEN_OK;
}

#include "run3d.h"

#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "atomic_file.h"
#include "backend3d.h"
#include "cli_pictures.h"
#include "cli_util.h"
#include "run_control.h"
#include "cpu3d.h"
#include "cuda3d.h"
#include "emit_c3d.h"
#include "pattern_rle3.h"
#include "rule3d.h"
#include "store.h"
#include "universe.h"

static bool ends_with(const char *s, const char *suffix)
{
    size_t n = strlen(s), m = strlen(suffix);
    return n >= m && !strcmp(s + n - m, suffix);
}

/* A store whose header says it holds a 3D grid (runtime/formats/store.h);
 * false also when it cannot be read, which the run then says. */
static bool store_is_3d(const char *path)
{
    gg_store_info s;
    gg_err ignored;
    return !gg_store_info_read(path, &s, &ignored) && s.depth > 0;
}

bool gg_cli_is_3d(int argc, char **argv, bool positional_rule)
{
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if ((!strcmp(a, "--rule") || !strcmp(a, "-r")) && i + 1 < argc)
            return gg_rule3d_is_3d(argv[i + 1]);
        if (!strncmp(a, "--rule=", 7))
            return gg_rule3d_is_3d(a + 7);
    }
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "--resume") && i + 1 < argc)
            return store_is_3d(argv[i + 1]);
        if (!strncmp(a, "--resume=", 9))
            return store_is_3d(a + 9);
    }
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        bool output = i > 1 && (!strcmp(argv[i - 1], "-o") ||
                                !strcmp(argv[i - 1], "--output"));
        if (a[0] == '-' || output)
            continue;
        if (positional_rule ? gg_rule3d_is_3d(a)
                            : ends_with(a, ".rle3") || gg_cli_file_is_rle3(a))
            return true;
    }
    return false;
}

/* ---- golgen run --rule 3D... ---- */

static void run_usage(FILE *out)
{
    char names[256];
    gg_backend_family_names(GG_FAMILY_3D, "|", names, sizeof names);
    fprintf(out,
            "usage: golgen run --gens N [--rule 3DRULE] [--backend auto|%s]\n"
            "                  [--threads N] [-o OUT.rle3] [--store S.ggu "
            "[--checkpoint-every N]]\n                  IN.rle3 | --resume "
            "S.ggu\n\nSimulate RLE3 pattern IN (Golly 3D.lua's format; - "
            "for stdin) for N generations\non the N^3 torus its size= gives, "
            "or the rule's :TN / :TX,Y,Z torus or :PN /\n:PX,Y,Z bounded "
            "box, and write the result as RLE3 to OUT (- for stdout).\n"
            "--store S.ggu writes the grid as a universe store at the end, "
            "and every N\ngenerations with --checkpoint-every N; --resume "
            "S.ggu continues one (its rule,\nwhich --rule may only "
            "repeat).\n", names);
    gg_cli_pictures_usage(out, true);
}

/* The run's grid and where it stands: what --frames, --png and the
 * checkpoints see (cli/cli_pictures.h). */
typedef struct run3d {
    gg_backend3d *b;
    gg_grid3d *g;
    char rule[320];  /* canonical, with the size: what stores keep */
    int64_t first;   /* the generation the run started from */
    int64_t reached; /* generations run */
    gg_run_progress ps;
    const char *store; /* checkpoints every `every` generations */
    int64_t every, since;
} run3d;

/* A checkpoint when `every` generations passed since the last one. */
static int checkpoint3d(run3d *x, gg_err *err)
{
    if (x->every <= 0 || x->since < x->every)
        return 0;
    x->since = 0;
    return gg_store_write3d(x->store, x->g, x->rule, x->first + x->reached,
                            err);
}

/* In batches (the universe runs' policy, runtime/universes/batch.h) so
 * progress shows after each and a batch ends at each checkpoint; a stop
 * signal ends the batch in flight, the grid at the last generation
 * completed. */
static int advance3d(void *ctx, int64_t gens, bool *stopped, gg_err *err)
{
    run3d *x = ctx;
    gg_batch batch;
    gg_batch_init(&batch, 0, 0);
    for (int64_t done = 0; done < gens && !gg_run_stopped();) {
        int64_t n = gg_batch_take(&batch, gens - done);
        if (x->every > 0 && n > x->every - x->since)
            n = x->every - x->since;
        double t0 = gg_batch_clock();
        int64_t ran = gg_backend3d_step_until(x->b, x->g, n,
                                              gg_run_stop_flag(), err);
        if (ran < 0)
            return -1;
        done += ran;
        x->reached += ran;
        x->since += ran;
        gg_batch_done(&batch, ran, gg_batch_clock() - t0);
        if (checkpoint3d(x, err))
            return -1;
        if (ran < n || !gg_run_progress_cb(&x->ps, x->reached, x->ps.all))
            break;
    }
    *stopped = gg_run_stopped();
    return 0;
}

static int draw3d(void *ctx, const char *path, const gg_picture_opts *o,
                  gg_picture_info *info, gg_err *err)
{
    run3d *x = ctx;
    return gg_picture_write_grid3d(path, x->g, o, info, err);
}

/* What the command line asks of a 3D run. */
typedef struct opts3d {
    const char *rule, *out, *in, *store, *resume;
    const gg_backend_info *backend; /* NULL: auto */
    int64_t gens, threads, every;
    bool progress;
    gg_cli_pictures pics;
} opts3d;

/* An option 2D runs take: 0 when the 3D family takes it too (the
 * registry's one place, gg_backend_takes), else -1 with err. */
static int refused(const char *name, gg_err *err)
{
    static const struct {
        const char *name;
        gg_family_feature feature;
    } features[] = {{"host-mem", GG_FEATURE_HOST_MEM},
                    {"device-mem", GG_FEATURE_DEVICE_MEM},
                    {"devices", GG_FEATURE_DEVICES}};
    for (size_t i = 0; i < sizeof features / sizeof features[0]; i++)
        if (!strcmp(name, features[i].name))
            return gg_backend_takes(NULL, GG_FAMILY_3D, features[i].feature,
                                    err);
    /* --engine, --mem: the hash tree is an engine, not a backend */
    return gg_fail(err, "3D rules do not take --%s yet (the hash tree holds "
                   "2D universes); run without it", name);
}

/* 0, 1 after --help (printed), or -1 with err (a usage error). */
static int parse3d(int argc, char **argv, opts3d *o, gg_err *err)
{
    static const struct option opts[] = {
        {"rule", required_argument, 0, 'r'},
        {"gens", required_argument, 0, 'g'},
        {"backend", required_argument, 0, 'b'},
        {"output", required_argument, 0, 'o'},
        {"threads", required_argument, 0, 't'},
        {"progress", no_argument, 0, 'p'},
        {"help", no_argument, 0, 'h'},
        {"store", required_argument, 0, 'S'},
        {"resume", required_argument, 0, 'R'},
        {"checkpoint-every", required_argument, 0, 'C'},
        GG_CLI_PICTURE_OPTIONS,
        /* what 2D runs take and 3D ones not yet: refused by name */
        {"host-mem", required_argument, 0, 'X'},
        {"device-mem", required_argument, 0, 'X'},
        {"devices", required_argument, 0, 'X'},
        {"engine", required_argument, 0, 'X'},
        {"mem", required_argument, 0, 'X'},
        {0, 0, 0, 0}};
    const char *bname = NULL;
    int c, at = -1;
    *o = (opts3d){.gens = -1, .progress = isatty(2)};
    optind = 1;
    opterr = 0; /* our messages name golgen and the cause */
    while ((c = getopt_long(argc, argv, ":r:g:b:o:ph", opts, &at)) != -1) {
        switch (c) {
        case 'X': return refused(opts[at].name, err);
        case '?':
        case ':':
            return gg_fail(err, "%s option '%s' for a 3D rule; see 'golgen "
                           "run --help' (with a 3D rule)",
                           c == ':' ? "a value is missing after the"
                                    : "unknown", argv[optind - 1]);
        case 'r': o->rule = optarg; break;
        case 'g':
            if (gg_cli_int("--gens", optarg, 0, INT64_MAX / 2, &o->gens, err))
                return -1;
            break;
        case 'b': bname = optarg; break;
        case 'o': o->out = optarg; break;
        case 't':
            if (gg_cli_int("--threads", optarg, 1, 4096, &o->threads, err))
                return -1;
            break;
        case 'p': o->progress = true; break;
        case 'S': o->store = optarg; break;
        case 'R': o->resume = optarg; break;
        case 'C':
            if (gg_cli_int("--checkpoint-every", optarg, 1, INT64_MAX / 2,
                           &o->every, err))
                return -1;
            break;
        case 'h': run_usage(stdout); return 1;
        default:
            switch (gg_cli_picture_option(c, optarg, &o->pics, err)) {
            case 0: break;
            case 1: return gg_fail(err, "see 'golgen run --help'");
            default: return -1;
            }
        }
    }
    o->in = optind < argc ? argv[optind] : NULL;
    if (o->gens < 0)
        return gg_fail(err, "--gens N is required");
    if (optind < argc - 1 || (o->resume && o->in))
        return gg_fail(err, "one input at most: IN.rle3, or --resume S.ggu");
    if (!o->in && !o->resume)
        return gg_fail(err, "a 3D rule needs an RLE3 pattern file (IN.rle3, "
                       "as Golly's 3D.lua saves) or --resume S.ggu");
    if (o->every && !o->store)
        return gg_fail(err, "--checkpoint-every N needs --store S.ggu (the "
                       "file the checkpoints go to)");
    return gg_cli_backend(bname, &o->backend, err) ||
                   gg_backend_takes(o->backend, GG_FAMILY_3D,
                                    GG_FEATURE_RUN, err)
               ? -1
               : 0;
}

/* The grid from the pattern, placed at its pos= in the rule's grid (a
 * rule sized by the pattern takes the pattern's size= torus). */
static int from_pattern(const opts3d *o, gg_rle3 *p, gg_rule3d *r,
                        gg_grid3d *g, gg_err *err)
{
    const char *rt = o->rule ? o->rule : p->rule;
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

/* 0 when --rule `given` (NULL: none) repeats the store's rule r; a rule
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

/* The grid a 3D store holds, its rule (which --rule may only repeat)
 * matching its size, and its generation. */
static int from_store(const opts3d *o, gg_rule3d *r, gg_grid3d *g,
                      int64_t *generation, gg_err *err)
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

/* OUT, the store and the picture once the run ended: 0 or -1 with err. */
static int outputs3d(const opts3d *o, run3d *x, const gg_rule3d *r,
                     const char *comments, gg_err *err)
{
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
static int probe3d(const opts3d *o, gg_err *err)
{
    return (o->out && strcmp(o->out, "-") && gg_atomic_probe(o->out, err)) ||
                   (o->store && gg_atomic_probe(o->store, err))
               ? -1
               : 0;
}

/* The run once the grid is loaded: exit status (err said on failure). */
static int run_loaded(const opts3d *o, gg_rule3d *r, gg_grid3d *g,
                      int64_t first, const char *comments,
                      const gg_config *cfg, gg_err *err)
{
    gg_backend_opts bo = {.config = cfg, .threads = (int)o->threads,
                          .announce = isatty(2)};
    gg_auto_line line;
    gg_fail_kind why;
    run3d x = {.g = g, .first = first, .store = o->store, .every = o->every};
    gg_rule3d_format(r, x.rule, sizeof x.rule);
    gg_run_progress_init(&x.ps, o->progress, o->gens);
    if (gg_generations_check(first, o->gens, err))
        return GG_EXIT_USAGE;
    if (gg_backend3d_open(o->backend, r, &bo, &x.b, &line, &why, err))
        return gg_fail_exit_status(why);
    if (!o->backend)
        fprintf(stderr, "golgen: %s\n", line.text);
    double t0 = gg_cli_now();
    int status = gg_cli_run_frames(&o->pics, o->gens, advance3d, draw3d, &x,
                                   err);
    if (!status)
        fprintf(stderr, "generation %lld, population %lld (%.3f s, %s)\n",
                (long long)(first + x.reached),
                (long long)gg_grid3d_population(g), gg_cli_now() - t0,
                gg_backend3d_table(x.b)->name);
    gg_backend3d_close(x.b);
    if (!status && outputs3d(o, &x, r, comments, err))
        status = GG_EXIT_USAGE;
    if (!status)
        status = gg_cli_write_png(&o->pics, draw3d, &x, err);
    return status ? status
                  : gg_run_stop_report(x.reached, o->gens, o->out != NULL);
}

int gg_cmd_run3d(int argc, char **argv, const gg_config *cfg)
{
    opts3d o;
    gg_err err;
    int parsed = parse3d(argc, argv, &o, &err);
    if (parsed)
        return parsed > 0 ? GG_EXIT_OK
                          : gg_cli_error("run", GG_EXIT_USAGE, &err);
    int ready = gg_cli_pictures_ready(&o.pics, &err);
    if (ready)
        return gg_cli_error("run", ready, &err);
    gg_rle3 p = {0};
    gg_rule3d r;
    gg_grid3d g = {0};
    int64_t first = 0;
    int bad = probe3d(&o, &err) ||
              (o.resume ? from_store(&o, &r, &g, &first, &err)
                        : gg_rle3_read(o.in, &p, &err) ||
                              from_pattern(&o, &p, &r, &g, &err));
    if (!o.resume)
        first = p.gen;
    int status = bad ? GG_EXIT_USAGE
                     : run_loaded(&o, &r, &g, first,
                                  o.resume ? NULL : p.comments, cfg, &err);
    gg_grid3d_free(&g);
    gg_rle3_free(&p);
    /* a stop signal's status (130, 143, 129) was said already */
    return status && status < 128 ? gg_cli_error("run", status, &err)
                                  : status;
}

/* golgen run: simulate a pattern and write the result. */
#include <getopt.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "atomic_file.h"
#include "cli_pictures.h"
#include "cli_util.h"
#include "run_control.h"
#include "run3d.h"
#include "run_gen.h"
#include "commands.h"
#include "backend.h"
#include "band_stepper.h"
#include "store.h"
#include "universe.h"

/* The built-in default: the R-pentomino, which settles at generation 1103
 * with 116 cells. */
static const char default_pattern[] =
    "#N R-pentomino\nx = 3, y = 3, rule = B3/S23\nb2o$2o$bo!\n";

static void usage(FILE *out)
{
    char names[256];
    gg_cli_backend_names(names, sizeof names);
    fprintf(out,
            "usage: golgen run --gens N [--rule RULE] [--backend %s] "
            "[-o OUT.rle] [--progress]\n"
            "                  [--png FILE] [--frames DIR --every N] "
            "[--window X,Y,W,H] [IN]\n\n"
            "Simulate pattern file IN (RLE, .cells, Life 1.06 or .mc; - for "
            "stdin; the\nR-pentomino when omitted) for N generations and "
            "write the result to OUT in the\nformat its name asks for (.rle, "
            ".cells, .lif, .mc; - for RLE on stdout).\nRULE overrides the file's "
            "rule (default B3/S23); add :TW,H for a torus or :PW,H\nfor a "
            "bounded plane, otherwise the plane is unbounded as in Golly.\n"
            "--backend auto (the default) takes the fastest backend that runs "
            "here and passes\nvalidation (cuda, ptx, cpu, reference) and says "
            "which on stderr.\n"
            "--store S.ggu writes the universe store (runtime/store.h) at "
            "the end, and every N\ngenerations with --checkpoint-every N; "
            "SIGINT, SIGTERM and SIGHUP stop the run\nafter the batch in "
            "flight and write OUT and the store first (exit 130, 143,\n"
            "129). --resume S.ggu continues a store for N more generations "
            "(no IN; the\nstore's rule, which --rule may only repeat). "
            "Two-state rules only, so far.\n"
            "--device-mem BYTES (e.g. 8G) bounds what the backend holds: a "
            "larger grid\nstreams through it in bands of rows with a halo "
            "(bit-identical results).\n",
            names);
    gg_cli_pictures_usage(out, false);
}

typedef struct run_opts {
    const char *rule, *out, *in;
    const gg_backend_info *backend;
    const char *backend_name; /* as given; NULL: the default */
    const gg_config *cfg;
    int64_t gens;
    bool progress;
    gg_cli_pictures pics; /* --png, --frames... (cli/cli_pictures.h) */
    const char *store, *resume; /* --store, --resume (runtime/store.h) */
    int64_t every;              /* --checkpoint-every; 0: at the end only */
    int64_t device_mem;         /* --device-mem bytes; 0: no limit */
} run_opts;

static int parse_args(int argc, char **argv, run_opts *o, gg_err *err)
{
    static const struct option opts[] = {
        {"rule", required_argument, 0, 'r'},
        {"gens", required_argument, 0, 'g'},
        {"backend", required_argument, 0, 'b'},
        {"output", required_argument, 0, 'o'},
        {"progress", no_argument, 0, 'p'},
        {"help", no_argument, 0, 'h'},
        {"store", required_argument, 0, 'S'},
        {"checkpoint-every", required_argument, 0, 'C'},
        {"resume", required_argument, 0, 'R'},
        {"device-mem", required_argument, 0, 'M'},
        GG_CLI_PICTURE_OPTIONS,
        {0, 0, 0, 0}};
    memset(o, 0, sizeof *o);
    const char *backend = NULL; /* NULL: auto */
    o->gens = -1;
    o->progress = isatty(2);
    int c;
    while ((c = getopt_long(argc, argv, "r:g:b:o:ph", opts, NULL)) != -1) {
        switch (c) {
        case 'r': o->rule = optarg; break;
        case 'g':
            if (gg_cli_int("--gens", optarg, 0, INT64_MAX / 2, &o->gens, err))
                return -1;
            break;
        case 'b': backend = optarg; break;
        case 'o': o->out = optarg; break;
        case 'p': o->progress = true; break;
        case 'S': o->store = optarg; break;
        case 'R': o->resume = optarg; break;
        case 'M':
            if (gg_cli_bytes("--device-mem", optarg, &o->device_mem, err))
                return -1;
            break;
        case 'C':
            if (gg_cli_int("--checkpoint-every", optarg, 1, INT64_MAX / 2,
                           &o->every, err))
                return -1;
            break;
        case 'h': usage(stdout); exit(GG_EXIT_OK);
        default:
            switch (gg_cli_picture_option(c, optarg, &o->pics, err)) {
            case 0: break;
            case 1: return gg_fail(err, "see 'golgen run --help'");
            default: return -1;
            }
        }
    }
    if (o->gens < 0)
        return gg_fail(err, "--gens N is required");
    if (optind < argc - 1)
        return gg_fail(err, "one input pattern at most, got %d",
                       argc - optind);
    o->in = optind < argc ? argv[optind] : NULL;
    o->backend_name = backend;
    if (o->resume && o->in)
        return gg_fail(err, "--resume %s continues that store: drop the "
                       "input pattern %s", o->resume, o->in);
    if (o->every && !o->store)
        return gg_fail(err, "--checkpoint-every N needs --store S.ggu (the "
                       "file the checkpoints go to)");
    return gg_cli_backend(backend, &o->backend, err);
}

/* 1 (with the exit status in *gen_rc) when a Generations rule was run
 * instead: cli/run_gen.c. */
/* The universe a store holds; --rule may only repeat its rule. */
static int load_store(const run_opts *o, gg_universe *u, gg_err *err)
{
    if (gg_store_read(o->resume, u, err))
        return -1;
    gg_rule given;
    if (o->rule && (gg_rule_parse(o->rule, &given, err) ||
                    !gg_rule_same_transition(&given, &u->rule) ||
                    given.topo != u->rule.topo ||
                    given.width != u->rule.width ||
                    given.height != u->rule.height)) {
        char text[256];
        gg_rule_format(&u->rule, text, sizeof text);
        gg_universe_free(u);
        return gg_fail(err, "--rule %s is not the rule of store %s (%s): "
                       "drop --rule to continue it", o->rule, o->resume,
                       text);
    }
    return 0;
}

static int load(const run_opts *o, gg_universe *u, int *gen_rc, gg_err *err)
{
    if (o->resume)
        return load_store(o, u, err);
    gg_pattern p;
    int bad = o->in ? gg_pattern_read(o->in, &p, err)
                    : gg_pattern_parse(default_pattern, strlen(default_pattern),
                                       "built-in R-pentomino", &p, err);
    if (bad)
        return -1;
    gg_rule rule;
    const char *text = o->rule ? o->rule : p.rule ? p.rule : "B3/S23";
    bad = gg_rule_parse(text, &rule, err);
    if (!bad && gg_rule_is_generations(&rule) && o->store) {
        gg_pattern_free(&p);
        return gg_fail(err, "--store keeps two-state universes only so far; "
                       "run this Generations rule without it");
    }
    if (!bad && gg_rule_is_generations(&rule)) {
        gg_backend_opts bo = {.config = o->cfg, .announce = isatty(2)};
        *gen_rc = gg_run_generations(&rule, &p, o->backend, &bo, o->gens,
                                     o->progress, o->out, &o->pics);
        gg_pattern_free(&p);
        return 1;
    }
    bad = bad || gg_universe_from_pattern(u, &rule, &p, err);
    gg_pattern_free(&p);
    return bad ? -1 : 0;
}

static int write_pattern(const char *path, const gg_pattern *p, gg_err *err)
{
    if (strcmp(path, "-"))
        return gg_pattern_write(path, p, err); /* format by name */
    char *text = NULL;
    size_t len = 0;
    int bad = gg_pattern_format_rle(p, &text, &len, err);
    if (!bad && (fwrite(text, 1, len, stdout) != len || fflush(stdout)))
        bad = gg_fail(err, "writing the pattern to stdout failed");
    free(text);
    return bad;
}

/* Write the result; if OUT cannot be written after all, keep the work in a
 * rescue file in $TMPDIR rather than lose a long run. */
static int save(const run_opts *o, const gg_universe *u, const char *tmp,
                gg_err *err)
{
    gg_pattern p;
    if (gg_universe_to_pattern(u, &p, err))
        return -1;
    int bad = write_pattern(o->out, &p, err);
    if (bad && strcmp(o->out, "-")) {
        char rescue[256];
        gg_err ignored;
        snprintf(rescue, sizeof rescue, "%s/golgen-rescue-%ld.rle", tmp,
                 (long)getpid());
        if (!gg_pattern_write_rle(rescue, &p, &ignored)) {
            size_t n = strlen(err->msg);
            snprintf(err->msg + n, sizeof err->msg - n,
                     "; the result was saved to %.200s instead", rescue);
        }
    }
    gg_pattern_free(&p);
    return bad;
}

/* Fail before a long run, not after it, when OUT cannot be created. */
static int probe_output(const char *path, gg_err *err)
{
    if (!path || !strcmp(path, "-"))
        return 0;
    return gg_pattern_check_output(path, err);
}

/* The universe as --frames and --png see it (cli/cli_pictures.h). */
typedef struct run2d {
    gg_universe *u;
    const gg_stepper *stepper;
    gg_run_progress ps;
    const char *store; /* checkpoints every `every` generations */
    int64_t every, since;
} run2d;

/* gens generations (fewer after a stop signal), in parts that end at
 * each checkpoint. */
static int advance2d(void *ctx, int64_t gens, bool *stopped, gg_err *err)
{
    run2d *r = ctx;
    for (int64_t done = 0; done < gens && !gg_run_stopped();) {
        int64_t n = gens - done, before = r->u->generation;
        if (r->every > 0 && n > r->every - r->since)
            n = r->every - r->since;
        if (gg_universe_run(r->u, r->stepper, n, gg_run_progress_cb, &r->ps,
                            err))
            return -1;
        int64_t ran = r->u->generation - before;
        done += ran;
        r->ps.base += ran;
        r->since += ran;
        if (r->every > 0 && r->since >= r->every) {
            if (gg_store_write(r->store, r->u, err))
                return -1;
            r->since = 0;
        }
    }
    *stopped = gg_run_stopped();
    return 0;
}

static int draw2d(void *ctx, const char *path, const gg_picture_opts *o,
                  gg_picture_info *info, gg_err *err)
{
    run2d *r = ctx;
    return gg_picture_write_universe(path, r->u, o, info, err);
}

int gg_cmd_run(int argc, char **argv, const gg_config *cfg)
{
    if (gg_cli_is_3d(argc, argv, false)) /* 3D rules, RLE3: cli/run3d.c */
        return gg_cmd_run3d(argc, argv, cfg);
    run_opts o;
    gg_err err;
    gg_universe u;
    if (parse_args(argc, argv, &o, &err))
        return gg_cli_error("run", GG_EXIT_USAGE, &err);
    int gen_rc = -1;
    o.cfg = cfg;
    int status = gg_cli_pictures_ready(&o.pics, &err);
    if (status)
        return gg_cli_error("run", status, &err);
    if (probe_output(o.out, &err) ||
        (o.store && gg_atomic_probe(o.store, &err)) ||
        load(&o, &u, &gen_rc, &err))
        return gen_rc >= 0 ? gen_rc
                           : gg_cli_error("run", GG_EXIT_USAGE, &err);
    gg_backend *b;
    gg_backend_opts bo = {.config = cfg, .announce = isatty(2)};
    if (gg_cli_open_backend(o.backend, &u.rule, &bo, &b, &status, &err)) {
        gg_universe_free(&u);
        return gg_cli_error("run", status, &err);
    }
    gg_stepper whole = gg_backend_stepper(b);
    /* a band and its copy (two buffers) within --device-mem */
    gg_band_stepper bands = {&whole, o.device_mem ? o.device_mem * 4 : 0, 0};
    gg_stepper stepper = o.device_mem ? gg_band_stepper_view(&bands) : whole;
    run2d r = {.u = &u, .stepper = &stepper, .store = o.store,
               .every = o.every};
    gg_run_progress_init(&r.ps, o.progress, o.gens);
    double start = gg_cli_now();
    gg_run_stop_install(); /* Ctrl-C, SIGTERM: write what was reached */
    int64_t first = u.generation;
    status = gg_cli_run_frames(&o.pics, o.gens, advance2d, draw2d, &r, &err);
    gg_run_stop_restore();
    double seconds = gg_cli_now() - start;
    gg_backend_close(b);
    if (bands.bands_run)
        fprintf(stderr, "golgen: streamed through %s in %lld bands "
                "(--device-mem %lld bytes)\n", stepper.name,
                (long long)bands.bands_run, (long long)o.device_mem);
    if (status) { /* the backend failed part way, or a frame */
        gg_universe_free(&u);
        return gg_cli_error("run", status, &err);
    }
    if (o.out && save(&o, &u, cfg->tmpdir, &err)) {
        gg_universe_free(&u);
        int rc = gg_cli_error("run", GG_EXIT_USAGE, &err);
        return gg_run_stopped() ? gg_run_stop_status() : rc;
    }
    if (o.store && gg_store_write(o.store, &u, &err)) {
        gg_universe_free(&u);
        int rc = gg_cli_error("run", GG_EXIT_USAGE, &err);
        return gg_run_stopped() ? gg_run_stop_status() : rc;
    }
    status = gg_cli_write_png(&o.pics, draw2d, &r, &err);
    if (status) {
        gg_universe_free(&u);
        int rc = gg_cli_error("run", status, &err);
        return gg_run_stopped() ? gg_run_stop_status() : rc;
    }
    char rule[128];
    gg_rule_format(&u.rule, rule, sizeof rule);
    fprintf(stderr, "%s: generation %lld, population %lld, %.3f s (%s)\n",
            rule, (long long)u.generation,
            (long long)gg_universe_population(&u), seconds, stepper.name);
    int64_t reached = u.generation - first;
    gg_universe_free(&u);
    return gg_run_stop_report(reached, o.gens, o.out != NULL);
}

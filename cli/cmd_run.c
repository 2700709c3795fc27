/* golgen run: simulate a pattern and write the result. */
#include <getopt.h>
#include <signal.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "atomic_file.h"
#include "cli_util.h"
#include "run3d.h"
#include "run_gen.h"
#include "commands.h"
#include "backend.h"
#include "universe.h"

/* The built-in default: the R-pentomino, which settles at generation 1103
 * with 116 cells. */
static const char default_pattern[] =
    "#N R-pentomino\nx = 3, y = 3, rule = B3/S23\nb2o$2o$bo!\n";

static void usage(FILE *out)
{
    char names[256];
    gg_backend_names("|", names, sizeof names);
    fprintf(out,
            "usage: golgen run --gens N [--rule RULE] [--backend %s] "
            "[-o OUT.rle] [--progress] [IN]\n\n"
            "Simulate pattern file IN (RLE, .cells or Life 1.06; - for stdin; "
            "the R-pentomino\nwhen omitted) for N generations and write the "
            "result as RLE to OUT (- for stdout).\nRULE overrides the file's "
            "rule (default B3/S23); add :TW,H for a torus or :PW,H\nfor a "
            "bounded plane, otherwise the plane is unbounded as in Golly.\n",
            names);
}

typedef struct run_opts {
    const char *rule, *out, *in;
    const gg_backend_info *backend;
    const char *backend_name; /* as given; NULL: the default */
    int64_t gens;
    bool progress;
} run_opts;

/* Ctrl-C: finish the batch in flight, then write what was reached. */
static volatile sig_atomic_t interrupted;

static void on_sigint(int sig)
{
    (void)sig;
    interrupted = 1;
}

typedef struct progress_state {
    double last;
    bool show;
} progress_state;

static bool on_progress(void *ctx, int64_t done, int64_t total)
{
    progress_state *ps = ctx;
    double t = gg_cli_now();
    if (ps->show && (t - ps->last >= 1.0 || done == total)) {
        ps->last = t;
        fprintf(stderr, "\rgeneration %lld of %lld (%.0f%%)",
                (long long)done, (long long)total,
                100.0 * (double)done / (double)total);
        if (done == total)
            fputc('\n', stderr);
    }
    return !interrupted;
}

static int parse_args(int argc, char **argv, run_opts *o, gg_err *err)
{
    static const struct option opts[] = {
        {"rule", required_argument, 0, 'r'},
        {"gens", required_argument, 0, 'g'},
        {"backend", required_argument, 0, 'b'},
        {"output", required_argument, 0, 'o'},
        {"progress", no_argument, 0, 'p'},
        {"help", no_argument, 0, 'h'},
        {0, 0, 0, 0}};
    memset(o, 0, sizeof *o);
    const char *backend = NULL; /* NULL: gg_backend_default_run */
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
        case 'h': usage(stdout); exit(GG_EXIT_OK);
        default: return gg_fail(err, "see 'golgen run --help'");
        }
    }
    if (o->gens < 0)
        return gg_fail(err, "--gens N is required");
    if (optind < argc - 1)
        return gg_fail(err, "one input pattern at most, got %d",
                       argc - optind);
    o->in = optind < argc ? argv[optind] : NULL;
    o->backend_name = backend;
    return gg_cli_backend(backend, gg_backend_default_run(), &o->backend,
                          err);
}

/* 1 (with the exit status in *gen_rc) when a Generations rule was run
 * instead: cli/run_gen.c. */
static int load(const run_opts *o, gg_universe *u, int *gen_rc, gg_err *err)
{
    gg_pattern p;
    int bad = o->in ? gg_pattern_read(o->in, &p, err)
                    : gg_pattern_parse(default_pattern, strlen(default_pattern),
                                       "built-in R-pentomino", &p, err);
    if (bad)
        return -1;
    gg_rule rule;
    const char *text = o->rule ? o->rule : p.rule ? p.rule : "B3/S23";
    bad = gg_rule_parse(text, &rule, err);
    if (!bad && gg_rule_is_generations(&rule)) {
        *gen_rc = gg_run_generations(&rule, &p, o->backend_name, o->gens,
                                     o->out);
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
        return gg_pattern_write_rle(path, p, err);
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
    return gg_atomic_probe(path, err);
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
    if (probe_output(o.out, &err) || load(&o, &u, &gen_rc, &err))
        return gen_rc >= 0 ? gen_rc
                           : gg_cli_error("run", GG_EXIT_USAGE, &err);
    gg_backend *b;
    gg_fail_kind why;
    gg_backend_opts bo = {.config = cfg, .announce = isatty(2)};
    if (gg_backend_open(o.backend, &u.rule, &bo, &b, &why, &err)) {
        gg_universe_free(&u);
        return gg_cli_error("run", gg_fail_exit_status(why), &err);
    }
    gg_stepper stepper = gg_backend_stepper(b);
    progress_state ps = {gg_cli_now(), o.progress};
    double start = ps.last;
    signal(SIGINT, on_sigint);
    int64_t first = u.generation;
    int bad = gg_universe_run(&u, &stepper, o.gens, on_progress, &ps, &err);
    signal(SIGINT, SIG_DFL);
    double seconds = gg_cli_now() - start;
    gg_backend_close(b);
    if (bad) { /* the backend failed part way: an environment problem */
        gg_universe_free(&u);
        return gg_cli_error("run", GG_EXIT_ENV, &err);
    }
    if (o.out && save(&o, &u, cfg->tmpdir, &err)) {
        gg_universe_free(&u);
        int rc = gg_cli_error("run", GG_EXIT_USAGE, &err);
        return interrupted ? 130 : rc; /* Ctrl-C still says so */
    }
    char rule[128];
    gg_rule_format(&u.rule, rule, sizeof rule);
    fprintf(stderr, "%s: generation %lld, population %lld, %.3f s (%s)\n",
            rule, (long long)u.generation,
            (long long)gg_universe_population(&u), seconds, stepper.name);
    int64_t reached = u.generation - first;
    gg_universe_free(&u);
    if (interrupted) {
        fprintf(stderr, "golgen run: interrupted after %lld of %lld "
                "generations%s\n", (long long)reached,
                (long long)o.gens, o.out ? "; the result so far was written"
                                         : "");
        return 130; /* the shell's convention for SIGINT */
    }
    return GG_EXIT_OK;
}

/* golgen run for 3D rules: the options read and checked, the run
 * golgen_run_3d's (include/golgen.h; lib/run3d.c), its lines said here;
 * and which arguments name a 3D rule, for run, bench and rule. */
#include "run3d.h"

#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "golgen.h"

#include "cli_args.h"
#include "cli_pictures.h"
#include "run_control.h"

static bool ends_with(const char *s, const char *suffix)
{
    size_t n = strlen(s), m = strlen(suffix);
    return n >= m && !strcmp(s + n - m, suffix);
}

/* A store whose header says it holds a 3D grid; false also when it
 * cannot be read, which the run then says. */
static bool store_is_3d(const char *path)
{
    golgen_store_info *s;
    if (golgen_store_info_read(path, &s, NULL, 0))
        return false;
    bool deep = s->depth > 0;
    golgen_store_info_free(s);
    return deep;
}

bool gg_cli_is_3d(int argc, char **argv, bool positional_rule)
{
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if ((!strcmp(a, "--rule") || !strcmp(a, "-r")) && i + 1 < argc)
            return golgen_rule_is_3d(argv[i + 1]);
        if (!strncmp(a, "--rule=", 7))
            return golgen_rule_is_3d(a + 7);
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
        if (positional_rule ? golgen_rule_is_3d(a)
                            : ends_with(a, ".rle3") || golgen_file_is_rle3(a))
            return true;
    }
    return false;
}

/* ---- golgen run --rule 3D... ---- */

static void run_usage(FILE *out)
{
    char names[256];
    golgen_backend_names("3d", "|", names, sizeof names);
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

/* What the command line asks of a 3D run. */
typedef struct opts3d {
    golgen_run3d_opts run; /* what the library runs */
    int64_t threads;
    bool progress;
    gg_cli_pictures pics;
} opts3d;

/* An option 2D runs take: 0 when the 3D family takes it too (the
 * registry's one place, golgen_backend_takes), else -1 with msg. */
static int refused(const char *name, char *msg)
{
    static const char *const features[] = {"host-mem", "device-mem",
                                           "devices"};
    for (size_t i = 0; i < sizeof features / sizeof features[0]; i++)
        if (!strcmp(name, features[i]))
            return golgen_backend_takes(NULL, "3d", features[i], msg,
                                        GG_CLI_MSG)
                       ? -1
                       : 0;
    /* --engine, --mem: the hash tree is an engine, not a backend */
    return gg_cli_fail(msg, "3D rules do not take --%s yet (the hash tree "
                       "holds 2D universes); run without it", name);
}

/* A whole number option in [min, max]: 0, or -1 with msg. */
static int whole(const char *option, int64_t min, int64_t max,
                 int64_t *value, char *msg)
{
    return gg_cli_parse_int(option, optarg, min, max, value, msg,
                            GG_CLI_MSG);
}

/* 0, 1 after --help (printed), or -1 with msg (a usage error). */
static int parse3d(int argc, char **argv, opts3d *o, char *msg)
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
    golgen_run3d_opts *r = &o->run;
    int c, at = -1;
    *o = (opts3d){.run.gens = -1, .progress = isatty(2)};
    optind = 1;
    opterr = 0; /* our messages name golgen and the cause */
    while ((c = getopt_long(argc, argv, ":r:g:b:o:ph", opts, &at)) != -1) {
        switch (c) {
        case 'X': return refused(opts[at].name, msg);
        case '?':
        case ':':
            return gg_cli_fail(msg, "%s option '%s' for a 3D rule; see "
                               "'golgen run --help' (with a 3D rule)",
                               c == ':' ? "a value is missing after the"
                                        : "unknown", argv[optind - 1]);
        case 'r': r->rule = optarg; break;
        case 'g':
            if (whole("--gens", 0, INT64_MAX / 2, &r->gens, msg))
                return -1;
            break;
        case 'b': r->backend = optarg; break;
        case 'o': r->out = optarg; break;
        case 't':
            if (whole("--threads", 1, 4096, &o->threads, msg))
                return -1;
            break;
        case 'p': o->progress = true; break;
        case 'S': r->store = optarg; break;
        case 'R': r->resume = optarg; break;
        case 'C':
            if (whole("--checkpoint-every", 1, INT64_MAX / 2,
                      &r->checkpoint_every, msg))
                return -1;
            break;
        case 'h': run_usage(stdout); return 1;
        default:
            switch (gg_cli_picture_option(c, optarg, &o->pics, msg,
                                          GG_CLI_MSG)) {
            case 0: break;
            case 1: return gg_cli_fail(msg, "see 'golgen run --help'");
            default: return -1;
            }
        }
    }
    r->in = optind < argc ? argv[optind] : NULL;
    if (r->gens < 0)
        return gg_cli_fail(msg, "--gens N is required");
    if (optind < argc - 1 || (r->resume && r->in))
        return gg_cli_fail(msg, "one input at most: IN.rle3, or --resume "
                           "S.ggu");
    if (!r->in && !r->resume)
        return gg_cli_fail(msg, "a 3D rule needs an RLE3 pattern file "
                           "(IN.rle3, as Golly's 3D.lua saves) or --resume "
                           "S.ggu");
    if (r->checkpoint_every && !r->store)
        return gg_cli_fail(msg, "--checkpoint-every N needs --store S.ggu "
                           "(the file the checkpoints go to)");
    return golgen_backend_takes(r->backend, "3d", "run", msg, GG_CLI_MSG)
               ? -1
               : 0;
}

/* auto's choice, said as soon as the backend is open (before a run that
 * may take minutes). */
static void said_auto(void *ctx, const golgen_run3d_result *res)
{
    (void)ctx;
    if (res->auto_line[0])
        fprintf(stderr, "golgen: %s\n", res->auto_line);
}

/* Progress lines (cli/run_control.h); 0 once a stop signal came. */
static int progress(void *ctx, int64_t done, int64_t total)
{
    return gg_run_progress_cb(ctx, done, total);
}

/* cfg is unread: the library reads the same environment main did. */
int gg_cmd_run3d(int argc, char **argv, const gg_config *cfg)
{
    opts3d o;
    char msg[GG_CLI_MSG];
    (void)cfg;
    int parsed = parse3d(argc, argv, &o, msg);
    if (parsed)
        return parsed > 0 ? GG_EXIT_OK : gg_cli_say("run", GG_EXIT_USAGE, msg);
    if (gg_cli_pictures_check(&o.pics, msg, sizeof msg))
        return gg_cli_say("run", GG_EXIT_USAGE, msg);
    gg_run_progress ps;
    gg_run_progress_init(&ps, o.progress, o.run.gens);
    golgen_run3d_opts *r = &o.run;
    r->threads = (int)o.threads;
    r->announce = isatty(2);
    r->png = o.pics.png;
    r->frames = o.pics.frames;
    r->frame_every = o.pics.every;
    r->picture = o.pics.pic;
    r->stop = gg_run_stop_flag();
    r->on_progress = progress;
    r->on_open = said_auto;
    r->ctx = &ps;
    golgen_run3d_result res;
    int code = golgen_run_3d(r, &res, msg, sizeof msg);
    if (res.ran)
        fprintf(stderr, "generation %lld, population %lld (%.3f s, %s)\n",
                (long long)res.generation, (long long)res.population,
                res.seconds, res.backend);
    if (code)
        return gg_cli_say("run", gg_cli_status(code), msg);
    if (res.png_written)
        gg_cli_say_png(r->png, &res.png_info);
    return gg_run_stop_report(res.reached, r->gens, r->out != NULL);
}

/* golgen run: simulate a pattern and write the result. The options are
 * read here; the run is golgen_run_2d's (include/golgen/run.h, lib/run*.c:
 * every 2D family, engine and way to scale), 3D rules golgen_run_3d's
 * (cli/run3d.c); the lines it says go to stderr as it says them, and
 * SIGINT, SIGTERM and SIGHUP stop it (cli/run_control.h). */
#include <getopt.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "golgen.h"

#include "cli_args.h"
#include "cli_pictures.h"
#include "cli_rank.h"
#include "commands.h"
#include "run3d.h"
#include "run_control.h"
#include "search_hook.h"

static void usage(FILE *out)
{
    char names[256] = "auto|";
    golgen_backend_names("two-state", "|", names + strlen(names),
                         sizeof names - strlen(names));
    fprintf(out,
            "usage: golgen run --gens N [--rule RULE] [--backend %s] "
            "[-o OUT.rle] [--progress]\n"
            "                  [--engine auto|dense|tiles|hashlife] [--mem BYTES] "
            "[--tree-leaf N]\n"
            "                  [--png FILE] [--frames DIR --every N] "
            "[--window X,Y,W,H]\n                  [--rules DIR] [IN]\n\n"
            "Simulate pattern file IN (RLE, .cells, Life 1.06, .mc or .mcl; - for "
            "stdin; the\nR-pentomino when omitted) for N generations and "
            "write the result to OUT in the\nformat its name asks for (.rle, "
            ".cells, .lif, .mc; - for RLE on stdout).\nRULE overrides the file's "
            "rule (default B3/S23); add :TW,H for a torus or :PW,H\nfor a "
            "bounded plane, otherwise the plane is unbounded as in Golly.\n"
            "A RULE that names a Golly rule file (WireWorld, Langtons-Loops) is "
            "read from\nNAME.rule beside IN, in --rules DIR, then in "
            "/usr/share/golly/Rules; such\nrules run compiled on cpu, opencl, "
            "cuda and ptx (auto: cpu) or on the reference.\n"
            "--backend auto (the default) takes the fastest backend that runs "
            "here and passes\nvalidation (ptx, cuda, cpu, reference) and says "
            "which on stderr.\n"
            "--engine auto (the default) runs a rule on the unbounded plane "
            "in a hash tree\n(HashLife: memoized futures of repeated regions, "
            "any generation count to 2^62\nat once; its leaves, with "
            "Generations states as planes, stepped by the\nbackend on one "
            "thread, are 32x32 cells, 16x16 for costly networks,\n4x4 for "
            "rule tables but on busy soups; --tree-leaf 4|8|16|32|64 sets "
            "them)\nunless the pattern is a busy box (2^22 cells or more,\n"
            "over 1/32 alive) run for fewer than 4 times its longer side; "
            "otherwise, and\nfor tori, bounded planes and the options "
            "below, the dense grid, stepped as\nactive tiles on cpu, cuda and "
            "ptx (tiles: 256x256 cells, where only those near a\nchange in "
            "the last 32 generations are stepped; dense steps the whole grid). "
            "It says\nwhich on stderr. B0 rules on the plane run as Golly "
            "emulates them (in the tree: with S<max>\nits conjugate, without "
            "both rules by parity); Golly's other grids (:K, :C,\n:S, "
            "shifted :T, tubes) run dense, with -o only.\n--mem BYTES bounds the run's memory (default "
            "a quarter of the machine's; the\ntree takes two thirds): past "
            "it unreachable nodes are collected and the run\ngoes on in "
            "smaller steps. A .mc OUT is written from the tree at any size;\n"
            "other formats need the live box to fit 2^34 cells; --png draws "
            "it at any size\n(a power-of-two square of cells a pixel past "
            "2^26 cells, shaded by its\npopulation). --frames runs dense.\n"
            "--store S.ggu writes the universe store (runtime/formats/store.h) "
            "at the end,\nand every N generations with --checkpoint-every N "
            "(the hash tree checkpoints\ninto OUT.mc instead: run that file "
            "to resume); "
            "two-state, Generations,\nLarger than Life and rule-table "
            "rules. SIGINT, SIGTERM and SIGHUP\nstop the run within "
            "about a second and write OUT and the store first, at the\nlast "
            "generation completed (exit 130, 143, 129); one that comes while "
            "the\nbackend opens writes generation 0. A signal ignored at the "
            "start stays ignored\n(nohup's SIGHUP).\n"
            "--resume S.ggu continues a store for N more "
            "generations (no IN; the store's\nrule, which --rule may only "
            "repeat; a rule table's file is found again beside\nthe store, "
            "in --rules DIR or in Golly's Rules folder).\n"
            "--host-mem BYTES (e.g. 64M) with --resume IN.ggu --store "
            "OUT.ggu runs a bounded\nuniverse (:T or :P) from store to "
            "store band by band, never whole in memory;\neach pass of T "
            "generations is written (the store equals the in-memory run's).\n"
            "--device-mem BYTES (e.g. 8G) bounds what the backend holds: a "
            "larger grid\nstreams through it in bands of rows with a halo "
            "(bit-identical results).\n"
            "--devices LIST (e.g. 0,1; 0,0 for two bands on GPU 0) holds one "
            "band of rows per\ndevice, halos exchanged every T generations "
            "(bit-identical results).\nA small pattern on a bounded grid "
            "(--devices, or --engine dense on cuda and ptx)\nlives on the "
            "devices alone: only its live rows come down at the end (not "
            "with\n--store, --png, --frames, --device-mem or ranks).\n"
            "Under mpirun each rank runs a band of rows of a bounded grid "
            "(:T or :P) on its\nown backend, halos exchanged every T "
            "generations; rank 0 reads IN and writes.\n",
            names);
    gg_cli_pictures_usage(out, false);
}

/* What the command line asks of a run. */
typedef struct run_opts {
    golgen_run2d_opts run; /* what the library runs */
    bool progress;
    gg_cli_pictures pics;
    /* progress lines: the tree's inside a long step are blanked (wide:
     * the last one's length) before a shorter line is written over it */
    gg_run_progress ps;
    int wide;
} run_opts;

/* --tree-leaf N: 4, 8, 16, 32 or 64 cells a side. */
static int tree_leaf_option(const char *arg, int *side, char *msg)
{
    int64_t v;
    if (gg_cli_parse_int("--tree-leaf", arg, 4, 64, &v, msg, GG_CLI_MSG))
        return -1;
    if (v & (v - 1))
        return gg_cli_fail(msg, "--tree-leaf %s: a leaf is 4, 8, 16, 32 or "
                           "64 cells a side", arg);
    *side = (int)v;
    return 0;
}

/* 0, or -1 with msg (a usage error). */
static int parse_args(int argc, char **argv, run_opts *o, char *msg)
{
    static const struct option opts[] = {
        {"rule", required_argument, 0, 'r'},
        {"gens", required_argument, 0, 'g'},
        {"backend", required_argument, 0, 'b'},
        {"output", required_argument, 0, 'o'},
        {"progress", no_argument, 0, 'p'},
        {"help", no_argument, 0, 'h'},
        {"host-mem", required_argument, 0, 'H'},
        {"store", required_argument, 0, 'S'},
        {"checkpoint-every", required_argument, 0, 'C'},
        {"resume", required_argument, 0, 'R'},
        {"device-mem", required_argument, 0, 'M'},
        {"devices", required_argument, 0, 'D'},
        {"engine", required_argument, 0, 'E'},
        {"mem", required_argument, 0, 'm'},
        {"rules", required_argument, 0, 'U'},
        {"tree-leaf", required_argument, 0, 'L'},
        /* for tests: when the line on a new rule's search appears
         * (cli/search_hook.h) */
        {"search-note-after", required_argument, 0, 'N'},
        GG_CLI_PICTURE_OPTIONS,
        {0, 0, 0, 0}};
    golgen_run2d_opts *r = &o->run;
    memset(o, 0, sizeof *o);
    r->gens = -1;
    o->progress = isatty(2);
    int c, ordinals[64];
    double secs;
    while ((c = getopt_long(argc, argv, "r:g:b:o:ph", opts, NULL)) != -1) {
        switch (c) {
        case 'r': r->rule = optarg; break;
        case 'g':
            if (gg_cli_parse_int("--gens", optarg, 0, INT64_MAX / 2, &r->gens,
                                 msg, GG_CLI_MSG))
                return -1;
            break;
        case 'b': r->backend = optarg; break;
        case 'o': r->out = optarg; break;
        case 'p': o->progress = true; break;
        case 'S': r->store = optarg; break;
        case 'U': r->rules_dir = optarg; break;
        case 'E': r->engine = optarg; break;
        case 'm':
            if (gg_cli_parse_bytes("--mem", optarg, &r->mem, msg, GG_CLI_MSG))
                return -1;
            break;
        case 'R': r->resume = optarg; break;
        case 'L':
            if (tree_leaf_option(optarg, &r->tree_leaf, msg))
                return -1;
            break;
        case 'M':
            if (gg_cli_parse_bytes("--device-mem", optarg, &r->device_mem,
                                   msg, GG_CLI_MSG))
                return -1;
            break;
        case 'D':
            if (golgen_devices_parse(optarg, ordinals, 64, msg,
                                     GG_CLI_MSG) < 0)
                return -1;
            r->devices = optarg;
            break;
        case 'C':
            if (gg_cli_parse_int("--checkpoint-every", optarg, 1,
                                 INT64_MAX / 2, &r->checkpoint_every, msg,
                                 GG_CLI_MSG))
                return -1;
            break;
        case 'H':
            if (gg_cli_parse_bytes("--host-mem", optarg, &r->host_mem, msg,
                                   GG_CLI_MSG))
                return -1;
            break;
        case 'N':
            if (gg_cli_parse_seconds("--search-note-after", optarg, 1e6,
                                     &secs, msg, GG_CLI_MSG))
                return -1;
            gg_search_note_after(secs);
            break;
        case 'h': usage(stdout); exit(GG_EXIT_OK);
        default:
            switch (gg_cli_picture_option(c, optarg, &o->pics, msg,
                                          GG_CLI_MSG)) {
            case 0: break;
            case 1: return gg_cli_fail(msg, "see 'golgen run --help'");
            default: return -1;
            }
        }
    }
    if (r->gens < 0)
        return gg_cli_fail(msg, "--gens N is required");
    if (optind < argc - 1)
        return gg_cli_fail(msg, "one input pattern at most, got %d",
                           argc - optind);
    r->in = optind < argc ? argv[optind] : NULL;
    if (r->resume && r->in)
        return gg_cli_fail(msg, "--resume %s continues that store: drop the "
                           "input pattern %s", r->resume, r->in);
    r->png = o->pics.png;
    r->frames = o->pics.frames;
    r->frame_every = o->pics.every;
    r->picture = o->pics.pic;
    return 0;
}

/* Progress lines (cli/run_control.h), and inside the hash tree's long
 * step (seconds, all of whose generations arrive at its end) what the
 * tree is doing meanwhile; 0 once a stop signal came. */
static int progress(void *ctx, const golgen_run2d_progress *p)
{
    run_opts *o = ctx;
    if (p->step_log < 0) {
        if (o->wide)
            fprintf(stderr, "\r%*s", o->wide, "");
        o->wide = 0;
        return gg_run_progress_cb(&o->ps, p->done, p->total);
    }
    double now = gg_cli_now();
    if (!o->ps.show || o->ps.all <= 0 || now - o->ps.last < 1.0)
        return 1;
    o->ps.last = now;
    int n = fprintf(stderr, "\rgeneration %lld of %lld (%.0f%%), a step of "
                    "2^%d under way: %lld leaf squares, %lld nodes, %.0f MB",
                    (long long)p->done, (long long)o->ps.all,
                    100.0 * (double)p->done / (double)o->ps.all, p->step_log,
                    (long long)p->leaf_steps, (long long)p->nodes,
                    (double)p->tree_bytes / 1e6);
    if (n > 0 && n < o->wide) /* blank what a longer line left */
        fprintf(stderr, "%*s", o->wide - n, "");
    if (n > o->wide)
        o->wide = n;
    return 1;
}

/* A backend was opened (or tried): a new rule's network search is over,
 * and auto's choice is said before the run. */
static void said_open(void *ctx, const golgen_run2d_result *res)
{
    (void)ctx;
    gg_search_note_finish();
    if (res->auto_line[0])
        fprintf(stderr, "golgen: %s\n", res->auto_line);
}

static void say_note(void *ctx, const char *line)
{
    (void)ctx;
    fprintf(stderr, "%s\n", line);
}

static int run_command(int argc, char **argv, const gg_config *cfg)
{
    char msg[GG_CLI_MSG];
    if (gg_cli_is_3d(argc, argv, false)) /* 3D rules, RLE3: cli/run3d.c */
        return gg_cli_ranks_refuse("3D rules", msg, sizeof msg)
                   ? gg_cli_say("run", GG_EXIT_USAGE, msg)
                   : gg_cmd_run3d(argc, argv, cfg);
    run_opts o;
    if (parse_args(argc, argv, &o, msg))
        return gg_cli_say("run", GG_EXIT_USAGE, msg);
    golgen_run2d_opts *r = &o.run;
    gg_run_progress_init(&o.ps, o.progress && gg_cli_rank() == 0, r->gens);
    r->announce = isatty(2);
    r->on_search = gg_search_note_event;
    r->stop = gg_run_stop_flag();
    r->on_progress = progress;
    r->on_open = said_open;
    r->on_note = say_note;
    r->ctx = &o;
    r->ranks = gg_cli_run_ranks(); /* NULL in one process */
    golgen_run2d_result res;
    char err[2048];
    int code = golgen_run_2d(r, &res, err, sizeof err);
    if (code) {
        int rc = gg_cli_say("run", gg_cli_status(code), err);
        return res.stop_exit ? gg_run_stop_status() : rc;
    }
    if (gg_cli_rank() > 0) /* rank 0 writes and reports */
        return gg_run_stop_status();
    return gg_run_stop_report(res.reached, r->gens, res.written);
}

/* cfg is unread but by 3D's hook: the library reads the same environment
 * main did. */
int gg_cmd_run(int argc, char **argv, const gg_config *cfg)
{
    gg_run_stop_install(); /* Ctrl-C, SIGTERM: write what was reached */
    int rc = run_command(argc, argv, cfg);
    gg_run_stop_restore();
    return rc;
}

/* golgen serve: options, the universe named on the command line, the
 * simulation thread and the server (cli/serve/). */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <unistd.h>

#include "cli_util.h"
#include "commands.h"
#include "pattern_rle3.h"
#include "serve_server.h"

static const char default_pattern[] =
    "#N R-pentomino\nx = 3, y = 3, rule = B3/S23\nb2o$2o$bo!\n";

static void usage(FILE *out)
{
    char names[256];
    gg_cli_backend_names(names, sizeof names);
    fprintf(out,
            "usage: golgen serve [--rule RULE] [--port N] [--backend %s]\n"
            "                    [--address A] [--batch-ms MS] [--fps F] "
            "[PATTERN]\n\n"
            "Serve a live view of a universe to a web browser: open the URL "
            "printed on\nstderr. The page pans and zooms (wheel, drag), runs, "
            "pauses and steps the\nuniverse, draws cells, loads a pasted "
            "pattern or pastes it where you click,\nmakes random soups on a "
            "torus, changes the rule and saves RLE, macrocell or\nPNG (as "
            "downloads). Every family golgen runs is shown: Golly rule "
            "files (found as\ngolgen run finds them; their @COLORS), Larger "
            "than Life, 3D (one z slice at a\ntime). PATTERN (RLE, .cells, "
            "Life 1.06, .mc, .rle3; the R-pentomino when\nomitted) and the "
            "rule file named are the only files read; nothing is written.\n"
            "RULE overrides its rule (:TW,H torus, :PW,H bounded plane). The "
            "server listens on 127.0.0.1 at\nport N (default: a "
            "free port); --address A listens there instead and then\n"
            "requires the random token printed in the URL. Ctrl-C stops it.\n"
            "Running at full speed, the simulation steps in batches of about "
            "33 ms; on the\ncpu backend at least one pass of its kernel (32 "
            "generations over memory)\nwhile that takes up to MS ms (default "
            "%d). Where a batch spans several\nframes (a big bounded "
            "two-state universe on the cpu backend), the frames are\ntaken "
            "from inside the kernel's pass, every few generations: at least F "
            "a second\n(default %d), each of one generation, sent spread over "
            "the next batch; other\nframes show the generation a batch ends "
            "at.\n",
            names, SV_DEFAULT_BATCH_MS, SV_WATCH_FPS);
}

typedef struct serve_opts {
    const char *rule, *in, *backend, *address;
    int64_t port, batch_ms, fps;
} serve_opts;

static int parse_args(int argc, char **argv, serve_opts *o, gg_err *err)
{
    static const struct option opts[] = {
        {"rule", required_argument, 0, 'r'},
        {"port", required_argument, 0, 'p'},
        {"backend", required_argument, 0, 'b'},
        {"address", required_argument, 0, 'a'},
        {"batch-ms", required_argument, 0, 'B'},
        {"fps", required_argument, 0, 'F'},
        {"help", no_argument, 0, 'h'},
        {0, 0, 0, 0}};
    memset(o, 0, sizeof *o);
    o->batch_ms = SV_DEFAULT_BATCH_MS;
    o->fps = SV_WATCH_FPS;
    int c;
    while ((c = getopt_long(argc, argv, "r:p:b:h", opts, NULL)) != -1) {
        switch (c) {
        case 'r': o->rule = optarg; break;
        case 'p':
            if (gg_cli_int("--port", optarg, 0, 65535, &o->port, err))
                return -1;
            break;
        case 'b': o->backend = optarg; break;
        case 'a': o->address = optarg; break;
        case 'B':
            if (gg_cli_int("--batch-ms", optarg, 1, 10000, &o->batch_ms, err))
                return -1;
            break;
        case 'F':
            if (gg_cli_int("--fps", optarg, 1, 1000, &o->fps, err))
                return -1;
            break;
        case 'h': usage(stdout); exit(GG_EXIT_OK);
        default: return gg_fail(err, "see 'golgen serve --help'");
        }
    }
    if (optind < argc - 1)
        return gg_fail(err, "one pattern at most, got %d", argc - optind);
    o->in = optind < argc ? argv[optind] : NULL;
    return 0;
}

/* Whether the file begins as RLE3 does ("3D version=..."). */
static bool is_rle3(const char *path)
{
    char head[64];
    FILE *f = strcmp(path, "-") ? fopen(path, "rb") : NULL;
    if (!f)
        return false;
    size_t n = fread(head, 1, sizeof head, f);
    fclose(f);
    return gg_rle3_sniff(head, n);
}

/* Whether address is this machine's loopback (no token needed). */
static bool loopback(const char *a)
{
    return !a || !strcmp(a, "127.0.0.1") || !strcmp(a, "localhost") ||
           !strcmp(a, "::1");
}

static int make_token(char *tok, size_t size, gg_err *err)
{
    unsigned char r[16];
    if (getrandom(r, sizeof r, 0) != (ssize_t)sizeof r)
        return gg_fail(err, "no random bytes for the token");
    for (size_t i = 0; i < sizeof r && 2 * i + 2 < size; i++)
        snprintf(tok + 2 * i, 3, "%02x", r[i]);
    return 0;
}

/* The cpu kernel's two OpenMP threads meet at a barrier after every pass;
 * by default libgomp's thread that waits there spins (milliseconds) before
 * it sleeps, and beside a page that draws frames on the same cores (the
 * browser, and the server's own thread) one thread is often preempted
 * there: perf of a served 32768^2 torus put 7-9% of golgen's cycles in
 * that spin. libgomp reads OMP_WAIT_POLICY only when golgen starts, so
 * golgen serve starts itself again with the passive policy (a waiting
 * thread sleeps at once), unless the caller chose one. */
static void passive_openmp(int argc, char **argv)
{
    if (getenv("OMP_WAIT_POLICY"))
        return;
    char **args = calloc((size_t)argc + 2, sizeof *args);
    if (!args || setenv("OMP_WAIT_POLICY", "passive", 1)) {
        free(args);
        return;
    }
    args[0] = "golgen";
    for (int i = 0; i < argc; i++)
        args[i + 1] = argv[i];
    execv("/proc/self/exe", args);
    free(args); /* not restarted: on with the default policy */
    unsetenv("OMP_WAIT_POLICY");
}

int gg_cmd_serve(int argc, char **argv, const gg_config *cfg)
{
    passive_openmp(argc, argv);
    serve_opts o;
    gg_err err;
    const gg_backend_info *backend;
    if (parse_args(argc, argv, &o, &err) ||
        gg_cli_backend(o.backend, &backend, &err))
        return gg_cli_error("serve", GG_EXIT_USAGE, &err);
    char token[40];
    if (!loopback(o.address) && make_token(token, sizeof token, &err))
        return gg_cli_error("serve", GG_EXIT_ENV, &err);
    sv_rule_set_pattern_path(o.in); /* rule files beside it first */
    sv_world w;
    int bad;
    if (o.in && is_rle3(o.in)) { /* a 3D grid (Golly's 3D.lua) */
        gg_rle3 p3;
        memset(&p3, 0, sizeof p3);
        bad = gg_rle3_read(o.in, &p3, &err) ||
              sv_world_from_rle3(&w, o.rule, NULL, &p3, 0, &err);
        gg_rle3_free(&p3);
    } else {
        gg_pattern p;
        bad = o.in ? gg_pattern_read(o.in, &p, &err)
                   : gg_pattern_parse(default_pattern,
                                      strlen(default_pattern),
                                      "built-in R-pentomino", &p, &err);
        if (!bad) {
            bad = sv_world_from_pattern(&w, o.rule, NULL, &p, 0, &err);
            gg_pattern_free(&p);
        }
    }
    if (bad)
        return gg_cli_error("serve", GG_EXIT_USAGE, &err);
    sv_sim sim;
    memset(&sim, 0, sizeof sim);
    sim.batch_ms = (int)o.batch_ms;
    sim.fps = (int)o.fps;
    if (sv_sim_start(&sim, &w, backend, cfg, &err)) {
        sv_world_free(&w);
        return gg_cli_error("serve", GG_EXIT_ENV, &err);
    }
    sv_server_opts so = {o.address, (int)o.port,
                         loopback(o.address) ? NULL : token};
    bad = sv_serve(&sim, &so, &err);
    sv_sim_stop(&sim);
    return bad ? gg_cli_error("serve", GG_EXIT_ENV, &err) : GG_EXIT_OK;
}

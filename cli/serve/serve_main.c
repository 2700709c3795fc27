/* golgen serve: its options (the universe they name, the simulation
 * thread and the server start in serve_server.c: sv_serve_command). */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli_args.h"
#include "commands.h"
#include "golgen.h"
#include "serve_args.h"

static void usage(FILE *out)
{
    char names[256] = "auto|";
    golgen_backend_names("two-state", "|", names + strlen(names),
                         sizeof names - strlen(names));
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

static int parse_args(int argc, char **argv, sv_args *o, char *msg)
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
    int64_t port = 0, batch_ms = SV_DEFAULT_BATCH_MS, fps = SV_WATCH_FPS;
    int c;
    while ((c = getopt_long(argc, argv, "r:p:b:h", opts, NULL)) != -1) {
        switch (c) {
        case 'r': o->rule = optarg; break;
        case 'p':
            if (gg_cli_parse_int("--port", optarg, 0, 65535, &port, msg,
                                 GG_CLI_MSG))
                return -1;
            break;
        case 'b': o->backend = optarg; break;
        case 'a': o->address = optarg; break;
        case 'B':
            if (gg_cli_parse_int("--batch-ms", optarg, 1, 10000, &batch_ms,
                                 msg, GG_CLI_MSG))
                return -1;
            break;
        case 'F':
            if (gg_cli_parse_int("--fps", optarg, 1, 1000, &fps, msg,
                                 GG_CLI_MSG))
                return -1;
            break;
        case 'h': usage(stdout); exit(GG_EXIT_OK);
        default: return gg_cli_fail(msg, "see 'golgen serve --help'");
        }
    }
    if (optind < argc - 1)
        return gg_cli_fail(msg, "one pattern at most, got %d",
                           argc - optind);
    o->in = optind < argc ? argv[optind] : NULL;
    o->port = (int)port;
    o->batch_ms = (int)batch_ms;
    o->fps = (int)fps;
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
    sv_args o;
    char msg[GG_CLI_MSG];
    if (parse_args(argc, argv, &o, msg))
        return gg_cli_say("serve", GG_EXIT_USAGE, msg);
    return sv_serve_command(&o, cfg); /* serve_server.c */
}

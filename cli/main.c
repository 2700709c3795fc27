/* golgen: command dispatch, --help and --version. */
#include <stdio.h>
#include <string.h>

#include "cli_args.h"
#include "cli_config.h"
#include "cli_rank.h"
#include "commands.h"
#include "full_exec.h"
#include "golgen.h"

typedef struct command {
    const char *name;
    int (*run)(int argc, char **argv, const gg_config *cfg);
    const char *summary;
} command;

static const command commands[] = {
    {"synth", gg_cmd_synth_ranked, "find the fewest gates for a rule's "
                                   "final stage (SAT, proven minimal; "
                                   "cached; mpirun: over ranks)"},
    {"rule", gg_cmd_rule, "parse a rule: canonical form, neighbourhood, "
                          "topology, truth table summary"},
    {"verify", gg_cmd_verify, "check a rule's circuit against its exhaustive "
                              "truth table; gate counts"},
    {"run", gg_cmd_run_ranked, "simulate a pattern for some generations "
                               "and write the result (mpirun: over ranks)"},
    {"bench", gg_cmd_bench, "measure cell updates per second of a backend "
                            "on a random soup"},
    {"emit", gg_cmd_emit, "the same as golgen --target T --rule R: print "
                          "a kernel"},
    {"store", gg_cmd_store, "a universe on disk (.ggu): info, export a "
                            "window, import a pattern"},
    {"serve", gg_cmd_serve, "watch a universe live in a web browser: pan, "
                            "zoom, run, draw"},
};

static void usage(FILE *out)
{
    fprintf(out,
            "usage: golgen <command> [options]\n"
            "       golgen --target c|cuda|ptx|opencl --rule RULE [-o FILE]"
            "   emit a kernel\n"
            "       golgen --help | --version"
            "          --version: also the solver and the backends here\n\n"
            "golgen turns a cellular-automaton rule into a minimal gate "
            "network and fast kernels.\n\ncommands:\n");
    for (size_t i = 0; i < sizeof commands / sizeof *commands; i++)
        fprintf(out, "  %-8s %s\n", commands[i].name, commands[i].summary);
    fprintf(out, "\n'golgen <command> --help' describes each command, "
                 "'golgen --target c --help' the kernels.\n"
                 "exit status: 0 success, 1 a check failed, 2 bad usage or "
                 "input, 3 environment (no GPU, tool missing)\n");
}

/* The version, the solver, and what each backend's probe says here (the
 * backends --backend auto chooses from). A bad environment variable stops
 * every command, but not this: the probes, which need the environment
 * (compiler, cache directory), are then skipped with its error. */
static int print_version(void)
{
    char solver[128], mpi[256], probes[4096], order[256], env[GG_CLI_MSG];
    if (golgen_backend_probes("  ", probes, sizeof probes, env, sizeof env))
        snprintf(probes, sizeof probes, "  not probed: %s\n", env);
    golgen_solver_version(solver, sizeof solver);
    gg_cli_mpi_version(mpi, sizeof mpi);
    golgen_backend_auto_order(", ", order, sizeof order);
    printf("golgen %s\nsolver: %s\nmpi: %s\nbackends (auto tries %s, in "
           "that order):\n%s", golgen_version(), solver, mpi, order,
           probes);
    return 0;
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        usage(stderr);
        return 2;
    }
    if (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
        usage(stdout);
        return 0;
    }
    if (!strcmp(argv[1], "--version"))
        return print_version();
    /* the environment, read once: every command takes what it needs */
    char msg[GG_CLI_MSG];
    const gg_config *cfg = gg_cli_config_read(msg, sizeof msg);
    if (!cfg) {
        fprintf(stderr, "golgen: %s\n", msg);
        return 2;
    }
    if (gg_cli_wants_full(argc, argv, gg_cli_launcher_ranks(cfg)))
        return gg_cli_exec_full(argv, !strcmp(argv[1], "serve")
                                          ? "golgen serve"
                                          : "a run under an MPI launcher");
    /* The emitter form: golgen --target c --rule R -o FILE. */
    if (!strncmp(argv[1], "--target", 8) || !strncmp(argv[1], "-t", 2))
        return gg_cmd_emit(argc, argv, cfg);
    for (size_t i = 0; i < sizeof commands / sizeof *commands; i++)
        if (!strcmp(argv[1], commands[i].name))
            return commands[i].run(argc - 1, argv + 1, cfg);
    fprintf(stderr, "golgen: unknown command '%s'; run 'golgen --help' for "
                    "the list\n", argv[1]);
    return 2;
}

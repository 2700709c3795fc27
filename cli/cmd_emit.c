/* golgen --target TARGET --rule RULE [-o FILE]: emit a kernel source.
 * The work is libgolgen's golgen_emit_kernel and golgen_write_file
 * (lib/emit.c); this file parses, notes quick stages and writes, on the
 * public header alone (tests/check_layers.py). */
#include <getopt.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "golgen.h"

#include "cli_args.h"
#include "commands.h"
#include "search_hook.h"

/* Targets; every one takes every 2D family, Generations included
 * (runtime/backends/kernel_source.h: gg_kernel_for_target). */
static const char *const targets[] = {"c", "cuda", "ptx", "opencl"};
#define N_TARGETS (sizeof targets / sizeof *targets)

static int find_target(const char *name)
{
    for (size_t i = 0; i < N_TARGETS; i++)
        if (!strcmp(targets[i], name))
            return (int)i;
    return -1;
}

/* Someone regenerating for a new rule should know which of the kernel's
 * final stages are quick ones, and how to get smaller ones. Told from the
 * stages the kernel was built from: a lookup of its own (rowsum only)
 * missed a Hensel rule's cached rowsum+cells stage and said "no cached
 * network" under a header that said the cache's. */
static void note_uncached(const golgen_kernel *k)
{
    for (int i = 0; i < k->n_stages; i++) {
        if (k->stage[i].cached)
            continue;
        const char *lib = k->stage[i].lib;
        char front[64] = "";
        /* synth searches the rule's usual front unless told another */
        if (strcmp(k->stage[i].front, k->usual_front))
            snprintf(front, sizeof front, " --front %s", k->stage[i].front);
        /* rowsum+cells has no exact search: synth caches the composed
         * circuit as it is (lib/synth.c, run_composed) */
        bool composed = !strcmp(k->stage[i].front, "rowsum+cells");
        fprintf(stderr, "golgen: note: %s has no cached %s network; the "
                "kernel's %s final stage is a quick one (%s; its header "
                "says so). 'golgen synth --rule %s --lib %s%s' %s.\n",
                k->rule, lib, lib, k->stage[i].source, k->rule, lib, front,
                composed ? "caches it for machines without the solver"
                         : "searches for fewer gates and caches them");
    }
}

static void usage(FILE *out)
{
    fprintf(out,
            "usage: golgen --target c|cuda|ptx|opencl --rule RULE [-o FILE]\n\n"
            "Emit RULE's kernel for a target to FILE (stdout when omitted or "
            "-).\nTargets: c (one C file with AVX-512, AVX2 and portable "
            "64-bit paths;\nbuild it with cc -O3 -march=native -fopenmp "
            "-shared -fPIC), cuda (CUDA C for\nNVRTC or nvcc), ptx (a PTX "
            "module for sm_90), opencl (OpenCL C). Torus or\nplane and the "
            "grid size are runtime arguments of the kernel, so a :T or :P\n"
            "suffix on RULE is accepted and ignored.\n\n"
            "The final stage is the network cache's (generated/networks, "
            "written by\n'golgen synth'); a rule without an entry gets the "
            "adder tree or, for the\ngate2 paths, LUTs mapped to gates "
            "(a fraction of a second; verified, not\nproven minimal), with a "
            "note on stderr. The kernel's header says which. 'golgen\nsynth "
            "--rule RULE' (and --lib gate2) searches for fewer gates and "
            "caches them.\n");
}

typedef struct emit_opts {
    const char *target, *rule, *out;
} emit_opts;


static int parse_args(int argc, char **argv, emit_opts *o, char *msg)
{
    static const struct option opts[] = {
        {"target", required_argument, 0, 't'},
        {"rule", required_argument, 0, 'r'},
        {"output", required_argument, 0, 'o'},
        {"help", no_argument, 0, 'h'},
        {0, 0, 0, 0}};
    memset(o, 0, sizeof *o);
    optind = 1;
    int c;
    /* argv[0] is "golgen": the target option itself is argv[1]. */
    while ((c = getopt_long(argc, argv, "t:r:o:h", opts, NULL)) != -1) {
        switch (c) {
        case 't': o->target = optarg; break;
        case 'r': o->rule = optarg; break;
        case 'o': o->out = optarg; break;
        case 'h': usage(stdout); exit(GG_EXIT_OK);
        default: return gg_cli_fail(msg, "see 'golgen --target c --help'");
        }
    }
    if (optind < argc)
        return gg_cli_fail(msg, "unexpected argument '%s'", argv[optind]);
    if (!o->target || !o->rule)
        return gg_cli_fail(msg, "--target and --rule are required");
    if (find_target(o->target) < 0)
        return gg_cli_fail(msg, "unknown target '%s'; available: c, cuda, ptx, "
                   "opencl", o->target);
    return 0;
}

static int write_out(const char *path, const char *src, size_t len,
                     char *msg)
{
    if (!path || !strcmp(path, "-")) {
        if (fwrite(src, 1, len, stdout) != len || fflush(stdout))
            return gg_cli_fail(msg, "cannot write the kernel to stdout");
        return 0;
    }
    return golgen_write_file(path, src, len, msg, 512) ? -1 : 0;
}

int gg_cmd_emit(int argc, char **argv, const gg_config *cfg)
{
    (void)cfg; /* the library reads the environment itself */
    emit_opts o;
    char msg[512];
    if (parse_args(argc, argv, &o, msg))
        return gg_cli_say("--target", GG_EXIT_USAGE, msg);
    golgen_emit_opts eo = {.on_search = gg_search_note_event};
    golgen_kernel *k;
    int rc = golgen_emit_kernel(o.rule, o.target, &eo, &k, msg, sizeof msg);
    gg_search_note_finish(); /* a new rule's networks were searched for */
    if (rc)
        return gg_cli_say("--target", gg_cli_status(rc), msg);
    note_uncached(k);
    int bad = write_out(o.out, k->src, k->len, msg);
    golgen_kernel_free(k);
    return bad ? gg_cli_say("--target", GG_EXIT_USAGE, msg) : GG_EXIT_OK;
}

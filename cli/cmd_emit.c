/* golgen --target TARGET --rule RULE [-o FILE]: emit a kernel source. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "atomic_file.h"
#include "cli_util.h"
#include "rule_gen.h"
#include "commands.h"
#include "kernel_source.h"
#include "rule3d.h"
#include "run3d.h"
#include "search_note.h"

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
static void note_uncached(const gg_rule *rule, const gg_kernel_stages *st)
{
    char name[128];
    gg_rule_format_transition(rule, name, sizeof name);
    for (int i = 0; i < st->n; i++) {
        if (st->stage[i].cached)
            continue;
        const char *lib = gg_lib_name(st->stage[i].lib);
        char front[64] = "";
        /* synth searches the rule's usual front unless told another */
        if (st->stage[i].front != gg_front_for_rule(rule))
            snprintf(front, sizeof front, " --front %s",
                     gg_front_name(st->stage[i].front));
        /* rowsum+cells has no exact search: synth caches the composed
         * circuit as it is (cmd_synth.c, run_composed) */
        bool composed = st->stage[i].front == GG_FRONT_ROWSUM_CELLS;
        fprintf(stderr, "golgen: note: %s has no cached %s network; the "
                "kernel's %s final stage is a quick one (%s; its header "
                "says so). 'golgen synth --rule %s --lib %s%s' %s.\n", name,
                lib, lib, st->stage[i].source, name, lib, front,
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

static int parse_args(int argc, char **argv, emit_opts *o, gg_err *err)
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
        default: return gg_fail(err, "see 'golgen --target c --help'");
        }
    }
    if (optind < argc)
        return gg_fail(err, "unexpected argument '%s'", argv[optind]);
    if (!o->target || !o->rule)
        return gg_fail(err, "--target and --rule are required");
    if (find_target(o->target) < 0)
        return gg_fail(err, "unknown target '%s'; available: c, cuda, ptx, "
                       "opencl", o->target);
    return 0;
}

static int write_out(const char *path, const char *src, size_t len,
                     gg_err *err)
{
    if (!path || !strcmp(path, "-")) {
        if (fwrite(src, 1, len, stdout) != len || fflush(stdout))
            return gg_fail(err, "cannot write the kernel to stdout");
        return 0;
    }
    gg_atomic_file f;
    if (gg_atomic_open(path, &f, err) || gg_atomic_write(&f, src, len, err))
        return -1;
    return gg_atomic_commit(&f, err);
}

/* A 3D rule's kernel (c or cuda). */
static int emit3d(const emit_opts *o)
{
    gg_err err;
    char *src;
    size_t len;
    if (gg_emit3d_source(o->rule, o->target, &src, &len, &err))
        return gg_cli_error("--target", GG_EXIT_USAGE, &err);
    int bad = write_out(o->out, src, len, &err);
    free(src);
    return bad ? gg_cli_error("--target", GG_EXIT_USAGE, &err) : GG_EXIT_OK;
}

int gg_cmd_emit(int argc, char **argv, const gg_config *cfg)
{
    emit_opts o;
    gg_err err;
    gg_rule rule;
    if (parse_args(argc, argv, &o, &err))
        return gg_cli_error("--target", GG_EXIT_USAGE, &err);
    if (gg_rule3d_is_3d(o.rule)) /* cli/run3d.c */
        return emit3d(&o);
    if (gg_rule_parse(o.rule, &rule, &err))
        return gg_cli_error("--target", GG_EXIT_USAGE, &err);
    char *src;
    size_t len;
    gg_kernel_stages st;
    int bad = gg_kernel_for_target(o.target, &rule, &cfg->choose, &src, &len,
                                   &st, &err);
    gg_search_note_finish(); /* a new rule's networks were searched for */
    if (bad)
        return gg_cli_error("--target", GG_EXIT_CHECK_FAILED, &err);
    /* a Generations rule's network is its two-state rule's */
    gg_rule two = gg_gen_two_state(&rule);
    note_uncached(&two, &st);
    bad = write_out(o.out, src, len, &err);
    free(src);
    return bad ? gg_cli_error("--target", GG_EXIT_USAGE, &err) : GG_EXIT_OK;
}

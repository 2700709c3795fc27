/* golgen run: simulate a pattern and write the result. */
#include <getopt.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "atomic_file.h"
#include "cli_frames.h"
#include "cli_devices.h"
#include "cli_util.h"
#include "run_control.h"
#include "run3d.h"
#include "run_gen.h"
#include "run_ranks.h"
#include "run_hashlife.h"
#include "run_tiles.h"
#include "run_ltl.h"
#include "run_table.h"
#include "run_store_stream.h"
#include "search_note.h"
#include "commands.h"
#include "backend.h"
#include "band_stepper.h"
#include "engine_choice.h"
#include "hashlife.h"
#include "store.h"
#include "resident.h"
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
            "thread, are 32x32 cells, 4x4 for rule tables but on busy\n"
            "soups; --tree-leaf 4|8|16|32|64 sets them) unless the pattern is\n"
            "a busy box (2^22 cells or more,\n"
            "over 1/32 alive) run for fewer than 4 times its longer side; "
            "otherwise, and\nfor tori, bounded planes, B0 and the options "
            "below, the dense grid, stepped as\nactive tiles on cpu, cuda and "
            "ptx (tiles: 256x256 cells, where only those near a\nchange in "
            "the last 32 generations are stepped; dense steps the whole grid). "
            "It says\nwhich on stderr.\n--mem BYTES bounds the run's memory (default "
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

typedef struct run_opts {
    const char *rule, *out, *in;
    const gg_backend_info *backend;
    const char *backend_name; /* as given; NULL: the default */
    const gg_config *cfg;
    int64_t gens;
    bool progress;
    gg_cli_pictures pics; /* --png, --frames... (cli/cli_pictures.h) */
    const char *store, *resume; /* --store, --resume (runtime/formats/store.h) */
    int64_t every;              /* --checkpoint-every; 0: at the end only */
    int64_t device_mem;         /* --device-mem bytes; 0: no limit */
    gg_cli_devices devices;     /* --devices: one band per device */
    int64_t host_mem;           /* --host-mem bytes; 0: all in memory */
    const char *engine;         /* --engine: auto, dense, tiles, hashlife */
    gg_pattern pre;             /* IN as engine auto read it, if it did */
    bool has_pre;
    int64_t mem;                /* --mem: the hash tree's bytes */
    int leaf_log;               /* --tree-leaf: log2 of its side; 0 auto */
    const char *rules_dir;      /* --rules: a folder of .rule files */
    gg_resident *res; /* where load seeds a run on the devices alone
                         (resident_wanted); NULL: the host grid */
} run_opts;

/* What the hash-tree engine does not take yet, refused by name. */
static const char *hashlife_refuses(const run_opts *o)
{
    return o->store || o->resume ? "stores (--store, --resume)"
           : o->device_mem || o->devices.n || o->host_mem
               ? "--device-mem, --devices and --host-mem"
           : o->pics.frames || o->pics.every ? "--frames (nor --every)"
           : gg_cli_ranks() > 1            ? "MPI ranks"
                                           : NULL;
}

/* --engine and --mem: known names (runtime/engines/engine_choice.h), and
 * options the engine takes. */
static int engine_check(run_opts *o, gg_err *err)
{
    gg_engine e;
    if (gg_engine_parse(o->engine, &e, err))
        return -1;
    o->engine = gg_engine_name(e);
    if (e == GG_ENGINE_HASHLIFE && hashlife_refuses(o))
        return gg_fail(err, "--engine hashlife does not take %s yet; use "
                       "--engine dense", hashlife_refuses(o));
    if (e == GG_ENGINE_AUTO && hashlife_refuses(o))
        o->engine = "dense";
    if (o->mem && (e == GG_ENGINE_DENSE || e == GG_ENGINE_TILES))
        return gg_fail(err, "--mem bounds the hash tree; it needs --engine "
                       "hashlife or auto");
    if (o->leaf_log && (e == GG_ENGINE_DENSE || e == GG_ENGINE_TILES))
        return gg_fail(err, "--tree-leaf shapes the hash tree; it needs "
                       "--engine hashlife or auto");
    if (!o->mem)
        o->mem = gg_engine_default_mem();
    return 0;
}

/* --tree-leaf N: 4, 8, 16, 32 or 64 cells a side. */
static int tree_leaf_option(const char *arg, int *leaf_log, gg_err *err)
{
    int64_t side;
    if (gg_cli_int("--tree-leaf", arg, 4, 64, &side, err))
        return -1;
    for (int k = HL_LEAF_LOG_MIN; k <= HL_LEAF_LOG_MAX; k++)
        if (side == (int64_t)1 << k) {
            *leaf_log = k;
            return 0;
        }
    return gg_fail(err, "--tree-leaf %s: a leaf is 4, 8, 16, 32 or 64 "
                   "cells a side", arg);
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
         * (cli/search_note.h) */
        {"search-note-after", required_argument, 0, 'N'},
        GG_CLI_PICTURE_OPTIONS,
        {0, 0, 0, 0}};
    memset(o, 0, sizeof *o);
    const char *backend = NULL; /* NULL: auto */
    o->gens = -1;
    o->progress = isatty(2);
    int c;
    double secs;
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
        case 'U': o->rules_dir = optarg; break;
        case 'E': o->engine = optarg; break;
        case 'm':
            if (gg_cli_bytes("--mem", optarg, &o->mem, err))
                return -1;
            break;
        case 'R': o->resume = optarg; break;
        case 'L':
            if (tree_leaf_option(optarg, &o->leaf_log, err))
                return -1;
            break;
        case 'M':
        case 'D':
            if (gg_cli_scale_option(c, optarg, &o->device_mem, &o->devices,
                                    err))
                return -1;
            break;
        case 'C':
            if (gg_cli_int("--checkpoint-every", optarg, 1, INT64_MAX / 2,
                           &o->every, err))
                return -1;
            break;
        case 'H':
            if (gg_cli_bytes("--host-mem", optarg, &o->host_mem, err))
                return -1;
            break;
        case 'N':
            if (gg_cli_seconds("--search-note-after", optarg, 1e6, &secs,
                               err))
                return -1;
            gg_search_note_after(secs);
            break;
        case 'h': usage(stdout); exit(GG_EXIT_OK);
        default:
            switch (gg_cli_picture_option(c, optarg, &o->pics, err->msg,
                                          sizeof err->msg)) {
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
    if (gg_cli_scale_check(o->device_mem, &o->devices, err))
        return -1;
    if (engine_check(o, err))
        return -1;
    /* the tree checkpoints into OUT.mc itself (run it to resume) */
    bool tree_mc = o->out && strcmp(o->engine, "dense") &&
                   strcmp(o->engine, "tiles") && gg_cli_named_mc(o->out);
    if (o->every && !o->store && !tree_mc)
        return gg_fail(err, "--checkpoint-every N needs --store S.ggu (the "
                       "file the checkpoints go to), or with the hash "
                       "tree (--engine hashlife or auto) -o OUT.mc");
    return gg_cli_backend(backend, &o->backend, err);
}

/* The universe a store holds; --rule may only repeat its rule. */
static int load_store(const run_opts *o, gg_universe *u, gg_err *err)
{
    if (gg_store_read(o->resume, u, err))
        return -1;
    if (gg_cli_store_rule_check(o->rule, &u->rule, o->resume, err) ||
        gg_generations_check(u->generation, o->gens, err)) {
        gg_universe_free(u);
        return -1;
    }
    return 0;
}

/* What the Generations family does not take, refused before the universe
 * is read by the registry's one place (gg_backend_takes). */
static int gen_refusals(const run_opts *o, gg_err *err)
{
    gg_family f = GG_FAMILY_GENERATIONS;
    if ((o->device_mem &&
         gg_backend_takes(o->backend, f, GG_FEATURE_DEVICE_MEM, err)) ||
        (o->devices.n &&
         gg_backend_takes(o->backend, f, GG_FEATURE_DEVICES, err)))
        return -1;
    if (gg_cli_ranks() > 1 &&
        gg_backend_takes(o->backend, f, GG_FEATURE_RANKS, err))
        return gg_cli_ranks_refuse("Generations rules", err);
    return 0;
}

/* A Generations universe from the store or the pattern, run by
 * cli/run_gen.c: its exit status. */
static int run_gen(const run_opts *o, const gg_rule *rule,
                   const gg_pattern *p)
{
    gg_err err;
    gg_gen_universe u;
    int bad = gen_refusals(o, &err);
    if (!bad && o->resume) {
        bad = gg_store_read_gen(o->resume, &u, &err);
        if (!bad && gg_cli_store_rule_check(o->rule, &u.rule, o->resume,
                                            &err)) {
            gg_gen_universe_free(&u);
            bad = -1;
        }
    } else if (!bad) {
        bad = gg_gen_universe_from_pattern(&u, rule, p, &err);
    }
    if (bad)
        return gg_cli_error("run", GG_EXIT_USAGE, &err);
    gg_backend_opts bo = {.config = o->cfg, .announce = isatty(2)};
    gg_cli_devices devices = o->devices; /* opened by the run */
    gg_gen_run g = {.backend = o->backend, .bo = &bo, .gens = o->gens,
                    .every = o->every, .progress = o->progress,
                    .out = o->out, .store = o->store, .pics = &o->pics,
                    .devices = &devices, .engine = o->engine};
    return gg_run_generations(&u, &g);
}

/* Whether the store to resume holds a Generations universe (its rule read
 * from the header alone); false also when it cannot be read, which
 * gg_store_read then says. */
static bool store_is_generations(const char *path)
{
    gg_store_info s;
    gg_rule rule;
    gg_err ignored;
    return !gg_store_info_read(path, &s, &ignored) &&
           !gg_rule_parse(s.rule, &rule, &ignored) &&
           gg_rule_is_generations(&rule);
}

/* What a Larger than Life or rule-table run does not take, refused by
 * the registry's one place (gg_backend_takes) for each option given. */
static int family_refusals(const run_opts *o, gg_family f, gg_err *err)
{
    const struct {
        bool given;
        gg_family_feature feature;
    } asked[] = {
        {o->store || o->every || o->resume, GG_FEATURE_STORE},
        {o->pics.png || o->pics.frames, GG_FEATURE_PICTURES},
        {o->device_mem, GG_FEATURE_DEVICE_MEM},
        {o->devices.n, GG_FEATURE_DEVICES},
        {o->host_mem, GG_FEATURE_HOST_MEM},
        {gg_cli_ranks() > 1, GG_FEATURE_RANKS},
    };
    for (size_t i = 0; i < sizeof asked / sizeof *asked; i++)
        if (asked[i].given &&
            gg_backend_takes(NULL, f, asked[i].feature, err))
            return -1;
    return 0;
}

/* The options of a Larger than Life or rule-table run (cli/run_table.h);
 * the engines they lack are refused by the run. */
static gg_table_run family_run(const run_opts *o)
{
    return (gg_table_run){
        .backend = o->backend_name, .gens = o->gens,
        .progress = o->progress, .out = o->out, .cfg = o->cfg,
        .store = o->store, .every = o->every, .resume = o->resume,
        .rule = o->rule, .pics = &o->pics, .rules_dir = o->rules_dir,
        .refused = strcmp(o->engine, "auto") && strcmp(o->engine, "dense")
                       ? "--engine tiles or hashlife"
                       : NULL};
}

/* The family of the store to resume (its header alone); UNKNOWN also
 * when it cannot be read, which the reader then says. */
static gg_store_family store_family(const char *path)
{
    gg_store_info s;
    gg_err ignored;
    return gg_store_info_read(path, &s, &ignored) ? GG_STORE_UNKNOWN
                                                  : gg_store_family_of(&s);
}

/* A rule B/S notation does not know may name a Golly rule file: 1 with
 * the run's status in *rc when one was found and run, 0 when none was
 * (err then holds the parse error and where the file was looked for). */
static int try_rule_file(const run_opts *o, const char *text,
                         const gg_pattern *p, int *rc, gg_err *err)
{
    gg_rule_found f;
    gg_err ferr;
    int got = gg_rule_find(text, o->in, o->rules_dir, &f, &ferr);
    if (got < 0) {
        *rc = gg_cli_error("run", GG_EXIT_USAGE, &ferr);
        return 1;
    }
    if (got == 0) {
        size_t n = strlen(err->msg);
        snprintf(err->msg + n, sizeof err->msg - n, " (nor a rule file: %.300s)",
                 ferr.msg);
        return 0;
    }
    gg_table_run t = family_run(o);
    *rc = family_refusals(o, GG_FAMILY_TABLE, err)
              ? gg_cli_error("run", GG_EXIT_USAGE, err)
              : gg_run_table(&f, p, &t);
    gg_rule_found_free(&f);
    return 1;
}

/* 1 (with the exit status in *gen_rc) when a Generations rule or a Golly
 * rule file was run instead: cli/run_gen.c, cli/run_table.c. */
static int load(const run_opts *o, gg_universe *u, int *gen_rc,
                bool *resident, gg_err *err)
{
    if (o->resume && store_is_generations(o->resume)) {
        *gen_rc = run_gen(o, NULL, NULL);
        return 1;
    }
    gg_store_family fam = o->resume ? store_family(o->resume)
                                    : GG_STORE_UNKNOWN;
    if (fam == GG_STORE_LTL || fam == GG_STORE_TABLE) {
        /* cli/run_ltl.c, cli/run_table.c */
        gg_table_run t = family_run(o);
        bool ltl = fam == GG_STORE_LTL;
        *gen_rc = family_refusals(o, ltl ? GG_FAMILY_LTL : GG_FAMILY_TABLE,
                                  err)
                      ? gg_cli_error("run", GG_EXIT_USAGE, err)
                  : ltl ? gg_run_ltl(NULL, NULL, &t)
                        : gg_run_table(NULL, NULL, &t);
        return 1;
    }
    if (o->resume)
        return load_store(o, u, err);
    gg_pattern p;
    int bad = o->has_pre ? (p = o->pre, 0)
              : o->in    ? gg_pattern_read_stop(o->in, gg_run_stop_flag(), &p,
                                                err)
                         : gg_pattern_parse(default_pattern,
                                            strlen(default_pattern),
                                            "built-in R-pentomino", &p, err);
    if (bad)
        return -1;
    gg_rule rule;
    const char *text = o->rule ? o->rule : p.rule ? p.rule : "B3/S23";
    bad = gg_rule_parse(text, &rule, err);
    if (bad && gg_ltl_looks_like(text)) { /* cli/run_ltl.c */
        gg_table_run t = family_run(o);
        *gen_rc = family_refusals(o, GG_FAMILY_LTL, err)
                      ? gg_cli_error("run", GG_EXIT_USAGE, err)
                      : gg_run_ltl(text, &p, &t);
        gg_pattern_free(&p);
        return 1;
    }
    if (bad && try_rule_file(o, text, &p, gen_rc, err)) {
        gg_pattern_free(&p);
        return 1;
    }
    if (!bad && gg_rule_is_generations(&rule)) {
        *gen_rc = run_gen(o, &rule, &p);
        gg_pattern_free(&p);
        return 1;
    }
    *resident = !bad && o->res && gg_resident_suits(&rule, &p);
    if (*resident)
        bad = gg_resident_from_pattern(o->res, &rule, &p, err) ||
              gg_generations_check(o->res->generation, o->gens, err);
    else
        bad = bad || gg_universe_from_pattern(u, &rule, &p, err) ||
              gg_generations_check(u->generation, o->gens, err);
    gg_pattern_free(&p);
    return bad ? -1 : 0;
}

/* Write the result; if OUT cannot be written after all, keep the work in a
 * rescue file in $TMPDIR rather than lose a long run. */
static int save(const run_opts *o, const gg_universe *u, const char *tmp,
                gg_err *err)
{
    gg_pattern p;
    if (gg_universe_to_pattern(u, &p, err))
        return -1;
    int bad = gg_cli_save_pattern(o->out, &p, err);
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
    for (int64_t done = 0; done < gens && !gg_cli_ranks_stopped();) {
        int64_t n = gens - done, before = r->u->generation;
        if (r->every > 0 && n > r->every - r->since)
            n = r->every - r->since;
        if (gg_universe_run(r->u, r->stepper, n, gg_cli_ranks_progress,
                            &r->ps, err))
            return -1;
        int64_t ran = r->u->generation - before;
        done += ran;
        r->ps.base += ran;
        r->since += ran;
        if (r->every > 0 && r->since >= r->every) {
            if (gg_cli_ranks_store_write(r->store, r->u, err))
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

/* --devices: a backend per band; *b is the first (what reports name). */
static int open_devices(run_opts *o, const gg_rule *rule, gg_backend_opts bo,
                        gg_backend **b, int *status, gg_err *err)
{
    if (gg_cli_ranks() > 1) {
        *status = GG_EXIT_USAGE;
        return gg_cli_ranks_refuse("runs with --devices", err);
    }
    if (gg_cli_devices_open(&o->devices, o->backend, rule, bo, status, err)) {
        gg_cli_devices_close(&o->devices);
        return -1;
    }
    *b = o->devices.b[0];
    return 0;
}

static void close_backends(run_opts *o, gg_backend *b)
{
    if (o->devices.n)
        gg_cli_devices_close(&o->devices);
    else
        gg_backend_close(b);
}

/* The grid on the devices alone (runtime/universes/resident.h) when
 * nothing asks for it whole on the host: no store, checkpoint, picture,
 * --device-mem or ranks, and bands (--devices) or the dense engine on one
 * device (auto's active tiles keep their own way there). */
static bool resident_wanted(const run_opts *o)
{
    return !o->store && !o->resume && !o->every && !o->pics.png &&
           !o->pics.frames && !o->device_mem && !o->host_mem &&
           gg_cli_ranks() == 1 &&
           (o->devices.n ? strcmp(o->engine, "tiles") != 0
                         : !strcmp(o->engine, "dense"));
}

/* After the run: OUT and the store written, the picture drawn, the
 * summary line; the exit status. */
static int finish_run(const run_opts *o, gg_universe *u, int64_t first,
                      double seconds, const char *engine)
{
    gg_err err;
    run2d r = {.u = u}; /* what --png draws */
    if (o->out && save(o, u, o->cfg->tmpdir, &err)) {
        gg_universe_free(u);
        int rc = gg_cli_error("run", GG_EXIT_USAGE, &err);
        return gg_run_stopped() ? gg_run_stop_status() : rc;
    }
    if (o->store && gg_store_write(o->store, u, &err)) {
        gg_universe_free(u);
        int rc = gg_cli_error("run", GG_EXIT_USAGE, &err);
        return gg_run_stopped() ? gg_run_stop_status() : rc;
    }
    int status = gg_cli_write_png(&o->pics, draw2d, &r, &err);
    if (status) {
        gg_universe_free(u);
        int rc = gg_cli_error("run", status, &err);
        return gg_run_stopped() ? gg_run_stop_status() : rc;
    }
    char rule[128];
    gg_rule_format(&u->rule, rule, sizeof rule);
    fprintf(stderr, "%s: generation %lld, population %lld, %.3f s (%s)\n",
            rule, (long long)u->generation,
            (long long)gg_universe_population(u), seconds, engine);
    int64_t reached = u->generation - first;
    gg_universe_free(u);
    return gg_run_stop_report(reached, o->gens, o->out != NULL);
}

/* A run of the seeded o->res on the devices alone: 0 when it ran (*rc
 * its exit status), 1 when the backends cannot (u the whole grid now:
 * the host path runs it), -1 with *rc. */
static int run_resident(run_opts *o, gg_universe *u, int *rc)
{
    gg_err err;
    gg_resident *res = o->res;
    gg_backend_opts bo = {.config = o->cfg, .announce = isatty(2),
                          .width_hint = res->rule.width,
                          .height_hint = res->rule.height};
    gg_run_progress ps;
    gg_run_progress_init(&ps, o->progress, o->gens);
    double start = gg_cli_now();
    int64_t first = res->generation;
    int status = GG_EXIT_ENV;
    int got = gg_cli_devices_resident(&o->devices, o->backend, bo, res,
                                      o->gens, gg_run_progress_cb, &ps, u,
                                      &status, &err);
    if (got == 1) {
        if (!gg_resident_to_universe(res, u, &err))
            return 1;
        *rc = gg_cli_error("run", GG_EXIT_USAGE, &err);
        return -1;
    }
    gg_resident_free(res);
    if (got < 0) {
        *rc = gg_cli_error("run", status, &err);
        *rc = gg_run_stopped() ? gg_run_stop_status() : *rc;
        return -1;
    }
    /* as the host path counts: from the backends open */
    double seconds = gg_cli_now() - start - o->devices.open_seconds;
    gg_cli_devices_report(&o->devices);
    char engine[160];
    snprintf(engine, sizeof engine, "%s, on the device%s alone",
             gg_backend_of(o->devices.b[0])->name,
             o->devices.n > 1 ? "s" : "");
    gg_cli_devices_close(&o->devices);
    *rc = finish_run(o, u, first, seconds, engine);
    return 0;
}

static int run_command(int argc, char **argv, const gg_config *cfg)
{
    gg_err err;
    if (gg_cli_is_3d(argc, argv, false)) /* 3D rules, RLE3: cli/run3d.c */
        return gg_cli_ranks_refuse("3D rules", &err)
                   ? gg_cli_error("run", GG_EXIT_USAGE, &err)
                   : gg_cmd_run3d(argc, argv, cfg);
    run_opts o;
    gg_universe u;
    gg_resident res;
    if (parse_args(argc, argv, &o, &err))
        return gg_cli_error("run", GG_EXIT_USAGE, &err);
    int gen_rc = -1;
    o.cfg = cfg;
    if (strcmp(o.engine, "dense") && strcmp(o.engine, "tiles")) {
        /* cli/run_hashlife.h */
        gg_hl_opts h = {o.rule, o.in, o.out, default_pattern, o.backend, cfg,
                        o.gens, o.mem, !strcmp(o.engine, "auto"),
                        o.progress, &o.pics, &o.pre, &o.has_pre,
                        o.store ? 0 : o.every, o.rules_dir, o.leaf_log};
        int rc = gg_run_hashlife(&h);
        if (rc != GG_RUN_DENSE)
            return rc;
        if (o.every && !o.store) { /* auto chose dense after all */
            gg_fail(&err, "--checkpoint-every without --store checkpoints "
                    "the hash tree into OUT.mc, but this run takes the dense "
                    "engine (a bounded grid, a B0 rule or a busy box); give "
                    "--store S.ggu");
            return gg_cli_error("run", GG_EXIT_USAGE, &err);
        }
    }
    if (o.pics.frames && gg_cli_ranks_refuse("runs with --frames", &err))
        return gg_cli_error("run", GG_EXIT_USAGE, &err);
    gg_store_family fam = o.resume ? store_family(o.resume)
                                   : GG_STORE_UNKNOWN;
    if (o.host_mem && (fam == GG_STORE_LTL || fam == GG_STORE_TABLE) &&
        family_refusals(&o, fam == GG_STORE_LTL ? GG_FAMILY_LTL
                                                : GG_FAMILY_TABLE,
                        &err))
        return gg_cli_error("run", GG_EXIT_USAGE, &err);
    if (o.host_mem) { /* store to store, never whole: cli/run_store_stream.h */
        gg_host_mem_run h = {o.resume, o.store, o.rule, o.backend, cfg,
                             o.gens, o.host_mem, o.device_mem, o.progress};
        if (gg_host_mem_check(&h, o.out, o.every, o.devices.n,
                              o.pics.png || o.pics.frames, &err))
            return gg_cli_error("run", GG_EXIT_USAGE, &err);
        return gg_run_host_mem(&h);
    }
    int status = gg_cli_pictures_ready(&o.pics, &err);
    if (status)
        return gg_cli_error("run", status, &err);
    /* rank 0 reads (the one rank of one process), then cuts the universe
     * into bands over the ranks (cli/run_ranks.h) */
    o.res = resident_wanted(&o) ? &res : NULL;
    bool resident = false;
    int bad = gg_cli_rank() == 0 &&
              (probe_output(o.out, &err) ||
               (o.store && gg_atomic_probe(o.store, &err)) ||
               load(&o, &u, &gen_rc, &resident, &err));
    if (gen_rc >= 0) /* a Generations rule ran instead */
        return gen_rc;
    if (resident && bad)
        gg_resident_free(&res);
    if (resident && !bad) { /* runtime/universes/resident.h */
        int rc, how = run_resident(&o, &u, &rc);
        if (how <= 0)
            return rc;
    }
    if (gg_cli_ranks_scatter(bad, &u, &err)) { /* a stop while loading */
        int rc = gg_cli_error("run", GG_EXIT_USAGE, &err);
        return gg_run_stopped() ? gg_run_stop_status() : rc;
    }
    gg_backend *b;
    gg_backend_opts bo = {.config = cfg,
                          .announce = isatty(2) && gg_cli_rank() == 0,
                          .width_hint = gg_rule_is_bounded(&u.rule)
                                            ? u.grid.width
                                            : 0,
                          .height_hint = u.grid.height};
    if (o.devices.n ? open_devices(&o, &u.rule, bo, &b, &status, &err)
                    : gg_cli_ranks_open_backend(o.backend, &u.rule, &bo, &b,
                                                &status, &err)) {
        gg_universe_free(&u);
        return gg_cli_error("run", status, &err);
    }
    gg_memory_stepper mem;
    gg_stepper stepper = gg_backend_memory_stepper(b, o.device_mem, &mem);
    if (!o.device_mem)
        stepper = o.devices.n ? gg_cli_devices_stepper(&o.devices)
                              : mem.whole;
    gg_stepper local = stepper; /* with the other ranks' halos around */
    if (gg_cli_ranks_stepper(&local, u.grid.height, &stepper, &err)) {
        close_backends(&o, b);
        gg_universe_free(&u);
        return gg_cli_error("run", GG_EXIT_ENV, &err);
    }
    gg_tiles tiles = {0}; /* cli/run_tiles.h */
    if (gg_cli_tiles_wrap(o.engine, b, o.devices.n || o.device_mem ||
                                           gg_cli_ranks() > 1,
                          &tiles, &stepper, &err)) {
        close_backends(&o, b);
        gg_universe_free(&u);
        return gg_cli_error("run", GG_EXIT_USAGE, &err);
    }
    /* a reference step gives up a slow generation at a stop (the ranks'
     * stepper, which must stop all together, has no step_until) */
    stepper.stop = gg_run_stop_flag();
    run2d r = {.u = &u, .stepper = &stepper, .store = o.store,
               .every = o.every};
    gg_run_progress_init(&r.ps, o.progress && gg_cli_rank() == 0, o.gens);
    double start = gg_cli_now();
    int64_t first = u.generation;
    status = gg_cli_run_frames(&o.pics, o.gens, advance2d, draw2d, &r, &err);
    double seconds = gg_cli_now() - start;
    gg_cli_devices_report(&o.devices);
    close_backends(&o, b);
    gg_cli_ranks_stepper_free();
    gg_cli_report_streaming(&mem, stepper.name);
    char engine[160];
    gg_cli_tiles_done(&tiles, stepper.name, engine, sizeof engine);
    if (status) { /* the backend failed part way, or a frame */
        gg_universe_free(&u);
        return gg_cli_error("run", status, &err);
    }
    if (gg_cli_ranks_gather(&u, &err)) {
        gg_universe_free(&u);
        return gg_cli_error("run", GG_EXIT_ENV, &err);
    }
    if (gg_cli_rank() > 0) { /* rank 0 writes and reports */
        gg_universe_free(&u);
        return gg_run_stop_status();
    }
    return finish_run(&o, &u, first, seconds, engine);
}

int gg_cmd_run(int argc, char **argv, const gg_config *cfg)
{
    gg_run_stop_install(); /* Ctrl-C, SIGTERM: write what was reached */
    int rc = run_command(argc, argv, cfg);
    gg_run_stop_restore();
    return rc;
}

#include "run3d.h"

#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#include "atomic_file.h"
#include "backend_auto.h"
#include "cli_pictures.h"
#include "cli_util.h"
#include "run_control.h"
#include "cpu3d.h"
#include "cuda3d.h"
#include "emit_c3d.h"
#include "pattern_rle3.h"
#include "reference3d.h"
#include "rule3d.h"
#include "universe.h"

static bool ends_with(const char *s, const char *suffix)
{
    size_t n = strlen(s), m = strlen(suffix);
    return n >= m && !strcmp(s + n - m, suffix);
}

/* A file that begins as RLE3 does ("3D version=..."), whatever its name
 * (a 2D pattern called 3dglider.rle is not one). */
static bool file_is_rle3(const char *path)
{
    char head[64];
    FILE *f = strcmp(path, "-") ? fopen(path, "rb") : NULL;
    if (!f)
        return false;
    size_t n = fread(head, 1, sizeof head, f);
    fclose(f);
    return gg_rle3_sniff(head, n);
}

bool gg_cli_is_3d(int argc, char **argv, bool positional_rule)
{
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        if ((!strcmp(a, "--rule") || !strcmp(a, "-r")) && i + 1 < argc)
            return gg_rule3d_is_3d(argv[i + 1]);
        if (!strncmp(a, "--rule=", 7))
            return gg_rule3d_is_3d(a + 7);
    }
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        bool output = i > 1 && (!strcmp(argv[i - 1], "-o") ||
                                !strcmp(argv[i - 1], "--output"));
        if (a[0] == '-' || output)
            continue;
        if (positional_rule ? gg_rule3d_is_3d(a)
                            : ends_with(a, ".rle3") || file_is_rle3(a))
            return true;
    }
    return false;
}

static const char *topo_name(const gg_rule3d *r)
{
    return r->topo == GG_TOPO3D_BOX ? "bounded box" : "torus";
}

/* ---- golgen rule 3D... ---- */

int gg_cmd_rule3d(int argc, char **argv, const gg_config *cfg)
{
    (void)cfg;
    if (argc != 2) {
        fprintf(stderr, "usage: golgen rule RULE (e.g. golgen rule "
                "'3D5..7/6:T64')\n");
        return GG_EXIT_USAGE;
    }
    gg_rule3d r;
    gg_err err;
    if (gg_rule3d_parse(argv[1], &r, &err))
        return gg_cli_error("rule", GG_EXIT_USAGE, &err);
    char canon[320], trans[256], s[96], b[96];
    gg_rule3d_format(&r, canon, sizeof canon);
    gg_rule3d_format_transition(&r, trans, sizeof trans);
    gg_rule3d_format_counts(r.survive, r.n_neighbours, s, sizeof s);
    gg_rule3d_format_counts(r.birth, r.n_neighbours, b, sizeof b);
    printf("%-15s %s\n", "rule:", canon);
    printf("%-15s %s (Golly 3D.lua's form: survival/birth)\n",
           "transition:", trans);
    printf("%-15s 3D totalistic\n", "kind:");
    printf("%-15s %s\n", "neighbourhood:", gg_nbhd3d_name(r.nbhd));
    printf("%-15s %s\n", "survival:", *s ? s : "(none)");
    printf("%-15s %s\n", "birth:", *b ? b : "(none)");
    if (r.topo == GG_TOPO3D_SIZED_BY_PATTERN)
        printf("%-15s torus of the pattern's size (RLE3 size=N; add :TN or "
               ":PN to fix it)\n", "topology:");
    else
        printf("%-15s %s %lldx%lldx%lld\n", "topology:", topo_name(&r),
               (long long)r.sx, (long long)r.sy, (long long)r.sz);
    gg_tt t;
    gg_c3d_final_tt(&r, &t);
    int nb = gg_c3d_count_bits(&r);
    printf("%-15s %d inputs (%s bits, centre), %d care rows of %d, %d on\n",
           "final stage:", t.n_inputs,
           r.nbhd == GG_NBHD3D_MOORE ? "5 sum-of-27" : "count", gg_tt_count_care(&t),
           gg_tt_rows(&t), gg_tt_count_on(&t));
    (void)nb;
    printf("%-15s reference, cpu, cuda\n", "backends:");
    return GG_EXIT_OK;
}

/* ---- shared ---- */

typedef enum { B_REFERENCE, B_CPU, B_CUDA, B_AUTO } backend3d;

static int backend_of(const char *name, backend3d *b, gg_err *err)
{
    if (gg_backend_is_auto(name)) { /* sim_open_auto */
        *b = B_AUTO;
        return 0;
    }
    if (!strcmp(name, "cpu")) {
        *b = B_CPU;
        return 0;
    }
    if (!strcmp(name, "reference")) {
        *b = B_REFERENCE;
        return 0;
    }
    if (!strcmp(name, "cuda")) {
        *b = B_CUDA;
        return 0;
    }
    return gg_fail(err, "3D rules run on --backend auto, cpu, cuda or "
                   "reference; '%s' has no 3D kernel yet", name);
}

typedef struct sim3d {
    backend3d backend;
    gg_cpu3d *k;
    gg_cuda3d *gk;
    int threads;
    int slab, ty; /* cuda's launch shape (bench); 0: its own */
} sim3d;

static int sim_open_cuda(sim3d *s, const gg_rule3d *r, const gg_config *cfg,
                         int *status, gg_err *err)
{
    gg_cuda3d_opts o = {.config = cfg, .slab = s->slab, .ty = s->ty};
    gg_fail_kind why;
    if (gg_cuda3d_open(r, &o, &s->gk, &why, err)) {
        *status = gg_fail_exit_status(why);
        return -1;
    }
    return 0;
}

static int sim_open(sim3d *s, const gg_rule3d *r, const gg_config *cfg,
                    int *status, gg_err *err);

typedef struct auto3d {
    sim3d *s;
    const gg_rule3d *r;
    const gg_config *cfg;
} auto3d;

/* Auto's try of one 3D backend: sim_open's exit status back to a kind. */
static int auto3d_open(void *ctx, const char *name, gg_fail_kind *why,
                       gg_err *err)
{
    auto3d *a = ctx;
    int status = GG_EXIT_ENV;
    if (!backend_of(name, &a->s->backend, err) &&
        !sim_open(a->s, a->r, a->cfg, &status, err))
        return 0;
    *why = status == GG_EXIT_CHECK_FAILED ? GG_FAIL_INVALID
           : status == GG_EXIT_USAGE      ? GG_FAIL_INPUT
                                          : GG_FAIL_ENV;
    return -1;
}

/* --backend auto for 3D (runtime/backends/backend_auto.h): cuda, cpu, reference;
 * the choice is said on stderr. */
static int sim_open_auto(sim3d *s, const gg_rule3d *r, const gg_config *cfg,
                         int *status, gg_err *err)
{
    static const char *const names[] = {"cuda", "cpu", "reference"};
    auto3d a = {s, r, cfg};
    gg_auto_line line;
    gg_fail_kind why;
    if (gg_auto_choose(names, 3, auto3d_open, &a, &line, &why, err) < 0) {
        *status = gg_fail_exit_status(why);
        return -1;
    }
    fprintf(stderr, "golgen: %s\n", line.text);
    return 0;
}

static int sim_open(sim3d *s, const gg_rule3d *r, const gg_config *cfg,
                    int *status, gg_err *err)
{
    if (s->backend == B_AUTO)
        return sim_open_auto(s, r, cfg, status, err);
    if (s->backend == B_REFERENCE)
        return 0;
    if (s->backend == B_CUDA)
        return sim_open_cuda(s, r, cfg, status, err);
    gg_cpu3d_opts o = {.config = cfg, .threads = s->threads};
    bool check_failed = false;
    if (gg_cpu3d_open(r, &o, &s->k, &check_failed, err)) {
        *status = check_failed ? GG_EXIT_CHECK_FAILED : GG_EXIT_ENV;
        return -1;
    }
    return 0;
}

/* gens generations, fewer when a stop comes (runtime/base/stop.h): the
 * reference and cpu steps give up the generation in flight (one of a
 * 1000^3 grid takes a minute on the reference), cuda's run whole (its
 * generations take milliseconds). The generations run, -1 on failure. */
static int64_t sim_run_until(sim3d *s, const gg_rule3d *r, gg_grid3d *g,
                             bool torus, int64_t gens, gg_stop_flag *stop,
                             gg_err *err)
{
    if (s->backend == B_CUDA)
        return gg_cuda3d_run(s->gk, g, torus, gens, err) ? -1 : gens;
    return s->backend == B_REFERENCE
               ? gg_ref3d_run_until(r, torus, g, gens, stop, err)
               : gg_cpu3d_run_until(s->k, g, torus, gens, stop, err);
}

static int sim_run(sim3d *s, const gg_rule3d *r, gg_grid3d *g, bool torus,
                   int64_t gens, gg_err *err)
{
    return sim_run_until(s, r, g, torus, gens, NULL, err) < 0 ? -1 : 0;
}

static void sim_close(sim3d *s)
{
    gg_cpu3d_close(s->k);
    gg_cuda3d_close(s->gk);
}

static double cpu_now(void)
{
    struct rusage u;
    getrusage(RUSAGE_SELF, &u);
    return (double)u.ru_utime.tv_sec + 1e-6 * (double)u.ru_utime.tv_usec +
           (double)u.ru_stime.tv_sec + 1e-6 * (double)u.ru_stime.tv_usec;
}

/* ---- golgen run --rule 3D... ---- */

static void run_usage(FILE *out)
{
    fprintf(out,
            "usage: golgen run --gens N [--rule 3DRULE] [--backend auto|cpu|"
            "cuda|reference]\n                  [--threads N] [-o OUT.rle3] "
            "IN.rle3\n\nSimulate RLE3 pattern IN (Golly 3D.lua's format; - "
            "for stdin) for N generations\non the N^3 torus its size= gives, "
            "or the rule's :TN / :TX,Y,Z torus or :PN /\n:PX,Y,Z bounded "
            "box, and write the result as RLE3 to OUT (- for stdout).\n");
    gg_cli_pictures_usage(out, true);
}

/* The grid as --frames and --png see it (cli/cli_pictures.h). */
typedef struct run3d {
    sim3d *sim;
    const gg_rule3d *r;
    gg_grid3d *g;
    bool torus;
    gg_run_progress ps;
    int64_t reached; /* generations run */
} run3d;

/* In batches (the universe runs' policy, runtime/universes/batch.h) so progress
 * shows after each; a stop signal ends the batch in flight, the grid at
 * the last generation completed. */
static int advance3d(void *ctx, int64_t gens, bool *stopped, gg_err *err)
{
    run3d *x = ctx;
    gg_batch batch;
    gg_batch_init(&batch, 0, 0);
    for (int64_t done = 0; done < gens && !gg_run_stopped();) {
        int64_t n = gg_batch_take(&batch, gens - done);
        double t0 = gg_batch_clock();
        int64_t ran = sim_run_until(x->sim, x->r, x->g, x->torus, n,
                                    gg_run_stop_flag(), err);
        if (ran < 0)
            return -1;
        done += ran;
        x->reached += ran;
        gg_batch_done(&batch, ran, gg_batch_clock() - t0);
        if (ran < n || !gg_run_progress_cb(&x->ps, x->reached, x->ps.all))
            break;
    }
    *stopped = gg_run_stopped();
    return 0;
}

static int draw3d(void *ctx, const char *path, const gg_picture_opts *o,
                  gg_picture_info *info, gg_err *err)
{
    run3d *x = ctx;
    return gg_picture_write_grid3d(path, x->g, o, info, err);
}

int gg_cmd_run3d(int argc, char **argv, const gg_config *cfg)
{
    static const struct option opts[] = {
        {"rule", required_argument, 0, 'r'},
        {"gens", required_argument, 0, 'g'},
        {"backend", required_argument, 0, 'b'},
        {"output", required_argument, 0, 'o'},
        {"threads", required_argument, 0, 't'},
        {"progress", no_argument, 0, 'p'},
        {"help", no_argument, 0, 'h'},
        GG_CLI_PICTURE_OPTIONS,
        /* what 2D runs take and 3D ones not yet: refused by name */
        {"store", required_argument, 0, 'X'},
        {"resume", required_argument, 0, 'X'},
        {"checkpoint-every", required_argument, 0, 'X'},
        {"host-mem", required_argument, 0, 'X'},
        {"device-mem", required_argument, 0, 'X'},
        {"devices", required_argument, 0, 'X'},
        {"engine", required_argument, 0, 'X'},
        {"mem", required_argument, 0, 'X'},
        {0, 0, 0, 0}};
    const char *rule_text = NULL, *out = NULL, *bname = NULL;
    int64_t gens = -1, threads = 0;
    bool progress = isatty(2);
    gg_cli_pictures pics = {0};
    gg_err err;
    int c;
    optind = 1;
    opterr = 0; /* our messages name golgen and the cause */
    int at = -1;
    while ((c = getopt_long(argc, argv, ":r:g:b:o:ph", opts, &at)) != -1) {
        switch (c) {
        case 'X':
            fprintf(stderr, "golgen run: 3D rules do not take --%s yet "
                    "(stores, out-of-core runs, device bands and the hash "
                    "tree hold 2D universes); run without it\n",
                    opts[at].name);
            return GG_EXIT_USAGE;
        case '?':
        case ':':
            fprintf(stderr, "golgen run: %s option '%s' for a 3D rule; see "
                    "'golgen run --help' (with a 3D rule)\n",
                    c == ':' ? "a value is missing after the"
                             : "unknown", argv[optind - 1]);
            return GG_EXIT_USAGE;
        case 'r': rule_text = optarg; break;
        case 'g':
            if (gg_cli_int("--gens", optarg, 0, INT64_MAX / 2, &gens, &err))
                return gg_cli_error("run", GG_EXIT_USAGE, &err);
            break;
        case 'b': bname = optarg; break;
        case 'o': out = optarg; break;
        case 't':
            if (gg_cli_int("--threads", optarg, 1, 4096, &threads, &err))
                return gg_cli_error("run", GG_EXIT_USAGE, &err);
            break;
        case 'p': progress = true; break;
        case 'h': run_usage(stdout); return GG_EXIT_OK;
        default:
            switch (gg_cli_picture_option(c, optarg, &pics, &err)) {
            case 0: break;
            case 1: run_usage(stderr); return GG_EXIT_USAGE;
            default: return gg_cli_error("run", GG_EXIT_USAGE, &err);
            }
        }
    }
    if (gens < 0 || optind != argc - 1) {
        if (optind == argc)
            fprintf(stderr, "golgen run: a 3D rule needs an RLE3 pattern "
                    "file (IN.rle3, as Golly's 3D.lua saves)\n");
        run_usage(stderr);
        return GG_EXIT_USAGE;
    }
    sim3d sim = {.threads = (int)threads};
    if (backend_of(bname, &sim.backend, &err))
        return gg_cli_error("run", GG_EXIT_USAGE, &err);
    int ready = gg_cli_pictures_ready(&pics, &err);
    if (ready)
        return gg_cli_error("run", ready, &err);
    /* fail before a long run, not after it, when OUT cannot be made */
    if (out && strcmp(out, "-") && gg_atomic_probe(out, &err))
        return gg_cli_error("run", GG_EXIT_USAGE, &err);
    gg_rle3 p;
    if (gg_rle3_read(argv[optind], &p, &err))
        return gg_cli_error("run", GG_EXIT_USAGE, &err);
    gg_rule3d r;
    const char *rt = rule_text ? rule_text : p.rule;
    int status = GG_EXIT_USAGE;
    gg_grid3d g = {0};
    int bad = gg_rule3d_parse(rt, &r, &err);
    if (!bad && r.topo == GG_TOPO3D_SIZED_BY_PATTERN) {
        r.topo = GG_TOPO3D_TORUS;
        r.sx = r.sy = r.sz = p.size;
    }
    if (!bad && (p.pos[0] + p.w > r.sx || p.pos[1] + p.h > r.sy ||
                 p.pos[2] + p.d > r.sz))
        bad = gg_fail(&err, "the %lldx%lldx%lld pattern at pos=%lld,%lld,"
                      "%lld does not fit the %lldx%lldx%lld grid of rule "
                      "'%s'; give a larger :T or :P size",
                      (long long)p.w, (long long)p.h, (long long)p.d,
                      (long long)p.pos[0], (long long)p.pos[1],
                      (long long)p.pos[2], (long long)r.sx, (long long)r.sy,
                      (long long)r.sz, rt);
    if (!bad)
        bad = gg_grid3d_init(&g, r.sx, r.sy, r.sz, &err);
    if (!bad && p.cells.bits)
        for (int64_t z = 0; z < p.d; z++)
            for (int64_t y = 0; y < p.h; y++)
                for (int64_t x = 0; x < p.w; x++)
                    if (gg_grid3d_get(&p.cells, x, y, z))
                        gg_grid3d_set(&g, p.pos[0] + x, p.pos[1] + y,
                                      p.pos[2] + z, 1);
    bool torus = r.topo == GG_TOPO3D_TORUS;
    run3d run = {.sim = &sim, .r = &r, .g = &g, .torus = torus};
    gg_run_progress_init(&run.ps, progress, gens);
    if (!bad)
        bad = sim_open(&sim, &r, cfg, &status, &err);
    if (!bad) {
        double t0 = gg_cli_now();
        status = gg_cli_run_frames(&pics, gens, advance3d, draw3d, &run,
                                   &err);
        bad = status != 0;
        double secs = gg_cli_now() - t0;
        if (!bad)
            fprintf(stderr, "generation %lld, population %lld (%.3f s)\n",
                    (long long)(p.gen + run.reached),
                    (long long)gg_grid3d_population(&g), secs);
    }
    if (!bad && out) {
        char rs[320];
        /* 3D.lua's own form when the grid is its N^3 torus */
        if (torus && r.sx == r.sy && r.sy == r.sz)
            gg_rule3d_format_transition(&r, rs, sizeof rs);
        else
            gg_rule3d_format(&r, rs, sizeof rs);
        status = GG_EXIT_USAGE;
        bad = gg_rle3_write(out, &g, rs, p.gen + run.reached, p.comments,
                            &err);
    }
    if (!bad) {
        status = gg_cli_write_png(&pics, draw3d, &run, &err);
        bad = status != 0;
    }
    sim_close(&sim);
    gg_grid3d_free(&g);
    gg_rle3_free(&p);
    if (bad)
        return gg_cli_error("run", status, &err);
    return gg_run_stop_report(run.reached, gens, out != NULL);
}

/* ---- golgen bench --rule 3D... ---- */

static void bench_usage(FILE *out)
{
    fprintf(out,
            "usage: golgen bench --rule 3DRULE [--backend auto|cpu|cuda|"
            "reference] [--size N|XxYxZ]\n                    [--gens N] "
            "[--plane] [--threads N] [--seed S] [--json]\n"
            "                    [--slab N] [--ty N]\n\nRun a 3D rule on a "
            "random "
            "soup of density 1/2 on an XxYxZ torus (default the\nrule's :T/:P "
            "size, else 256^3; --plane for a bounded box) for N generations\n"
            "(default 16) and print cell updates per second: X x Y x Z x "
            "generations /\nseconds. One untimed warm-up generation runs "
            "first; compilation and\nvalidation are not timed; on cuda the "
            "seconds are device time (transfers\nexcluded). cuda's launch "
            "shape: --slab N planes and --ty N rows per thread\n(default: "
            "sized to the GPU, and 4).\n");
}

/* One untimed generation, then gens timed ones: wall time on the CPU
 * backends, device time on cuda (transfers excluded). */
static int bench_time(sim3d *s, const gg_rule3d *r, gg_grid3d *g,
                      bool torus, int64_t gens, double *secs, double *cpu,
                      gg_err *err)
{
    double c0 = cpu_now();
    if (s->backend == B_CUDA) {
        int rc = gg_cuda3d_timed(s->gk, g, torus, gens, secs, err);
        *cpu = cpu_now() - c0;
        return rc;
    }
    if (sim_run(s, r, g, torus, 1, err)) /* warm-up */
        return -1;
    double t0 = gg_cli_now();
    c0 = cpu_now();
    int rc = sim_run(s, r, g, torus, gens, err);
    *secs = gg_cli_now() - t0;
    *cpu = cpu_now() - c0;
    return rc;
}

/* What ran: the GPU and the launch shape, or the cpu kernel's ISA (and
 * threads when with_threads: the text line's form). */
static void describe(const sim3d *s, bool with_threads, char *buf,
                     size_t size)
{
    int th = s->k ? gg_cpu3d_threads(s->k) : 1;
    if (s->gk)
        snprintf(buf, size, "%s, %s, final %d gates", gg_cuda3d_device(s->gk),
                 gg_cuda3d_shape(s->gk), gg_cuda3d_final_gates(s->gk));
    else if (with_threads)
        snprintf(buf, size, "%s, %d thread%s",
                 s->k ? gg_cpu3d_isa(s->k) : "scalar", th, th == 1 ? "" : "s");
    else
        snprintf(buf, size, "%s", s->k ? gg_cpu3d_isa(s->k) : "scalar");
}

static int parse_size3(const char *s, int64_t v[3], gg_err *err)
{
    char buf[96];
    snprintf(buf, sizeof buf, "%s", s);
    char *parts[3] = {buf, NULL, NULL};
    int n = 1;
    for (char *p = buf; *p; p++)
        if (*p == 'x' || *p == 'X') {
            if (n == 3)
                return gg_fail(err, "--size wants N or XxYxZ, e.g. "
                               "256x256x256, not '%s'", s);
            *p = 0;
            parts[n++] = p + 1;
        }
    if (n == 2)
        return gg_fail(err, "--size wants N or XxYxZ, e.g. 256x256x256, "
                       "not '%s'", s);
    for (int i = 0; i < 3; i++)
        if (gg_cli_int("--size", parts[n == 1 ? 0 : i], 1, GG_MAX_SIDE3D,
                       &v[i], err))
            return -1;
    return 0;
}

int gg_cmd_bench3d(int argc, char **argv, const gg_config *cfg)
{
    static const struct option opts[] = {
        {"backend", required_argument, 0, 'b'},
        {"rule", required_argument, 0, 'r'},
        {"size", required_argument, 0, 's'},
        {"gens", required_argument, 0, 'g'},
        {"plane", no_argument, 0, 'P'},
        {"threads", required_argument, 0, 't'},
        {"seed", required_argument, 0, 'S'},
        {"json", no_argument, 0, 'j'},
        {"slab", required_argument, 0, 'L'},
        {"ty", required_argument, 0, 'Y'},
        {"help", no_argument, 0, 'h'},
        {0, 0, 0, 0}};
    const char *rule_text = NULL, *bname = NULL, *size = NULL;
    int64_t gens = 16, threads = 0, seed = 1, slab = 0, ty = 0;
    bool plane = false, json = false;
    gg_err err;
    int c;
    optind = 1;
    while ((c = getopt_long(argc, argv, "b:r:s:g:t:h", opts, NULL)) != -1) {
        switch (c) {
        case 'b': bname = optarg; break;
        case 'r': rule_text = optarg; break;
        case 's': size = optarg; break;
        case 'g':
            if (gg_cli_int("--gens", optarg, 1, INT64_MAX / 2, &gens, &err))
                return gg_cli_error("bench", GG_EXIT_USAGE, &err);
            break;
        case 'P': plane = true; break;
        case 't':
            if (gg_cli_int("--threads", optarg, 1, 4096, &threads, &err))
                return gg_cli_error("bench", GG_EXIT_USAGE, &err);
            break;
        case 'S':
            if (gg_cli_int("--seed", optarg, 0, INT64_MAX, &seed, &err))
                return gg_cli_error("bench", GG_EXIT_USAGE, &err);
            break;
        case 'j': json = true; break;
        case 'L':
            if (gg_cli_int("--slab", optarg, 1, 1 << 24, &slab, &err))
                return gg_cli_error("bench", GG_EXIT_USAGE, &err);
            break;
        case 'Y':
            if (gg_cli_int("--ty", optarg, 1, 16, &ty, &err))
                return gg_cli_error("bench", GG_EXIT_USAGE, &err);
            break;
        case 'h': bench_usage(stdout); return GG_EXIT_OK;
        default: bench_usage(stderr); return GG_EXIT_USAGE;
        }
    }
    if (optind != argc || !rule_text) {
        bench_usage(stderr);
        return GG_EXIT_USAGE;
    }
    sim3d sim = {.threads = (int)threads, .slab = (int)slab, .ty = (int)ty};
    gg_rule3d r;
    if (backend_of(bname, &sim.backend, &err) ||
        gg_rule3d_parse(rule_text, &r, &err))
        return gg_cli_error("bench", GG_EXIT_USAGE, &err);
    int64_t sz[3] = {256, 256, 256};
    if (size) {
        if (parse_size3(size, sz, &err))
            return gg_cli_error("bench", GG_EXIT_USAGE, &err);
    } else if (r.topo != GG_TOPO3D_SIZED_BY_PATTERN) {
        sz[0] = r.sx;
        sz[1] = r.sy;
        sz[2] = r.sz;
    }
    bool torus = plane ? false : r.topo != GG_TOPO3D_BOX;
    r.topo = torus ? GG_TOPO3D_TORUS : GG_TOPO3D_BOX;
    r.sx = sz[0];
    r.sy = sz[1];
    r.sz = sz[2];
    gg_grid3d g;
    if (gg_grid3d_init(&g, sz[0], sz[1], sz[2], &err))
        return gg_cli_error("bench", GG_EXIT_USAGE, &err);
    gg_grid3d_random(&g, 0.5, (uint64_t)seed);
    int status = GG_EXIT_USAGE;
    int bad = sim_open(&sim, &r, cfg, &status, &err);
    double secs = 0, cpu = 0;
    if (!bad) {
        status = GG_EXIT_ENV;
        bad = bench_time(&sim, &r, &g, torus, gens, &secs, &cpu, &err);
    }
    if (!bad) {
        char rs[256];
        gg_rule3d_format_transition(&r, rs, sizeof rs);
        double cups = (double)sz[0] * (double)sz[1] * (double)sz[2] *
                      (double)gens / (secs > 0 ? secs : 1e-9);
        const char *bn = sim.backend == B_CPU    ? "cpu"
                         : sim.backend == B_CUDA ? "cuda"
                                                 : "reference";
        char isa[512];
        describe(&sim, !json, isa, sizeof isa);
        int th = sim.k ? gg_cpu3d_threads(sim.k) : 1;
        if (json)
            printf("{\"rule\": \"%s\", \"backend\": \"%s\", \"isa\": \"%s\", "
                   "\"threads\": %d, \"topology\": \"%s\", \"sx\": %lld, "
                   "\"sy\": %lld, \"sz\": %lld, \"generations\": %lld, "
                   "\"seconds\": %.6f, \"cups\": %.6e, \"cpu_seconds\": "
                   "%.6f, \"population\": %lld}\n",
                   rs, bn, isa, th, torus ? "torus" : "box",
                   (long long)sz[0], (long long)sz[1], (long long)sz[2],
                   (long long)gens, secs, cups, cpu,
                   (long long)gg_grid3d_population(&g));
        else
            printf("%s %s %lldx%lldx%lld, %lld generations: %.3f s, %.3e "
                   "CUpS (%s, %s; %.3f CPU s)\n",
                   rs, torus ? "torus" : "box", (long long)sz[0],
                   (long long)sz[1], (long long)sz[2], (long long)gens, secs,
                   cups, bn, isa, cpu);
    }
    sim_close(&sim);
    gg_grid3d_free(&g);
    return bad ? gg_cli_error("bench", status, &err) : GG_EXIT_OK;
}

/* ---- golgen --target and verify for 3D rules ---- */

int gg_emit3d_source(const char *rule_text, const char *target, char **src,
                     size_t *len, gg_err *err)
{
    gg_rule3d rule;
    if (gg_rule3d_parse(rule_text, &rule, err))
        return -1;
    bool cuda = !strcmp(target, "cuda");
    if (!cuda && strcmp(target, "c"))
        return gg_fail(err, "%s is a 3D rule; --target %s has no 3D kernel "
                       "yet: use --target c or --target cuda", rule_text,
                       target);
    char source[256];
    int gates;
    if (cuda)
        return gg_cuda3d_source(&rule, NULL, src, len, source, sizeof source,
                                &gates, err);
    gg_net *net = gg_alloc(1, sizeof *net, err, "3D network");
    int bad = !net ||
              gg_cpu3d_choose_final(&rule, net, source, sizeof source, err) ||
              gg_emit_c3d(&rule, net, source, src, len, err);
    free(net);
    return bad ? -1 : 0;
}

/* Whether the final stage gives what the rule says for every count of
 * live neighbours and centre, fed the bits the kernel feeds it: Moore's
 * kernels sum the 27 cells, centre included (gen/emit_c3d.h). */
static int check_counts(const gg_rule3d *rule, const gg_net *net,
                        int *wrong)
{
    int nb = gg_c3d_count_bits(rule), rows = 0;
    *wrong = -1;
    for (int centre = 0; centre < 2; centre++)
        for (int n = 0; n <= rule->n_neighbours; n++, rows++) {
            uint64_t in[GG_TT_MAX_INPUTS] = {0}, out[GG_NET_MAX_OUTPUTS];
            int sum = rule->nbhd == GG_NBHD3D_MOORE ? n + centre : n;
            for (int i = 0; i < nb; i++)
                in[i] = (sum >> i & 1) ? ~0ull : 0;
            in[nb] = centre ? ~0ull : 0;
            gg_net_eval64(net, in, out);
            uint32_t mask = centre ? rule->survive : rule->birth;
            if ((int)(out[0] & 1) != (int)(mask >> n & 1) && *wrong < 0)
                *wrong = n + centre * 100;
        }
    return rows;
}

int gg_cmd_verify3d(const char *rule_text)
{
    gg_err err;
    gg_rule3d rule;
    if (gg_rule3d_parse(rule_text, &rule, &err))
        return gg_cli_error("verify", GG_EXIT_USAGE, &err);
    gg_net *net = gg_alloc(1, sizeof *net, &err, "3D network");
    char source[256];
    if (!net ||
        gg_cpu3d_choose_final(&rule, net, source, sizeof source, &err)) {
        free(net);
        return gg_cli_error("verify", GG_EXIT_CHECK_FAILED, &err);
    }
    char text[256];
    gg_rule3d_format_transition(&rule, text, sizeof text);
    int counts[GG_OP_COUNT];
    int gates = gg_net_count(net, counts);
    printf("rule %s (%d neighbours), final stage from %s: %d gate2 gates "
           "over %d count bits and the centre\n", text, rule.n_neighbours,
           source, gates, gg_c3d_count_bits(&rule));
    int wrong, rows = check_counts(&rule, net, &wrong);
    free(net);
    if (wrong >= 0) {
        printf("FAIL: %s with %d live neighbours is wrong\n",
               wrong >= 100 ? "a live cell" : "a dead cell", wrong % 100);
        return GG_EXIT_CHECK_FAILED;
    }
    printf("PASS: all %d (count, centre) pairs match the rule\n", rows);
    return GG_EXIT_OK;
}

#include "run_hashlife.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "atomic_file.h"
#include "cli_frames.h"
#include "cli_util.h"
#include "engine_choice.h"
#include "file_text.h"
#include "hashlife.h"
#include "hl_rle.h"
#include "mc_tree.h"
#include "reference_table.h"
#include "rule_find.h"
#include "rule_ltl.h"
#include "run_control.h"
#include "table_kernel.h"

/* What the run starts from: a parsed macrocell file (any size, never
 * dense), the runs of an RLE whose box is much bigger than its text
 * (never dense either), or a pattern. */
typedef struct hl_input {
    gg_mc_tree mc;
    gg_pattern_runs runs;
    gg_pattern p;
    bool is_mc, is_runs;
} hl_input;

/* An RLE goes to the tree as runs when its box has more cells than this
 * a byte of text: a soup keeps the dense reader, whose word-at-a-time
 * paths are faster than runs into leaves; Golly's circuits (a 31473 x
 * 31101 box from 46 KB) skip a 122 MB grid. */
#define SPARSE_CELLS_PER_BYTE 64.0


/* A macrocell file stays a tree (any size); other formats and stdin are
 * read as patterns. */
static int read_input(const char *path, const char *fallback,
                      hl_input *in, gg_err *err)
{
    memset(in, 0, sizeof *in);
    if (!path)
        return gg_pattern_parse(fallback, strlen(fallback),
                                "built-in R-pentomino", &in->p, err);
    if (!strcmp(path, "-"))
        return gg_pattern_read_stop(path, gg_run_stop_flag(), &in->p, err);
    size_t len; /* gunzipped when gzip: a .mc.gz stays a tree too */
    char *text = gg_file_text_alloc(path, gg_run_stop_flag(), &len, err);
    if (!text)
        return -1;
    int rc;
    if (len >= 4 && !memcmp(text, "[M2]", 4)) {
        rc = gg_mc_tree_parse(text, len, path, &in->mc, err);
        in->is_mc = !rc;
    } else if ((rc = gg_pattern_runs_parse(text, len, path,
                                           gg_run_stop_flag(),
                                           SPARSE_CELLS_PER_BYTE, &in->runs,
                                           err)) != 1) {
        in->is_runs = !rc;
    } else {
        rc = gg_pattern_parse_stop(text, len, path, gg_run_stop_flag(),
                                   &in->p, err);
    }
    free(text);
    return rc;
}

static void free_input(hl_input *in)
{
    if (in->is_mc)
        gg_mc_tree_free(&in->mc);
    else if (in->is_runs)
        gg_pattern_runs_free(&in->runs);
    else
        gg_pattern_free(&in->p);
}

/* The input's box (a macrocell's: 0 x 0, it is a tree already). */
static void input_box(const hl_input *in, int64_t *w, int64_t *h)
{
    *w = in->is_mc ? 0 : in->is_runs ? in->runs.width : in->p.plane[0].width;
    *h = in->is_mc ? 0
         : in->is_runs ? in->runs.height
                       : in->p.plane[0].height;
}

/* The input placed in the tree. */
static int input_to_tree(gg_hl *h, const hl_input *in, gg_err *err)
{
    return in->is_mc     ? gg_hl_set_mc(h, &in->mc, err)
           : in->is_runs ? gg_hl_set_runs(h, &in->runs, err)
                         : gg_hl_set_pattern(h, &in->p, err);
}

/* OUT by its name: macrocell and RLE from the tree at any size, other
 * formats through a dense pattern (at most 2^34 cells, 2 GiB). */
static int write_output(gg_hl *h, const char *out, const char *rule_text,
                        gg_err *err)
{
    gg_pattern_format fmt;
    if (gg_cli_named_mc(out))
        return gg_hl_write_mc(h, out, rule_text, err);
    if (gg_pattern_format_for_name(out, &fmt, err))
        return -1;
    if (fmt == GG_PATTERN_RLE)
        return gg_hl_write_rle(h, out, err);
    gg_pattern p;
    if (gg_hl_to_pattern(h, (int64_t)1 << 34, &p, err))
        return -1;
    int rc = gg_pattern_write(out, &p, err);
    gg_pattern_free(&p);
    return rc;
}

/* --png's picture of the tree (cli/cli_pictures.h's drawer). */
static int draw_tree(void *ctx, const char *path, const gg_picture_opts *o,
                     gg_picture_info *info, gg_err *err)
{
    return gg_hl_write_png(ctx, path, o, info, err);
}

/* run's progress line, and inside a long step (seconds, all of whose
 * generations arrive at its end) what the tree is doing meanwhile. */
typedef struct tree_progress {
    gg_run_progress ps;
    gg_hl *h;
    int wide; /* the last in-step line's length: blanked before a shorter
                 one is written over it */
} tree_progress;

static bool tree_progress_cb(void *ctx, int64_t done, int64_t total)
{
    tree_progress *t = ctx;
    int k = gg_hl_step_in_flight(t->h);
    if (k < 0) {
        if (t->wide)
            fprintf(stderr, "\r%*s", t->wide, "");
        t->wide = 0;
        return gg_run_progress_cb(&t->ps, done, total);
    }
    double now = gg_cli_now();
    if (!t->ps.show || t->ps.all <= 0 || now - t->ps.last < 1.0)
        return true;
    t->ps.last = now;
    gg_hl_stats st;
    gg_hl_stats_get(t->h, &st);
    done += t->ps.base;
    int n = fprintf(stderr, "\rgeneration %lld of %lld (%.0f%%), a step of "
                    "2^%d under way: %lld leaf squares, %lld nodes, %.0f MB",
                    (long long)done, (long long)t->ps.all,
                    100.0 * (double)done / (double)t->ps.all, k,
                    (long long)st.base_steps, (long long)st.nodes,
                    (double)st.bytes / 1e6);
    if (n > 0 && n < t->wide) /* blank what a longer line left */
        fprintf(stderr, "%*s", t->wide - n, "");
    if (n > t->wide)
        t->wide = n;
    return true;
}

/* The run once the tree holds the input: exit status. */
static int run_tree(gg_hl *h, const gg_hl_opts *o, const char *rule_text,
                    const char *leaves, gg_err *err)
{
    double start = gg_cli_now();
    int64_t done = 0, first = gg_hl_generation(h);
    tree_progress tp = {.h = h};
    gg_run_progress *ps = &tp.ps;
    gg_run_progress_init(ps, o->progress, o->gens);
    gg_hl_set_progress(h, tree_progress_cb, &tp);
    for (int64_t left = o->gens; left > 0 && !gg_run_stopped();) {
        int64_t n = o->every > 0 && o->every < left ? o->every : left;
        int64_t ran = 0;
        ps->base = done; /* the callback counts within this call */
        if (gg_hl_run(h, n, gg_run_stopped, &ran, err))
            return GG_EXIT_USAGE;
        done += ran;
        left -= ran;
        /* a checkpoint, which a resumed run starts from: on the disk */
        if (ran == n && left > 0 && o->every > 0 &&
            (write_output(h, o->out, rule_text, err) ||
             (strcmp(o->out, "-") && gg_atomic_sync(o->out, err))))
            return GG_EXIT_USAGE;
    }
    double seconds = gg_cli_now() - start;
    if (o->out && write_output(h, o->out, rule_text, err))
        return GG_EXIT_USAGE;
    int status = gg_cli_write_png(o->pics, draw_tree, h, err);
    if (status)
        return status;
    gg_hl_stats st;
    gg_hl_stats_get(h, &st);
    fprintf(stderr, "%s: generation %lld, population %lld, %.3f s "
            "(hashlife, leaves by %s; %dx%d leaves, %lld leaf steps, %lld "
            "nodes, %.1f MB, %lld collections)\n", rule_text,
            (long long)gg_hl_generation(h), (long long)gg_hl_population(h),
            seconds, leaves, 1 << gg_hl_leaf_log(h), 1 << gg_hl_leaf_log(h),
            (long long)st.base_steps, (long long)st.nodes,
            (double)st.bytes / 1e6, (long long)st.collections);
    return gg_run_stop_report(gg_hl_generation(h) - first, o->gens,
                              o->out != NULL);
}

/* Live cells for a choice's rule of thumb: each plane's (a cell in state
 * 3 counts twice: near enough for a threshold). */
static int64_t input_population(const hl_input *in)
{
    if (in->is_runs) /* counted while parsing */
        return in->runs.population;
    int64_t pop = 0;
    for (int i = 0; i < in->p.n_planes; i++)
        pop += gg_grid_population(&in->p.plane[i]);
    return pop;
}

/* Auto's rule of thumb (runtime/engines/engine_choice.h) for the input:
 * a macrocell is a tree already (a 0 x 0 box). rule NULL: a rule table
 * the tree takes, which goes to the tree whatever its box (busy or not:
 * BENCHMARKS.md, "Rule tables through the hash tree"). */
static bool tree_first(const hl_input *in, const gg_rule *rule, int64_t gens,
                       int64_t mem)
{
    if (!rule)
        return true;
    if (in->is_mc)
        return gg_engine_prefers_tree(rule, 0, 0, -1, gens, mem);
    int64_t w, h, pop = -1;
    input_box(in, &w, &h);
    if (gg_engine_box_needs_population(w, h))
        pop = input_population(in);
    return gg_engine_prefers_tree(rule, w, h, pop, gens, mem);
}

/* --engine auto's choice, said in one line as backend auto says its own:
 * true for the tree. */
static bool choose_tree(const hl_input *in, const gg_rule *rule,
                        int64_t gens, int64_t mem)
{
    if (rule && gg_engine_tree_refuses(rule))
        return false; /* dense by nature: nothing to say */
    bool tree = tree_first(in, rule, gens, mem);
    int64_t w, h;
    input_box(in, &w, &h);
    bool huge = !in->is_mc && gg_engine_dense_too_big(w, h, mem);
    fprintf(stderr, "golgen: engine auto -> %s\n",
            !tree  ? "dense (a busy box of 2^22 cells or more, over 1/32 "
                     "alive, for few generations)"
            : huge ? "hashlife (unbounded plane; its box is too big for "
                     "dense grids in --mem)"
                   : "hashlife (unbounded plane)");
    return tree;
}

/* Auto leaves the run to the dense engine: a pattern read once goes
 * with it (gg_hl_opts.handoff), else it is freed. */
static int leave_to_dense(const gg_hl_opts *o, hl_input *in)
{
    gg_err ignored; /* a box too big to draw: dense reads the file */
    if (in->is_runs && o->handoff && o->handed &&
        !gg_pattern_runs_to_pattern(&in->runs, &in->p, &ignored)) {
        gg_pattern_runs_free(&in->runs);
        in->is_runs = false;
    }
    if (!in->is_mc && !in->is_runs && o->handoff && o->handed) {
        *o->handoff = in->p;
        *o->handed = true;
    } else {
        free_input(in);
    }
    return GG_RUN_DENSE;
}

/* The tree for rule over a backend for its leaves, the input placed. */
static int open_tree(const gg_hl_opts *o, const gg_rule *rule,
                     const hl_input *in, gg_backend **b, gg_hl **h,
                     int *status, gg_err *err)
{
    /* leaves are small squares: one host thread steps each */
    gg_backend_opts bo = {.config = o->cfg, .announce = isatty(2),
                          .threads = 1, .host_only = true};
    const char *no = gg_engine_tree_refuses(rule);
    *status = GG_EXIT_USAGE;
    if (no) {
        char text[256];
        gg_rule_format(rule, text, sizeof text);
        return gg_fail(err, "%s is %s: the hash-tree engine runs rules on "
                       "the unbounded plane (without B0) only so far; use "
                       "--engine dense", text, no);
    }
    return gg_cli_open_backend(o->backend, rule, &bo, b, status, err) ||
                   gg_hl_new(rule, *b, gg_engine_tree_bytes(o->mem), h, err) ||
                   (o->leaf_log && gg_hl_set_leaf_log(*h, o->leaf_log, err)) ||
                   input_to_tree(*h, in, err)
               ? -1
               : 0;
}

/* ---- Golly rule tables and trees (runtime/formats/rule_find.h) ---- */

/* A rule table's leaves: its cpu kernel on one thread, or (asked for, or
 * under auto without a kernel) the reference. */
typedef struct table_leaves {
    const gg_rulefile *rf;
    gg_table_kernel k; /* k.step NULL: the reference */
} table_leaves;

static int table_leaf_step(void *ctx, gg_gen_cells *cells, int64_t gens,
                           gg_err *err)
{
    table_leaves *t = ctx;
    if (t->k.step)
        return t->k.step(t->k.ctx, GG_TOPO_PLANE, cells, gens, err);
    return gg_reference_table_run(t->rf, GG_TOPO_PLANE, cells, gens, NULL,
                                  err) < 0
               ? -1
               : 0;
}

/* Why the tree does not take the rule file found, or NULL. */
static const char *table_refuses(const gg_rule_found *f)
{
    return f->topo != GG_TOPO_UNBOUNDED ? "on a bounded grid"
           : !gg_rulefile_zero_stays(&f->rf)
               ? "a rule whose state 0 does not stay 0 amid 0s"
               : NULL;
}

/* Whether the backend asked for can step a rule table's leaves: the
 * host's (auto, cpu, reference). */
static bool host_leaves(const gg_hl_opts *o)
{
    const char *name = o->backend ? o->backend->name : "auto";
    return !strcmp(name, "auto") || !strcmp(name, "cpu") ||
           !strcmp(name, "reference");
}

/* The leaves' stepper for the backend asked for; *status on failure. */
static int open_table_leaves(const gg_hl_opts *o, const gg_rule_found *f,
                             table_leaves *t, int *status, gg_err *err)
{
    const char *name = o->backend ? o->backend->name : "auto";
    memset(t, 0, sizeof *t);
    t->rf = &f->rf;
    *status = GG_EXIT_USAGE;
    if (!strcmp(name, "reference"))
        return 0;
    bool is_auto = !strcmp(name, "auto");
    if (!host_leaves(o))
        return gg_fail(err, "the hash tree steps the leaves of the Golly "
                       "rule %s on the host: use --backend cpu or reference, "
                       "or --engine dense for %s", f->rule, name);
    gg_fail_kind why;
    if (!gg_table_kernel_open_leaves(&f->rf, f->rule, o->cfg, &t->k, &why,
                                     err))
        return 0;
    if (!is_auto) {
        *status = gg_fail_exit_status(why);
        return -1;
    }
    fprintf(stderr, "golgen: auto: no cpu kernel for the Golly rule %s (%s); "
            "the reference steps the tree's leaves\n", f->rule, err->msg);
    return 0;
}

/* The leaf size of a rule table's tree for the input
 * (runtime/engines/engine_choice.h). */
static int table_leaf_log(const gg_hl_opts *o, const hl_input *in)
{
    if (o->leaf_log)
        return o->leaf_log;
    if (in->is_mc)
        return gg_engine_table_leaf_log(0, 0, -1);
    int64_t w, h, pop = -1;
    input_box(in, &w, &h);
    if (gg_engine_table_leaf_needs_population(w, h))
        pop = input_population(in);
    return gg_engine_table_leaf_log(w, h, pop);
}

/* The tree over the rule file's leaves, the input placed, run: the exit
 * status. */
static int run_table_found(const gg_hl_opts *o, const gg_rule_found *f,
                           const hl_input *in, gg_err *err)
{
    table_leaves t;
    gg_hl *h = NULL;
    int status;
    gg_hl_leaf_stepper s = {.rule_text = f->rule, .states = f->rf.n_states,
                            .leaf_log = table_leaf_log(o, in),
                            .step = table_leaf_step, .ctx = &t};
    if (open_table_leaves(o, f, &t, &status, err))
        return status;
    if (gg_hl_new_stepped(&s, gg_engine_tree_bytes(o->mem), &h, err) ||
        input_to_tree(h, in, err))
        status = GG_EXIT_USAGE;
    else
        status = run_tree(h, o, f->rule, t.k.step ? t.k.what : "reference",
                          err);
    gg_hl_free(h);
    gg_table_kernel_close(&t.k);
    return status;
}

/* A rule B/S notation does not know (err says why), as Golly's rule
 * files name it: the exit status of its run through the tree, or
 * GG_RUN_DENSE when auto leaves it to the dense engine, which also says
 * why a rule file was not found or not taken. */
static int run_table_tree(const gg_hl_opts *o, const char *text,
                          const hl_input *in, gg_err *err)
{
    gg_rule_found f;
    gg_err ferr;
    int got = gg_rule_find(text, o->in, o->rules_dir, &f, &ferr);
    if (got != 1) {
        if (got < 0)
            *err = ferr;
        else {
            size_t n = strlen(err->msg);
            snprintf(err->msg + n, sizeof err->msg - n,
                     " (nor a rule file: %.300s)", ferr.msg);
        }
        return o->choose ? GG_RUN_DENSE : GG_EXIT_USAGE;
    }
    const char *no = table_refuses(&f);
    int status = GG_RUN_DENSE;
    if (!no && o->choose && !host_leaves(o)) {
        /* a device named: its table kernel runs the dense engine */
        fprintf(stderr, "golgen: engine auto -> dense (the hash tree steps "
                "a rule table's leaves on cpu or reference only)\n");
        gg_rule_found_free(&f);
        return GG_RUN_DENSE;
    }
    if (no && !o->choose)
        status = gg_fail(err, "%s is %s: the hash-tree engine runs Golly "
                         "rule tables on the unbounded plane, state 0 "
                         "staying 0, only; use --engine dense", f.rule, no)
                     ? GG_EXIT_USAGE
                     : 0;
    else if (!no && (!o->choose || choose_tree(in, NULL, o->gens, o->mem)))
        status = run_table_found(o, &f, in, err);
    gg_rule_found_free(&f);
    return status;
}

/* Whether auto must leave the run to the dense engine before reading
 * anything: a --rule the tree does not take, or an input that cannot be
 * read twice (standard input, a FIFO), since dense would read it again. */
static bool dense_unread(const gg_hl_opts *o)
{
    gg_rule rule;
    gg_err ignored;
    struct stat st;
    if (o->rule && (gg_rule_parse(o->rule, &rule, &ignored)
                        ? gg_ltl_looks_like(o->rule) /* else a rule file */
                        : gg_engine_tree_refuses(&rule) != NULL))
        return true;
    return o->in && (!strcmp(o->in, "-") || stat(o->in, &st) ||
                     !S_ISREG(st.st_mode));
}

int gg_run_hashlife(const gg_hl_opts *o)
{
    gg_err err;
    hl_input in;
    gg_rule rule;
    if (o->choose && dense_unread(o))
        return GG_RUN_DENSE;
    /* fail before a long run, not after it, when OUT or the picture
     * cannot be made */
    int ready = gg_cli_pictures_ready(o->pics, &err);
    if (ready)
        return gg_cli_error("run", ready, &err);
    if (o->out && strcmp(o->out, "-") && gg_pattern_check_output(o->out, &err))
        return gg_cli_error("run", GG_EXIT_USAGE, &err);
    if (read_input(o->in, o->default_pattern, &in, &err))
        return o->choose ? GG_RUN_DENSE /* dense says it */
                         : gg_cli_error("run", GG_EXIT_USAGE, &err);
    const char *file_rule = in.is_mc     ? in.mc.rule
                            : in.is_runs ? in.runs.head.rule
                                         : in.p.rule;
    const char *text = o->rule ? o->rule : file_rule ? file_rule : "B3/S23";
    if (gg_rule_parse(text, &rule, &err)) {
        int status = GG_RUN_DENSE;
        if (gg_ltl_looks_like(text)) /* cli/run_ltl.c */
            gg_fail(&err, "%.300s is a Larger than Life rule, which the hash "
                    "tree does not run; use --engine dense or auto (the "
                    "reference)", text);
        else
            status = run_table_tree(o, text, &in, &err);
        if (status == GG_RUN_DENSE && o->choose)
            return leave_to_dense(o, &in);
        free_input(&in);
        if (status == GG_RUN_DENSE)
            status = GG_EXIT_USAGE;
        return status && status < 128 ? gg_cli_error("run", status, &err)
                                      : status;
    }
    if (o->choose && !choose_tree(&in, &rule, o->gens, o->mem))
        return leave_to_dense(o, &in);
    gg_backend *b = NULL;
    gg_hl *h = NULL;
    int status;
    int bad = open_tree(o, &rule, &in, &b, &h, &status, &err);
    free_input(&in);
    if (bad && !status)
        status = GG_EXIT_USAGE; /* the backend opened, the tree did not */
    if (!bad) {
        char canon[256];
        gg_rule_format(&rule, canon, sizeof canon);
        status = run_tree(h, o, canon, gg_backend_of(b)->name, &err);
    }
    gg_hl_free(h);
    if (b)
        gg_backend_close(b);
    return status && status < 128 ? gg_cli_error("run", status, &err)
                                  : status;
}

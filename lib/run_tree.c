/* golgen_run_2d by the hash tree (runtime/engines/hashlife.h): a rule on the
 * unbounded plane (two-state, Generations, or a Golly rule table or tree)
 * whose leaves the chosen backend (a rule table's kernel) steps on one
 * thread; and engine auto's choice between it and the dense engine
 * (runtime/engines/engine_choice.h). Moved from the command's
 * cli/run_hashlife.c: the same choices, lines and files. */
#include "run_lib.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "atomic_file.h"
#include "engine_choice.h"
#include "hashlife.h"
#include "hl_rle.h"
#include "rule_b0.h"
#include "rule_find.h"
#include "rule_ltl.h"
#include "table_kernel.h"

/* The built-in default: the R-pentomino, which settles at generation 1103
 * with 116 cells. */
const char gg_run_default_pattern[] =
    "#N R-pentomino\nx = 3, y = 3, rule = B3/S23\nb2o$2o$bo!\n";

/* gg_hl_run polls a stop without a context: the run's, per thread (a
 * run is one thread's call). */
static _Thread_local const gg_run *tree_run;

static bool tree_stopped(void)
{
    return tree_run && gg_run_stop_asked(tree_run);
}

/* The input placed in the tree. */
static int input_to_tree(gg_hl *h, const golgen_pattern *in, gg_err *err)
{
    return in->has_cells ? gg_hl_set_pattern(h, &in->p, err)
           : in->form == GG_LIB_TREE ? gg_hl_set_mc(h, &in->mc, err)
                                     : gg_hl_set_runs(h, &in->runs, err);
}

/* OUT by its name: macrocell and RLE from the tree at any size, other
 * formats through a dense pattern (at most 2^34 cells, 2 GiB). */
static int write_output(gg_hl *h, const char *out, const char *rule_text,
                        gg_err *err)
{
    gg_pattern_format fmt;
    if (gg_run_named_mc(out))
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

/* --png's picture of the tree. */
static int draw_tree(void *ctx, const char *path, const gg_picture_opts *o,
                     gg_picture_info *info, gg_err *err)
{
    return gg_hl_write_png(ctx, path, o, info, err);
}

/* Progress, and inside a long step (seconds, all of whose generations
 * arrive at its end) what the tree is doing meanwhile. */
typedef struct tree_progress {
    gg_run_prog prog;
    gg_hl *h;
} tree_progress;

static bool tree_progress_cb(void *ctx, int64_t done, int64_t total)
{
    tree_progress *t = ctx;
    gg_run *r = t->prog.r;
    int k = gg_hl_step_in_flight(t->h);
    if (k < 0)
        return gg_run_progress(&t->prog, done, total);
    if (!r->o->on_progress)
        return true;
    gg_hl_stats st;
    gg_hl_stats_get(t->h, &st);
    golgen_run2d_progress p = {.done = done + t->prog.base,
                             .total = r->o->gens, .step_log = k,
                             .leaf_steps = st.base_steps, .nodes = st.nodes,
                             .tree_bytes = st.bytes};
    if (!r->o->on_progress(r->o->ctx, &p))
        r->halted = true;
    return true;
}

/* The run once the tree holds the input: its status. */
static int run_tree(gg_run *r, gg_hl *h, const char *rule_text,
                    const char *leaves, gg_err *err)
{
    const golgen_run2d_opts *o = r->o;
    int64_t every = o->store ? 0 : o->checkpoint_every;
    double start = gg_run_now();
    int64_t done = 0, first = gg_hl_generation(h);
    tree_progress tp = {.prog = {.r = r}, .h = h};
    gg_hl_set_progress(h, tree_progress_cb, &tp);
    tree_run = r;
    int status = GG_RUN_OK;
    for (int64_t left = o->gens; left > 0 && !gg_run_stop_asked(r);) {
        int64_t n = every > 0 && every < left ? every : left;
        int64_t ran = 0;
        tp.prog.base = done; /* the callback counts within this call */
        if (gg_hl_run(h, n, tree_stopped, &ran, err)) {
            status = GG_RUN_USAGE;
            break;
        }
        done += ran;
        left -= ran;
        /* a checkpoint, which a resumed run starts from: on the disk */
        if (ran == n && left > 0 && every > 0 &&
            (write_output(h, o->out, rule_text, err) ||
             (strcmp(o->out, "-") && gg_atomic_sync(o->out, err)))) {
            status = GG_RUN_USAGE;
            break;
        }
    }
    tree_run = NULL;
    gg_hl_set_progress(h, NULL, NULL);
    if (status)
        return status;
    double seconds = gg_run_now() - start;
    golgen_run2d_result *res = r->res;
    res->ran = 1;
    res->reached = gg_hl_generation(h) - first;
    res->generation = gg_hl_generation(h);
    res->seconds = seconds;
    if (o->out && write_output(h, o->out, rule_text, err))
        return GG_RUN_USAGE;
    res->written = o->out != NULL;
    int png = gg_run_write_png(r, draw_tree, h, err);
    if (png)
        return png;
    gg_hl_stats st;
    gg_hl_stats_get(h, &st);
    res->population = gg_hl_population(h);
    snprintf(res->engine, sizeof res->engine, "hashlife");
    snprintf(res->rule, sizeof res->rule, "%s", rule_text);
    gg_run_summary(r, "%s: generation %lld, "
             "population %lld, %.3f s (hashlife, leaves by %s; %dx%d leaves, "
             "%lld leaf steps, %lld nodes, %.1f MB, %lld collections)",
             rule_text, (long long)res->generation,
             (long long)res->population, seconds, leaves,
             1 << gg_hl_leaf_log(h), 1 << gg_hl_leaf_log(h),
             (long long)st.base_steps, (long long)st.nodes,
             (double)st.bytes / 1e6, (long long)st.collections);
    return GG_RUN_OK;
}

/* Auto's rule of thumb (runtime/engines/engine_choice.h) for the input:
 * a macrocell is a tree already (a 0 x 0 box). rule NULL: a rule table
 * the tree takes, which goes to the tree whatever its box (busy or not:
 * BENCHMARKS.md, "Rule tables through the hash tree"). */
static bool tree_first(const golgen_pattern *in, const gg_rule *rule,
                       int64_t gens, int64_t mem)
{
    if (!rule)
        return true;
    int64_t w, h, pop = -1;
    gg_lib_pattern_size(in, &w, &h);
    if (!in->has_cells && in->form == GG_LIB_TREE)
        return gg_engine_prefers_tree(rule, 0, 0, -1, gens, mem);
    if (gg_engine_box_needs_population(w, h))
        pop = gg_lib_pattern_population(in);
    return gg_engine_prefers_tree(rule, w, h, pop, gens, mem);
}

/* --engine auto's choice, said in one line as backend auto says its own:
 * true for the tree. */
static bool choose_tree(const gg_run *r, const golgen_pattern *in,
                        const gg_rule *rule)
{
    if (rule && gg_engine_tree_refuses(rule))
        return false; /* dense by nature: nothing to say */
    bool tree = tree_first(in, rule, r->o->gens, r->mem);
    int64_t w, h;
    gg_lib_pattern_size(in, &w, &h);
    bool is_tree = !in->has_cells && in->form == GG_LIB_TREE;
    bool huge = !is_tree && gg_engine_dense_too_big(w, h, r->mem);
    gg_run_note(r, "golgen: engine auto -> %s",
                !tree  ? "dense (a busy box of 2^22 cells or more, over 1/32 "
                         "alive, for few generations)"
                : huge ? "hashlife (unbounded plane; its box is too big for "
                         "dense grids in --mem)"
                       : "hashlife (unbounded plane)");
    return tree;
}

/* auto's leaves for a two-state rule by what its kernel's network costs
 * (0: the tree's default). */
static int leaf_for_network(const gg_rule *rule, gg_backend *b)
{
    gg_backend_desc d;
    if (gg_rule_is_generations(rule))
        return 0;
    gg_backend_describe(b, &d);
    return gg_engine_two_state_leaf_log(d.gates_per_word);
}

/* The tree for rule over a backend for its leaves (and odd's on a second
 * for the steps from odd generations: a B0 rule, gg_hl_set_odd_backend),
 * the input placed. */
static int open_tree(gg_run *r, const gg_rule *rule, const gg_rule *odd,
                     const golgen_pattern *in, gg_backend *b[2], gg_hl **h,
                     int *status, gg_err *err)
{
    /* leaves are small squares: one host thread steps each */
    gg_backend_opts bo = {.config = &r->cfg, .announce = r->o->announce != 0,
                          .threads = 1, .host_only = true};
    const char *no = gg_engine_tree_refuses(rule);
    *status = GG_RUN_USAGE;
    if (no) {
        char text[256];
        gg_rule_format(rule, text, sizeof text);
        return gg_fail(err, "%s is %s: the hash-tree engine runs rules on "
                       "the unbounded plane (without B0) only so far; use "
                       "--engine dense", text, no);
    }
    /* a pair by parity: one kernel for both where the backend has one */
    bo.odd_rule = odd;
    if (gg_run_open_backend(r, r->backend, rule, &bo, &b[0], status, err) ||
        gg_hl_new(rule, b[0], gg_engine_tree_bytes(r->mem), h, err))
        return -1;
    bo.announce = false; /* the odd rule on the backend taken for rule */
    bo.odd_rule = NULL;
    bool pair = odd && gg_backend_pairs(b[0]);
    if (odd && ((!pair && gg_run_open_backend(r, gg_backend_of(b[0]), odd,
                                              &bo, &b[1], status, err)) ||
                gg_hl_set_odd_backend(*h, pair ? b[0] : b[1], err)))
        return -1;
    int leaf = r->leaf_log ? r->leaf_log : leaf_for_network(rule, b[0]);
    /* two rules by parity: 16 x 16 (p168-knightship to 10^4 with the
     * pair's kernel: 3.6 CPU ms, 4.3 at 8 x 8, 4.4 at 32 x 32; a
     * generation a call, before it: 6.7 against 14.3 at 32 x 32) */
    if (odd && !r->leaf_log && (!leaf || leaf > 4))
        leaf = 4;
    /* auto's 32x32 may turn to 8x8 during a long run (hashlife.h) */
    gg_hl_set_revise(*h, !r->leaf_log && !odd && !leaf);
    return (leaf && gg_hl_set_leaf_log(*h, leaf, err)) ||
                   input_to_tree(*h, in, err)
               ? -1
               : 0;
}

/* ---- Golly rule tables and trees (runtime/formats/rule_find.h) ---- */

/* A rule table's leaves: a host backend's kernel on one thread, or the
 * reference (runtime/backends/table_kernel.h). */
typedef struct table_leaves {
    const gg_rulefile *rf;
    gg_table_kernel k;
} table_leaves;

static int table_leaf_step(void *ctx, gg_gen_cells *cells, int64_t gens,
                           gg_err *err)
{
    table_leaves *t = ctx;
    return gg_table_kernel_step(&t->k, t->rf, GG_TOPO_PLANE, cells, gens,
                                err);
}

/* Why the tree does not take the rule file found, or NULL. */
static const char *table_refuses(const gg_rule_found *f)
{
    return f->topo != GG_TOPO_UNBOUNDED ? "on a bounded grid"
           : !gg_rulefile_zero_stays(&f->rf)
               ? "a rule whose state 0 does not stay 0 amid 0s"
               : NULL;
}

/* The leaves' stepper for the backend asked for; *status on failure. */
static int open_table_leaves(gg_run *r, const gg_rule_found *f,
                             table_leaves *t, int *status, gg_err *err)
{
    memset(t, 0, sizeof *t);
    t->rf = &f->rf;
    *status = GG_RUN_USAGE;
    return gg_run_open_table(r, &f->rf, f->rule, true, &t->k, status, err);
}

/* The leaf size of a rule table's tree for the input
 * (runtime/engines/engine_choice.h), whose cells t steps for the
 * motion. */
static int table_leaf_log(const gg_run *r, const golgen_pattern *in,
                          table_leaves *t)
{
    int states = t->rf->n_states;
    if (r->leaf_log)
        return r->leaf_log;
    if (in->has_cells)
        return gg_engine_table_leaf_for(&in->p, states, r->o->gens,
                                        table_leaf_step, t);
    gg_engine_table_facts f = {.population = -1, .variety = -1,
                               .motion = -1, .states = states,
                               .gens = r->o->gens};
    if (in->form != GG_LIB_TREE) {
        gg_lib_pattern_size(in, &f.width, &f.height);
        if (gg_engine_table_leaf_needs_population(f.width, f.height))
            f.population = gg_lib_pattern_live(in);
        /* runs: more than 64 cells a byte of text (lib/pattern.c's
         * SPARSE_CELLS_PER_BYTE), so however busy, their squares repeat */
        if (in->form == GG_LIB_RUNS)
            f.variety = 0;
    }
    return gg_engine_table_leaf_log(&f);
}

/* The tree over the rule file's leaves, the input placed, run: the
 * status. */
static int run_table_found(gg_run *r, const gg_rule_found *f,
                           const golgen_pattern *in, gg_err *err)
{
    table_leaves t;
    gg_hl *h = NULL;
    int status;
    if (open_table_leaves(r, f, &t, &status, err))
        return status;
    gg_hl_leaf_stepper s = {.rule_text = f->rule, .states = f->rf.n_states,
                            .leaf_log = table_leaf_log(r, in, &t),
                            .step = table_leaf_step, .ctx = &t,
                            .rf = &f->rf}; /* misses a cell at a time */
    snprintf(r->res->family, sizeof r->res->family, "table");
    snprintf(r->res->backend, sizeof r->res->backend, "%s", t.k.backend);
    if (gg_hl_new_stepped(&s, gg_engine_tree_bytes(r->mem), &h, err) ||
        input_to_tree(h, in, err))
        status = GG_RUN_USAGE;
    else
        status = run_tree(r, h, f->rule, t.k.what, err);
    gg_hl_free(h);
    gg_table_kernel_close(&t.k);
    return status;
}

/* gg_run_tree's answer when auto leaves the run to the dense engine. */
#define LEFT_TO_DENSE (-1)

/* A rule B/S notation does not know (err says why), as Golly's rule
 * files name it: the status of its run through the tree, or
 * LEFT_TO_DENSE when auto leaves it to the dense engine, which also says
 * why a rule file was not found or not taken. */
static int run_table_tree(gg_run *r, const char *text,
                          const golgen_pattern *in, bool choose, gg_err *err)
{
    gg_rule_found f;
    gg_err ferr;
    int got = gg_rule_find(text, in->path, r->o->rules_dir,
                           r->cfg.cache_dir, &f, &ferr);
    if (got != 1) {
        if (got < 0)
            *err = ferr;
        else {
            size_t n = strlen(err->msg);
            snprintf(err->msg + n, sizeof err->msg - n,
                     " (nor a rule file: %.300s)", ferr.msg);
        }
        return choose ? LEFT_TO_DENSE : GG_RUN_USAGE;
    }
    const char *no = table_refuses(&f);
    int status = LEFT_TO_DENSE;
    if (!no && choose && !gg_table_backend_on_host(r->backend)) {
        /* a device named: its table kernel runs the dense engine */
        char names[128];
        gg_table_host_names(" or ", names, sizeof names);
        gg_run_note(r, "golgen: engine auto -> dense (the hash tree steps "
                    "a rule table's leaves on %s only)", names);
        gg_rule_found_free(&f);
        return LEFT_TO_DENSE;
    }
    if (no && !choose)
        status = gg_fail(err, "%s is %s: the hash-tree engine runs Golly "
                         "rule tables on the unbounded plane, state 0 "
                         "staying 0, only; use --engine dense", f.rule, no)
                     ? GG_RUN_USAGE
                     : 0;
    else if (!no && (!choose || choose_tree(r, in, NULL)))
        status = run_table_found(r, &f, in, err);
    gg_rule_found_free(&f);
    return status;
}

/* A two-state B0 rule on the unbounded plane, as Golly stores and steps
 * it (gen/rules/rule_b0.h): *rule becomes the rule from even generations
 * and *odd the one from odd ones, neither with B0, and written the rule as
 * given, which the files name. 0: not such a rule (nothing changed); 1:
 * with S<max>, one rule (the conjugate, *odd the same); 2: two rules,
 * which the tree takes as a pair. */
static int b0_rules(gg_rule *rule, gg_rule *odd, char *written,
                    size_t size)
{
    if (gg_rule_is_generations(rule) || gg_rule_is_bounded(rule) ||
        !gg_rule_has_b0(rule))
        return 0;
    int rules = gg_rule_b0_smax(rule) ? 1 : 2;
    gg_rule_format(rule, written, size);
    gg_rule_b0_pair(rule, rule, odd);
    return rules;
}

/* Whether auto must leave the run to the dense engine before reading
 * anything: a rule the tree does not take, or an input the run would
 * read that cannot be read twice (standard input, a FIFO), since dense
 * would read it again. */
static bool dense_unread(const gg_run *r)
{
    const golgen_run2d_opts *o = r->o;
    gg_rule rule;
    gg_err ignored;
    struct stat st;
    gg_rule odd;
    char text[256];
    if (o->rule && (gg_rule_parse(o->rule, &rule, &ignored)
                        ? gg_ltl_looks_like(o->rule) /* else a rule file */
                        : gg_engine_tree_refuses(&rule) != NULL &&
                              !b0_rules(&rule, &odd, text, sizeof text)))
        return true;
    return !o->pattern && o->in &&
           (!strcmp(o->in, "-") || stat(o->in, &st) || !S_ISREG(st.st_mode));
}

/* The input: the caller's pattern, or `in` read as the tree takes it, or
 * the default pattern. */
int gg_run_read_input(gg_run *r, gg_err *err)
{
    const golgen_run2d_opts *o = r->o;
    if (r->pat)
        return 0;
    r->own_pat = true;
    return o->in ? gg_lib_pattern_read(o->in, GOLGEN_PATTERN_AS_READ,
                                       o->stop, &r->pat, err)
                 : gg_lib_pattern_parse(gg_run_default_pattern,
                                        strlen(gg_run_default_pattern),
                                        "built-in R-pentomino",
                                        GOLGEN_PATTERN_CELLS, &r->pat, err);
}

int gg_run_tree(gg_run *r, bool *dense, gg_err *err)
{
    const golgen_run2d_opts *o = r->o;
    bool choose = !strcmp(r->engine, "auto");
    gg_rule rule;
    *dense = false;
    if (choose && dense_unread(r)) {
        *dense = true;
        return 0;
    }
    /* fail before a long run, not after it, when OUT or the picture
     * cannot be made */
    int ready = gg_run_pictures_ready(r, err);
    if (ready)
        return ready;
    if (o->out && strcmp(o->out, "-") && gg_pattern_check_output(o->out, err))
        return GG_RUN_USAGE;
    if (gg_run_read_input(r, err)) {
        *dense = choose; /* dense reads it again and says why it cannot */
        return choose ? 0 : GG_RUN_USAGE;
    }
    golgen_pattern *in = r->pat;
    const char *file_rule = gg_lib_pattern_rule(in);
    const char *text = o->rule ? o->rule : file_rule ? file_rule : "B3/S23";
    if (gg_rule_parse(text, &rule, err)) {
        int status = LEFT_TO_DENSE;
        if (gg_ltl_looks_like(text))
            gg_fail(err, "%.300s is a Larger than Life rule, which the hash "
                    "tree does not run; use --engine dense or auto (the "
                    "reference)", text);
        else
            status = run_table_tree(r, text, in, choose, err);
        if (status == LEFT_TO_DENSE && choose) {
            *dense = true;
            return 0;
        }
        return status == LEFT_TO_DENSE ? GG_RUN_USAGE : status;
    }
    char written[256];
    gg_rule odd;
    int b0 = b0_rules(&rule, &odd, written, sizeof written);
    /* the conjugate always goes to the tree (lib/run_b0.c steps it dense
     * when asked), the pair as auto chooses (lib/run_b0.c steps it dense
     * when not here) */
    if (choose && b0 != 1 && !choose_tree(r, in, &rule)) {
        *dense = true;
        return 0;
    }
    gg_backend *b[2] = {NULL, NULL};
    gg_hl *h = NULL;
    int status;
    snprintf(r->res->family, sizeof r->res->family, "%s",
             gg_rule_is_generations(&rule) ? "generations" : "two-state");
    int bad = open_tree(r, &rule, b0 == 2 ? &odd : NULL, in, b, &h, &status,
                        err);
    if (r->own_pat) { /* placed in the tree: its cells go */
        golgen_pattern_free(r->pat);
        r->pat = NULL;
    }
    if (bad && !status)
        status = GG_RUN_USAGE; /* the backend opened, the tree did not */
    if (!bad) {
        char canon[256];
        gg_rule_format(&rule, canon, sizeof canon);
        if (b0)
            gg_hl_set_rule_text(h, written);
        status = run_tree(r, h, b0 ? written : canon,
                          gg_backend_of(b[0])->name, err);
    }
    gg_hl_free(h);
    for (int i = 0; i < 2; i++)
        if (b[i])
            gg_backend_close(b[i]);
    return status;
}

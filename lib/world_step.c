/* What steps a world (lib/world_core.h), per family: an open backend for
 * two-state and Generations rules (runtime/backends/backend.h), a rule
 * table's compiled kernel (table_kernel.h; auto's is the reference when
 * no other opens), a Larger than Life or 3D backend
 * (backend_ltl.h, backend3d.h). Each is the one golgen run takes for
 * that backend name (auto: the fastest that opens). A rule table on the
 * unbounded plane is stepped by the hash tree (runtime/engines/
 * hashlife.h), as golgen run steps it: each step the world's cells go
 * in, the tree runs, and the cells come back out (the tree and what it
 * memoized stay between steps, and the cells go in again only when the
 * world is another or was changed since). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "backend_auto.h"
#include "engine_choice.h"
#include "run_lib.h"
#include "world_core.h"

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static int fail_code(gg_fail_kind why)
{
    return why == GG_FAIL_ENV       ? GOLGEN_ERR_ENV
           : why == GG_FAIL_INVALID ? GOLGEN_ERR_CHECK
                                    : GOLGEN_ERR_INPUT;
}

/* The most cells the tree hands back to the world a batch (its box:
 * the world holds them densely; a loop colony past it stops the run,
 * saying so, where golgen run's tree goes on) */
#define GG_W_TREE_MAX_CELLS GG_W_TABLE_PLANE_CELLS

/* A rule table's kernel as golgen run opens it (lib/run_family.c): the
 * backend named, or auto's (the reference when no other opens). */
static int open_table(golgen_world_stepper *st, const gg_backend_info *info,
                      const gg_config *cfg, int *code, gg_err *err)
{
    const gg_rule_found *f = &st->rule.table->f;
    char base[192];
    snprintf(base, sizeof base, "%.*s", (int)strcspn(f->rule, ":"), f->rule);
    /* the plane: the tree over leaves a host backend steps on one thread
     * (a device named runs the dense plane, as golgen run's auto) */
    st->tree =
        f->topo == GG_TOPO_UNBOUNDED && gg_table_backend_on_host(info);
    gg_table_ask a = {.info = info, .config = cfg, .leaves = st->tree};
    gg_fail_kind why;
    if (gg_table_kernel_open(&a, &f->rf, base, &st->k, &why, err)) {
        *code = fail_code(why);
        return -1;
    }
    snprintf(st->name, sizeof st->name, "%s%s", st->k.backend,
             st->tree ? ", tree" : "");
    return 0;
}

/* A leaf square of the tree, stepped by the kernel or the reference. */
static int leaf_step(void *ctx, gg_gen_cells *cells, int64_t gens,
                     gg_err *err)
{
    golgen_world_stepper *st = ctx;
    return gg_table_kernel_step(&st->k, &st->rule.table->f.rf, GG_TOPO_PLANE,
                                cells, gens, err);
}

/* n generations in the tree: one call, or (a stop or progress asked
 * for) calls of growing size, each told and stopped between. */
static int run_tree(golgen_world_stepper *st, int64_t n,
                    const golgen_world_step_opts *o, int64_t *ran,
                    gg_err *err)
{
    *ran = 0;
    if (!o || (!o->stop && !o->on_progress)) {
        *ran = n;
        return gg_hl_run(st->h, n, NULL, NULL, err);
    }
    for (int64_t k = 1; *ran < n && !(o->stop && *o->stop); k *= 2) {
        int64_t part = k < n - *ran ? k : n - *ran;
        if (gg_hl_run(st->h, part, NULL, NULL, err))
            return -1;
        *ran += part;
        if (o->on_progress && !o->on_progress(o->ctx, *ran, n))
            break;
        if (k >= (1LL << 40))
            k /= 2;
    }
    return 0;
}

/* n generations of the table's plane through the tree: the cells in,
 * run, out (the world is replaced only when all went well). */
static int advance_tree(golgen_world_stepper *st, golgen_world *w, int64_t n,
                        const golgen_world_step_opts *o, gg_err *err)
{
    gg_table_universe *u = &w->t;
    double t0 = now();
    st->overhead = 0;
    gg_pattern p, q;
    if (gg_table_universe_to_pattern(u, &p, err))
        return -1;
    if (!st->h) { /* the leaf size golgen run takes for this pattern */
        const gg_rule_found *f = &st->rule.table->f;
        gg_hl_leaf_stepper s = {.rule_text = f->rule,
                                .states = f->rf.n_states,
                                .leaf_log = gg_engine_table_leaf_for(
                                    &p, f->rf.n_states, n, leaf_step, st),
                                .step = leaf_step, .ctx = st,
                                .rf = &f->rf}; /* misses a cell at a time */
        int64_t mem = gg_engine_tree_bytes(gg_engine_default_mem());
        if (gg_hl_new_stepped(&s, mem, &st->h, err)) {
            gg_pattern_free(&p);
            return -1;
        }
    }
    /* the cells go in only when the world changed since the tree had
     * them (an edit, another world): else the tree is where it was */
    bool same = st->tree_holds && st->tree_world == w &&
                w->tree_by == st && w->tree_mark == st->serial &&
                st->tree_edits == w->edits && st->tree_gen == u->generation;
    int bad = same ? 0 : gg_hl_set_pattern(st->h, &p, err);
    gg_pattern_free(&p);
    st->tree_holds = false;
    if (bad)
        return -1;
    double t1 = now();
    int64_t ran;
    if (run_tree(st, n, o, &ran, err))
        return -1;
    double t2 = now();
    if (gg_hl_to_pattern(st->h, GG_W_TREE_MAX_CELLS, &q, err)) {
        size_t k = strlen(err->msg);
        snprintf(err->msg + k, sizeof err->msg - k, " (a world holds at "
                 "most 2^28 cells; golgen run --gens N -o OUT.mc goes on)");
        return -1;
    }
    q.positioned = true; /* where the tree has them */
    gg_table_universe t;
    bad = gg_table_universe_from_pattern(&t, u->rf, u->rule, u->topo,
                                         u->width, u->height, &q, err);
    int64_t gen = u->generation + ran;
    gg_pattern_free(&q);
    if (bad)
        return -1;
    gg_table_universe_free(u);
    *u = t;
    u->generation = gen;
    st->tree_holds = true;
    st->tree_world = w;
    st->tree_edits = w->edits, st->tree_gen = gen;
    w->tree_by = st;
    w->tree_mark = ++st->serial;
    st->overhead = (t1 - t0) + (now() - t2);
    return 0;
}

int gg_world_stepper_open(golgen_world_stepper *st, const gg_wrule *rule,
                          const golgen_world_stepper_opts *o, int *code,
                          gg_err *err)
{
    memset(st, 0, sizeof *st);
    st->family = rule->family;
    *code = GOLGEN_ERR_INPUT;
    const gg_backend_info *info;
    if (gg_lib_backend(o ? o->backend : NULL, &info, err))
        return -1;
    /* the environment read here, the caller's hook on the network search
     * (as the command's process configuration has its note) */
    st->hook = (gg_lib_search_hook){o ? o->on_search : NULL,
                                    o ? o->search_ctx : NULL};
    if (gg_lib_choose_opts(NULL, &st->hook, &st->cfg, &st->cfg.choose, err))
        return -1;
    gg_backend_opts bo = {.config = &st->cfg};
    gg_fail_kind why = GG_FAIL_INPUT;
    int bad = 0;
    switch (rule->family) {
    case GOLGEN_FAMILY_TWO_STATE:
    case GOLGEN_FAMILY_GENERATIONS: {
        gg_auto_line line;
        bad = info ? gg_backend_open(info, &rule->rule, &bo, &st->b, &why,
                                     err)
                   : gg_backend_open_auto(&rule->rule, &bo, &st->b, &line,
                                          &why, err);
        if (!bad) {
            snprintf(st->name, sizeof st->name, "%s",
                     gg_backend_of(st->b)->name);
            if (!info)
                snprintf(st->auto_line, sizeof st->auto_line, "%s",
                         line.text);
        }
        break;
    }
    case GOLGEN_FAMILY_TABLE:
        st->rule = *rule;
        __atomic_add_fetch(&rule->table->refs, 1, __ATOMIC_ACQ_REL);
        if (open_table(st, info, &st->cfg, code, err))
            return gg_world_stepper_close(st), -1;
        return 0;
    case GOLGEN_FAMILY_LTL:
        bad = gg_backend_ltl_open(info, &rule->ltl, &bo, &st->l, NULL, 0,
                                  &why, err);
        if (!bad)
            snprintf(st->name, sizeof st->name, "%s",
                     gg_backend_ltl_table(st->l)->name);
        break;
    case GOLGEN_FAMILY_3D: {
        gg_auto_line line;
        bad = gg_backend3d_open(info, &rule->r3, &bo, &st->d, &line, &why,
                                err);
        if (!bad)
            snprintf(st->name, sizeof st->name, "%s",
                     gg_backend3d_table(st->d)->name);
        break;
    }
    }
    if (bad) {
        *code = fail_code(why);
        gg_world_stepper_close(st);
    }
    return bad ? -1 : 0;
}

static int64_t ltl_step(void *ctx, uint8_t *cells, int64_t w, int64_t h,
                        bool torus, int64_t gens, gg_stop_flag *stop,
                        gg_err *err)
{
    return gg_backend_ltl_step_until(ctx, cells, w, h, torus, gens, stop,
                                     err);
}

/* The caller's progress and stop in the universes' form (runtime/
 * universes/batch.h: false ends the run after the batch). */
static bool progress(void *ctx, int64_t done, int64_t total)
{
    const golgen_world_step_opts *o = ctx;
    if (o->stop && *o->stop)
        return false;
    return !o->on_progress || o->on_progress(o->ctx, done, total) != 0;
}

/* A bounded two-state universe is stepped in one kernel call a max_batch
 * (gg_universe_run would start its batches at one generation, and the
 * cpu kernel runs up to 32 generations a pass over memory: calls of a
 * few generations run at a fraction of its rate); between calls a stop
 * or progress is seen. */
static int advance_life(gg_backend *b, gg_universe *u, int64_t n,
                        const golgen_world_step_opts *o, gg_err *err)
{
    gg_stepper st = gg_backend_stepper(b);
    gg_stop_flag *stop = o ? o->stop : NULL;
    if (!gg_rule_is_bounded(&u->rule)) {
        st.stop = stop;
        return gg_universe_run(u, &st, n,
                               o && (o->on_progress || stop) ? progress
                                                              : NULL,
                               (void *)o, err);
    }
    if (st.hold && st.hold(st.ctx, u->rule.topo, &u->grid, err))
        return -1;
    int bad = 0;
    int64_t done = 0;
    while (done < n && !bad && !(stop && *stop)) {
        int64_t k = st.max_batch && n - done > st.max_batch ? st.max_batch
                                                            : n - done;
        int64_t ran = k;
        if (stop && st.step_until)
            ran = st.step_until(st.ctx, &u->rule, u->rule.topo, &u->grid, k,
                                stop, err);
        else if (st.step(st.ctx, &u->rule, u->rule.topo, &u->grid, k, err))
            ran = -1;
        if (ran < 0) {
            bad = -1;
            break;
        }
        u->generation += ran, done += ran;
        if (ran < k || (o && o->on_progress &&
                        !o->on_progress(o->ctx, done, n)))
            break;
    }
    gg_err later;
    if (st.hold && st.drop(st.ctx, &u->grid, bad ? &later : err))
        bad = -1;
    return bad;
}

int gg_world_step(golgen_world_stepper *st, golgen_world *w, int64_t n,
                  const golgen_world_step_opts *o, gg_err *err)
{
    if (st->family != w->family)
        return gg_fail(err, "the stepper was opened for another family "
                       "of rules than the world's");
    if (gg_generations_check(gg_world_generation(w), n, err))
        return -1;
    gg_stop_flag *stop = o ? o->stop : NULL;
    gg_progress_fn prog = o && (o->on_progress || stop) ? progress : NULL;
    if (stop && *stop)
        return 0; /* stopped before it began */
    switch (w->family) {
    case GOLGEN_FAMILY_TWO_STATE: return advance_life(st->b, &w->u, n, o, err);
    case GOLGEN_FAMILY_GENERATIONS: {
        gg_gen_stepper gs = gg_backend_gen_stepper(st->b);
        gs.stop = stop;
        return gg_gen_universe_run(&w->g, &gs, n, prog, (void *)o, err);
    }
    case GOLGEN_FAMILY_TABLE:
        if (st->tree)
            return advance_tree(st, w, n, o, err);
        w->t.step = st->k.step;
        w->t.step_ctx = st->k.ctx;
        return gg_table_universe_run(&w->t, n, stop, prog, (void *)o, err);
    case GOLGEN_FAMILY_LTL:
        w->l.step = gg_backend_ltl_batched(st->l) ? ltl_step : NULL;
        w->l.step_ctx = st->l;
        return gg_ltl_universe_run(&w->l, n, stop, prog, (void *)o, err);
    case GOLGEN_FAMILY_3D: {
        int64_t ran = gg_backend3d_step_until(st->d, &w->d.g, n, stop, err);
        if (ran < 0)
            return -1;
        w->d.generation += ran;
        if (o && o->on_progress)
            o->on_progress(o->ctx, ran, n);
        /* a step may hand the grid a new buffer: the slice on view points
         * into the grid's cells, so it is taken again (ASan: a frame read
         * the freed one); the projection stays the projection */
        int64_t depth;
        return gg_world_set_z(w, gg_world_z(w, &depth), err);
    }
    }
    return gg_fail(err, "no stepper for this family");
}

int gg_world_step_watched(golgen_world_stepper *st, golgen_world *w,
                          int64_t n, const golgen_row_watch *watch,
                          gg_err *err)
{
    if (!golgen_world_stepper_watches(st, w))
        return gg_fail(err, "this step cannot be watched: a bounded "
                       "two-state world on a backend that watches (cpu) "
                       "can");
    int64_t most = golgen_world_stepper_max_batch(st);
    if (n < 1 || (most && n > most))
        return gg_fail(err, "a watched step runs 1 .. %lld generations, "
                       "not %lld", (long long)most, (long long)n);
    if (gg_generations_check(gg_world_generation(w), n, err))
        return -1;
    gg_universe *u = &w->u;
    gg_stepper s = gg_backend_stepper(st->b);
    if (s.hold(s.ctx, u->rule.topo, &u->grid, err))
        return -1;
    gg_step_watch sw = {.rows = watch->rows, .ctx = watch->ctx,
                        .every = watch->every, .first = watch->first,
                        .count = watch->count, .step = watch->step};
    int bad = gg_backend_step_watched(st->b, n, &sw, err);
    if (!bad)
        u->generation += n;
    gg_err later;
    if (s.drop(s.ctx, &u->grid, bad ? &later : err))
        bad = -1;
    return bad;
}

void gg_world_stepper_close(golgen_world_stepper *st)
{
    if (st->b)
        gg_backend_close(st->b);
    if (st->h)
        gg_hl_free(st->h);
    gg_table_kernel_close(&st->k);
    gg_wrule_free(&st->rule);
    if (st->l)
        gg_backend_ltl_close(st->l);
    if (st->d)
        gg_backend3d_close(st->d);
    memset(st, 0, sizeof *st);
}

/* ---- the public calls ---- */

int golgen_world_stepper_open(const golgen_world_rule *rule,
                              const golgen_world_stepper_opts *opts,
                              golgen_world_stepper **st, char *errbuf,
                              size_t errlen)
{
    gg_err err;
    int code;
    *st = calloc(1, sizeof **st);
    if (!*st)
        return gg_world_fail(GOLGEN_ERR_ENV, &(gg_err){"out of memory"},
                             errbuf, errlen);
    if (gg_world_stepper_open(*st, &rule->r, opts, &code, &err)) {
        free(*st);
        *st = NULL;
        return gg_world_fail(code, &err, errbuf, errlen);
    }
    return GOLGEN_OK;
}

const char *golgen_world_stepper_name(const golgen_world_stepper *st)
{
    return st->name;
}

const char *golgen_world_stepper_auto_line(const golgen_world_stepper *st)
{
    return st->auto_line;
}

int64_t golgen_world_stepper_max_batch(const golgen_world_stepper *st)
{
    return st->b ? gg_backend_stepper(st->b).max_batch : 0;
}

double golgen_world_stepper_overhead(const golgen_world_stepper *st)
{
    return st->overhead;
}

int64_t golgen_world_stepper_pass(const golgen_world_stepper *st)
{
    if (!st->b)
        return 0;
    gg_backend_desc d;
    gg_backend_describe(st->b, &d);
    return d.pass_gens;
}

int golgen_world_stepper_watches(const golgen_world_stepper *st,
                                 const golgen_world *w)
{
    return st->family == GOLGEN_FAMILY_TWO_STATE &&
           w->family == GOLGEN_FAMILY_TWO_STATE && st->b &&
           gg_backend_watches(st->b) && gg_rule_is_bounded(&w->u.rule);
}

void golgen_world_stepper_close(golgen_world_stepper *st)
{
    if (!st)
        return;
    gg_world_stepper_close(st);
    free(st);
}

int golgen_world_step(golgen_world_stepper *st, golgen_world *w, int64_t n,
                      const golgen_world_step_opts *opts, char *errbuf,
                      size_t errlen)
{
    gg_err err;
    if (n < 0)
        return gg_world_fail(GOLGEN_ERR_INPUT, &(gg_err){"a negative count "
                             "of generations"}, errbuf, errlen);
    if (st->family != w->family)
        return gg_world_fail(GOLGEN_ERR_INPUT, &(gg_err){"the stepper was "
                             "opened for another family of rules than the "
                             "world's"}, errbuf, errlen);
    if (gg_generations_check(gg_world_generation(w), n, &err))
        return gg_world_fail(GOLGEN_ERR_INPUT, &err, errbuf, errlen);
    /* (a backend that failed part way: the run's own failure, as the
     * universes' runs report it) */
    return gg_world_step(st, w, n, opts, &err)
               ? gg_world_fail(GOLGEN_ERR_ENV, &err, errbuf, errlen)
               : GOLGEN_OK;
}

int golgen_world_step_watched(golgen_world_stepper *st, golgen_world *w,
                              int64_t n, const golgen_row_watch *watch,
                              char *errbuf, size_t errlen)
{
    gg_err err;
    return gg_world_step_watched(st, w, n, watch, &err)
               ? gg_world_fail(GOLGEN_ERR_ENV, &err, errbuf, errlen)
               : GOLGEN_OK;
}

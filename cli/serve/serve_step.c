/* golgen serve: what steps the world (serve_step.h). */
#include "serve_step.h"

#include <stdio.h>
#include <string.h>

#include "cli_util.h"
#include "engine_choice.h"
#include "reference_table.h"

/* The most cells the tree hands back to the world a batch (its box:
 * the world holds them densely; a loop colony past it stops the run,
 * saying so, where golgen run's tree goes on) */
#define SV_TREE_MAX_CELLS SV_TABLE_PLANE_CELLS

/* A rule table's kernel as golgen run opens it (cli/run_table.c): a
 * named backend must open it; auto takes cpu, else the reference. */
static int open_table(sv_stepper *st, const gg_backend_info *info,
                      const gg_config *cfg, gg_err *err)
{
    const gg_rule_found *f = &st->rule.table->f;
    const char *name = info ? info->name : "auto";
    bool is_auto = !strcmp(name, "auto");
    snprintf(st->name, sizeof st->name, "reference");
    if (!strcmp(name, "reference")) {
        st->tree = f->topo == GG_TOPO_UNBOUNDED;
        if (st->tree)
            snprintf(st->name, sizeof st->name, "reference, tree");
        return 0;
    }
    if (!is_auto && !gg_table_backend_known(name))
        return gg_fail(err, "backend %s cannot run %s: Golly rule tables are "
                       "compiled for " GG_TABLE_BACKENDS " (and run on "
                       "reference)", name, f->rule);
    char base[192];
    snprintf(base, sizeof base, "%.*s", (int)strcspn(f->rule, ":"), f->rule);
    gg_fail_kind why;
    /* the plane: the tree over leaves the cpu kernel steps on one thread
     * (a device named runs the dense plane, as golgen run's auto) */
    st->tree = f->topo == GG_TOPO_UNBOUNDED && (is_auto || !strcmp(name, "cpu"));
    if (!(st->tree ? gg_table_kernel_open_leaves(&f->rf, base, cfg, &st->k,
                                                 &why, err)
                   : gg_table_kernel_open(is_auto ? "cpu" : name, &f->rf,
                                          base, cfg, &st->k, &why, err))) {
        snprintf(st->name, sizeof st->name, "%s%s", st->k.backend,
                 st->tree ? ", tree" : "");
        return 0;
    }
    memset(&st->k, 0, sizeof st->k);
    if (is_auto && st->tree)
        snprintf(st->name, sizeof st->name, "reference, tree");
    return is_auto ? 0 : -1;
}

/* A leaf square of the tree, stepped by the kernel or the reference. */
static int leaf_step(void *ctx, gg_gen_cells *cells, int64_t gens,
                     gg_err *err)
{
    sv_stepper *st = ctx;
    if (st->k.step)
        return st->k.step(st->k.ctx, GG_TOPO_PLANE, cells, gens, err);
    return gg_reference_table_run(&st->rule.table->f.rf, GG_TOPO_PLANE,
                                  cells, gens, NULL, err) < 0
               ? -1
               : 0;
}

/* n generations of the table's plane through the tree: the cells in,
 * run, out (the world is replaced only when all went well). */
static int advance_tree(sv_stepper *st, gg_table_universe *u, int64_t n,
                        uint64_t edits, gg_err *err)
{
    double t0 = gg_cli_now();
    st->overhead = 0;
    gg_pattern p, q;
    if (gg_table_universe_to_pattern(u, &p, err))
        return -1;
    if (!st->h) { /* the leaf size golgen run takes for this pattern */
        const gg_rule_found *f = &st->rule.table->f;
        int64_t w = p.plane[0].width, h = p.plane[0].height, pop = -1;
        if (gg_engine_table_leaf_needs_population(w, h))
            pop = gg_table_universe_population(u);
        gg_hl_leaf_stepper s = {.rule_text = f->rule,
                                .states = f->rf.n_states,
                                .leaf_log = gg_engine_table_leaf_log(w, h,
                                                                     pop),
                                .step = leaf_step, .ctx = st};
        int64_t mem = gg_engine_tree_bytes(gg_engine_default_mem());
        if (gg_hl_new_stepped(&s, mem, &st->h, err)) {
            gg_pattern_free(&p);
            return -1;
        }
    }
    /* the cells go in only when the world changed since the tree had
     * them (an edit, another world): else the tree is where it was */
    bool same = st->tree_holds && st->tree_edits == edits &&
                st->tree_gen == u->generation;
    int bad = same ? 0 : gg_hl_set_pattern(st->h, &p, err);
    gg_pattern_free(&p);
    st->tree_holds = false;
    if (bad)
        return -1;
    double t1 = gg_cli_now();
    if (gg_hl_run(st->h, n, NULL, NULL, err))
        return -1;
    double t2 = gg_cli_now();
    if (gg_hl_to_pattern(st->h, SV_TREE_MAX_CELLS, &q, err)) {
        size_t k = strlen(err->msg);
        snprintf(err->msg + k, sizeof err->msg - k, " (the viewer holds at "
                 "most 2^28 cells; golgen run --gens N -o OUT.mc goes on)");
        return -1;
    }
    q.positioned = true; /* where the tree has them */
    gg_table_universe t;
    bad = gg_table_universe_from_pattern(&t, u->rf, u->rule, u->topo,
                                         u->width, u->height, &q, err);
    int64_t gen = u->generation + n;
    gg_pattern_free(&q);
    if (bad)
        return -1;
    gg_table_universe_free(u);
    *u = t;
    u->generation = gen;
    st->tree_holds = true;
    st->tree_edits = edits, st->tree_gen = gen;
    st->overhead = (t1 - t0) + (gg_cli_now() - t2);
    return 0;
}

int sv_stepper_open(sv_stepper *st, const sv_rule *rule,
                    const gg_backend_info *info, const gg_config *cfg,
                    gg_err *err)
{
    memset(st, 0, sizeof *st);
    st->family = rule->family;
    gg_backend_opts bo = {.config = cfg};
    gg_fail_kind why;
    int bad = 0;
    switch (rule->family) {
    case SV_LIFE:
    case SV_GEN: {
        int status;
        bad = gg_cli_open_backend(info, &rule->rule, &bo, &st->b, &status,
                                  err);
        if (!bad)
            snprintf(st->name, sizeof st->name, "%s",
                     gg_backend_of(st->b)->name);
        break;
    }
    case SV_TABLE:
        st->rule = *rule;
        __atomic_add_fetch(&rule->table->refs, 1, __ATOMIC_ACQ_REL);
        bad = open_table(st, info, cfg, err);
        break;
    case SV_LTL:
        bad = gg_backend_ltl_open(info, &rule->ltl, &bo, &st->l, NULL, 0,
                                  &why, err);
        if (!bad)
            snprintf(st->name, sizeof st->name, "%s",
                     gg_backend_ltl_table(st->l)->name);
        break;
    case SV_3D: {
        gg_auto_line line;
        bad = gg_backend3d_open(info, &rule->r3, &bo, &st->d, &line, &why,
                                err);
        if (!bad)
            snprintf(st->name, sizeof st->name, "%s",
                     gg_backend3d_table(st->d)->name);
        break;
    }
    }
    if (bad)
        sv_stepper_close(st);
    return bad ? -1 : 0;
}

static int64_t ltl_step(void *ctx, uint8_t *cells, int64_t w, int64_t h,
                        bool torus, int64_t gens, gg_stop_flag *stop,
                        gg_err *err)
{
    return gg_backend_ltl_step_until(ctx, cells, w, h, torus, gens, stop,
                                     err);
}

/* A bounded two-state universe is stepped in one kernel call
 * (gg_universe_run would start its batches at one generation, and the
 * cpu kernel runs up to 32 generations a pass over memory: calls of a
 * few generations run at a fraction of its rate). */
static int advance_life(gg_backend *b, gg_universe *u, int64_t n,
                        gg_err *err)
{
    gg_stepper st = gg_backend_stepper(b);
    if (!gg_rule_is_bounded(&u->rule))
        return gg_universe_run(u, &st, n, NULL, NULL, err);
    if (st.hold && st.hold(st.ctx, u->rule.topo, &u->grid, err))
        return -1;
    int bad = 0;
    while (n > 0 && !bad) {
        int64_t k = st.max_batch && n > st.max_batch ? st.max_batch : n;
        bad = st.step(st.ctx, &u->rule, u->rule.topo, &u->grid, k, err);
        if (!bad)
            u->generation += k, n -= k;
    }
    gg_err later;
    if (st.hold && st.drop(st.ctx, &u->grid, bad ? &later : err))
        bad = -1;
    return bad;
}

int sv_stepper_advance(sv_stepper *st, sv_world *w, int64_t n,
                       uint64_t edits, gg_err *err)
{
    if (gg_generations_check(sv_world_generation(w), n, err))
        return -1;
    switch (w->family) {
    case SV_LIFE: return advance_life(st->b, &w->u, n, err);
    case SV_GEN: {
        gg_gen_stepper gs = gg_backend_gen_stepper(st->b);
        return gg_gen_universe_run(&w->g, &gs, n, NULL, NULL, err);
    }
    case SV_TABLE:
        if (st->tree)
            return advance_tree(st, &w->t, n, edits, err);
        w->t.step = st->k.step;
        w->t.step_ctx = st->k.ctx;
        return gg_table_universe_run(&w->t, n, NULL, NULL, NULL, err);
    case SV_LTL:
        w->l.step = gg_backend_ltl_batched(st->l) ? ltl_step : NULL;
        w->l.step_ctx = st->l;
        return gg_ltl_universe_run(&w->l, n, NULL, NULL, NULL, err);
    case SV_3D: {
        int64_t ran = gg_backend3d_step_until(st->d, &w->d.g, n, NULL, err);
        if (ran < 0)
            return -1;
        w->d.generation += ran;
        /* a step may hand the grid a new buffer: the slice on view points
         * into the grid's cells, so it is taken again (ASan: a frame read
         * the freed one); the projection stays the projection */
        int64_t depth;
        return sv_world_set_z(w, sv_world_z(w, &depth), err);
    }
    }
    return gg_fail(err, "no stepper for this family");
}

void sv_stepper_close(sv_stepper *st)
{
    if (st->b)
        gg_backend_close(st->b);
    if (st->h)
        gg_hl_free(st->h);
    gg_table_kernel_close(&st->k);
    sv_rule_free(&st->rule);
    if (st->l)
        gg_backend_ltl_close(st->l);
    if (st->d)
        gg_backend3d_close(st->d);
    memset(st, 0, sizeof *st);
}

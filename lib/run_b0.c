/* golgen_run_2d of a two-state B0 rule on the unbounded plane, as Golly
 * runs it (gen/rules/rule_b0.h): the stored cells stepped by two rules
 * without B0, one from even generations and one from odd ones, so a
 * finite pattern stays finite and the file written is bgolly's. Golly's
 * HashLife refuses such rules without S<max>; its QuickLife runs them.
 * Here the hash tree takes them under --engine hashlife, and under auto
 * where it would take the rule's pair (lib/run_tree.c: leaves stepped by
 * both rules by parity, runtime/engines/hashlife.h); else, and under
 * --engine dense, the dense engine: the plane regrown round the live
 * cells, a generation a call, each by its parity's backend (with S<max>
 * one rule: its backend's own batches). */
#include "run_b0.h"

#include <stdio.h>
#include <string.h>

#include "rule_b0.h"

/* The stepper of the stored cells: each generation by the rule of its
 * parity (the generation it starts from). */
typedef struct b0_steps {
    gg_stepper s[2];  /* even, odd */
    gg_rule rule[2];
    bool same; /* S<max>: rule[0] for both parities */
    int64_t generation;
} b0_steps;

static int b0_step(void *ctx, const gg_rule *rule, gg_topo topo,
                   gg_grid *grid, int64_t gens, gg_err *err)
{
    b0_steps *b = ctx;
    (void)rule;
    if (b->same) { /* S<max>: one rule, every call's generations at once */
        b->generation += gens;
        return b->s[0].step(b->s[0].ctx, &b->rule[0], topo, grid, gens, err);
    }
    for (int64_t i = 0; i < gens; i++) {
        const gg_stepper *s = &b->s[b->generation & 1];
        if (s->step(s->ctx, &b->rule[b->generation & 1], topo, grid, 1, err))
            return -1;
        b->generation++;
    }
    return 0;
}

/* The rule this run takes: a two-state B0 rule on the unbounded plane,
 * given by --rule or the pattern's file. */
static bool b0_rule(gg_run *r, gg_rule *rule)
{
    const golgen_run2d_opts *o = r->o;
    gg_err ignored;
    if (o->resume)
        return false;
    if (!o->rule && gg_run_read_input(r, &ignored))
        return false; /* the next path reads it again and says why */
    const char *text = o->rule ? o->rule : gg_lib_pattern_rule(r->pat);
    bool dense = !strcmp(r->engine, "dense") || !strcmp(r->engine, "tiles");
    /* with S<max> one rule steps them, which the tree takes
     * (lib/run_tree.c) unless the dense engine is asked for */
    return text && !gg_rule_parse(text, rule, &ignored) &&
           !gg_rule_is_generations(rule) && !gg_rule_is_bounded(rule) &&
           gg_rule_has_b0(rule) && (dense || !gg_rule_b0_smax(rule));
}

/* Both parities' backends (one when they are the same rule: b->same). */
static int b0_open(gg_run *r, b0_steps *b, gg_backend *be[2], int *status,
                   gg_err *err)
{
    gg_backend_opts bo = {.config = &r->cfg,
                          .announce = r->o->announce != 0};
    for (int i = 0; i < 2; i++) {
        if (i && b->same) {
            b->s[1] = b->s[0];
            return 0;
        }
        /* the odd rule on the backend auto took for the even one */
        const gg_backend_info *info = i ? gg_backend_of(be[0]) : r->backend;
        if (gg_run_open_backend(r, info, &b->rule[i], &bo, &be[i], status,
                                err))
            return -1;
        b->s[i] = gg_backend_stepper(be[i]);
        bo.announce = false;
    }
    return 0;
}

static int b0_write(gg_run *r, gg_universe *u, const gg_rule *rule,
                    gg_err *err)
{
    gg_pattern p;
    u->rule = *rule; /* written as given, as bgolly writes it */
    if (gg_universe_to_pattern(u, &p, err))
        return -1;
    int bad = gg_run_save_pattern(r->o->out, &p, err);
    gg_pattern_free(&p);
    return bad;
}

/* Run, write and say: a status. */
static int b0_go(gg_run *r, const gg_rule *rule, const gg_pattern *p,
                 gg_err *err)
{
    golgen_run2d_result *res = r->res;
    b0_steps b = {0};
    gg_backend *be[2] = {NULL, NULL};
    gg_universe u;
    int status = GG_RUN_USAGE;
    char text[256];
    gg_rule_format(rule, text, sizeof text);
    gg_rule_b0_pair(rule, &b.rule[0], &b.rule[1]);
    b.same = gg_rule_b0_smax(rule); /* the pair is one rule twice */
    if (gg_universe_from_pattern(&u, &b.rule[0], p, err))
        return GG_RUN_USAGE;
    if (b0_open(r, &b, be, &status, err)) {
        gg_universe_free(&u);
        return status;
    }
    gg_stepper st = {.name = b.s[0].name, .step = b0_step, .ctx = &b,
                     .max_batch = b.same ? b.s[0].max_batch : 64,
                     .stop = r->o->stop};
    b.generation = u.generation;
    gg_run_prog prog = {.r = r};
    int64_t first = u.generation;
    double start = gg_run_now();
    int bad = gg_generations_check(first, r->o->gens, err) ||
              gg_universe_run(&u, &st, r->o->gens, gg_run_progress, &prog,
                              err);
    res->seconds = gg_run_now() - start;
    res->reached = u.generation - first;
    res->generation = u.generation;
    for (int i = 0; i < 2; i++)
        if (be[i])
            gg_backend_close(be[i]);
    status = bad ? GG_RUN_ENV : GG_RUN_OK;
    if (!bad && r->o->out && b0_write(r, &u, rule, err))
        status = GG_RUN_USAGE;
    if (!bad) {
        res->ran = 1;
        res->written = r->o->out != NULL;
        res->population = gg_grid_population(&u.grid);
        snprintf(res->engine, sizeof res->engine, "dense");
        snprintf(res->rule, sizeof res->rule, "%s", text);
        snprintf(res->family, sizeof res->family, "two-state");
        gg_run_summary(r, "%s: generation %lld, population %lld, %.3f s (%s, "
                       "B0 emulated as Golly does: %s)", text,
                       (long long)res->generation,
                       (long long)res->population, res->seconds,
                       res->backend, gg_rule_b0_smax(rule)
                           ? "every generation complemented"
                           : "odd generations complemented");
    }
    gg_universe_free(&u);
    return status;
}

int gg_run_b0(gg_run *r, bool *taken, gg_err *err)
{
    const golgen_run2d_opts *o = r->o;
    gg_rule rule;
    *taken = false;
    if (!b0_rule(r, &rule))
        return GG_RUN_OK;
    *taken = true;
    if (!gg_rule_b0_smax(&rule) && strcmp(r->engine, "dense") &&
        strcmp(r->engine, "tiles")) { /* the tree, where auto takes it */
        bool dense;
        int status = gg_run_tree(r, &dense, err);
        if (!dense)
            return status;
    }
    const char *no = gg_run_plain_refuses(r);
    char text[256];
    gg_rule_format(&rule, text, sizeof text);
    if (no) {
        gg_fail(err, "%s is a B0 rule, which golgen runs on the unbounded "
                "plane as Golly emulates it, by the dense engine without %s "
                "yet; drop them, or give a bounded grid such as "
                ":T1024,1024", text, no);
        return GG_RUN_USAGE;
    }
    if (o->out && strcmp(o->out, "-") && gg_pattern_check_output(o->out, err))
        return GG_RUN_USAGE;
    if (gg_run_read_input(r, err))
        return GG_RUN_USAGE;
    gg_pattern *p = gg_lib_pattern_cells(r->pat, o->stop, err);
    return p ? b0_go(r, &rule, p, err) : GG_RUN_USAGE;
}

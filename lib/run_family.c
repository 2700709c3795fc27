/* golgen_run_2d for Golly's rule tables and trees (.rule files,
 * gen/rulefile/rulefile.h, found by runtime/formats/rule_find.h) and for
 * Larger than Life (gen/rules/rule_ltl.h) on the dense engine. Rule
 * tables run on the backends with open_table (the rule compiled and
 * validated: runtime/backends/table_kernel.h); auto takes the host's
 * first that opens and says why when that is not the first. Larger than
 * Life runs on the backends with LtL entry points
 * (runtime/backends/backend_ltl.h); auto takes the first that opens.
 * Other backends are refused as gg_backend_takes refuses them, and so
 * are the options these runs lack. Moved from the command's cli/run_table.c and cli/run_ltl.c. */
#include "run_lib.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "atomic_file.h"
#include "backend_ltl.h"
#include "ltl_universe.h"
#include "store.h"
#include "table_kernel.h"
#include "table_universe.h"

const char *gg_run_engine_refused(const gg_run *r)
{
    return !strcmp(r->engine, "tiles")      ? "--engine tiles"
           : !strcmp(r->engine, "hashlife") ? "--engine hashlife"
                                            : NULL;
}

/* How far a family's run got: what the frames, the png and the
 * checkpoints see goes through these. */
typedef struct fam_run {
    gg_run *r;
    gg_table_universe *t; /* a rule table's universe, or */
    gg_ltl_universe *l;   /* Larger than Life's */
    gg_run_parts parts;
} fam_run;

static int64_t fam_generation(const fam_run *x)
{
    return x->t ? x->t->generation : x->l->generation;
}

static int fam_store(void *ctx, gg_err *err)
{
    const fam_run *x = ctx;
    const char *path = x->r->o->store;
    return x->t ? gg_table_universe_write_store(path, x->t, err)
                : gg_ltl_universe_write_store(path, x->l, err);
}

static int fam_write_out(const fam_run *x, const char *out, gg_err *err)
{
    gg_pattern p;
    if (x->t ? gg_table_universe_to_pattern(x->t, &p, err)
             : gg_ltl_universe_to_pattern(x->l, &p, err))
        return -1;
    int bad = gg_run_save_pattern(out, &p, err);
    gg_pattern_free(&p);
    return bad;
}

static int64_t fam_part(void *ctx, int64_t n, gg_err *err)
{
    fam_run *x = ctx;
    gg_stop_flag *stop = x->r->o->stop;
    int64_t before = fam_generation(x);
    return (x->t ? gg_table_universe_run(x->t, n, stop, gg_run_progress,
                                         &x->parts.prog, err)
                 : gg_ltl_universe_run(x->l, n, stop, gg_run_progress,
                                       &x->parts.prog, err))
               ? -1
               : fam_generation(x) - before;
}

static int advance(void *ctx, int64_t gens, bool *stopped, gg_err *err)
{
    fam_run *x = ctx;
    return gg_run_parts_advance(&x->parts, x, gens, stopped, err);
}

static gg_run_parts fam_parts(gg_run *r)
{
    return (gg_run_parts){.prog = {.r = r}, .stopped = gg_run_stop_asked,
                          .step = fam_part, .store = fam_store};
}

static int draw(void *ctx, const char *path, const gg_picture_opts *o,
                gg_picture_info *info, gg_err *err)
{
    fam_run *x = ctx;
    return x->t ? gg_table_universe_write_picture(path, x->t, o, info, err)
                : gg_ltl_universe_write_picture(path, x->l, o, info, err);
}

/* The generations run, then out, the store and the picture: a status
 * (the result's counts set). */
static int run_and_write(fam_run *x, gg_err *err)
{
    gg_run *r = x->r;
    const golgen_run2d_opts *o = r->o;
    golgen_run2d_result *res = r->res;
    int64_t first = fam_generation(x);
    double start = gg_run_now();
    gg_fail_kind why;
    int status = gg_picture_run_frames(&r->pics, o->gens, advance, draw, x,
                                       &why, err)
                     ? gg_run_status(why)
                     : GG_RUN_OK;
    res->seconds = gg_run_now() - start;
    res->reached = fam_generation(x) - first;
    res->generation = fam_generation(x);
    if (!status) {
        res->ran = 1;
        if ((o->out && fam_write_out(x, o->out, err)) ||
            (o->store && fam_store(x, err)))
            status = GG_RUN_USAGE;
        else
            status = gg_run_write_png(r, draw, x, err);
    }
    if (status) {
        res->stop_exit = gg_run_stop_asked(r);
        return status;
    }
    res->written = o->out != NULL;
    res->population = x->t ? gg_table_universe_population(x->t)
                           : gg_ltl_universe_population(x->l);
    snprintf(res->engine, sizeof res->engine, "dense");
    return GG_RUN_OK;
}

/* ---- Golly rule tables and trees ---- */

/* The rule's name without its grid suffix: the kernel is the same on
 * every grid (and its cache entry with it). */
static void base_name(const gg_rule_found *f, char *buf, size_t size)
{
    snprintf(buf, size, "%.*s", (int)strcspn(f->rule, ":"), f->rule);
}

int gg_run_open_table(gg_run *r, const gg_rulefile *rf, const char *name,
                      bool leaves, gg_table_kernel *k, int *status,
                      gg_err *err)
{
    gg_table_ask a = {.info = r->backend, .config = &r->cfg,
                      .leaves = leaves};
    gg_fail_kind why;
    if (gg_table_kernel_open(&a, rf, name, k, &why, err)) {
        *status = gg_run_status(why);
        return -1;
    }
    if (k->note[0])
        gg_run_note(r, "golgen: auto: %s for the Golly rule %s; the %s "
                    "backend %s", k->note, name, k->backend,
                    leaves ? "steps the tree's leaves" : "runs it");
    return 0;
}

/* The compiled kernel the run's dense engine uses. *status on
 * failure. */
static int open_kernel(gg_run *r, const gg_rule_found *f, gg_table_kernel *k,
                       int *status, gg_err *err)
{
    const char *refused = gg_run_engine_refused(r);
    memset(k, 0, sizeof *k);
    *status = GG_RUN_USAGE;
    if (refused)
        return gg_fail(err, "%s is a Golly rule %s (%s), which golgen runs "
                       "on the dense engine and, on the unbounded plane, "
                       "the hash tree; it does not take %s yet here", f->rule,
                       f->rf.is_tree ? "tree" : "table", f->path, refused);
    char name[192];
    base_name(f, name, sizeof name);
    return gg_run_open_table(r, &f->rf, name, false, k, status, err);
}

/* resume: the rule the store names (or rule, which the store must hold),
 * found as Golly finds it: beside the store, in rules_dir, in Golly's
 * Rules folder. */
static int find_stored(const gg_run *r, gg_rule_found *f, gg_err *err)
{
    const golgen_run2d_opts *o = r->o;
    gg_store_info s;
    if (gg_store_info_read(o->resume, &s, err))
        return -1;
    int got = gg_rule_find(o->rule ? o->rule : s.rule, o->resume,
                           o->rules_dir, r->cfg.cache_dir, f, err);
    if (got == 0) {
        size_t n = strlen(err->msg);
        snprintf(err->msg + n, sizeof err->msg - n, "; store %.200s holds "
                 "the Golly rule %.100s: give --rules DIR, the folder of its "
                 ".rule file", o->resume, s.rule);
    }
    return got == 1 ? 0 : -1;
}

/* The universe from the store or the pattern: 0, or -1 with err. */
static int table_load(const gg_run *r, const gg_rule_found *f,
                      const gg_pattern *p, gg_table_universe *u, gg_err *err)
{
    const golgen_run2d_opts *o = r->o;
    if ((o->out && strcmp(o->out, "-") &&
         gg_pattern_check_output(o->out, err)) ||
        (o->store && gg_atomic_probe(o->store, err)))
        return -1;
    if (!o->resume)
        return gg_table_universe_from_pattern(u, &f->rf, f->rule, f->topo,
                                              f->width, f->height, p, err);
    return gg_table_universe_read_store(u, &f->rf, f->rule, f->topo,
                                        f->width, f->height, o->resume,
                                        err) ||
                   gg_generations_check(u->generation, o->gens, err)
               ? -1
               : 0;
}

/* The run once the rule is found: a status. */
static int table_found(gg_run *r, const gg_rule_found *f, const gg_pattern *p,
                       gg_err *err)
{
    gg_table_universe u;
    gg_table_kernel k;
    int status;
    if (open_kernel(r, f, &k, &status, err))
        return status;
    snprintf(r->res->backend, sizeof r->res->backend, "%s", k.backend);
    if (table_load(r, f, p, &u, err)) {
        gg_table_kernel_close(&k);
        return GG_RUN_USAGE;
    }
    u.step = k.step;
    u.step_ctx = k.ctx;
    fam_run x = {.r = r, .t = &u, .parts = fam_parts(r)};
    status = run_and_write(&x, err);
    if (!status) {
        snprintf(r->res->rule, sizeof r->res->rule, "%s", u.rule);
        gg_run_summary(r, "%s: generation %lld, population %lld, %.3f s "
                       "(%s, rule %s)", u.rule,
                       (long long)r->res->generation,
                       (long long)r->res->population, r->res->seconds,
                       k.what,
                       f->rf.is_tree ? "tree" : "table");
    }
    gg_table_kernel_close(&k);
    gg_table_universe_free(&u);
    return status;
}

int gg_run_table(gg_run *r, const gg_rule_found *f, const gg_pattern *p,
                 gg_err *err)
{
    snprintf(r->res->family, sizeof r->res->family, "table");
    if (!r->o->resume)
        return table_found(r, f, p, err);
    gg_rule_found own;
    if (find_stored(r, &own, err))
        return GG_RUN_USAGE;
    int status = table_found(r, &own, NULL, err);
    gg_rule_found_free(&own);
    return status;
}

/* ---- Larger than Life ---- */

/* The backend the run uses, through the table (runtime/backends/
 * backend_ltl.h): named, it must open (the cpu kernel validated before
 * use); auto takes the first that opens and says what it passed over.
 * *status on failure. */
static int ltl_open(gg_run *r, const char *rule_text, const gg_ltl_rule *rule,
                    gg_backend_ltl **b, int *status, gg_err *err)
{
    const char *refused = gg_run_engine_refused(r);
    *b = NULL;
    *status = GG_RUN_USAGE;
    if (refused)
        return gg_fail(err, "%s is a Larger than Life rule, which golgen "
                       "runs on the dense engine only for now; it does not "
                       "take %s yet", rule_text, refused);
    gg_backend_opts bo = {.config = &r->cfg};
    char note[600];
    gg_fail_kind why;
    if (gg_backend_ltl_open(r->backend, rule, &bo, b, note, sizeof note,
                            &why, err)) {
        *status = gg_run_status(why);
        return -1;
    }
    if (!r->backend && note[0])
        gg_run_note(r, "golgen: auto: %s; the %s backend runs %s", note,
                    gg_backend_ltl_table(*b)->name, rule_text);
    return 0;
}

static int64_t ltl_step(void *ctx, uint8_t *cells, int64_t w, int64_t h,
                        bool torus, int64_t gens, gg_stop_flag *stop,
                        gg_err *err)
{
    return gg_backend_ltl_step_until(ctx, cells, w, h, torus, gens, stop,
                                     err);
}

/* The universe: the store's (resume; rule may only repeat its rule) or
 * the pattern placed under the rule written `text`. */
static int ltl_load(const gg_run *r, const char *text, const gg_pattern *p,
                    gg_ltl_universe *u, gg_err *err)
{
    const golgen_run2d_opts *o = r->o;
    gg_ltl_rule rule;
    char canon[1200];
    if (!o->resume)
        return gg_ltl_parse(text, &rule, err) ||
                       gg_ltl_universe_from_pattern(u, &rule, p, err)
                   ? -1
                   : 0;
    if (gg_ltl_universe_read_store(u, o->resume, err))
        return -1;
    gg_err ignored;
    if (o->rule && !gg_ltl_parse(o->rule, &rule, &ignored))
        gg_ltl_format(&rule, canon, sizeof canon);
    else if (o->rule)
        canon[0] = 0;
    if (o->rule && strcmp(canon, u->rule_text)) {
        gg_fail(err, "--rule %s is not the rule of store %s (%s): drop "
                "--rule to continue it", o->rule, o->resume, u->rule_text);
        gg_ltl_universe_free(u);
        return -1;
    }
    if (gg_generations_check(u->generation, o->gens, err)) {
        gg_ltl_universe_free(u);
        return -1;
    }
    return 0;
}

int gg_run_ltl(gg_run *r, const char *text, const gg_pattern *p, gg_err *err)
{
    const golgen_run2d_opts *o = r->o;
    gg_ltl_universe u;
    gg_backend_ltl *b;
    int status;
    snprintf(r->res->family, sizeof r->res->family, "ltl");
    if ((o->out && strcmp(o->out, "-") &&
         gg_pattern_check_output(o->out, err)) ||
        (o->store && gg_atomic_probe(o->store, err)) ||
        ltl_load(r, text, p, &u, err))
        return GG_RUN_USAGE;
    if (ltl_open(r, u.rule_text, &u.rule, &b, &status, err)) {
        gg_ltl_universe_free(&u);
        return status;
    }
    snprintf(r->res->backend, sizeof r->res->backend, "%s",
             gg_backend_ltl_table(b)->name);
    if (gg_backend_ltl_batched(b)) {
        u.step = ltl_step;
        u.step_ctx = b;
    }
    fam_run x = {.r = r, .l = &u, .parts = fam_parts(r)};
    status = run_and_write(&x, err);
    if (!status) {
        gg_backend_desc d;
        gg_backend_ltl_describe(b, &d);
        snprintf(r->res->rule, sizeof r->res->rule, "%s", u.rule_text);
        gg_run_summary(r, "%s: generation %lld, population %lld, %.3f s "
                       "(%s %s, %d thread%s%s, Larger than Life)",
                       u.rule_text, (long long)r->res->generation,
                       (long long)r->res->population, r->res->seconds,
                       gg_backend_ltl_table(b)->name, d.what, d.threads,
                       d.threads == 1 ? "" : "s",
                       d.cache_hit ? ", cached kernel" : "");
    }
    gg_ltl_universe_free(&u);
    gg_backend_ltl_close(b);
    return status;
}

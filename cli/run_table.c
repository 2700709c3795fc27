#include "run_table.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "atomic_file.h"
#include "cli_frames.h"
#include "cli_util.h"
#include "run_control.h"
#include "store.h"
#include "table_kernel.h"
#include "table_universe.h"

static int write_out(const char *out, const gg_table_universe *u,
                     gg_err *err)
{
    gg_pattern p;
    if (gg_table_universe_to_pattern(u, &p, err))
        return -1;
    int bad = gg_cli_save_pattern(out, &p, err);
    gg_pattern_free(&p);
    return bad;
}

/* The rule's name without its grid suffix: the kernel is the same on
 * every grid (and its cache entry with it). */
static void base_name(const gg_rule_found *f, char *buf, size_t size)
{
    snprintf(buf, size, "%.*s", (int)strcspn(f->rule, ":"), f->rule);
}

/* The compiled kernel the run uses (*k; k->step NULL: the reference):
 * a named backend (cpu, opencl, cuda, ptx) must open it, validated before
 * use; auto takes cpu when it opens and else says why the reference runs;
 * reference is asked for by name; other backends are refused by name.
 * *exit_code on failure. */
static int open_kernel(const gg_rule_found *f, const gg_table_run *o,
                       gg_table_kernel *k, int *exit_code, gg_err *err)
{
    memset(k, 0, sizeof *k);
    *exit_code = GG_EXIT_USAGE;
    const char *kind = f->rf.is_tree ? "tree" : "table";
    if (o->refused)
        return gg_fail(err, "%s is a Golly rule %s (%s), which golgen runs "
                       "on the " GG_TABLE_BACKENDS " and reference backends "
                       "only for now; it does not take %s yet", f->rule,
                       kind, f->path, o->refused);
    bool is_auto = !o->backend || !strcmp(o->backend, "auto");
    if (!is_auto && !strcmp(o->backend, "reference"))
        return 0;
    if (!is_auto && !gg_table_backend_known(o->backend))
        return gg_fail(err, "backend %s cannot run %s: Golly rule tables and "
                       "trees are compiled for " GG_TABLE_BACKENDS " (and run "
                       "on reference)", o->backend, f->rule);
    char name[192];
    base_name(f, name, sizeof name);
    gg_fail_kind why;
    if (!gg_table_kernel_open(is_auto ? "cpu" : o->backend, &f->rf, name,
                              o->cfg, k, &why, err))
        return 0;
    if (!is_auto) {
        *exit_code = gg_fail_exit_status(why);
        return -1;
    }
    fprintf(stderr, "golgen: auto: no cpu kernel for the Golly rule %s %s "
            "(%s); the reference runs it\n", kind, f->rule, err->msg);
    return 0;
}

/* --resume: the rule the store names (or --rule, which the store must
 * hold), found as Golly finds it: beside the store, in --rules DIR, in
 * Golly's Rules folder. */
static int find_stored(const gg_table_run *o, gg_rule_found *f, gg_err *err)
{
    gg_store_info s;
    if (gg_store_info_read(o->resume, &s, err))
        return -1;
    int got = gg_rule_find(o->rule ? o->rule : s.rule, o->resume,
                           o->rules_dir, f, err);
    if (got == 0) {
        size_t n = strlen(err->msg);
        snprintf(err->msg + n, sizeof err->msg - n, "; store %.200s holds "
                 "the Golly rule %.100s: give --rules DIR, the folder of its "
                 ".rule file", o->resume, s.rule);
    }
    return got == 1 ? 0 : -1;
}

/* The universe as --frames, --png and the checkpoints see it. */
typedef struct table_run {
    gg_table_universe *u;
    gg_run_progress ps;
    const char *store; /* checkpoints every `every` generations */
    int64_t every, since;
} table_run;

/* gens generations (fewer after a stop signal), in parts that end at each
 * checkpoint, as the other families' runs do (cli/run_gen.c). */
static int advance(void *ctx, int64_t gens, bool *stopped, gg_err *err)
{
    table_run *r = ctx;
    for (int64_t done = 0; done < gens && !gg_run_stopped();) {
        int64_t n = gens - done, before = r->u->generation;
        if (r->every > 0 && n > r->every - r->since)
            n = r->every - r->since;
        if (gg_table_universe_run(r->u, n, gg_run_stop_flag(),
                                  gg_run_progress_cb, &r->ps, err))
            return -1;
        int64_t ran = r->u->generation - before;
        done += ran;
        r->ps.base += ran;
        r->since += ran;
        if (r->every > 0 && r->since >= r->every) {
            if (gg_table_universe_write_store(r->store, r->u, err))
                return -1;
            r->since = 0;
        }
        if (ran < n) /* stopped inside */
            break;
    }
    *stopped = gg_run_stopped();
    return 0;
}

static int draw(void *ctx, const char *path, const gg_picture_opts *o,
                gg_picture_info *info, gg_err *err)
{
    table_run *r = ctx;
    return gg_table_universe_write_picture(path, r->u, o, info, err);
}

static const gg_cli_pictures no_pictures;

/* OUT, the store and the picture once the run ended: exit status. */
static int outputs(table_run *r, const gg_table_run *o, gg_err *err)
{
    if (o->out && write_out(o->out, r->u, err))
        return GG_EXIT_USAGE;
    if (o->store && gg_table_universe_write_store(o->store, r->u, err))
        return GG_EXIT_USAGE;
    return gg_cli_write_png(o->pics ? o->pics : &no_pictures, draw, r, err);
}

/* The universe from the store or the pattern: 0, or -1 with err. */
static int load(const gg_rule_found *f, const gg_pattern *p,
                const gg_table_run *o, gg_table_universe *u, gg_err *err)
{
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

/* The run once the rule is found: the exit status. */
static int run_found(const gg_rule_found *f, const gg_pattern *p,
                     const gg_table_run *o)
{
    gg_err err;
    gg_table_universe u;
    gg_table_kernel k;
    int code;
    if (open_kernel(f, o, &k, &code, &err))
        return gg_cli_error("run", code, &err);
    if (load(f, p, o, &u, &err)) {
        gg_table_kernel_close(&k);
        return gg_cli_error("run", GG_EXIT_USAGE, &err);
    }
    u.step = k.step;
    u.step_ctx = k.ctx;
    table_run r = {.u = &u, .store = o->store, .every = o->every};
    gg_run_progress_init(&r.ps, o->progress, o->gens);
    int64_t first = u.generation;
    double start = gg_cli_now();
    int status = gg_cli_run_frames(o->pics ? o->pics : &no_pictures, o->gens,
                                   advance, draw, &r, &err);
    double seconds = gg_cli_now() - start;
    if (!status)
        status = outputs(&r, o, &err);
    if (status) {
        gg_table_universe_free(&u);
        gg_table_kernel_close(&k);
        int rc = gg_cli_error("run", status, &err);
        return gg_run_stopped() ? gg_run_stop_status() : rc;
    }
    fprintf(stderr, "%s: generation %lld, population %lld, %.3f s "
            "(%s, rule %s)\n", u.rule, (long long)u.generation,
            (long long)gg_table_universe_population(&u), seconds,
            k.step ? k.what : "reference", f->rf.is_tree ? "tree" : "table");
    gg_table_kernel_close(&k);
    int64_t reached = u.generation - first;
    gg_table_universe_free(&u);
    return gg_run_stop_report(reached, o->gens, o->out != NULL);
}

int gg_run_table(const gg_rule_found *f, const gg_pattern *p,
                 const gg_table_run *o)
{
    if (!o->resume)
        return run_found(f, p, o);
    gg_rule_found own;
    gg_err err;
    if (find_stored(o, &own, &err))
        return gg_cli_error("run", GG_EXIT_USAGE, &err);
    int rc = run_found(&own, NULL, o);
    gg_rule_found_free(&own);
    return rc;
}

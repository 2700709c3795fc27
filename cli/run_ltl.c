#include "run_ltl.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "atomic_file.h"
#include "backend_ltl.h"
#include "cli_frames.h"
#include "cli_util.h"
#include "ltl_universe.h"
#include "run_control.h"

static int write_out(const char *out, const gg_ltl_universe *u, gg_err *err)
{
    gg_pattern p;
    if (gg_ltl_universe_to_pattern(u, &p, err))
        return -1;
    int bad = gg_cli_save_pattern(out, &p, err);
    gg_pattern_free(&p);
    return bad;
}

/* The backend the run uses, through the table (runtime/backends/
 * backend_ltl.h): named, it must open (the cpu kernel validated before
 * use); auto takes the first that opens and says what it passed over.
 * *code: the exit status on failure. */
static int open_backend(const char *rule_text, const gg_ltl_rule *rule,
                        const gg_table_run *o, gg_backend_ltl **b,
                        int *code, gg_err *err)
{
    *b = NULL;
    *code = GG_EXIT_USAGE;
    if (o->refused)
        return gg_fail(err, "%s is a Larger than Life rule, which golgen "
                       "runs on the dense engine only for now; it does not "
                       "take %s yet", rule_text, o->refused);
    const gg_backend_info *info = NULL;
    if (o->backend && strcmp(o->backend, "auto") &&
        !(info = gg_backend_find(o->backend, err)))
        return -1;
    gg_backend_opts bo = {.config = o->cfg};
    char note[600];
    gg_fail_kind why;
    if (gg_backend_ltl_open(info, rule, &bo, b, note, sizeof note, &why,
                            err)) {
        *code = gg_fail_exit_status(why);
        return -1;
    }
    if (!info && note[0])
        fprintf(stderr, "golgen: auto: %s; the %s backend runs %s\n", note,
                gg_backend_ltl_table(*b)->name, rule_text);
    return 0;
}

static int64_t step_cb(void *ctx, uint8_t *cells, int64_t w, int64_t h,
                       bool torus, int64_t gens, gg_stop_flag *stop,
                       gg_err *err)
{
    return gg_backend_ltl_step_until(ctx, cells, w, h, torus, gens, stop,
                                     err);
}

/* The universe: the store's (o->resume; --rule may only repeat its
 * rule) or the pattern placed under the rule written `text`. */
static int load(const char *text, const gg_pattern *p, const gg_table_run *o,
                gg_ltl_universe *u, gg_err *err)
{
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

/* The universe as --frames, --png and the checkpoints see it. */
typedef struct ltl_run {
    gg_ltl_universe *u;
    gg_run_progress ps;
    const char *store; /* checkpoints every `every` generations */
    int64_t every, since;
} ltl_run;

/* gens generations (fewer after a stop signal), in parts that end at each
 * checkpoint, as the other families' runs do (cli/run_gen.c). */
static int advance(void *ctx, int64_t gens, bool *stopped, gg_err *err)
{
    ltl_run *r = ctx;
    for (int64_t done = 0; done < gens && !gg_run_stopped();) {
        int64_t n = gens - done, before = r->u->generation;
        if (r->every > 0 && n > r->every - r->since)
            n = r->every - r->since;
        if (gg_ltl_universe_run(r->u, n, gg_run_stop_flag(),
                                gg_run_progress_cb, &r->ps, err))
            return -1;
        int64_t ran = r->u->generation - before;
        done += ran;
        r->ps.base += ran;
        r->since += ran;
        if (r->every > 0 && r->since >= r->every) {
            if (gg_ltl_universe_write_store(r->store, r->u, err))
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
    ltl_run *r = ctx;
    return gg_ltl_universe_write_picture(path, r->u, o, info, err);
}

/* OUT, the store and the picture once the run ended: exit status. */
static int outputs(ltl_run *r, const gg_table_run *o, gg_err *err)
{
    if (o->out && write_out(o->out, r->u, err))
        return GG_EXIT_USAGE;
    if (o->store && gg_ltl_universe_write_store(o->store, r->u, err))
        return GG_EXIT_USAGE;
    static const gg_cli_pictures none;
    return gg_cli_write_png(o->pics ? o->pics : &none, draw, r, err);
}

int gg_run_ltl(const char *text, const gg_pattern *p, const gg_table_run *o)
{
    gg_err err;
    gg_ltl_universe u;
    gg_backend_ltl *b;
    int code;
    if ((o->out && strcmp(o->out, "-") &&
         gg_pattern_check_output(o->out, &err)) ||
        (o->store && gg_atomic_probe(o->store, &err)) ||
        load(text, p, o, &u, &err))
        return gg_cli_error("run", GG_EXIT_USAGE, &err);
    if (open_backend(u.rule_text, &u.rule, o, &b, &code, &err)) {
        gg_ltl_universe_free(&u);
        return gg_cli_error("run", code, &err);
    }
    if (gg_backend_ltl_batched(b)) {
        u.step = step_cb;
        u.step_ctx = b;
    }
    static const gg_cli_pictures none;
    ltl_run r = {.u = &u, .store = o->store, .every = o->every};
    gg_run_progress_init(&r.ps, o->progress, o->gens);
    int64_t first = u.generation;
    double start = gg_cli_now();
    int status = gg_cli_run_frames(o->pics ? o->pics : &none, o->gens,
                                   advance, draw, &r, &err);
    double seconds = gg_cli_now() - start;
    if (!status)
        status = outputs(&r, o, &err);
    if (status) {
        gg_ltl_universe_free(&u);
        gg_backend_ltl_close(b);
        int rc = gg_cli_error("run", status, &err);
        return gg_run_stopped() ? gg_run_stop_status() : rc;
    }
    gg_backend_desc d;
    gg_backend_ltl_describe(b, &d);
    fprintf(stderr, "%s: generation %lld, population %lld, %.3f s "
            "(%s %s, %d thread%s%s, Larger than Life)\n", u.rule_text,
            (long long)u.generation,
            (long long)gg_ltl_universe_population(&u), seconds,
            gg_backend_ltl_table(b)->name, d.what, d.threads,
            d.threads == 1 ? "" : "s", d.cache_hit ? ", cached kernel" : "");
    int64_t reached = u.generation - first;
    gg_ltl_universe_free(&u);
    gg_backend_ltl_close(b);
    return gg_run_stop_report(reached, o->gens, o->out != NULL);
}

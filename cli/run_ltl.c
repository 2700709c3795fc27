#include "run_ltl.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backend_ltl.h"
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
                       "runs on the cpu and reference backends only for "
                       "now; it does not take %s yet", rule_text,
                       o->refused);
    const gg_backend_info *info = NULL;
    if (o->backend && strcmp(o->backend, "auto") &&
        !(info = gg_backend_find(o->backend, err)))
        return -1;
    gg_backend_opts bo = {.config = o->cfg};
    char note[600];
    gg_fail_kind why;
    if (gg_backend_ltl_open(info, rule, &bo, b, note, sizeof note, &why,
                            err)) {
        *code = why == GG_FAIL_ENV       ? GG_EXIT_ENV
                : why == GG_FAIL_INVALID ? GG_EXIT_CHECK_FAILED
                                         : GG_EXIT_USAGE;
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

int gg_run_ltl(const char *text, const gg_pattern *p, const gg_table_run *o)
{
    gg_err err;
    gg_ltl_rule rule;
    gg_ltl_universe u;
    gg_backend_ltl *b;
    char canon[1200];
    int code;
    if (gg_ltl_parse(text, &rule, &err))
        return gg_cli_error("run", GG_EXIT_USAGE, &err);
    gg_ltl_format(&rule, canon, sizeof canon);
    if (open_backend(canon, &rule, o, &b, &code, &err))
        return gg_cli_error("run", code, &err);
    if ((o->out && strcmp(o->out, "-") &&
         gg_pattern_check_output(o->out, &err)) ||
        gg_ltl_universe_from_pattern(&u, &rule, p, &err)) {
        gg_backend_ltl_close(b);
        return gg_cli_error("run", GG_EXIT_USAGE, &err);
    }
    if (gg_backend_ltl_batched(b)) {
        u.step = step_cb;
        u.step_ctx = b;
    }
    gg_run_progress ps;
    gg_run_progress_init(&ps, o->progress, o->gens);
    int64_t first = u.generation;
    double start = gg_cli_now();
    int bad = gg_ltl_universe_run(&u, o->gens, gg_run_stop_flag(),
                                  gg_run_progress_cb, &ps, &err);
    double seconds = gg_cli_now() - start;
    if (!bad && o->out)
        bad = write_out(o->out, &u, &err);
    if (bad) {
        gg_ltl_universe_free(&u);
        gg_backend_ltl_close(b);
        return gg_cli_error("run", GG_EXIT_USAGE, &err);
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

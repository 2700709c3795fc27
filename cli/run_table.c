#include "run_table.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli_util.h"
#include "run_control.h"
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
        *exit_code = why == GG_FAIL_ENV ? GG_EXIT_ENV
                     : why == GG_FAIL_INVALID ? GG_EXIT_CHECK_FAILED
                                              : GG_EXIT_USAGE;
        return -1;
    }
    fprintf(stderr, "golgen: auto: no cpu kernel for the Golly rule %s %s "
            "(%s); the reference runs it\n", kind, f->rule, err->msg);
    return 0;
}

int gg_run_table(const gg_rule_found *f, const gg_pattern *p,
                 const gg_table_run *o)
{
    gg_err err;
    gg_table_universe u;
    gg_table_kernel k;
    int code;
    if (open_kernel(f, o, &k, &code, &err))
        return gg_cli_error("run", code, &err);
    if ((o->out && strcmp(o->out, "-") &&
         gg_pattern_check_output(o->out, &err)) ||
        gg_table_universe_from_pattern(&u, &f->rf, f->rule, f->topo,
                                       f->width, f->height, p, &err)) {
        gg_table_kernel_close(&k);
        return gg_cli_error("run", GG_EXIT_USAGE, &err);
    }
    u.step = k.step;
    u.step_ctx = k.ctx;
    gg_run_progress ps;
    gg_run_progress_init(&ps, o->progress, o->gens);
    int64_t first = u.generation;
    double start = gg_cli_now();
    int bad = gg_table_universe_run(&u, o->gens, gg_run_stop_flag(),
                                    gg_run_progress_cb, &ps, &err);
    double seconds = gg_cli_now() - start;
    if (!bad && o->out)
        bad = write_out(o->out, &u, &err);
    if (bad) {
        gg_table_universe_free(&u);
        gg_table_kernel_close(&k);
        return gg_cli_error("run", GG_EXIT_USAGE, &err);
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

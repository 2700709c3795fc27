#include "run_ltl.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

static int backend_check(const char *rule, const gg_table_run *o,
                         gg_err *err)
{
    if (o->refused)
        return gg_fail(err, "%s is a Larger than Life rule, which golgen "
                       "runs on the reference only for now; it does not "
                       "take %s yet", rule, o->refused);
    if (!o->backend || !strcmp(o->backend, "auto")) {
        fprintf(stderr, "golgen: %s is a Larger than Life rule: auto takes "
                "the reference backend (no kernel counts these "
                "neighbourhoods yet, issue 39 part 3)\n", rule);
        return 0;
    }
    if (strcmp(o->backend, "reference"))
        return gg_fail(err, "backend %s cannot run %s: Larger than Life "
                       "rules are not compiled to kernels yet (issue 39 "
                       "part 3); use --backend reference", o->backend, rule);
    return 0;
}

int gg_run_ltl(const char *text, const gg_pattern *p, const gg_table_run *o)
{
    gg_err err;
    gg_ltl_rule rule;
    gg_ltl_universe u;
    char canon[1200];
    if (gg_ltl_parse(text, &rule, &err))
        return gg_cli_error("run", GG_EXIT_USAGE, &err);
    gg_ltl_format(&rule, canon, sizeof canon);
    if (backend_check(canon, o, &err) ||
        (o->out && strcmp(o->out, "-") &&
         gg_pattern_check_output(o->out, &err)) ||
        gg_ltl_universe_from_pattern(&u, &rule, p, &err))
        return gg_cli_error("run", GG_EXIT_USAGE, &err);
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
        return gg_cli_error("run", GG_EXIT_USAGE, &err);
    }
    fprintf(stderr, "%s: generation %lld, population %lld, %.3f s "
            "(reference, Larger than Life)\n", u.rule_text,
            (long long)u.generation,
            (long long)gg_ltl_universe_population(&u), seconds);
    int64_t reached = u.generation - first;
    gg_ltl_universe_free(&u);
    return gg_run_stop_report(reached, o->gens, o->out != NULL);
}

static void print_ranges(const char *label, const int32_t *lo,
                         const int32_t *hi, int n)
{
    printf("%-15s", label);
    for (int i = 0; i < n; i++)
        printf("%s%ld..%ld", i ? ", " : " ", (long)lo[i], (long)hi[i]);
    printf("\n");
}

int gg_rule_print_ltl(const char *text)
{
    gg_err err;
    gg_ltl_rule r;
    if (gg_ltl_parse(text, &r, &err))
        return gg_cli_error("rule", GG_EXIT_USAGE, &err);
    char canon[1200];
    gg_ltl_format(&r, canon, sizeof canon);
    printf("%-15s %s\n", "rule:", canon);
    printf("%-15s Larger than Life, range %d\n", "kind:", r.range);
    printf("%-15s %s of range %d (%lld cells with the middle)\n",
           "neighbourhood:", gg_ltl_nbhd_name(r.nbhd), r.range,
           (long long)gg_ltl_nbhd_cells(&r));
    printf("%-15s %s\n", "middle cell:",
           r.middle ? "counted when live (M1)" : "not counted (M0)");
    if (r.states > 2)
        printf("%-15s %d (a cell that does not survive decays through "
               "states 2..%d, as Generations)\n", "states:", r.states,
               r.states - 1);
    else
        printf("%-15s 2\n", "states:");
    print_ranges("survival:", r.s_lo, r.s_hi, r.n_s);
    print_ranges("birth:", r.b_lo, r.b_hi, r.n_b);
    if (r.n_s > 1 || r.n_b > 1)
        printf("%-15s several S or B ranges are a golgen extension; bgolly "
               "3.3 reads one of each\n", "note:");
    if (r.topo == GG_TOPO_UNBOUNDED)
        printf("%-15s unbounded plane\n", "topology:");
    else
        printf("%-15s %s %lldx%lld\n", "topology:",
               r.topo == GG_TOPO_TORUS ? "torus" : "bounded plane",
               (long long)r.width, (long long)r.height);
    printf("%-15s reference only (not compiled to kernels yet: issue 39 "
           "part 3)\n", "backends:");
    return GG_EXIT_OK;
}

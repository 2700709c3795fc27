#include "run_table.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli_util.h"
#include "run_control.h"
#include "table_universe.h"

static int write_out(const char *out, const gg_table_universe *u,
                     gg_err *err)
{
    gg_pattern p;
    if (gg_table_universe_to_pattern(u, &p, err))
        return -1;
    int bad;
    if (strcmp(out, "-")) {
        bad = gg_pattern_write(out, &p, err); /* format by name */
    } else {
        char *text = NULL;
        size_t len = 0;
        bad = gg_pattern_format_rle(&p, &text, &len, err);
        if (!bad && (fwrite(text, 1, len, stdout) != len || fflush(stdout)))
            bad = gg_fail(err, "writing the pattern to stdout failed");
        free(text);
    }
    gg_pattern_free(&p);
    return bad;
}

/* Only the reference steps these rules yet: auto says so, others are
 * refused by name. */
static int backend_check(const gg_rule_found *f, const gg_table_run *o,
                         gg_err *err)
{
    if (o->refused)
        return gg_fail(err, "%s is a Golly rule %s (%s), which golgen runs "
                       "on the reference only for now; it does not take %s "
                       "yet", f->rule, f->rf.is_tree ? "tree" : "table",
                       f->path, o->refused);
    if (!o->backend || !strcmp(o->backend, "auto")) {
        fprintf(stderr, "golgen: %s is a Golly rule %s: auto takes the "
                "reference backend (rule tables are not compiled to kernels "
                "yet, issue 39)\n", f->rule, f->rf.is_tree ? "tree" : "table");
        return 0;
    }
    if (strcmp(o->backend, "reference"))
        return gg_fail(err, "backend %s cannot run %s: Golly rule tables and "
                       "trees are not compiled to kernels yet (issue 39 part "
                       "2); use --backend reference", o->backend, f->rule);
    return 0;
}

int gg_run_table(const gg_rule_found *f, const gg_pattern *p,
                 const gg_table_run *o)
{
    gg_err err;
    gg_table_universe u;
    if (backend_check(f, o, &err) ||
        (o->out && strcmp(o->out, "-") &&
         gg_pattern_check_output(o->out, &err)) ||
        gg_table_universe_from_pattern(&u, &f->rf, f->rule, f->topo,
                                       f->width, f->height, p, &err))
        return gg_cli_error("run", GG_EXIT_USAGE, &err);
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
        return gg_cli_error("run", GG_EXIT_USAGE, &err);
    }
    fprintf(stderr, "%s: generation %lld, population %lld, %.3f s "
            "(reference, rule %s)\n", u.rule, (long long)u.generation,
            (long long)gg_table_universe_population(&u), seconds,
            f->rf.is_tree ? "tree" : "table");
    int64_t reached = u.generation - first;
    gg_table_universe_free(&u);
    return gg_run_stop_report(reached, o->gens, o->out != NULL);
}

void gg_rule_print_table(const gg_rule_found *f)
{
    const gg_rulefile *r = &f->rf;
    printf("%-15s %s\n", "rule:", f->rule);
    printf("%-15s %s\n", "file:", f->path);
    if (r->name[0])
        printf("%-15s %s\n", "@RULE:", r->name);
    printf("%-15s Golly rule %s, %d states\n", "kind:",
           r->is_tree ? "tree (@TREE)" : "table (@TABLE)", r->n_states);
    printf("%-15s %s (%d neighbours)\n", "neighbourhood:",
           gg_rf_nbhd_name(r->nbhd), gg_rf_nbhd_neighbours(r->nbhd));
    if (!r->is_tree) {
        printf("%-15s %s\n", "symmetries:", r->symmetries);
        printf("%-15s %lld (%lld once variables are bound and symmetries "
               "applied)\n", "transitions:", (long long)r->n_transitions,
               (long long)r->n_expanded);
    }
    printf("%-15s %lld nodes over %d inputs\n", "decision DAG:",
           (long long)r->n_nodes, r->n_inputs);
    if (f->topo == GG_TOPO_UNBOUNDED)
        printf("%-15s unbounded plane\n", "topology:");
    else
        printf("%-15s %s %lldx%lld\n", "topology:",
               f->topo == GG_TOPO_TORUS ? "torus" : "bounded plane",
               (long long)f->width, (long long)f->height);
    printf("%-15s reference only (not compiled to kernels yet: issue 39)\n",
           "backends:");
}

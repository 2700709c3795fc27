#include "run_gen.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "atomic_file.h"
#include "cli_util.h"
#include "gen_cpu.h"
#include "reference_gen.h"
#include "gen_universe.h"
#include "rule_gen.h"

static int write_out(const char *out, const gg_gen_universe *u, gg_err *err)
{
    gg_pattern p;
    if (gg_gen_universe_to_pattern(u, &p, err))
        return -1;
    int bad;
    if (strcmp(out, "-")) {
        bad = gg_pattern_write_rle(out, &p, err);
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

int gg_run_generations(const gg_rule *rule, const gg_pattern *p,
                       const char *backend, int64_t gens, const char *out)
{
    gg_err err;
    char text[128];
    gg_rule_format(rule, text, sizeof text);
    bool cpu = backend && !strcmp(backend, "cpu");
    if (backend && !cpu && strcmp(backend, "reference")) {
        gg_fail(&err, "%s is a Generations rule, which only --backend "
                "reference and --backend cpu run today (the GPU kernels "
                "for Generations are not written yet); drop --backend %s",
                text, backend);
        return gg_cli_error("run", GG_EXIT_USAGE, &err);
    }
    /* the bitsliced step agrees with the reference on random soups of
     * this rule before it is used; a mismatch is a bug, never run */
    if (cpu && gg_gen_cpu_validate(rule, &err))
        return gg_cli_error("run", GG_EXIT_CHECK_FAILED, &err);
    /* fail before a long run, not after it, when OUT cannot be made */
    if (out && strcmp(out, "-") && gg_atomic_probe(out, &err))
        return gg_cli_error("run", GG_EXIT_USAGE, &err);
    gg_gen_universe u;
    if (gg_gen_universe_from_pattern(&u, rule, p, &err))
        return gg_cli_error("run", GG_EXIT_USAGE, &err);
    double start = gg_cli_now();
    if (gg_gen_universe_run(&u, cpu ? gg_gen_cpu_run : gg_reference_gen_run,
                            gens, NULL, NULL, &err)) {
        gg_gen_universe_free(&u);
        return gg_cli_error("run", GG_EXIT_ENV, &err);
    }
    double seconds = gg_cli_now() - start;
    if (out && write_out(out, &u, &err)) {
        gg_gen_universe_free(&u);
        return gg_cli_error("run", GG_EXIT_USAGE, &err);
    }
    /* a rate only where the grid kept its size: the unbounded plane
     * grows between batches */
    char rate[64] = "";
    double cells = (double)gg_gen_cells_width(&u.cells) *
                   (double)gg_gen_cells_height(&u.cells) * (double)gens;
    if (gg_rule_is_bounded(rule) && seconds > 0)
        snprintf(rate, sizeof rate, ", %.3e cell updates/s", cells / seconds);
    fprintf(stderr, "%s: generation %lld, population %lld, %.3f s%s (%s, "
            "Generations)\n", text, (long long)u.generation,
            (long long)gg_gen_universe_population(&u), seconds, rate,
            cpu ? "cpu" : "reference");
    gg_gen_universe_free(&u);
    return GG_EXIT_OK;
}

void gg_rule_print_generations(const gg_rule *r)
{
    char canon[256], trans[192];
    gg_rule_format(r, canon, sizeof canon);
    gg_rule_format_transition(r, trans, sizeof trans);
    printf("%-15s %s\n", "rule:", canon);
    printf("%-15s %s\n", "transition:", trans);
    printf("%-15s Generations, %d states (0 dead, 1 alive, %s)\n", "kind:",
           r->states, r->states > 2 ? "2.. dying" : "no dying states");
    printf("%-15s %s (%d neighbours; only state-1 cells count)\n",
           "neighbourhood:", gg_nbhd_name(r->nbhd), r->n_neighbours);
    if (r->topo == GG_TOPO_UNBOUNDED)
        printf("%-15s unbounded plane (Golly's default)\n", "topology:");
    else
        printf("%-15s %s %lld x %lld\n", "topology:",
               r->topo == GG_TOPO_TORUS ? "torus" : "bounded plane",
               (long long)r->width, (long long)r->height);
    gg_cli_print_counts("birth:", r->birth, r->n_neighbours);
    gg_cli_print_counts("survival:", r->survive, r->n_neighbours);
    printf("%-15s %d bit plane%s per cell\n", "state planes:",
           gg_gen_planes(r->states), gg_gen_planes(r->states) > 1 ? "s" : "");
    printf("%-15s reference, cpu (golgen run); GPU kernels not yet\n",
           "backends:");
}

#include "run_gen.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "atomic_file.h"
#include "cli_util.h"
#include "run_control.h"
#include "backend.h"
#include "gen_universe.h"
#include "rule_gen.h"

static int write_out(const char *out, const gg_gen_universe *u, gg_err *err)
{
    gg_pattern p;
    if (gg_gen_universe_to_pattern(u, &p, err))
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

/* The universe as --frames and --png see it (cli/cli_pictures.h). */
typedef struct gen_run {
    gg_gen_universe *u;
    const gg_gen_stepper *step; /* the open backend's */
    gg_run_progress ps;
} gen_run;

static int gen_advance(void *ctx, int64_t gens, bool *stopped, gg_err *err)
{
    gen_run *g = ctx;
    *stopped = gg_run_stopped(); /* before the first generation */
    if (*stopped)
        return 0;
    int bad = gg_gen_universe_run(g->u, g->step, gens,
                                      gg_run_progress_cb, &g->ps, err);
    g->ps.base += gens;
    *stopped = gg_run_stopped();
    return bad;
}

static int gen_draw(void *ctx, const char *path, const gg_picture_opts *o,
                    gg_picture_info *info, gg_err *err)
{
    gen_run *g = ctx;
    return gg_picture_write_gen_universe(path, g->u, o, info, err);
}

/* The run itself, once the backend is open: exit status. */
static int run_open(const gg_rule *rule, const gg_pattern *p, gg_backend *b,
                    int64_t gens, bool progress, const char *out,
                    const gg_cli_pictures *pics, gg_err *err)
{
    char text[128];
    gg_rule_format(rule, text, sizeof text);
    gg_gen_universe u;
    if (gg_gen_universe_from_pattern(&u, rule, p, err))
        return GG_EXIT_USAGE;
    double start = gg_cli_now();
    gg_gen_stepper st = gg_backend_gen_stepper(b);
    gen_run run = {.u = &u, .step = &st};
    gg_run_progress_init(&run.ps, progress, gens);
    int64_t first = u.generation;
    int status = gg_cli_run_frames(pics, gens, gen_advance, gen_draw, &run,
                                   err);
    double seconds = gg_cli_now() - start;
    if (!status && out && write_out(out, &u, err))
        status = GG_EXIT_USAGE;
    if (!status)
        status = gg_cli_write_png(pics, gen_draw, &run, err);
    if (status) {
        gg_gen_universe_free(&u);
        return status;
    }
    /* a rate only where the grid kept its size: the unbounded plane
     * grows between batches */
    char rate[64] = "";
    double cells = (double)gg_gen_cells_width(&u.cells) *
                   (double)gg_gen_cells_height(&u.cells) *
                   (double)(u.generation - first);
    if (gg_rule_is_bounded(rule) && seconds > 0)
        snprintf(rate, sizeof rate, ", %.3e cell updates/s", cells / seconds);
    fprintf(stderr, "%s: generation %lld, population %lld, %.3f s%s (%s, "
            "Generations)\n", text, (long long)u.generation,
            (long long)gg_gen_universe_population(&u), seconds, rate,
            gg_backend_of(b)->name);
    int64_t reached = u.generation - first;
    gg_gen_universe_free(&u);
    return gg_run_stop_report(reached, gens, out != NULL);
}

int gg_run_generations(const gg_rule *rule, const gg_pattern *p,
                       const gg_backend_info *backend,
                       const gg_backend_opts *bo, int64_t gens, bool progress,
                       const char *out, const gg_cli_pictures *pics)
{
    gg_err err;
    /* fail before a long run, not after it, when OUT cannot be made */
    if (out && gg_pattern_check_output(out, &err))
        return gg_cli_error("run", GG_EXIT_USAGE, &err);
    gg_backend *b;
    int status;
    if (gg_cli_open_backend(backend, rule, bo, &b, &status, &err))
        return gg_cli_error("run", status, &err);
    status = run_open(rule, p, b, gens, progress, out, pics, &err);
    gg_backend_close(b);
    /* a stop signal's status (130, 143, 129) was said already */
    return status && status < 128 ? gg_cli_error("run", status, &err)
                                  : status;
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
    gg_cli_print_topology(r);
    gg_cli_print_counts("birth:", r->birth, r->n_neighbours);
    gg_cli_print_counts("survival:", r->survive, r->n_neighbours);
    printf("%-15s %d bit plane%s per cell\n", "state planes:",
           gg_gen_planes(r->states), gg_gen_planes(r->states) > 1 ? "s" : "");
    char names[256];
    gg_backend_generations_names(", ", names, sizeof names);
    printf("%-15s %s (the two-state rule's network + a per-cell stage)\n",
           "backends:", names);
}

#include "rank_stepper.h"

#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "ranks.h"

enum { TAG_FROM_BELOW = 1, TAG_FROM_ABOVE = 2 };

int gg_rank_stepper_init(gg_rank_stepper *r, const gg_stepper *inner,
                         MPI_Comm comm, int64_t rows, gg_err *err)
{
    memset(r, 0, sizeof *r);
    r->inner = inner;
    r->comm = comm;
    MPI_Comm_rank(comm, &r->rank);
    MPI_Comm_size(comm, &r->size);
    /* Each rank may run another backend (auto on unlike machines): the
     * smallest bound is the one every rank can keep. */
    int64_t batch = inner->max_batch > 0 && inner->max_batch < 64
                        ? inner->max_batch
                        : 64;
    /* T rows of halo on each side cost 2T/rows more work per pass: an
     * eighth keeps that within a quarter, while the exchange, one per T
     * generations, stays small beside them. */
    int64_t t = rows / 8 < 1 ? 1 : rows / 8;
    int64_t mine[2] = {batch, t < batch ? t : batch}, all[2];
    if (MPI_Allreduce(mine, all, 2, MPI_INT64_T, MPI_MIN, comm) !=
        MPI_SUCCESS)
        return gg_fail(err, "MPI_Allreduce failed while the ranks agreed on "
                       "the halo depth; see MPI's message");
    r->max_batch = all[0];
    r->t = all[1];
    snprintf(r->name, sizeof r->name, "%s on %d MPI rank%s", inner->name,
             r->size, r->size > 1 ? "s" : "");
    return 0;
}

/* A caller that gave the ranks different batches would pair one rank's
 * halo exchange with another's next call: say so instead of hanging. */
static int same_gens(gg_rank_stepper *r, int64_t gens, gg_err *err)
{
    int64_t mine[2] = {gens, -gens}, all[2];
    if (MPI_Allreduce(mine, all, 2, MPI_INT64_T, MPI_MAX, r->comm) !=
        MPI_SUCCESS)
        return gg_fail(err, "MPI_Allreduce failed; see MPI's message");
    if (all[0] != gens || -all[1] != gens)
        return gg_fail(err, "the MPI ranks were asked for %lld to %lld "
                       "generations in one step; every rank must step "
                       "alike (a bug in the caller)", (long long)-all[1],
                       (long long)all[0]);
    return 0;
}

/* The band with t rows from each neighbour around it in r->ext: above
 * from the rank above, below from the rank below (on the torus the
 * first and last ranks are neighbours; on the plane there is nothing
 * past the first and last rows). */
static int with_halos(gg_rank_stepper *r, gg_topo topo, const gg_grid *g,
                      int64_t t, MPI_Datatype row, int64_t *above,
                      gg_err *err)
{
    bool torus = topo == GG_TOPO_TORUS;
    int up = r->rank - 1, down = r->rank + 1;
    if (torus) {
        up = (up + r->size) % r->size;
        down %= r->size;
    } else {
        up = up < 0 ? MPI_PROC_NULL : up;
        down = down >= r->size ? MPI_PROC_NULL : down;
    }
    *above = up != MPI_PROC_NULL ? t : 0;
    int64_t below = down != MPI_PROC_NULL ? t : 0;
    int64_t h = *above + g->height + below;
    /* the height changes on every rank at once (with t): agree on the
     * allocation before anyone waits for a halo */
    if (r->ext.height != h) {
        gg_grid_free(&r->ext);
        int bad = gg_grid_init(&r->ext, g->width, h, err);
        if (gg_ranks_agree(r->comm, bad, err))
            return -1;
    }
    size_t row_bytes = (size_t)g->stride * sizeof(uint64_t);
    memcpy(gg_grid_row(&r->ext, *above), g->bits,
           (size_t)g->height * row_bytes);
    /* my top rows are the halo below the rank above, and so on */
    if (MPI_Sendrecv(gg_grid_row(g, 0), (int)t, row, up, TAG_FROM_BELOW,
                     gg_grid_row(&r->ext, *above + g->height), (int)below,
                     row, down, TAG_FROM_BELOW, r->comm,
                     MPI_STATUS_IGNORE) != MPI_SUCCESS ||
        MPI_Sendrecv(gg_grid_row(g, g->height - t), (int)t, row, down,
                     TAG_FROM_ABOVE, r->ext.bits, (int)*above, row, up,
                     TAG_FROM_ABOVE, r->comm, MPI_STATUS_IGNORE) !=
            MPI_SUCCESS)
        return gg_fail(err, "MPI_Sendrecv of the halo rows failed; see "
                       "MPI's message");
    return 0;
}

/* One pass: exchange, t generations on the inner stepper, and the clean
 * interior back into g. Wrong cells creep in from the cut edges of the
 * extended band one row per generation, so after t generations only the
 * halos are wrong. */
static int pass(gg_rank_stepper *r, const gg_rule *rule, gg_topo topo,
                gg_grid *g, int64_t t, MPI_Datatype row, gg_err *err)
{
    int64_t above;
    if (with_halos(r, topo, g, t, row, &above, err))
        return -1;
    int bad = r->inner->step(r->inner->ctx, rule, topo, &r->ext, t, err);
    if (gg_ranks_agree(r->comm, bad, err))
        return -1;
    memcpy(g->bits, gg_grid_row(&r->ext, above),
           (size_t)g->height * (size_t)g->stride * sizeof(uint64_t));
    r->passes++;
    return 0;
}

static int rank_step(void *ctx, const gg_rule *rule, gg_topo topo,
                     gg_grid *grid, int64_t gens, gg_err *err)
{
    gg_rank_stepper *r = ctx;
    if (same_gens(r, gens, err))
        return -1;
    if (r->size == 1) /* its own neighbour: the inner stepper wraps */
        return r->inner->step(r->inner->ctx, rule, topo, grid, gens, err);
    MPI_Datatype row;
    /* the same width on every rank: all fail here or none */
    if (gg_ranks_row_type(grid->stride, &row, err))
        return -1;
    int bad = 0;
    for (int64_t t; gens > 0 && !bad; gens -= t) {
        t = gens < r->t ? gens : r->t;
        bad = pass(r, rule, topo, grid, t, row, err);
    }
    MPI_Type_free(&row);
    return bad;
}

gg_stepper gg_rank_stepper_view(gg_rank_stepper *r)
{
    /* min_batch = max_batch: every call the same size, whatever each
     * rank's clock says (gg_batch halves a call over a second and doubles
     * one under a quarter, so a loaded or slower rank would ask other
     * generations than the rest: seen as a failed mpi_ranks test under
     * load) */
    gg_stepper s = {.name = r->name, .step = rank_step, .ctx = r,
                    .max_batch = r->max_batch, .min_batch = r->max_batch};
    return s;
}

void gg_rank_stepper_free(gg_rank_stepper *r)
{
    gg_grid_free(&r->ext);
}

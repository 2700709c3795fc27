#include "rank_universe.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "ranks.h"

/* What rank 0 tells the others before the rows (the same binary runs on
 * every rank, so the struct goes as bytes). */
typedef struct shape {
    int64_t width, height, x0, y0, generation;
    int bounded;
    char rule[256];
} shape;

/* The cut the collectives take: rows per rank and where each starts, in
 * rows (rank 0 alone needs them; the arrays are freed by the caller). */
static int cut(int64_t height, int size, int **counts, int **starts,
               gg_err *err)
{
    *counts = gg_alloc((size_t)size, sizeof **counts, err, "row counts");
    *starts = *counts ? gg_alloc((size_t)size, sizeof **starts, err,
                                 "row starts")
                      : NULL;
    if (!*starts)
        return -1;
    for (int r = 0; r < size; r++) {
        (*starts)[r] = (int)gg_ranks_first_row(height, size, r);
        (*counts)[r] = (int)gg_ranks_first_row(height, size, r + 1) -
                       (*starts)[r];
    }
    return 0;
}

/* The same answer on every rank: s is the same everywhere. */
static int check(const shape *s, int size, gg_err *err)
{
    if (!s->bounded)
        return gg_fail(err, "the unbounded plane cannot be cut over %d MPI "
                       "ranks (its grid grows with the pattern): give the "
                       "rule a bounded grid, e.g. %s:T4096,4096 or :P4096,"
                       "4096, or run one process", size, s->rule);
    if (s->height > INT_MAX)
        return gg_fail(err, "the grid has %lld rows, more than MPI counts "
                       "(%d)", (long long)s->height, INT_MAX);
    int64_t most = s->height / 3;
    if (most < size)
        return gg_fail(err, "%d MPI ranks need at least 3 rows each, and "
                       "the grid has %lld rows: run at most %lld rank%s "
                       "(mpirun -np %lld) or use a taller grid", size,
                       (long long)s->height, (long long)most,
                       most == 1 ? "" : "s", (long long)most);
    return 0;
}

int gg_rank_scatter(gg_universe *u, MPI_Comm comm, gg_err *err)
{
    int rank, size;
    MPI_Comm_rank(comm, &rank);
    MPI_Comm_size(comm, &size);
    shape s;
    memset(&s, 0, sizeof s);
    if (rank == 0) {
        s = (shape){u->grid.width, u->grid.height, u->x0, u->y0,
                    u->generation, gg_rule_is_bounded(&u->rule), ""};
        gg_rule_format(&u->rule, s.rule, sizeof s.rule);
    }
    if (MPI_Bcast(&s, (int)sizeof s, MPI_BYTE, 0, comm) != MPI_SUCCESS)
        return gg_fail(err, "MPI_Bcast of the universe's size failed");
    gg_universe band;
    memset(&band, 0, sizeof band);
    int64_t first = gg_ranks_first_row(s.height, size, rank);
    int *counts = NULL, *starts = NULL;
    int bad = check(&s, size, err);
    if (!bad && rank == 0)
        bad = cut(s.height, size, &counts, &starts, err);
    if (!bad && rank == 0)
        band.rule = u->rule;
    else if (!bad) /* the text rank 0 wrote is the rule (the store's way) */
        bad = gg_rule_parse(s.rule, &band.rule, err);
    if (!bad)
        bad = gg_grid_init(&band.grid, s.width,
                           gg_ranks_first_row(s.height, size, rank + 1) -
                               first,
                           err);
    MPI_Datatype row = MPI_DATATYPE_NULL;
    if (!bad)
        bad = gg_ranks_row_type(band.grid.stride, &row, err);
    if (gg_ranks_agree(comm, bad, err)) {
        if (row != MPI_DATATYPE_NULL)
            MPI_Type_free(&row);
        free(counts);
        free(starts);
        gg_grid_free(&band.grid);
        if (rank == 0)
            gg_universe_free(u);
        return -1;
    }
    bad = MPI_Scatterv(rank == 0 ? u->grid.bits : NULL, counts, starts, row,
                       band.grid.bits, (int)band.grid.height, row, 0,
                       comm) != MPI_SUCCESS;
    MPI_Type_free(&row);
    free(counts);
    free(starts);
    if (rank == 0)
        gg_universe_free(u);
    band.x0 = s.x0;
    band.y0 = s.y0 + first;
    band.generation = s.generation;
    *u = band;
    if (bad) {
        gg_universe_free(u);
        return gg_fail(err, "MPI_Scatterv of the grid's rows failed");
    }
    return 0;
}

int gg_rank_gather(const gg_universe *band, gg_universe *whole,
                   MPI_Comm comm, gg_err *err)
{
    int rank, size;
    MPI_Comm_rank(comm, &rank);
    MPI_Comm_size(comm, &size);
    memset(whole, 0, sizeof *whole);
    int *counts = NULL, *starts = NULL;
    MPI_Datatype row = MPI_DATATYPE_NULL;
    int bad = gg_ranks_row_type(band->grid.stride, &row, err);
    if (!bad && rank == 0) { /* rank 0's band starts the grid */
        whole->rule = band->rule;
        whole->x0 = band->x0;
        whole->y0 = band->y0;
        whole->generation = band->generation;
        bad = cut(band->rule.height, size, &counts, &starts, err) ||
              gg_grid_init(&whole->grid, band->grid.width, band->rule.height,
                           err);
    }
    if (gg_ranks_agree(comm, bad, err)) {
        if (row != MPI_DATATYPE_NULL)
            MPI_Type_free(&row);
        free(counts);
        free(starts);
        gg_universe_free(whole);
        return -1;
    }
    bad = MPI_Gatherv(band->grid.bits, (int)band->grid.height, row,
                      whole->grid.bits, counts, starts, row, 0, comm) !=
          MPI_SUCCESS;
    MPI_Type_free(&row);
    free(counts);
    free(starts);
    if (bad) {
        gg_universe_free(whole);
        return gg_fail(err, "MPI_Gatherv of the grid's rows failed");
    }
    return 0;
}

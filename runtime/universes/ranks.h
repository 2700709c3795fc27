/* What the MPI pieces of a universe run share (issue 17 part 3; built only
 * when meson finds MPI): who owns which rows, rows as an MPI datatype, and
 * agreement on failure.
 *
 * Every function here is collective over comm: all ranks call it in the
 * same order, or the job hangs. So a failure on one rank is never just
 * returned: gg_ranks_agree makes every rank fail at the same point, and
 * only one of them says why. */
#ifndef GG_RANKS_H
#define GG_RANKS_H

#include <mpi.h>
#include <stdint.h>

#include "error.h"

/* The first row rank owns of `height` rows over `size` ranks: as even a
 * cut as there is (rank r owns first(r) .. first(r + 1) - 1). */
static inline int64_t gg_ranks_first_row(int64_t height, int size, int rank)
{
    return height * rank / size;
}

/* -1 on every rank when `bad` on any (0 when on none). The lowest failing
 * rank keeps its message (prefixed "rank R of N: " unless it is rank 0);
 * rank 0, when it did not fail itself, says which rank did; every other
 * rank's message is empty: said elsewhere, not to be printed again. */
int gg_ranks_agree(MPI_Comm comm, int bad, gg_err *err);

/* One row of `stride` words as an MPI datatype (committed; free it with
 * MPI_Type_free): counts are then rows, which stay far below INT_MAX where
 * words would not (a 2^31-wide row is 2^25 words). */
int gg_ranks_row_type(int64_t stride, MPI_Datatype *type, gg_err *err);

#endif

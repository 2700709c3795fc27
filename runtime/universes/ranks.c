#include "ranks.h"

#include <stdio.h>

int gg_ranks_agree(MPI_Comm comm, int bad, gg_err *err)
{
    int rank, size;
    MPI_Comm_rank(comm, &rank);
    MPI_Comm_size(comm, &size);
    /* MAXLOC: any failure wins, and of the failing ranks the lowest */
    struct { int bad, rank; } mine = {bad ? 1 : 0, rank}, worst;
    if (MPI_Allreduce(&mine, &worst, 1, MPI_2INT, MPI_MAXLOC, comm) !=
        MPI_SUCCESS)
        return gg_fail(err, "MPI_Allreduce failed while the ranks agreed on "
                       "an error; see MPI's message");
    if (!worst.bad)
        return 0;
    if (worst.rank == rank && rank > 0) {
        gg_err own = *err;
        return gg_fail(err, "rank %d of %d: %s", rank, size, own.msg);
    }
    if (worst.rank == rank)
        return -1;
    if (rank == 0)
        return gg_fail(err, "rank %d of %d failed (its message is above); "
                       "every rank stopped with it", worst.rank, size);
    err->msg[0] = '\0';
    return -1;
}

int gg_ranks_row_type(int64_t stride, MPI_Datatype *type, gg_err *err)
{
    if (stride < 1 || stride > INT32_MAX)
        return gg_fail(err, "rows of %lld words are more than MPI can count "
                       "in one datatype", (long long)stride);
    if (MPI_Type_contiguous((int)stride, MPI_UINT64_T, type) != MPI_SUCCESS ||
        MPI_Type_commit(type) != MPI_SUCCESS)
        return gg_fail(err, "MPI could not make a datatype of one %lld-word "
                       "row; see MPI's message", (long long)stride);
    return 0;
}

#include "team_mpi.h"

#include <stdlib.h>
#include <string.h>

#include "ranks.h"

/* Found messages of round r carry tag TAG0 + r % 2: a rank can be at
 * most one round ahead of another (a merge is collective), and each
 * round's messages are all received in its own merge. */
#define TAG0 0x6767

static int tag_of(int round) { return TAG0 + round % 2; }

static bool team_poll(void *ctx, bool found_here)
{
    gg_team_mpi *t = ctx;
    int tag = tag_of(t->round), n = 0;
    if (found_here && !t->told) {
        static const int one = 1; /* the payload says nothing: the tag does */
        for (int r = 0; r < t->team.size; r++)
            if (r != t->team.rank)
                MPI_Isend(&one, 1, MPI_INT, r, tag, t->comm, &t->sends[n++]);
        t->told = true;
    }
    if (!t->heard) {
        int flag = 0;
        MPI_Iprobe(MPI_ANY_SOURCE, tag, t->comm, &flag, MPI_STATUS_IGNORE);
        t->heard = flag != 0;
    }
    return t->heard;
}

/* Receives every found message sent to this rank in this round (the
 * senders counted by the merge) and completes this rank's own sends. */
static void drain(gg_team_mpi *t, int senders)
{
    int tag = tag_of(t->round), mine = t->told;
    for (int i = 0; i < senders - mine; i++) {
        int v;
        MPI_Recv(&v, 1, MPI_INT, MPI_ANY_SOURCE, tag, t->comm,
                 MPI_STATUS_IGNORE);
    }
    if (t->told)
        MPI_Waitall(t->team.size - 1, t->sends, MPI_STATUSES_IGNORE);
    t->told = t->heard = false;
    t->round++;
}

static int cmp_int(const void *a, const void *b)
{
    int x = *(const int *)a, y = *(const int *)b;
    return (x > y) - (x < y);
}

/* Every rank's open problems, ascending, in place of this rank's. */
static int join_open(gg_team_mpi *t, gg_team_outcome *o, gg_err *err)
{
    int size = t->team.size, total = 0, bad;
    int *counts = calloc((size_t)size, sizeof *counts);
    int *displs = calloc((size_t)size, sizeof *displs);
    bad = !counts || !displs;
    if (!bad) {
        MPI_Allgather(&o->n_open, 1, MPI_INT, counts, 1, MPI_INT, t->comm);
        for (int r = 0; r < size; r++)
            displs[r] = total, total += counts[r];
    }
    int *all = bad ? NULL : malloc(((size_t)total + 1) * sizeof *all);
    bad = !all;
    if (bad)
        gg_fail(err, "out of memory merging the ranks' open shapes");
    if (gg_ranks_agree(t->comm, bad, err)) {
        free(counts);
        free(displs);
        free(all);
        return -1;
    }
    MPI_Allgatherv(o->open, o->n_open, MPI_INT, all, counts, displs, MPI_INT,
                   t->comm);
    qsort(all, (size_t)total, sizeof *all, cmp_int);
    free(o->open);
    o->open = all;
    o->n_open = total;
    free(counts);
    free(displs);
    return 0;
}

static int team_merge(void *ctx, gg_team_outcome *o, gg_err *err)
{
    gg_team_mpi *t = ctx;
    int in[4] = {o->failed, o->found, o->undecided, t->told}, sum[4];
    MPI_Allreduce(in, sum, 4, MPI_INT, MPI_SUM, t->comm);
    drain(t, sum[3]);
    if (gg_ranks_agree(t->comm, o->failed, err))
        return -1;
    if (sum[1]) { /* the lowest finding rank's network */
        int me = o->found ? t->team.rank : t->team.size, root;
        MPI_Allreduce(&me, &root, 1, MPI_INT, MPI_MIN, t->comm);
        MPI_Bcast(&o->net, (int)sizeof o->net, MPI_BYTE, root, t->comm);
    }
    o->found = sum[1] > 0;
    o->undecided = sum[2] > 0;
    uint64_t w[2] = {o->conflicts, o->work}, ws[2];
    MPI_Allreduce(w, ws, 2, MPI_UINT64_T, MPI_SUM, t->comm);
    o->conflicts = ws[0];
    o->work = ws[1];
    int done = o->done;
    MPI_Allreduce(&done, &o->done, 1, MPI_INT, MPI_SUM, t->comm);
    return join_open(t, o, err);
}

static bool team_any(void *ctx, bool mine)
{
    gg_team_mpi *t = ctx;
    int in = mine, out = 0;
    MPI_Allreduce(&in, &out, 1, MPI_INT, MPI_LOR, t->comm);
    return out != 0;
}

int gg_team_mpi_init(gg_team_mpi *t, MPI_Comm comm, gg_err *err)
{
    memset(t, 0, sizeof *t);
    t->comm = comm;
    MPI_Comm_rank(comm, &t->team.rank);
    MPI_Comm_size(comm, &t->team.size);
    t->sends = calloc((size_t)t->team.size, sizeof *t->sends);
    if (!t->sends)
        gg_fail(err, "out of memory starting the search team");
    if (gg_ranks_agree(comm, !t->sends, err)) {
        free(t->sends);
        t->sends = NULL;
        return -1;
    }
    t->team.ctx = t;
    t->team.poll = team_poll;
    t->team.merge = team_merge;
    t->team.any = team_any;
    return 0;
}

void gg_team_mpi_free(gg_team_mpi *t)
{
    free(t->sends);
    t->sends = NULL;
}

#include "team_mpi.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "ranks.h"

/* Messages of round r carry tag KIND + r % 2: a rank can be at most one
 * round ahead of another (a merge is collective), and each round's
 * messages are all received within that round. */
#define TAG_FOUND 0x6760 /* a network found: no reply */
#define TAG_ASK 0x6762   /* to rank 0: how many problems (0: no more) */
#define TAG_ANSWER 0x6764 /* from rank 0: count (-1: none left), numbers */

static int tag_for(int kind, int round) { return kind + round % 2; }

static bool team_poll(void *ctx, bool found_here)
{
    gg_team_mpi *t = ctx;
    int tag = tag_for(TAG_FOUND, t->round), n = 0;
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
    int tag = tag_for(TAG_FOUND, t->round), mine = t->told;
    for (int i = 0; i < senders - mine; i++) {
        int v;
        MPI_Recv(&v, 1, MPI_INT, MPI_ANY_SOURCE, tag, t->comm,
                 MPI_STATUS_IGNORE);
    }
    if (t->told)
        MPI_Waitall(t->team.size - 1, t->sends, MPI_STATUSES_IGNORE);
    t->told = t->heard = false;
    t->next = t->released = 0;
    memset(t->gone, 0, (size_t)t->team.size * sizeof *t->gone);
    memset(t->done_by, 0, (size_t)t->team.size * sizeof *t->done_by);
    t->asking = t->exhausted = false;
    t->round++;
}

/* Rank 0: up to want problems from the counter into out (-1: none left
 * or, after rank 0 released, none handed out any more). */
static int hand_out(gg_team_mpi *t, int n, int want, int *out)
{
    if (t->next >= n || t->gone[0])
        return -1;
    int k = 0;
    while (k < want && t->next < n)
        out[k++] = t->next++;
    return k;
}

/* Rank 0: answers every claim that has arrived. */
static void serve(gg_team_mpi *t, int n)
{
    int tg = tag_for(TAG_ASK, t->round);
    for (;;) {
        int flag = 0;
        uint64_t msg[2];
        MPI_Status st;
        MPI_Iprobe(MPI_ANY_SOURCE, tg, t->comm, &flag, &st);
        if (!flag)
            return;
        MPI_Recv(msg, 2, MPI_UINT64_T, st.MPI_SOURCE, tg, t->comm,
                 MPI_STATUS_IGNORE);
        int want = (int)msg[0];
        if (want == 0) { /* that rank claims no more */
            t->gone[st.MPI_SOURCE] = true;
            t->released++;
            continue;
        }
        t->done_by[st.MPI_SOURCE] = msg[1];
        int reply[GG_TEAM_CLAIM_MAX + 1];
        if (want > GG_TEAM_CLAIM_MAX)
            want = GG_TEAM_CLAIM_MAX;
        reply[0] = hand_out(t, n, want, reply + 1);
        if (reply[0] < 0 && !t->gone[st.MPI_SOURCE]) {
            t->gone[st.MPI_SOURCE] = true; /* it asks no more */
            t->released++;
        }
        MPI_Send(reply, reply[0] > 0 ? reply[0] + 1 : 1, MPI_INT,
                 st.MPI_SOURCE, tag_for(TAG_ANSWER, t->round), t->comm);
    }
}

/* A rank but 0: the answer to its claim, if it has come (-2: not yet). */
static int take_answer(gg_team_mpi *t, int *out, bool wait)
{
    int flag = 1;
    if (wait)
        MPI_Wait(&t->answer_req, MPI_STATUS_IGNORE);
    else
        MPI_Test(&t->answer_req, &flag, MPI_STATUS_IGNORE);
    if (!flag)
        return -2;
    MPI_Wait(&t->ask_req, MPI_STATUS_IGNORE);
    t->asking = false;
    int k = t->answer[0];
    if (k < 0) {
        t->exhausted = true;
        return -1;
    }
    memcpy(out, t->answer + 1, (size_t)k * sizeof *out);
    return k;
}

static int team_claim(void *ctx, int n, int want, uint64_t done, int *out)
{
    gg_team_mpi *t = ctx;
    if (t->team.rank == 0) {
        t->done_by[0] = done;
        serve(t, n);
        return hand_out(t, n, want, out);
    }
    if (t->exhausted)
        return -1;
    if (t->asking)
        return take_answer(t, out, false) == -2 ? 0 : t->answer[0];
    if (want <= 0)
        return 0;
    t->ask[0] = (uint64_t)want;
    t->ask[1] = done;
    t->asking = true;
    MPI_Irecv(t->answer, GG_TEAM_CLAIM_MAX + 1, MPI_INT, 0,
              tag_for(TAG_ANSWER, t->round), t->comm, &t->answer_req);
    MPI_Isend(t->ask, 2, MPI_UINT64_T, 0, tag_for(TAG_ASK, t->round),
              t->comm, &t->ask_req);
    return 0;
}

static void team_release(void *ctx, int *late, int *n_late, int *unclaimed)
{
    gg_team_mpi *t = ctx;
    *n_late = 0;
    if (t->team.rank == 0) {
        t->gone[0] = true; /* from now on every claim is told none left */
        t->released++;
        /* the others may still ask: answer until all have released */
        while (t->released < t->team.size) {
            serve(t, 0);
            nanosleep(&(struct timespec){0, 200000}, NULL);
        }
        *unclaimed = t->next;
        return;
    }
    *unclaimed = INT_MAX;
    if (t->asking) {
        int k = take_answer(t, late, true);
        *n_late = k > 0 ? k : 0;
    }
    if (!t->exhausted) {
        uint64_t bye[2] = {0, 0};
        MPI_Send(bye, 2, MPI_UINT64_T, 0, tag_for(TAG_ASK, t->round),
                 t->comm);
    }
}

static int team_handed(void *ctx)
{
    const gg_team_mpi *t = ctx;
    return t->team.rank == 0 ? t->next : -1;
}

static uint64_t team_done_work(void *ctx)
{
    const gg_team_mpi *t = ctx;
    uint64_t sum = 0;
    for (int r = 0; t->team.rank == 0 && r < t->team.size; r++)
        sum += t->done_by[r];
    return sum;
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
    t->gone = calloc((size_t)t->team.size, sizeof *t->gone);
    t->done_by = calloc((size_t)t->team.size, sizeof *t->done_by);
    bool bad = !t->sends || !t->gone || !t->done_by;
    if (bad)
        gg_fail(err, "out of memory starting the search team");
    if (gg_ranks_agree(comm, bad, err)) {
        gg_team_mpi_free(t);
        return -1;
    }
    t->team.ctx = t;
    t->team.poll = team_poll;
    t->team.claim = team_claim;
    t->team.release = team_release;
    t->team.handed = team_handed;
    t->team.done_work = team_done_work;
    t->team.merge = team_merge;
    t->team.any = team_any;
    return 0;
}

void gg_team_mpi_free(gg_team_mpi *t)
{
    free(t->sends);
    free(t->gone);
    free(t->done_by);
    t->sends = NULL;
    t->gone = NULL;
    t->done_by = NULL;
}

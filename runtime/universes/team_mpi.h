/* A search team over MPI ranks (sat/exact/team.h): `mpirun golgen synth`
 * splits each k's network shapes over the ranks of a communicator, on one
 * machine or many. Built only when meson finds MPI. */
#ifndef GG_TEAM_MPI_H
#define GG_TEAM_MPI_H

#include <mpi.h>

#include "team.h"

typedef struct gg_team_mpi {
    gg_team team;       /* what the search calls; ctx points here */
    MPI_Comm comm;
    int round;          /* k searches merged so far */
    bool told, heard;   /* this round's found message sent / seen */
    MPI_Request *sends; /* this round's found messages, size - 1 */
    /* claims: rank 0 hands out problems `next` on; the others ask it */
    int next;           /* rank 0: the first problem not handed out */
    int released;       /* rank 0: members done claiming this round */
    bool *gone;         /* rank 0: which ones */
    bool asking;        /* a claim on its way */
    bool exhausted;     /* told none is left */
    uint64_t ask[2];    /* the claim's message: how many (0: done), and
                           the usual cost finished (gg_team.claim) */
    uint64_t *done_by;  /* rank 0: each member's last reported cost */
    int answer[GG_TEAM_CLAIM_MAX + 1]; /* count (-1: none left), numbers */
    MPI_Request ask_req, answer_req;
} gg_team_mpi;

/* Every rank of comm calls it (collective). -1 on out of memory. */
int gg_team_mpi_init(gg_team_mpi *t, MPI_Comm comm, gg_err *err);
void gg_team_mpi_free(gg_team_mpi *t);

#endif

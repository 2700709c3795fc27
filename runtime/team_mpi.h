/* A search team over MPI ranks (sat/team.h): `mpirun golgen synth`
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
    int round_tag;      /* the tag they carry */
} gg_team_mpi;

/* Every rank of comm calls it (collective). -1 on out of memory. */
int gg_team_mpi_init(gg_team_mpi *t, MPI_Comm comm, gg_err *err);
void gg_team_mpi_free(gg_team_mpi *t);

#endif

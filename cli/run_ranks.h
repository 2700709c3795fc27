/* golgen run over MPI ranks (issue 17 part 3):
 *
 *   mpirun -np 4 golgen run --rule 'B3/S23:T65536,65536' --gens 10000 \
 *       --backend cpu -o out.rle soup.rle
 *
 * Rank 0 reads the input and scatters bands of rows; every rank runs its
 * band on its own backend (runtime/universes/rank_stepper.h: halos exchanged through
 * MPI every T generations); the result is gathered on rank 0, which writes
 * -o, --store and --png and alone prints progress and the summary.
 *
 * cmd_run.c calls these at the points where ranks differ from one
 * process. Each is collective (all ranks call it, in the same order) and
 * agrees on failure, so every rank stops together with one message
 * (an empty gg_err message: another rank said it). In one process (a
 * build without MPI, no launcher, or mpirun -np 1) each is what one
 * process does, so cmd_run.c has a single path. */
#ifndef GG_RUN_RANKS_H
#define GG_RUN_RANKS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "backend.h"
#include "cli_rank.h"
#include "config.h"
#include "universe.h"

/* (cli_rank.h: gg_cli_ranked, gg_cmd_run_ranked, gg_cli_mpi_version) */

/* -1 (on every rank, err set on rank 0) when running as several ranks:
 * `what` runs in one process only. */
int gg_cli_ranks_refuse(const char *what, gg_err *err);

/* Rank 0 loaded the universe (bad: it failed); on 0 every rank's u holds
 * its band of it (runtime/universes/rank_universe.h). One process: bad. */
int gg_cli_ranks_scatter(int bad, gg_universe *u, gg_err *err);

/* gg_cli_open_backend on every rank, only rank 0 announcing auto's
 * choice; fails on all (each closing its backend) when it fails on any,
 * *status the worst. */
int gg_cli_ranks_open_backend(const gg_backend_info *backend,
                              const gg_rule *rule, const gg_backend_opts *o,
                              gg_backend **out, int *status, gg_err *err);

/* The stepper the universe runs on: `local` with halos from the other
 * ranks (rows: this rank's), or local itself in one process. Free with
 * gg_cli_ranks_stepper_free before local goes. */
int gg_cli_ranks_stepper(const gg_stepper *local, int64_t rows,
                         gg_stepper *out, gg_err *err);
void gg_cli_ranks_stepper_free(void);

/* A stop signal on any rank (then raised on all): the one stop check of
 * a ranked run, as ranks must stop after the same batch. */
bool gg_cli_ranks_stopped(void);

/* gg_run_progress_cb (showing on rank 0 only: pass show there alone)
 * that stops every rank together. */
bool gg_cli_ranks_progress(void *ctx, int64_t done, int64_t total);

/* gg_store_write of the whole universe: the bands gathered to rank 0,
 * which writes. */
int gg_cli_ranks_store_write(const char *path, const gg_universe *u,
                             gg_err *err);

/* The bands gathered: on rank 0 u becomes the whole universe; the
 * others keep their band. One process: nothing to do. */
int gg_cli_ranks_gather(gg_universe *u, gg_err *err);

#endif

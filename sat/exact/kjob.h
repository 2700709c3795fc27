/* One step of the search: is there a network of exactly k gates? The
 * shapes of k gates (or one free-topology CNF) are handed out to worker
 * threads with one solver each; the first network found stops the rest.
 * With a team (sat/exact/team.h) this process claims problems from rank 0 as
 * its threads get free, and the members' outcomes are merged at the end.
 * A sample of the shapes (gg_synth_sample) never counts as a proof: the k
 * is reported undecided unless it finds a network. */
#ifndef GG_SAT_KJOB_H
#define GG_SAT_KJOB_H

#include <stdio.h>

#include "synth.h"
#include "team.h"

typedef struct gg_kjob_in {
    const gg_tt *f;
    gg_lib lib;
    int k;
    const int *class_of;  /* symmetry classes or NULL */
    gg_enc_limits lim;    /* gg_enc_spec.lim */
    int min_pi_slots;     /* essential inputs: fewer slots cannot work */
    bool use_shapes;
    int threads;
    int init_rows;
    double deadline;      /* gg_kjob_now() value; <= 0: none */
    double problem_limit; /* seconds per shape; <= 0: none */
    uint64_t work_limit;  /* > 0: stop once the work (gg_synth_k.work) reaches
                             it; deterministic only with one thread */
    gg_sat_kind solver;   /* GG_SAT_AUTO: CaDiCaL for shapes when the
                             build has it and no work_limit (conflict
                             budgets stay CryptoMiniSat's, so that they
                             give the same answer on every machine), else
                             CryptoMiniSat; GG_SAT_CADICAL without it:
                             CryptoMiniSat */
    bool plain_cnf;       /* no difference clauses and no automorphism
                             ordering (gg_enc_spec.diff, .automorphisms),
                             which shapes get otherwise (work-bounded
                             searches too since session 21: the same
                             work then settles more shapes) */
    const int *subset;    /* only these shapes (indices), or NULL: all */
    int n_subset;
    gg_synth_sample sample;
    volatile sig_atomic_t *cancel;
    bool progress;
    const gg_team *team;  /* processes searching together (sat/exact/team.h):
                             this one claims problems from rank 0 and
                             every member returns the merged outcome;
                             NULL: this process alone */
} gg_kjob_in;

/* Work charged for each problem started, on top of its conflicts: the
 * encoding and the solver's start-up cost about as much as this many. */
#define GG_KJOB_PROBLEM_WORK 20

/* Fills stat (status SAT: *net holds the verified network). When
 * undecided is not NULL it receives the malloc'd indices of the shapes left
 * undecided (out of time), *n_undecided their count. Returns -1 only on
 * errors (out of memory, no solver). */
int gg_kjob_run(const gg_kjob_in *in, gg_net *net, gg_synth_k *stat,
                int **undecided, int *n_undecided, gg_err *err);

/* "40 s", "3.5 min", "2.1 h": progress lines. */
void gg_kjob_print_seconds(FILE *out, double seconds);

/* Monotonic wall clock in seconds. */
double gg_kjob_now(void);

#endif

/* Exact synthesis: the fewest gates of a library that compute a truth
 * table on its care rows, with a proof when the search gets that far.
 *
 * k runs upward from a lower bound; for each k the search is split by
 * network shape (sat/exact/shape.h) and the shapes are shared among worker
 * threads, one solver each. The first k with a network is the minimum when
 * every smaller k was shown impossible (UNSAT). A k that runs out of time is
 * skipped (no proof for it) and the search goes on to k+1 for a network.
 * Above shape_max_k the search uses one free-topology CNF instead.
 *
 * With a shape time limit the search runs in two passes: the first gives
 * each shape a short budget and goes up in k until some shape yields a
 * network (good networks usually live in easy shapes); the second goes
 * back to the smallest k not yet excluded and runs its undecided shapes to
 * the end, raising the lower bound until it meets the network or time runs
 * out. */
#ifndef GG_SAT_SYNTH_H
#define GG_SAT_SYNTH_H

#include <signal.h>
#include <stdbool.h>
#include <stdint.h>

#include "encode.h"
#include "net.h"
#include "proof.h"
#include "team.h"

/* A sample of the shapes, for profiling and long searches (research/,
 * `golgen synth --shape-stride`, `--shapes`, `--trace`): a k that a sample
 * leaves without a network is reported undecided, never UNSAT. */
typedef struct gg_synth_sample {
    int stride;      /* > 1: every stride-th shape only */
    bool range;      /* shapes first..last only (e.g. the shape of a known
                        network of a related rule) */
    int first, last;
    bool trace;      /* each shape's outcome, conflicts and seconds on
                        stderr */
} gg_synth_sample;

typedef struct gg_synth_opts {
    gg_lib lib;
    int k_min;           /* first k to try; 0 = the lower bound */
    int k_max;           /* last k to try; 0 = below the best known */
    double time_limit;   /* wall seconds for everything; <= 0: none */
    double k_time_limit; /* wall seconds per k; <= 0: none */
    double shape_time_limit; /* > 0: first pass gives each shape this long,
                                then a second pass settles the rest */
    int threads;         /* worker threads; 0 = 2 */
    uint64_t work_limit; /* > 0: the search stops once its work (solver
                            conflicts, plus GG_KJOB_PROBLEM_WORK per shape
                            tried) reaches this, and runs on one thread and
                            in one pass, so its answer is the same on any
                            machine under any load (time limits then only
                            guard against the pathological) */
    int shape_max_k;     /* split by shape up to this k; 0 = 7 (lut3) / 9
                            (gate2 k=10 has 552,516 shapes, 21 s to list) */
    gg_synth_sample sample;
    gg_sat_kind solver;  /* gg_kjob_in.solver: GG_SAT_AUTO (0) = CaDiCaL
                            for shape proofs when built with it */
    bool plain_cnf;      /* gg_kjob_in.plain_cnf (cross-checks) */
    bool no_symmetry;    /* skip input-symmetry breaking (for testing) */
    gg_enc_limits lim;   /* gg_enc_spec.lim (not f2); forbid and swap
                            need no_symmetry, swap all rows up front
                            (init_rows) */
    int init_rows;       /* rows given before counterexamples; 0 = all of
                            a table of up to 128 rows (fewer conflicts than
                            counterexamples on Life's 96 care rows), else 64 */
    const gg_net *upper; /* a known correct network (e.g. the cache) or NULL */
    int known_lower;     /* every k below this is already known impossible
                            (the cache's lower bound), so an UNSAT at
                            k_min = known_lower raises the bound; 0: none */
    const gg_proof *resume; /* shapes of a k shown impossible by an earlier
                               run (the cache's record), or NULL: used
                               when the search starts at that k, the
                               shape list is the same (sat/exact/proof.h) and
                               no sample or limits are given */
    volatile sig_atomic_t *cancel; /* set to stop (Ctrl-C); may be NULL */
    bool progress;       /* per-k lines on stderr */
    const gg_team *team; /* processes searching together (sat/exact/team.h), each
                            calling gg_synth_run with the same f and
                            options; all return the same result. Not with
                            a work_limit (that search is one thread's).
                            NULL: this process alone */
} gg_synth_opts;

typedef enum gg_synth_status {
    GG_SYNTH_UNSAT,   /* no network of k gates */
    GG_SYNTH_SAT,     /* found one */
    GG_SYNTH_UNKNOWN, /* ran out of time or was cancelled */
} gg_synth_status;

typedef struct gg_synth_k {
    int k;
    gg_synth_status status;
    int shapes;          /* shapes tried (0: free topology) */
    int shapes_total;
    uint32_t shapes_hash; /* gg_proof_shapes_hash of the k's shape list */
    double seconds;
    uint64_t conflicts;
    uint64_t work;       /* conflicts + GG_KJOB_PROBLEM_WORK per shape */
} gg_synth_k;

#define GG_SYNTH_MAX_STEPS (2 * GG_ENC_MAX_GATES + 2)

typedef struct gg_synth_result {
    gg_net net;          /* verified on every care row */
    int gates;           /* gates of net */
    bool exact;          /* net came from the solver (not the fallback) */
    bool proven;         /* no network costs less (gg_synth_cost) */
    int lower_bound;     /* every k below this is impossible; for gate2
                            and a function that is 1 on the all-zero row,
                            k counts the and/or/xor/andnot gates before
                            the output NOT */
    bool cancelled;
    gg_proof proof;      /* what is proven of k = lower_bound when that k
                            is open (k 0: nothing); for the cache */
    int resumed;         /* shapes skipped as shown impossible before */
    double seconds;
    int n_k;
    gg_synth_k per_k[GG_SYNTH_MAX_STEPS]; /* in the order run */
} gg_synth_result;

/* Runs the search. Fails only on bad input or resource errors; a search cut
 * short still returns a correct network, with proven = false. */
int gg_synth_run(const gg_tt *f, const gg_synth_opts *o, gg_synth_result *res,
                 gg_err *err);

/* Gates a network costs in its library: gate2 pays one NOT for an inverted
 * output (lut3 folds it into the last LUT). Minimality for gate2 is over
 * networks of and/or/xor/andnot followed by at most that one NOT. */
int gg_synth_cost(const gg_net *n, gg_lib lib);

#endif

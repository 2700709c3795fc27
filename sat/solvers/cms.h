/* A small incremental SAT interface; only sat/solvers/cms.c knows the solver.
 *
 * Variables are numbered from 1 and literals are DIMACS style (+v true,
 * -v false), so encoders read like the papers they follow. Every solve
 * takes a budget and can be interrupted from another thread, because the
 * search runs one solver per worker and stops the others when one finds a
 * network. */
#ifndef GG_SAT_CMS_H
#define GG_SAT_CMS_H

#include <stdbool.h>
#include <stdint.h>

typedef struct gg_sat gg_sat;

typedef enum gg_sat_result {
    GG_SAT_UNKNOWN = 0, /* budget spent or interrupted */
    GG_SAT_SAT = 10,
    GG_SAT_UNSAT = 20,
} gg_sat_result;

/* Which solver: CryptoMiniSat (gg_sat_new, always there when any is), or
 * CaDiCaL when the build found libcadical-dev. GG_SAT_AUTO is for callers'
 * options: "CaDiCaL for shape proofs when there, else CryptoMiniSat"
 * (sat/exact/kjob.c decides); gg_sat_new_kind takes it as CryptoMiniSat. */
typedef enum gg_sat_kind {
    GG_SAT_AUTO = 0,
    GG_SAT_CMS,
    GG_SAT_CADICAL,
} gg_sat_kind;

/* A new solver (single-threaded: parallelism comes from the caller), or
 * NULL when the library was built without a solver. */
gg_sat *gg_sat_new(void);

/* The same of the given kind; NULL when this build lacks that solver. A
 * CaDiCaL solver counts learnt clauses as conflicts (one per conflict),
 * ignores gg_sat_set_threads and, once interrupted, answers unknown to
 * every later solve. */
gg_sat *gg_sat_new_kind(gg_sat_kind kind);
bool gg_sat_kind_available(gg_sat_kind kind);

/* The solver shape proofs prefer: CaDiCaL where this build has it, else
 * CryptoMiniSat (NULL without either). */
gg_sat *gg_sat_new_for_shapes(void);
void gg_sat_free(gg_sat *s);

/* Lets the solver itself run this many threads (CryptoMiniSat's portfolio
 * of differently configured solvers sharing learnt clauses). Only worth it
 * for a search with a single problem (free topology); call before adding
 * clauses. */
void gg_sat_set_threads(gg_sat *s, int threads);

/* A fresh variable number. */
int gg_sat_var(gg_sat *s);

/* Adds the clause lits[0] | ... | lits[n-1]. */
void gg_sat_clause(gg_sat *s, const int *lits, int n);

/* The later solves together stop after n more conflicts (0: no limit);
 * a solve with none left answers unknown. Unlike time, such a budget
 * gives the same answer on any machine under any load (with the same
 * solver version). */
void gg_sat_set_conflict_budget(gg_sat *s, uint64_t n);

/* Solves within max_seconds of CPU time (<= 0: no limit). */
gg_sat_result gg_sat_solve(gg_sat *s, double max_seconds);

/* The same under assumptions: lits[0..n-1] hold for this solve only, so
 * one solver can answer many related questions and keep what it learnt
 * (research/union_cnf.h). UNSAT means "not under
 * these assumptions". */
gg_sat_result gg_sat_solve_assuming(gg_sat *s, const int *lits, int n,
                                    double max_seconds);

/* Variable v will be assumed later: keeps the solver from eliminating it
 * (CaDiCaL; CryptoMiniSat handles that itself). */
void gg_sat_freeze(gg_sat *s, int v);

/* Value of variable v in the last model. */
bool gg_sat_value(const gg_sat *s, int v);

/* Asks a running solve to stop soon (safe from another thread). */
void gg_sat_interrupt(gg_sat *s);

/* Conflicts over all solves so far (0 when the solver cannot say). */
uint64_t gg_sat_conflicts(gg_sat *s);

/* Whether this build has a SAT solver at all (with the solver as a module,
 * sat_ops.h: whether it loaded). */
bool gg_sat_available(void);

/* Why there is none, as a sentence for an error (NULL when there is). */
const char *gg_sat_unavailable_why(void);

/* CryptoMiniSat's version string (runtime/base/solver_version.cpp). */
const char *gg_cms_version(void);

#endif

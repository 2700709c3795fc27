/* C entry points to CaDiCaL's C++ API (sat/solvers/cadical_shim.cpp), the second
 * solver behind gg_sat (sat/solvers/cms.h): only sat/solvers/cms.c calls them. */
#ifndef GG_SAT_CADICAL_SHIM_H
#define GG_SAT_CADICAL_SHIM_H

#include <stdbool.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct gg_cad gg_cad;

gg_cad *gg_cad_new(void);
void gg_cad_free(gg_cad *c);
void gg_cad_clause(gg_cad *c, const int *lits, int n);
/* 10 SAT, 20 UNSAT, 0 unknown (budget, CPU time or interrupt). budget:
 * conflicts this solve may use, 0 = no limit. */
int gg_cad_solve(gg_cad *c, double max_seconds, uint64_t budget);
bool gg_cad_value(gg_cad *c, int v);
void gg_cad_interrupt(gg_cad *c);
uint64_t gg_cad_conflicts(const gg_cad *c);
/* The next solve assumes lit (for that solve only). */
void gg_cad_assume(gg_cad *c, int lit);
/* Keeps v out of variable elimination: a variable the solver eliminated
 * and an assumption brings back costs its clauses' restoration on every
 * later solve. */
void gg_cad_freeze(gg_cad *c, int v);

#ifdef __cplusplus
}
#endif

#endif

/* C entry points to CryptoMiniSat's C++ API (sat/solvers/cms_shim.cpp). */
#ifndef GG_SAT_CMS_SHIM_H
#define GG_SAT_CMS_SHIM_H

#include <stdint.h>

#include <cryptominisat5/cryptominisat_c.h>

#ifdef __cplusplus
extern "C" {
#endif

void gg_cms_interrupt(SATSolver *s);
uint64_t gg_cms_conflicts(SATSolver *s);
void gg_cms_set_max_conflicts(SATSolver *s, uint64_t n);

#ifdef __cplusplus
}
#endif

#endif

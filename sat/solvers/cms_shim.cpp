/* The two CryptoMiniSat calls its C API lacks: an interrupt from another
 * thread and the conflict count. cryptominisat_c.h declares its SATSolver
 * as CMSat::SATSolver in C++, so the pointer cmsat_new() hands out is the
 * C++ solver and its methods can be called here, checked by the compiler
 * against the installed header. */
#include <cstdint>

#include <cryptominisat5/cryptominisat.h>

#include "cms_shim.h"

void gg_cms_interrupt(SATSolver *s)
{
    /* only sets an atomic flag: safe while another thread solves */
    s->interrupt_asap();
}

/* CryptoMiniSat 5.11 counts this limit from the next solve's start (a
 * pigeonhole test took 1002, 2005, 4008 conflicts in three solves when it
 * was given as conflicts so far + n). */
void gg_cms_set_max_conflicts(SATSolver *s, uint64_t n)
{
    s->set_max_confl(n);
}

uint64_t gg_cms_conflicts(SATSolver *s)
{
    return s->get_sum_conflicts();
}

/* CryptoMiniSat behind the gg_sat interface (sat/solvers/cms.h), and CaDiCaL
 * (sat/solvers/cadical_shim.cpp) when the build found it (GG_HAVE_CADICAL). */
#include "cms.h"

#include <stdlib.h>

#include "gg_config.h"

#ifndef GG_HAVE_CADICAL
#define GG_HAVE_CADICAL 0
#endif

#if GG_HAVE_SAT

#include <cryptominisat5/cryptominisat_c.h>

#include "cms_shim.h"
#if GG_HAVE_CADICAL
#include "cadical_shim.h"
#else
typedef struct gg_cad gg_cad;
#endif

struct gg_sat {
    gg_cad *cad;      /* CaDiCaL: every call goes there; else cms */
    SATSolver *cms;
    int n_vars;       /* variables handed out */
    int n_cms_vars;   /* variables the solver knows about */
    slice_lbool model;
    c_Lit *buf;       /* clause being converted */
    int buf_cap;
    bool budgeted;           /* gg_sat_set_conflict_budget was called */
    uint64_t budget_left;    /* conflicts the later solves may still use */
};

bool gg_sat_available(void) { return true; }
const char *gg_sat_unavailable_why(void) { return NULL; }

gg_sat *gg_sat_new(void)
{
    gg_sat *s = calloc(1, sizeof *s);
    if (!s)
        return NULL;
    s->cms = cmsat_new();
    cmsat_set_num_threads(s->cms, 1);
    cmsat_set_verbosity(s->cms, 0);
    return s;
}

bool gg_sat_kind_available(gg_sat_kind kind)
{
    return kind != GG_SAT_CADICAL || GG_HAVE_CADICAL;
}

gg_sat *gg_sat_new_kind(gg_sat_kind kind)
{
    if (kind != GG_SAT_CADICAL)
        return gg_sat_new();
#if GG_HAVE_CADICAL
    gg_sat *s = calloc(1, sizeof *s);
    if (!s)
        return NULL;
    s->cad = gg_cad_new();
    if (!s->cad) {
        free(s);
        return NULL;
    }
    return s;
#else
    return NULL;
#endif
}

void gg_sat_free(gg_sat *s)
{
    if (!s)
        return;
#if GG_HAVE_CADICAL
    if (s->cad) {
        gg_cad_free(s->cad);
        free(s);
        return;
    }
#endif
    cmsat_free(s->cms);
    free(s->buf);
    free(s);
}

/* CryptoMiniSat 5.11 aborts in setup_branch_strategy() with 16 threads
 * (measured: 16 fails within seconds, 8 ran clean), so at most 8. */
#define CMS_MAX_THREADS 8

void gg_sat_set_threads(gg_sat *s, int threads)
{
    if (s->cad)
        return; /* CaDiCaL solves on one thread */
    threads = threads < CMS_MAX_THREADS ? threads : CMS_MAX_THREADS;
    cmsat_set_num_threads(s->cms, threads > 1 ? (unsigned)threads : 1);
}

int gg_sat_var(gg_sat *s) { return ++s->n_vars; }

/* Variables are created in the solver in batches, when a clause needs them. */
static void sync_vars(gg_sat *s)
{
    if (s->n_vars > s->n_cms_vars) {
        cmsat_new_vars(s->cms, (size_t)(s->n_vars - s->n_cms_vars));
        s->n_cms_vars = s->n_vars;
    }
}

/* CryptoMiniSat's literals of a DIMACS clause, in s->buf. */
static void to_cms(gg_sat *s, const int *lits, int n)
{
    if (n > s->buf_cap) {
        c_Lit *b = realloc(s->buf, (size_t)n * sizeof *b);
        if (!b)
            abort(); /* out of memory while encoding: nothing to salvage */
        s->buf = b, s->buf_cap = n;
    }
    for (int i = 0; i < n; i++) {
        int v = abs(lits[i]) - 1;
        s->buf[i].x = (uint32_t)(2 * v + (lits[i] < 0));
    }
}

void gg_sat_clause(gg_sat *s, const int *lits, int n)
{
#if GG_HAVE_CADICAL
    if (s->cad) {
        gg_cad_clause(s->cad, lits, n);
        return;
    }
#endif
    sync_vars(s);
    to_cms(s, lits, n);
    cmsat_add_clause(s->cms, s->buf, (size_t)n);
}

#if GG_HAVE_CADICAL
static gg_sat_result cad_solve(gg_sat *s, const int *assume, int n_assume,
                               double max_seconds)
{
    if (s->budgeted && !s->budget_left)
        return GG_SAT_UNKNOWN;
    for (int i = 0; i < n_assume; i++)
        gg_cad_assume(s->cad, assume[i]);
    uint64_t before = gg_cad_conflicts(s->cad);
    int r = gg_cad_solve(s->cad, max_seconds,
                         s->budgeted ? s->budget_left : 0);
    if (s->budgeted) {
        uint64_t used = gg_cad_conflicts(s->cad) - before;
        s->budget_left -= used < s->budget_left ? used : s->budget_left;
    }
    return r == 10 ? GG_SAT_SAT : r == 20 ? GG_SAT_UNSAT : GG_SAT_UNKNOWN;
}
#endif

gg_sat_result gg_sat_solve(gg_sat *s, double max_seconds)
{
    return gg_sat_solve_assuming(s, NULL, 0, max_seconds);
}

void gg_sat_freeze(gg_sat *s, int v)
{
#if GG_HAVE_CADICAL
    if (s->cad)
        gg_cad_freeze(s->cad, v);
#endif
    (void)s, (void)v;
}

gg_sat_result gg_sat_solve_assuming(gg_sat *s, const int *lits, int n,
                                    double max_seconds)
{
#if GG_HAVE_CADICAL
    if (s->cad)
        return cad_solve(s, lits, n, max_seconds);
#endif
    sync_vars(s);
    cmsat_set_max_time(s->cms, max_seconds > 0 ? max_seconds : 1e12);
    uint64_t before = gg_cms_conflicts(s->cms);
    if (s->budgeted) {
        if (!s->budget_left)
            return GG_SAT_UNKNOWN;
        gg_cms_set_max_conflicts(s->cms, s->budget_left);
    }
    c_lbool r;
    if (n > 0) {
        to_cms(s, lits, n);
        r = cmsat_solve_with_assumptions(s->cms, s->buf, (size_t)n);
    } else {
        r = cmsat_solve(s->cms);
    }
    if (s->budgeted) {
        uint64_t used = gg_cms_conflicts(s->cms) - before;
        s->budget_left -= used < s->budget_left ? used : s->budget_left;
    }
    if (r.x == L_TRUE) {
        s->model = cmsat_get_model(s->cms);
        return GG_SAT_SAT;
    }
    return r.x == L_FALSE ? GG_SAT_UNSAT : GG_SAT_UNKNOWN;
}

bool gg_sat_value(const gg_sat *s, int v)
{
#if GG_HAVE_CADICAL
    if (s->cad)
        return gg_cad_value(s->cad, v);
#endif
    size_t i = (size_t)(v - 1);
    return i < s->model.num_vals && s->model.vals[i].x == L_TRUE;
}

void gg_sat_set_conflict_budget(gg_sat *s, uint64_t n)
{
    s->budgeted = n > 0;
    s->budget_left = n;
}

void gg_sat_interrupt(gg_sat *s)
{
#if GG_HAVE_CADICAL
    if (s->cad) {
        gg_cad_interrupt(s->cad);
        return;
    }
#endif
    gg_cms_interrupt(s->cms);
}

uint64_t gg_sat_conflicts(gg_sat *s)
{
#if GG_HAVE_CADICAL
    if (s->cad)
        return gg_cad_conflicts(s->cad);
#endif
    return gg_cms_conflicts(s->cms);
}

#else /* cache-only build: every caller checks gg_sat_available() */

struct gg_sat {
    int unused;
};

bool gg_sat_available(void) { return false; }
const char *gg_sat_unavailable_why(void)
{
    return "this golgen was built without CryptoMiniSat "
           "(libcryptominisat5-dev)";
}
bool gg_sat_kind_available(gg_sat_kind kind) { (void)kind; return false; }
gg_sat *gg_sat_new(void) { return NULL; }
gg_sat *gg_sat_new_kind(gg_sat_kind kind) { (void)kind; return NULL; }
void gg_sat_free(gg_sat *s) { (void)s; }
void gg_sat_set_threads(gg_sat *s, int threads) { (void)s, (void)threads; }
int gg_sat_var(gg_sat *s) { (void)s; return 0; }
void gg_sat_clause(gg_sat *s, const int *lits, int n)
{
    (void)s, (void)lits, (void)n;
}
gg_sat_result gg_sat_solve(gg_sat *s, double max_seconds)
{
    (void)s, (void)max_seconds;
    return GG_SAT_UNKNOWN;
}
gg_sat_result gg_sat_solve_assuming(gg_sat *s, const int *lits, int n,
                                    double max_seconds)
{
    (void)s, (void)lits, (void)n, (void)max_seconds;
    return GG_SAT_UNKNOWN;
}
void gg_sat_freeze(gg_sat *s, int v) { (void)s, (void)v; }
bool gg_sat_value(const gg_sat *s, int v) { (void)s, (void)v; return false; }
void gg_sat_interrupt(gg_sat *s) { (void)s; }
void gg_sat_set_conflict_budget(gg_sat *s, uint64_t n) { (void)s, (void)n; }
uint64_t gg_sat_conflicts(gg_sat *s) { (void)s; return 0; }

#endif

gg_sat *gg_sat_new_for_shapes(void)
{
    return gg_sat_new_kind(gg_sat_kind_available(GG_SAT_CADICAL)
                               ? GG_SAT_CADICAL : GG_SAT_CMS);
}

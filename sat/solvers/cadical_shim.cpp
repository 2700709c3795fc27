/* CaDiCaL behind the C calls of sat/solvers/cadical_shim.h.
 *
 * On the per-shape CNFs of exact synthesis (lut3, k = 6, B136/S1256's
 * shapes 0, 120, 720, 1140: the same DIMACS file to both) CaDiCaL 1.5.3
 * took 3.4-4.4x less CPU than CryptoMiniSat 5.11 (issue 18, session 13),
 * so shape proofs use it when the build has it (sat/exact/kjob.c). Its API has
 * no conflict count, no CPU-time limit and no sticky interrupt; a learner
 * that counts learnt clauses stands for the first (one per conflict), a
 * terminator for the others. */
#include <atomic>
#include <climits>
#include <cstdint>
#include <ctime>

#include <cadical.hpp>

#include "cadical_shim.h"

namespace {

double thread_cpu()
{
    struct timespec ts;
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* Stops a solve once interrupted (for good: later solves stop at once,
 * like the search expects of a solver it told to stop) or once the
 * solve's CPU time is spent; the clock is read every 256 polls. */
struct Stop : CaDiCaL::Terminator {
    std::atomic<bool> interrupted{false};
    double deadline = 0; /* thread CPU seconds; 0: none */
    unsigned polls = 0;
    bool terminate() override
    {
        if (interrupted.load(std::memory_order_relaxed))
            return true;
        if (deadline > 0 && (++polls & 255) == 0 && thread_cpu() > deadline)
            return true;
        return false;
    }
};

/* One learnt clause per conflict: counts them, takes none. */
struct Count : CaDiCaL::Learner {
    uint64_t n = 0;
    bool learning(int) override
    {
        n++;
        return false;
    }
    void learn(int) override {}
};

} // namespace

struct gg_cad {
    CaDiCaL::Solver solver;
    Stop stop;
    Count count;
    int max_var = 0;
};

extern "C" {

gg_cad *gg_cad_new(void)
{
    gg_cad *c = new (std::nothrow) gg_cad;
    if (!c)
        return nullptr;
    c->solver.set("quiet", 1); /* no "c ..." lines on stdout */
    /* No bounded variable elimination, and stable mode only: whole k=6
     * proofs on 64 ranks of a Xeon host took 1.5x less time than with the
     * defaults (issue 18, session 19: Land Rush 122 -> 80 s, Pseudo Life
     * 154 -> 103 s; about 37% fewer conflicts at the same rate). On the
     * 2-core VM (Zen 5) a conflict costs more under these settings, so
     * blocks of 30-40 shapes gained 1.2-1.87x there (B36/S245 shapes
     * 1000-1029: 59.8 -> 32.0 s; Dot Life 200-239: 110 -> 91 s); elim=0
     * alone gave 1.16-1.64x. Eleven other switches on top (walk, probe,
     * vivify, chrono, ...) stayed within the noise. */
    c->solver.set("elim", 0);
    c->solver.set("stabilizeonly", 1);
    c->solver.connect_terminator(&c->stop);
    c->solver.connect_learner(&c->count);
    return c;
}

void gg_cad_free(gg_cad *c)
{
    if (!c)
        return;
    c->solver.disconnect_terminator();
    c->solver.disconnect_learner();
    delete c;
}

void gg_cad_clause(gg_cad *c, const int *lits, int n)
{
    for (int i = 0; i < n; i++) {
        int v = lits[i] < 0 ? -lits[i] : lits[i];
        if (v > c->max_var)
            c->max_var = v;
        c->solver.add(lits[i]);
    }
    c->solver.add(0);
}

int gg_cad_solve(gg_cad *c, double max_seconds, uint64_t budget)
{
    if (c->stop.interrupted.load())
        return 0;
    c->stop.deadline = max_seconds > 0 ? thread_cpu() + max_seconds : 0;
    if (budget)
        c->solver.limit("conflicts",
                        budget < (uint64_t)INT_MAX ? (int)budget : INT_MAX);
    int r = c->solver.solve();
    return r == 10 || r == 20 ? r : 0;
}

bool gg_cad_value(gg_cad *c, int v)
{
    return v >= 1 && v <= c->max_var && c->solver.val(v) > 0;
}

void gg_cad_interrupt(gg_cad *c)
{
    c->stop.interrupted.store(true);
}

uint64_t gg_cad_conflicts(const gg_cad *c)
{
    return c->count.n;
}

void gg_cad_assume(gg_cad *c, int lit)
{
    int v = lit < 0 ? -lit : lit;
    if (v > c->max_var)
        c->max_var = v;
    c->solver.assume(lit);
}

void gg_cad_freeze(gg_cad *c, int v)
{
    if (v > c->max_var)
        c->max_var = v;
    c->solver.freeze(v);
}

} // extern "C"

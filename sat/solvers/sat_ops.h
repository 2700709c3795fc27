/* The solver as a plugin: the gg_sat interface (cms.h) as a table of
 * functions, which sat/solvers/sat_plugin_entry.c hands out from the
 * golgen-sat module and sat/solvers/sat_plugin.c calls through.
 *
 * Why a plugin: CryptoMiniSat drags the C++ runtime in, and mapping and
 * relocating both was 0.7 ms of every golgen process's start, a quarter of
 * a small pattern's whole run (BENCHMARKS.md, "Session 29: process start").
 * Most runs find their network in the cache and never solve. */
#ifndef GG_SAT_OPS_H
#define GG_SAT_OPS_H

#include <stdbool.h>
#include <stdint.h>

#include "cms.h"

/* Bumped whenever the table or a function's meaning changes: a module of
 * another layout is refused, never called. */
#define GG_SAT_OPS_ABI 1

/* The one symbol the module exports. */
#define GG_SAT_OPS_ENTRY "gg_sat_plugin_ops"

typedef struct gg_sat_ops {
    int abi;                 /* GG_SAT_OPS_ABI of the module */
    const char *version;     /* golgen's version the module was built as */
    bool (*kind_available)(gg_sat_kind kind);
    gg_sat *(*new_kind)(gg_sat_kind kind);
    void (*free)(gg_sat *s);
    void (*set_threads)(gg_sat *s, int threads);
    int (*var)(gg_sat *s);
    void (*clause)(gg_sat *s, const int *lits, int n);
    void (*set_conflict_budget)(gg_sat *s, uint64_t n);
    gg_sat_result (*solve)(gg_sat *s, double max_seconds);
    gg_sat_result (*solve_assuming)(gg_sat *s, const int *lits, int n,
                                    double max_seconds);
    void (*freeze)(gg_sat *s, int v);
    bool (*value)(const gg_sat *s, int v);
    void (*interrupt)(gg_sat *s);
    uint64_t (*conflicts)(gg_sat *s);
    const char *(*solver_version)(void);
} gg_sat_ops;

typedef const gg_sat_ops *(*gg_sat_ops_fn)(void);

#endif

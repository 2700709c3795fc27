/* The golgen-sat module's one export: cms.c's functions as a table
 * (sat_ops.h). The module is built with hidden visibility, so cms.c's own
 * calls stay inside it and never reach the forwarding functions of the
 * program that loaded it. */
#include "sat_ops.h"

#include "gg_config.h"

const char *gg_cms_version(void); /* runtime/base/solver_version.cpp */

static const gg_sat_ops ops = {
    .abi = GG_SAT_OPS_ABI,
    .version = GG_VERSION,
    .kind_available = gg_sat_kind_available,
    .new_kind = gg_sat_new_kind,
    .free = gg_sat_free,
    .set_threads = gg_sat_set_threads,
    .var = gg_sat_var,
    .clause = gg_sat_clause,
    .set_conflict_budget = gg_sat_set_conflict_budget,
    .solve = gg_sat_solve,
    .solve_assuming = gg_sat_solve_assuming,
    .freeze = gg_sat_freeze,
    .value = gg_sat_value,
    .interrupt = gg_sat_interrupt,
    .conflicts = gg_sat_conflicts,
    .solver_version = gg_cms_version,
};

__attribute__((visibility("default"))) const gg_sat_ops *
gg_sat_plugin_ops(void);

const gg_sat_ops *gg_sat_plugin_ops(void) { return &ops; }

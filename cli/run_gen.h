/* golgen run and rule for Generations rules (S/B/C, gen/rule_gen.h),
 * which run on any backend of the table that takes state planes
 * (runtime/backend.h: upload_cells; gg_backend_generations_names). */
#ifndef GG_RUN_GEN_H
#define GG_RUN_GEN_H

#include <stdbool.h>
#include <stdint.h>

#include "backend.h"
#include "cli_pictures.h"
#include "pattern.h"
#include "rule.h"

/* Run pattern p under the Generations rule for `gens` generations and
 * write RLE to out ("-": stdout; NULL: nothing). backend is the one the
 * user named (NULL: auto), bo its options; progress on stderr when
 * asked. SIGINT, SIGTERM and SIGHUP stop it after the batch in flight,
 * with what was reached written (cli/run_control.h). pics: --png and
 * --frames (cli/cli_pictures.h). Returns the exit status. */
int gg_run_generations(const gg_rule *rule, const gg_pattern *p,
                       const gg_backend_info *backend,
                       const gg_backend_opts *bo, int64_t gens, bool progress,
                       const char *out, const gg_cli_pictures *pics);

/* golgen rule's description of a Generations rule. */
void gg_rule_print_generations(const gg_rule *rule);

#endif

/* golgen run and rule for Generations rules (S/B/C, gen/rule_gen.h),
 * which run on the multi-state reference simulator or the bitsliced
 * cpu step (runtime/gen_cpu.h). */
#ifndef GG_RUN_GEN_H
#define GG_RUN_GEN_H

#include <stdbool.h>
#include <stdint.h>

#include "pattern.h"
#include "rule.h"

/* Run pattern p under the Generations rule for `gens` generations and
 * write RLE to out ("-": stdout; NULL: nothing). backend is the
 * --backend the user named (NULL: none, so the reference). Returns the
 * exit status. */
int gg_run_generations(const gg_rule *rule, const gg_pattern *p,
                       const char *backend, int64_t gens, const char *out);

/* golgen rule's description of a Generations rule. */
void gg_rule_print_generations(const gg_rule *rule);

#endif

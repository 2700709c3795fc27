/* golgen run and rule for Larger than Life (gen/rules/rule_ltl.h, issue 39
 * part 3). These rules run on the reference only
 * (runtime/reference/reference_ltl.h) until a kernel counts their
 * neighbourhoods: auto takes it and says so, any other backend is refused
 * by name, as are the options only compiled runs take (cli/run_table.h
 * does the same for Golly's rule tables). */
#ifndef GG_RUN_LTL_H
#define GG_RUN_LTL_H

#include <stdbool.h>
#include <stdint.h>

#include "pattern.h"
#include "rule_ltl.h"
#include "run_table.h"

/* Run pattern p under the rule written `text` (parsed here, its errors
 * reported): the exit status. The options are a table run's. */
int gg_run_ltl(const char *text, const gg_pattern *p, const gg_table_run *o);

/* golgen rule's description: the exit status. */
int gg_rule_print_ltl(const char *text);

#endif

/* golgen run and rule for Larger than Life (gen/rules/rule_ltl.h, issue 39
 * part 3). These rules run on the backends with LtL entry points
 * (runtime/backends/backend_ltl.h: the cpu kernel, the reference); auto
 * takes the cpu kernel when it compiles and validates, else the reference
 * and says why; other backends are refused by name, as are the options
 * these runs lack (cli/run_table.h does the same for Golly's rule
 * tables). */
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

#endif

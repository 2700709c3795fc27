/* golgen bench for Larger than Life rules (gen/rules/rule_ltl.h): a soup of
 * state-1 cells at density 1/2 on a WxH torus (or --plane), stepped by a
 * backend with LtL entry points (runtime/backends/backend_ltl.h: cpu,
 * reference; auto the first that opens); one untimed warm-up generation,
 * then the timed ones in one call: golgen_bench_ltl (include/golgen.h). */
#ifndef GG_BENCH_LTL_H
#define GG_BENCH_LTL_H

#include <stdbool.h>

#include "commands.h" /* gg_config, passed on unread */

/* Whether bench's --rule names a Larger than Life rule. */
bool gg_bench_is_ltl(int argc, char **argv);

int gg_cmd_bench_ltl(int argc, char **argv, const gg_config *cfg);

#endif

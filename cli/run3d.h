/* The 3D path of `golgen rule`, `run` and `bench`: each command's hook
 * hands over when gg_cli_is_3d says the arguments name a 3D rule (a rule
 * text starting with 3D) or an RLE3 input (*.rle3). */
#ifndef GG_CLI_RUN3D_H
#define GG_CLI_RUN3D_H

#include <stdbool.h>

#include "config.h"

/* True when argv (after the command name) names a 3D rule through
 * --rule/-r/--rule= (which decides when given), as the positional rule of
 * `rule` (positional_rule), or an input that is RLE3 (named *.rle3, or
 * beginning "3D version=..."). */
bool gg_cli_is_3d(int argc, char **argv, bool positional_rule);

int gg_cmd_rule3d(int argc, char **argv, const gg_config *cfg);
int gg_cmd_run3d(int argc, char **argv, const gg_config *cfg);
int gg_cmd_bench3d(int argc, char **argv, const gg_config *cfg);

/* golgen --target c|cuda for a 3D rule text: the kernel source the cpu
 * or cuda backend compiles (malloc'd, *len bytes); -1 with err for a bad
 * rule or another target. */
int gg_emit3d_source(const char *rule_text, const char *target, char **src,
                     size_t *len, gg_err *err);

/* golgen verify for a 3D rule text: the final stage against every
 * (live-neighbour count, centre) of the rule; the exit status. */
int gg_cmd_verify3d(const char *rule_text);

#endif

/* The 3D path of `golgen rule`, `run` and `bench`: each command's hook
 * hands over when gg_cli_is_3d says the arguments name a 3D rule (a rule
 * text starting with 3D) or an RLE3 input (*.rle3). */
#ifndef GG_CLI_RUN3D_H
#define GG_CLI_RUN3D_H

#include <stdbool.h>

#include "commands.h" /* gg_config */

/* True when argv (after the command name) names a 3D rule through
 * --rule/-r/--rule= (which decides when given), as the positional rule of
 * `rule` (positional_rule), or an input that is RLE3 (named *.rle3, or
 * beginning "3D version=..."). */
bool gg_cli_is_3d(int argc, char **argv, bool positional_rule);

int gg_cmd_run3d(int argc, char **argv, const gg_config *cfg);
int gg_cmd_bench3d(int argc, char **argv, const gg_config *cfg);

/* (golgen --target and verify take 3D rules through libgolgen:
 * lib/emit.c, lib/verify.c) */

#endif

/* The configuration main reads from the environment once and hands to
 * every command (cli/cli_config.c keeps it): the variables checked
 * through the library, and what the command needs of them itself. */
#ifndef GG_CLI_CONFIG_H
#define GG_CLI_CONFIG_H

#include <stddef.h>

#include "commands.h"

/* The environment read; it lasts the process. NULL with a sentence in
 * msg when a variable holds a bad value. Once, before any command. */
const gg_config *gg_cli_config_read(char *msg, size_t len);

/* The processes an MPI launcher started with this one (0: none did). */
int gg_cli_launcher_ranks(const gg_config *cfg);

#endif

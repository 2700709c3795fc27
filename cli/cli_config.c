/* main's configuration (cli/cli_config.h): the environment read once,
 * before any command runs, and not changed after. The commands on the
 * library pass it on unread (the library reads the same environment at
 * its edge); main asks it how many processes an MPI launcher started
 * (cli/full_exec.h) and cli/run_ranks.c whether to start MPI. */
#include "cli_config.h"

#include <stdio.h>

#include "config.h"

static gg_config process_config;

const gg_config *gg_cli_config_read(char *msg, size_t len)
{
    gg_err err;
    if (gg_config_from_env(&process_config, &err)) {
        snprintf(msg, len, "%s", err.msg);
        return NULL;
    }
    return &process_config;
}

int gg_cli_launcher_ranks(const gg_config *cfg)
{
    return cfg->launcher_ranks;
}

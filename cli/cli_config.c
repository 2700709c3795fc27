/* main's configuration (cli/cli_config.h): the environment checked once,
 * before any command runs, through the library (golgen_env_check), which
 * reads it again at its edge on each call; what the command itself keeps
 * of it is how many processes an MPI launcher started (main hands a run
 * under one over to golgen-full, cli/full_exec.h; cli/run_ranks.c starts
 * MPI). */
#include "cli_config.h"

#include "golgen.h"

struct gg_cli_config {
    int launcher_ranks;
};

static gg_config process_config;

const gg_config *gg_cli_config_read(char *msg, size_t len)
{
    if (golgen_env_check(&process_config.launcher_ranks, msg, len))
        return NULL;
    return &process_config;
}

int gg_cli_launcher_ranks(const gg_config *cfg)
{
    return cfg->launcher_ranks;
}

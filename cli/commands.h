/* golgen subcommands: each takes argc/argv after the command name and the
 * configuration main read from the environment once (cli/cli_config.h),
 * and returns the process exit status. */
#ifndef GG_COMMANDS_H
#define GG_COMMANDS_H

/* The command's own (cli/cli_config.c), not the engine's
 * runtime/base/config.h (the library reads the environment at its edge);
 * a command passes it on unread or not at all. */
typedef struct gg_cli_config gg_config;

int gg_cmd_rule(int argc, char **argv, const gg_config *cfg);
int gg_cmd_verify(int argc, char **argv, const gg_config *cfg);
int gg_cmd_run(int argc, char **argv, const gg_config *cfg);
/* golgen --target T ...: argv[0] is "golgen" itself. */
int gg_cmd_emit(int argc, char **argv, const gg_config *cfg);
int gg_cmd_bench(int argc, char **argv, const gg_config *cfg);
int gg_cmd_synth(int argc, char **argv, const gg_config *cfg);
int gg_cmd_store(int argc, char **argv, const gg_config *cfg);
/* cli/serve/: the live web viewer (or a note that the build lacks it) */
int gg_cmd_serve(int argc, char **argv, const gg_config *cfg);

#endif

/* golgen subcommands: each takes argc/argv after the command name and
 * returns the process exit status. */
#ifndef GG_COMMANDS_H
#define GG_COMMANDS_H

int gg_cmd_rule(int argc, char **argv);
int gg_cmd_verify(int argc, char **argv);
int gg_cmd_run(int argc, char **argv);

#endif

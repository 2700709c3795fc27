/* What every golgen subcommand shares that needs nothing but the C
 * library: exit statuses, the error line, the public library's codes as
 * statuses, and number and duration options. Commands on the library
 * alone (tests/check_layers.py: ON_LIBRARY) include this, golgen.h and no
 * engine header. */
#ifndef GG_CLI_ARGS_H
#define GG_CLI_ARGS_H

#include <stddef.h>
#include <stdint.h>

/* Exit statuses, the same for every command. */
enum {
    GG_EXIT_OK = 0,
    GG_EXIT_CHECK_FAILED = 1, /* a verification or validation failed */
    GG_EXIT_USAGE = 2,        /* bad usage or bad input */
    GG_EXIT_ENV = 3,          /* the environment lacks something (GPU, tool) */
};

/* Print "golgen <cmd>: <msg>" on stderr and return status (nothing for an
 * empty message: another MPI rank said it, cli/run_ranks.h). */
int gg_cli_say(const char *cmd, int status, const char *msg);

/* A sentence into a parser's message, msg (GG_CLI_MSG bytes): -1, so a
 * parser can `return gg_cli_fail(msg, ...)`. */
#define GG_CLI_MSG 512
__attribute__((format(printf, 2, 3)))
int gg_cli_fail(char *msg, const char *fmt, ...);

/* The exit status of a libgolgen result (GOLGEN_OK, GOLGEN_ERR_*). */
int gg_cli_status(int golgen_code);

/* A whole decimal number in [min, max]; -1 with a sentence naming the
 * option in msg. */
int gg_cli_parse_int(const char *option, const char *text, int64_t min,
                     int64_t max, int64_t *value, char *msg, size_t len);

/* A duration in seconds: a finite decimal >= 0 and <= max; -1 with a
 * sentence naming the option in msg (0 means "no limit" to the options
 * that take one). */
int gg_cli_parse_seconds(const char *option, const char *text, double max,
                         double *value, char *msg, size_t len);

/* A window x,y,w,h into v[0..3]: Golly coordinates of its top-left cell
 * (within Golly's +-2^31) and its sides (1 .. 2^31); -1 with a sentence
 * naming `option` in msg. */
int gg_cli_parse_window(const char *option, const char *arg, int64_t v[4],
                        char *msg, size_t len);

/* A size in bytes: a number with an optional K, M, G or T (powers of
 * 1024) and B or iB, e.g. 8G, 512MiB, 65536; -1 with a sentence naming
 * the option in msg. */
int gg_cli_parse_bytes(const char *option, const char *text, int64_t *bytes,
                       char *msg, size_t len);

/* Monotonic wall-clock seconds, for the times commands report. */
double gg_cli_now(void);

#endif

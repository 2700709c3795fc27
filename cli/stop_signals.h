/* The three signals that stop a long golgen command cleanly (Ctrl-C's
 * SIGINT, `timeout`'s SIGTERM, a closed terminal's SIGHUP), caught the
 * same way by `run` and `synth`. */
#ifndef GG_STOP_SIGNALS_H
#define GG_STOP_SIGNALS_H

#include <signal.h>

#define GG_N_STOP_SIGNALS 3

/* Catch each stop signal with `on`, keeping the old actions in old. One
 * that was ignored when golgen started stays ignored, as it does for any
 * program: nohup ignores SIGHUP so that closing the terminal does not end
 * a long run, and a script's `golgen ... &` ignores SIGINT. Interrupted
 * system calls restart, so a read from a pipe or FIFO that a signal
 * meets goes on and the command stops at its next check. */
void gg_stop_signals_catch(void (*on)(int),
                           struct sigaction old[GG_N_STOP_SIGNALS]);

/* Put the old actions back. */
void gg_stop_signals_release(const struct sigaction old[GG_N_STOP_SIGNALS]);

/* "SIGINT", "SIGTERM" or "SIGHUP". */
const char *gg_stop_signal_name(int sig);

#endif

/* What every `golgen run` path (two-state, Generations, 3D, store to
 * store) does around its generations: stop cleanly on SIGINT, SIGTERM or
 * SIGHUP (end the batch in flight: calls are short, runtime/universes/batch.h, and
 * a slow backend's step gives up its generation; write what was reached,
 * exit 130, 143 or 129, as the shell reports those signals), and show
 * progress on stderr. The handlers are installed once, as `run` starts,
 * so that a signal while the pattern loads or the backend opens (seconds
 * for a JIT compile) is not lost: the run then does no generation and
 * writes generation 0. */
#ifndef GG_RUN_CONTROL_H
#define GG_RUN_CONTROL_H

#include <signal.h>
#include <stdbool.h>
#include <stdint.h>

/* Install the handlers (remembering the old ones; a signal ignored at
 * start stays ignored, cli/stop_signals.h) / put the old back. */
void gg_run_stop_install(void);
void gg_run_stop_restore(void);

/* A stop signal arrived since install. */
bool gg_run_stopped(void);

/* The flag the handlers set, for steps that can give up a generation in
 * flight: one generation of a big grid on the reference takes seconds to
 * minutes. The type is runtime/base/stop.h's gg_stop_flag, spelled out so
 * that this header needs nothing of the engine. */
const volatile sig_atomic_t *gg_run_stop_flag(void);

/* 128 + the signal that stopped the run, 0 when none did. */
int gg_run_stop_status(void);

/* "interrupted by SIGTERM after 300 of 1000 generations; ..." on stderr
 * and the exit status; 0 (nothing said) when no signal came. */
int gg_run_stop_report(int64_t reached, int64_t total, bool written);

/* Progress lines at most once a second (show), counting generations done
 * before this part of the run (base) within the whole run (all); as a
 * universe's progress callback it returns false once a stop signal
 * came, which ends the run after the batch in flight. */
typedef struct gg_run_progress {
    double last;
    bool show;
    int64_t base, all;
} gg_run_progress;

void gg_run_progress_init(gg_run_progress *p, bool show, int64_t all);
bool gg_run_progress_cb(void *ctx, int64_t done, int64_t total);

#endif

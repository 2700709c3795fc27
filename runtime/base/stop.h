/* A request that long runtime work stop soon: a flag the caller's signal
 * handler sets (golgen run: cli/run_control.c) and the runtime only reads,
 * handed down by pointer so that no runtime code reads a global; NULL
 * asks for no stop. A step that reads it gives up where what it leaves is
 * whole: the generation in flight is dropped and its input kept (the
 * steps double-buffer and swap only after a complete generation), so a
 * stopped run holds, and writes, the last generation it completed. */
#ifndef GG_STOP_H
#define GG_STOP_H

#include <signal.h>
#include <stdbool.h>

typedef const volatile sig_atomic_t gg_stop_flag;

static inline bool gg_stop_asked(gg_stop_flag *stop)
{
    return stop && *stop;
}

#endif

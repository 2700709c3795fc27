/* The search note (cli/search_note.h) for commands on the library alone:
 * pass gg_search_note_event as a golgen_search_fn (include/golgen.h) and
 * call gg_search_note_finish when the networks are built. The note needs
 * nothing of the engine; cli/search_note.h hooks it to the engine's
 * config for the commands that run kernels themselves. */
#ifndef GG_CLI_SEARCH_HOOK_H
#define GG_CLI_SEARCH_HOOK_H

#include "golgen.h"

void gg_search_note_event(void *ctx, const golgen_search_event *e);

/* The searches since the last call are over: the closing line when the
 * opening one was printed; the next search starts a new note. */
void gg_search_note_finish(void);

/* Seconds a search runs before the line appears (default 1; 0: at once,
 * for tests: `golgen run --search-note-after S`). */
void gg_search_note_after(double seconds);

#endif

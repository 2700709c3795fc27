/* The line a user gets while golgen searches for a new rule's networks
 * (cli/search_note.c). A rule neither the network cache nor the kept
 * networks hold has its final stages searched for when its kernel is
 * first built: seconds to tens of seconds (a random isotropic rule took
 * 37 s on a 2-core VM) of silence before anything else is said. Once
 * such a search has gone on for a second, stderr says what it is; when it
 * is over, how long it took and whether the next run finds it kept.
 *
 * The commands pass gg_search_note_event as the library's
 * golgen_search_fn (include/golgen.h) and call gg_search_note_finish when
 * the kernels are built (a run's backend opened, --target, verify). The
 * note needs nothing of the engine. MPI ranks above 0 stay quiet, as for
 * every other line. */
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

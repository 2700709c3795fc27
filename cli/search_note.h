/* The line a user gets while golgen searches for a new rule's networks.
 * A rule neither the network cache nor the kept networks hold has its
 * final stages searched for when its kernel is first built: seconds to
 * tens of seconds (a random isotropic rule took 37 s on a 2-core VM) of
 * silence before anything else is said. Once such a search has gone on
 * for a second, stderr says what it is; when it is over, how long it
 * took and whether the next run finds it kept.
 *
 * sat/choose/choose.h tells of each search through gg_choose_opts.on_search;
 * main.c installs this file's handler on the one config of the process,
 * and the places that build kernels (backends, --target, verify) call
 * gg_search_note_finish when they are done. MPI ranks above 0 stay
 * quiet, as for every other line. */
#ifndef GG_CLI_SEARCH_NOTE_H
#define GG_CLI_SEARCH_NOTE_H

#include "choose.h"

/* Hooks o (the process's config, which outlives every search) and makes
 * sure a note begun is finished at exit. */
void gg_search_note_install(gg_choose_opts *o);

/* Seconds a search runs before the line appears (default 1; 0: at once,
 * for tests: `golgen run --search-note-after S`). */
void gg_search_note_after(double seconds);

/* The searches since the last call are over: the closing line when the
 * opening one was printed; the next search starts a new note. */
void gg_search_note_finish(void);

#endif

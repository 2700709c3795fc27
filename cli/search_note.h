/* The line a user gets while golgen searches for a new rule's networks.
 * A rule neither the network cache nor the kept networks hold has its
 * final stages searched for when its kernel is first built: seconds to
 * tens of seconds (a random isotropic rule took 37 s on a 2-core VM) of
 * silence before anything else is said. Once such a search has gone on
 * for a second, stderr says what it is; when it is over, how long it
 * took and whether the next run finds it kept.
 *
 * sat/choose/choose.h tells of each search through gg_choose_opts.on_search;
 * main.c installs the note's handler on the one config of the process
 * (the library's commands pass gg_search_note_event as their
 * golgen_search_fn, cli/search_hook.h), and the places that build
 * kernels (backends, --target, verify) call gg_search_note_finish when
 * they are done. MPI ranks above 0 stay
 * quiet, as for every other line. */
#ifndef GG_CLI_SEARCH_NOTE_H
#define GG_CLI_SEARCH_NOTE_H

#include "choose.h"
#include "search_hook.h" /* the note itself: event, finish, after */

/* Hooks o (the process's config, which outlives every search): the
 * engine's search events (sat/choose/choose.h) go to the note in the
 * library's shape (cli/cli_util.c). */
void gg_search_note_install(gg_choose_opts *o);

#endif

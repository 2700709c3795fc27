/* The search note (cli/search_note.h) for commands on the library alone:
 * pass gg_search_note_event as a golgen_search_fn (include/golgen.h) and
 * call gg_search_note_finish when the networks are built. */
#ifndef GG_CLI_SEARCH_HOOK_H
#define GG_CLI_SEARCH_HOOK_H

#include "golgen.h"

void gg_search_note_event(void *ctx, const golgen_search_event *e);

/* The searches since the last call are over (cli/search_note.h). */
void gg_search_note_finish(void);

#endif

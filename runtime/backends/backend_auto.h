/* --backend auto, the default of `golgen run` and `golgen bench`: the
 * fastest backend that runs here. Candidates are tried fastest first; one
 * that cannot run (its probe fails) or cannot open (no compiler, a kernel
 * that failed validation) is passed over with its reason, and the next is
 * tried. What was chosen and why the faster ones were not fits one line,
 * which the caller shows:
 *
 *     backend auto -> cpu (cuda, ptx: no CUDA driver (libcuda.so.1 ...))
 *
 * The policy is written once here for every family of rules: the backend
 * table (2D two-state rules) uses gg_backend_open_auto; the families that
 * sit beside it (Generations, 3D) pass their own candidates and open
 * function to gg_auto_choose. */
#ifndef GG_BACKEND_AUTO_H
#define GG_BACKEND_AUTO_H

#include <stdbool.h>

#include "backend.h"

/* Whether a --backend value asks for auto: "auto", or none given (NULL). */
bool gg_backend_is_auto(const char *name);

/* The line auto says: "backend auto -> NAME" and, when faster candidates
 * were passed over, " (NAME, NAME: reason; NAME: reason)". */
typedef struct gg_auto_line {
    char text[1024];
} gg_auto_line;

/* Open candidate `name` (kept open by the callee in ctx): 0, or -1 with
 * why and a one-line err. */
typedef int (*gg_auto_open_fn)(void *ctx, const char *name,
                               gg_fail_kind *why, gg_err *err);

/* Try names[0..n-1] in order; returns the index of the first that opens.
 * A failure of kind GG_FAIL_INPUT ends the search with that failure (the
 * rule or an option is wrong, so no other backend would do better);
 * otherwise -1 only when every candidate failed, err then naming each
 * with its reason and why the last one's kind. */
int gg_auto_choose(const char *const *names, int n, gg_auto_open_fn open_fn,
                   void *ctx, gg_auto_line *line, gg_fail_kind *why,
                   gg_err *err);

/* Auto over the backend table: gg_backends_auto, each probed, then
 * opened for rule. */
int gg_backend_open_auto(const gg_rule *rule, const gg_backend_opts *o,
                         gg_backend **out, gg_auto_line *line,
                         gg_fail_kind *why, gg_err *err);

/* "backend: usable" or "backend: <why not>" for each backend of the table,
 * one per line, indented by `indent` (golgen --version). */
void gg_backend_probe_report(const gg_backend_opts *o, const char *indent,
                             char *buf, size_t size);

#endif

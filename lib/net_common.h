/* What lib/verify.c and lib/synth.c share: the environment's network
 * options with the caller's hook and cache, gate counts in the public
 * shape, and the rule's front as the command reads it; and what every
 * public call shares: its sentence given back, the checks before a file
 * is written. */
#ifndef GG_LIB_NET_COMMON_H
#define GG_LIB_NET_COMMON_H

#include "golgen.h"

#include <stdarg.h>

#include "backend.h"
#include "choose.h"
#include "config.h"
#include "front.h"
#include "net.h"

/* The sentence into the caller's buffer; returns code. */
int gg_lib_fail(int code, const gg_err *err, char *errbuf, size_t errlen);

/* A line made from fmt to a caller's on_note (nothing without one): what
 * golgen run's and bench's notes share. */
void gg_lib_note_v(void (*on_note)(void *ctx, const char *line), void *ctx,
                   const char *fmt, va_list ap);

/* The environment's choose options (runtime/base/config.h), cache_root
 * when given, and on_search told through *hook. The options point into
 * *cfg (the kept networks' folder is its cache_dir) and *hook: both must
 * outlive the options' use (the caller keeps them for the call). */
typedef struct gg_lib_search_hook {
    golgen_search_fn fn;
    void *ctx;
} gg_lib_search_hook;
int gg_lib_choose_opts(const char *cache_root, gg_lib_search_hook *hook,
                       gg_config *cfg, gg_choose_opts *o, gg_err *err);

/* The registry's backend called name (NULL for auto: name NULL or
 * "auto"); -1 with err listing the known ones, auto among them. */
int gg_lib_backend(const char *name, const gg_backend_info **info,
                   gg_err *err);

/* path names a file to write: the library writes no standard output
 * ("-"), so the call that gives the text (text_call) is named instead.
 * -1 with err (GOLGEN_ERR_INPUT). */
int gg_lib_out_path(const char *path, const char *text_call, gg_err *err);
/* -1 with err (GOLGEN_ERR_ENV) when this build draws no pictures. */
int gg_lib_png_check(gg_err *err);

/* n's gates by kind. */
void gg_lib_gates(const gg_net *n, golgen_gates *g);

/* text's front for rule, or the rule's own when text is NULL; a
 * Generations rule is refused with the two-state rule to give. */
int gg_lib_front(const char *text, const gg_rule *rule, gg_front_kind *front,
                 gg_err *err);

#endif

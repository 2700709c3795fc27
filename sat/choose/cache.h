/* The network cache: synthesized final stages under generated/networks/,
 * one readable file per (rule transition, front, library), so emitters
 * never re-solve a known rule.
 *
 * Layout: <root>/networks/<front>/<lib>/<transition>.net with '/' in the
 * transition written as '_' (B3/S23 -> B3_S23.net). <root> is the caller's
 * (the CLI passes $GOLGEN_GENERATED: runtime/base/config.h), else
 * GG_SOURCE_ROOT/generated.
 *
 * Every network is checked on every care row of the rule's final-stage
 * table before it is stored and again whenever it is loaded; a cached
 * network that fails is an error, never silently re-solved. */
#ifndef GG_SAT_CACHE_H
#define GG_SAT_CACHE_H

#include <stdbool.h>
#include <stddef.h>

#include "front.h"
#include "net.h"
#include "proof.h"
#include "rule.h"

typedef struct gg_cache_info {
    int gates;           /* final-stage gates */
    bool proven;         /* no network of fewer gates exists */
    int lower_bound;     /* every gate count below this is impossible */
    double seconds;      /* wall seconds the search took */
    char search[512];    /* per-k log: "k:status:seconds ..." */
    gg_proof proof;      /* shapes of k = lower_bound shown impossible
                            (line "proof", sat/exact/proof.h; k 0: none). Older
                            entries have no such line and read as none;
                            older golgens skip the line */
} gg_cache_info;

/* The cache root in use (see above) into buf. */
void gg_cache_root(const char *root, char *buf, size_t size);

/* Path of one entry. */
void gg_cache_path(const char *root, const gg_rule *rule, gg_front_kind front,
                   gg_lib lib, char *buf, size_t size);

/* 1: found and verified (net, info filled); 0: no entry; -1: an entry that
 * is unreadable, for another rule, or wrong on some row (err says which;
 * delete it or re-run 'golgen synth --force'). info may be NULL. */
int gg_cache_lookup(const char *root, const gg_rule *rule,
                    gg_front_kind front, gg_lib lib, gg_net *net,
                    gg_cache_info *info, gg_err *err);

/* Verifies net, then writes the entry atomically (temp file + rename). */
/* The folders above file `path` made where missing (path is restored). */
int gg_cache_make_dirs(char *path, gg_err *err);

int gg_cache_store(const char *root, const gg_rule *rule, gg_front_kind front,
                   gg_lib lib, const gg_net *net, const gg_cache_info *info,
                   gg_err *err);

/* Checks net against the rule's final stage for front; lib must match. */
int gg_cache_verify(const gg_rule *rule, gg_front_kind front, gg_lib lib,
                    const gg_net *net, gg_err *err);

#endif

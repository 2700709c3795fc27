/* JIT for emitted C: compile with the system compiler into a cache
 * directory keyed by a hash of compiler, flags and source, then dlopen.
 * A kernel already in the cache is loaded without compiling.
 *
 * Both come from the options, which the caller fills from gg_config
 * (runtime/base/config.h: $CC, $GOLGEN_CACHE_DIR, $XDG_CACHE_HOME, $HOME). */
#ifndef GG_JIT_H
#define GG_JIT_H

#include <stdbool.h>
#include <stddef.h>

#include "error.h"

#define GG_JIT_FLAGS "-O3 -march=native -fopenmp -shared -fPIC"

typedef struct gg_jit_opts {
    const char *cc;        /* NULL: "cc" */
    const char *flags;     /* NULL: GG_JIT_FLAGS */
    const char *extra;     /* appended to flags (e.g. -DGG_FORCE_AVX2) */
    const char *cache_dir; /* NULL: none (opening fails, saying to set
                              GOLGEN_CACHE_DIR) */
} gg_jit_opts;

typedef struct gg_jit_lib {
    void *handle;
    bool cache_hit; /* loaded without compiling */
    char path[4096];
} gg_jit_lib;

/* Compile (or find) and load src. Every failure (no compiler, compile
 * error, unwritable cache, dlopen) is an environment problem: the message
 * says which, with the compiler's first error lines. */
int gg_jit_load(const char *src, size_t len, const gg_jit_opts *o,
                gg_jit_lib *lib, gg_err *err);

/* A kernel whose source costs more to make than to find (a big rule
 * table's: half of a small run's start went to emitting and hashing
 * it): looked up by `key`, the caller's text naming everything its source
 * is made from, this build included (gg_build_id), so a cached kernel
 * loads without its source; on a miss emit() makes the source, gg_jit_load
 * compiles or finds it, and the key is remembered beside it (a-HASH, naming
 * the kernel's file). */
typedef int (*gg_jit_emit_fn)(void *ctx, char **src, size_t *len,
                              gg_err *err);
int gg_jit_load_keyed(const char *key, gg_jit_emit_fn emit, void *ctx,
                      const gg_jit_opts *o, gg_jit_lib *lib, gg_err *err);

/* A symbol of a loaded library, or NULL with err set. */
void *gg_jit_sym(const gg_jit_lib *lib, const char *name, gg_err *err);

void gg_jit_close(gg_jit_lib *lib);

/* A stamp beside a cached library saying a check (tag, e.g. "validated
 * B3/S23 v1") passed for exactly this file (its size and modification
 * time): a later load of the same file may skip the check. Stamps are
 * advisory: writing one may fail silently, and a changed file, a changed
 * tag or a missing stamp reads as not stamped. */
bool gg_jit_stamped(const gg_jit_lib *lib, const char *tag);
void gg_jit_stamp(const gg_jit_lib *lib, const char *tag);

/* 0 when the compiler runs (`cc --version`); else -1 saying so. */
int gg_jit_probe(const gg_jit_opts *o, gg_err *err);

/* The cache directory the options name, made (mkdir -p) when it is not
 * there yet. */
int gg_jit_cache_dir_made(const gg_jit_opts *o, char *buf, size_t size,
                          gg_err *err);

/* The cache directory the options name. */
int gg_jit_cache_dir(const gg_jit_opts *o, char *buf, size_t size,
                     gg_err *err);

#endif

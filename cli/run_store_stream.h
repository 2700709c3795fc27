/* golgen run --host-mem: a store run band by band into another store
 * (runtime/formats/store_stream.h) when the universe does not fit host memory. */
#ifndef GG_RUN_STORE_STREAM_H
#define GG_RUN_STORE_STREAM_H

#include <stdbool.h>
#include <stdint.h>

#include "backend.h"
#include "config.h"
#include "error.h"
#include "rule.h"

typedef struct gg_host_mem_run {
    const char *in, *out;  /* --resume IN.ggu, --store OUT.ggu */
    const char *rule;      /* --rule, which may only repeat the store's */
    const gg_backend_info *backend; /* NULL: auto */
    const gg_config *cfg;
    int64_t gens, host_mem, device_mem;
    bool progress;
} gg_host_mem_run;

/* The options that do not combine with --host-mem, refused before
 * anything runs: it needs --resume and --store, and the whole universe
 * is never in memory for -o, pictures or several devices. */
int gg_host_mem_check(const gg_host_mem_run *r, bool out, bool checkpoints,
                      bool devices, bool pictures, gg_err *err);

/* --rule given for a run of store `path` may only repeat its rule. */
int gg_cli_store_rule_check(const char *given, const gg_rule *stored,
                            const char *path, gg_err *err);

/* The run; returns the exit status (a stop signal's after the pass in
 * flight, whose store is written). */
int gg_run_host_mem(const gg_host_mem_run *r);

#endif

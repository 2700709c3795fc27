/* golgen bench's options and result, shared by cli/cmd_bench.c (the
 * dense engine: a backend's kernel on the whole grid) and
 * cli/cmd_bench_engine.c (--engine tiles and hashlife). */
#ifndef GG_CLI_CMD_BENCH_H
#define GG_CLI_CMD_BENCH_H

#include <stdbool.h>
#include <stdint.h>

#include "backend.h"
#include "cli_devices.h"
#include "engine_choice.h"
#include "gen_cells.h"
#include "rule.h"

typedef struct bench_opts {
    const char *backend_name, *rule_text;
    const gg_backend_info *backend;
    gg_rule rule;
    gg_topo topo;
    int64_t width, height, gens, seed;
    int64_t device_mem; /* --device-mem: stream through the backend */
    gg_cli_devices devices; /* --devices: bands resident on several */
    gg_backend_opts bo; /* isa and threads: backends that accept them */
    bool json;
    bool host_halos; /* --halos host: through the host (to compare) */
    gg_engine engine; /* --engine; auto resolves to dense (finish_args) */
    int64_t mem;      /* --mem: the hash tree's bytes (0: the default) */
} bench_opts;

typedef struct bench_result {
    gg_backend_timing time; /* CPU time (host-timed backends): on a shared
                               machine, cells x generations / cpu_seconds
                               x cores is what the cores would do alone */
    gg_backend_desc desc;   /* isa or device, threads, cache hit */
    const gg_backend_info *backend; /* the one that ran */
    int64_t population;
    double open_seconds; /* opening the backend: build, tuning, checks */
    gg_multi_band bands; /* --devices: what the bands did (n 0: none) */
    char engine[160];    /* tiles and hashlife: what the engine did */
    int64_t leaf_steps, nodes, tree_bytes; /* hashlife */
} bench_result;

/* --engine tiles: the soup's grid stepped by the backend's kernel through
 * active tiles (runtime/engines/tiles.h), timed as the dense bench is
 * (one untimed warm-up generation, the grid kept on a device between
 * calls). */
int gg_bench_tiles(bench_opts *o, gg_gen_cells *cells, bench_result *r,
                   int *status, gg_err *err);

/* --engine hashlife: the soup on the unbounded plane in the hash tree
 * (runtime/engines/hashlife.h), its leaves stepped by the backend; the
 * timed region is the tree's run of o->gens generations from the soup
 * (the backend opened and its kernel checked before, no warm-up: a
 * warm-up would leave memoized futures behind). */
int gg_bench_tree(bench_opts *o, gg_gen_cells *cells, bench_result *r,
                  int *status, gg_err *err);

/* The closing line (or JSON) of a tiles or hashlife bench. */
void gg_bench_engine_report(const bench_opts *o, const bench_result *r);

#endif

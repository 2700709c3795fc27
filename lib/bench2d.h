/* What lib/bench2d.c (golgen_bench_2d: its options, the dense, streamed
 * and banded runs) and lib/bench2d_engine.c (tiles and the hash tree)
 * share: one bench's state, its backend opened as the command opens it,
 * and its notes. */
#ifndef GG_LIB_BENCH2D_H
#define GG_LIB_BENCH2D_H

#include "golgen.h"

#include "backend.h"
#include "config.h"
#include "engine_choice.h"
#include "gen_cells.h"
#include "net_common.h"
#include "rule.h"

#define GG_LIB_MAX_DEVICES 64

typedef struct gg_lib_bench2d {
    golgen_bench2d_opts o;       /* the caller's, defaults filled in */
    gg_rule rule;
    gg_topo topo;
    gg_engine engine;            /* never auto once checked */
    const gg_backend_info *info; /* NULL: auto */
    gg_backend_opts bo;
    gg_config cfg;               /* bo.config; the search hook in it */
    gg_lib_search_hook hook;
    int n_devices;               /* 0: no devices given */
    int ordinal[GG_LIB_MAX_DEVICES];
    bool told_open;              /* on_open was called */
    golgen_bench2d_result *res;
} gg_lib_bench2d;

/* One line to on_note (printf-style, no newline). */
__attribute__((format(printf, 2, 3)))
void gg_lib_bench2d_note(const gg_lib_bench2d *b, const char *fmt, ...);

/* b->info (or auto) opened for b->rule with bo: its time added to the
 * result's open_seconds, auto's line kept and on_open told the first
 * time, the result's backend and description set. -1 with *code
 * (GOLGEN_ERR_*) and err. */
int gg_lib_bench2d_open(gg_lib_bench2d *b, const gg_backend_opts *bo,
                        gg_backend **out, int *code, gg_err *err);

/* Where the description of b goes in the result. */
void gg_lib_bench2d_describe(gg_lib_bench2d *b, gg_backend *be);

double gg_lib_wall_now(void);
double gg_lib_cpu_now(void);

/* --engine tiles and hashlife (lib/bench2d_engine.c): the soup's cells
 * stepped and timed; -1 with *code and err. */
int gg_lib_bench_tiles(gg_lib_bench2d *b, gg_gen_cells *cells, int *code,
                       gg_err *err);
int gg_lib_bench_tree(gg_lib_bench2d *b, gg_gen_cells *cells, int *code,
                      gg_err *err);

#endif

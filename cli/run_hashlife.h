/* golgen run --engine hashlife: a rule on the unbounded plane (two-state,
 * Generations, or a Golly rule table or tree) through the hash-tree
 * engine (runtime/engines/hashlife.h), its leaves stepped by the chosen
 * backend (a rule table's kernel) on one thread. */
#ifndef GG_RUN_HASHLIFE_H
#define GG_RUN_HASHLIFE_H

#include <stdint.h>

#include "backend.h"
#include "cli_pictures.h"
#include "config.h"
#include "pattern.h"

typedef struct gg_hl_opts {
    const char *rule;            /* --rule; NULL: the file's */
    const char *in, *out;        /* NULL: the default pattern; no output */
    const char *default_pattern; /* RLE when in is NULL */
    const gg_backend_info *backend; /* NULL: auto */
    const gg_config *cfg;
    int64_t gens, mem;           /* --gens; --mem bytes */
    bool choose;                 /* --engine auto: run only where the tree
                                    should finish first */
    bool progress;               /* --progress (or stderr a terminal) */
    const gg_cli_pictures *pics; /* --png and its options */
    /* When `choose` leaves a pattern it read to the dense engine, it is
     * handed over here (*handed set; the caller frees it), so that a
     * large file is not read twice. */
    gg_pattern *handoff;
    bool *handed;
    /* --checkpoint-every: OUT (a .mc) written every `every` generations,
     * atomically; running that file goes on from its #G generation. */
    int64_t every;
    const char *rules_dir;       /* --rules: a folder of .rule files */
    int leaf_log;                /* --tree-leaf: log2 of a leaf's side; 0:
                                    the engine's choice for the rule */
} gg_hl_opts;

/* gg_run_hashlife's answer when `choose` found the dense engine better
 * (or the rule not the tree's): nothing was run, at most one line said. */
#define GG_RUN_DENSE (-1)

/* The run: exit status (a stop signal's 130/143/129 after writing OUT
 * with the generation reached), or GG_RUN_DENSE. Auto takes the tree for
 * a rule on the unbounded plane (not B0) unless the pattern is a big
 * busy box run for few generations (the rule of thumb measured in
 * BENCHMARKS.md, "Sparse patterns"): a box of 2^22 cells or more run for
 * fewer than 4 times its longer side. */
int gg_run_hashlife(const gg_hl_opts *o);

#endif

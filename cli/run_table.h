/* golgen run and rule for Golly's rule tables and trees (.rule files,
 * gen/rulefile/rulefile.h, found by runtime/formats/rule_find.h). They run
 * on the cpu, opencl, cuda and ptx backends (the rule compiled and
 * validated: runtime/backends/table_kernel.h) or the reference; auto takes
 * cpu when its kernel opens, else the reference and says why. Other
 * backends are refused by name, as are the options these runs lack. */
#ifndef GG_RUN_TABLE_H
#define GG_RUN_TABLE_H

#include <stdbool.h>
#include <stdint.h>

#include "cli_pictures.h"
#include "config.h"
#include "pattern.h"
#include "rule_find.h"

typedef struct gg_table_run {
    const char *backend; /* as the user named it; NULL: auto */
    int64_t gens;
    bool progress;
    const char *out;     /* RLE ("-": stdout; NULL: nothing) */
    const char *refused; /* an option given that these runs lack, or NULL */
    const gg_config *cfg; /* compiler and kernel cache (NULL: none, so auto
                             falls back to the reference) */
    /* stores, checkpoints, resume and pictures where the family takes them
     * (runtime/backends/backend.h's gg_backend_takes, asked by
     * cli/cmd_run.c): --store at the end and every `every` generations,
     * --resume (the store's universe, no pattern; rule: --rule, which may
     * only repeat the store's), --png and --frames */
    const char *store, *resume, *rule;
    int64_t every;
    const gg_cli_pictures *pics;
    const char *rules_dir; /* --rules: where a resumed store's rule file is
                              looked for (after the store's own folder) */
} gg_table_run;

/* Run pattern p under the found rule: the exit status. With o->resume, f
 * and p are NULL: the store's rule (or o->rule) is found as Golly finds
 * it, beside the store, in o->rules_dir, in Golly's Rules folder. */
int gg_run_table(const gg_rule_found *f, const gg_pattern *p,
                 const gg_table_run *o);

#endif

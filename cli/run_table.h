/* golgen run and rule for Golly's rule tables and trees (.rule files,
 * gen/rulefile/rulefile.h, found by runtime/formats/rule_find.h). They run
 * on the reference only until they are compiled to kernels (issue 39
 * part 2): auto takes it and says so, any other backend is refused by
 * name, as are the options only compiled runs take. */
#ifndef GG_RUN_TABLE_H
#define GG_RUN_TABLE_H

#include <stdbool.h>
#include <stdint.h>

#include "pattern.h"
#include "rule_find.h"

typedef struct gg_table_run {
    const char *backend; /* as the user named it; NULL: auto */
    int64_t gens;
    bool progress;
    const char *out;     /* RLE ("-": stdout; NULL: nothing) */
    const char *refused; /* an option given that these runs lack, or NULL */
} gg_table_run;

/* Run pattern p under the found rule: the exit status. */
int gg_run_table(const gg_rule_found *f, const gg_pattern *p,
                 const gg_table_run *o);

/* golgen rule's description of a rule file. */
void gg_rule_print_table(const gg_rule_found *f);

#endif

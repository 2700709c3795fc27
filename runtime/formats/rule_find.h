/* Finding the .rule file of a rule named by --rule or a pattern's
 * "rule = WireWorld", as Golly finds it: NAME.rule (a '/' or '\' in NAME
 * read as '_') beside the pattern file, then in the folder given by
 * --rules, then in Golly's installed Rules folder; a :TW,H or :PW,H
 * suffix asks for a bounded grid, as for every rule. Reading the file is
 * gen/rulefile/rulefile.h's. Golly's JvN rules (JvN29, Nobili32,
 * Hutton32) are found first, built in, with no file. */
#ifndef GG_RULE_FIND_H
#define GG_RULE_FIND_H

#include <stdint.h>

#include "error.h"
#include "rule.h"
#include "rulefile.h"

#define GG_GOLLY_RULES_DIR "/usr/share/golly/Rules"
/* gg_rule_found's path for a built-in rule (no file) */
#define GG_RULE_BUILTIN_PATH "built in: Golly's JvN algorithm"

typedef struct gg_rule_found {
    gg_rulefile rf;
    char path[4096]; /* the file read, or GG_RULE_BUILTIN_PATH */
    char rule[192];  /* name and canonical suffix, as Golly writes it */
    gg_topo topo;
    int64_t width, height;
} gg_rule_found;

/* 1 with *out filled (free with gg_rule_found_free) when a file was found
 * and read; 0 when no folder holds NAME.rule (err says where it looked);
 * -1 with err when one did but it cannot be read or parsed, or the suffix
 * is bad. pattern_path and rules_dir may be NULL ("-": no folder).
 * cache_dir (the kernel cache's folder, or NULL: none) keeps the file's
 * decision graph for the next run (runtime/formats/rule_dag_cache.h). */
int gg_rule_find(const char *rule, const char *pattern_path,
                 const char *rules_dir, const char *cache_dir,
                 gg_rule_found *out, gg_err *err);

void gg_rule_found_free(gg_rule_found *f);

#endif

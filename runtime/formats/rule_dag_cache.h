/* A Golly rule file's decision graph kept between runs. Building the
 * graph of a large @TABLE (gen/rulefile/) is most of a small table run's
 * start (Evoloop's 1.2 ms of a 4.2 ms one-generation run), and the same
 * file gives the same graph every time, so the graph is written beside
 * the kernel cache, keyed by this build and the file's bytes, and read
 * back instead of parsed. A cache file that does not hold a whole,
 * well-formed graph is ignored (and rebuilt): never trusted. */
#ifndef GG_RULE_DAG_CACHE_H
#define GG_RULE_DAG_CACHE_H

#include <stdbool.h>
#include <stddef.h>

#include "rulefile.h"

/* The graph of the rule file whose text is text[0..len) from cache_dir
 * (the kernel cache's, gg_config's cache_dir): true with *rf filled (free
 * with gg_rulefile_free) on a hit; false on a miss, an empty cache_dir,
 * a build with no id or a damaged entry, *rf then empty. */
bool gg_rule_dag_load(const char *cache_dir, const char *text, size_t len,
                      gg_rulefile *rf);

/* Keep rf, parsed from that text, for the next run. Best effort: a cache
 * that cannot be written only costs the next run its parse. */
void gg_rule_dag_save(const char *cache_dir, const char *text, size_t len,
                      const gg_rulefile *rf);

#endif

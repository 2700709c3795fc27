#include "rule_dag_cache.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "atomic_file.h"
#include "build_info.h"
#include "hash128.h"

#define DAG_MAGIC "GGRFDAG1"

/* Everything of a gg_rulefile but its flat array, which follows it. The
 * same build writes and reads it (the build's id is in the key), so the
 * struct's own layout is the format. */
typedef struct dag_header {
    char magic[8];
    uint64_t key[2];  /* the entry's key again: a file renamed or mixed up
                         is not taken for another's */
    uint64_t text_len;
    char name[128];
    char symmetries[24];
    int32_t n_states, nbhd, n_inputs;
    uint8_t is_tree, builtin, reads[9];
    int64_t n_transitions, n_expanded, n_nodes;
    uint32_t root;
} dag_header;

/* The entry's key and file name; false where there is no cache (no
 * folder, or a build without an id, whose parser could differ). */
static bool entry(const char *dir, const char *text, size_t len,
                  uint64_t key[2], char *path, size_t size)
{
    char id[96];
    if (!dir || !*dir || !gg_build_id(id, sizeof id))
        return false;
    key[0] = 0x6a09e667f3bcc908ull, key[1] = 0xbb67ae8584caa73bull;
    gg_hash128(key, id, strlen(id));
    gg_hash128(key, text, len);
    int n = snprintf(path, size, "%s/rule-%016llx%016llx.dag", dir,
                     (unsigned long long)key[0], (unsigned long long)key[1]);
    return n > 0 && (size_t)n < size;
}

/* Whether h and flat describe a graph gg_rulefile_lookup can walk: every
 * entry of a node above the last level the offset of a node, every one
 * of a last-level node a state, each node at one level only. */
static bool well_formed(const dag_header *h, const uint32_t *flat)
{
    int64_t ns = h->n_states, total = h->n_nodes * ns;
    if (h->root % ns || h->root >= total)
        return false;
    int8_t *level = malloc((size_t)h->n_nodes);
    int64_t *stack = malloc((size_t)h->n_nodes * sizeof *stack);
    bool ok = level && stack;
    int64_t top = 0;
    if (ok) {
        memset(level, -1, (size_t)h->n_nodes);
        level[h->root / ns] = 0;
        stack[top++] = h->root / ns;
    }
    while (ok && top) {
        int64_t v = stack[--top];
        bool last = level[v] == h->n_inputs - 1;
        for (int64_t e = 0; e < ns && ok; e++) {
            uint32_t x = flat[v * ns + e];
            if (last) {
                ok = x < (uint32_t)ns;
                continue;
            }
            ok = x % ns == 0 && x < total;
            if (!ok)
                break;
            int64_t c = x / ns;
            if (level[c] < 0) {
                level[c] = (int8_t)(level[v] + 1);
                stack[top++] = c;
            } else {
                ok = level[c] == level[v] + 1;
            }
        }
    }
    free(level);
    free(stack);
    return ok;
}

static bool header_ok(const dag_header *h, const uint64_t key[2],
                      size_t text_len)
{
    bool reads_ok = h->n_inputs >= 1 && h->n_inputs <= 9;
    for (int i = 0; reads_ok && i < h->n_inputs; i++)
        reads_ok = h->reads[i] < h->n_inputs;
    return !memcmp(h->magic, DAG_MAGIC, 8) && h->key[0] == key[0] &&
           h->key[1] == key[1] && h->text_len == text_len && reads_ok &&
           h->n_states >= 2 && h->n_states <= 256 && h->n_nodes > 0 &&
           h->n_nodes <= (int64_t)(UINT32_MAX / 256) &&
           memchr(h->name, 0, sizeof h->name) &&
           memchr(h->symmetries, 0, sizeof h->symmetries);
}

bool gg_rule_dag_load(const char *cache_dir, const char *text, size_t len,
                      gg_rulefile *rf)
{
    uint64_t key[2];
    char path[4200];
    memset(rf, 0, sizeof *rf);
    if (!entry(cache_dir, text, len, key, path, sizeof path))
        return false;
    FILE *f = fopen(path, "rb");
    if (!f)
        return false;
    dag_header h;
    uint32_t *flat = NULL;
    bool ok = fread(&h, sizeof h, 1, f) == 1 && header_ok(&h, key, len);
    size_t n = ok ? (size_t)h.n_nodes * (size_t)h.n_states : 0;
    if (ok) {
        flat = malloc(n * sizeof *flat);
        ok = flat && fread(flat, sizeof *flat, n, f) == n &&
             fgetc(f) == EOF && well_formed(&h, flat);
    }
    fclose(f);
    if (!ok) {
        free(flat);
        return false;
    }
    memcpy(rf->name, h.name, sizeof rf->name);
    memcpy(rf->symmetries, h.symmetries, sizeof rf->symmetries);
    rf->is_tree = h.is_tree, rf->builtin = h.builtin;
    rf->n_states = h.n_states, rf->nbhd = (gg_rf_nbhd)h.nbhd;
    rf->n_transitions = h.n_transitions, rf->n_expanded = h.n_expanded;
    rf->n_inputs = h.n_inputs;
    memcpy(rf->reads, h.reads, sizeof rf->reads);
    rf->n_nodes = h.n_nodes, rf->flat = flat, rf->root = h.root;
    return true;
}

void gg_rule_dag_save(const char *cache_dir, const char *text, size_t len,
                      const gg_rulefile *rf)
{
    uint64_t key[2];
    char path[4200];
    gg_err ignored;
    gg_atomic_file f;
    if (!rf->flat || !entry(cache_dir, text, len, key, path, sizeof path) ||
        gg_make_dirs(cache_dir, &ignored) ||
        gg_atomic_open_lazy(path, &f, &ignored))
        return;
    dag_header h;
    memset(&h, 0, sizeof h);
    memcpy(h.magic, DAG_MAGIC, 8);
    h.key[0] = key[0], h.key[1] = key[1], h.text_len = len;
    memcpy(h.name, rf->name, sizeof h.name);
    memcpy(h.symmetries, rf->symmetries, sizeof h.symmetries);
    h.n_states = rf->n_states, h.nbhd = rf->nbhd, h.n_inputs = rf->n_inputs;
    h.is_tree = rf->is_tree, h.builtin = rf->builtin;
    memcpy(h.reads, rf->reads, sizeof h.reads);
    h.n_transitions = rf->n_transitions, h.n_expanded = rf->n_expanded;
    h.n_nodes = rf->n_nodes, h.root = rf->root;
    size_t n = (size_t)rf->n_nodes * (size_t)rf->n_states;
    if (gg_atomic_write(&f, &h, sizeof h, &ignored) ||
        gg_atomic_write(&f, rf->flat, n * sizeof *rf->flat, &ignored))
        return; /* gg_atomic_write aborted the file */
    gg_atomic_commit(&f, &ignored);
}

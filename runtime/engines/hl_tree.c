/* The node store: hash-consing, leaves, the byte budget and the
 * collector (runtime/engines/hl_tree.h). */
#include "hl_tree.h"

#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

static uint64_t mix(uint64_t h)
{
    h ^= h >> 33;
    h *= 0xff51afd7ed558ccdull;
    h ^= h >> 33;
    h *= 0xc4ceb9fe1a85ec53ull;
    return h ^ (h >> 33);
}

/* Four independent multiplies, folded: a join's hash is computed for
 * every lookup, and three chained mixes (the old hash) cost 4-5% of a
 * run; the chains stay as short (1.13 probes a lookup on jagged2). */
static uint64_t node_hash(int level, hl_id nw, hl_id ne, hl_id sw, hl_id se)
{
    uint64_t h = nw * 0x9e3779b97f4a7c15ull + ne * 0xc2b2ae3d27d4eb4full +
                 sw * 0x165667b19e3779f9ull + se * 0xd6e8feb86659fd93ull +
                 (uint64_t)level * 0xff51afd7ed558ccdull;
    return h ^ (h >> 32);
}

/* Four independent multiply chains over the rows, mixed at the end: a
 * leaf hash is computed for every leaf square's result (a full mix per
 * row cost 2-3x more). */
static uint64_t leaf_hash(const uint64_t *rows, int lw)
{
    uint64_t a = 0x51ed270b27e3a1c9ull, b = 0x9e3779b97f4a7c15ull,
             c = 0xc2b2ae3d27d4eb4full, d = 0x165667b19e3779f9ull;
    int i = 0;
    for (; i + 4 <= lw; i += 4) {
        a = (a ^ rows[i]) * 0xff51afd7ed558ccdull;
        b = (b ^ rows[i + 1]) * 0xc4ceb9fe1a85ec53ull;
        c = (c ^ rows[i + 2]) * 0xff51afd7ed558ccdull;
        d = (d ^ rows[i + 3]) * 0xc4ceb9fe1a85ec53ull;
        a ^= a >> 29, b ^= b >> 31, c ^= c >> 27, d ^= d >> 33;
    }
    for (; i < lw; i++)
        a = mix(a ^ rows[i]);
    return mix(a ^ mix(b ^ mix(c ^ mix(d))));
}

/* ---- arenas: node[] and leaf[] grow in place inside address space
 * reserved up front (no copy at growth, page-aligned), and take
 * transparent huge pages where the kernel gives them on request: the
 * tree's lookups are cache and TLB misses across tens of megabytes
 * (jagged2: 3.7M joins over 25 MB, ~88% of them hits). With 32-byte
 * nodes this took 10-13% of the CPU time off puzzle.mc and
 * unlimited-novelty.mc (65536 generations; jagged2 and catacryst within
 * the noise; BENCHMARKS.md "Sparse patterns"). Where the reservation
 * fails (an address-space limit), the arrays fall back to realloc. */

#define HL_HUGE ((size_t)2 << 20)

/* The first bytes of an arena stay on 4 KiB pages: a huge page is zeroed
 * whole at its first touch (0.1 ms on the VM), which a small pattern's
 * run (milliseconds in all) would pay for the few nodes it makes; past
 * them a huge page costs a seventh of its 512 small pages' faults (1.35
 * us each on the VM; loafer-gun's 1000 generations took 900 of them for
 * its nodes). */
#define HL_SMALL_PAGES ((size_t)256 << 10)

/* `bytes` of address space (a multiple of HL_HUGE), placed so that the
 * huge pages begin right after its first `small` bytes (a huge page
 * must be aligned), those past them on huge pages where the kernel
 * gives them on request (a hint; refused is fine). */
static void *map_bytes(size_t bytes, size_t small)
{
    size_t extra = HL_HUGE;
    char *p = mmap(NULL, bytes + extra, PROT_READ | PROT_WRITE,
                   MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (p == MAP_FAILED)
        return NULL;
    uintptr_t at = ((uintptr_t)p + small + HL_HUGE - 1) / HL_HUGE * HL_HUGE -
                   small;
    char *base = (char *)at;
    if (base > p)
        munmap(p, (size_t)(base - p));
    if (p + bytes + extra > base + bytes)
        munmap(base + bytes, (size_t)(p + bytes + extra - (base + bytes)));
#ifdef MADV_HUGEPAGE
    if (bytes > small)
        madvise(base + small, bytes - small, MADV_HUGEPAGE);
#endif
    return base;
}

/* Each array may take the whole budget (it never does: the other and
 * the table share it), so each reserves that much address space. */
void hl_store_init(gg_hl *h)
{
    size_t budget = (size_t)(h->mem_limit > 0 ? h->mem_limit : 0);
    budget = (budget + HL_HUGE - 1) / HL_HUGE * HL_HUGE + HL_HUGE;
    if ((h->node = map_bytes(budget, HL_SMALL_PAGES)))
        h->node_reserved = budget;
    if ((h->leaf = map_bytes(budget, HL_SMALL_PAGES)))
        h->leaf_reserved = budget;
}

void *hl_arena(const gg_hl *h, size_t *bytes)
{
    size_t budget = (size_t)(h->mem_limit > 0 ? h->mem_limit : 0);
    budget = (budget + HL_HUGE - 1) / HL_HUGE * HL_HUGE + HL_HUGE;
    void *a = map_bytes(budget, 0);
    *bytes = a ? budget : 0;
    return a;
}

void hl_scratch_free(gg_hl *h)
{
    void *a[4] = {h->frame, h->waiter, h->req, h->ready};
    size_t *m[4] = {&h->frame_mapped, &h->waiter_mapped, &h->req_mapped,
                    &h->ready_mapped};
    for (int i = 0; i < 4; i++) {
        if (*m[i])
            munmap(a[i], *m[i]);
        else
            free(a[i]);
        *m[i] = 0;
    }
    h->frame = NULL, h->waiter = NULL, h->req = NULL, h->ready = NULL;
    h->cap_frames = 0, h->cap_waiters = 0, h->cap_req = 0, h->cap_ready = 0;
}

static void free_table(hl_id *b, size_t mapped)
{
    if (mapped)
        munmap(b, mapped);
    else
        free(b);
}

void hl_store_free(gg_hl *h)
{
    if (h->node_reserved)
        munmap(h->node, h->node_reserved);
    else
        free(h->node);
    if (h->leaf_reserved)
        munmap(h->leaf, h->leaf_reserved);
    else
        free(h->leaf);
    free_table(h->bucket, h->bucket_mapped);
    h->node = NULL, h->leaf = NULL, h->bucket = NULL;
}

/* A zeroed bucket table: mapped (huge pages, zero for free) when large,
 * huge pages from its start: a rehash writes all of it, and a lookup's
 * bucket is a random one (with 4 KiB pages a 4 MiB table is 1024 TLB
 * entries, and every lookup waited on its bucket's load). From a
 * quarter of a huge page up one huge page's zeroing costs less than the
 * small pages' faults (a 1 MiB table: 256 of them, 0.35 ms on the VM,
 * against 0.1). */
static hl_id *new_table(uint64_t n, size_t *mapped)
{
    size_t bytes = (size_t)n * sizeof(hl_id);
    size_t whole = (bytes + HL_HUGE - 1) / HL_HUGE * HL_HUGE;
    *mapped = 0;
    if (bytes >= HL_HUGE / 4) {
        hl_id *b = map_bytes(whole, 0);
        if (b) {
            *mapped = whole;
            return b;
        }
    }
    return calloc(n, sizeof(hl_id));
}

int hl_table_init(gg_hl *h, uint64_t n)
{
    h->bucket = new_table(n, &h->bucket_mapped);
    h->n_buckets = h->bucket ? n : 0;
    return h->bucket ? 0 : -1;
}

int64_t hl_bytes(const gg_hl *h)
{
    return h->cap_nodes * (int64_t)(sizeof(hl_node) + sizeof(int64_t)) +
           h->cap_leaves * h->lw * 8 + (int64_t)h->n_buckets * 4 +
           h->small_bytes;
}

/* Grow an array of `cap` items of `size` bytes towards twice, within the
 * budget; false when no item more fits (h->full). */
static bool grow(gg_hl *h, void **arr, int64_t *cap, size_t size,
                 int64_t extra_per_item, size_t reserved)
{
    int64_t room = (h->mem_limit - hl_bytes(h)) /
                   ((int64_t)size + extra_per_item);
    int64_t want = *cap ? *cap : 1024;
    if (want > room)
        want = room;
    if (reserved && (size_t)(*cap + want) * size > reserved)
        want = (int64_t)(reserved / size) - *cap;
    if (want < 1 || *cap + want > (int64_t)UINT32_MAX) {
        h->full = true;
        return false;
    }
    if (reserved) { /* in place: the pages come as they are touched */
        *cap += want;
        return true;
    }
    void *a = realloc(*arr, (size_t)(*cap + want) * size);
    if (!a) {
        h->full = true;
        return false;
    }
    *arr = a;
    *cap += want;
    return true;
}

/* What a node's chain is chosen by: a leaf's stored hash, a node's
 * children's (both computed, one kept: a branch on the level would be
 * mispredicted for a leaf in every few nodes a rehash relinks). */
static uint64_t key_of(const gg_hl *h, hl_id n)
{
    const hl_node *d = &h->node[n];
    uint64_t k = node_hash(d->level, d->child[0], d->child[1], d->child[2],
                           d->child[3]);
    return d->level == h->leaf_log ? d->child[1] : k;
}

/* Every live node linked into the (empty) table, in id order: the keys
 * of 64 at a time computed and their buckets' loads started before any
 * is linked. A node's key is 4 multiplies (no stored hash), and with
 * them in the loop fewer buckets' misses overlapped: jagged2's rehashes
 * took twice as long. A leaf's stored hash is whole in 32 bits while
 * the table has at most 2^32 buckets (ids are 32-bit: it never has
 * more). */
static void relink_all(gg_hl *h)
{
    enum { CHUNK = 64 };
    uint64_t key[CHUNK];
    hl_id id[CHUNK];
    const uint64_t mask = h->n_buckets - 1;
    for (int64_t i0 = 1; i0 < h->n_nodes; i0 += CHUNK) {
        int64_t end = h->n_nodes - i0 < CHUNK ? h->n_nodes : i0 + CHUNK;
        int m = 0;
        for (int64_t i = i0; i < end; i++)
            if (h->node[i].flags & HL_LIVE) {
                id[m] = (hl_id)i;
                key[m] = key_of(h, (hl_id)i) & mask;
                __builtin_prefetch(&h->bucket[key[m]], 1);
                m++;
            }
        for (int k = 0; k < m; k++) {
            h->node[id[k]].next = h->bucket[key[k]];
            h->bucket[key[k]] = id[k];
        }
    }
}

static void rehash(gg_hl *h, uint64_t buckets)
{
    size_t mapped;
    hl_id *b = new_table(buckets, &mapped);
    if (!b)
        return; /* keep the old table: longer chains, still right */
    free_table(h->bucket, h->bucket_mapped);
    h->bucket = b;
    h->bucket_mapped = mapped;
    h->n_buckets = buckets;
    relink_all(h);
}

static hl_id new_node(gg_hl *h)
{
    hl_id n = h->free_nodes;
    if (n) {
        h->free_nodes = h->node[n].next;
    } else {
        if (h->n_nodes >= h->cap_nodes) {
            int64_t cap = h->cap_nodes;
            if (!grow(h, (void **)&h->node, &h->cap_nodes, sizeof(hl_node),
                      sizeof(int64_t), h->node_reserved))
                return 0;
            /* populations are counted only once asked for (hl_population
             * makes the array): a run that never asks writes no second
             * cache line per new node */
            int64_t *p = h->pop ? realloc(h->pop, (size_t)h->cap_nodes *
                                                      sizeof *p)
                                : NULL;
            if (h->pop && !p) {
                h->cap_nodes = cap; /* the nodes array may stay larger */
                h->full = true;
                return 0;
            }
            if (p)
                h->pop = p;
        }
        n = (hl_id)h->n_nodes++;
    }
    memset(&h->node[n], 0, sizeof h->node[n]);
    h->node[n].flags = HL_LIVE;
    if (h->pop)
        h->pop[n] = -1;
    h->live_nodes++;
    /* 4x while the table is under 16 MiB: each rehash relinks every node
     * into a table of fresh pages (jagged2, 65536 generations: 3-5% less
     * CPU time than doubling from 4096 buckets), then 2x (a table a byte
     * budget can still afford) */
    if ((uint64_t)h->live_nodes * 2 > h->n_buckets) {
        uint64_t by = h->n_buckets < ((uint64_t)1 << 22) ? 4 : 2;
        if (hl_bytes(h) + (int64_t)(h->n_buckets * 4 * (by - 1)) >
            h->mem_limit)
            by = 2;
        if (hl_bytes(h) + (int64_t)h->n_buckets * 4 <= h->mem_limit)
            rehash(h, h->n_buckets * by);
    }
    return n;
}

static void link_node(gg_hl *h, hl_id n, uint64_t hash)
{
    uint64_t k = hash & (h->n_buckets - 1);
    h->node[n].next = h->bucket[k];
    h->bucket[k] = n;
}

static int64_t new_leaf_block(gg_hl *h)
{
    if (h->free_leaves) {
        int64_t b = h->free_leaves;
        h->free_leaves = (uint32_t)h->leaf[(size_t)b * (size_t)h->lw];
        return b;
    }
    if (h->n_leaves >= h->cap_leaves &&
        !grow(h, (void **)&h->leaf, &h->cap_leaves, (size_t)h->lw * 8, 0,
              h->leaf_reserved))
        return -1;
    return h->n_leaves++;
}

static hl_id leaf_hashed(gg_hl *h, const uint64_t *rows, uint64_t hash)
{
    for (hl_id n = h->bucket[hash & (h->n_buckets - 1)]; n;
         n = h->node[n].next)
        if (h->node[n].level == h->leaf_log &&
            h->node[n].child[1] == (uint32_t)hash &&
            !memcmp(hl_rows(h, n), rows, (size_t)h->lw * 8))
            return n;
    int64_t b = new_leaf_block(h);
    if (b < 0)
        return 0;
    hl_id n = new_node(h);
    if (!n) {
        h->leaf[(size_t)b * (size_t)h->lw] = h->free_leaves;
        h->free_leaves = (uint32_t)b;
        return 0;
    }
    memcpy(h->leaf + (size_t)b * (size_t)h->lw, rows, (size_t)h->lw * 8);
    h->node[n].level = h->leaf_log;
    h->node[n].child[0] = (hl_id)b;
    h->node[n].child[1] = (uint32_t)hash;
    h->live_leaves++;
    link_node(h, n, hash);
    return n;
}

hl_id hl_leaf(gg_hl *h, const uint64_t *rows)
{
    return leaf_hashed(h, rows, leaf_hash(rows, h->lw));
}

void hl_leaves(gg_hl *h, int n, const uint64_t *rows, hl_id *out)
{
    uint64_t hash[16];
    const uint64_t mask = h->n_buckets - 1;
    for (int i = 0; i < n; i++) {
        hash[i] = leaf_hash(rows + (size_t)i * (size_t)h->lw, h->lw);
        __builtin_prefetch(&h->bucket[hash[i] & mask]);
    }
    for (int i = 0; i < n; i++)
        __builtin_prefetch(&h->node[h->bucket[hash[i] & mask]]);
    for (int i = 0; i < n; i++) { /* the first candidate's first rows */
        hl_id c = h->bucket[hash[i] & mask];
        if (c && h->node[c].level == h->leaf_log)
            __builtin_prefetch(hl_rows(h, c));
    }
    for (int i = 0; i < n; i++)
        out[i] = leaf_hashed(h, rows + (size_t)i * (size_t)h->lw, hash[i]);
}

/* The node of `level` with children q, found in its chain (from
 * `hash`) or made. Children's ids name their level, so equal children
 * are the whole test. A node found past its chain's head moves to the
 * head: the nodes a step asks for again are the ones it just asked for,
 * and each probe past the head is a cache miss that no prefetch
 * covered (jagged2, 65536 generations: 5.37M probes for 4.62M lookups,
 * 4.34M moved). */
static hl_id join_hashed(gg_hl *h, int level, const hl_id q[4],
                         uint64_t hash)
{
    hl_id *head = &h->bucket[hash & (h->n_buckets - 1)];
    for (hl_id *at = head, n = *head; n; at = &h->node[n].next, n = *at) {
        hl_node *d = &h->node[n];
        if (d->child[0] == q[0] && d->child[1] == q[1] &&
            d->child[2] == q[2] && d->child[3] == q[3]) {
            if (at != head) {
                *at = d->next;
                d->next = *head;
                *head = n;
            }
            return n;
        }
    }
    hl_id n = new_node(h);
    if (!n)
        return 0;
    hl_node *d = &h->node[n];
    d->level = (int8_t)level;
    memcpy(d->child, q, sizeof d->child);
    link_node(h, n, hash);
    return n;
}

hl_id hl_join(gg_hl *h, hl_id nw, hl_id ne, hl_id sw, hl_id se)
{
    if (!nw || !ne || !sw || !se)
        return 0; /* a part ran out of budget */
    int level = h->node[nw].level + 1;
    const hl_id q[4] = {nw, ne, sw, se};
    return join_hashed(h, level, q, node_hash(level, nw, ne, sw, se));
}

/* At most HL_JOIN_CHUNK lookups in flight: each phase's loads (buckets,
 * then chain heads) issued for all of them before the first is read, so
 * their cache misses overlap. */
#define HL_JOIN_CHUNK 64

void hl_joins(gg_hl *h, int n, const int *level, const hl_id (*q)[4],
              hl_id *out)
{
    uint64_t hash[HL_JOIN_CHUNK];
    for (int i0 = 0; i0 < n; i0 += HL_JOIN_CHUNK) {
        int m = n - i0 < HL_JOIN_CHUNK ? n - i0 : HL_JOIN_CHUNK;
        const hl_id (*c)[4] = q + i0;
        const uint64_t mask = h->n_buckets - 1;
        for (int i = 0; i < m; i++) {
            hash[i] = node_hash(level[i0 + i], c[i][0], c[i][1], c[i][2],
                                c[i][3]);
            __builtin_prefetch(&h->bucket[hash[i] & mask]);
        }
        for (int i = 0; i < m; i++)
            __builtin_prefetch(&h->node[h->bucket[hash[i] & mask]]);
        for (int i = 0; i < m; i++)
            out[i0 + i] = c[i][0] && c[i][1] && c[i][2] && c[i][3]
                              ? join_hashed(h, level[i0 + i], c[i], hash[i])
                              : 0;
    }
}

hl_id hl_empty(gg_hl *h, int level)
{
    if (h->empty[level])
        return h->empty[level];
    hl_id n;
    if (level == h->leaf_log) {
        uint64_t zero[HL_MAX_LW] = {0};
        n = hl_leaf(h, zero);
    } else {
        hl_id e = hl_empty(h, level - 1);
        n = hl_join(h, e, e, e, e);
    }
    h->empty[level] = n;
    return n;
}

/* The middle half of four leaves (a 2-leaf square): its rows. */
static void leaf_centre_rows(const gg_hl *h, const hl_id q[4],
                             uint64_t *rows)
{
    const int half = h->leaf_side / 2;
    for (int y = 0; y < h->lw; y++) { /* plane by plane */
        int top = y % h->leaf_side < half; /* the upper leaves, then the lower */
        const uint64_t *l = hl_rows(h, q[top ? 0 : 2]);
        const uint64_t *r = hl_rows(h, q[top ? 1 : 3]);
        int ly = top ? y + half : y - half;
        rows[y] = ((l[ly] >> half) | (r[ly] << (h->leaf_side - half))) &
                  h->leaf_mask;
    }
}

static hl_id leaf_centre(gg_hl *h, const hl_id q[4])
{
    uint64_t rows[HL_MAX_LW];
    leaf_centre_rows(h, q, rows);
    return hl_leaf(h, rows);
}

/* Leaf centres 16 at a time (hl_leaves: their lookups overlap). */
static void leaf_centres(gg_hl *h, int n, const hl_id (*q)[4], hl_id *out)
{
    uint64_t rows[16 * HL_MAX_LW];
    for (int i0 = 0; i0 < n; i0 += 16) {
        int m = n - i0 < 16 ? n - i0 : 16, k = 0;
        int at[16];
        for (int i = 0; i < m; i++) {
            const hl_id *c = q[i0 + i];
            out[i0 + i] = 0;
            if (c[0] && c[1] && c[2] && c[3]) {
                leaf_centre_rows(h, c, rows + (size_t)k * (size_t)h->lw);
                at[k++] = i0 + i;
            }
        }
        hl_id got[16];
        hl_leaves(h, k, rows, got);
        for (int i = 0; i < k; i++)
            out[at[i]] = got[i];
    }
}

void hl_centres(gg_hl *h, int n, const int *level, const hl_id (*q)[4],
                hl_id *out)
{
    /* the leaf-level ones first, then the others' grandchildren joined
     * (at most HL_JOIN_CHUNK at a time: the loads of a chunk overlap) */
    hl_id lq[HL_JOIN_CHUNK][4], g[HL_JOIN_CHUNK][4], got[HL_JOIN_CHUNK];
    int lat[HL_JOIN_CHUNK], gat[HL_JOIN_CHUNK], glv[HL_JOIN_CHUNK];
    for (int i0 = 0; i0 < n; i0 += HL_JOIN_CHUNK) {
        int m = n - i0 < HL_JOIN_CHUNK ? n - i0 : HL_JOIN_CHUNK;
        int nl = 0, ng = 0;
        for (int i = 0; i < m; i++) {
            const hl_id *c = q[i0 + i];
            if (level[i0 + i] == h->leaf_log) {
                memcpy(lq[nl], c, sizeof lq[nl]);
                lat[nl++] = i0 + i;
                continue;
            }
            for (int k = 0; k < 4; k++)
                __builtin_prefetch(&h->node[c[k]]);
            gat[ng] = i0 + i;
            glv[ng++] = level[i0 + i];
        }
        if (nl) {
            leaf_centres(h, nl, (const hl_id (*)[4])lq, got);
            for (int i = 0; i < nl; i++)
                out[lat[i]] = got[i];
        }
        for (int i = 0; i < ng; i++)
            for (int k = 0; k < 4; k++) {
                hl_id c = q[gat[i]][k];
                g[i][k] = c ? h->node[c].child[3 - k] : 0;
            }
        hl_joins(h, ng, glv, (const hl_id (*)[4])g, got);
        for (int i = 0; i < ng; i++)
            out[gat[i]] = got[i];
    }
}

hl_id hl_centre(gg_hl *h, hl_id n)
{
    hl_id q[4];
    memcpy(q, h->node[n].child, sizeof q);
    if (h->node[n].level == h->leaf_log + 1)
        return leaf_centre(h, q);
    return hl_join(h, h->node[q[0]].child[3], h->node[q[1]].child[2],
                   h->node[q[2]].child[1], h->node[q[3]].child[0]);
}

static void mark(gg_hl *h, hl_id n)
{
    if (!n || (h->node[n].flags & HL_MARK))
        return;
    h->node[n].flags |= HL_MARK;
    if (h->node[n].level > h->leaf_log)
        for (int i = 0; i < 4; i++)
            mark(h, h->node[n].child[i]);
}

static void free_node(gg_hl *h, hl_id n)
{
    hl_node *d = &h->node[n];
    if (d->level == h->leaf_log) {
        h->leaf[(size_t)d->child[0] * (size_t)h->lw] = h->free_leaves;
        h->free_leaves = d->child[0];
        h->live_leaves--;
    }
    d->flags = 0;
    d->next = h->free_nodes;
    h->free_nodes = n;
    h->live_nodes--;
}

void hl_collect(gg_hl *h)
{
    mark(h, h->root);
    for (int l = 0; l <= HL_MAX_LEVEL; l++)
        mark(h, h->empty[l]);
    for (int64_t i = 1; i < h->n_nodes; i++) {
        hl_node *d = &h->node[i];
        if (d->flags == HL_LIVE)
            free_node(h, (hl_id)i);
        d->flags &= HL_LIVE;
        d->res[0] = d->res[1] = 0;
    }
    memset(h->bucket, 0, h->n_buckets * sizeof *h->bucket);
    relink_all(h);
    h->full = false;
    h->stats.collections++;
}

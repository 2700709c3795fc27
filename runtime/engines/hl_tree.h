/* The hash-tree engine's node store (runtime/engines/hashlife.h): for
 * hl_tree.c, hl_step.c and hl_io.c only. Nodes are numbered (0: none);
 * a node of level h->leaf_log is a leaf, whose cells are h->leaf_side rows of
 * h->leaf_side bits (cell x of a row is bit x, as golgen's grids) per state
 * plane (bit p of a cell's state in plane p: one plane for two-state
 * rules, ceil(log2 C) for Generations), the planes one after the other in
 * the leaf array's block child[0]. */
#ifndef GG_HL_TREE_H
#define GG_HL_TREE_H

#include "gen_cells.h"
#include "hashlife.h"

typedef uint32_t hl_id;
typedef struct hl_small hl_small;

/* Words of the largest leaf block (8 planes: 256 states). */
#define HL_MAX_LW (GG_GEN_CELLS_MAX_PLANES << HL_LEAF_LOG_MAX)

/* 32 bytes, and the array starts on a page (hl_tree.c's arenas): a node
 * is one cache line's half, never two lines (at 28 bytes, 3 in 7 nodes
 * straddled two, and a lookup is a cache miss per line).
 *
 * Two memoized results (hl_step.c): res[0] the centre 2^(level-2)
 * generations on (HashLife's own step, which every count's pass asks
 * of some nodes and which stays valid across passes), res[1] any other
 * step code's (a step of a count asks one code a level besides it:
 * with one slot the two evicted each other, and demonoid's 1000
 * generations stepped 3x the leaf squares). A leaf has no results; its
 * child[1] holds its hash's low bits, which a lookup compares before
 * its rows (128+ bytes); a node's hash is its children's, recomputed
 * by a rehash (4 multiplies). */
typedef struct hl_node {
    hl_id child[4];  /* nw ne sw se; a leaf: its row block, its hash */
    hl_id next;      /* hash chain */
    hl_id res[2];    /* memoized centres (res_j's codes); 0 none */
    int8_t res_j[2];
    int8_t level;
    uint8_t flags;   /* HL_LIVE (0: on the free list), HL_MARK */
} hl_node;

#define HL_LIVE 1
#define HL_MARK 2

/* A result being computed (hl_step.c's breadth-first recursion): node n's
 * centre step code j on. Stage 0: a leaf square waiting in a batch;
 * 1: its nine sub-results coming; 2: the four of the second half-step
 * coming. Frame 0 is the step's own result. */
typedef struct hl_frame {
    hl_id n;
    hl_id r[9];       /* stage 1: the nine; stage 2: the four */
    int8_t j, stage, pending;
    int8_t slot;      /* the part of `parent` the result is */
    int8_t level;     /* n's: a frame advanced to its second half reads
                         no node (its node's line is a cache miss by
                         then, and wanted only at the frame's end) */
    uint32_t parent;  /* the frame that started it (0: the step's own);
                         held here, as every frame has one, where a
                         waiter record each cost a third list */
    uint32_t waiters; /* others who want the result (a part wanted while
                         in flight): a waiter index, 0 none */
} hl_frame;

typedef struct hl_waiter {
    uint32_t frame, next;
    uint32_t slot;
} hl_waiter;

typedef struct hl_request {
    hl_id n;
    uint32_t frame, slot;
    int j;
} hl_request;

/* The tree's time goes to hash-table lookups, each two dependent cache
 * misses (bucket, node); one frame's joins are 1 to 5 at a time, so
 * frames are opened (their nine squares made) and advanced (their parts
 * joined) HL_FRAME_BATCH at a time, the lookups of all of them in flight
 * together (hl_joins): 16 took a quarter off jagged2's and primes.mc's
 * CPU time, 32 another 5%. */
#define HL_FRAME_BATCH 32

/* A node's result slot while a frame computes it: res[s] is the frame,
 * res_j[s] HL_BUSY + j. */
#define HL_BUSY 64

/* A step code (a frame's j, a node's res_j) is j for 2^j generations,
 * or HL_ODD for the count a step of h->odd_gens generations (not a power
 * of two) asks of a node of its level (hl_step.c's gens_of): one count
 * a level, so one code holds it. */
#define HL_ODD 62

/* Leaf squares wait by code: 2^j for j < leaf_log, and HL_ODD's at
 * index leaf_log. */
#define HL_QUEUES (HL_LEAF_LOG_MAX + 1)

struct gg_hl {
    bool has_rule;               /* rule is set (gg_hl_new), else only
                                    the stepper's states are known */
    gg_rule rule;
    char rule_text[256];
    int states;                  /* a cell's states: 2 .. 256 */
    gg_hl_leaf_stepper leaves;   /* steps batches of leaf squares */
    gg_backend *backend;         /* gg_hl_new's (leaves.ctx then) */
    gg_backend *odd_backend;     /* a B0 rule's steps from odd generations
                                    (gg_hl_set_odd_backend); NULL: one rule */
    int step_parity;             /* the generation the step in flight
                                    starts from, mod 2 */
    int single_parity;           /* with odd_backend: the parity the
                                    one-generation results were made
                                    from; -1 none */
    int64_t mem_limit;
    hl_node *node;
    int64_t n_nodes, cap_nodes;  /* ids 1 .. n_nodes - 1 used or free */
    size_t node_reserved, leaf_reserved; /* bytes of address space held
                                    for node[] and leaf[] (0: malloc'd) */
    size_t bucket_mapped;        /* bytes when bucket[] was mmap'd */
    hl_id free_nodes;            /* chained through next */
    int planes;                  /* state planes a leaf holds */
    int leaf_log, leaf_side;     /* a leaf: 2^leaf_log cells a side */
    uint64_t leaf_mask;          /* a leaf row's bits */
    int lw;                      /* words a leaf block: planes * leaf */
    uint64_t *leaf;              /* lw words a block */
    int64_t n_leaves, cap_leaves;
    uint32_t free_leaves;        /* chained through the block's word 0 */
    int64_t live_nodes, live_leaves;
    hl_id *bucket;
    uint64_t n_buckets;          /* a power of two */
    int64_t *pop;                /* per node: -1 not known yet */
    hl_id empty[HL_MAX_LEVEL + 1];
    hl_id root;
    int64_t generation;
    bool full;                   /* the budget was hit mid-step */
    gg_gen_cells scratch;        /* a batch of 2-leaf squares side by
                                    side, as the backend steps them */
    hl_frame *frame;             /* in flight; frame 0: the step's */
    uint32_t n_frames, cap_frames, free_frames;
    hl_waiter *waiter;
    uint32_t n_waiters, cap_waiters, free_waiters;
    uint32_t opening[HL_FRAME_BATCH]; /* new frames whose nine squares are
                                    still to be made, made together */
    int n_opening;
    uint32_t *ready;             /* frames with all their parts, a stack
                                    (room for every frame: a frame is on
                                    it once at most); a list chained
                                    through the frames made each take a
                                    dependent load */
    uint32_t n_ready, cap_ready;
    hl_request *req;             /* started last first */
    int64_t n_req, cap_req;
    size_t frame_mapped, waiter_mapped, req_mapped, ready_mapped; /* bytes of address
                                    space each holds once past 256 KiB
                                    (hl_step.c; 0: malloc'd) */
    uint32_t *queue[HL_QUEUES];  /* leaf squares waiting, by code */
    int64_t n_queue[HL_QUEUES];
    int64_t batch_cols, batch_max; /* squares a batch row, a batch */
    hl_id top;                   /* frame 0's result */
    bool abort;                  /* the step is being given up */
    gg_err *err;                 /* where a backend failure goes */
    bool failed;
    bool (*stop)(void);          /* polled every 256 base steps */
    gg_progress_fn progress;     /* after each step (gg_hl_set_progress),
                                    and inside a long one */
    void *progress_ctx;
    int64_t run_done, run_total; /* gg_hl_run's generations so far, all */
    int step_log;                /* the step in flight: 2^step_log
                                    generations or more (less than
                                    twice); -1 none */
    int64_t odd_gens;            /* what HL_ODD results are of: a step
                                    of this many; 0 none */
    bool stopped;                /* a step was given up for it */
    int64_t polls;
    bool revise;                 /* the leaves may shrink once, after a
                                    run's first part (gg_hl_set_revise) */
    hl_small *small;             /* the 4x4 leaves' memo (hl_small.c) */
    int64_t small_bytes;         /* what its table holds */
    gg_hl_stats stats;
};

/* The store's arrays: address space for node[] and leaf[] (h->mem_limit
 * set; on failure they fall back to realloc), a first table of n (a
 * power of two) buckets (-1: out of memory), and all three freed. */
void hl_store_init(gg_hl *h);
int hl_table_init(gg_hl *h, uint64_t n);
void hl_store_free(gg_hl *h);
/* Address space of the budget's bytes on huge pages (*bytes: how many),
 * for a step's frames, waiters and requests past their first growth;
 * NULL when refused. hl_scratch_free frees those three arrays. */
void *hl_arena(const gg_hl *h, size_t *bytes);
void hl_scratch_free(gg_hl *h);

/* The leaf or node with these cells or children, found or made; 0 when
 * the budget is spent (h->full) or memory ran out. */
hl_id hl_leaf(gg_hl *h, const uint64_t *rows);
/* n <= 16 leaves at once (their table loads overlap), leaf i's rows
 * h->lw words after leaf i - 1's. */
void hl_leaves(gg_hl *h, int n, const uint64_t *rows, hl_id *out);
hl_id hl_join(gg_hl *h, hl_id nw, hl_id ne, hl_id sw, hl_id se);
hl_id hl_empty(gg_hl *h, int level);
/* n joins at once (their hash-table loads overlap): out[i] the node of
 * level[i] with children q[i], 0 as hl_join. */
void hl_joins(gg_hl *h, int n, const int *level, const hl_id (*q)[4],
              hl_id *out);

static inline const uint64_t *hl_rows(const gg_hl *h, hl_id leaf)
{
    return h->leaf + (size_t)h->node[leaf].child[0] * (size_t)h->lw;
}

/* Row y of a leaf's cells in any state but 0 (its planes OR-ed). */
static inline uint64_t hl_live_row(const gg_hl *h, const uint64_t *rows,
                                   int y)
{
    uint64_t any = 0;
    for (int p = 0; p < h->planes; p++)
        any |= rows[p * h->leaf_side + y];
    return any;
}

static inline bool hl_is_empty(const gg_hl *h, hl_id n)
{
    return n == h->empty[h->node[n].level];
}

/* gens generations in passes (hl_step.c; gg_hl_run's count for one
 * rule): *done says how many ran. */
int hl_run_count(gg_hl *h, int64_t gens, bool (*stop)(void),
                 int64_t *done, gg_err *err);

/* A pattern's root taken as the tree's; root 0 (the budget ran out while
 * it was built) fails saying so. */
int hl_set_root(gg_hl *h, hl_id root, gg_err *err);

/* The centre half of a node of level >= leaf + 1, no time. */
hl_id hl_centre(gg_hl *h, hl_id n);

/* The centres of n squares of 2x2 nodes, square i's of level[i] (q[i]:
 * nw ne sw se), without making the squares: a node of level[i] each. */
void hl_centres(gg_hl *h, int n, const int *level, const hl_id (*q)[4],
                hl_id *out);

/* Live cells under node n (any state but 0), memoized; saturates. */
int64_t hl_population(gg_hl *h, hl_id n);

/* Collect what the root (and the empty nodes) do not reach; forget every
 * result. */
void hl_collect(gg_hl *h);

int64_t hl_bytes(const gg_hl *h);

/* Cells up to state max fit the rule's states, else an error. */
int hl_states_fit(const gg_hl *h, int max, gg_err *err);
/* The smallest root level (>= leaf + 2) whose area holds the box (Golly
 * coordinates, inclusive). */
int hl_level_for(const gg_hl *h, int64_t x0, int64_t y0, int64_t x1,
                 int64_t y1);

#endif

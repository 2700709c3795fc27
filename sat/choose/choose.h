/* Choosing a rule's network: the one policy that the emitters' kernels,
 * `golgen verify` and `golgen synth` share. The verified cache entry
 * (sat/choose/cache.h) when there is one; otherwise the cheapest of a decision
 * diagram built from the truth table, for a 3x3 table (front none) the
 * decision diagram over cells and pairs of cells, resubstituted
 * (gen/circuits/net_rowdd.h, net_resub.h: random isotropic rules about 55
 * LUTs, random MAP rules about 73, where the plain one gives 122 and 127),
 * the adder tree (sat/choose/adder.h: full
 * adders, then a small rest solved exactly within a budget) and, for gate2,
 * a LUT3 network (the cache's, else the adder tree's) mapped gate by gate
 * (sat/choose/lut_map.h). All are verified where they are built; none is proven
 * minimal. Built without the solver, the adder tree's rest is a decision
 * diagram and the mapping is skipped. Every LUT3 candidate, and every
 * composed stage whole, is then resubstituted (sat/choose/choose_resub.h):
 * without the solver B3-k/S23 gets 14 LUTs a word and B2ce3aei/S23-a 26
 * (count classes), where the plain parts gave 25 and 38 (the solver's: 13
 * and 25).
 *
 * Everything here is reentrant: no state outside the caller's arguments,
 * and no environment reads (runtime/base/config.c fills gg_choose_opts). */
#ifndef GG_SAT_CHOOSE_H
#define GG_SAT_CHOOSE_H

#include <signal.h>
#include <stdbool.h>
#include <stdint.h>

#include "circuit.h"
#include "front.h"
#include "net.h"
#include "rule.h"
#include "truth.h"

/* The fallback's exact rest is bounded by solver work on one thread
 * (conflicts, plus a charge per shape), not by time, so a rule gets the
 * same kernel on every machine under any load: with 0.25 s of wall time,
 * B3568/S1245's gate2 stage came out 21 or 23 gates depending on load.
 * 30000 takes 0.3-1.6 s here; the seconds only guard against the
 * pathological. Since session 21 (difference clauses and automorphism
 * order in these searches too, three quarters of the work for a k that a
 * cheaper one could follow, bench/fallback_sizes.sh) no rule of 171 gets
 * more than 9 LUTs; before, 8 got 15-18. */
#define GG_CHOOSE_WORK 30000
#define GG_CHOOSE_GUARD_SECONDS 10

/* Which front the GPU targets use. */
typedef enum gg_gpu_front {
    GG_GPU_FRONT_AUTO,      /* rowsum-lr when the cache holds a cheaper
                               final stage for it, else rowsum */
    GG_GPU_FRONT_ROWSUM,
    GG_GPU_FRONT_ROWSUM_LR, /* even without a cache entry (tests) */
} gg_gpu_front;

/* A final stage searched for because neither the network cache nor the
 * kept networks hold it: told when the search begins and when it is
 * over. Searches nest: a composed stage (front rowsum+cells) searches
 * its parts inside its own. The CLI (cli/search_note.h) tells a user
 * waiting seconds for a new rule what the wait is for; sat/ itself
 * prints nothing. */
typedef struct gg_choose_search {
    const gg_rule *rule;
    gg_front_kind front;
    gg_lib lib;
    bool begin; /* false: the search is over */
    bool kept;  /* its network is kept (kept_root) for the next time */
} gg_choose_search;

typedef void (*gg_choose_search_fn)(void *ctx, const gg_choose_search *s);

typedef struct gg_choose_opts {
    const char *cache_root; /* NULL or "": GG_SOURCE_ROOT/generated */
    const char *kept_root;  /* NULL or "": none; else the fallback's
                               networks are kept under it between runs
                               (runtime/base/config.c: the kernel cache's
                               folder), as gg_choose_circuit says */
    uint64_t work;          /* the fallback's solver work; 0:
                               GG_CHOOSE_WORK */
    gg_gpu_front gpu_front;
    gg_choose_search_fn on_search; /* NULL: nobody is told */
    void *on_search_ctx;
} gg_choose_opts;

/* How much search a set of candidates may spend on the adder tree's rest:
 * solver work (seconds > 0 turns it into a wall-time limit, as `golgen
 * synth` gives it; cancel, when set, stops it with the best rest so far). */
typedef struct gg_choose_budget {
    uint64_t work;
    double seconds;
    volatile sig_atomic_t *cancel;
    bool diagram; /* include the decision diagram */
    int beat;     /* > 0: a network of this cost is known (the cache's), so
                     the adder tree's wide rests look only for cheaper ones */
} gg_choose_budget;

#define GG_CHOOSE_MAX 6

/* Candidate networks for one final stage, each with where it came from. */
typedef struct gg_choose_set {
    gg_net net[GG_CHOOSE_MAX];
    const char *from[GG_CHOOSE_MAX];
    int n;
} gg_choose_set;

/* Adds to s the candidates for final-stage table t of rule's front f:
 * the decision diagram (b->diagram), the adder tree within b, and for gate2
 * a LUT3 network mapped gate by gate. Candidates that cannot be built
 * (a rule that is not totalistic for the adder tree) are left out; -1 only
 * when nothing could be built (err). */
int gg_choose_candidates(const gg_rule *rule, gg_front_kind front,
                         gg_lib lib, const gg_front *f, const gg_tt *t,
                         const gg_choose_opts *o, const gg_choose_budget *b,
                         gg_choose_set *s, gg_err *err);

/* Index of the cheapest candidate for lib (the first on a tie); -1 when s
 * is empty. */
int gg_choose_cheapest(const gg_choose_set *s, gg_lib lib);

/* The final stage used when the cache has no entry: the cheapest candidate
 * within o's work, and in source where it came from. `golgen synth` takes
 * it too, so that nothing it stores is worse than the emitters' network. */
int gg_choose_fallback(const gg_rule *rule, gg_front_kind front, gg_lib lib,
                       const gg_front *f, const gg_tt *t,
                       const gg_choose_opts *o, gg_net *out, char *source,
                       gg_err *err);

/* The fallback's search version, part of the name of the folder its kept
 * networks live in: raise it when the search gives other networks (3: the
 * row decision diagram; composed stages are kept there too; 4: the row
 * diagram resubstituted; 5: every candidate and composed stage
 * resubstituted, sat/choose/choose_resub.h; 6: without the solver the
 * adder's rest by enumeration, gen/circuits/net_enum.h, and the gated
 * correction's F from its base and lanes' rules, choose_gated.c; 7: the
 * adder's third try, the count reduced to binary, sat/choose/adder.c;
 * 8: composed stages may be the count classes' LUT3(A, P, C),
 * sat/choose/choose_count23.c). */
#define GG_CHOOSE_FALLBACK_VERSION 8

/* Front plus a correct final stage: the cache entry (verified on load; a
 * wrong or unreadable entry is an error, never silently replaced), else the
 * fallback. With o->kept_root the fallback's network is kept there and
 * taken from there next time (the search gives the same network on every
 * machine, so a kept one is what a new search would give), checked on
 * load like a cache entry; a kept file that fails is rebuilt, since it is
 * only a copy. A gate2 network is kept only while the cache has no lut3
 * entry for the rule (its skeleton, which `golgen synth` may add later).
 * o may be NULL (defaults). */
int gg_choose_circuit(const gg_rule *rule, gg_front_kind front, gg_lib lib,
                      const gg_choose_opts *o, gg_circuit *c, gg_err *err);

/* The circuit a kernel is emitted from (front gg_front_for_rule: the row
 * sums, or the cells for a rule that depends on their arrangement),
 * checked exhaustively against the rule: an error names the first wrong
 * neighbourhood. */
int gg_choose_kernel_circuit(const gg_rule *rule, gg_lib lib,
                             const gg_choose_opts *o, gg_circuit *c,
                             gg_err *err);

/* A Moore rule whose arrangement matters as the nearest totalistic rule's
 * row-sum circuit xor a correction over the cells (front rowsum+cells;
 * sat/choose/choose_split.c). Not checked: gg_choose_kernel_circuit compares it
 * with the plain circuit over the cells and checks the one it keeps. */
int gg_choose_split_circuit(const gg_rule *rule, gg_lib lib,
                            const gg_choose_opts *o, gg_circuit *c,
                            gg_err *err);

/* The cheaper of the two circuits above (front rowsum+cells), searched
 * afresh (no cache); the gated one only when it can beat `beat` gates per
 * word (0: no bound) or the split. Not checked. */
int gg_choose_composed_circuit(const gg_rule *rule, gg_lib lib,
                               const gg_choose_opts *o, int beat,
                               gg_circuit *c, gg_err *err);

/* The same rule as F(row sums, C, m), m = M(cells, C) saying where an
 * arrangement's next state differs from the base of its (centre, count)
 * group (front rowsum+cells; sat/choose/choose_gated.c). Returns 1, c unusable,
 * when it cannot cost fewer than `beat` gates per word (0: no bound) and
 * was cut short. Not checked, as above. */
int gg_choose_gated_circuit(const gg_rule *rule, gg_lib lib,
                            const gg_choose_opts *o, int beat, gg_circuit *c,
                            gg_err *err);

/* The same rule as LUT3(A, P(features), C): A a totalistic rule's
 * network, P the rule on A's groups over eight signals that tell most
 * arrangements of 1-4 cells apart, built without a solver (front
 * rowsum+cells, LUT3; sat/choose/choose_count23.c); P's full search only
 * when a quick one comes near `beat` gates per word (0: no bound).
 * Returns 1, c unusable, when the rule has no such form. Not checked, as
 * above. */
int gg_choose_count23_circuit(const gg_rule *rule, gg_lib lib,
                              const gg_choose_opts *o, int beat,
                              gg_circuit *c, gg_err *err);

/* rule as the totalistic rule of these birth and survival count masks
 * (bit n: n neighbours), its neighbourhood and grid kept: the base rule
 * of a gated correction, the class rule of the count-2/3 split. */
gg_rule gg_choose_totalistic(const gg_rule *rule, uint32_t birth,
                             uint32_t survive);

/* For a Moore rule whose arrangement matters, the gated or the split
 * circuit replaces c when it costs fewer gates per word (other rules: c
 * stays). */
int gg_choose_try_split(const gg_rule *rule, gg_lib lib,
                        const gg_choose_opts *o, gg_circuit *c, gg_err *err);

/* The LUT3 circuit both GPU targets emit: the kernel circuit, or the
 * rowsum-lr one per o->gpu_front. */
int gg_choose_gpu_circuit(const gg_rule *rule, const gg_choose_opts *o,
                          gg_circuit *c, gg_err *err);

#endif

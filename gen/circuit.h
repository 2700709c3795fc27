/* A rule's whole circuit: the fixed front end and the rule-specific final
 * stage, and its exhaustive check against the rule's truth table. */
#ifndef GG_CIRCUIT_H
#define GG_CIRCUIT_H

#include "front.h"
#include "net.h"
#include "rule.h"

#define GG_CIRCUIT_SOURCE_MAX 32

typedef struct gg_circuit {
    gg_rule rule;
    gg_lib lib;
    gg_front front;
    gg_net final;       /* inputs: the front's outputs */
    bool proven;        /* final stage proven minimal by the solver */
    char source[GG_CIRCUIT_SOURCE_MAX]; /* where the final stage came from */
    bool cached;        /* final stage from the SAT network cache */
    int lower_bound;    /* cached: no final stage has fewer gates */
    char search[512];   /* cached: the solver's per-k log */
} gg_circuit;

/* Front plus a correct final stage: the SAT network cache's entry when
 * there is one (verified on every care row on load; a wrong or unreadable
 * entry is an error, never silently replaced), else the smallest of a
 * decision diagram built from the truth table, the adder tree (sat/adder.h:
 * full adders, then a rest solved exactly within GG_CIRCUIT_ADDER_WORK; a
 * diagram itself without the solver) and, for gate2 with the solver, a LUT
 * network mapped gate by gate (sat/lut_map.h); all verified, none proven
 * minimal. The cache is found as gg_cache_root(NULL) says:
 * $GOLGEN_GENERATED, else the source tree's generated/.
 *
 * The rest's search is bounded by solver work on one thread, not by time,
 * so a rule gets the same kernel on every machine under any load (with
 * 0.25 s of wall time, B3568/S1245's gate2 stage came out 21 or 23 gates
 * depending on load). 30000 takes 0.3-0.7 s here and matches what the
 * 0.25 s limit on two threads gave the corpus; the seconds only guard
 * against the pathological. $GOLGEN_FALLBACK_WORK overrides the work (the
 * circuit tests, which build a thousand rules for correctness, use less). */
#define GG_CIRCUIT_ADDER_WORK 30000
#define GG_CIRCUIT_ADDER_SECONDS 10
int gg_circuit_build(const gg_rule *rule, gg_front_kind front, gg_lib lib,
                     gg_circuit *c, gg_err *err);

/* The final stage gg_circuit_build takes when the cache has no entry (f and
 * final_tt: the rule's front and final-stage table), and in source where it
 * came from. `golgen synth` starts from it too, so that nothing it stores
 * is worse than what the emitters would use without the entry. */
int gg_circuit_fallback(const gg_rule *rule, gg_front_kind front, gg_lib lib,
                        const gg_front *f, const gg_tt *final_tt, gg_net *out,
                        char *source, gg_err *err);

/* Every neighbourhood through front and final stage against the rule.
 * Returns the number of wrong rows; *first_bad gets the first (or -1). */
int gg_circuit_check(const gg_circuit *c, int *first_bad);

/* Logic gates per output word: the front after row sharing plus the final
 * stage (shifts are counted apart: see gg_circuit_shifts_per_word). */
int gg_circuit_gates_per_word(const gg_circuit *c);

/* Neighbour-word shifts per output word: each row's left and right
 * neighbour words are formed once and reused by the rows that read them. */
int gg_circuit_shifts_per_word(const gg_circuit *c);

#endif

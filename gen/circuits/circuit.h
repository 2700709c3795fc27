/* A rule's whole circuit: the fixed front end and the rule-specific final
 * stage, and its exhaustive check against the rule's truth table. Which
 * final stage a circuit gets is sat/choose/choose.h's decision, one layer up. */
#ifndef GG_CIRCUIT_H
#define GG_CIRCUIT_H

#include "front.h"
#include "net.h"
#include "rule.h"
#include "truth.h"

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

/* Starts c for rule: the rule, the library, the front built for lib, and
 * in final_tt the table its final stage must compute (c->final is left
 * empty: sat/choose/choose.h picks it, from the network cache or a fallback). */
int gg_circuit_prepare(const gg_rule *rule, gg_front_kind front, gg_lib lib,
                       gg_circuit *c, gg_tt *final_tt, gg_err *err);

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

/* The CNF encoder's state, shared by its files (sat/exact/encode.h is the
 * public side). encode.c: options, gate functions, the rows' simulation
 * clauses and decoding; encode_prune.c: the clauses that only prune the
 * search (symmetry breaking, what networks of fewest gates meet, the
 * decomposition cuts). Not part of any public interface. */
#ifndef GG_SAT_ENCODE_INTERNAL_H
#define GG_SAT_ENCODE_INTERNAL_H

#include "encode.h"

#define MAX_SLOTS 3
#define MAX_SIGNALS (GG_TT_MAX_INPUTS + GG_ENC_MAX_GATES)

/* One way to wire a gate: its sources in slot order. */
typedef struct option {
    int src[MAX_SLOTS];
    int sel;
} option;

typedef struct gate {
    int m;          /* slots */
    int n_fixed;    /* trailing slots wired to gates by the shape */
    int n_opt;
    option *opt;
    int reads[MAX_SIGNALS]; /* reads[c] <=> some chosen option has c */
    int fn[8];      /* fn[b]: output for slot values b (slot 0 = bit 0) */
    int dep[MAX_SLOTS];     /* the function reads slot s */
} gate;

struct gg_enc {
    gg_enc_spec spec;
    gg_sat *sat;
    int n, k, arity;
    int vtrue;      /* a variable forced true: constants are +-vtrue */
    int pol;        /* output polarity */
    int pol2;       /* polarity of the second output (lim.f2) */
    gate g[GG_ENC_MAX_GATES];
    int *x;         /* x[r * k + i]: gate i on row r; 0 while r not added */
    int n_perm;     /* closure (lim.swap): candidate involutions */
    int perm[10][4];
    int psel[10];   /* perm p chosen */
    int cpl[4];     /* gate i's image is complemented */
    int *buf;       /* clause scratch */
    int *added;     /* rows added so far, in order (difference clauses) */
    int n_added;
    int *keyvar;    /* spec.keys: the output on each class */
};

/* encode.c: clauses */
void enc_emit(gg_enc *e, const int *lits, int n);
void enc_emit2(gg_enc *e, int a, int b);
int enc_has(const option *o, int m, int c);

/* encode_prune.c: the pruning clauses setup adds, in its order */
void enc_every_gate_read(gg_enc *e);
void enc_essential_read(gg_enc *e);
void enc_symmetry(gg_enc *e);
void enc_order_twins(gg_enc *e);
void enc_order_automorphisms(gg_enc *e);
void enc_reapplied(gg_enc *e);
void enc_decomposition(gg_enc *e);
void enc_two_exit(gg_enc *e);
void enc_order_groups(gg_enc *e);

#endif

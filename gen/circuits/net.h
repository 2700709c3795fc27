/* Gate networks: the IR between synthesis and the emitters.
 *
 * Signals 0..n_inputs-1 are the primary inputs; signal n_inputs+i is the
 * output of gate i. Gates only read earlier signals (topological order).
 * LUT3 follows the PTX lop3 / AVX-512 vpternlog convention: the result is
 * bit (a<<2 | b<<1 | c) of `lut`, with a = in[0], b = in[1], c = in[2], so
 * the immediate pastes into either instruction unchanged. */
#ifndef GG_NET_H
#define GG_NET_H

#include <stdbool.h>
#include <stdint.h>

#include "error.h"
#include "truth.h"

#define GG_NET_MAX_GATES 512
#define GG_NET_MAX_OUTPUTS 16
#define GG_SIG_CONST0 0xFFFFu /* an output tied to constant 0 (or 1 if negated) */

typedef enum gg_op {
    GG_OP_AND,    /* a & b */
    GG_OP_OR,     /* a | b */
    GG_OP_XOR,    /* a ^ b */
    GG_OP_ANDNOT, /* a & ~b */
    GG_OP_NOT,    /* ~a */
    GG_OP_LUT3,   /* lut[a<<2 | b<<1 | c] */
    GG_OP_COUNT
} gg_op;

typedef enum gg_lib {
    GG_LIB_LUT3,  /* any 3-input function: lop3.b32, vpternlog */
    GG_LIB_GATE2, /* and, or, xor, andnot (and not) */
} gg_lib;

typedef struct gg_gate {
    uint8_t op;
    uint8_t lut;
    uint16_t in[3];
} gg_gate;

typedef struct gg_net {
    int n_inputs;
    int n_gates;
    int n_outputs;
    gg_gate gate[GG_NET_MAX_GATES];
    uint16_t out[GG_NET_MAX_OUTPUTS];
    uint8_t out_neg[GG_NET_MAX_OUTPUTS]; /* output is the complement */
} gg_net;

/* Builders: return the new signal, or -1 (with err) when the net is full. */
int gg_net_add(gg_net *n, gg_op op, uint8_t lut, int a, int b, int c,
               gg_err *err);

/* Bitsliced evaluation on 64-bit words: in[i] holds input i for 64 rows. */
void gg_net_eval64(const gg_net *n, const uint64_t *in, uint64_t *out);

/* Output `o` as a truth table over the net's inputs (n_inputs <= TT max). */
void gg_net_output_tt(const gg_net *n, int o, gg_tt *t);

/* Signal s (an input or a gate's output) as a truth table over the net's
 * inputs. */
void gg_net_signal_tt(const gg_net *n, int s, gg_tt *t);

/* The rows where gate `gate`'s value reaches output 0 (complementing it
 * there complements the output), as the on-set of a table. */
void gg_net_observable_tt(const gg_net *n, int gate, gg_tt *t);

/* Signal `signal` as a table over the signals leaves[0..n_leaves-1] (leaf
 * l complemented where flip[l]; flip may be NULL): h's row x (bit l = leaf
 * l) is cared for when some care row of f, among those rows->on selects
 * (rows NULL: all), gives the leaves those values, and then holds the
 * signal's value there. Returns 0, or -1 when the leaves do not determine
 * the signal on those rows (h is then unusable). */
int gg_net_signal_over(const gg_net *n, int signal, const int *leaves,
                       const uint8_t *flip, int n_leaves, const gg_tt *f,
                       const gg_tt *rows, gg_tt *h);

/* What gate `gate` must compute over the signals leaves[0..n_leaves-1]
 * (leaf l complemented where flip[l]; flip may be NULL): h's row x (bit l
 * = leaf l) is cared for when some care row of f gives the leaves those
 * values and the gate's value reaches output 0 there, and then holds the
 * gate's value. Any function agreeing on h's care rows may replace the
 * gate without changing the output on f's care rows. Returns 0, or -1
 * when the leaves do not determine the gate there (two such rows give the
 * leaves the same values and the gate different ones; always 0 for leaves
 * that cut the gate off the inputs); h is then unusable. */
int gg_net_window_tt(const gg_net *n, int gate, const int *leaves,
                      const uint8_t *flip, int n_leaves, const gg_tt *f,
                      gg_tt *h);

/* Exhaustive check of output `o` against t on t's care rows. Returns the
 * number of wrong care rows (0 = correct); *first_bad gets the first. */
int gg_net_check(const gg_net *n, int o, const gg_tt *t, int *first_bad);

/* Gates of each op; returns the total. */
int gg_net_count(const gg_net *n, int counts[GG_OP_COUNT]);

const char *gg_op_name(gg_op op);

/* Inputs an op reads: 3 (LUT3), 1 (NOT) or 2. */
int gg_op_arity(gg_op op);
const char *gg_lib_name(gg_lib lib);
int gg_lib_parse(const char *name, gg_lib *lib, gg_err *err);

/* Adds a copy of g reading to[s] wherever g reads s; the new signal, or
 * -1 when n is full. */
int gg_net_add_copy(gg_net *n, const gg_gate *g, const int *to, gg_err *err);

/* Appends sub's gates to n, sub's input i read as n's signal map[i];
 * *out gets the signal of sub's output 0 (GG_SIG_CONST0 for a constant;
 * its out_neg is the caller's). 0, or -1 when n is full. */
int gg_net_append(gg_net *n, const gg_net *sub, const int *map, int *out,
                  gg_err *err);

/* Merges gates that compute the same op of the same signals (and, or, xor
 * in either order) and drops gates no output reads; returns how many
 * gates went. The outputs' functions are unchanged. */
int gg_net_tidy(gg_net *n);

/* Whether every gate of n belongs to library lib. */
bool gg_net_in_lib(const gg_net *n, gg_lib lib);

#endif

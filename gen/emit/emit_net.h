/* The target-independent half of every kernel emitter.
 *
 * 1. A string builder (gg_sbuf) that records allocation failure once instead
 *    of at every append.
 * 2. The kernel plan (gg_kplan): a rule's circuit rearranged the way a
 *    bitsliced kernel runs it. The front's outputs are functions of one
 *    neighbourhood row each; as functions of that row's (W, C, E) words
 *    (west neighbour, cell, east neighbour) they become a small "row net"
 *    evaluated once per input row, and the final stage reads each of its
 *    inputs as feature k of row y+dy. Moore's three row sums collapse into
 *    one full adder per row this way (the row sharing of seed 002); von
 *    Neumann and hex rows keep their own shapes and cost what they cost.
 * 3. A network walker that prints one statement per gate through a per-target
 *    table of operator macro names, so C SIMD, OpenCL and CUDA emitters share
 *    it and differ only in the macros their templates define. */
#ifndef GG_EMIT_NET_H
#define GG_EMIT_NET_H

#include <stdbool.h>
#include <stddef.h>

#include "circuit.h"
#include "error.h"
#include "net.h"

typedef struct gg_sbuf {
    char *p;
    size_t len, cap;
    bool failed; /* an allocation failed; p holds what fitted before */
} gg_sbuf;

void gg_sbuf_printf(gg_sbuf *b, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));
void gg_sbuf_append(gg_sbuf *b, const char *s, size_t n);
/* Hands the string over (NUL-terminated); fails if any append failed. */
int gg_sbuf_take(gg_sbuf *b, char **out, size_t *len, gg_err *err);
void gg_sbuf_free(gg_sbuf *b);

/* Row-net inputs. */
enum { GG_ROW_W = 0, GG_ROW_C = 1, GG_ROW_E = 2, GG_ROW_INPUTS = 3 };
#define GG_FEAT_CELL (-1) /* final input is the cell row itself */

typedef struct gg_kplan {
    gg_net row;  /* inputs W, C, E; output k = stored feature k */
    gg_net final;
    /* Final-stage input i is feature feat[i] (or GG_FEAT_CELL) of row
     * y + dy[i]; name[i] is the front's name for it (sT, cM, C, ...). */
    int feat[GG_NET_MAX_OUTPUTS], dy[GG_NET_MAX_OUTPUTS];
    char name[GG_NET_MAX_OUTPUTS][8];
} gg_kplan;

/* Rearrange circuit c into a plan. Fails if a front output mixes rows. */
int gg_kplan_build(const gg_circuit *c, gg_kplan *p, gg_err *err);

/* Operator macro names of one target, e.g. "V_AND"; a LUT3 prints as
 * LUT3(a, b, c, 0xNN) in the vpternlog/lop3 immediate convention. NULL for
 * an op the target lacks (emitting a net that uses it then fails). */
typedef struct gg_emit_ops {
    const char *op[GG_OP_COUNT];
    const char *zero, *ones; /* constant words */
    const char *type;        /* declaration type of a gate, e.g. "V" */
} gg_emit_ops;

/* One statement per gate: "<indent><type> <prefix><i> = OP(a, b);". in[i]
 * names input i. */
/* The target's spelling of gate i's op (g); NULL, with the error naming
 * the gate, when the target's library lacks it. */
const char *gg_emit_op(const gg_emit_ops *ops, const gg_gate *g, int i,
                       gg_err *err);

int gg_emit_gates(gg_sbuf *b, const gg_net *n, const char *const *in,
                  const char *prefix, const char *indent,
                  const gg_emit_ops *ops, gg_err *err);

/* Expression of output o (a gate name, an input name, a complement or a
 * constant) into buf. */
void gg_emit_output(char *buf, size_t size, const gg_net *n, int o,
                    const char *const *in, const char *prefix,
                    const gg_emit_ops *ops);

/* A Generations rule's per-cell stage (gen/circuits/gen_nets.h) for the C-like
 * targets: GG_NP, GG_NX, GG_XP0 and the functions
 *   <qual> T gg_gen_alive(const T *p)            (only when A is not P0)
 *   <qual> T gg_gen_post(T l, const T *p, T *po) (new planes; returns A')
 * with T = ops->type; g NULL emits nothing (two-state rules). */
struct gg_gen_nets;
int gg_emit_gen_stage(gg_sbuf *b, const struct gg_gen_nets *g,
                      const gg_emit_ops *ops, const char *qual, gg_err *err);

/* Replace each @@KEY@@ of template t (its first tlen bytes, part of a
 * longer text or not) by its value; `what` names the
 * template in errors. */
int gg_emit_fill(gg_sbuf *out, const char *t, size_t tlen,
                 const char *const *keys, const char *const *vals, int n,
                 const char *what, gg_err *err);

#endif

/* The PTX emitter's shared parts (gen/emit/emit_ptx.h is the public side):
 * what one gg_step_N body is generated from, and the helpers its files
 * share. emit_ptx.c: the module, its entries' declarations and setup;
 * emit_ptx_ops.c: register names, gates, neighbour shifts and stores;
 * emit_ptx_gen.c: the Generations planes; emit_ptx_tick.c: a tick's
 * loads and levels, the loops and the interior copy. Not part of any
 * public interface. */
#ifndef GG_EMIT_PTX_INTERNAL_H
#define GG_EMIT_PTX_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>

#include "emit_c.h"
#include "emit_cuda.h"
#include "emit_net.h"
#include "emit_ptx.h"

/* What one gg_step_N body is generated from. */
typedef struct pctx {
    gg_sbuf *b;
    const gg_kplan *p;
    int t;       /* levels (generations per launch) */
    bool mask;   /* the plane-edge copy */
    bool funnel;
    int ilv;     /* levels interleaved per group (1: one after another) */
    char sfx;    /* label suffix of this copy */
    int wpl;     /* 32-bit words per lane (1, 2, 4) */
    int chain;   /* levels per dependent chain (1: all independent) */
    int pf;      /* rows loaded ahead (1: the next tick's only) */
    int nfma;    /* pushing levels whose shifts are multiply-adds */
    bool inner;  /* the interior copy: no wrap, no load guard */
    int store;   /* level T's row: 0 none (fill), 1 if inside the strip,
                    2 always (the interior copy's steady ticks) */
    int turn;    /* ticks per turn of the interior copy's steady loop (a
                    multiple of 3: the register rings' period) */
    int top;     /* highest level a tick runs: T, or fewer in the staged
                    fill of the interior copy */
    bool loopfill; /* the interior copy's fill as a loop of every level */
    int warm;    /* rows ahead that the interior copy prefetches (0: none) */
    bool warml2; /* that prefetch into L2, not L1 */
    int kstride; /* row stride in bytes known at emit time (0: not) */
    int tk;      /* with kstride, the tick's index in a steady turn, whose
                    rows lie at constant offsets from %ra0 / %rs0; -1:
                    addresses from %yb */
    const gg_gen_nets *gen; /* a Generations rule's per-cell stage (NULL:
                               two states): emit_ptx_gen.c */
} pctx;

/* emit_ptx_ops.c (described there) */
int ptx_skew(const pctx *c, int g);
int ptx_lag(const pctx *c, int g);
int ptx_chain_pos(const pctx *c, int g);
void ptx_wname(char *buf, size_t size, const pctx *c, const char *base,
               int k, int i);
void ptx_sname(char *buf, size_t size, const pctx *c, const char *base,
               int i);
void ptx_tprefix(char *buf, size_t size, const pctx *c, char kind, int k,
                 int i);
int ptx_ring_reg(const pctx *c, int g, int s, int k, int i);
int ptx_emit_gate(gg_sbuf *b, const gg_net *n, int i, char in[][16],
                  const char *prefix, gg_err *err);
void ptx_emit_output(gg_sbuf *b, const char *dst, const gg_net *n, int o,
                     char in[][16], const char *prefix);
void ptx_emit_shuffles(const pctx *c, int k, const char *v,
                       const char *vlast);
void ptx_emit_shifts_multi(const pctx *c, int k, int i, const char *v,
                           const char *vw, const char *ve);
void ptx_emit_shifts(const pctx *c, int k, const char *v);
void ptx_row_inputs(const pctx *c, char in[][16], int k, int i,
                    const char *v);
void ptx_emit_ring_store(const pctx *c, int k, int i, int s,
                         const char *v);
void ptx_final_inputs(const pctx *c, int g, int wi, int phase,
                      char in[][16]);
void ptx_addr(char *buf, size_t size, int off);
void ptx_emit_store_row(const pctx *c);
void ptx_emit_store_word_at(const pctx *c, int i, const char *v,
                            const char *ra, const char *rs);
void ptx_emit_store_word(const pctx *c, int i, const char *v);

/* emit_ptx_gen.c (described there) */
int ptx_xring_reg(const pctx *c, int g, int s, int j);
void ptx_emit_gen_load_planes(const pctx *c, const char *row,
                              bool guarded, bool warm);
void ptx_emit_gen_queue_shift(const pctx *c, int first);
int ptx_emit_gen_take(const pctx *c, int phase, gg_err *err);
int ptx_emit_gen_post(const pctx *c, int g, int phase, const char *out,
                      gg_err *err);
void ptx_emit_gen_store(const pctx *c, int i, const char *v);
void ptx_emit_gen_decls(gg_sbuf *b, const pctx *c);

/* emit_ptx_tick.c (described there) */
int ptx_emit_body(const pctx *c, gg_err *err);
int ptx_emit_inner(pctx *c, gg_err *err);

/* emit_ptx.c (described there) */
void ptx_emit_setup(gg_sbuf *b, int t, int wpb, int wpl, int fill);

#endif

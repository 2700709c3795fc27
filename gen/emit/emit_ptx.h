/* The PTX target: a complete PTX module (templates/ptx/kernel.ptx.in) whose
 * gg_step_N entries are generated here, instruction by instruction, with
 * the rule's network as lop3.b32. Same entries, arguments and device
 * layout as the CUDA C target (gen/emit/emit_cuda.h), so the runtime drives
 * either one the same way; no CUDA toolkit is needed to emit it. */
#ifndef GG_EMIT_PTX_H
#define GG_EMIT_PTX_H

#include <stdbool.h>
#include <stddef.h>

#include "circuit.h"
#include "error.h"
#include "gen_nets.h"
#include "rule.h"

extern const char gg_template_ptx_kernel[];
extern const size_t gg_template_ptx_kernel_len;

/* The largest row stride (words) an entry can have as a constant: its
 * rows' offsets stay inside ptxas's immediate address range. */
#define GG_PTX_KSTRIDE_MAX ((1 << 20) / 16)

typedef struct gg_ptx_opts {
    int tmax;    /* entries gg_step_1, _2, _4 .. tmax (power of two <= 16);
                    0: 16 */
    bool funnel; /* neighbour words by funnel shifts (ALU) instead of
                    multiply-adds (FMA pipe) */
    int wpb;     /* warps per block the launch uses; 0: 4 */
    int ilv;     /* levels of one tick emitted interleaved, instruction by
                    instruction, in groups of ilv (1: one level after the
                    other; 0: all of them, the fastest on the H100) */
    int wpl;     /* 32-bit words per lane: 1 (0), 2 or 4 (funnel shifts
                    only). A warp's window is 32 * wpl words, windows
                    32 * wpl - 1 words apart (gg_gpu_geom_init's nx for
                    that wpl); a lane's words are independent networks
                    interleaved gate by gate, and one shuffle pair per
                    level serves all of them */
    int maxnreg; /* .maxnreg of the gg_step entries (0: none; ptxas takes
                    what it needs, 168 for T16 Life) */
    int chain;   /* levels per dependent chain (0, 1: every level of a
                    tick independent, each lagging the level below by
                    two rows; c > 1: level g lags level g-1 by one row
                    unless g - 1 is a multiple of c, and reads the row
                    level g-1 computed in the same tick: two rows of
                    features live per level instead of three, fewer
                    registers, chains of c dependent levels per tick) */
    int prefetch; /* rows loaded ahead of the tick that uses them (0, 1:
                     one, the next tick's; d: d ticks ahead, d - 1 more
                     registers; one word per lane only) */
    int fma;     /* with funnel shifts: the share, in sixteenths, of the
                    T pushing levels that shift by multiply-adds instead
                    (FMA pipe), spread evenly; balances the ALU pipe
                    against issue slots */
    int inner;   /* 1: tasks whose rows and words all lie inside the
                    grid run a copy without wrap, load guard or row-store
                    predicates (one word per lane, chain 1); 0: none (the
                    default: 2% slower for Life on the H100 although its
                    loop has 6% fewer ALU instructions, BENCHMARKS.md) */
    int turn;    /* ticks per turn of the interior copy's steady loop: 3
                    (0) or 6 */
    int loopfill; /* 1: the interior copy's pipeline fill (3T ticks) is a
                     loop that runs every level, as before session 4;
                     0: straight-line stages that skip each level's
                     ticks before its first needed row (half the fill) */
    int warm;    /* the interior copy: each tick also prefetches the row
                    this many ticks ahead (more than prefetch, at most 8)
                    into a cache, so the load that ptxas schedules late
                    finds it there; 0: none */
    int warml2;  /* 1: that prefetch warms L2 only; 0: L1 */
    int kstride; /* row stride in 32-bit words fixed at emit time (the
                    interior copy's steady turns then address rows by
                    constant offsets from two pointers set once per turn);
                    0: the p_ns argument only */
} gg_ptx_opts;

/* The options the runtime uses for a tuned launch shape (T, funnel
 * shifts or multiply-adds, warps per block, words per lane): rows loaded
 * ahead and the register cap that keeps 12 warps per SM. */
gg_ptx_opts gg_ptx_tuned(int tmax, bool funnel, int wpb, int wpl);

/* From a given LUT3 circuit, unchecked (tests use broken ones). gen: a
 * Generations rule's per-cell stage, NULL for two states (the circuit is
 * then the two-state rule B/S of the alive plane); its kernels take one
 * more argument, the words from one state plane to the next (as the CUDA
 * target's, gen/emit/emit_cuda.h), and need one word per lane, no chains and
 * no constant row stride. */
int gg_emit_ptx_circuit(const gg_circuit *c, const gg_gen_nets *gen,
                        const gg_ptx_opts *o, char **src, size_t *len,
                        gg_err *err);

#endif

/* The C SIMD target: one rule network pasted into templates/c/kernel.c.in,
 * giving one C file with three paths chosen at compile time: AVX-512 (the
 * 3-input LUT network as vpternlog), AVX2 and portable 64-bit C (the 2-input
 * network). The topology (torus or plane) and the size are runtime
 * arguments, so one kernel serves every grid of its rule. */
#ifndef GG_EMIT_C_H
#define GG_EMIT_C_H

#include <stddef.h>

#include "circuit.h"
#include "error.h"
#include "gen_nets.h"
#include "rule.h"

/* The template, embedded at build time. */
extern const char gg_template_c_kernel[];
extern const size_t gg_template_c_kernel_len;

/* The kernel source from given circuits (lut3 for AVX-512, gate2 for the
 * others; runtime/backends/kernel_source.h picks a rule's), unchecked: the
 * caller vouches for them. gate2 NULL: a kernel for AVX-512 only, whose
 * other paths stop the compiler (the JIT on an AVX-512 machine: the 2-input
 * search was two thirds of a new rule's first use). gen: a Generations
 * rule's per-cell stage (the circuits are then its two-state rule's), NULL
 * for two states. Tests feed it broken networks to see validation refuse
 * the kernel. malloc'd, NUL-terminated, *len bytes. */
int gg_emit_c_circuits(const gg_circuit *lut3, const gg_circuit *gate2,
                       const gg_gen_nets *gen, char **src, size_t *len,
                       gg_err *err);

/* A kernel of two rules by parity from their circuits (lut3[0] and, when
 * gate2 is not NULL, gate2[0] rule a's; [1] rule b's): its generations
 * alternate the rules, gg_kernel_step_pair saying which comes first
 * (templates/c/kernel.c.in). Two-state rules of one neighbourhood (a B0
 * rule's pair on the unbounded plane, gen/rules/rule_b0.h); unchecked as
 * gg_emit_c_circuits. */
int gg_emit_c_pair_circuits(const gg_circuit *const lut3[2],
                            const gg_circuit *const gate2[2], char **src,
                            size_t *len, gg_err *err);

/* The file name generated/c/ uses for a rule, e.g. "b3_s23.c". */
void gg_emit_c_filename(const gg_rule *rule, char *buf, size_t size);

#endif

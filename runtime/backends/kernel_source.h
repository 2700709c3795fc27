/* A rule's kernel source for one target: the circuits sat/choose/choose.h picks
 * (the verified network cache, else the fallback), checked against the
 * rule, pasted into the target's template by gen/'s emitters. The
 * backends compile these; `golgen --target T` prints them. Each returns a
 * malloc'd, NUL-terminated string of *len bytes; o may be NULL (the
 * default cache and fallback budget). */
#ifndef GG_KERNEL_SOURCE_H
#define GG_KERNEL_SOURCE_H

#include <stdbool.h>
#include <stddef.h>

#include "choose.h"
#include "emit_ptx.h"
#include "gen_nets.h"
#include "error.h"
#include "rule.h"

/* C SIMD: the LUT3 network for AVX-512, the gate2 one for AVX2 and
 * portable C, in one file (gen/emit/emit_c.h). */
int gg_kernel_c(const gg_rule *rule, const gg_choose_opts *o, char **src,
                size_t *len, gg_err *err);

/* CUDA C for NVRTC or nvcc (gen/emit/emit_cuda.h). */
int gg_kernel_cuda(const gg_rule *rule, const gg_choose_opts *o, char **src,
                   size_t *len, gg_err *err);

/* A PTX module for the launch shape po; NULL: the autotuner's base shape
 * on the H100 (T16, funnel shifts, 4 warps per block, one word per lane,
 * 3-tick turns), which `golgen --target ptx` prints. Per rule the
 * autotuner may pick 6-tick turns or a share of multiply-add levels
 * instead (runtime/gpu/cuda_backend.c). */
int gg_kernel_ptx(const gg_rule *rule, const gg_ptx_opts *po,
                  const gg_choose_opts *o, char **src, size_t *len,
                  gg_err *err);

/* What a rule's GPU kernels are made of, chosen once: the circuit and a
 * Generations rule's per-cell stage (NULL when none). A backend that
 * emits several launch shapes keeps one: for a rule without a cache entry
 * the solver's choice took 0.6 s per emission on the H100 host, and a
 * Generations stage at C = 200 about 5 s. */
typedef struct gg_gpu_parts {
    gg_circuit *circuit;
    gg_gen_nets *gen;
} gg_gpu_parts;

int gg_gpu_parts_init(const gg_rule *rule, const gg_choose_opts *o,
                      gg_gpu_parts *p, gg_err *err);
void gg_gpu_parts_free(gg_gpu_parts *p);

/* gg_kernel_cuda and gg_kernel_ptx from chosen parts. */
int gg_kernel_cuda_parts(const gg_gpu_parts *p, char **src, size_t *len,
                         gg_err *err);
int gg_kernel_ptx_parts(const gg_gpu_parts *p, const gg_ptx_opts *po,
                        char **src, size_t *len, gg_err *err);

/* OpenCL C over the gate2 network (gen/emit/emit_opencl.h). */
int gg_kernel_opencl(const gg_rule *rule, const gg_choose_opts *o, char **src,
                     size_t *len, gg_err *err);

/* Where a kernel's final stages came from, as its header says: one per
 * library the target emits (c: lut3 then gate2), each with its front
 * and whether the network cache gave it. `golgen --target` notes the
 * ones that did not, so the note cannot disagree with the header. */
typedef struct gg_kernel_stages {
    int n;
    struct {
        gg_lib lib;
        gg_front_kind front;
        bool cached;
        int gates_per_word; /* gg_circuit_gates_per_word */
        char source[GG_CIRCUIT_SOURCE_MAX];
    } stage[2];
} gg_kernel_stages;

/* gg_kernel_c with its stages (st may be NULL): the cpu backend keeps
 * what its network costs. avx512: for an AVX-512 machine only, where no
 * gate2 network is chosen (its search was two thirds of a new Hensel
 * rule's first use) and a compile for another ISA stops at an #error. */
int gg_kernel_c_staged(const gg_rule *rule, const gg_choose_opts *o,
                       bool avx512, char **src, size_t *len,
                       gg_kernel_stages *st, gg_err *err);

/* A C kernel of two rules by parity (templates/c/kernel.c.in's
 * gg_kernel_step_pair): even is its rule a, odd its rule b, two-state
 * rules of one neighbourhood (a B0 rule's pair on the unbounded plane,
 * gen/rules/rule_b0.h); avx512 as gg_kernel_c_staged, st (may be NULL)
 * rule a's stages. */
int gg_kernel_c_pair(const gg_rule *even, const gg_rule *odd,
                     const gg_choose_opts *o, bool avx512, char **src,
                     size_t *len, gg_kernel_stages *st, gg_err *err);

/* The kernel for target "c", "cuda", "ptx" (the autotuner's base shape)
 * or "opencl", as the functions above make it, and its stages (st may be
 * NULL). */
int gg_kernel_for_target(const char *target, const gg_rule *rule,
                         const gg_choose_opts *o, char **src, size_t *len,
                         gg_kernel_stages *st, gg_err *err);

#endif

#include "kernel_source.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "emit_c.h"
#include "emit_cuda.h"
#include "emit_opencl.h"
#include "choose_gen.h"
#include "rule_gen.h"

/* A Generations rule runs its two-state rule B/S on the alive plane and
 * adds a per-cell stage (gen/circuits/gen_nets.h): *two is that rule (the rule
 * itself for two-state families), *g the stage (NULL when none: two
 * states, or C = 2, which is the two-state rule). */
static int gen_split(const gg_rule *rule, const gg_choose_opts *o,
                     gg_rule *two, gg_gen_nets **g, gg_err *err)
{
    *two = *rule;
    *g = NULL;
    if (!gg_rule_is_generations(rule))
        return 0;
    *two = gg_gen_two_state(rule);
    if (rule->states < 3)
        return 0;
    *g = gg_alloc(1, sizeof **g, err, "Generations stage");
    return *g ? gg_choose_gen_nets_kept(rule->states, o ? o->kept_root : NULL,
                                        *g, err)
              : -1;
}

/* c's final stage into st (NULL: nobody asked). */
static void note_stage(gg_kernel_stages *st, const gg_circuit *c)
{
    if (!st || st->n >= 2)
        return;
    st->stage[st->n].lib = c->lib;
    st->stage[st->n].front = c->front.kind;
    st->stage[st->n].cached = c->cached;
    st->stage[st->n].gates_per_word = gg_circuit_gates_per_word(c);
    snprintf(st->stage[st->n].source, sizeof st->stage[0].source, "%s",
             c->source);
    st->n++;
}

/* lut3_only: no gate2 network (gen/emit/emit_c.h: an AVX-512 kernel). */
static int kernel_c(const gg_rule *rule, const gg_choose_opts *o,
                    bool lut3_only, char **src, size_t *len,
                    gg_kernel_stages *st, gg_err *err)
{
    gg_rule two;
    gg_gen_nets *g = NULL;
    gg_circuit *c = gg_alloc(2, sizeof *c, err, "circuits");
    int bad = !c || gen_split(rule, o, &two, &g, err) ||
              gg_choose_kernel_circuit(&two, GG_LIB_LUT3, o, &c[0], err) ||
              (!lut3_only &&
               gg_choose_kernel_circuit(&two, GG_LIB_GATE2, o, &c[1], err)) ||
              gg_emit_c_circuits(&c[0], lut3_only ? NULL : &c[1], g, src, len,
                                 err);
    if (!bad) {
        note_stage(st, &c[0]);
        if (!lut3_only)
            note_stage(st, &c[1]);
    }
    free(c);
    free(g);
    return bad ? -1 : 0;
}

int gg_kernel_c(const gg_rule *rule, const gg_choose_opts *o, char **src,
                size_t *len, gg_err *err)
{
    return kernel_c(rule, o, false, src, len, NULL, err);
}

int gg_kernel_c_staged(const gg_rule *rule, const gg_choose_opts *o,
                       bool avx512, char **src, size_t *len,
                       gg_kernel_stages *st, gg_err *err)
{
    if (st)
        st->n = 0;
    return kernel_c(rule, o, avx512, src, len, st, err);
}

int gg_kernel_c_pair(const gg_rule *even, const gg_rule *odd,
                     const gg_choose_opts *o, bool avx512, char **src,
                     size_t *len, gg_kernel_stages *st, gg_err *err)
{
    if (st)
        st->n = 0;
    const gg_rule *rule[2] = {even, odd};
    if (gg_rule_is_generations(even) || gg_rule_is_generations(odd) ||
        even->nbhd != odd->nbhd)
        return gg_fail(err, "a kernel of two rules by parity takes two-state "
                       "rules of one neighbourhood");
    gg_circuit *c = gg_alloc(4, sizeof *c, err, "circuits");
    int bad = !c;
    for (int i = 0; i < 2 && !bad; i++)
        bad = gg_choose_kernel_circuit(rule[i], GG_LIB_LUT3, o, &c[i], err) ||
              (!avx512 && gg_choose_kernel_circuit(rule[i], GG_LIB_GATE2, o,
                                                   &c[2 + i], err));
    if (!bad) {
        const gg_circuit *lut3[2] = {&c[0], &c[1]}, *gate2[2] = {&c[2], &c[3]};
        bad = gg_emit_c_pair_circuits(lut3, avx512 ? NULL : gate2, src, len,
                                      err);
    }
    if (!bad) { /* what rule a's networks cost, as its own kernel says */
        note_stage(st, &c[0]);
        if (!avx512)
            note_stage(st, &c[2]);
    }
    free(c);
    return bad ? -1 : 0;
}

int gg_gpu_parts_init(const gg_rule *rule, const gg_choose_opts *o,
                      gg_gpu_parts *p, gg_err *err)
{
    gg_rule two;
    p->gen = NULL;
    p->circuit = gg_alloc(1, sizeof *p->circuit, err, "circuit");
    if (!p->circuit || gen_split(rule, o, &two, &p->gen, err) ||
        gg_choose_gpu_circuit(&two, o, p->circuit, err)) {
        gg_gpu_parts_free(p);
        return -1;
    }
    return 0;
}

void gg_gpu_parts_free(gg_gpu_parts *p)
{
    free(p->circuit);
    free(p->gen);
    p->circuit = NULL;
    p->gen = NULL;
}

int gg_kernel_cuda_parts(const gg_gpu_parts *p, char **src, size_t *len,
                         gg_err *err)
{
    return gg_emit_cuda_circuit(p->circuit, p->gen, src, len, err);
}

int gg_kernel_ptx_parts(const gg_gpu_parts *p, const gg_ptx_opts *po,
                        char **src, size_t *len, gg_err *err)
{
    gg_ptx_opts base = gg_ptx_tuned(16, true, 4, 1);
    return gg_emit_ptx_circuit(p->circuit, p->gen, po ? po : &base, src, len,
                               err);
}

/* CUDA C (ptx false) or PTX at po (NULL: the base shape). */
static int kernel_gpu(const gg_rule *rule, bool ptx, const gg_ptx_opts *po,
                      const gg_choose_opts *o, char **src, size_t *len,
                      gg_kernel_stages *st, gg_err *err)
{
    gg_gpu_parts p;
    if (gg_gpu_parts_init(rule, o, &p, err))
        return -1;
    int bad = ptx ? gg_kernel_ptx_parts(&p, po, src, len, err)
                  : gg_kernel_cuda_parts(&p, src, len, err);
    if (!bad)
        note_stage(st, p.circuit);
    gg_gpu_parts_free(&p);
    return bad;
}

int gg_kernel_cuda(const gg_rule *rule, const gg_choose_opts *o, char **src,
                   size_t *len, gg_err *err)
{
    return kernel_gpu(rule, false, NULL, o, src, len, NULL, err);
}

int gg_kernel_ptx(const gg_rule *rule, const gg_ptx_opts *po,
                  const gg_choose_opts *o, char **src, size_t *len,
                  gg_err *err)
{
    return kernel_gpu(rule, true, po, o, src, len, NULL, err);
}

static int kernel_opencl(const gg_rule *rule, const gg_choose_opts *o,
                         char **src, size_t *len, gg_kernel_stages *st,
                         gg_err *err)
{
    gg_rule two;
    gg_gen_nets *g = NULL;
    gg_circuit *c = gg_alloc(1, sizeof *c, err, "circuit");
    int bad = !c || gen_split(rule, o, &two, &g, err) ||
              gg_choose_kernel_circuit(&two, GG_LIB_GATE2, o, c, err) ||
              gg_emit_opencl_circuit(c, g, src, len, err);
    if (!bad)
        note_stage(st, c);
    free(c);
    free(g);
    return bad ? -1 : 0;
}

int gg_kernel_opencl(const gg_rule *rule, const gg_choose_opts *o, char **src,
                     size_t *len, gg_err *err)
{
    return kernel_opencl(rule, o, src, len, NULL, err);
}

int gg_kernel_for_target(const char *target, const gg_rule *rule,
                         const gg_choose_opts *o, char **src, size_t *len,
                         gg_kernel_stages *st, gg_err *err)
{
    if (st)
        st->n = 0;
    if (!strcmp(target, "c"))
        return kernel_c(rule, o, false, src, len, st, err);
    if (!strcmp(target, "cuda") || !strcmp(target, "ptx"))
        return kernel_gpu(rule, !strcmp(target, "ptx"), NULL, o, src, len,
                          st, err);
    if (!strcmp(target, "opencl"))
        return kernel_opencl(rule, o, src, len, st, err);
    return gg_fail(err, "unknown target '%s'; available: c, cuda, ptx, "
                   "opencl", target);
}

#include "kernel_source.h"

#include <stdlib.h>

#include "emit_c.h"
#include "emit_cuda.h"
#include "emit_opencl.h"

int gg_kernel_c(const gg_rule *rule, const gg_choose_opts *o, char **src,
                size_t *len, gg_err *err)
{
    gg_circuit *c = gg_alloc(2, sizeof *c, err, "circuits");
    if (!c)
        return -1;
    int bad = gg_choose_kernel_circuit(rule, GG_LIB_LUT3, o, &c[0], err) ||
              gg_choose_kernel_circuit(rule, GG_LIB_GATE2, o, &c[1], err) ||
              gg_emit_c_circuits(&c[0], &c[1], src, len, err);
    free(c);
    return bad ? -1 : 0;
}

int gg_kernel_cuda(const gg_rule *rule, const gg_choose_opts *o, char **src,
                   size_t *len, gg_err *err)
{
    gg_circuit *c = gg_alloc(1, sizeof *c, err, "circuit");
    if (!c)
        return -1;
    int bad = gg_choose_gpu_circuit(rule, o, c, err) ||
              gg_emit_cuda_circuit(c, src, len, err);
    free(c);
    return bad ? -1 : 0;
}

int gg_kernel_ptx(const gg_rule *rule, const gg_ptx_opts *po,
                  const gg_choose_opts *o, char **src, size_t *len,
                  gg_err *err)
{
    gg_ptx_opts base = gg_ptx_tuned(16, true, 4, 1);
    gg_circuit *c = gg_alloc(1, sizeof *c, err, "circuit");
    if (!c)
        return -1;
    int bad = gg_choose_gpu_circuit(rule, o, c, err) ||
              gg_emit_ptx_circuit(c, po ? po : &base, src, len, err);
    free(c);
    return bad ? -1 : 0;
}

int gg_kernel_opencl(const gg_rule *rule, const gg_choose_opts *o, char **src,
                     size_t *len, gg_err *err)
{
    gg_circuit *c = gg_alloc(1, sizeof *c, err, "circuit");
    if (!c)
        return -1;
    int bad = gg_choose_kernel_circuit(rule, GG_LIB_GATE2, o, c, err) ||
              gg_emit_opencl_circuit(c, src, len, err);
    free(c);
    return bad ? -1 : 0;
}

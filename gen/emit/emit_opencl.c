#include "emit_opencl.h"

#include <stdlib.h>

#include "emit_c.h"
#include "emit_cuda.h"
#include "emit_net.h"

/* The template's gate macros (templates/opencl/kernel.cl.in). */
static const gg_emit_ops cl_ops = {
    .op = {[GG_OP_AND] = "G_AND", [GG_OP_OR] = "G_OR", [GG_OP_XOR] = "G_XOR",
           [GG_OP_ANDNOT] = "G_ANDNOT", [GG_OP_NOT] = "G_NOT"},
    .zero = "G_ZERO",
    .ones = "G_ONES",
    .type = "uint",
};

int gg_emit_opencl_circuit(const gg_circuit *c, const gg_gen_nets *gen,
                           char **src, size_t *len, gg_err *err)
{
    gg_kplan p;
    gg_sbuf head = {0}, nets = {0}, out = {0};
    char *hs = NULL, *ns = NULL;
    int bad = gg_kplan_build(c, &p, err) ||
              gg_emit_c_like_nets(&nets, &p, &cl_ops, "static inline", err) ||
              gg_emit_gen_stage(&nets, gen, &cl_ops, "static inline", err);
    if (!bad) {
        gg_emit_gpu_header(&head, c, &p, "OpenCL C",
                           "templates/opencl/kernel.cl.in");
        bad = gg_sbuf_take(&head, &hs, NULL, err) ||
              gg_sbuf_take(&nets, &ns, NULL, err);
    }
    if (!bad) {
        const char *keys[] = {"HEADER", "NETS"};
        const char *vals[] = {hs, ns};
        bad = gg_emit_fill(&out, gg_template_opencl_kernel,
                           gg_template_opencl_kernel_len, keys, vals, 2,
                           "OpenCL", err) ||
              gg_sbuf_take(&out, src, len, err);
    }
    free(hs);
    free(ns);
    gg_sbuf_free(&head);
    gg_sbuf_free(&nets);
    gg_sbuf_free(&out);
    return bad ? -1 : 0;
}


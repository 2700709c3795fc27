#include "opencl_table.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "opencl_common.h"
#include "rule_gen.h"
#include "rulefile_emit.h"
#include "validate_table.h"

#if GG_HAVE_OPENCL

struct gg_opencl_table {
    const gg_rulefile *rf;
    int np, nin;
    gg_cl_device d;
    gg_cl_program p;
    cl_kernel step, eval; /* kept by p */
    gg_gpu_table_geom geom; /* of the buffers below */
    gg_cl_buffers b;
};

/* The kernel's own account of its planes and inputs (gg_table_abi)
 * against the rule's. */
static int check_abi(gg_opencl_table *k, gg_err *err)
{
    cl_int r;
    cl_kernel abi; /* kept by k->p: asked once */
    if (gg_cl_kernel(&k->p, "gg_table_abi", &abi, err))
        return -1;
    cl_mem m = clCreateBuffer(k->d.ctx, CL_MEM_READ_WRITE,
                              3 * sizeof(cl_int), NULL, &r);
    cl_int got[3] = {0, 0, 0};
    size_t one = 1;
    if (r == CL_SUCCESS)
        r = clSetKernelArg(abi, 0, sizeof m, &m);
    if (r == CL_SUCCESS)
        r = clEnqueueNDRangeKernel(k->d.q, abi, 1, NULL, &one, &one, 0,
                                   NULL, NULL);
    if (r == CL_SUCCESS)
        r = clEnqueueReadBuffer(k->d.q, m, CL_TRUE, 0, sizeof got, got, 0,
                                NULL, NULL);
    if (m)
        clReleaseMemObject(m);
    if (gg_cl_check(r, "the kernel's ABI query", err))
        return -1;
    if (got[0] != 1 || got[1] != k->np || got[2] != k->nin)
        return gg_fail(err, "the OpenCL table kernel has ABI %d, %d planes "
                       "and %d inputs; expected ABI 1 and the rule's %d "
                       "and %d", got[0], got[1], got[2], k->np, k->nin);
    return 0;
}

static int build(gg_opencl_table *k, const char *src, gg_err *err)
{
    return gg_cl_build(&k->d, src, "the table kernel", &k->p, err) ||
                   gg_cl_kernel(&k->p, "gg_table_step", &k->step, err) ||
                   gg_cl_kernel(&k->p, "gg_table_eval_k", &k->eval, err)
               ? -1
               : 0;
}

/* Buffers for cells' size (kept while the size stays). */
static int prepare(gg_opencl_table *k, const gg_gen_cells *cells,
                   gg_err *err)
{
    gg_gpu_table_geom g;
    if (gg_gpu_table_geom_init(&g, cells, k->np, err))
        return -1;
    if (k->b.host && g.width == k->geom.width && g.height == k->geom.height)
        return 0;
    k->geom = g;
    return gg_cl_buffers_alloc(&k->b, &k->d, gg_gpu_table_bytes(&g), err);
}

/* Work-groups of 32 words by 4 rows, the grid rounded up to them (the
 * kernel skips what lies past the grid). */
static int launch(gg_opencl_table *k, int from, int torus, gg_err *err)
{
    gg_gpu_table_geom *g = &k->geom;
    cl_mem a = k->b.buf[from], b = k->b.buf[from ^ 1];
    cl_long pw = g->pw;
    const void *v[] = {&a, &b, &g->width, &g->height, &g->nw, &pw, &torus};
    size_t sz[] = {sizeof a, sizeof b, 4, 4, 4, sizeof pw, 4};
    size_t lo[2] = {32, 4};
    size_t gl[2] = {((size_t)g->nw + 31) / 32 * 32,
                    ((size_t)g->height + 3) / 4 * 4};
    if (gg_cl_set_args(k->step, v, sz, 7, err))
        return -1;
    return gg_cl_check(clEnqueueNDRangeKernel(k->d.q, k->step, 2, NULL, gl,
                                              lo, 0, NULL, NULL),
                       "gg_table_step launch", err);
}

int gg_opencl_table_step(gg_opencl_table *k, gg_topo topo,
                         gg_gen_cells *cells, int64_t gens, gg_err *err)
{
    if (gens <= 0)
        return 0;
    if (topo != GG_TOPO_TORUS && topo != GG_TOPO_PLANE)
        return gg_fail(err, "the OpenCL table kernel needs a torus or a "
                       "bounded plane");
    if (prepare(k, cells, err))
        return -1;
    size_t bytes = gg_gpu_table_bytes(&k->geom);
    gg_gpu_table_pack(cells, &k->geom, k->b.host);
    if (gg_cl_check(clEnqueueWriteBuffer(k->d.q, k->b.buf[0], CL_FALSE, 0,
                                         bytes, k->b.host, 0, NULL, NULL),
                    "upload", err))
        return -1;
    int cur = 0;
    for (int64_t n = 0; n < gens; n++, cur ^= 1)
        if (launch(k, cur, topo == GG_TOPO_TORUS, err))
            return -1;
    if (gg_cl_check(clEnqueueReadBuffer(k->d.q, k->b.buf[cur], CL_TRUE, 0,
                                        bytes, k->b.host, 0, NULL, NULL),
                    "download", err))
        return -1;
    gg_gpu_table_unpack(k->b.host, &k->geom, cells);
    return 0;
}

/* Validation's eval: n words of 64 cells as 2n of 32, one launch. */
static int eval_words(void *ctx, const uint64_t *x, uint64_t *o, int64_t n,
                      gg_err *err)
{
    gg_opencl_table *k = ctx;
    int per = k->nin * k->np;
    size_t xb = (size_t)(2 * n * per) * 4, ob = (size_t)(2 * n * k->np) * 4;
    uint32_t *x32 = malloc(xb), *o32 = malloc(ob);
    cl_int r = CL_OUT_OF_HOST_MEMORY;
    cl_mem mx = NULL, mo = NULL;
    if (x32 && o32) {
        gg_gpu_table_split(x, n, per, x32);
        mx = clCreateBuffer(k->d.ctx,
                            CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, xb, x32,
                            &r);
    }
    if (r == CL_SUCCESS)
        mo = clCreateBuffer(k->d.ctx, CL_MEM_WRITE_ONLY, ob, NULL, &r);
    int items = (int)(2 * n);
    if (r == CL_SUCCESS) {
        const void *v[] = {&mx, &mo, &items};
        size_t sz[] = {sizeof mx, sizeof mo, 4};
        size_t lo = 64, gl = ((size_t)items + 63) / 64 * 64;
        r = gg_cl_set_args(k->eval, v, sz, 3, err) ? CL_INVALID_KERNEL_ARGS
            : clEnqueueNDRangeKernel(k->d.q, k->eval, 1, NULL, &gl, &lo, 0,
                                     NULL, NULL);
    }
    if (r == CL_SUCCESS)
        r = clEnqueueReadBuffer(k->d.q, mo, CL_TRUE, 0, ob, o32, 0, NULL,
                                NULL);
    if (r == CL_SUCCESS)
        gg_gpu_table_join(o32, n, k->np, o);
    if (mx)
        clReleaseMemObject(mx);
    if (mo)
        clReleaseMemObject(mo);
    free(x32);
    free(o32);
    return gg_cl_check(r, "the table kernel's per-cell check", err);
}

int gg_opencl_table_open_source(const gg_rulefile *rf, const char *src,
                                const gg_gpu_table_opts *o,
                                gg_opencl_table **out, gg_fail_kind *why,
                                gg_err *err)
{
    (void)o;
    *out = NULL;
    *why = GG_FAIL_ENV;
    gg_opencl_table *k = gg_alloc(1, sizeof *k, err, "OpenCL table kernel");
    if (!k)
        return -1;
    k->rf = rf;
    k->np = gg_gen_planes(rf->n_states);
    k->nin = rf->n_inputs;
    int bad = gg_cl_open(&k->d, err) || build(k, src, err);
    if (!bad) {
        *why = GG_FAIL_INVALID;
        bad = check_abi(k, err) ||
              gg_validate_table(rf, eval_words, gg_opencl_table_step_cb, k,
                                "the OpenCL table kernel", 0x7ab1e, err);
    }
    if (bad) {
        gg_opencl_table_close(k);
        return -1;
    }
    *out = k;
    return 0;
}

const char *gg_opencl_table_device(const gg_opencl_table *k)
{
    return k->d.name;
}

void gg_opencl_table_close(gg_opencl_table *k)
{
    if (!k)
        return;
    gg_cl_buffers_free(&k->b);
    gg_cl_program_free(&k->p);
    gg_cl_close(&k->d);
    free(k);
}

#else /* built without OpenCL */

struct gg_opencl_table {
    int unused;
};

int gg_opencl_table_open_source(const gg_rulefile *rf, const char *src,
                                const gg_gpu_table_opts *o,
                                gg_opencl_table **out, gg_fail_kind *why,
                                gg_err *err)
{
    (void)rf, (void)src, (void)o;
    *out = NULL;
    return gg_cl_unavailable(why, err);
}

int gg_opencl_table_step(gg_opencl_table *k, gg_topo topo,
                         gg_gen_cells *cells, int64_t gens, gg_err *err)
{
    (void)k, (void)topo, (void)cells, (void)gens;
    return gg_fail(err, "this golgen was built without OpenCL");
}

const char *gg_opencl_table_device(const gg_opencl_table *k)
{
    (void)k;
    return "none";
}

void gg_opencl_table_close(gg_opencl_table *k) { (void)k; }

#endif

int gg_opencl_table_open(const gg_rulefile *rf, const char *name,
                         const gg_gpu_table_opts *o, gg_opencl_table **out,
                         gg_fail_kind *why, gg_err *err)
{
    char *src;
    size_t len;
    *out = NULL;
    *why = GG_FAIL_INPUT; /* too large to compile */
    if (gg_rulefile_emit_gpu(rf, name, GG_RF_GPU_OPENCL,
                             o ? o->max_terms : 0, &src, &len, NULL, err))
        return -1;
    int bad = gg_opencl_table_open_source(rf, src, o, out, why, err);
    free(src);
    return bad;
}

static void close_kernel(void *ctx) { gg_opencl_table_close(ctx); }

int gg_opencl_table_open_kernel(const gg_rulefile *rf, const char *name,
                                const gg_backend_opts *o, gg_table_kernel *k,
                                gg_fail_kind *why, gg_err *err)
{
    gg_gpu_table_opts go = {.config = o->config, .device = o->device};
    gg_opencl_table *c;
    if (gg_opencl_table_open(rf, name, &go, &c, why, err))
        return -1;
    snprintf(k->what, sizeof k->what, "opencl on %s",
             gg_opencl_table_device(c));
    k->ctx = c;
    k->step = gg_opencl_table_step_cb;
    k->close = close_kernel;
    return 0;
}

int gg_opencl_table_step_cb(void *ctx, gg_topo topo, gg_gen_cells *cells,
                            int64_t gens, gg_err *err)
{
    return gg_opencl_table_step(ctx, topo, cells, gens, err);
}

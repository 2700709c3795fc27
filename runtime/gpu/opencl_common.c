#include "opencl_common.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int gg_cl_unavailable(gg_fail_kind *why, gg_err *err)
{
    *why = GG_FAIL_ENV;
    return gg_fail(err, "this golgen was built without OpenCL (install "
                   "ocl-icd-opencl-dev and reconfigure)");
}

#if GG_HAVE_OPENCL

/* The platforms the loader knows, at most 16 of them. */
#define GG_CL_MAX_PLATFORMS 16

int gg_cl_check(cl_int r, const char *what, gg_err *err)
{
    return r == CL_SUCCESS ? 0
                           : gg_fail(err, "OpenCL %s failed (error %d)",
                                     what, (int)r);
}

static int no_platform(gg_err *err)
{
    return gg_fail(err, "no OpenCL platform found (install an ICD, e.g. "
                   "pocl-opencl-icd or the GPU vendor's)");
}

int gg_cl_probe(gg_err *err)
{
    cl_platform_id plat;
    cl_uint np = 0;
    if (clGetPlatformIDs(1, &plat, &np) != CL_SUCCESS || np == 0)
        return no_platform(err);
    return 0;
}

/* A GPU if any platform has one, else the first device of any kind: on a
 * machine with a GPU and PoCL, the GPU, whichever platform comes first. */
static int pick_device(gg_cl_device *d, gg_err *err)
{
    cl_platform_id plats[GG_CL_MAX_PLATFORMS];
    cl_uint np = 0;
    if (clGetPlatformIDs(GG_CL_MAX_PLATFORMS, plats, &np) != CL_SUCCESS ||
        np == 0)
        return no_platform(err);
    /* np counts every platform, also those past the array */
    if (np > GG_CL_MAX_PLATFORMS)
        np = GG_CL_MAX_PLATFORMS;
    cl_device_type kinds[2] = {CL_DEVICE_TYPE_GPU, CL_DEVICE_TYPE_ALL};
    for (int k = 0; k < 2; k++)
        for (cl_uint i = 0; i < np; i++) {
            cl_uint nd = 0;
            if (clGetDeviceIDs(plats[i], kinds[k], 1, &d->dev, &nd) ==
                    CL_SUCCESS && nd > 0) {
                clGetDeviceInfo(d->dev, CL_DEVICE_NAME, sizeof d->name - 1,
                                d->name, NULL);
                return 0;
            }
        }
    return gg_fail(err, "no OpenCL device found");
}

int gg_cl_open(gg_cl_device *d, gg_err *err)
{
    cl_int r;
    if (pick_device(d, err))
        return -1;
    d->ctx = clCreateContext(NULL, 1, &d->dev, NULL, NULL, &r);
    if (gg_cl_check(r, "clCreateContext", err))
        return -1;
    d->q = clCreateCommandQueue(d->ctx, d->dev, 0, &r);
    return gg_cl_check(r, "clCreateCommandQueue", err);
}

void gg_cl_close(gg_cl_device *d)
{
    if (d->q)
        clReleaseCommandQueue(d->q);
    if (d->ctx)
        clReleaseContext(d->ctx);
    d->q = NULL;
    d->ctx = NULL;
}

int gg_cl_build(const gg_cl_device *d, const char *src, const char *what,
                gg_cl_program *p, gg_err *err)
{
    cl_int r;
    size_t len = strlen(src);
    p->prog = clCreateProgramWithSource(d->ctx, 1, &src, &len, &r);
    if (gg_cl_check(r, "clCreateProgramWithSource", err))
        return -1;
    r = clBuildProgram(p->prog, 1, &d->dev, "-cl-std=CL1.2", NULL, NULL);
    if (r == CL_SUCCESS)
        return 0;
    /* the log's start names the first errors; the message stays a line
     * or a few */
    char log[600] = "";
    clGetProgramBuildInfo(p->prog, d->dev, CL_PROGRAM_BUILD_LOG,
                          sizeof log - 1, log, NULL);
    return gg_fail(err, "OpenCL could not build %s (error %d): %s", what,
                   (int)r, log);
}

int gg_cl_kernel(gg_cl_program *p, const char *name, cl_kernel *k,
                 gg_err *err)
{
    cl_int r;
    char what[100];
    *k = NULL;
    if (p->n == GG_CL_MAX_KERNELS)
        return gg_fail(err, "OpenCL: more than %d kernels in one program",
                       GG_CL_MAX_KERNELS);
    *k = clCreateKernel(p->prog, name, &r);
    snprintf(what, sizeof what, "clCreateKernel %s", name);
    if (gg_cl_check(r, what, err))
        return -1;
    p->kernel[p->n++] = *k;
    return 0;
}

void gg_cl_program_free(gg_cl_program *p)
{
    for (int i = 0; i < p->n; i++)
        clReleaseKernel(p->kernel[i]);
    if (p->prog)
        clReleaseProgram(p->prog);
    p->n = 0;
    p->prog = NULL;
}

int gg_cl_set_args(cl_kernel k, const void *const *vals, const size_t *sz,
                   int n, gg_err *err)
{
    for (int i = 0; i < n; i++)
        if (gg_cl_check(clSetKernelArg(k, (cl_uint)i, sz[i], vals[i]),
                        "clSetKernelArg", err))
            return -1;
    return 0;
}

void gg_cl_buffers_free(gg_cl_buffers *b)
{
    for (int i = 0; i < 2; i++)
        if (b->buf[i])
            clReleaseMemObject(b->buf[i]);
    b->buf[0] = b->buf[1] = NULL;
    free(b->host);
    b->host = NULL;
    b->bytes = 0;
}

int gg_cl_buffers_alloc(gg_cl_buffers *b, const gg_cl_device *d,
                        size_t bytes, gg_err *err)
{
    gg_cl_buffers_free(b);
    b->host = gg_alloc(1, bytes, err, "OpenCL staging buffer");
    if (!b->host)
        return -1;
    for (int i = 0; i < 2; i++) {
        cl_int r;
        b->buf[i] = clCreateBuffer(d->ctx, CL_MEM_READ_WRITE, bytes, NULL,
                                   &r);
        if (gg_cl_check(r, "clCreateBuffer", err)) {
            gg_cl_buffers_free(b);
            return -1;
        }
    }
    b->bytes = bytes;
    return 0;
}

#endif

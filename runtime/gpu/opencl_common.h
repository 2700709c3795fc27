/* What the two OpenCL kernels share (runtime/gpu/opencl_backend.c for
 * two-state and Generations rules, runtime/gpu/opencl_table.c for Golly
 * rule tables): the device opened (a GPU if any platform has one, else
 * the first device of any kind: PoCL runs on the CPU), a program built
 * with its log in the error, OpenCL's error codes turned into gg_err
 * messages, and the pair of device buffers with their host staging
 * buffer that both kernels step between. */
#ifndef GG_OPENCL_COMMON_H
#define GG_OPENCL_COMMON_H

#include <stddef.h>
#include <stdint.h>

#include "error.h"
#include "fail.h"
#include "gg_config.h"

/* The message of a build without OpenCL; *why = GG_FAIL_ENV. Both
 * builds have it: the stubs of a build without OpenCL call it. */
int gg_cl_unavailable(gg_fail_kind *why, gg_err *err);

#if GG_HAVE_OPENCL
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>

typedef struct gg_cl_device {
    cl_device_id dev;
    cl_context ctx;
    cl_command_queue q;
    char name[300];
} gg_cl_device;

/* 0 on CL_SUCCESS, else -1 and "OpenCL <what> failed (error <r>)". */
int gg_cl_check(cl_int r, const char *what, gg_err *err);

/* Fails, naming the ICDs to install, where no OpenCL platform is found
 * (the backend table's probe). */
int gg_cl_probe(gg_err *err);

/* Pick the device, name it, make its context and queue. No option
 * picks among devices: the ordinal in the backends' options is CUDA's
 * (bands on --devices each open this same device here). On failure d
 * holds what was made: gg_cl_close releases it. */
int gg_cl_open(gg_cl_device *d, gg_err *err);
void gg_cl_close(gg_cl_device *d);

/* A program and the kernels made from it, released together. */
#define GG_CL_MAX_KERNELS 4
typedef struct gg_cl_program {
    cl_program prog;
    cl_kernel kernel[GG_CL_MAX_KERNELS];
    int n;
} gg_cl_program;

/* src built for d as OpenCL C 1.2 into p; on a build error, what ("the
 * kernel", "the table kernel") and the start of the build log. */
int gg_cl_build(const gg_cl_device *d, const char *src, const char *what,
                gg_cl_program *p, gg_err *err);

/* The kernel called name in p's program, into *k and kept by p. */
int gg_cl_kernel(gg_cl_program *p, const char *name, cl_kernel *k,
                 gg_err *err);
void gg_cl_program_free(gg_cl_program *p);

/* Arguments 0 .. n-1 of k: vals[i], sz[i] bytes. */
int gg_cl_set_args(cl_kernel k, const void *const *vals, const size_t *sz,
                   int n, gg_err *err);

/* Two device buffers of one size (a step reads one and writes the
 * other) and a host buffer of that size to pack and unpack in. */
typedef struct gg_cl_buffers {
    cl_mem buf[2];
    uint32_t *host;
    size_t bytes;
} gg_cl_buffers;

/* Buffers of bytes each, replacing those b held; on failure b is empty. */
int gg_cl_buffers_alloc(gg_cl_buffers *b, const gg_cl_device *d,
                        size_t bytes, gg_err *err);
void gg_cl_buffers_free(gg_cl_buffers *b);

#endif

#endif

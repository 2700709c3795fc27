/* A CUDA device through the driver API, which is loaded at run time
 * (dlopen of libcuda), so golgen runs on machines without it and says
 * there is no GPU. The 2D backends (runtime/gpu/cuda_backend.c) and the 3D
 * kernel (runtime/gpu/cuda3d.c) open their device here. */
#ifndef GG_CUDA_DEVICE_H
#define GG_CUDA_DEVICE_H

#include "cuda_api.h"
#include "error.h"

typedef struct gg_cu_device {
    gg_cu_api cu;   /* the driver's functions */
    CUdevice dev;
    CUcontext ctx;  /* the device's primary context, made current */
    char name[256]; /* "NVIDIA H100 80GB HBM3 (sm_90, 132 SMs)" */
    int sms, cc;    /* multiprocessors; compute capability, e.g. 90 */
} gg_cu_device;

/* The first of names that dlopen opens (NULL entries skipped), or NULL. */
void *gg_cu_open_first(const char *const *names, int n);

/* Resolve each name into the i-th pointer slot from base (the API
 * structs list their function pointers in the order of their names).
 * Returns the first missing name, or NULL. */
const char *gg_cu_resolve(void *lib, const char *const *names, void *base,
                            int n);

/* Load the driver, initialize it, open device `ordinal` and its primary
 * context. Every failure is the environment's: no driver, no device, a
 * driver too old. */
int gg_cu_device_open(gg_cu_device *d, int ordinal, gg_err *err);

/* 0 when r is success, else -1 with "CUDA <what> failed: <reason>". */
int gg_cu_check(const gg_cu_api *cu, CUresult r, const char *what,
                  gg_err *err);

#endif

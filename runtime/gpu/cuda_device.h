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
/* The device ordinals this process will open (negative ones ignored; at
 * most GG_CU_MAX_PLAN kept), told before its first open: the driver's
 * first initialization then sets up those devices alone, where
 * CUDA_VISIBLE_DEVICES is not set (cuda_device.c says how and why). A
 * plan told after the first open changes nothing. An ordinal not planned
 * may then not be opened. For a program's own use (the command's
 * --devices), not a library's: it sets the process's environment. */
#define GG_CU_MAX_PLAN 64
void gg_cu_plan_devices(const int *ordinal, int n);

int gg_cu_device_open(gg_cu_device *d, int ordinal, gg_err *err);

/* 0 when r is success, else -1 with "CUDA <what> failed: <reason>". */
int gg_cu_check(const gg_cu_api *cu, CUresult r, const char *what,
                  gg_err *err);

/* Load a module image (PTX or cubin) and find the n functions named, into
 * fns[i]; -1 with the driver's own log in err when it refuses the image
 * ("the CUDA driver refused the <what> (error N): log") or a function is
 * missing (the module unloaded again), *mod then NULL. */
int gg_cu_load_module(const gg_cu_api *cu, CUmodule *mod, const void *img,
                      const char *what, const char *const *names,
                      CUfunction *const *fns, int n, gg_err *err);

#endif

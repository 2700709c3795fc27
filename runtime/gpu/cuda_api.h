/* The few CUDA driver API and NVRTC declarations golgen uses, written out
 * here so golgen builds without the CUDA toolkit: both libraries are
 * opened with dlopen at run time (runtime/gpu/cuda_backend.c) and a machine
 * without them gets a clear "no GPU" error instead of a link failure.
 * Values and signatures follow cuda.h and nvrtc.h of CUDA 11-13 (the _v2
 * entry points are the ones cuda.h's macros select). */
#ifndef GG_CUDA_API_H
#define GG_CUDA_API_H

#include <stddef.h>

typedef int CUresult; /* 0 = CUDA_SUCCESS */
typedef int CUdevice;
typedef struct CUctx_st *CUcontext;
typedef struct CUmod_st *CUmodule;
typedef struct CUfunc_st *CUfunction;
typedef struct CUstream_st *CUstream;
typedef struct CUevent_st *CUevent;
typedef unsigned long long CUdeviceptr;

enum {
    GG_CUDA_SUCCESS = 0,
    GG_CUDA_ERROR_NO_DEVICE = 100,
    GG_CUDA_ERROR_PEER_ACCESS_ALREADY_ENABLED = 704,
    GG_CU_ATTR_CLOCK_RATE = 13,
    GG_CU_ATTR_SM_COUNT = 16,
    GG_CU_ATTR_CC_MAJOR = 75,
    GG_CU_ATTR_CC_MINOR = 76,
    GG_CU_FUNC_NUM_REGS = 4,
    GG_CU_JIT_ERROR_LOG_BUFFER = 5,
    GG_CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES = 6,
};

/* CUDA_MEMCPY2D of cuda.h (the _v2 layout) */
enum {
    GG_CU_MEMORYTYPE_HOST = 1,
    GG_CU_MEMORYTYPE_DEVICE = 2,
    GG_CU_STREAM_NON_BLOCKING = 1,
    GG_CU_EVENT_DISABLE_TIMING = 2,
};
typedef struct gg_cu_memcpy2d {
    size_t srcXInBytes, srcY;
    int srcMemoryType;
    const void *srcHost;
    CUdeviceptr srcDevice;
    void *srcArray;
    size_t srcPitch;
    size_t dstXInBytes, dstY;
    int dstMemoryType;
    void *dstHost;
    CUdeviceptr dstDevice;
    void *dstArray;
    size_t dstPitch;
    size_t WidthInBytes, Height;
} gg_cu_memcpy2d;

/* Driver API entry points (libcuda.so.1). */
typedef struct gg_cu_api {
    void *lib;
    CUresult (*cuInit)(unsigned flags);
    CUresult (*cuDriverGetVersion)(int *version);
    CUresult (*cuDeviceGetCount)(int *count);
    CUresult (*cuDeviceGet)(CUdevice *dev, int ordinal);
    CUresult (*cuDeviceGetName)(char *name, int len, CUdevice dev);
    CUresult (*cuDeviceGetAttribute)(int *v, int attr, CUdevice dev);
    CUresult (*cuDevicePrimaryCtxRetain)(CUcontext *ctx, CUdevice dev);
    CUresult (*cuDevicePrimaryCtxRelease)(CUdevice dev);
    CUresult (*cuCtxSetCurrent)(CUcontext ctx);
    CUresult (*cuCtxSynchronize)(void);
    CUresult (*cuModuleLoadDataEx)(CUmodule *mod, const void *image,
                                   unsigned n, int *opts, void **vals);
    CUresult (*cuModuleUnload)(CUmodule mod);
    CUresult (*cuModuleGetFunction)(CUfunction *f, CUmodule mod,
                                    const char *name);
    CUresult (*cuFuncGetAttribute)(int *v, int attr, CUfunction f);
    CUresult (*cuOccupancyMaxActiveBlocksPerMultiprocessor)(
        int *blocks, CUfunction f, int block_size, size_t smem);
    CUresult (*cuMemAlloc)(CUdeviceptr *p, size_t bytes);
    CUresult (*cuMemFree)(CUdeviceptr p);
    CUresult (*cuMemcpyHtoD)(CUdeviceptr dst, const void *src, size_t n);
    CUresult (*cuMemcpyDtoH)(void *dst, CUdeviceptr src, size_t n);
    CUresult (*cuMemcpyDtoD)(CUdeviceptr dst, CUdeviceptr src, size_t n);
    CUresult (*cuMemsetD8)(CUdeviceptr p, unsigned char v, size_t n);
    CUresult (*cuLaunchKernel)(CUfunction f, unsigned gx, unsigned gy,
                               unsigned gz, unsigned bx, unsigned by,
                               unsigned bz, unsigned smem, CUstream s,
                               void **params, void **extra);
    CUresult (*cuGetErrorString)(CUresult r, const char **s);
    /* streams and pinned host memory: grids streamed through the device
     * in bands (runtime/gpu/cuda_stream.c) */
    CUresult (*cuMemcpyDtoDAsync)(CUdeviceptr dst, CUdeviceptr src, size_t n,
                                  CUstream s);
    CUresult (*cuMemcpy2DAsync)(const gg_cu_memcpy2d *p, CUstream s);
    CUresult (*cuMemsetD8Async)(CUdeviceptr p, unsigned char v, size_t n,
                                CUstream s);
    CUresult (*cuStreamCreate)(CUstream *s, unsigned flags);
    CUresult (*cuStreamDestroy)(CUstream s);
    CUresult (*cuStreamSynchronize)(CUstream s);
    CUresult (*cuMemAllocHost)(void **p, size_t bytes);
    CUresult (*cuMemFreeHost)(void *p);
    CUresult (*cuEventCreate)(CUevent *e, unsigned flags);
    CUresult (*cuEventRecord)(CUevent e, CUstream s);
    CUresult (*cuEventSynchronize)(CUevent e);
    CUresult (*cuEventDestroy)(CUevent e);
    /* bands on several GPUs (runtime/universes/multi_band.h): halos device to
     * device, over NVLink where the pair has peer access */
    CUresult (*cuDeviceCanAccessPeer)(int *can, CUdevice dev, CUdevice peer);
    CUresult (*cuCtxEnablePeerAccess)(CUcontext peer, unsigned flags);
    CUresult (*cuMemcpyPeer)(CUdeviceptr dst, CUcontext dst_ctx,
                             CUdeviceptr src, CUcontext src_ctx, size_t n);
    CUresult (*cuMemcpyPeerAsync)(CUdeviceptr dst, CUcontext dst_ctx,
                                  CUdeviceptr src, CUcontext src_ctx,
                                  size_t n, CUstream s);
    CUresult (*cuStreamWaitEvent)(CUstream s, CUevent e, unsigned flags);
} gg_cu_api;

typedef int nvrtcResult; /* 0 = NVRTC_SUCCESS */
typedef struct _nvrtcProgram *nvrtcProgram;

/* NVRTC entry points (libnvrtc.so.*); it compiles without a GPU. */
typedef struct gg_nvrtc_api {
    void *lib;
    nvrtcResult (*nvrtcVersion)(int *major, int *minor);
    nvrtcResult (*nvrtcCreateProgram)(nvrtcProgram *p, const char *src,
                                      const char *name, int nheaders,
                                      const char *const *headers,
                                      const char *const *include_names);
    nvrtcResult (*nvrtcCompileProgram)(nvrtcProgram p, int nopts,
                                       const char *const *opts);
    nvrtcResult (*nvrtcGetProgramLogSize)(nvrtcProgram p, size_t *n);
    nvrtcResult (*nvrtcGetProgramLog)(nvrtcProgram p, char *log);
    nvrtcResult (*nvrtcGetPTXSize)(nvrtcProgram p, size_t *n);
    nvrtcResult (*nvrtcGetPTX)(nvrtcProgram p, char *ptx);
    nvrtcResult (*nvrtcGetCUBINSize)(nvrtcProgram p, size_t *n);
    nvrtcResult (*nvrtcGetCUBIN)(nvrtcProgram p, char *cubin);
    nvrtcResult (*nvrtcDestroyProgram)(nvrtcProgram *p);
    const char *(*nvrtcGetErrorString)(nvrtcResult r);
} gg_nvrtc_api;

#endif

/* NVRTC, opened with dlopen when a CUDA C kernel is compiled: the library
 * found and resolved, a program compiled to a cubin or PTX. */
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "atomic_file.h"
#include "cuda_api.h"
#include "cuda_backend.h"
#include "cuda_device.h"
#include "cuda_internal.h"
#include "gpu_tune.h"

/* ---- loading the library ---- */

int gg_nvrtc_load(gg_nvrtc_api *nv, const char *given, gg_err *err)
{
    const char *const libs[] = {
        given, "libnvrtc.so", "libnvrtc.so.13", "libnvrtc.so.12",
        "libnvrtc.so.11.2", "/usr/local/cuda/lib64/libnvrtc.so",
        "/usr/local/cuda/lib64/libnvrtc.so.13",
        "/usr/local/cuda/lib64/libnvrtc.so.12"};
    static const char *const names[] = {
        "nvrtcVersion", "nvrtcCreateProgram", "nvrtcCompileProgram",
        "nvrtcGetProgramLogSize", "nvrtcGetProgramLog", "nvrtcGetPTXSize",
        "nvrtcGetPTX", "nvrtcGetCUBINSize", "nvrtcGetCUBIN",
        "nvrtcDestroyProgram", "nvrtcGetErrorString"};
    memset(nv, 0, sizeof *nv);
    nv->lib = gg_cu_open_first(libs, (int)(sizeof libs / sizeof *libs));
    if (!nv->lib)
        return gg_fail(err, "NVRTC (libnvrtc.so) not found: install the "
                       "CUDA toolkit or set GOLGEN_NVRTC to the library");
    const char *miss = gg_cu_resolve(nv->lib, names, &nv->nvrtcVersion,
                               (int)(sizeof names / sizeof *names));
    if (miss) {
        dlclose(nv->lib);
        return gg_fail(err, "NVRTC lacks %s (older than CUDA 11.1?)", miss);
    }
    return 0;
}

/* ---- NVRTC ---- */

static int nvrtc_log_fail(gg_nvrtc_api *nv, nvrtcProgram p, gg_err *err)
{
    size_t n = 0;
    char log[400] = "";
    if (!nv->nvrtcGetProgramLogSize(p, &n) && n > 1) {
        char *full = malloc(n);
        if (full && !nv->nvrtcGetProgramLog(p, full))
            snprintf(log, sizeof log, "%s", full);
        free(full);
    }
    return gg_fail(err, "NVRTC could not compile the kernel: %s", log);
}

static int nvrtc_result(gg_nvrtc_api *nv, nvrtcProgram p, bool cubin,
                        char **out, size_t *len, gg_err *err)
{
    size_t n = 0;
    int r = cubin ? nv->nvrtcGetCUBINSize(p, &n) : nv->nvrtcGetPTXSize(p, &n);
    if (r || n == 0)
        return gg_fail(err, "NVRTC gave no %s (error %d)",
                       cubin ? "cubin" : "PTX", r);
    *out = malloc(n + 1);
    if (!*out)
        return gg_fail(err, "out of memory for the compiled kernel");
    r = cubin ? nv->nvrtcGetCUBIN(p, *out) : nv->nvrtcGetPTX(p, *out);
    if (r) {
        free(*out);
        *out = NULL;
        return gg_fail(err, "NVRTC could not hand over the kernel (error %d)",
                       r);
    }
    (*out)[n] = 0;
    *len = n;
    return 0;
}

int gg_nvrtc_compile(const char *nvrtc_lib, const char *src,
                     const char *arch, bool cubin,
                     const char *const *opts, int nopts, char **out,
                     size_t *len, gg_fail_kind *why, gg_err *err)
{
    gg_nvrtc_api nv;
    *why = GG_FAIL_ENV;
    GG_LSAN_OFF(); /* from dlopen on: NVRTC's constructors allocate too */
    if (gg_nvrtc_load(&nv, nvrtc_lib, err)) {
        GG_LSAN_ON();
        return -1;
    }
    const char *all[24];
    char archopt[64];
    int n = 0;
    snprintf(archopt, sizeof archopt, "-arch=%s", arch);
    all[n++] = archopt;
    all[n++] = "-std=c++14";
    for (int i = 0; i < nopts && n < 24; i++)
        all[n++] = opts[i];
    nvrtcProgram p;
    int bad = 0;
    if (nv.nvrtcCreateProgram(&p, src, "golgen_kernel.cu", 0, NULL, NULL)) {
        bad = gg_fail(err, "NVRTC could not create a program");
    } else {
        if (nv.nvrtcCompileProgram(p, n, all))
            bad = nvrtc_log_fail(&nv, p, err);
        else
            bad = nvrtc_result(&nv, p, cubin, out, len, err);
        nv.nvrtcDestroyProgram(&p);
    }
    dlclose(nv.lib);
    GG_LSAN_ON();
    return bad ? -1 : 0;
}

/* A cached image, NUL-terminated (PTX is loaded as a C string); NULL when
 * there is none. */
static char *cache_read(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    char *img = NULL;
    long n = fseek(f, 0, SEEK_END) ? -1 : ftell(f);
    if (n > 0 && !fseek(f, 0, SEEK_SET) && (img = malloc((size_t)n + 1)) &&
        fread(img, 1, (size_t)n, f) != (size_t)n) {
        free(img);
        img = NULL;
    }
    fclose(f);
    if (img)
        img[n] = 0;
    *len = img ? (size_t)n : 0;
    return img;
}

int gg_nvrtc_cached(const char *cache_dir, const char *prefix,
                    const char *nvrtc_lib, const char *src, const char *arch,
                    bool cubin, const char *const *opts, int nopts,
                    char **out, size_t *len, bool *hit, gg_fail_kind *why,
                    gg_err *err)
{
    char path[4400];
    uint64_t h = gg_gpu_hash(0, src, strlen(src));
    for (int i = 0; i < nopts; i++)
        h = gg_gpu_hash(h, opts[i], strlen(opts[i]));
    h = gg_gpu_hash(h, arch, strlen(arch));
    snprintf(path, sizeof path, "%s/%s-%016llx.%s", cache_dir ? cache_dir : "",
             prefix, (unsigned long long)h, cubin ? "cubin" : "ptx");
    if (hit)
        *hit = false;
    if (cache_dir && (*out = cache_read(path, len))) {
        if (hit)
            *hit = true;
        return 0;
    }
    if (gg_nvrtc_compile(nvrtc_lib, src, arch, cubin, opts, nopts, out, len,
                         why, err))
        return -1;
    gg_atomic_file af;
    gg_err ignored;
    if (cache_dir && !gg_atomic_open(path, &af, &ignored) &&
        !gg_atomic_write(&af, *out, *len, &ignored))
        gg_atomic_commit(&af, &ignored); /* a miss next time at worst */
    return 0;
}

int gg_nvrtc_image(const gg_config *config, const char *prefix,
                   const char *src, int cc, bool ptx, char **out,
                   size_t *len, bool *hit, gg_fail_kind *why, gg_err *err)
{
    char arch[24], dir[4096];
    gg_err ignored;
    snprintf(arch, sizeof arch, "%s_%d", ptx ? "compute" : "sm", cc);
    bool cache = !gg_gpu_cache_dir(config ? config->cache_dir : NULL, dir,
                                   sizeof dir, &ignored);
    return gg_nvrtc_cached(cache ? dir : NULL, prefix,
                           config ? config->nvrtc : NULL, src, arch, !ptx,
                           NULL, 0, out, len, hit, why, err);
}

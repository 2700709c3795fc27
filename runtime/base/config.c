#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* An unset and an empty variable mean the same everywhere golgen reads one
 * (TMPDIR excepted, which keeps its old reading: set means set). */
static const char *env_value(const char *name)
{
    const char *v = getenv(name);
    return v && *v ? v : NULL;
}

void gg_config_defaults(gg_config *c)
{
    *c = *gg_config_or_default(NULL);
}

const gg_config *gg_config_or_default(const gg_config *c)
{
    static const gg_config defaults = {.gpu_kstride = true, .tmpdir = "/tmp"};
    return c ? c : &defaults;
}

/* The kernel cache directory's documented order (runtime/backends/jit.h). */
static int cache_dir_from_env(gg_config *c, gg_err *err)
{
    const char *dir = env_value("GOLGEN_CACHE_DIR"), *base;
    int n = 0;
    if (dir)
        n = snprintf(c->cache_dir, sizeof c->cache_dir, "%s", dir);
    else if ((base = env_value("XDG_CACHE_HOME")))
        n = snprintf(c->cache_dir, sizeof c->cache_dir, "%s/golgen", base);
    else if ((base = env_value("HOME")))
        n = snprintf(c->cache_dir, sizeof c->cache_dir, "%s/.cache/golgen",
                     base);
    if (n < 0 || (size_t)n >= sizeof c->cache_dir)
        return gg_fail(err, "kernel cache directory name is too long");
    return 0;
}

/* GOLGEN_FALLBACK_WORK: a whole number from 1 to 10^12 and nothing else
 * (strtoull alone would take "-1" as 2^64-1, leaving only the time guard,
 * which depends on the machine again). */
static int fallback_work(const char *e, uint64_t *work, gg_err *err)
{
    uint64_t w = 0;
    const char *s = e;
    for (; *s >= '0' && *s <= '9' && w <= 1000000000000ull; s++)
        w = w * 10 + (uint64_t)(*s - '0');
    if (*s || w < 1 || w > 1000000000000ull)
        return gg_fail(err, "GOLGEN_FALLBACK_WORK='%s' is not a whole number "
                       "from 1 to 10^12; unset it (default %d) or give e.g. "
                       "30000", e, GG_CHOOSE_WORK);
    *work = w;
    return 0;
}

static int gpu_front(const char *e, gg_gpu_front *front, gg_err *err)
{
    if (!strcmp(e, "auto"))
        *front = GG_GPU_FRONT_AUTO;
    else if (!strcmp(e, "rowsum"))
        *front = GG_GPU_FRONT_ROWSUM;
    else if (!strcmp(e, "rowsum-lr"))
        *front = GG_GPU_FRONT_ROWSUM_LR;
    else
        return gg_fail(err, "GOLGEN_GPU_FRONT='%s' is not a front: use auto, "
                       "rowsum or rowsum-lr, or unset it", e);
    return 0;
}

/* The choice of networks: checked here, as the values are plain numbers
 * and names that nothing later could report better. */
static int choose_from_env(gg_choose_opts *o, gg_err *err)
{
    const char *work = env_value("GOLGEN_FALLBACK_WORK");
    const char *front = env_value("GOLGEN_GPU_FRONT");
    o->cache_root = env_value("GOLGEN_GENERATED");
    return (work && fallback_work(work, &o->work, err)) ||
                   (front && gpu_front(front, &o->gpu_front, err))
               ? -1
               : 0;
}

/* GOLGEN_GPU_TUNE: a launch shape (gg_gpu_tune_parse checks it where a
 * CUDA backend opens), "generic" (the autotuner's shape, but never a
 * module specialized to the row stride) or a shape then ",generic". */
static void gpu_tune_from_env(gg_config *c)
{
    static const char word[] = "generic";
    const char *v = env_value("GOLGEN_GPU_TUNE");
    size_t n = v ? strlen(v) : 0, w = sizeof word - 1;
    c->gpu_tune = v;
    if (n >= w && !strcmp(v + n - w, word) &&
        (n == w || v[n - w - 1] == ',')) {
        c->gpu_kstride = false;
        if (n == w)
            c->gpu_tune = NULL; /* no shape given: autotune */
    }
}

int gg_config_from_env(gg_config *c, gg_err *err)
{
    gg_config_defaults(c);
    c->cc = env_value("CC");
    c->nvrtc = env_value("GOLGEN_NVRTC");
    c->ptxas = env_value("GOLGEN_PTXAS");
    c->cuda_define = env_value("GOLGEN_CUDA_DEFINE");
    gpu_tune_from_env(c);
    if (getenv("TMPDIR"))
        c->tmpdir = getenv("TMPDIR");
    const char *ranks = env_value("OMPI_COMM_WORLD_SIZE");
    ranks = ranks ? ranks : env_value("PMI_SIZE");
    c->launcher_ranks = ranks && atoi(ranks) > 0 ? atoi(ranks) : 0;
    if (choose_from_env(&c->choose, err) || cache_dir_from_env(c, err))
        return -1;
    c->choose.kept_root = c->cache_dir;
    return 0;
}

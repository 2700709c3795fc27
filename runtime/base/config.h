/* The environment, read once at the edge. gg_config_from_env is the only
 * place in the product code that calls getenv: the CLI calls it once
 * (cli/main.c) and passes the config down through each backend's open
 * options, so library code has no hidden inputs and tests set fields
 * instead of variables.
 *
 * Variables a user may set (README.md, "Backends"):
 *   CC                  compiler for the cpu backend's kernels (cc)
 *   GOLGEN_CACHE_DIR    kernel and tuning cache (else $XDG_CACHE_HOME/golgen,
 *                       else ~/.cache/golgen)
 *   GOLGEN_NVRTC        path of libnvrtc.so when the usual names miss it
 *   GOLGEN_PTXAS        the ptxas the ptx backend runs (else PATH,
 *                       $CUDA_HOME/bin, /usr/local/cuda/bin); off: the
 *                       driver's JIT compiles, one module at a time
 *   GOLGEN_CUDA_DEFINE  one extra -D option for NVRTC (experiments)
 *   GOLGEN_GPU_TUNE     a fixed launch shape for cuda and ptx, no autotuning;
 *                       "generic" alone or as its last item: never
 *                       specialize a module to the row stride
 *   TMPDIR              where run rescues a result it could not write
 *   GOLGEN_GENERATED    the network cache's root (else the source tree's
 *                       generated/)
 *   GOLGEN_FALLBACK_WORK solver work for an uncached rule's network
 *   GOLGEN_GPU_FRONT    auto, rowsum or rowsum-lr: the GPU kernels' front
 * and what an MPI launcher sets (not for users): OMPI_COMM_WORLD_SIZE
 * (Open MPI's mpirun), else PMI_SIZE (MPICH's, Slurm's). */
#ifndef GG_CONFIG_H
#define GG_CONFIG_H

#include <stdbool.h>

#include "choose.h"
#include "error.h"

typedef struct gg_config {
    /* Strings point into the process environment (or are NULL when the
     * variable is unset or empty): valid until the environment changes. */
    const char *cc;          /* CC; NULL: "cc" */
    const char *nvrtc;       /* GOLGEN_NVRTC; NULL: the usual names */
    const char *ptxas;       /* GOLGEN_PTXAS; NULL: found (runtime/gpu/ptxas.h) */
    const char *cuda_define; /* GOLGEN_CUDA_DEFINE, as given (the CUDA
                                backend takes it only when it starts -D) */
    const char *gpu_tune;    /* GOLGEN_GPU_TUNE's text; parsed (strictly,
                                gg_gpu_tune_parse) when a CUDA backend
                                opens, so a bad value fails only there */
    bool gpu_kstride;        /* false when GOLGEN_GPU_TUNE is "generic"
                                or ends in ",generic" */
    const char *tmpdir;      /* TMPDIR if set (even empty), else "/tmp" */
    /* GOLGEN_CACHE_DIR, else $XDG_CACHE_HOME/golgen, else
     * $HOME/.cache/golgen; "" when none is set (a backend that needs a
     * cache then says to set GOLGEN_CACHE_DIR). */
    char cache_dir[4096];
    /* the processes an MPI launcher started with this one; 0 when none
     * did (golgen run then starts no MPI: cli/run_ranks.c) */
    int launcher_ranks;

    /* sat/ and gen/ options: the choice of networks (sat/choose/choose.h) from
     * GOLGEN_GENERATED (the network cache's root), GOLGEN_FALLBACK_WORK
     * (solver work for an uncached rule, 1..10^12) and GOLGEN_GPU_FRONT
     * (auto, rowsum or rowsum-lr) */
    gg_choose_opts choose;
} gg_config;

/* Defaults: what an empty environment gives (tests and library users
 * start from this and set fields). */
void gg_config_defaults(gg_config *c);

/* c, or the defaults when c is NULL (library users that set nothing). */
const gg_config *gg_config_or_default(const gg_config *c);

/* Fill c from the environment. Fails (-1, err set) when a value cannot be
 * held (a cache path longer than PATH_MAX) or is not what its variable
 * takes (GOLGEN_FALLBACK_WORK, GOLGEN_GPU_FRONT); values a backend checks
 * (GOLGEN_GPU_TUNE) are checked where they are used. */
int gg_config_from_env(gg_config *c, gg_err *err);

#endif

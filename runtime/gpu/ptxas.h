/* PTX to cubin with the CUDA toolkit's ptxas, several modules at once.
 *
 * The driver's own JIT compiles one module at a time per process: on the
 * H100 host one Life-like module took 3.45 s and six loaded from six
 * threads 18.5 s, while six ptxas processes side by side took 3.6 s
 * (BENCHMARKS.md, session 13). So the ptx backend compiles its autotuner's
 * candidates with ptxas where one is installed, keeps the cubins in the
 * kernel cache (a cached run loads them without any JIT), and falls back
 * to the driver's JIT where there is no ptxas. */
#ifndef GG_PTXAS_H
#define GG_PTXAS_H

#include <stdbool.h>
#include <stddef.h>

#include "error.h"

/* The ptxas to run: given (GOLGEN_PTXAS) if set, else ptxas on PATH,
 * $CUDA_HOME/bin/ptxas, /usr/local/cuda/bin/ptxas; false when none is
 * there or given is "off" (the driver's JIT then compiles). */
bool gg_ptxas_find(const char *given, char *buf, size_t size);

/* The cubin file of ptx for sm_<cc> in the cache directory dir (whether
 * it exists or not). */
void gg_ptxas_cubin_path(const char *dir, int cc, const char *ptx, char *buf,
                         size_t size);

/* A module's entries in up to GG_PTXAS_PARTS modules of their own (the
 * text before the first entry heads each): gg_step_16, gg_step_8, and
 * the rest (gg_ghost and the shorter steps), so that ptxas compiles them
 * side by side. The longest entry bounds a build: in a Life-like module
 * gg_step_16 is 61% of the text and 72% of ptxas's 3.4 s. Returns the
 * number of parts (malloc'd, the longest first), 0 when out of memory; a
 * text without entries is one part. */
#define GG_PTXAS_PARTS 3
int gg_ptxas_split(const char *ptx, char *parts[GG_PTXAS_PARTS]);

/* Compile each of the n PTX sources whose cubin is not in dir yet, as
 * many at once as there are cores. A source ptxas refuses gets no cubin
 * (the driver's JIT then reports its error where it is loaded); -1 only
 * when ptxas cannot be started at all. */
int gg_ptxas_compile(const char *ptxas, const char *dir, int cc,
                     const char *const *ptx, int n, gg_err *err);

#endif

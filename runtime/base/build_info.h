/* What this build of golgen has, for `golgen --version`: its version and
 * the SAT solver it was built with. */
#ifndef GG_BUILD_INFO_H
#define GG_BUILD_INFO_H

#include <stdbool.h>
#include <stddef.h>

/* "0.1.0": the project version (meson.build). */
const char *gg_build_version(void);

/* "CryptoMiniSat 5.11.4", or "none" when built without the solver (synth
 * then answers from the network cache only). */
void gg_build_solver(char *buf, size_t size);

/* This build's identity: the GNU build-id note (a hash the linker writes
 * of the binary's content) of the object that holds this code, golgen or
 * libgolgen.so, in hex; false where the linker wrote none. What a kernel
 * cache keyed by a rule rather than by its emitted source must name, so
 * that another build's emitter never hands back its kernels. */
bool gg_build_id(char *hex, size_t size);

#endif

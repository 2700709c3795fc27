/* Included by the pattern harnesses: the readers see a machine of
 * FUZZ_MEMORY_BYTES. They refuse boxes larger than physical memory
 * (sysconf(_SC_PHYS_PAGES)); on a large machine a 60-byte file may then
 * name a 10 GiB box, which is honest (dense grids) but costs the fuzzer
 * seconds in the sanitizer's allocator per input. A small machine keeps
 * each input fast and exercises the refusals. */
#ifndef GG_FUZZ_MEMORY_H
#define GG_FUZZ_MEMORY_H

#include <unistd.h>

#define FUZZ_MEMORY_BYTES (1L << 30)

extern long __sysconf(int name); /* glibc's own, which sysconf wraps */

long sysconf(int name)
{
    if (name == _SC_PHYS_PAGES)
        return FUZZ_MEMORY_BYTES / __sysconf(_SC_PAGESIZE);
    return __sysconf(name);
}

#endif

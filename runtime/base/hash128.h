/* A 128-bit key of some bytes, for caches keyed by content (the kernel
 * cache, rule files' graphs): two independent 64-bit multiply-xorshift
 * chains over 8-byte words (the last one padded, the length mixed in
 * after), so two distinct contents never share an entry in practice. A
 * word a step: FNV-1a, a byte a step, took 6% of a small run's start over
 * its two kernels' sources (30 KB each). Not for anything adversarial. */
#ifndef GG_HASH128_H
#define GG_HASH128_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

/* Mix n bytes at s into h (h's start: any two constants). */
static inline void gg_hash128(uint64_t h[2], const void *s, size_t n)
{
    const char *c = s;
    for (size_t i = 0; i < n; i += 8) {
        uint64_t w = 0;
        memcpy(&w, c + i, n - i < 8 ? n - i : 8);
        h[0] = (h[0] ^ w) * 0x9e3779b97f4a7c15ull;
        h[0] ^= h[0] >> 32;
        h[1] = (h[1] ^ w) * 0xff51afd7ed558ccdull;
        h[1] ^= h[1] >> 29;
    }
    h[0] = (h[0] ^ n) * 0x100000001b3ull;
    h[1] = (h[1] ^ n) * 0xc4ceb9fe1a85ec53ull;
}

#endif

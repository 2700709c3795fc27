/* The store's format for the code that reads and writes it
 * (runtime/formats/store.c, runtime/formats/store_stream.c): one header encoder, one
 * header reader and one checksum, so that a store streamed band by band
 * and one written whole cannot drift apart (they must match byte for
 * byte). Not for callers: they use runtime/formats/store.h. */
#ifndef GG_STORE_FORMAT_H
#define GG_STORE_FORMAT_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "store.h"

#define GG_STORE_FNV0 0xcbf29ce484222325ull

/* FNV-1a 64 of n bytes, continuing from h (GG_STORE_FNV0 to start). */
uint64_t gg_store_fnv(uint64_t h, const void *p, size_t n);

/* Rows per checksum band for a grid this tall: at least 64, few enough
 * bands for the header. */
int gg_store_band_rows_for(int64_t height);

/* Bytes of one packed row of a grid this wide. */
size_t gg_store_row_bytes(int64_t width);

/* The whole header of a version-1 store: s's sizes, generation, position,
 * band_rows, bands and rule text, and the bands' checksums. */
void gg_store_header_encode(unsigned char h[GG_STORE_HEADER],
                            const gg_store_info *s, const uint64_t *sums);

/* Open path, read and check its header (s, and the band checksums when
 * sums is not NULL); NULL with err on failure. Reading stops after the
 * header. */
FILE *gg_store_open(const char *path, gg_store_info *s, uint64_t *sums,
                    gg_err *err);

/* The message for band b of a store failing its checksum; returns -1. */
int gg_store_band_damaged(gg_err *err, const char *path,
                          const gg_store_info *s, int64_t b);

#endif

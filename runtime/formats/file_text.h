/* A pattern file's whole text, gunzipped when it is gzip: every pattern
 * reader (2D patterns, macrocell trees, RLE3) reads its file through here,
 * so a .rle.gz or .mc.gz reads as Golly reads it. Gzip is told by its magic
 * bytes (1f 8b), never by the name: Golly's bundled .gz files are gzip and
 * a plain file named .gz is still read. */
#ifndef GG_FILE_TEXT_H
#define GG_FILE_TEXT_H

#include <stdbool.h>
#include <stddef.h>

#include "error.h"
#include "stop.h"

/* The most a gzip file may unpack to: a 32768^2 soup's RLE (0.8 GB) fits
 * five times over. A larger one is refused with the limit named;
 * gunzipped, it is read without one (mapped). */
#define GG_GUNZIP_MAX ((size_t)4 << 30)

/* GG_GUNZIP_MAX, or half of this machine's memory when that is less: the
 * limit the readers pass to gg_gunzip. (The fuzzers' machine has 1 GiB,
 * tests/fuzz/fuzz_memory.h; deflate expands at most about 1032:1, so a
 * fuzzer's input of kilobytes stays far below it anyway.) */
size_t gg_gunzip_limit(void);

/* What gg_file_text_read gives: text[0 .. len) (NUL-terminated unless
 * mapped), the caller's to release with gg_file_text_free. */
typedef struct gg_file_text {
    char *text;
    size_t len;
    size_t mapped; /* nonzero: text is a read-only mapping of this size */
} gg_file_text;

/* The file at path ("-": standard input, named "standard input" in
 * errors), gunzipped when it is gzip. Plain regular files of 16 MiB or
 * more are mapped, not copied. A pipe or device stops at its first NUL
 * byte unless it is gzip (the parsers refuse binary; /dev/zero must not
 * fill memory). Errors: "cannot read pattern 'PATH': ...", a truncated or
 * corrupt gzip stream named as such, an unpacked size over gg_gunzip_limit().
 * stop (NULL: none) is polled every chunk read or unpacked; once it is
 * set the read fails with "stopped while reading 'PATH'" (the caller
 * tells a stop by gg_stop_asked and exits as for the signal). */
int gg_file_text_read(const char *path, gg_stop_flag *stop, gg_file_text *t,
                      gg_err *err);
void gg_file_text_free(gg_file_text *t);

/* The same as one malloc'd, NUL-terminated buffer (*len excludes the NUL;
 * the caller frees it), or NULL with err: a drop-in for a command's own
 * whole-file reader (cli/run_hashlife.c's read_text). Never mapped. */
char *gg_file_text_alloc(const char *path, gg_stop_flag *stop, size_t *len,
                         gg_err *err);

/* Whether data starts with gzip's magic bytes. */
bool gg_is_gzip(const void *data, size_t len);

/* Unpack the gzip data (one member or several, as gzip -d; bytes after the
 * last member that do not start another are ignored, as Golly's gzread
 * does) into a malloc'd, NUL-terminated *out of *out_len bytes, at most
 * max. name is the file's name in errors. stop as above. */
int gg_gunzip(const void *data, size_t len, size_t max, const char *name,
              gg_stop_flag *stop, char **out, size_t *out_len, gg_err *err);

#endif

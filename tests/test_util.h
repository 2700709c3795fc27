/* Helpers the cmocka tests share: scratch directories and commands run
 * through the shell. Header-only, so every test stays one source file. */
#ifndef GG_TEST_UTIL_H
#define GG_TEST_UTIL_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

#include "reference.h"

/* Exit status of a shell command, or -1 when it did not exit normally. */
static inline int gg_test_status(const char *cmd)
{
    int st = system(cmd);
    return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

/* Remove a scratch directory made with mkdtemp; 0 on success (a cmocka
 * teardown's convention). */
static inline int gg_test_rmtree(const char *dir)
{
    char cmd[1100];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    return gg_test_status(cmd) == 0 ? 0 : -1;
}

/* One scratch directory per test program: gg_test_setup_dir and
 * gg_test_teardown_dir are a cmocka group setup and teardown. */
/* tests/png_check.py's command line (the tests' environment names the
 * source tree): a palette PNG against the run's RLE, cell for cell. */
#define GG_TEST_PNG_CHECK "python3 \"$GG_SOURCE_ROOT/tests/png_check.py\" "

static char gg_test_dir[] __attribute__((unused)) = "/tmp/gg-test-XXXXXX";

static inline int gg_test_setup_dir(void **state)
{
    (void)state;
    return mkdtemp(gg_test_dir) ? 0 : -1;
}

static inline int gg_test_teardown_dir(void **state)
{
    (void)state;
    return gg_test_rmtree(gg_test_dir);
}

/* The next number of a xorshift64 sequence (state must not be 0): the
 * tests' reproducible random source. */
static inline uint64_t gg_test_xorshift(uint64_t *state)
{
    *state ^= *state << 13;
    *state ^= *state >> 7;
    *state ^= *state << 17;
    return *state;
}

/* `gens` generations of the reference simulator on g, in place. Needs
 * cmocka.h included first (it asserts). */
static inline void gg_test_reference_run(const gg_rule *r, gg_topo topo,
                                         gg_grid *g, int64_t gens)
{
    gg_err err;
    assert_int_equal(gg_reference_run(r, topo, g, gens, &err), 0);
}

/* The rule text parsed; fails the test naming the text. Needs cmocka.h
 * included first. */
static inline gg_rule gg_test_rule(const char *text)
{
    gg_rule r;
    gg_err err;
    if (gg_rule_parse(text, &r, &err))
        fail_msg("%s: %s", text, err.msg);
    return r;
}

/* A whole file, NUL-terminated (its length in *len when len is not
 * NULL); NULL when it cannot be opened. Needs cmocka.h included first. */
static inline char *gg_test_read_file(const char *path, size_t *len)
{
    if (len)
        *len = 0;
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    char *buf = malloc((size_t)n + 1);
    assert_non_null(buf);
    size_t got = fread(buf, 1, (size_t)n, f);
    buf[got] = 0;
    fclose(f);
    if (len)
        *len = got;
    return buf;
}

/* Patch store `name` (in gg_test_dir): `bytes` little-endian bytes of value
 * at header offset off, then make the header's checksum valid again (the
 * FNV-1a 64 of bytes 0..327 at 328), as a hostile or hand-made file would:
 * the reader must refuse it by its fields, not by its checksum. */
static inline void gg_test_patch_store_header(const char *name, int off,
                                              int bytes, uint64_t value)
{
    char path[512];
    snprintf(path, sizeof path, "%s/%s", gg_test_dir, name);
    FILE *f = fopen(path, "r+b");
    assert_non_null(f);
    unsigned char h[336];
    assert_int_equal(fread(h, 1, sizeof h, f), sizeof h);
    for (int i = 0; i < bytes; i++)
        h[off + i] = (unsigned char)(value >> (8 * i));
    uint64_t sum = 0xcbf29ce484222325ull;
    for (int i = 0; i < 328; i++)
        sum = (sum ^ h[i]) * 0x100000001b3ull;
    for (int i = 0; i < 8; i++)
        h[328 + i] = (unsigned char)(sum >> (8 * i));
    assert_int_equal(fseek(f, 0, SEEK_SET), 0);
    assert_int_equal(fwrite(h, 1, sizeof h, f), sizeof h);
    fclose(f);
}

#endif

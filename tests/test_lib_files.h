/* What the libgolgen tests (tests/test_lib_*.c) share: one scratch folder
 * a program, made by its cmocka group setup and removed by its teardown,
 * and files named and written in it. Header-only, as tests/test_util.h,
 * which they cannot include: they see include/golgen.h and nothing of the
 * engine, as a program linked to libgolgen does. Needs cmocka.h first. */
#ifndef GG_TEST_LIB_FILES_H
#define GG_TEST_LIB_FILES_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static char lib_dir[64] __attribute__((unused));

/* lib_dir/name; eight at a time (one call may name several) */
static inline const char *path(const char *name)
{
    static char buf[8][160];
    static int k;
    k = (k + 1) % 8;
    snprintf(buf[k], sizeof buf[k], "%s/%s", lib_dir, name);
    return buf[k];
}

static inline void write_bytes(const char *p, const char *text, size_t len)
{
    FILE *f = fopen(p, "w");
    assert_non_null(f);
    assert_int_equal(fwrite(text, 1, len, f), len);
    fclose(f);
}

static inline void write_text(const char *p, const char *text)
{
    write_bytes(p, text, strlen(text));
}

/* lib_dir made afresh, /tmp/NAME-XXXXXX: 0, else -1 (a group setup's). */
static inline int lib_dir_make(const char *name)
{
    snprintf(lib_dir, sizeof lib_dir, "/tmp/%s-XXXXXX", name);
    return mkdtemp(lib_dir) ? 0 : -1;
}

/* A cmocka group teardown: lib_dir and what the tests left in it gone. */
static inline int lib_dir_remove(void **state)
{
    char cmd[128];
    (void)state;
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", lib_dir);
    return system(cmd) == 0 ? 0 : -1;
}

#endif

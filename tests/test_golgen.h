/* The golgen command run from a cmocka test in the scratch directory
 * (test_util.h's gg_test_dir): its exit status and what it printed, shell
 * scripts with $G set to it, and files written there. Header-only, as
 * test_util.h; GG_GOLGEN names the golgen under test (tests/meson.build). */
#ifndef GG_TEST_GOLGEN_H
#define GG_TEST_GOLGEN_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "test_util.h"

static char out_text[8192] __attribute__((unused));

/* `golgen ARGS` in the scratch directory, stdout and stderr into
 * out_text: its exit status. */
static inline int golgen(const char *args)
{
    char cmd[2048], log[256];
    snprintf(log, sizeof log, "%s/log", gg_test_dir);
    snprintf(cmd, sizeof cmd, "cd '%s' && '%s' %s >'%s' 2>&1", gg_test_dir,
             getenv("GG_GOLGEN"), args, log);
    int status = gg_test_status(cmd);
    FILE *f = fopen(log, "r");
    size_t n = f ? fread(out_text, 1, sizeof out_text - 1, f) : 0;
    out_text[n] = 0;
    if (f)
        fclose(f);
    return status;
}

static inline void expect(const char *args, int status, const char *needle)
{
    int got = golgen(args);
    if (got != status || !strstr(out_text, needle))
        fail_msg("golgen %s: status %d (want %d), output:\n%s\n(want '%s')",
                 args, got, status, out_text, needle);
}

/* A shell command in the scratch directory, with $G the golgen under
 * test; it must exit 0. */
static inline void shell_ok(const char *what, const char *script)
{
    char cmd[4096];
    snprintf(cmd, sizeof cmd, "cd '%s' && G='%s' && %s", gg_test_dir,
             getenv("GG_GOLGEN"), script);
    if (gg_test_status(cmd) != 0)
        fail_msg("%s failed: %s", what, script);
}

static inline void write_file(const char *name, const char *text)
{
    char path[512];
    snprintf(path, sizeof path, "%s/%s", gg_test_dir, name);
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
}

#endif

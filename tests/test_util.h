/* Helpers the cmocka tests share: scratch directories and commands run
 * through the shell. Header-only, so every test stays one source file. */
#ifndef GG_TEST_UTIL_H
#define GG_TEST_UTIL_H

#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>

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

#endif

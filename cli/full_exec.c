#include "full_exec.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "cli_args.h"

#ifndef GG_CLI_LEAN
#define GG_CLI_LEAN 0 /* golgen-full, or a build with nothing to leave out */
#define GG_CLI_LEAN_SERVE 0
#define GG_CLI_LEAN_MPI 0
#endif

int gg_cli_wants_full(int argc, char **argv, int launcher_ranks)
{
    if (!GG_CLI_LEAN || argc < 2)
        return 0;
#if GG_CLI_LEAN_SERVE
    if (!strcmp(argv[1], "serve"))
        return 1;
#endif
#if GG_CLI_LEAN_MPI
    if (launcher_ranks > 0)
        return 1;
#endif
    (void)argv;
    (void)launcher_ranks;
    return 0;
}

/* golgen-full beside this executable (the build folder, or bindir when
 * installed there too), else in the install's libexec folder. */
static int full_path(char *buf, size_t size)
{
    char self[PATH_MAX];
    ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
    if (n > 0) {
        self[n] = 0;
        char *slash = strrchr(self, '/');
        if (slash) {
            *slash = 0;
            snprintf(buf, size, "%s/golgen-full", self);
            if (access(buf, X_OK) == 0)
                return 0;
        }
    }
#ifdef GG_LIBEXEC_DIR
    snprintf(buf, size, "%s/golgen-full", GG_LIBEXEC_DIR);
    if (access(buf, X_OK) == 0)
        return 0;
#endif
    return -1;
}

int gg_cli_exec_full(char **argv, const char *why)
{
    char path[PATH_MAX + 16];
    if (full_path(path, sizeof path) == 0) {
        execv(path, argv);
        fprintf(stderr, "golgen: %s needs golgen-full, which could not be "
                "started (%s: %s); reinstall golgen\n", why, path,
                strerror(errno));
        return GG_EXIT_ENV;
    }
    fprintf(stderr, "golgen: %s needs golgen-full (the same command with "
            "libwebsockets and MPI), found neither beside this golgen nor "
            "in its libexec folder; build it (ninja) or reinstall golgen\n",
            why);
    return GG_EXIT_ENV;
}

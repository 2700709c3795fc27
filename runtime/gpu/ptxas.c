#include "ptxas.h"

#include <errno.h>
#include <fcntl.h>
#include <spawn.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "gpu_tune.h"

extern char **environ;

static bool runnable(const char *path)
{
    return access(path, X_OK) == 0;
}

/* The first directory of PATH holding an executable ptxas. */
static bool on_path(char *buf, size_t size)
{
    const char *path = getenv("PATH");
    while (path && *path) {
        const char *end = strchr(path, ':');
        size_t n = end ? (size_t)(end - path) : strlen(path);
        int w = snprintf(buf, size, "%.*s/ptxas", (int)n, path);
        if (n && w > 0 && (size_t)w < size && runnable(buf))
            return true;
        path = end ? end + 1 : NULL;
    }
    return false;
}

bool gg_ptxas_find(const char *given, char *buf, size_t size)
{
    if (given && *given) {
        if (!strcmp(given, "off"))
            return false;
        snprintf(buf, size, "%s", given);
        return runnable(buf);
    }
    if (on_path(buf, size))
        return true;
    const char *home = getenv("CUDA_HOME");
    if (home && *home) {
        snprintf(buf, size, "%s/bin/ptxas", home);
        if (runnable(buf))
            return true;
    }
    snprintf(buf, size, "/usr/local/cuda/bin/ptxas");
    return runnable(buf);
}

void gg_ptxas_cubin_path(const char *dir, int cc, const char *ptx, char *buf,
                         size_t size)
{
    char arch[16];
    snprintf(arch, sizeof arch, "sm_%d", cc);
    uint64_t h = gg_gpu_hash(0, ptx, strlen(ptx));
    h = gg_gpu_hash(h, arch, strlen(arch));
    snprintf(buf, size, "%s/ptx-%016llx.cubin", dir, (unsigned long long)h);
}

/* Which part an entry goes to (gg_ptxas_split). */
static int part_of(const char *entry)
{
    const char *name = entry + strlen(".visible .entry ");
    return !strncmp(name, "gg_step_16(", 11) ? 0
           : !strncmp(name, "gg_step_8(", 10) ? 1
                                               : 2;
}

int gg_ptxas_split(const char *ptx, char *parts[GG_PTXAS_PARTS])
{
    static const char mark[] = ".visible .entry ";
    const char *first = strstr(ptx, mark);
    size_t head = first ? (size_t)(first - ptx) : strlen(ptx);
    size_t total = strlen(ptx);
    size_t len[GG_PTXAS_PARTS] = {0};
    char *buf[GG_PTXAS_PARTS];
    for (int k = 0; k < GG_PTXAS_PARTS; k++) {
        buf[k] = malloc(total + 1);
        if (!buf[k]) {
            while (k--)
                free(buf[k]);
            return 0;
        }
        memcpy(buf[k], ptx, head);
        len[k] = head;
    }
    for (const char *e = first; e;) { /* each entry up to the next */
        const char *next = strstr(e + 1, mark);
        size_t n = next ? (size_t)(next - e) : strlen(e);
        int k = part_of(e);
        memcpy(buf[k] + len[k], e, n);
        len[k] += n;
        e = next;
    }
    int m = 0;
    for (int k = 0; k < GG_PTXAS_PARTS; k++) {
        buf[k][len[k]] = 0;
        if (len[k] > head || (!first && k == 0))
            parts[m++] = buf[k];
        else
            free(buf[k]);
    }
    return m;
}

/* One ptxas process: PTX file in, cubin (written under a temporary name,
 * renamed when ptxas succeeded) out. */
typedef struct job {
    char ptx[4300], tmp[4300], cubin[4200];
    pid_t pid;
    bool started;
} job;

static int write_ptx(const char *path, const char *ptx)
{
    FILE *f = fopen(path, "w");
    if (!f)
        return -1;
    size_t n = strlen(ptx);
    int bad = fwrite(ptx, 1, n, f) != n;
    bad |= fclose(f) != 0;
    return bad ? -1 : 0;
}

static int start(const char *ptxas, int cc, job *j)
{
    char arch[32];
    snprintf(arch, sizeof arch, "-arch=sm_%d", cc);
    char *argv[] = {(char *)ptxas, arch, "-o", j->tmp, j->ptx, NULL};
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_addopen(&fa, 1, "/dev/null", O_WRONLY, 0);
    posix_spawn_file_actions_adddup2(&fa, 1, 2);
    int rc = posix_spawn(&j->pid, ptxas, &fa, NULL, argv, environ);
    posix_spawn_file_actions_destroy(&fa);
    j->started = rc == 0;
    return rc;
}

/* Keep j's cubin only when ptxas succeeded (status from waitpid). */
static void finish_status(job *j, int status)
{
    j->started = false;
    if (!(WIFEXITED(status) && WEXITSTATUS(status) == 0) ||
        rename(j->tmp, j->cubin))
        remove(j->tmp);
    remove(j->ptx);
}

/* Wait for j. */
static void finish(job *j)
{
    int status = 0;
    while (waitpid(j->pid, &status, 0) < 0 && errno == EINTR)
        ;
    finish_status(j, status);
}

/* Wait until one of jobs[0..n) that runs has finished (whichever: the
 * longest sources go first, so the oldest is the slowest to end). Polls
 * its own children only: the caller may have others. */
static void finish_one(job *jobs, int n)
{
    for (;;) {
        for (int i = 0; i < n; i++) {
            int status;
            if (jobs[i].started &&
                waitpid(jobs[i].pid, &status, WNOHANG) == jobs[i].pid) {
                finish_status(&jobs[i], status);
                return;
            }
        }
        usleep(2000);
    }
}

static int cores(void)
{
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    return n < 1 ? 1 : n > 64 ? 64 : (int)n;
}

int gg_ptxas_compile(const char *ptxas, const char *dir, int cc,
                     const char *const *ptx, int n, gg_err *err)
{
    job *jobs = calloc((size_t)(n > 0 ? n : 1), sizeof *jobs);
    if (!jobs)
        return gg_fail(err, "out of memory for %d ptxas jobs", n);
    int running = 0, bad = 0, limit = cores();
    for (int i = 0; i < n && !bad; i++) {
        job *j = &jobs[i];
        gg_ptxas_cubin_path(dir, cc, ptx[i], j->cubin, sizeof j->cubin);
        if (access(j->cubin, R_OK) == 0)
            continue; /* in the cache already */
        snprintf(j->ptx, sizeof j->ptx, "%s.%d.ptx", j->cubin, (int)getpid());
        snprintf(j->tmp, sizeof j->tmp, "%s.%d.tmp", j->cubin, (int)getpid());
        if (write_ptx(j->ptx, ptx[i])) {
            remove(j->ptx);
            continue; /* left to the driver's JIT */
        }
        if (running >= limit) {
            finish_one(jobs, i);
            running--;
        }
        int rc = start(ptxas, cc, j);
        if (rc) {
            remove(j->ptx);
            bad = gg_fail(err, "cannot run ptxas '%s': %s (set GOLGEN_PTXAS "
                          "to the CUDA toolkit's ptxas, or to 'off')", ptxas,
                          strerror(rc));
        } else {
            running++;
        }
    }
    for (int i = 0; i < n; i++)
        if (jobs[i].started)
            finish(&jobs[i]);
    free(jobs);
    return bad;
}

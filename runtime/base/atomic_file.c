#include "atomic_file.h"

#include <errno.h>
#include <fcntl.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

/* Mixed into every temporary name, so names made at the same moment by one
 * process differ. Process-wide on purpose (a per-call count would repeat),
 * and atomic so concurrent opens each take a different value. */
static atomic_uint tmp_counter;

static char *dup_str(const char *s, size_t n)
{
    char *d = malloc(n + 1);
    if (d) {
        memcpy(d, s, n);
        d[n] = 0;
    }
    return d;
}

static void release(gg_atomic_file *f)
{
    free(f->path);
    free(f->tmp);
    f->path = f->tmp = NULL;
    f->fp = NULL;
}

/* What to do about a failed create in dir: the errno text names the
 * cause, this the way out. ENOENT also comes from directories that exist
 * but take no new files (/proc, /sys), so whether dir exists decides. */
static const char *open_hint(const char *dir, int e)
{
    struct stat st;
    switch (e) {
    case ENOENT:
        return stat(dir, &st) != 0 ? "create the directory first"
                                   : "that directory takes no new files "
                                     "(as /proc and /sys); write elsewhere";
    case ENOTDIR:
        return "a component of the path is not a directory";
    case EACCES:
    case EPERM:
        return "write where you may create files";
    case EROFS:
        return "the file system is read-only; write elsewhere";
    default:
        return "write elsewhere";
    }
}

static int open_error(const char *path, const char *dir, int e, gg_err *err)
{
    return gg_fail(err, "cannot write '%s': creating a file in directory "
                   "'%s' failed: %s; %s", path, dir, strerror(e),
                   open_hint(dir, e));
}

/* A target that is not a regular file (/dev/null, a FIFO, a terminal) is
 * written in place: renaming a temporary file over it would replace the
 * device node itself (as root, -o /dev/null did). */
static int open_direct(const char *path, gg_atomic_file *f, gg_err *err)
{
    f->path = dup_str(path, strlen(path));
    f->fp = f->path ? fopen(path, "wbe") : NULL;
    if (!f->fp) {
        int e = f->path ? errno : ENOMEM;
        release(f);
        return gg_fail(err, "cannot write '%s': %s", path, strerror(e));
    }
    return 0;
}

/* The file a symbolic link names, so that the rename replaces that file
 * and the link stays a link; NULL with err when the link dangles. */
static char *follow_link(const char *path, gg_err *err)
{
    char *real = realpath(path, NULL);
    if (!real)
        gg_fail(err, "cannot write '%s': the symbolic link cannot be "
                "followed (%s); give the file's own path", path,
                strerror(errno));
    return real;
}

/* gg_atomic_open; with probe, a target written in place is only checked,
 * not opened. */
static int open_target(const char *path, gg_atomic_file *f, bool probe,
                       gg_err *err)
{
    memset(f, 0, sizeof *f);
    if (!path || !*path)
        return gg_fail(err, "cannot write a file with an empty name");
    size_t n = strlen(path);
    if (path[n - 1] == '/')
        return gg_fail(err, "cannot write '%s': the name ends in '/'; give a "
                       "file name", path);

    struct stat st, lst;
    int have_target = stat(path, &st) == 0;
    if (have_target && S_ISDIR(st.st_mode))
        return gg_fail(err, "cannot write '%s': it is a directory; give a "
                       "file name", path);
    if (have_target && S_ISBLK(st.st_mode)) /* -o /dev/sda as root */
        return gg_fail(err, "cannot write '%s': it is a block device (a "
                       "disk); give a file name", path);
    if (have_target && !S_ISREG(st.st_mode))
        return probe ? 0 : open_direct(path, f, err);
    if (lstat(path, &lst) == 0 && S_ISLNK(lst.st_mode)) {
        char *real = follow_link(path, err);
        if (!real)
            return -1;
        int rc = open_target(real, f, probe, err);
        free(real);
        return rc;
    }

    const char *slash = strrchr(path, '/');
    char *dir = slash ? dup_str(path, slash == path ? 1 : (size_t)(slash - path))
                      : dup_str(".", 1);
    const char *base = slash ? slash + 1 : path;
    f->path = dup_str(path, n);
    f->tmp = malloc(n + 64);
    if (!dir || !f->path || !f->tmp) {
        free(dir);
        release(f);
        return gg_fail(err, "cannot write '%s': out of memory", path);
    }

    uint64_t seed = (uint64_t)time(NULL) ^ ((uint64_t)getpid() << 20) ^
                    (uint64_t)(uintptr_t)f;
    int fd = -1, e = 0;
    for (int attempt = 0; attempt < 100; attempt++) {
        seed = seed * 6364136223846793005ull + 1442695040888963407ull +
               atomic_fetch_add_explicit(&tmp_counter, 1,
                                         memory_order_relaxed);
        snprintf(f->tmp, n + 64, "%.*s.%s.tmp%06llx", (int)(base - path), path,
                 base, (unsigned long long)(seed >> 40));
        fd = open(f->tmp, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
        if (fd >= 0 || errno != EEXIST)
            break;
    }
    if (fd < 0) {
        e = errno;
        int r = open_error(path, dir, e, err);
        free(dir);
        release(f);
        return r;
    }
    free(dir);
    if (have_target && S_ISREG(st.st_mode))
        (void)fchmod(fd, st.st_mode & 07777);
    f->fp = fdopen(fd, "wb");
    if (!f->fp) {
        close(fd);
        unlink(f->tmp);
        release(f);
        return gg_fail(err, "cannot write '%s': out of memory", path);
    }
    return 0;
}

int gg_atomic_open(const char *path, gg_atomic_file *f, gg_err *err)
{
    return open_target(path, f, false, err);
}

int gg_atomic_open_lazy(const char *path, gg_atomic_file *f, gg_err *err)
{
    if (open_target(path, f, false, err))
        return -1;
    f->lazy = true;
    return 0;
}

int gg_atomic_probe(const char *path, gg_err *err)
{
    gg_atomic_file f;
    if (open_target(path, &f, true, err))
        return -1;
    gg_atomic_abort(&f); /* nothing open for a target written in place */
    return 0;
}

void gg_atomic_abort(gg_atomic_file *f)
{
    if (f->fp)
        fclose(f->fp);
    if (f->tmp) /* written in place (no tmp): nothing to take back */
        unlink(f->tmp);
    release(f);
}

int gg_atomic_write(gg_atomic_file *f, const void *buf, size_t n,
                    gg_err *err)
{
    if (!f->fp)
        return gg_fail(err, "internal error: write to a closed atomic file");
    if (n && fwrite(buf, 1, n, f->fp) != n) {
        int e = errno;
        gg_fail(err, "writing '%s' failed: %s; %s", f->path, strerror(e),
                f->tmp ? "nothing was written"
                       : "what was written before the failure stays");
        gg_atomic_abort(f);
        return -1;
    }
    return 0;
}

/* fsync the directory that holds path's name (a rename into it made
 * durable); a failure cannot undo anything, so it is ignored. */
static void sync_dir(const char *path)
{
    const char *slash = strrchr(path, '/');
    char *dir = slash ? dup_str(path, slash == path ? 1
                                                    : (size_t)(slash - path))
                      : dup_str(".", 1);
    if (!dir)
        return;
    int dfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (dfd >= 0) {
        (void)fsync(dfd);
        close(dfd);
    }
    free(dir);
}

int gg_atomic_commit(gg_atomic_file *f, gg_err *err)
{
    if (!f->fp)
        return gg_fail(err, "internal error: commit of a closed atomic file");
    const char *step = "writing";
    int e = 0;
    errno = 0;
    if (fflush(f->fp) != 0 || ferror(f->fp)) {
        e = errno ? errno : EIO;
    } else if (!f->lazy && fsync(fileno(f->fp)) != 0 && errno != EINVAL) {
        e = errno;
        step = "syncing";
    }
    int rc = fclose(f->fp);
    f->fp = NULL;
    if (!e && rc != 0) {
        e = errno;
        step = "closing";
    }
    if (!e && !f->tmp) { /* written in place */
        release(f);
        return 0;
    }
    if (!e && rename(f->tmp, f->path) != 0) {
        e = errno;
        step = "renaming the temporary file onto";
    }
    if (e) {
        gg_fail(err, "%s '%s' failed: %s; %s", step, f->path, strerror(e),
                f->tmp ? "the file was left as it was"
                       : "the output may be incomplete");
        gg_atomic_abort(f);
        return -1;
    }
    /* Make the rename durable; failure here cannot undo it, so ignore. */
    if (!f->lazy)
        sync_dir(f->path);
    release(f);
    return 0;
}

int gg_atomic_sync(const char *path, gg_err *err)
{
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return gg_fail(err, "syncing '%s' failed: %s", path, strerror(errno));
    int bad = fsync(fd) != 0 && errno != EINVAL;
    int e = errno;
    close(fd);
    if (bad)
        return gg_fail(err, "syncing '%s' failed: %s", path, strerror(e));
    sync_dir(path);
    return 0;
}

int gg_make_dirs(const char *path, gg_err *err)
{
    char buf[4096];
    if (snprintf(buf, sizeof buf, "%s", path) >= (int)sizeof buf)
        return gg_fail(err, "folder name too long: %.200s...", path);
    for (char *p = buf + 1;; p++) {
        char saved = *p;
        if (saved && saved != '/')
            continue;
        *p = 0;
        int bad = mkdir(buf, 0777) && errno != EEXIST;
        *p = saved;
        if (bad)
            return gg_fail(err, "cannot create the folder %s: %s", buf,
                           strerror(errno));
        if (!saved)
            return 0;
    }
}

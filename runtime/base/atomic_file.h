/* Atomic file output: write to a temporary name in the target's directory,
 * flush, fsync, rename over the target (gg_atomic_open_lazy: without the
 * fsyncs). Until gg_atomic_commit succeeds a
 * regular target is untouched; any failure (including in commit) unlinks
 * the temporary file, so no partial file is left behind (a target written
 * in place, below, is the exception).
 *
 *     gg_atomic_file f;
 *     if (gg_atomic_open(path, &f, err)) return -1;
 *     if (gg_atomic_write(&f, buf, n, err)) return -1;   // aborts on failure
 *     return gg_atomic_commit(&f, err);                   // aborts on failure
 *
 * Callers that write through f.fp themselves (fprintf, libpng) call
 * gg_atomic_abort on their own failures; commit checks ferror(f.fp).
 *
 * A symbolic link is followed: the file it names is replaced and the link
 * stays. A target that exists and is not a regular file (/dev/null, a FIFO)
 * is written in place, since it cannot be replaced; that is not atomic. A
 * block device (a disk) is refused. */
#ifndef GG_ATOMIC_FILE_H
#define GG_ATOMIC_FILE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "error.h"

typedef struct gg_atomic_file {
    FILE *fp;   /* open for writing (binary); NULL once committed/aborted */
    char *path; /* final name */
    char *tmp;  /* temporary name in the same directory; NULL when the
                   target is written in place */
    bool lazy;  /* commit renames without fsync (gg_atomic_open_lazy) */
} gg_atomic_file;

/* Create the temporary file (mode 0666 & ~umask, or the existing target's
 * mode). Errors name the path and say why (missing directory, permission,
 * target is a directory, ...). */
int gg_atomic_open(const char *path, gg_atomic_file *f, gg_err *err);

/* The same, committed without fsync: still whole or not there at all for
 * every reader and after any signal or crash of the process, but not
 * forced to the disk (a power cut may lose it, as it may lose any file
 * the system has not written back yet). For results (a run's OUT, a
 * picture), whose two fsyncs cost 0.5-9 ms each on the 2-core VM, more
 * than a small pattern's whole run: bgolly writes without them. Stores
 * and checkpoints, which a long run resumes from, keep them (or call
 * gg_atomic_sync). */
int gg_atomic_open_lazy(const char *path, gg_atomic_file *f, gg_err *err);

/* fsync a file written lazily, and its directory (its name): a
 * checkpoint made durable after the fact. */
int gg_atomic_sync(const char *path, gg_err *err);

/* Whether path can be written, checked before a long run: as
 * gg_atomic_open, then abort; a target written in place is checked but not
 * opened (opening a FIFO would block, or end its reader's stream). */
int gg_atomic_probe(const char *path, gg_err *err);

/* fwrite that reports failure (and aborts the file). */
int gg_atomic_write(gg_atomic_file *f, const void *buf, size_t n,
                    gg_err *err);

/* Flush, fsync, close and rename into place (then fsync the directory). */
int gg_atomic_commit(gg_atomic_file *f, gg_err *err);

/* Close and unlink the temporary file; safe to call twice or after commit. */
void gg_atomic_abort(gg_atomic_file *f);

/* mkdir -p of path (a caches' folder before its first file): 0, or -1
 * with err naming the folder that could not be made and why. */
int gg_make_dirs(const char *path, gg_err *err);

#endif

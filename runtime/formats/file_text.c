/* A pattern file's whole text, gunzipped when it is gzip (file_text.h). */
#include "file_text.h"

#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "gg_config.h"

#if GG_HAVE_ZLIB
#include <zlib.h>
#endif

/* Plain regular files this big are mapped: no copy, no zeroed buffer. */
#define MAP_FROM ((off_t)16 << 20)
/* read() and inflate() work in chunks of this size; stop is polled once a
 * chunk. */
#define CHUNK ((size_t)1 << 20)

bool gg_is_gzip(const void *data, size_t len)
{
    const unsigned char *b = data;
    return len >= 2 && b[0] == 0x1f && b[1] == 0x8b;
}

size_t gg_gunzip_limit(void)
{
    long pages = sysconf(_SC_PHYS_PAGES), psize = sysconf(_SC_PAGE_SIZE);
    if (pages <= 0 || psize <= 0)
        return GG_GUNZIP_MAX;
    double half = (double)pages * (double)psize / 2;
    return half < (double)GG_GUNZIP_MAX ? (size_t)half : GG_GUNZIP_MAX;
}

static int stopped(const char *name, gg_err *err)
{
    return gg_fail(err, "stopped while reading '%s'", name);
}

#if GG_HAVE_ZLIB
/* out grown to hold at least need + 1 bytes (the NUL), doubling, never
 * past max + 1 (need <= max). */
static int grow(char **out, size_t *cap, size_t need, size_t max,
                const char *name, gg_err *err)
{
    if (need + 1 <= *cap)
        return 0;
    size_t c = *cap;
    while (c < need + 1)
        c = c > (max + 1) / 2 ? max + 1 : 2 * c;
    char *o = realloc(*out, c);
    if (!o)
        return gg_fail(err, "cannot read pattern '%s': out of memory for "
                       "%zu bytes of unpacked gzip", name, c);
    *out = o;
    *cap = c;
    return 0;
}

static int gz_fail(z_stream *z, char *out, int rc, const char *name,
                   gg_err *err)
{
    const char *why = z->msg ? z->msg : zError(rc);
    inflateEnd(z);
    free(out);
    if (rc == Z_MEM_ERROR)
        return gg_fail(err, "cannot read pattern '%s': out of memory while "
                       "unpacking gzip", name);
    return gg_fail(err, "%s: the gzip file is corrupt (%s); check it with "
                   "gzip -t", name, why);
}

int gg_gunzip(const void *data, size_t len, size_t max, const char *name,
              gg_stop_flag *stop, char **out, size_t *out_len, gg_err *err)
{
    *out = NULL;
    *out_len = 0;
    z_stream z = {0};
    /* 16 + 15: gzip only (no zlib or raw deflate), the largest window */
    int rc = inflateInit2(&z, 16 + 15);
    if (rc != Z_OK)
        return gg_fail(err, "cannot read pattern '%s': zlib does not start "
                       "(%s)", name, zError(rc));
    const unsigned char *in = data, *end = in + len;
    /* a guess the doubling corrects: text packs about 4:1 */
    size_t cap = len < max / 4 ? 4 * len + 2 : max + 2, n = 0;
    if (cap < 4096)
        cap = max + 2 < 4096 ? max + 2 : 4096;
    char *o = malloc(cap);
    if (!o) {
        inflateEnd(&z);
        return gg_fail(err, "cannot read pattern '%s': out of memory", name);
    }
    for (;;) {
        if (gg_stop_asked(stop)) {
            inflateEnd(&z);
            free(o);
            return stopped(name, err);
        }
        /* room for one byte past max, which tells "more than max" */
        if (grow(&o, &cap, n + (CHUNK < max + 1 - n ? CHUNK : max + 1 - n),
                 max + 1, name, err)) {
            inflateEnd(&z);
            return -1;
        }
        size_t room = cap - 1 - n;
        z.next_in = (unsigned char *)in;
        size_t left = (size_t)(end - in);
        z.avail_in = (uInt)(left < CHUNK ? left : CHUNK);
        z.next_out = (unsigned char *)o + n;
        z.avail_out = (uInt)(room < CHUNK ? room : CHUNK);
        uInt before = z.avail_out;
        rc = inflate(&z, Z_NO_FLUSH);
        n += before - z.avail_out;
        if (n > max) {
            inflateEnd(&z);
            free(o);
            bool mib = max >= (1 << 20);
            return gg_fail(err, "%s: the gzip file unpacks to more than %zu "
                           "%s, the most golgen unpacks from gzip; gunzip it "
                           "and give the plain file (read without this "
                           "limit)", name, mib ? max >> 20 : max,
                           mib ? "MiB" : "bytes");
        }
        in = z.next_in;
        if (rc == Z_STREAM_END) {
            /* another member follows (gzip -d reads concatenated files);
             * anything else after the last one is ignored, as gzread */
            if (!gg_is_gzip(in, (size_t)(end - in)))
                break;
            inflateReset(&z);
            continue;
        }
        if (rc == Z_BUF_ERROR)
            break; /* input used up mid-stream: truncated, said below */
        if (rc != Z_OK && rc != Z_BUF_ERROR)
            return gz_fail(&z, o, rc, name, err);
    }
    bool truncated = rc != Z_STREAM_END;
    inflateEnd(&z);
    if (truncated) {
        free(o);
        return gg_fail(err, "%s: the gzip file is truncated (it ends before "
                       "its compressed data does); the download or copy "
                       "was probably cut short", name);
    }
    o[n] = 0;
    *out = o;
    *out_len = n;
    return 0;
}
#else
int gg_gunzip(const void *data, size_t len, size_t max, const char *name,
              gg_stop_flag *stop, char **out, size_t *out_len, gg_err *err)
{
    (void)data, (void)len, (void)max, (void)stop;
    *out = NULL;
    *out_len = 0;
    return gg_fail(err, "%s: the file is gzip-compressed and this golgen "
                   "was built without zlib (Debian: apt-get install "
                   "zlib1g-dev, then rebuild); or gunzip it first", name);
}
#endif

/* open() or standard input, with the reader's messages. */
static int open_path(const char *path, bool std_in, gg_err *err)
{
    int fd = std_in ? dup(STDIN_FILENO) : open(path, O_RDONLY | O_CLOEXEC);
    if (fd >= 0)
        return fd;
    int e = errno;
    if (e == ENOENT)
        gg_fail(err, "cannot read pattern '%s': no such file", path);
    else if (e == EACCES)
        gg_fail(err, "cannot read pattern '%s': permission denied", path);
    else
        gg_fail(err, "cannot read pattern '%s': %s", path, strerror(e));
    return -1;
}

/* The bytes of fd into a malloc'd, NUL-terminated buffer. A regular file
 * is read into one buffer of its size; pipes grow theirs. Unless the
 * first bytes are gzip, reading stops at a NUL byte. */
static int read_fd(int fd, const struct stat *st, const char *path,
                   gg_stop_flag *stop, char **buf, size_t *len, gg_err *err)
{
    size_t cap = S_ISREG(st->st_mode) ? (size_t)st->st_size + 1 : 65536;
    size_t n = 0;
    char *b = malloc(cap);
    if (!b)
        return gg_fail(err, "cannot read pattern '%s': out of memory for "
                       "%zu bytes", path, cap);
    for (;;) {
        if (gg_stop_asked(stop)) {
            free(b);
            return stopped(path, err);
        }
        if (n + 1 >= cap) {
            char *nb = cap <= SIZE_MAX / 2 ? realloc(b, cap * 2) : NULL;
            if (!nb) {
                free(b);
                return gg_fail(err, "cannot read pattern '%s': out of memory",
                               path);
            }
            b = nb;
            cap *= 2;
        }
        size_t want = cap - 1 - n < CHUNK ? cap - 1 - n : CHUNK;
        ssize_t r = read(fd, b + n, want);
        if (r < 0) {
            if (errno == EINTR)
                continue; /* a stop signal: polled above */
            int e = errno;
            free(b);
            return gg_fail(err, "cannot read pattern '%s': %s", path,
                           strerror(e));
        }
        if (r == 0)
            break;
        n += (size_t)r;
        if (!gg_is_gzip(b, n) && memchr(b + n - (size_t)r, 0, (size_t)r))
            break;
    }
    b[n] = 0;
    *buf = b;
    *len = n;
    return 0;
}

int gg_file_text_read(const char *path, gg_stop_flag *stop, gg_file_text *t,
                      gg_err *err)
{
    memset(t, 0, sizeof *t);
    bool std_in = !strcmp(path, "-");
    if (std_in)
        path = "standard input";
    int fd = open_path(path, std_in, err);
    if (fd < 0)
        return -1;
    struct stat st;
    if (fstat(fd, &st) != 0) {
        int e = errno;
        close(fd);
        return gg_fail(err, "cannot read pattern '%s': %s", path,
                       strerror(e));
    }
    if (S_ISDIR(st.st_mode)) {
        close(fd);
        return gg_fail(err, "cannot read pattern '%s': it is a directory; "
                       "give a pattern file", path);
    }
    char *raw = NULL;
    size_t len = 0, mapped = 0;
    if (!std_in && S_ISREG(st.st_mode) && st.st_size >= MAP_FROM) {
        void *m = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd,
                       0);
        if (m != MAP_FAILED) {
            (void)madvise(m, (size_t)st.st_size, MADV_SEQUENTIAL);
            raw = m;
            len = mapped = (size_t)st.st_size;
        }
    }
    int rc = raw ? 0 : read_fd(fd, &st, path, stop, &raw, &len, err);
    close(fd);
    if (rc)
        return -1;
    if (!gg_is_gzip(raw, len)) {
        t->text = raw;
        t->len = len;
        t->mapped = mapped;
        return 0;
    }
    rc = gg_gunzip(raw, len, gg_gunzip_limit(), path, stop, &t->text,
                   &t->len, err);
    if (mapped)
        munmap(raw, mapped);
    else
        free(raw);
    return rc;
}

void gg_file_text_free(gg_file_text *t)
{
    if (t->mapped)
        munmap(t->text, t->mapped);
    else
        free(t->text);
    memset(t, 0, sizeof *t);
}

char *gg_file_text_alloc(const char *path, gg_stop_flag *stop, size_t *len,
                         gg_err *err)
{
    gg_file_text t;
    *len = 0;
    if (gg_file_text_read(path, stop, &t, err))
        return NULL;
    if (!t.mapped) {
        *len = t.len;
        return t.text;
    }
    char *copy = malloc(t.len + 1);
    if (!copy) {
        gg_fail(err, "cannot read pattern '%s': out of memory for %zu bytes",
                path, t.len + 1);
    } else {
        memcpy(copy, t.text, t.len);
        copy[t.len] = 0;
        *len = t.len;
    }
    gg_file_text_free(&t);
    return copy;
}

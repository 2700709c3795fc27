#define _GNU_SOURCE
#include "jit.h"

#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <spawn.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "atomic_file.h"
#include "hash128.h"

extern char **environ;

/* NODELETE: a kernel pulls in libgomp, whose idle worker threads outlive the
 * kernel's last call; unloading both under them crashes the process. */
#define GG_DLOPEN_FLAGS (RTLD_NOW | RTLD_LOCAL | RTLD_NODELETE)

static const char *jit_cc(const gg_jit_opts *o)
{
    const char *cc = o ? o->cc : NULL;
    return cc && *cc ? cc : "cc";
}

static const char *jit_flags(const gg_jit_opts *o)
{
    return o && o->flags ? o->flags : GG_JIT_FLAGS;
}

int gg_jit_cache_dir(const gg_jit_opts *o, char *buf, size_t size,
                     gg_err *err)
{
    int n;
    if (o && o->cache_dir && *o->cache_dir)
        n = snprintf(buf, size, "%s", o->cache_dir);
    else /* gg_config_from_env found none of the variables */
        return gg_fail(err, "no kernel cache directory: set GOLGEN_CACHE_DIR "
                       "(or HOME)");
    if (n < 0 || (size_t)n >= size)
        return gg_fail(err, "kernel cache directory name is too long");
    return 0;
}

int gg_jit_cache_dir_made(const gg_jit_opts *o, char *buf, size_t size,
                          gg_err *err)
{
    if (gg_jit_cache_dir(o, buf, size, err))
        return -1;
    if (gg_make_dirs(buf, err)) {
        size_t n = strlen(err->msg);
        snprintf(err->msg + n, sizeof err->msg - n, " (the kernel cache: "
                 "set GOLGEN_CACHE_DIR to a writable place)");
        return -1;
    }
    return 0;
}

/* The CPU's model and feature flags: -march=native code from one machine
 * must not be loaded from a shared cache on another (SIGILL). On x86 the
 * CPUID leaves and the state the OS enables (XCR0) say it, where
 * /proc/cpuinfo took 25-150 us of every start here (and its frequency
 * sampling costs more on big hosts). */
#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>

#ifdef __GLIBC__
#if __GLIBC_PREREQ(2, 33)
#include <sys/platform/x86.h>
#define GG_GLIBC_CPUID 1
#endif
#endif

/* Hashes the registers r of a CPUID leaf (EAX, EBX, ECX, EDX); leaf1:
 * it is leaf 1, whose EBX's top byte is the APIC id of the core it ran
 * on (left out). */
static void hash_regs(uint64_t h[2], bool leaf1, const unsigned r[4])
{
    unsigned v[4] = {r[0], leaf1 ? r[1] & 0x00ffffffu : r[1], r[2], r[3]};
    gg_hash128(h, (const char *)v, sizeof v);
}

static void hash_xcr0(uint64_t h[2], unsigned leaf1_ecx)
{
    if (!(leaf1_ecx & bit_OSXSAVE))
        return;
    unsigned lo, hi;
    __asm__ volatile("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
    uint64_t xcr0 = (uint64_t)hi << 32 | lo;
    gg_hash128(h, (const char *)&xcr0, sizeof xcr0);
}

#ifdef GG_GLIBC_CPUID
/* The leaves glibc read at start (family, model, stepping and every
 * feature leaf gcc's -march=native reads), from its copy: a CPUID is a
 * VM exit, 4-70 us each on the test VM, and the 9 leaves of every key
 * made were 10% of a small run's start (two kernels: two keys). */
static void hash_cpu(uint64_t h[2])
{
    static const unsigned leaves[] = {
        CPUID_INDEX_1,       CPUID_INDEX_7,       CPUID_INDEX_80000001,
        CPUID_INDEX_D_ECX_1, CPUID_INDEX_7_ECX_1, CPUID_INDEX_19,
        CPUID_INDEX_14_ECX_0};
    for (size_t i = 0; i < sizeof leaves / sizeof *leaves; i++)
        hash_regs(h, leaves[i] == CPUID_INDEX_1,
                  __x86_get_cpuid_feature_leaf(leaves[i])->cpuid_array);
    hash_xcr0(h, __x86_get_cpuid_feature_leaf(CPUID_INDEX_1)->cpuid_array[2]);
}
#else
/* Hashes CPUID leaf.sub; r: its EAX, EBX, ECX, EDX. */
static void hash_leaf(uint64_t h[2], unsigned leaf, unsigned sub,
                      unsigned r[4])
{
    __cpuid_count(leaf, sub, r[0], r[1], r[2], r[3]);
    hash_regs(h, leaf == 1, r);
}

static void hash_cpu(uint64_t h[2])
{
    unsigned max = __get_cpuid_max(0, NULL), ext = __get_cpuid_max(0x80000000u,
                                                                   NULL);
    unsigned r[4], features = 0;
    hash_leaf(h, 0, 0, r); /* vendor */
    if (max >= 1) {
        hash_leaf(h, 1, 0, r); /* family, model, stepping, features */
        features = r[2];
    }
    if (max >= 7) {
        hash_leaf(h, 7, 0, r);
        hash_leaf(h, 7, 1, r);
    }
    for (unsigned leaf = 0x80000001u; leaf <= ext && leaf <= 0x80000004u;
         leaf++)
        hash_leaf(h, leaf, 0, r); /* more features, the model's name */
    hash_xcr0(h, features);
}
#endif
#else
static void hash_cpu(uint64_t h[2])
{
    FILE *f = fopen("/proc/cpuinfo", "r");
    char line[8192];
    int seen = 0;
    if (!f)
        return;
    while (seen < 2 && fgets(line, sizeof line, f))
        if (!strncmp(line, "model name", 10) || !strncmp(line, "flags", 5)) {
            gg_hash128(h, line, strlen(line));
            seen++;
        }
    fclose(f);
}
#endif

static void cache_key(const gg_jit_opts *o, const char *src, size_t len,
                      char key[33])
{
    uint64_t h[2] = {0xcbf29ce484222325ull, 0x84222325cbf29ce4ull};
    const char *cc = jit_cc(o), *fl = jit_flags(o);
    const char *ex = o && o->extra ? o->extra : "";
    hash_cpu(h);
    gg_hash128(h, cc, strlen(cc) + 1);
    gg_hash128(h, fl, strlen(fl) + 1);
    gg_hash128(h, ex, strlen(ex) + 1);
    gg_hash128(h, src, len);
    snprintf(key, 33, "%016llx%016llx", (unsigned long long)h[0],
             (unsigned long long)h[1]);
}

static int write_file(const char *path, const char *src, size_t len,
                      gg_err *err)
{
    gg_atomic_file f;
    if (gg_atomic_open(path, &f, err) || gg_atomic_write(&f, src, len, err) ||
        gg_atomic_commit(&f, err))
        return -1;
    return 0;
}

/* Split "a b  c" into argv words (flags never need quoting here). */
static int split_words(char *s, char **argv, int max)
{
    int n = 0;
    for (char *t = strtok(s, " \t"); t && n < max; t = strtok(NULL, " \t"))
        argv[n++] = t;
    return n;
}

/* The first lines of the compiler's log, for the error message. */
static void log_head(const char *log, char *buf, size_t size)
{
    buf[0] = 0;
    FILE *f = fopen(log, "r");
    if (!f)
        return;
    size_t n = fread(buf, 1, size - 1, f);
    buf[n] = 0;
    fclose(f);
    for (char *p = buf; *p; p++)
        if (*p == '\n')
            *p = ' ';
}

static int run_compiler(const gg_jit_opts *o, const char *c_path,
                        const char *out, const char *log, gg_err *err)
{
    char words[2048], *argv[64];
    const char *cc = jit_cc(o);
    snprintf(words, sizeof words, "%s %s %s", cc, jit_flags(o),
             o && o->extra ? o->extra : "");
    int n = split_words(words, argv, 58);
    argv[n++] = "-o";
    argv[n++] = (char *)out;
    argv[n++] = (char *)c_path;
    argv[n] = NULL;
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_addopen(&fa, 1, log, O_WRONLY | O_CREAT | O_TRUNC,
                                     0666);
    posix_spawn_file_actions_adddup2(&fa, 1, 2);
    pid_t pid;
    int rc = posix_spawnp(&pid, argv[0], &fa, NULL, argv, environ);
    posix_spawn_file_actions_destroy(&fa);
    if (rc)
        return gg_fail(err, "cannot run the C compiler '%s': %s (install gcc "
                       "or clang, or set CC)", cc, strerror(rc));
    int status;
    while (waitpid(pid, &status, 0) < 0)
        if (errno != EINTR)
            return gg_fail(err, "waiting for the C compiler: %s",
                           strerror(errno));
    if (WIFEXITED(status) && WEXITSTATUS(status) == 0)
        return 0;
    char head[300];
    log_head(log, head, sizeof head);
    if (WIFEXITED(status) && WEXITSTATUS(status) == 127)
        return gg_fail(err, "cannot run the C compiler '%s' (install gcc or "
                       "clang, or set CC)", cc);
    return gg_fail(err, "the C compiler '%s' failed on %s (log %s): %s", cc,
                   c_path, log, head);
}

/* What a run of `cc --version` found working, remembered: the program
 * the PATH gives for the command's first word, with its inode, size and
 * modification time. The probe is a fork and an exec (1-3 ms, a tenth
 * of a small pattern's whole run on the hash tree), asked at every start
 * of the cpu backend; while that file is unchanged the answer is. */
static bool cc_file(const char *prog, char *line, size_t size)
{
    char path[4096];
    struct stat st;
    const char *dirs = strchr(prog, '/') ? "" : getenv("PATH");
    if (!dirs)
        return false;
    for (;;) {
        const char *end = strchr(dirs, ':');
        size_t len = end ? (size_t)(end - dirs) : strlen(dirs);
        int n = strchr(prog, '/')
                    ? snprintf(path, sizeof path, "%s", prog)
                    : snprintf(path, sizeof path, "%.*s/%s", (int)len,
                               len ? dirs : ".", prog);
        if (n > 0 && (size_t)n < sizeof path && !stat(path, &st) &&
            S_ISREG(st.st_mode) && !access(path, X_OK)) {
            n = snprintf(line, size, "%s %llu %lld %lld.%09ld\n", path,
                         (unsigned long long)st.st_ino, (long long)st.st_size,
                         (long long)st.st_mtim.tv_sec, st.st_mtim.tv_nsec);
            return n > 0 && (size_t)n < size;
        }
        if (!end)
            return false;
        dirs = end + 1;
    }
}

/* The stamp's name in the cache directory, keyed by the command. */
static bool cc_stamp(const gg_jit_opts *o, const char *cc, char *path,
                     size_t size)
{
    char dir[3900];
    gg_err ignored;
    uint64_t h[2] = {0xcbf29ce484222325ull, 0x84222325cbf29ce4ull};
    if (gg_jit_cache_dir(o, dir, sizeof dir, &ignored))
        return false;
    gg_hash128(h, cc, strlen(cc));
    int n = snprintf(path, size, "%s/cc-%016llx.ok", dir,
                     (unsigned long long)h[0]);
    return n > 0 && (size_t)n < size;
}

int gg_jit_probe(const gg_jit_opts *o, gg_err *err)
{
    char words[1024], *argv[64], file[4300], stamp[4000], seen[4300];
    const char *cc = jit_cc(o);
    snprintf(words, sizeof words, "%s --version", cc);
    int n = split_words(words, argv, 62);
    argv[n] = NULL;
    bool known = n && cc_file(argv[0], file, sizeof file) &&
                 cc_stamp(o, cc, stamp, sizeof stamp);
    if (known) {
        FILE *f = fopen(stamp, "r");
        size_t got = f ? fread(seen, 1, sizeof seen - 1, f) : 0;
        if (f)
            fclose(f);
        seen[got] = 0;
        if (!strcmp(seen, file))
            return 0;
    }
    posix_spawn_file_actions_t fa;
    posix_spawn_file_actions_init(&fa);
    posix_spawn_file_actions_addopen(&fa, 1, "/dev/null", O_WRONLY, 0);
    posix_spawn_file_actions_adddup2(&fa, 1, 2);
    pid_t pid;
    int rc = posix_spawnp(&pid, argv[0], &fa, NULL, argv, environ);
    posix_spawn_file_actions_destroy(&fa);
    int status = 0;
    while (!rc && waitpid(pid, &status, 0) < 0)
        if (errno != EINTR)
            rc = errno;
    if (rc || !WIFEXITED(status) || WEXITSTATUS(status))
        return gg_fail(err, "cannot run the C compiler '%s' (install gcc or "
                       "clang, or set CC)", cc);
    gg_err ignored; /* no stamp (a read-only cache): the probe runs again */
    if (known)
        (void)write_file(stamp, file, strlen(file), &ignored);
    return 0;
}

static int compile(const gg_jit_opts *o, const char *base, const char *src,
                   size_t len, const char *so, gg_err *err)
{
    char c_path[4200], tmp[4200], log[4200];
    snprintf(c_path, sizeof c_path, "%s.c", base);
    snprintf(log, sizeof log, "%s.log", base);
    snprintf(tmp, sizeof tmp, "%s.so.tmp%ld", base, (long)getpid());
    if (write_file(c_path, src, len, err))
        return -1;
    if (run_compiler(o, c_path, tmp, log, err)) {
        unlink(tmp);
        return -1;
    }
    /* rename is atomic: a concurrent loader sees no .so or a whole one. */
    if (rename(tmp, so)) {
        int e = errno;
        unlink(tmp);
        return gg_fail(err, "cannot move the compiled kernel to %s: %s", so,
                       strerror(e));
    }
    unlink(log);
    return 0;
}

int gg_jit_load(const char *src, size_t len, const gg_jit_opts *o,
                gg_jit_lib *lib, gg_err *err)
{
    char dir[3900], key[33], base[4000];
    memset(lib, 0, sizeof *lib);
    if (gg_jit_cache_dir_made(o, dir, sizeof dir, err))
        return -1;
    cache_key(o, src, len, key);
    snprintf(base, sizeof base, "%s/k-%s", dir, key);
    snprintf(lib->path, sizeof lib->path, "%s.so", base);
    if (access(lib->path, R_OK) == 0 &&
        (lib->handle = dlopen(lib->path, GG_DLOPEN_FLAGS))) {
        lib->cache_hit = true;
        return 0;
    }
    if (compile(o, base, src, len, lib->path, err))
        return -1;
    lib->handle = dlopen(lib->path, GG_DLOPEN_FLAGS);
    if (!lib->handle)
        return gg_fail(err, "cannot load compiled kernel %s: %s", lib->path,
                       dlerror());
    return 0;
}

/* The kernel a remembered key names, loaded; false when none is. */
static bool load_alias(const char *alias, const char *dir, gg_jit_lib *lib)
{
    char name[64] = "";
    FILE *f = fopen(alias, "r");
    if (!f)
        return false;
    bool read = fgets(name, sizeof name, f) != NULL;
    fclose(f);
    name[strcspn(name, "\n")] = 0;
    if (!read || strncmp(name, "k-", 2) || strchr(name, '/'))
        return false;
    snprintf(lib->path, sizeof lib->path, "%s/%s", dir, name);
    lib->handle = access(lib->path, R_OK) == 0
                      ? dlopen(lib->path, GG_DLOPEN_FLAGS)
                      : NULL;
    lib->cache_hit = lib->handle != NULL;
    return lib->cache_hit;
}

int gg_jit_load_keyed(const char *key, gg_jit_emit_fn emit, void *ctx,
                      const gg_jit_opts *o, gg_jit_lib *lib, gg_err *err)
{
    char dir[3900], akey[33], alias[4000];
    memset(lib, 0, sizeof *lib);
    if (gg_jit_cache_dir_made(o, dir, sizeof dir, err))
        return -1;
    cache_key(o, key, strlen(key), akey);
    snprintf(alias, sizeof alias, "%s/a-%s", dir, akey);
    if (load_alias(alias, dir, lib))
        return 0;
    char *src;
    size_t len;
    if (emit(ctx, &src, &len, err))
        return -1;
    int bad = gg_jit_load(src, len, o, lib, err);
    free(src);
    if (bad)
        return -1;
    /* remembered for the next run; a failure only costs that run the
     * source again */
    const char *base = strrchr(lib->path, '/');
    gg_atomic_file f;
    gg_err ignored;
    if (base && !gg_atomic_open_lazy(alias, &f, &ignored)) {
        fprintf(f.fp, "%s\n", base + 1);
        gg_atomic_commit(&f, &ignored);
    }
    return 0;
}

void *gg_jit_sym(const gg_jit_lib *lib, const char *name, gg_err *err)
{
    void *p = lib->handle ? dlsym(lib->handle, name) : NULL;
    if (!p)
        gg_fail(err, "kernel %s lacks symbol %s", lib->path, name);
    return p;
}

void gg_jit_close(gg_jit_lib *lib)
{
    if (lib->handle)
        dlclose(lib->handle);
    lib->handle = NULL;
}

/* The stamp's text for lib's file as it is now; false when it cannot be
 * read. */
static bool stamp_text(const gg_jit_lib *lib, const char *tag, char *buf,
                       size_t size)
{
    struct stat st;
    if (stat(lib->path, &st))
        return false;
    snprintf(buf, size, "%s\n%lld %lld.%09ld\n", tag, (long long)st.st_size,
             (long long)st.st_mtim.tv_sec, (long)st.st_mtim.tv_nsec);
    return true;
}

bool gg_jit_stamped(const gg_jit_lib *lib, const char *tag)
{
    char want[600], got[600] = "", path[4200];
    if (!lib->cache_hit || !stamp_text(lib, tag, want, sizeof want))
        return false;
    snprintf(path, sizeof path, "%s.ok", lib->path);
    FILE *f = fopen(path, "r");
    size_t n = f ? fread(got, 1, sizeof got - 1, f) : 0;
    got[n] = 0;
    if (f)
        fclose(f);
    return !strcmp(want, got);
}

void gg_jit_stamp(const gg_jit_lib *lib, const char *tag)
{
    char text[600], path[4200], tmp[4300];
    if (!stamp_text(lib, tag, text, sizeof text))
        return;
    snprintf(path, sizeof path, "%s.ok", lib->path);
    snprintf(tmp, sizeof tmp, "%s.%ld", path, (long)getpid());
    FILE *f = fopen(tmp, "w"); /* aside, then renamed: never half a stamp */
    if (!f)
        return;
    bool bad = fputs(text, f) == EOF;
    bad = fclose(f) || bad;
    if (bad || rename(tmp, path))
        remove(tmp);
}

/* The JIT: compile once, then load from the cache; clear errors when the
 * compiler is missing or fails; the cache directory's environment. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "test_util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "build_info.h"
#include "config.h"
#include "jit.h"


static const char good_src[] = "int gg_answer(void) { return 42; }\n";

static void test_cache_hit(void **state)
{
    (void)state;
    gg_jit_opts o = {.cache_dir = gg_test_dir, .flags = "-O1 -shared -fPIC"};
    gg_jit_lib a, b;
    gg_err err;
    if (gg_jit_load(good_src, strlen(good_src), &o, &a, &err))
        fail_msg("%s", err.msg);
    assert_false(a.cache_hit);
    int (*f)(void) = (int (*)(void))gg_jit_sym(&a, "gg_answer", &err);
    assert_non_null(f);
    assert_int_equal(f(), 42);
    struct stat st1, st2;
    assert_int_equal(stat(a.path, &st1), 0);
    /* The second load compiles nothing: same file, untouched. */
    assert_int_equal(gg_jit_load(good_src, strlen(good_src), &o, &b, &err),
                     0);
    assert_true(b.cache_hit);
    assert_string_equal(a.path, b.path);
    assert_int_equal(stat(b.path, &st2), 0);
    assert_int_equal(st1.st_ino, st2.st_ino);
    assert_int_equal(st1.st_mtim.tv_nsec, st2.st_mtim.tv_nsec);
    assert_null(gg_jit_sym(&b, "no_such_symbol", &err));
    gg_jit_close(&a);
    gg_jit_close(&b);
    /* Other flags are another kernel. */
    o.extra = "-DOTHER";
    assert_int_equal(gg_jit_load(good_src, strlen(good_src), &o, &b, &err),
                     0);
    assert_false(b.cache_hit);
    assert_string_not_equal(a.path, b.path);
    gg_jit_close(&b);
}

/* A kernel found by its key: emitted once, then loaded without its
 * source; another key emits; a key whose kernel file is gone emits
 * again. The build names itself (the key's part that keeps another
 * build's emitter out). */
static int emits;

static int emit_answer(void *ctx, char **src, size_t *len, gg_err *err)
{
    (void)err;
    emits++;
    *src = strdup(ctx);
    *len = strlen(ctx);
    return *src ? 0 : -1;
}

static void test_keyed(void **state)
{
    (void)state;
    gg_jit_opts o = {.cache_dir = gg_test_dir, .flags = "-O1 -shared -fPIC"};
    gg_jit_lib a, b;
    gg_err err;
    char src[] = "int gg_answer(void) { return 43; }\n";
    emits = 0;
    if (gg_jit_load_keyed("answer v1", emit_answer, src, &o, &a, &err))
        fail_msg("%s", err.msg);
    assert_int_equal(emits, 1);
    assert_int_equal(gg_jit_load_keyed("answer v1", emit_answer, src, &o, &b,
                                       &err),
                     0);
    assert_int_equal(emits, 1);
    assert_true(b.cache_hit);
    assert_string_equal(a.path, b.path);
    int (*f)(void) = (int (*)(void))gg_jit_sym(&b, "gg_answer", &err);
    assert_non_null(f);
    assert_int_equal(f(), 43);
    gg_jit_close(&b);
    assert_int_equal(gg_jit_load_keyed("answer v2", emit_answer, src, &o, &b,
                                       &err),
                     0);
    assert_int_equal(emits, 2);
    gg_jit_close(&b);
    assert_int_equal(unlink(a.path), 0);
    gg_jit_close(&a);
    assert_int_equal(gg_jit_load_keyed("answer v1", emit_answer, src, &o, &b,
                                       &err),
                     0);
    assert_int_equal(emits, 3);
    assert_false(b.cache_hit);
    gg_jit_close(&b);
    char id[96];
    assert_true(gg_build_id(id, sizeof id));
    assert_true(strlen(id) >= 16);
    assert_true(strspn(id, "0123456789abcdef") == strlen(id));
}

/* A check's stamp holds for the cached file it was written for, only
 * with its tag, and no longer once the file changes. */
static void test_stamps(void **state)
{
    (void)state;
    gg_jit_opts o = {.cache_dir = gg_test_dir, .flags = "-O1 -shared -fPIC",
                     .extra = "-DSTAMPS"};
    gg_jit_lib a, b;
    gg_err err;
    if (gg_jit_load(good_src, strlen(good_src), &o, &a, &err))
        fail_msg("%s", err.msg);
    assert_false(gg_jit_stamped(&a, "checked v1")); /* just compiled */
    gg_jit_stamp(&a, "checked v1");
    assert_int_equal(gg_jit_load(good_src, strlen(good_src), &o, &b, &err),
                     0);
    assert_true(gg_jit_stamped(&b, "checked v1"));
    assert_false(gg_jit_stamped(&b, "checked v2"));
    gg_jit_close(&b);
    char cmd[4200];
    snprintf(cmd, sizeof cmd, "touch -d '2001-01-01' '%s'", a.path);
    assert_int_equal(gg_test_status(cmd), 0);
    assert_int_equal(gg_jit_load(good_src, strlen(good_src), &o, &b, &err),
                     0);
    assert_false(gg_jit_stamped(&b, "checked v1"));
    gg_jit_close(&a);
    gg_jit_close(&b);
}

static void test_missing_compiler(void **state)
{
    (void)state;
    gg_jit_opts o = {.cache_dir = gg_test_dir, .cc = "/nonexistent/cc"};
    gg_jit_lib lib;
    gg_err err;
    assert_int_equal(gg_jit_load(good_src, strlen(good_src), &o, &lib, &err),
                     -1);
    assert_non_null(strstr(err.msg, "cannot run the C compiler"));
    assert_non_null(strstr(err.msg, "/nonexistent/cc"));
}

/* The probe remembers a compiler that ran: a stand-in `cc` counts its
 * runs; the second probe does not run it, a changed file (size, time)
 * runs it again, one that fails is never remembered. */
static void test_probe_stamp(void **state)
{
    (void)state;
    char cc[600], runs[600], script[1400];
    snprintf(cc, sizeof cc, "%s/fake-cc", gg_test_dir);
    snprintf(runs, sizeof runs, "%s/fake-cc.runs", gg_test_dir);
    unlink(runs);
    snprintf(script, sizeof script, "#!/bin/sh\necho x >>'%s'\nexit 0\n",
             runs);
    FILE *f = fopen(cc, "w");
    assert_non_null(f);
    fputs(script, f);
    fclose(f);
    chmod(cc, 0755);
    gg_jit_opts o = {.cache_dir = gg_test_dir, .cc = cc};
    gg_err err;
    assert_int_equal(gg_jit_probe(&o, &err), 0);
    assert_int_equal(gg_jit_probe(&o, &err), 0);
    char cmd[800];
    snprintf(cmd, sizeof cmd, "test $(wc -l <'%s') = 1", runs);
    assert_int_equal(system(cmd), 0);
    f = fopen(cc, "a"); /* another compiler now: the probe runs again */
    fputs("# changed\n", f);
    fclose(f);
    assert_int_equal(gg_jit_probe(&o, &err), 0);
    snprintf(cmd, sizeof cmd, "test $(wc -l <'%s') = 2", runs);
    assert_int_equal(system(cmd), 0);
    f = fopen(cc, "w"); /* a failing compiler: refused, every time */
    fputs("#!/bin/sh\nexit 1\n", f);
    fclose(f);
    assert_int_equal(gg_jit_probe(&o, &err), -1);
    assert_non_null(strstr(err.msg, "cannot run the C compiler"));
    assert_int_equal(gg_jit_probe(&o, &err), -1);
}

static void test_compile_error(void **state)
{
    (void)state;
    static const char bad[] = "int gg_answer(void) { return 42 }\n";
    gg_jit_opts o = {.cache_dir = gg_test_dir};
    gg_jit_lib lib;
    gg_err err;
    assert_int_equal(gg_jit_load(bad, strlen(bad), &o, &lib, &err), -1);
    assert_non_null(strstr(err.msg, "failed"));
    assert_non_null(strstr(err.msg, "error"));
}

/* The cache directory the environment gives, as the CLI resolves it
 * (runtime/base/config.h reads the variables, the JIT takes the result). */
static int cache_dir_from_env(char *buf, size_t size, gg_err *err)
{
    gg_config cfg;
    if (gg_config_from_env(&cfg, err))
        return -1;
    gg_jit_opts o = {.cache_dir = cfg.cache_dir};
    return gg_jit_cache_dir(&o, buf, size, err);
}

static void test_cache_dir_env(void **state)
{
    (void)state;
    char buf[4096];
    gg_err err;
    setenv("GOLGEN_CACHE_DIR", "/tmp/gg-x", 1);
    assert_int_equal(cache_dir_from_env(buf, sizeof buf, &err), 0);
    assert_string_equal(buf, "/tmp/gg-x");
    unsetenv("GOLGEN_CACHE_DIR");
    setenv("XDG_CACHE_HOME", "/tmp/xdg", 1);
    assert_int_equal(cache_dir_from_env(buf, sizeof buf, &err), 0);
    assert_string_equal(buf, "/tmp/xdg/golgen");
    unsetenv("XDG_CACHE_HOME");
    setenv("HOME", "/tmp/home", 1);
    assert_int_equal(cache_dir_from_env(buf, sizeof buf, &err), 0);
    assert_string_equal(buf, "/tmp/home/.cache/golgen");
}

/* No compiler: the CLI says so and exits 3 (environment). */
static void test_cli_exit_env(void **state)
{
    (void)state;
    const char *golgen = getenv("GG_GOLGEN");
    assert_non_null(golgen);
    char cmd[8192];
    snprintf(cmd, sizeof cmd, "CC=/nonexistent/cc GOLGEN_CACHE_DIR='%s/env' "
             "'%s' bench --backend cpu --size 64x64 --gens 1 2>/dev/null",
             gg_test_dir, golgen);
    int st = system(cmd);
    assert_true(WIFEXITED(st));
    assert_int_equal(WEXITSTATUS(st), 3);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_cache_hit),
        cmocka_unit_test(test_keyed),
        cmocka_unit_test(test_stamps),
        cmocka_unit_test(test_missing_compiler),
        cmocka_unit_test(test_probe_stamp),
        cmocka_unit_test(test_compile_error),
        cmocka_unit_test(test_cache_dir_env),
        cmocka_unit_test(test_cli_exit_env),
    };
    return cmocka_run_group_tests(tests, gg_test_setup_dir,
                                  gg_test_teardown_dir);
}

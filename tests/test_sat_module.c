/* The solver behind gg_sat (sat/solvers/cms.h): there whenever the build
 * has it, and, where it is the golgen-sat module (sat_ops.h), loaded only
 * by the processes that solve, so a run from the network cache starts
 * without CryptoMiniSat and the C++ runtime. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "cms.h"
#include "gg_config.h"

static void test_solver_there(void **state)
{
    (void)state;
#if GG_HAVE_SAT
    assert_true(gg_sat_available());
    assert_null(gg_sat_unavailable_why());
    /* x1, and x1 -> x2: the one model has x2 true */
    gg_sat *s = gg_sat_new();
    assert_non_null(s);
    int a = gg_sat_var(s), b = gg_sat_var(s);
    int unit[1] = {a}, imp[2] = {-a, b};
    gg_sat_clause(s, unit, 1);
    gg_sat_clause(s, imp, 2);
    assert_int_equal(gg_sat_solve(s, 10), GG_SAT_SAT);
    assert_true(gg_sat_value(s, b));
    int no_b[1] = {-b};
    assert_int_equal(gg_sat_solve_assuming(s, no_b, 1, 10), GG_SAT_UNSAT);
    gg_sat_free(s);
#else
    assert_false(gg_sat_available());
    assert_non_null(strstr(gg_sat_unavailable_why(), "without"));
#endif
}

/* The run's stderr with the dynamic loader's list of the files it opened
 * (LD_DEBUG=files), in buf. */
static void loader_log(const char *args, char *buf, size_t size)
{
    char dir[] = "/tmp/gg_satmod_XXXXXX", cmd[4096];
    assert_non_null(mkdtemp(dir));
    snprintf(cmd, sizeof cmd,
             "cd %s && printf 'x = 3, y = 1, rule = B3/S23\\n3o!\\n' > p.rle"
             " && LD_DEBUG=files '%s' %s 2>err >out; cat err out; "
             "rm -rf %s", dir, getenv("GG_GOLGEN"), args, dir);
    FILE *p = popen(cmd, "r");
    assert_non_null(p);
    size_t n = fread(buf, 1, size - 1, p);
    buf[n] = '\0';
    pclose(p);
}

static char loader_out[1 << 20];

static void test_loaded_only_to_solve(void **state)
{
    (void)state;
#if GG_SAT_PLUGIN
    loader_log("run p.rle --gens 10 -o q.rle", loader_out, sizeof loader_out);
    assert_non_null(strstr(loader_out, "libc.so")); /* the log is there */
    assert_null(strstr(loader_out, GG_SAT_PLUGIN_NAME));
    assert_null(strstr(loader_out, "libcryptominisat5"));
    /* (libstdc++ is not asserted: the sanitizers' runtimes load it) */
    /* --version names the solver: it loads the module to ask */
    loader_log("--version", loader_out, sizeof loader_out);
    assert_non_null(strstr(loader_out, GG_SAT_PLUGIN_NAME));
    assert_non_null(strstr(loader_out, "solver: CryptoMiniSat 5."));
#else
    skip();
#endif
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_solver_there),
        cmocka_unit_test(test_loaded_only_to_solve),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

/* Stopping a run (issue 42 part 3): a stop signal ends `golgen run`
 * within 2 s on every family and host backend, also when one generation
 * takes seconds (a big grid on the reference), and the output is whole: it
 * reads back at the generation the run says it reached. Below that, the
 * steps that give up a generation in flight (runtime/base/stop.h) leave the
 * grid at the last generation they completed, checked against a run of
 * that many generations. */
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <cmocka.h>

#include "config.h"
#include "cpu3d.h"
#include "gen_cells.h"
#include "reference.h"
#include "reference3d.h"
#include "reference_gen.h"
#include "rule.h"
#include "rule3d.h"
#include "test_util.h"
#include "validate_gen.h"

#define STOP_LIMIT 2.0 /* seconds from the signal to the exit */

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static void write_file(const char *name, const char *text)
{
    char path[256];
    snprintf(path, sizeof path, "%s/%s", gg_test_dir, name);
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
}

/* The whole of a small file in the scratch directory ("" when absent). */
static const char *read_file(const char *name)
{
    static char text[16384];
    char path[256];
    snprintf(path, sizeof path, "%s/%s", gg_test_dir, name);
    FILE *f = fopen(path, "r");
    size_t n = f ? fread(text, 1, sizeof text - 1, f) : 0;
    text[n] = 0;
    if (f)
        fclose(f);
    return text;
}

/* `golgen ARGS` (split at spaces) in the scratch directory, stderr to
 * LOG, with env ("NAME=VALUE" or NULL) set; its pid. */
static pid_t start(const char *args, const char *log, const char *env)
{
    pid_t pid = fork();
    assert_true(pid >= 0);
    if (pid)
        return pid;
    char buf[1024], path[256], *argv[32];
    int n = 0;
    snprintf(buf, sizeof buf, "%s", args);
    argv[n++] = getenv("GG_GOLGEN");
    for (char *t = strtok(buf, " "); t && n < 31; t = strtok(NULL, " "))
        argv[n++] = t;
    argv[n] = NULL;
    snprintf(path, sizeof path, "%s/%s", gg_test_dir, log);
    if (chdir(gg_test_dir) || !freopen(path, "w", stderr))
        _exit(99);
    if (env)
        putenv((char *)env);
    /* a stop signal ignored here would stay ignored in golgen (nohup's
     * rule, cli/stop_signals.h): these runs are meant to hear them */
    signal(SIGINT, SIG_DFL);
    signal(SIGTERM, SIG_DFL);
    execv(argv[0], argv);
    _exit(98);
}

/* Waits for pid until limit seconds; its wait status, or -1 when it is
 * still running then (it is killed). */
static int wait_until(pid_t pid, double limit)
{
    double t0 = now();
    int status;
    while (now() - t0 < limit) {
        pid_t got = waitpid(pid, &status, WNOHANG);
        if (got == pid)
            return status;
        usleep(5000);
    }
    kill(pid, SIGKILL);
    waitpid(pid, &status, 0);
    return -1;
}

/* A run signalled once it is in its generations: once its first progress
 * line shows (--progress), or after `wait` seconds when none comes (a
 * run of one long generation shows none). */
typedef struct stop_case {
    const char *args; /* after `run`; writes OUT */
    const char *out;
    const char *env;
    double wait;
    int sig;
} stop_case;

/* Starts c, signals it, checks the stop's latency and exit status, and
 * returns the generations the run says it reached. */
static long long stop_run(const stop_case *c)
{
    char args[768];
    snprintf(args, sizeof args, "run --progress %s -o %s", c->args, c->out);
    char path[256]; /* the last run's log must not look like this one's */
    snprintf(path, sizeof path, "%s/stop.log", gg_test_dir);
    unlink(path);
    pid_t pid = start(args, "stop.log", c->env);
    double t0 = now();
    while (now() - t0 < c->wait && !strstr(read_file("stop.log"),
                                            "generation "))
        usleep(20000);
    double sent = now();
    assert_int_equal(kill(pid, c->sig), 0);
    int status = wait_until(pid, 30.0);
    double latency = now() - sent;
    if (status == -1 || latency > STOP_LIMIT)
        fail_msg("golgen %s: %s %.2f s after the signal (limit %.1f s)",
                 args, status == -1 ? "still running" : "ended", latency,
                 STOP_LIMIT);
    print_message("golgen %s: stopped %.2f s after the signal\n", args,
                  latency);
    const char *log = read_file("stop.log");
    if (!WIFEXITED(status) || WEXITSTATUS(status) != 128 + c->sig)
        fail_msg("golgen %s: status %d, log:\n%s", args, status, log);
    const char *at = strstr(log, "interrupted by ");
    long long reached = -1, total;
    if (!at || !(at = strstr(at, " after ")) ||
        sscanf(at, " after %lld of %lld", &reached, &total) != 2)
        fail_msg("golgen %s: no stop report in\n%s", args, log);
    return reached;
}

/* The output reads back whole at the generation the run reached. */
static void check_output(const char *out, long long reached)
{
    char args[256], want[64];
    snprintf(args, sizeof args, "run --gens 0 %s", out);
    pid_t pid = start(args, "back.log", NULL);
    int status = wait_until(pid, 60.0);
    const char *log = read_file("back.log");
    snprintf(want, sizeof want, "generation %lld,", reached);
    if (status == -1 || !WIFEXITED(status) || WEXITSTATUS(status) ||
        !strstr(log, want))
        fail_msg("%s does not read back at %s:\n%s", out, want, log);
}

static void stop_and_check(const stop_case *c)
{
    check_output(c->out, stop_run(c));
}

/* One generation of a 512^3 torus takes seconds on the reference (a
 * minute under the sanitizers); the stop gives it up: generation 0. */
static void test_3d_reference_one_long_generation(void **state)
{
    (void)state;
    write_file("b.rle3", "3D version=1 size=8 pos=2,2,2\nx=2 y=2 z=2 "
               "rule=3D4..7/5\noo$oo/oo$oo!\n");
    stop_case c = {"--backend reference --gens 1 --rule 3D4..7/5:T512 "
                   "b.rle3", "b_out.rle3", NULL, 1.0, SIGTERM};
    long long reached = stop_run(&c);
    assert_int_equal(reached, 0);
    check_output(c.out, reached);
}

/* Many generations of a fraction of a second each (the first batch was
 * 64 generations, many seconds). */
static void test_3d_reference_many_generations(void **state)
{
    (void)state;
    write_file("m.rle3", "3D version=1 size=8 pos=2,2,2\nx=2 y=2 z=2 "
               "rule=3D4..7/5\noo$oo/oo$oo!\n");
    stop_case c = {"--backend reference --gens 100000 --rule "
                   "3D4..7/5:T160 m.rle3", "m_out.rle3", NULL, 6.0,
                   SIGINT};
    stop_and_check(&c);
}

/* Two-state on the reference: a B0 rule (AntiLife) skips no quiet
 * cells, so each generation of 4096^2 takes about a second. */
static void test_2d_reference(void **state)
{
    (void)state;
    write_file("r.rle", "x = 3, y = 3\nb2o$2o$bo!\n");
    stop_case c = {"--backend reference --gens 100000 --rule "
                   "B0123478/S01234678:T4096,4096 r.rle", "r_out.rle", NULL,
                   6.0, SIGTERM};
    stop_and_check(&c);
}

/* Two-state on the cpu backend, one thread, a 40960^2 torus (200 MB a
 * grid): 20-40 ms a generation here, so the old batches (64, then 128
 * generations) took 3 s or more. */
static void test_2d_cpu(void **state)
{
    (void)state;
    write_file("c.rle", "x = 3, y = 3\nb2o$2o$bo!\n");
    stop_case c = {"--backend cpu --gens 1000000 --rule "
                   "B3/S23:T40960,40960 c.rle", "c_out.rle",
                   "OMP_NUM_THREADS=1", 30.0, SIGTERM};
    stop_and_check(&c);
}

/* Generations on the reference, 6144^2: a few tenths of a second a
 * generation. */
static void test_generations_reference(void **state)
{
    (void)state;
    write_file("g.rle", "x = 3, y = 3, rule = /2/3\nb2o$2o$bo!\n");
    stop_case c = {"--backend reference --gens 100000 --rule "
                   "/2/3:T6144,6144 g.rle", "g_out.rle", NULL, 6.0, SIGTERM};
    stop_and_check(&c);
}

/* ---- the steps themselves ---- */

static volatile sig_atomic_t stop_flag;

static void on_alarm(int sig)
{
    (void)sig;
    stop_flag = 1;
}

/* The flag, set by a real signal after `ms` milliseconds (0: already). */
static gg_stop_flag *stop_after(int ms)
{
    stop_flag = ms == 0;
    signal(SIGALRM, on_alarm);
    struct itimerval it = {.it_value = {.tv_sec = ms / 1000,
                                        .tv_usec = ms % 1000 * 1000}};
    setitimer(ITIMER_REAL, &it, NULL);
    return &stop_flag;
}

/* Two-state: a 1024^2 AntiLife torus (every cell stepped, tens of ms a
 * generation) stopped part way holds the generations it reports. */
static void test_reference_step_gives_up_whole(void **state)
{
    (void)state;
    gg_rule r;
    gg_err err;
    assert_int_equal(gg_rule_parse("B0123478/S01234678:T1024,1024", &r,
                                   &err), 0);
    for (int ms = 0; ms <= 90; ms += 90) {
        gg_grid a, b;
        assert_int_equal(gg_grid_init(&a, 1024, 1024, &err), 0);
        assert_int_equal(gg_grid_init(&b, 1024, 1024, &err), 0);
        gg_grid_random(&a, 0.4, 7);
        gg_grid_random(&b, 0.4, 7);
        int64_t ran = gg_reference_run_until(&r, GG_TOPO_TORUS, &a, 1000,
                                             stop_after(ms), &err);
        assert_true(ran >= 0 && ran < 1000);
        if (ms == 0)
            assert_int_equal(ran, 0);
        assert_int_equal(gg_reference_run(&r, GG_TOPO_TORUS, &b, ran, &err),
                         0);
        assert_true(gg_grid_equal(&a, &b));
        gg_grid_free(&a);
        gg_grid_free(&b);
    }
}

static bool cells_equal(const gg_gen_cells *a, const gg_gen_cells *b)
{
    for (int p = 0; p < a->n_planes; p++)
        if (!gg_grid_equal(&a->plane[p], &b->plane[p]))
            return false;
    return a->n_planes == b->n_planes;
}

/* Generations: the same on a 1024^2 /2/3 torus. */
static void test_reference_gen_step_gives_up_whole(void **state)
{
    (void)state;
    gg_rule r;
    gg_err err;
    assert_int_equal(gg_rule_parse("/2/3:T1024,1024", &r, &err), 0);
    for (int ms = 0; ms <= 60; ms += 60) {
        gg_gen_cells a, b;
        assert_int_equal(gg_gen_cells_init(&a, 2, 1024, 1024, &err), 0);
        assert_int_equal(gg_gen_cells_init(&b, 2, 1024, 1024, &err), 0);
        gg_gen_cells_random(&a, 3, 11);
        gg_gen_cells_random(&b, 3, 11);
        int64_t ran = gg_reference_gen_run_until(&r, GG_TOPO_TORUS, &a, 1000,
                                                 stop_after(ms), &err);
        assert_true(ran >= 0 && ran < 1000);
        assert_int_equal(gg_reference_gen_run(&r, GG_TOPO_TORUS, &b, ran,
                                              &err), 0);
        assert_true(cells_equal(&a, &b));
        gg_gen_cells_free(&a);
        gg_gen_cells_free(&b);
    }
}

/* 3D reference: a 96^3 torus, some tens of ms a generation. */
static void test_reference3d_step_gives_up_whole(void **state)
{
    (void)state;
    gg_rule3d r;
    gg_err err;
    assert_int_equal(gg_rule3d_parse("3D4..7/5", &r, &err), 0);
    for (int ms = 0; ms <= 100; ms += 100) {
        gg_grid3d a, b;
        assert_int_equal(gg_grid3d_init(&a, 96, 96, 96, &err), 0);
        gg_grid3d_random(&a, 0.3, 5);
        assert_int_equal(gg_grid3d_copy(&b, &a, &err), 0);
        int64_t ran = gg_ref3d_run_until(&r, true, &a, 1000, stop_after(ms),
                                         &err);
        assert_true(ran >= 0 && ran < 1000);
        assert_int_equal(gg_ref3d_run(&r, true, &b, ran, &err), 0);
        assert_true(gg_grid3d_equal(&a, &b));
        gg_grid3d_free(&a);
        gg_grid3d_free(&b);
    }
}

/* The cpu kernel's threads read the flag between planes (Moore) or rows
 * (the other neighbourhoods); 256^3 in a box, some ms a generation. */
static void test_cpu3d_step_gives_up_whole(void **state)
{
    (void)state;
    static const char *const rules[] = {"3D4..7/5", "3D1..3/1,3F"};
    gg_config cfg;
    gg_config_defaults(&cfg);
    snprintf(cfg.cache_dir, sizeof cfg.cache_dir, "%s", gg_test_dir);
    for (size_t i = 0; i < sizeof rules / sizeof *rules; i++) {
        gg_rule3d r;
        gg_err err;
        assert_int_equal(gg_rule3d_parse(rules[i], &r, &err), 0);
        gg_cpu3d *k;
        gg_cpu3d_opts o = {.config = &cfg, .threads = 2};
        if (gg_cpu3d_open(&r, &o, &k, NULL, &err))
            fail_msg("%s: %s", rules[i], err.msg);
        for (int ms = 0; ms <= 50; ms += 50) {
            gg_grid3d a, b;
            assert_int_equal(gg_grid3d_init(&a, 256, 256, 256, &err), 0);
            gg_grid3d_random(&a, 0.3, 9 + i);
            assert_int_equal(gg_grid3d_copy(&b, &a, &err), 0);
            int64_t ran = gg_cpu3d_run_until(k, &a, false, 100000,
                                             stop_after(ms), &err);
            assert_true(ran >= 0 && ran < 100000);
            assert_int_equal(gg_cpu3d_run(k, &b, false, ran, &err), 0);
            assert_true(gg_grid3d_equal(&a, &b));
            gg_grid3d_free(&a);
            gg_grid3d_free(&b);
        }
        gg_cpu3d_close(k);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_reference_step_gives_up_whole),
        cmocka_unit_test(test_reference_gen_step_gives_up_whole),
        cmocka_unit_test(test_reference3d_step_gives_up_whole),
        cmocka_unit_test(test_cpu3d_step_gives_up_whole),
        cmocka_unit_test(test_3d_reference_one_long_generation),
        cmocka_unit_test(test_3d_reference_many_generations),
        cmocka_unit_test(test_2d_reference),
        cmocka_unit_test(test_2d_cpu),
        cmocka_unit_test(test_generations_reference),
    };
    return cmocka_run_group_tests(tests, gg_test_setup_dir,
                                  gg_test_teardown_dir);
}

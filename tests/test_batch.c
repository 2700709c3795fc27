/* The batch policy of universe runs (runtime/universes/batch.h), driven by a model
 * of a stepper's time: fixed seconds per call plus seconds per generation.
 * What the calls come to is worked out here from the rule in batch.h. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "batch.h"

/* Runs gens generations against the model; returns the calls made and
 * leaves the largest call's size and seconds in *big, *big_s. */
static int model_run(double fixed, double per_gen, int64_t max_batch,
                     int64_t gens, int64_t *big, double *big_s)
{
    gg_batch b;
    gg_batch_init(&b, max_batch, 0);
    int calls = 0;
    *big = 0;
    *big_s = 0;
    for (int64_t done = 0; done < gens; calls++) {
        int64_t n = gg_batch_take(&b, gens - done);
        double s = fixed + per_gen * (double)n;
        if (n > *big) {
            *big = n;
            *big_s = s;
        }
        gg_batch_done(&b, n, s);
        done += n;
    }
    return calls;
}

/* Compute-bound calls start at one generation (one generation of a big
 * grid on the reference takes seconds) and stop growing once a call takes
 * GG_BATCH_QUICK: 256 generations of 1 ms, 0.256 s, so a stop between
 * calls waits well under a second. */
static void test_compute_bound(void **state)
{
    (void)state;
    gg_batch b;
    gg_batch_init(&b, 0, 0);
    assert_int_equal(gg_batch_take(&b, 100000), 1);
    int64_t big;
    double s;
    model_run(0.0, 1e-3, 0, 100000, &big, &s);
    assert_int_equal(big, 256);
    assert_true(s >= GG_BATCH_QUICK && s < 0.5);
}

/* A call that mostly moves the grid (2.8 s fixed, 0.2 ms a generation:
 * 131072^2 on two H100s) starts at one generation, doubles once to tell
 * the fixed part, grows 8-fold while the fixed part is three quarters of
 * a call (16, 128, 1024, 8192), then doubles until the generations take
 * three quarters of a call (2^k x 0.2 ms >= 3 x 2.8 s: k = 16, 65536
 * generations, 15.9 s) or a call reaches GG_BATCH_LONG: the call before
 * that (32768, 9.35 s) is the last to grow, and the long calls do not
 * halve (their generations are 82% of them, under nine tenths). Doubling
 * from 64 took 13 calls; a rule of calls under a second would have run 64
 * generations a call: 3125 calls. */
static void test_fixed_cost_bound(void **state)
{
    (void)state;
    int64_t big;
    double s;
    int calls = model_run(2.8, 2e-4, 0, 200000, &big, &s);
    assert_int_equal(big, 65536);
    assert_true(s > GG_BATCH_LONG);
    assert_int_equal(calls, 11); /* 1, 2, 16 .. 8192, 16384, 32768 (8
                                    calls, 58515 generations), 65536
                                    twice, the tail */
}

/* Generations of 3 s each (a big 3D grid on the reference): one call of
 * two tells that nothing is fixed, then one generation a call for good. */
static void test_slow_generations(void **state)
{
    (void)state;
    gg_batch b;
    gg_batch_init(&b, 0, 0);
    static const int64_t want[] = {1, 2, 1, 1, 1};
    for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
        int64_t n = gg_batch_take(&b, 1000);
        assert_int_equal(n, want[i]);
        gg_batch_done(&b, n, 3.0 * (double)n);
    }
}

/* Generations that grow slower once the size has settled (a pattern on
 * the unbounded plane spreading): calls halve until they are back under
 * GG_BATCH_SLOW. */
static void test_slowing_generations(void **state)
{
    (void)state;
    gg_batch b;
    gg_batch_init(&b, 0, 0);
    double per_gen = 1e-3;
    for (int i = 0; i < 40; i++) {
        if (i == 20)
            per_gen *= 20; /* 256 a call now take 5 s */
        int64_t n = gg_batch_take(&b, 1 << 30);
        gg_batch_done(&b, n, per_gen * (double)n);
    }
    int64_t n = gg_batch_take(&b, 1 << 30);
    assert_true(per_gen * (double)n <= GG_BATCH_SLOW);
    assert_true(per_gen * (double)n >= GG_BATCH_SLOW / 4);
}

/* Never past the stepper's bound nor under its floor; the tail call
 * changes nothing. */
static void test_bounds(void **state)
{
    (void)state;
    int64_t big;
    double s;
    model_run(2.8, 2e-4, 512, 100000, &big, &s);
    assert_int_equal(big, 512);
    gg_batch b;
    gg_batch_init(&b, 0, 0);
    gg_batch_done(&b, 1, 0.001);  /* a full call: doubles */
    gg_batch_done(&b, 1, 0.001);  /* a tail or a stop, not a full call */
    assert_int_equal(b.size, 2);
    gg_batch_init(&b, 16, 0);
    for (int i = 0; i < 10; i++)
        gg_batch_done(&b, gg_batch_take(&b, 1000), 0.001);
    assert_int_equal(gg_batch_take(&b, 1000), 16);
    gg_batch_init(&b, 0, 512);
    assert_int_equal(gg_batch_take(&b, 1000), 512);
    assert_int_equal(gg_batch_take(&b, 7), 7);
}

/* A stepper whose floor is its bound (MPI ranks' bands: every rank must
 * ask the same) gets that size every call, whatever the calls took. */
static void test_fixed_size(void **state)
{
    (void)state;
    gg_batch b;
    gg_batch_init(&b, 64, 64);
    const double took[] = {0.001, 0.3, 1.5, 3.0, 20.0, 0.001, 2.0, 2.0};
    for (size_t i = 0; i < sizeof took / sizeof took[0]; i++) {
        assert_int_equal(gg_batch_take(&b, 1000), 64);
        gg_batch_done(&b, 64, took[i]);
    }
    assert_int_equal(gg_batch_take(&b, 1000), 64);
    assert_int_equal(gg_batch_take(&b, 10), 10);
}

/* The unbounded plane's cap: the largest power of two within an eighth
 * of the grid's shorter side, 32 at least, the stepper's floor above
 * it. */
static void test_plane_cap(void **state)
{
    (void)state;
    assert_int_equal(gg_plane_batch_cap(300, 300, 0), 32);   /* 37 */
    assert_int_equal(gg_plane_batch_cap(1300, 1300, 0), 128); /* 162 */
    assert_int_equal(gg_plane_batch_cap(4096, 4096, 0), 512);
    assert_int_equal(gg_plane_batch_cap(4100, 100000, 0), 512);
    assert_int_equal(gg_plane_batch_cap(100000, 4095, 0), 256); /* 511 */
    assert_int_equal(gg_plane_batch_cap(1, 1, 0), 32);
    assert_int_equal(gg_plane_batch_cap(300, 300, 1024), 1024);
    /* slack: the margin, an eighth of the box, 16 more */
    assert_int_equal(gg_plane_slack(33, 272), 33 + 34 + 16);
}

/* What a capped run's step was asked: every call within the cap the
 * callback gives at that moment, all generations run. */
typedef struct capped {
    int64_t cap, asked[64];
    int calls;
} capped;

static int64_t capped_step(void *ctx, int64_t n, gg_err *err)
{
    (void)err;
    capped *c = ctx;
    c->asked[c->calls++] = n;
    c->cap = c->calls < 8 ? 16 : 100; /* the box grew */
    return n;
}

static int64_t capped_cap(void *ctx) { return ((capped *)ctx)->cap; }

static void test_capped_run(void **state)
{
    (void)state;
    capped c = {.cap = 16};
    gg_batch b;
    gg_batch_init(&b, 0, 0);
    gg_batch_calls calls = {NULL, capped_step, &c, capped_cap};
    int64_t generation = 5;
    gg_err err;
    assert_int_equal(gg_batch_run(&b, &calls, 1000, &generation, NULL, NULL,
                                  &err),
                     0);
    assert_int_equal(generation, 1005);
    int64_t sum = 0;
    for (int i = 0; i < c.calls; i++) {
        assert_true(c.asked[i] <= (i < 8 ? 16 : 100));
        sum += c.asked[i];
    }
    assert_int_equal(sum, 1000);
    /* quick calls double up to the cap: 1 2 4 8 16 16 16 16, then past it */
    assert_int_equal(c.asked[4], 16);
    assert_int_equal(c.asked[7], 16);
    assert_true(c.asked[8] > 16);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_compute_bound),
        cmocka_unit_test(test_fixed_cost_bound),
        cmocka_unit_test(test_slow_generations),
        cmocka_unit_test(test_slowing_generations),
        cmocka_unit_test(test_bounds),
        cmocka_unit_test(test_fixed_size),
        cmocka_unit_test(test_plane_cap),
        cmocka_unit_test(test_capped_run),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

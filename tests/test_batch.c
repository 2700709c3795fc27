/* The batch policy of universe runs (runtime/batch.h), driven by a model
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

/* Compute-bound calls stop growing once a call takes a second: the first
 * call of 1024 generations takes 1.024 s. */
static void test_compute_bound(void **state)
{
    (void)state;
    int64_t big;
    double s;
    model_run(0.0, 1e-3, 0, 100000, &big, &s);
    assert_int_equal(big, 1024);
    assert_true(s >= 1.0 && s < 2.0);
}

/* A call that mostly moves the grid (2.8 s fixed, 0.2 ms a generation:
 * 131072^2 on two H100s) keeps doubling until the generations take three
 * quarters of a call (64 x 2^k with 2^k x 12.8 ms >= 3 x 2.8 s: k = 10,
 * 65536 generations, 15.9 s) or a call reaches GG_BATCH_LONG: the call
 * before that (32768, 9.35 s) is the last to double. The old rule (double
 * while under a second) ran 64 generations a call: 3125 calls. */
static void test_fixed_cost_bound(void **state)
{
    (void)state;
    int64_t big;
    double s;
    int calls = model_run(2.8, 2e-4, 0, 200000, &big, &s);
    assert_int_equal(big, 65536);
    assert_true(s > GG_BATCH_LONG);
    assert_int_equal(calls, 13); /* 64 .. 32768 (10 calls, 65472
                                    generations), 65536 twice, the tail */
}

/* Never past the stepper's bound; the tail call changes nothing. */
static void test_bounds(void **state)
{
    (void)state;
    int64_t big;
    double s;
    model_run(2.8, 2e-4, 512, 100000, &big, &s);
    assert_int_equal(big, 512);
    gg_batch b;
    gg_batch_init(&b, 0, 0);
    gg_batch_done(&b, 10, 0.001); /* a tail, not a full call */
    assert_int_equal(b.size, 64);
    gg_batch_init(&b, 16, 0);
    assert_int_equal(gg_batch_take(&b, 1000), 16);
    gg_batch_init(&b, 0, 512);
    assert_int_equal(gg_batch_take(&b, 1000), 512);
    assert_int_equal(gg_batch_take(&b, 7), 7);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_compute_bound),
        cmocka_unit_test(test_fixed_cost_bound),
        cmocka_unit_test(test_bounds),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}

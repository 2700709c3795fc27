#include "validate_ltl.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "reference_ltl.h"

static uint64_t xorshift(uint64_t *s)
{
    *s ^= *s << 13;
    *s ^= *s >> 7;
    *s ^= *s << 17;
    return *s;
}

/* A random board: most live cells in state 1 (births need them), a
 * quarter of them in any state where the rule has more than two. */
static void fill(uint8_t *a, const gg_ltl_case *c, int states,
                 uint64_t *seed)
{
    size_t n = (size_t)c->w * (size_t)c->h;
    for (size_t i = 0; i < n; i++) {
        uint64_t r = xorshift(seed);
        int half = c->blob / 2, x = (int)(i % (size_t)c->w),
            y = (int)(i / (size_t)c->w);
        bool in = !c->blob || ((x + half) % c->w < c->blob &&
                               (y + half) % c->h < c->blob);
        a[i] = in && r % 100 < (uint64_t)c->pct
                   ? (states > 2 && (r >> 8) % 4 == 0
                          ? (uint8_t)((r >> 16) % (uint64_t)states)
                          : 1)
                   : 0;
    }
}

static int differ(const gg_ltl_rule *rule, const gg_ltl_case *c,
                  const uint8_t *want, const uint8_t *got, const char *who,
                  gg_err *err)
{
    size_t i = 0;
    while (want[i] == got[i])
        i++;
    char text[1200];
    gg_ltl_format(rule, text, sizeof text);
    return gg_fail(err, "the %s Larger than Life kernel for %s disagrees "
                   "with the reference on a %dx%d %s after %d generations: "
                   "cell (%lld, %lld) is %d, the reference says %d; the "
                   "kernel is not used", who, text, c->w, c->h,
                   c->torus ? "torus" : "plane", c->gens,
                   (long long)(i % (size_t)c->w),
                   (long long)(i / (size_t)c->w), got[i], want[i]);
}

static int check_case(const gg_ltl_rule *rule, gg_ltl_ref *ref,
                      const gg_ltl_case *c, uint64_t *seed,
                      gg_ltl_step_fn step, void *ctx, const char *who,
                      gg_err *err)
{
    size_t n = (size_t)c->w * (size_t)c->h;
    uint8_t *a = malloc(n), *b = malloc(n), *k = malloc(n);
    int bad = !a || !b || !k;
    if (bad)
        gg_fail(err, "out of memory validating a Larger than Life kernel");
    if (!bad) {
        fill(a, c, rule->states, seed);
        memcpy(k, a, n);
        bad = step(ctx, k, c->w, c->h, c->torus, c->gens, err) != 0;
    }
    for (int g = 0; !bad && g < c->gens; g++) {
        bad = gg_ltl_ref_step(ref, a, b, c->w, c->h, c->torus, NULL,
                              err) != 0;
        uint8_t *t = a;
        a = b;
        b = t;
    }
    if (!bad && memcmp(a, k, n))
        bad = differ(rule, c, a, k, who, err);
    free(a);
    free(b);
    free(k);
    return bad ? -1 : 0;
}

int gg_validate_ltl(const gg_ltl_rule *rule, const gg_ltl_case *cases,
                    size_t n_cases, uint64_t seed, gg_ltl_step_fn step,
                    void *ctx, const char *who, gg_err *err)
{
    gg_ltl_ref ref;
    if (gg_ltl_ref_init(&ref, rule, err))
        return -1;
    int bad = 0;
    for (size_t i = 0; !bad && i < n_cases; i++)
        bad = check_case(rule, &ref, &cases[i], &seed, step, ctx, who, err);
    gg_ltl_ref_free(&ref);
    return bad;
}

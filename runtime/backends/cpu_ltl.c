#include "cpu_ltl.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cpu_backend.h"
#include "emit_ltl.h"
#include "jit.h"
#include "reference_ltl.h"

/* The kernel's entry (templates/cltl/kernel.c.in, ABI 1). */
typedef int (*ltl_run_fn)(uint8_t *cells, int64_t width, int64_t height,
                          int torus, int64_t gens, int threads);

struct gg_cpu_ltl {
    gg_ltl_rule rule;
    gg_cpu_ltl_opts opts;
    gg_jit_lib lib;
    ltl_run_fn run;
    const char *(*isa)(void);
    int (*threads_for)(int64_t w, int64_t h, int threads);
    int64_t last_w, last_h; /* the grid last stepped (threads said) */
};

/* Raise the version when validation grows: old stamps then no longer
 * count. The kernel's file is keyed by its source, which names the rule. */
#define LTL_TAG "validated ltl v2"

static int load_symbols(gg_cpu_ltl *k, gg_err *err)
{
    int (*abi)(void) = (int (*)(void))gg_jit_sym(&k->lib, "gg_ltl_abi", err);
    if (!abi)
        return -1;
    if (abi() != 1)
        return gg_fail(err, "Larger than Life kernel %s has ABI %d, "
                       "expected 1", k->lib.path, abi());
    const char *(*rule)(void) =
        (const char *(*)(void))gg_jit_sym(&k->lib, "gg_ltl_rule", err);
    if (!rule)
        return -1;
    gg_ltl_rule bare = k->rule;
    bare.topo = GG_TOPO_UNBOUNDED;
    char text[1200];
    gg_ltl_format(&bare, text, sizeof text);
    if (strcmp(rule(), text))
        return gg_fail(err, "Larger than Life kernel %s is for %s, not %s",
                       k->lib.path, rule(), text);
    k->run = (ltl_run_fn)gg_jit_sym(&k->lib, "gg_ltl_run", err);
    k->isa = (const char *(*)(void))gg_jit_sym(&k->lib, "gg_ltl_isa", err);
    k->threads_for = (int (*)(int64_t, int64_t, int))gg_jit_sym(
        &k->lib, "gg_ltl_threads_for", err);
    return k->run && k->isa && k->threads_for ? 0 : -1;
}

static uint64_t xorshift(uint64_t *s)
{
    *s ^= *s << 13;
    *s ^= *s >> 7;
    *s ^= *s << 17;
    return *s;
}

/* One case: a random w x h grid (a cell non-0 with probability pct%)
 * stepped gens generations by the kernel and by the reference. */
static int check_case(gg_cpu_ltl *k, gg_ltl_ref *ref, int64_t w, int64_t h,
                      bool torus, int gens, int pct, uint64_t *seed,
                      gg_err *err)
{
    size_t n = (size_t)(w * h);
    uint8_t *a = malloc(n), *b = malloc(n), *c = malloc(n);
    int bad = !a || !b || !c;
    if (bad)
        gg_fail(err, "out of memory validating a Larger than Life kernel");
    for (size_t i = 0; !bad && i < n; i++) {
        uint64_t r = xorshift(seed);
        a[i] = r % 100 < (uint64_t)pct
                   ? (k->rule.states > 2 && (r >> 8) % 4 == 0
                          ? (uint8_t)((r >> 16) % (uint64_t)k->rule.states)
                          : 1)
                   : 0;
    }
    if (!bad) {
        memcpy(c, a, n);
        /* as many threads as a big grid gets, not the one a small grid
         * does: the bands and their barriers are checked too */
        int th = k->opts.threads ? k->opts.threads
                                 : k->threads_for(1 << 16, 1 << 16, 0);
        bad = k->run(c, w, h, torus, gens, th) != 0;
        if (bad)
            gg_fail(err, "the Larger than Life kernel ran out of memory");
    }
    for (int g = 0; !bad && g < gens; g++) {
        bad = gg_ltl_ref_step(ref, a, b, w, h, torus, NULL, err) != 0;
        uint8_t *t = a;
        a = b;
        b = t;
    }
    if (!bad && memcmp(a, c, n)) {
        size_t i = 0;
        while (a[i] == c[i])
            i++;
        char text[1200];
        gg_ltl_format(&k->rule, text, sizeof text);
        bad = 1;
        gg_fail(err, "the cpu Larger than Life kernel for %s disagrees with "
                "the reference on a %lldx%lld %s after %d generations: cell "
                "(%lld, %lld) is %d, the reference says %d; the kernel is "
                "not used", text, (long long)w, (long long)h,
                torus ? "torus" : "plane", gens, (long long)(i % (size_t)w),
                (long long)(i / (size_t)w), c[i], a[i]);
    }
    free(a);
    free(b);
    free(c);
    return bad ? -1 : 0;
}

/* Grids small and large (past one 512-row superstrip, sides not multiples
 * of 64, sides below 2R that wrap more than once), both topologies, odd
 * and even generation counts, dense and sparse. */
static int validate(gg_cpu_ltl *k, gg_err *err)
{
    static const struct {
        int w, h, torus, gens, pct;
    } cases[] = {
        {37, 23, 1, 3, 50},   {23, 37, 0, 2, 40},   {130, 67, 1, 2, 30},
        {67, 130, 0, 3, 50},  {600, 530, 1, 1, 45}, {530, 600, 0, 2, 20},
        {64, 64, 1, 2, 60},   {1, 9, 1, 1, 50},
    };
    gg_ltl_ref ref;
    if (gg_ltl_ref_init(&ref, &k->rule, err))
        return -1;
    uint64_t seed = 0x1f2e3d4c5b6a7988ull;
    int bad = 0;
    for (size_t i = 0; !bad && i < sizeof cases / sizeof *cases; i++)
        bad = check_case(k, &ref, cases[i].w, cases[i].h, cases[i].torus,
                         cases[i].gens, cases[i].pct, &seed, err);
    gg_ltl_ref_free(&ref);
    return bad;
}

int gg_cpu_ltl_open_source(const gg_ltl_rule *rule, const char *src,
                           size_t len, const gg_cpu_ltl_opts *o,
                           gg_cpu_ltl **out, gg_fail_kind *why, gg_err *err)
{
    static const gg_cpu_ltl_opts defaults;
    gg_jit_opts jo;
    *out = NULL;
    *why = GG_FAIL_INPUT;
    o = o ? o : &defaults;
    if (gg_cpu_jit_opts(o->isa, o->config, o->cache_dir, &jo, err))
        return -1;
    gg_cpu_ltl *k = gg_alloc(1, sizeof *k, err, "Larger than Life kernel");
    if (!k)
        return -1;
    k->rule = *rule;
    k->opts = *o;
    *why = GG_FAIL_ENV;
    if (gg_jit_load(src, len, &jo, &k->lib, err)) {
        gg_cpu_ltl_close(k);
        return -1;
    }
    *why = GG_FAIL_INVALID;
    if (load_symbols(k, err)) {
        gg_cpu_ltl_close(k);
        return -1;
    }
    if (!gg_jit_stamped(&k->lib, LTL_TAG)) {
        if (validate(k, err)) {
            gg_cpu_ltl_close(k);
            return -1;
        }
        gg_jit_stamp(&k->lib, LTL_TAG);
    }
    *out = k;
    return 0;
}

int gg_cpu_ltl_open(const gg_ltl_rule *rule, const gg_cpu_ltl_opts *o,
                    gg_cpu_ltl **out, gg_fail_kind *why, gg_err *err)
{
    char *src;
    size_t len;
    *out = NULL;
    *why = GG_FAIL_INPUT;
    if (gg_ltl_emit_c(rule, &src, &len, err))
        return -1;
    int bad = gg_cpu_ltl_open_source(rule, src, len, o, out, why, err);
    free(src);
    return bad;
}

int gg_cpu_ltl_step(gg_cpu_ltl *k, uint8_t *cells, int64_t w, int64_t h,
                    bool torus, int64_t gens, gg_err *err)
{
    k->last_w = w;
    k->last_h = h;
    if (k->run(cells, w, h, torus, gens, k->opts.threads))
        return gg_fail(err, "the Larger than Life kernel ran out of memory "
                       "for a %lldx%lld grid", (long long)w, (long long)h);
    return 0;
}

const char *gg_cpu_ltl_isa(const gg_cpu_ltl *k) { return k->isa(); }

int gg_cpu_ltl_threads(const gg_cpu_ltl *k)
{
    return k->threads_for(k->last_w ? k->last_w : 1 << 16,
                          k->last_h ? k->last_h : 1 << 16, k->opts.threads);
}

bool gg_cpu_ltl_cache_hit(const gg_cpu_ltl *k) { return k->lib.cache_hit; }

void gg_cpu_ltl_close(gg_cpu_ltl *k)
{
    if (!k)
        return;
    gg_jit_close(&k->lib);
    free(k);
}

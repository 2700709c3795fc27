#include "cpu_ltl.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "build_info.h"
#include "cpu_backend.h"
#include "emit_ltl.h"
#include "jit.h"
#include "reference_ltl.h"
#include "validate_ltl.h"

/* The kernel's entry (templates/cltl/kernel.c.in, ABI 1): how 0 its
 * own choice, 1 the whole board, 2 a plane's live box where it can. */
typedef int (*ltl_run_fn)(uint8_t *cells, int64_t width, int64_t height,
                          int torus, int64_t gens, int threads, int how);

struct gg_cpu_ltl {
    gg_ltl_rule rule;
    gg_cpu_ltl_opts opts;
    gg_jit_lib lib;
    ltl_run_fn run;
    const char *(*isa)(void);
    int (*threads_for)(int64_t w, int64_t h, int threads);
    int64_t last_w, last_h; /* the grid last stepped (threads said) */
    int how;                /* the way validation steps */
};

/* Raise the version when validation grows: old stamps then no longer
 * count. The kernel's file is keyed by its source, which names the rule. */
#define LTL_TAG "validated ltl v3"

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
    k->run = (ltl_run_fn)gg_jit_sym(&k->lib, "gg_ltl_run_as", err);
    k->isa = (const char *(*)(void))gg_jit_sym(&k->lib, "gg_ltl_isa", err);
    k->threads_for = (int (*)(int64_t, int64_t, int))gg_jit_sym(
        &k->lib, "gg_ltl_threads_for", err);
    return k->run && k->isa && k->threads_for ? 0 : -1;
}

/* The kernel's step for validation, with as many threads as a big grid
 * gets, not the one a small grid does: the bands and their barriers are
 * checked too. */
static int validation_step(void *ctx, uint8_t *cells, int64_t w, int64_t h,
                           bool torus, int gens, gg_err *err)
{
    gg_cpu_ltl *k = ctx;
    int th = k->opts.threads ? k->opts.threads
                             : k->threads_for(1 << 16, 1 << 16, 0);
    if (k->run(cells, w, h, torus, gens, th, k->how) == 0)
        return 0;
    return gg_fail(err, "the Larger than Life kernel ran out of memory");
}

/* Grids small and large (past one 512-row superstrip, sides not multiples
 * of 64, sides below 2R that wrap more than once), both topologies, odd
 * and even generation counts, dense and sparse; stepped as the kernel
 * chooses, then planes again by their live box alone (the way a small
 * pattern runs, whichever the choice: both must hold). */
static int validate(gg_cpu_ltl *k, gg_err *err)
{
    static const gg_ltl_case cases[] = {
        {37, 23, 1, 3, 50, 0},    {23, 37, 0, 2, 40, 0},
        {130, 67, 1, 2, 30, 0},   {67, 130, 0, 3, 50, 0},
        {600, 530, 1, 1, 45, 0},  {530, 600, 0, 2, 20, 0},
        {64, 64, 1, 2, 60, 0},    {1, 9, 1, 1, 50, 0},
        {300, 200, 0, 9, 1, 0},   {300, 200, 0, 7, 40, 60},
        {200, 150, 1, 9, 40, 40}, {530, 90, 1, 30, 50, 12},
    };
    size_t n = sizeof cases / sizeof *cases;
    k->how = 0;
    int bad = gg_validate_ltl(&k->rule, cases, n, 0x1f2e3d4c5b6a7988ull,
                              validation_step, k, "cpu", err);
    k->how = 2;
    bad = bad || gg_validate_ltl(&k->rule, cases, n, 0x5b6a79881f2e3d4cull,
                                 validation_step, k, "cpu", err);
    k->how = 0;
    return bad;
}

/* The emitter behind a keyed load: fails as bad input (a neighbourhood
 * it lacks), not as the environment. */
typedef struct {
    const gg_ltl_rule *rule;
    bool failed;
} ltl_emit;

static int emit_ltl(void *ctx, char **src, size_t *len, gg_err *err)
{
    ltl_emit *e = ctx;
    e->failed = gg_ltl_emit_c(e->rule, src, len, err) != 0;
    return e->failed ? -1 : 0;
}

/* The kernel of src (len bytes), or with e the one remembered under key
 * (e emits its source on a miss), loaded, checked and validated. */
static int open_with(const gg_ltl_rule *rule, const char *src, size_t len,
                     const char *key, ltl_emit *e, const gg_cpu_ltl_opts *o,
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
    if (key ? gg_jit_load_keyed(key, emit_ltl, e, &jo, &k->lib, err)
            : gg_jit_load(src, len, &jo, &k->lib, err)) {
        if (e && e->failed)
            *why = GG_FAIL_INPUT;
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

int gg_cpu_ltl_open_source(const gg_ltl_rule *rule, const char *src,
                           size_t len, const gg_cpu_ltl_opts *o,
                           gg_cpu_ltl **out, gg_fail_kind *why, gg_err *err)
{
    return open_with(rule, src, len, NULL, NULL, o, out, why, err);
}

/* What the kernel's source is made from: this build (its emitter and
 * template) and the rule without its grid (the kernel takes any); false
 * when the build has no id (the source is then emitted every time). */
static bool ltl_key(const gg_ltl_rule *rule, char *key, size_t size)
{
    char id[96], text[1200];
    if (!gg_build_id(id, sizeof id))
        return false;
    gg_ltl_rule bare = *rule;
    bare.topo = GG_TOPO_UNBOUNDED;
    gg_ltl_format(&bare, text, sizeof text);
    snprintf(key, size, "ltl %s|%s", id, text);
    return true;
}

/* Opened by the rule's key where the build has one: a cached kernel
 * then loads without its source emitted and hashed (46 kB, 1-2% of a
 * small pattern's whole run). */
int gg_cpu_ltl_open(const gg_ltl_rule *rule, const gg_cpu_ltl_opts *o,
                    gg_cpu_ltl **out, gg_fail_kind *why, gg_err *err)
{
    char key[1400];
    ltl_emit e = {rule, false};
    if (ltl_key(rule, key, sizeof key))
        return open_with(rule, NULL, 0, key, &e, o, out, why, err);
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
    if (k->run(cells, w, h, torus, gens, k->opts.threads, 0))
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

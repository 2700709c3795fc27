#include "cpu_table.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cpu_backend.h"
#include "jit.h"
#include "rule_gen.h"
#include "build_info.h"
#include "rulefile_emit.h"
#include "validate_table.h"

/* The kernel's step (templates/ctable/kernel.c.in, table ABI 1). */
typedef int (*table_step_fn)(uint64_t *const *a, uint64_t *const *b,
                             int64_t width, int64_t height, int64_t stride,
                             int torus, int64_t gens, int threads);

struct gg_cpu_table {
    const gg_rulefile *rf;
    gg_cpu_table_opts opts;
    gg_jit_lib lib;
    table_step_fn step;
    void (*eval)(const uint64_t *x, uint64_t *o); /* on 64 cells */
    const char *(*isa)(void);
    int (*threads)(void);
    gg_gen_cells tmp; /* the second buffer, kept between steps */
};

/* Raise the version when validation grows: old stamps then no longer
 * count. The kernel's file is keyed by its source, which holds the whole
 * graph, so the tag need not name the rule. */
#define TABLE_TAG "validated table v1"

static int load_symbols(gg_cpu_table *k, gg_err *err)
{
    int (*abi)(void) = (int (*)(void))gg_jit_sym(&k->lib, "gg_table_abi",
                                                 err);
    if (!abi)
        return -1;
    if (abi() != 1)
        return gg_fail(err, "table kernel %s has ABI %d, expected 1",
                       k->lib.path, abi());
    int (*planes)(void) =
        (int (*)(void))gg_jit_sym(&k->lib, "gg_table_planes", err);
    int (*inputs)(void) =
        (int (*)(void))gg_jit_sym(&k->lib, "gg_table_inputs", err);
    if (!planes || !inputs)
        return -1;
    if (planes() != gg_gen_planes(k->rf->n_states) ||
        inputs() != k->rf->n_inputs)
        return gg_fail(err, "table kernel %s has %d planes and %d inputs, "
                       "the rule %d and %d", k->lib.path, planes(),
                       inputs(), gg_gen_planes(k->rf->n_states),
                       k->rf->n_inputs);
    k->step = (table_step_fn)gg_jit_sym(&k->lib, "gg_table_step", err);
    k->eval = (void (*)(const uint64_t *, uint64_t *))gg_jit_sym(
        &k->lib, "gg_table_eval64", err);
    k->isa = (const char *(*)(void))gg_jit_sym(&k->lib, "gg_table_isa", err);
    k->threads = (int (*)(void))gg_jit_sym(&k->lib, "gg_table_threads", err);
    return k->step && k->eval && k->isa && k->threads ? 0 : -1;
}

/* Validation's eval: the kernel's eval64 on each word. */
static int eval_words(void *ctx, const uint64_t *x, uint64_t *o, int64_t n,
                      gg_err *err)
{
    gg_cpu_table *k = ctx;
    int np = gg_gen_planes(k->rf->n_states), ni = k->rf->n_inputs;
    (void)err;
    for (int64_t w = 0; w < n; w++)
        k->eval(x + w * ni * np, o + w * np);
    return 0;
}

typedef struct table_emit {
    const gg_rulefile *rf;
    const char *name;
    int64_t max_terms;
    bool emit_failed; /* too large to compile: an input problem */
} table_emit;

static int emit_table(void *ctx, char **src, size_t *len, gg_err *err)
{
    table_emit *t = ctx;
    int bad = gg_rulefile_emit_c(t->rf, t->name, t->max_terms, src, len,
                                 NULL, err);
    t->emit_failed = bad != 0;
    return bad;
}

/* The kernel of src (len bytes), or with t the one remembered under key
 * (t emits its source on a miss), loaded, checked and validated. */
static int open_with(const gg_rulefile *rf, const char *src, size_t len,
                     const char *key, table_emit *t,
                     const gg_cpu_table_opts *o, gg_cpu_table **out,
                     gg_fail_kind *why, gg_err *err)
{
    static const gg_cpu_table_opts defaults;
    gg_jit_opts jo;
    *out = NULL;
    *why = GG_FAIL_INPUT;
    o = o ? o : &defaults;
    if (gg_cpu_jit_opts(o->isa, o->config, o->cache_dir, &jo, err))
        return -1;
    gg_cpu_table *k = gg_alloc(1, sizeof *k, err, "table kernel");
    if (!k)
        return -1;
    k->rf = rf;
    k->opts = *o;
    *why = GG_FAIL_ENV;
    if (key ? gg_jit_load_keyed(key, emit_table, t, &jo, &k->lib, err)
            : gg_jit_load(src, len, &jo, &k->lib, err)) {
        if (t && t->emit_failed)
            *why = GG_FAIL_INPUT;
        gg_cpu_table_close(k);
        return -1;
    }
    *why = GG_FAIL_INVALID;
    if (load_symbols(k, err)) {
        gg_cpu_table_close(k);
        return -1;
    }
    if (!gg_jit_stamped(&k->lib, TABLE_TAG)) {
        if (gg_validate_table(rf, eval_words, gg_cpu_table_step_cb, k,
                              "the cpu table kernel", 0x7ab1e, err)) {
            gg_cpu_table_close(k);
            return -1;
        }
        gg_jit_stamp(&k->lib, TABLE_TAG);
    }
    *out = k;
    return 0;
}

int gg_cpu_table_open_source(const gg_rulefile *rf, const char *src,
                             size_t len, const gg_cpu_table_opts *o,
                             gg_cpu_table **out, gg_fail_kind *why,
                             gg_err *err)
{
    return open_with(rf, src, len, NULL, NULL, o, out, why, err);
}

/* What the kernel's source is made from: this build (its emitter and
 * template), the rule's graph and name, the term limit; false when the
 * build has no id (then the source is emitted every time). */
static bool table_key(const gg_rulefile *rf, const char *name,
                      int64_t max_terms, char *key, size_t size)
{
    char id[96];
    if (!gg_build_id(id, sizeof id))
        return false;
    uint64_t h = 0xcbf29ce484222325ull;
    for (int64_t i = 0; i < rf->n_nodes * rf->n_states && rf->flat; i++)
        h = (h ^ rf->flat[i]) * 0x100000001b3ull;
    snprintf(key, size, "table %s|%.128s|%d %d %lld %u %lld|%016llx", id,
             name, rf->n_states, rf->n_inputs, (long long)rf->n_nodes,
             rf->root, (long long)max_terms, (unsigned long long)h);
    return true;
}

int gg_cpu_table_open(const gg_rulefile *rf, const char *name,
                      const gg_cpu_table_opts *o, gg_cpu_table **out,
                      gg_fail_kind *why, gg_err *err)
{
    static const gg_cpu_table_opts defaults;
    char key[512];
    *out = NULL;
    o = o ? o : &defaults;
    table_emit t = {rf, name, o->max_terms, false};
    if (!table_key(rf, name, o->max_terms, key, sizeof key)) {
        char *src;
        size_t len;
        *why = GG_FAIL_INPUT; /* too large to compile */
        if (emit_table(&t, &src, &len, err))
            return -1;
        int bad = gg_cpu_table_open_source(rf, src, len, o, out, why, err);
        free(src);
        return bad;
    }
    return open_with(rf, NULL, 0, key, &t, o, out, why, err);
}

static void close_kernel(void *ctx) { gg_cpu_table_close(ctx); }

int gg_cpu_table_open_kernel(const gg_rulefile *rf, const char *name,
                             const gg_backend_opts *o, gg_table_kernel *k,
                             gg_fail_kind *why, gg_err *err)
{
    gg_cpu_table_opts co = {.config = o->config, .threads = o->threads,
                            .isa = o->isa};
    gg_cpu_table *c;
    if (gg_cpu_table_open(rf, name, &co, &c, why, err))
        return -1;
    int n = gg_cpu_table_threads(c);
    snprintf(k->what, sizeof k->what, "cpu %s, %d thread%s%s",
             gg_cpu_table_isa(c), n, n == 1 ? "" : "s",
             gg_cpu_table_cache_hit(c) ? ", cached kernel" : "");
    k->ctx = c;
    k->step = gg_cpu_table_step_cb;
    k->close = close_kernel;
    return 0;
}

int gg_cpu_table_step(gg_cpu_table *k, gg_topo topo, gg_gen_cells *cells,
                      int64_t gens, gg_err *err)
{
    int np = gg_gen_planes(k->rf->n_states);
    if (gens <= 0)
        return 0;
    if (cells->n_planes != np)
        return gg_fail(err, "the table kernel has %d state planes, the "
                       "cells %d", np, cells->n_planes);
    int64_t w = gg_gen_cells_width(cells), h = gg_gen_cells_height(cells);
    if (k->tmp.n_planes != np || gg_gen_cells_width(&k->tmp) != w ||
        gg_gen_cells_height(&k->tmp) != h) {
        if (k->tmp.n_planes)
            gg_gen_cells_free(&k->tmp);
        if (gg_gen_cells_init(&k->tmp, np, w, h, err)) {
            memset(&k->tmp, 0, sizeof k->tmp);
            return -1;
        }
    }
    uint64_t *a[GG_GEN_CELLS_MAX_PLANES], *b[GG_GEN_CELLS_MAX_PLANES];
    for (int p = 0; p < np; p++) {
        a[p] = cells->plane[p].bits;
        b[p] = k->tmp.plane[p].bits;
    }
    int where = k->step(a, b, w, h, cells->plane[0].stride,
                        topo == GG_TOPO_TORUS, gens, k->opts.threads);
    if (where < 0)
        return gg_fail(err, "the table kernel ran out of memory");
    if (where == 1) /* both from gg_grid_init: swap them */
        for (int p = 0; p < np; p++) {
            cells->plane[p].bits = b[p];
            k->tmp.plane[p].bits = a[p];
        }
    return 0;
}

int gg_cpu_table_step_cb(void *ctx, gg_topo topo, gg_gen_cells *cells,
                         int64_t gens, gg_err *err)
{
    return gg_cpu_table_step(ctx, topo, cells, gens, err);
}

const char *gg_cpu_table_isa(const gg_cpu_table *k) { return k->isa(); }

int gg_cpu_table_threads(const gg_cpu_table *k)
{
    int n = k->threads();
    return k->opts.threads > 0 && k->opts.threads < n ? k->opts.threads : n;
}

bool gg_cpu_table_cache_hit(const gg_cpu_table *k)
{
    return k->lib.cache_hit;
}

void gg_cpu_table_close(gg_cpu_table *k)
{
    if (!k)
        return;
    if (k->tmp.n_planes)
        gg_gen_cells_free(&k->tmp);
    gg_jit_close(&k->lib);
    free(k);
}

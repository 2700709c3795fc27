#include "rulefile_emit.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "emit_net.h"
#include "rule_gen.h"

#define GG_RF_MAX_INPUTS_EMIT 9

/* The DAG's nodes level by level: node k (offset k * n_states in flat)
 * is at level[k]; order lists the nodes of each level from level 0 (the
 * root) down, first level i node at order[start[i]]. */
typedef struct rf_levels {
    int64_t n;
    int *level;
    int64_t *order;
    int64_t start[GG_RF_MAX_INPUTS_EMIT + 1];
} rf_levels;

static void levels_free(rf_levels *l)
{
    free(l->level);
    free(l->order);
}

static int levels_build(const gg_rulefile *rf, rf_levels *l, gg_err *err)
{
    int64_t ns = rf->n_states;
    memset(l, 0, sizeof *l);
    l->n = rf->n_nodes;
    if (rf->n_inputs < 2 || rf->n_inputs > GG_RF_MAX_INPUTS_EMIT ||
        rf->root % ns || (int64_t)rf->root / ns >= l->n)
        return gg_fail(err, "the rule's decision graph is malformed");
    l->level = malloc((size_t)l->n * sizeof *l->level);
    l->order = malloc((size_t)l->n * sizeof *l->order);
    if (!l->level || !l->order) {
        levels_free(l);
        return gg_fail(err, "out of memory for the rule's graph");
    }
    for (int64_t k = 0; k < l->n; k++)
        l->level[k] = -1;
    int64_t top = 0;
    l->order[top++] = rf->root / ns;
    l->level[rf->root / ns] = 0;
    for (int i = 0; i < rf->n_inputs - 1; i++) {
        l->start[i] = i ? l->start[i] : 0;
        int64_t end = top;
        l->start[i + 1] = end;
        for (int64_t j = l->start[i]; j < end; j++) {
            const uint32_t *e = rf->flat + l->order[j] * ns;
            for (int64_t s = 0; s < ns; s++) {
                int64_t c = e[s] / ns;
                if (e[s] % ns || c >= l->n ||
                    (l->level[c] >= 0 && l->level[c] != i + 1)) {
                    levels_free(l);
                    return gg_fail(err, "the rule's decision graph is not "
                                   "levelled (a node at two depths)");
                }
                if (l->level[c] < 0) {
                    l->level[c] = i + 1;
                    l->order[top++] = c;
                }
            }
        }
    }
    l->start[rf->n_inputs] = top;
    for (int64_t j = l->start[rf->n_inputs - 1]; j < top; j++)
        for (int64_t s = 0; s < ns; s++)
            if (rf->flat[l->order[j] * ns + s] >= (uint32_t)ns) {
                levels_free(l);
                return gg_fail(err, "the rule's decision graph has a next "
                               "state past its %d states", rf->n_states);
            }
    return 0;
}

typedef struct rf_emit {
    const gg_rulefile *rf;
    int np;
    bool *used; /* n_inputs * n_states: e<i>_<s> is read */
    gg_sbuf body;
    int64_t terms, max_terms;
} rf_emit;

/* The cells whose input i is in the set (set[s] for s < n_states) into
 * b: 0 when none (nothing appended), 1 when all (nothing appended),
 * 2 with an expression appended. States past the rule's never occur:
 * a plane's bit, its complement or the complement of the other states'
 * equalities serve wherever they agree on the rule's states. */
static int indicator(rf_emit *e, gg_sbuf *b, int i, const bool *set)
{
    int ns = e->rf->n_states, n_in = 0;
    for (int s = 0; s < ns; s++)
        n_in += set[s];
    if (n_in == 0)
        return 0;
    if (n_in == ns)
        return 1;
    for (int q = 0; q < e->np; q++) {
        bool same = true, comp = true;
        for (int s = 0; s < ns; s++) {
            bool bit = (s >> q) & 1;
            same = same && set[s] == bit;
            comp = comp && set[s] != bit;
        }
        if (same || comp) {
            gg_sbuf_printf(b, "%sx[%d]", comp ? "~" : "", i * e->np + q);
            return 2;
        }
    }
    bool want = n_in * 2 <= ns; /* list the smaller side */
    gg_sbuf_printf(b, "%s(", want ? "" : "~");
    const char *sep = "";
    for (int s = 0; s < ns; s++)
        if (set[s] == want) {
            gg_sbuf_printf(b, "%se%d_%d", sep, i, s);
            e->used[i * ns + s] = true;
            sep = " | ";
        }
    gg_sbuf_printf(b, ")");
    return 2;
}

/* One term: `<dst> |= <mask> & <cells whose input i is in set>`. */
static int term(rf_emit *e, const char *dst, const char *mask, int i,
                const bool *set, gg_err *err)
{
    gg_sbuf t = {0};
    int kind = indicator(e, &t, i, set);
    if (kind == 0) {
        gg_sbuf_free(&t);
        return 0;
    }
    if (++e->terms > e->max_terms) {
        gg_sbuf_free(&t);
        return -1;
    }
    gg_sbuf_printf(&e->body, "    %s |= ", dst);
    if (kind == 1)
        gg_sbuf_printf(&e->body, "%s;\n", mask ? mask : "ones");
    else if (!mask)
        gg_sbuf_printf(&e->body, "%.*s;\n", (int)t.len, t.p);
    else
        gg_sbuf_printf(&e->body, "%s & %.*s;\n", mask, (int)t.len, t.p);
    gg_sbuf_free(&t);
    (void)err;
    return 0;
}

/* Every level's terms into e->body. */
static int emit_body(rf_emit *e, const rf_levels *l, gg_err *err)
{
    const gg_rulefile *rf = e->rf;
    int ns = rf->n_states, last = rf->n_inputs - 1;
    bool set[256];
    char dst[32], mask[32];
    for (int i = 0; i < last; i++) {
        gg_sbuf_printf(&e->body, "    /* input %d */\n", rf->reads[i]);
        for (int64_t j = l->start[i + 1]; j < l->start[i + 2]; j++)
            gg_sbuf_printf(&e->body, "    V m%lld = GG_V0;\n",
                           (long long)l->order[j]);
        for (int64_t j = l->start[i]; j < l->start[i + 1]; j++) {
            int64_t k = l->order[j];
            const uint32_t *en = rf->flat + k * ns;
            snprintf(mask, sizeof mask, "m%lld", (long long)k);
            /* most nodes see no cell of a vector: skip their terms */
            if (i)
                gg_sbuf_printf(&e->body, "    if (GG_REACHED(%s)) {\n",
                               mask);
            for (int s = 0; s < ns; s++) {
                bool first = true;
                for (int r = 0; r < s && first; r++)
                    first = en[r] != en[s];
                if (!first)
                    continue;
                for (int r = 0; r < ns; r++)
                    set[r] = en[r] == en[s];
                snprintf(dst, sizeof dst, "m%lld", (long long)(en[s] / ns));
                if (term(e, dst, i ? mask : NULL, rf->reads[i], set, err))
                    return -1;
            }
            if (i)
                gg_sbuf_printf(&e->body, "    }\n");
        }
    }
    gg_sbuf_printf(&e->body, "    /* input %d: the next state */\n",
                   rf->reads[last]);
    for (int64_t j = l->start[last]; j < l->start[last + 1]; j++) {
        int64_t k = l->order[j];
        const uint32_t *en = rf->flat + k * ns;
        snprintf(mask, sizeof mask, "m%lld", (long long)k);
        gg_sbuf_printf(&e->body, "    if (GG_REACHED(%s)) {\n", mask);
        for (int p = 0; p < e->np; p++) {
            for (int s = 0; s < ns; s++)
                set[s] = (en[s] >> p) & 1;
            snprintf(dst, sizeof dst, "o%d", p);
            if (term(e, dst, last ? mask : NULL, rf->reads[last], set,
                     err))
                return -1;
        }
        gg_sbuf_printf(&e->body, "    }\n");
    }
    return 0;
}

/* The eval function: equalities used, then the body. Target-neutral: the
 * template defines V (a word of cells), GG_V0 (no cells), GG_FN (the
 * function's qualifiers) and GG_REACHED (whether a node's mask holds a
 * cell: the node's terms are skipped when not). */
static void emit_eval(gg_sbuf *b, const rf_emit *e)
{
    const gg_rulefile *rf = e->rf;
    int ns = rf->n_states;
    gg_sbuf_printf(b, "/* The rule on whole vectors of cells: x[i * GG_NP + "
                   "p] plane p of input i, o[p]\n * plane p of the next "
                   "state. e<i>_<s>: the cells whose input i is in state "
                   "s;\n * m<k>: the cells that reach node k of the rule's "
                   "graph. */\nGG_FN void gg_table_eval(const V *x, V *o)\n"
                   "{\n    const V ones = ~GG_V0;\n    (void)ones;\n");
    for (int i = 0; i < rf->n_inputs; i++)
        for (int s = 0; s < ns; s++) {
            if (!e->used[i * ns + s])
                continue;
            gg_sbuf_printf(b, "    const V e%d_%d = ", i, s);
            for (int p = 0; p < e->np; p++)
                gg_sbuf_printf(b, "%s%sx[%d]", p ? " & " : "",
                               (s >> p) & 1 ? "" : "~", i * e->np + p);
            gg_sbuf_printf(b, ";\n");
        }
    for (int p = 0; p < e->np; p++)
        gg_sbuf_printf(b, "    V o%d = GG_V0;\n", p);
    gg_sbuf_append(b, e->body.p ? e->body.p : "", e->body.len);
    for (int p = 0; p < e->np; p++)
        gg_sbuf_printf(b, "    o[%d] = o%d;\n", p, p);
    gg_sbuf_printf(b, "}\n");
}

/* The name as C string and comment text may hold it. */
static void clean_name(const char *name, char *buf, size_t size)
{
    size_t n = 0;
    for (; name && *name && n + 1 < size; name++, n++) {
        char c = *name;
        bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
                  (c >= '0' && c <= '9') || strchr("_-+.,:", c);
        buf[n] = ok ? c : '_';
    }
    buf[n] = 0;
}

/* What differs between the targets: the template, its name in messages and
 * the prologue (the GPU template's macros for OpenCL C or CUDA C). */
typedef struct rf_target {
    const char *what, *tname;
    const char *t;
    size_t tlen;
    const char *prologue;
} rf_target;

static const char opencl_prologue[] =
    "/* OpenCL C 1.2: a work-item's word holds 32 cells. */\n"
    "#define GG_TARGET \"opencl\"\n"
    "#define GG_KERNEL __kernel\n"
    "#define GG_G __global\n"
    "#define GG_FN\n"
    "#define GG_I64 long\n"
    "#define GG_GX ((int)get_global_id(0))\n"
    "#define GG_GY ((int)get_global_id(1))\n"
    "typedef uint V;\n"
    "#define GG_V0 0u\n"
    "#define gg_nz(v) ((v) != 0u)\n";

static const char cuda_prologue[] =
    "/* CUDA C (NVRTC): a thread's word holds 32 cells. */\n"
    "#define GG_TARGET \"cuda\"\n"
    "#define GG_KERNEL extern \"C\" __global__\n"
    "#define GG_G\n"
    "#define GG_FN static __device__\n"
    "#define GG_I64 long long\n"
    "#define GG_GX ((int)(blockIdx.x * blockDim.x + threadIdx.x))\n"
    "#define GG_GY ((int)(blockIdx.y * blockDim.y + threadIdx.y))\n"
    "typedef unsigned int V;\n"
    "#define GG_V0 0u\n"
    "#define gg_nz(v) ((v) != 0u)\n";

static int emit_kernel(const gg_rulefile *rf, const char *name,
                       int64_t max_terms, const rf_target *tg, char **src,
                       size_t *len, int64_t *terms, gg_err *err)
{
    rf_levels l;
    char rule[160];
    clean_name(name, rule, sizeof rule);
    if (terms)
        *terms = 0;
    if (levels_build(rf, &l, err))
        return -1;
    rf_emit e = {.rf = rf, .np = gg_gen_planes(rf->n_states),
                 .max_terms = max_terms > 0 ? max_terms
                                            : GG_RF_EMIT_MAX_TERMS};
    e.used = calloc((size_t)rf->n_inputs * (size_t)rf->n_states, 1);
    if (!e.used) {
        levels_free(&l);
        return gg_fail(err, "out of memory for the rule's graph");
    }
    int bad = emit_body(&e, &l, err);
    if (terms)
        *terms = e.terms;
    if (bad) {
        gg_fail(err, "%s is too large to compile: its decision graph of "
                "%lld nodes has more than %lld terms", rule,
                (long long)rf->n_nodes, (long long)e.max_terms);
    } else {
        gg_sbuf head = {0}, defs = {0}, eval = {0}, out = {0};
        gg_sbuf_printf(&head, "golgen %s table kernel for %s (%d states, %s, "
                       "from its %s: %lld\n * graph nodes, %lld terms).\n"
                       " * Generated by golgen from templates/%s/"
                       "; do not edit.", tg->what, rule, rf->n_states,
                       gg_rf_nbhd_name(rf->nbhd),
                       rf->builtin   ? "built-in transition function"
                       : rf->is_tree ? "@TREE"
                                     : "@TABLE",
                       (long long)rf->n_nodes, (long long)e.terms,
                       tg->tname);
        gg_sbuf_printf(&defs, "#define GG_NS %d\n#define GG_NP %d\n"
                       "#define GG_NIN %d\n#define GG_ZERO_NEXT %d\n",
                       rf->n_states, e.np, rf->n_inputs,
                       gg_rulefile_next(rf, (const uint8_t[9]){0}));
        gg_sbuf_printf(&defs, "#ifndef GG_SKIP_NODES /* see "
                       "GG_RF_SKIP_TERMS */\n#define GG_SKIP_NODES %d\n"
                       "#endif\n", e.terms > GG_RF_SKIP_TERMS);
        emit_eval(&eval, &e);
        const char *keys[] = {"HEADER", "DEFS", "EVAL", "RULE", "PROLOGUE"};
        const char *vals[] = {head.p ? head.p : "", defs.p ? defs.p : "",
                              eval.p ? eval.p : "", rule, tg->prologue};
        bad = head.failed || defs.failed || eval.failed
                  ? gg_fail(err, "out of memory emitting %s", rule)
              : gg_emit_fill(&out, tg->t, tg->tlen, keys, vals,
                             tg->prologue ? 5 : 4, tg->tname, err) ||
                      gg_sbuf_take(&out, src, len, err)
                  ? -1
                  : 0;
        gg_sbuf_free(&head);
        gg_sbuf_free(&defs);
        gg_sbuf_free(&eval);
        gg_sbuf_free(&out);
    }
    gg_sbuf_free(&e.body);
    free(e.used);
    levels_free(&l);
    return bad;
}

int gg_rulefile_emit_c(const gg_rulefile *rf, const char *name,
                       int64_t max_terms, char **src, size_t *len,
                       int64_t *terms, gg_err *err)
{
    rf_target tg = {"C", "ctable", gg_template_ctable_kernel,
                    gg_template_ctable_kernel_len, NULL};
    return emit_kernel(rf, name, max_terms, &tg, src, len, terms, err);
}

int gg_rulefile_emit_gpu(const gg_rulefile *rf, const char *name,
                         gg_rf_gpu_target target, int64_t max_terms,
                         char **src, size_t *len, int64_t *terms,
                         gg_err *err)
{
    bool cl = target == GG_RF_GPU_OPENCL;
    rf_target tg = {cl ? "OpenCL" : "CUDA", "gputable",
                    gg_template_gputable_kernel,
                    gg_template_gputable_kernel_len,
                    cl ? opencl_prologue : cuda_prologue};
    return emit_kernel(rf, name, max_terms, &tg, src, len, terms, err);
}

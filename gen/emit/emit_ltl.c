#include "emit_ltl.h"

#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* A growing string; on failure it keeps failing and says so once. */
typedef struct sbuf {
    char *s;
    size_t n, cap;
    bool bad;
} sbuf;

static void put(sbuf *b, const char *fmt, ...)
{
    if (b->bad)
        return;
    for (;;) {
        va_list ap;
        va_start(ap, fmt);
        int k = vsnprintf(b->s ? b->s + b->n : NULL,
                          b->s ? b->cap - b->n : 0, fmt, ap);
        va_end(ap);
        if (k < 0) {
            b->bad = true;
            return;
        }
        if (b->s && b->n + (size_t)k < b->cap) {
            b->n += (size_t)k;
            return;
        }
        size_t cap = (b->cap + (size_t)k + 1) * 2;
        char *t = realloc(b->s, cap);
        if (!t) {
            b->bad = true;
            return;
        }
        b->s = t;
        b->cap = cap;
    }
}

static int bits_for(int64_t max)
{
    int k = 1;
    while (k < 62 && (1LL << k) <= max)
        k++;
    return k;
}

int gg_ltl_count_bits(const gg_ltl_rule *rule)
{
    return bits_for(gg_ltl_nbhd_cells(rule));
}

/* v = (count >= k) as gates from the lowest bit up: the suffix compare
 * stays true through 0 bits of k until the first 1 bit. */
static void emit_ge(sbuf *b, const char *v, int64_t k, int kb)
{
    if (k <= 0) {
        put(b, "    %s = ~(V){0};\n", v);
        return;
    }
    if (k >= (1LL << kb)) {
        put(b, "    %s = (V){0};\n", v);
        return;
    }
    bool ones = true;
    for (int i = 0; i < kb; i++) {
        bool bit = (k >> i) & 1;
        if (ones && !bit)
            continue;
        if (ones)
            put(b, "    %s = c[%d];\n", v, i);
        else
            put(b, "    %s = c[%d] %s %s;\n", v, i, bit ? "&" : "|", v);
        ones = false;
    }
}

/* out |= counts in [lo, hi] */
static void emit_ranges(sbuf *b, const char *out, const int32_t *lo,
                        const int32_t *hi, int n, int shift, int64_t max,
                        int kb)
{
    put(b, "    *%s = (V){0};\n", out);
    for (int i = 0; i < n; i++) {
        int64_t a = (int64_t)lo[i] + shift, z = (int64_t)hi[i] + shift;
        if (a < 0)
            a = 0;
        if (z > max)
            z = max;
        if (a > z)
            continue;
        put(b, "    /* %lld..%lld */\n", (long long)a, (long long)z);
        emit_ge(b, "g", a, kb);
        emit_ge(b, "h", z + 1, kb);
        put(b, "    *%s |= g & ~h;\n", out);
    }
}

static void emit_rule(sbuf *b, const gg_ltl_rule *r)
{
    gg_ltl_rule bare = *r;
    bare.topo = GG_TOPO_UNBOUNDED;
    char text[1200];
    gg_ltl_format(&bare, text, sizeof text);
    int64_t cells = gg_ltl_nbhd_cells(r);
    int kb = bits_for(cells), np = 1;
    while ((1 << np) < r->states)
        np++;
    put(b, "#define GG_RULE_TEXT \"%s\"\n", text);
    put(b, "#define GG_R %d\n#define GG_NBHD '%c'\n#define GG_STATES %d\n",
        r->range, r->nbhd, r->states);
    put(b, "#define GG_NP %d\n#define GG_KB %d\n#define GG_KC %d\n", np, kb,
        bits_for(2 * (int64_t)r->range + 1));
    /* each row's half-width of the shape, dy = -R..R */
    int *half = malloc((2 * (size_t)r->range + 1) * sizeof *half);
    if (!half) {
        b->bad = true;
        return;
    }
    gg_ltl_circle(r->range, half);
    put(b, "static const int gg_hw[%d] = {", 2 * r->range + 1);
    for (int j = -r->range; j <= r->range; j++) {
        int h = r->nbhd == 'M'   ? r->range
                : r->nbhd == 'N' ? r->range - (j < 0 ? -j : j)
                                 : half[j + r->range];
        put(b, "%s%d", j + r->range ? (j + r->range) % 16 ? ", " : ",\n    "
                                    : "",
            h);
    }
    put(b, "};\n");
    free(half);
    /* the count has the middle in: a live middle counts itself, so M0's
     * survival counts are one higher here */
    put(b, "\n/* born: the counts of B; surv: the counts of S%s */\n",
        r->middle ? "" : ", plus one for the middle (M0)");
    put(b, "static inline void gg_rule_masks(const V *c, V *born, V *surv)"
           "\n{\n    V g, h;\n");
    emit_ranges(b, "born", r->b_lo, r->b_hi, r->n_b, 0, cells, kb);
    emit_ranges(b, "surv", r->s_lo, r->s_hi, r->n_s, r->middle ? 0 : 1,
                cells, kb);
    put(b, "    (void)g;\n    (void)h;\n}\n");
}

int gg_ltl_emit_c(const gg_ltl_rule *rule, char **src, size_t *len,
                  gg_err *err)
{
    *src = NULL;
    *len = 0;
    if (rule->nbhd != 'M' && rule->nbhd != 'N' && rule->nbhd != 'C')
        return gg_fail(err, "unknown Larger than Life neighbourhood '%c'",
                       rule->nbhd);
    const char *t = gg_template_cltl_kernel;
    const char *h = strstr(t, "@@HEADER@@"), *r = strstr(t, "@@RULE@@");
    if (!h || !r || r < h)
        return gg_fail(err, "the Larger than Life template lacks its "
                       "@@HEADER@@ or @@RULE@@ mark");
    sbuf b = {0};
    put(&b, "%.*s", (int)(h - t), t);
    char text[1200];
    gg_ltl_format(rule, text, sizeof text);
    put(&b, "Generated by golgen (gen/emit/emit_ltl.c) for the Larger than "
            "Life rule %.*s", (int)strcspn(text, ":"), text);
    const char *after = h + strlen("@@HEADER@@");
    put(&b, "%.*s", (int)(r - after), after);
    emit_rule(&b, rule);
    put(&b, "%s", r + strlen("@@RULE@@"));
    if (b.bad) {
        free(b.s);
        return gg_fail(err, "out of memory emitting a Larger than Life "
                       "kernel");
    }
    *src = b.s;
    *len = b.n;
    return 0;
}

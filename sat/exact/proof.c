#include "proof.h"

#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "encode.h"

uint32_t gg_proof_shapes_hash(const gg_shape *v, int n)
{
    return gg_proof_shapes_hash_version(v, n, GG_ENC_PRUNING_VERSION);
}

bool gg_proof_hash_ok(uint32_t hash, const gg_shape *v, int n)
{
    for (int ver = GG_ENC_PRUNING_COMPAT; ver <= GG_ENC_PRUNING_VERSION;
         ver++)
        if (hash == gg_proof_shapes_hash_version(v, n, ver))
            return true;
    return false;
}

uint32_t gg_proof_shapes_hash_version(const gg_shape *v, int n, int version)
{
    uint32_t h = 2166136261u; /* FNV-1a */
    uint32_t head[2] = {(uint32_t)version, (uint32_t)n};
    for (int i = 0; i < 2; i++)
        h = (h ^ head[i]) * 16777619u;
    for (int s = 0; s < n; s++) {
        h = (h ^ (uint32_t)(v[s].k << 8 | v[s].arity)) * 16777619u;
        for (int g = 0; g < v[s].k; g++)
            h = (h ^ v[s].fanin[g]) * 16777619u;
    }
    return h;
}

static int int_cmp(const void *a, const void *b)
{
    int x = *(const int *)a, y = *(const int *)b;
    return (x > y) - (x < y);
}

/* Appends "a" or "a-b" (with a comma after the first); false when it does
 * not fit, and then the text is left as it was. */
static bool append_range(char *buf, size_t size, size_t *len, int a, int b)
{
    char item[32];
    int n = a == b ? snprintf(item, sizeof item, "%s%d", *len ? "," : "", a)
                   : snprintf(item, sizeof item, "%s%d-%d",
                              *len ? "," : "", a, b);
    if (*len + (size_t)n + 1 > size)
        return false;
    memcpy(buf + *len, item, (size_t)n + 1);
    *len += (size_t)n;
    return true;
}

void gg_proof_from_undecided(gg_proof *p, int k, int total, uint32_t hash,
                             const int *undecided, int n_undecided)
{
    *p = (gg_proof){.k = k, .shapes_total = total, .shapes_hash = hash};
    int *u = malloc(((size_t)n_undecided + 1) * sizeof *u);
    if (!u)
        return; /* an empty record: sound, only slower to resume */
    if (n_undecided > 0) /* undecided may be NULL when there are none */
        memcpy(u, undecided, (size_t)n_undecided * sizeof *u);
    qsort(u, (size_t)n_undecided, sizeof *u, int_cmp);
    u[n_undecided] = total; /* a sentinel past the last gap */
    size_t len = 0;
    for (int i = 0, next = 0; i <= n_undecided; i++) {
        if (u[i] > next &&
            !append_range(p->unsat, sizeof p->unsat, &len, next, u[i] - 1))
            break;
        next = u[i] + 1;
    }
    free(u);
}

/* Calls fn(a, b, arg) for each range of the text; -1 when malformed or
 * out of 0..total-1 or not ascending. */
static int each_range(const char *text, int total,
                      void (*fn)(int, int, void *), void *arg)
{
    int last = -1;
    for (const char *c = text; *c;) {
        char *end;
        long a = strtol(c, &end, 10), b = a;
        if (end == c)
            return -1;
        if (*end == '-') {
            c = end + 1;
            b = strtol(c, &end, 10);
            if (end == c)
                return -1;
        }
        if (a <= last || b < a || b >= total)
            return -1;
        if (fn)
            fn((int)a, (int)b, arg);
        last = (int)b;
        c = end;
        if (*c == ',')
            c++;
        else if (*c)
            return -1;
    }
    return 0;
}

static void add_count(int a, int b, void *arg) { *(int *)arg += b - a + 1; }

int gg_proof_count(const gg_proof *p)
{
    int n = 0;
    if (p->k <= 0 || each_range(p->unsat, p->shapes_total, add_count, &n))
        return 0;
    return n;
}

static void mark(int a, int b, void *arg)
{
    char *done = arg;
    memset(done + a, 1, (size_t)(b - a + 1));
}

int gg_proof_pending(const gg_proof *p, int **out, int *n, gg_err *err)
{
    int total = p->shapes_total > 0 ? p->shapes_total : 0;
    char *done = gg_alloc((size_t)total + 1, 1, err, "proof record");
    *out = done ? gg_alloc((size_t)total + 1, sizeof **out, err,
                           "proof record") : NULL;
    if (!*out) {
        free(done);
        return -1;
    }
    if (each_range(p->unsat, total, mark, done)) {
        free(done);
        free(*out);
        *out = NULL;
        return gg_fail(err, "proof record '%s' is malformed", p->unsat);
    }
    *n = 0;
    for (int i = 0; i < total; i++)
        if (!done[i])
            (*out)[(*n)++] = i;
    free(done);
    return 0;
}

void gg_proof_format(const gg_proof *p, char *buf, size_t size)
{
    snprintf(buf, size, "k=%d shapes=%d hash=%08x unsat=%s", p->k,
             p->shapes_total, (unsigned)p->shapes_hash, p->unsat);
}

int gg_proof_parse(const char *text, gg_proof *p, gg_err *err)
{
    unsigned hash;
    int used = 0;
    *p = (gg_proof){0};
    if (sscanf(text, "k=%d shapes=%d hash=%8x unsat=%n", &p->k,
               &p->shapes_total, &hash, &used) != 3 || !used ||
        p->k < 1 || p->k > GG_SHAPE_MAX_GATES || p->shapes_total < 1 ||
        strlen(text + used) >= sizeof p->unsat ||
        each_range(text + used, p->shapes_total, NULL, NULL)) {
        *p = (gg_proof){0};
        return gg_fail(err, "proof record '%.80s' is malformed (want "
                       "'k=K shapes=N hash=H unsat=A-B,C')", text);
    }
    p->shapes_hash = hash;
    snprintf(p->unsat, sizeof p->unsat, "%s", text + used);
    return 0;
}

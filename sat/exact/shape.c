#include "shape.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

typedef struct shape_list {
    gg_shape *v;
    int n, cap;
    int min_pi_slots;
    gg_err *err;
} shape_list;

int gg_shape_pi_slots(const gg_shape *s, int i)
{
    return s->arity - __builtin_popcount(s->fanin[i]);
}

/* Co-lexicographic order on fanin sets: compare the largest elements
 * first. As masks of earlier gates this is plain integer order. */
static int colex_le(uint16_t a, uint16_t b) { return a <= b; }

/* The relabelled shape for one topological order (order[new] = old). */
static void relabel(const gg_shape *s, const int *order, uint16_t *code)
{
    int new_of[GG_SHAPE_MAX_GATES];
    for (int i = 0; i < s->k; i++)
        new_of[order[i]] = i;
    for (int i = 0; i < s->k; i++) {
        uint16_t m = 0, old = s->fanin[order[i]];
        for (int j = 0; j < s->k; j++)
            if (old >> j & 1)
                m |= (uint16_t)(1u << new_of[j]);
        code[i] = m;
    }
}

static int code_cmp(const uint16_t *a, const uint16_t *b, int k)
{
    for (int i = 0; i < k; i++)
        if (a[i] != b[i])
            return a[i] < b[i] ? -1 : 1;
    return 0;
}

/* Smallest relabelling over all topological orders: the class's name. */
static void min_code(const gg_shape *s, int *order, int depth, uint16_t placed,
                     uint16_t *best)
{
    if (depth == s->k) {
        uint16_t code[GG_SHAPE_MAX_GATES];
        relabel(s, order, code);
        if (code_cmp(code, best, s->k) < 0)
            memcpy(best, code, sizeof code);
        return;
    }
    for (int g = 0; g < s->k; g++)
        if (!(placed >> g & 1) && (s->fanin[g] & ~placed) == 0) {
            order[depth] = g;
            min_code(s, order, depth + 1, (uint16_t)(placed | 1u << g), best);
        }
}

static int push(shape_list *l, const gg_shape *s)
{
    if (l->n == l->cap) {
        int cap = l->cap ? 2 * l->cap : 256;
        gg_shape *v = realloc(l->v, (size_t)cap * sizeof *v);
        if (!v)
            return gg_fail(l->err, "out of memory listing network shapes");
        l->v = v, l->cap = cap;
    }
    l->v[l->n++] = *s;
    return 0;
}

/* A complete shape: every gate but the output is read, and enough slots are
 * left for primary inputs. Stored in its canonical labelling. */
static int finish(shape_list *l, const gg_shape *s)
{
    uint16_t read = 0;
    int pi = 0;
    for (int i = 0; i < s->k; i++) {
        read |= s->fanin[i];
        pi += gg_shape_pi_slots(s, i);
    }
    if (read != (uint16_t)((1u << (s->k - 1)) - 1) || pi < l->min_pi_slots)
        return 0;
    gg_shape c = *s;
    int order[GG_SHAPE_MAX_GATES];
    memcpy(c.fanin, s->fanin, sizeof c.fanin);
    min_code(s, order, 0, 0, c.fanin);
    return push(l, &c);
}

/* Gate i picks its fanin set among subsets of earlier gates. Adjacent
 * independent gates come in co-lex order (Knuth 7.1.2), which every
 * isomorphism class satisfies in some labelling. */
static int extend(shape_list *l, gg_shape *s, int i)
{
    if (i == s->k)
        return finish(l, s);
    for (uint32_t m = 0; m < (1u << i); m++) {
        if (__builtin_popcount(m) > s->arity)
            continue;
        if (i > 0 && !(m >> (i - 1) & 1) && !colex_le(s->fanin[i - 1], (uint16_t)m))
            continue;
        s->fanin[i] = (uint16_t)m;
        if (extend(l, s, i + 1))
            return -1;
    }
    return 0;
}

static int shape_cmp(const void *a, const void *b)
{
    const gg_shape *x = a, *y = b;
    return code_cmp(x->fanin, y->fanin, x->k);
}

static int enumerate(int k, int arity, int min_pi_slots, gg_shape **out,
                     gg_err *err)
{
    shape_list l = {.min_pi_slots = min_pi_slots, .err = err};
    gg_shape s = {.k = k, .arity = arity};
    if (extend(&l, &s, 0)) {
        free(l.v);
        return -1;
    }
    if (l.n > 1) /* none at all for some (k, min_pi_slots): no array */
        qsort(l.v, (size_t)l.n, sizeof *l.v, shape_cmp);
    int n = 0;
    for (int i = 0; i < l.n; i++)
        if (n == 0 || shape_cmp(&l.v[n - 1], &l.v[i]))
            l.v[n++] = l.v[i];
    *out = l.v;
    return n;
}

/* The lists already enumerated, kept for the process: a work-bounded
 * search (every uncached rule's fallback) runs its k one after another
 * and enumerated them afresh each time, up to 36,390 shapes at k = 7; the
 * canonical forms cost more than the search itself (tests/test_net's 1,400
 * fallbacks, session 21). Only lists up to MEMO_MAX shapes are kept
 * (gate2 k = 10's 552,516: 18 MB), not the millions of gate2 k = 11. */
#define MEMO_MAX 1000000
#define MEMO_PI 32

typedef struct memo_list {
    gg_shape *v;
    int n; /* 0: not enumerated yet */
} memo_list;

static memo_list memo[GG_SHAPE_MAX_GATES + 1][4][MEMO_PI];
static pthread_mutex_t memo_mu = PTHREAD_MUTEX_INITIALIZER;

static memo_list *memo_slot(int k, int arity, int min_pi_slots)
{
    if (arity < 0 || arity > 3 || min_pi_slots < 0 ||
        min_pi_slots >= MEMO_PI)
        return NULL;
    return &memo[k][arity][min_pi_slots];
}

/* A malloc'd copy of v (n > 0). */
static int copy_out(const gg_shape *v, int n, gg_shape **out, gg_err *err)
{
    *out = malloc((size_t)n * sizeof **out);
    if (!*out)
        return gg_fail(err, "out of memory for %d shapes", n);
    memcpy(*out, v, (size_t)n * sizeof **out);
    return n;
}

int gg_shape_enum(int k, int arity, int min_pi_slots, gg_shape **out,
                  gg_err *err)
{
    if (k < 1 || k > GG_SHAPE_MAX_GATES)
        return gg_fail(err, "shapes of %d gates are out of range (1..%d)", k,
                       GG_SHAPE_MAX_GATES);
    memo_list *m = memo_slot(k, arity, min_pi_slots);
    if (m) {
        pthread_mutex_lock(&memo_mu);
        int n = m->n;
        pthread_mutex_unlock(&memo_mu);
        if (n > 0) /* a list once kept never changes */
            return copy_out(m->v, n, out, err);
    }
    int n = enumerate(k, arity, min_pi_slots, out, err);
    if (m && n > 0 && n <= MEMO_MAX) {
        gg_shape *keep = NULL;
        gg_err ignore;
        if (copy_out(*out, n, &keep, &ignore) > 0) {
            pthread_mutex_lock(&memo_mu);
            if (m->n == 0) /* another thread may have kept it first */
                m->v = keep, m->n = n, keep = NULL;
            pthread_mutex_unlock(&memo_mu);
            free(keep);
        }
    }
    return n;
}

#include "symm.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int gg_symm_essential(const gg_tt *f, bool *essential)
{
    int count = 0;
    for (int i = 0; i < f->n_inputs; i++) {
        bool needed = false;
        for (int r = 0; r < gg_tt_rows(f) && !needed; r++) {
            int s = r | (1 << i);
            if (r == s)
                continue;
            needed = gg_tt_get(f->care, r) && gg_tt_get(f->care, s) &&
                     gg_tt_get(f->on, r) != gg_tt_get(f->on, s);
        }
        if (essential)
            essential[i] = needed;
        count += needed;
    }
    return count;
}

bool gg_symm_swap_ok(const gg_tt *f, int i, int j)
{
    for (int r = 0; r < gg_tt_rows(f); r++) {
        if (((r >> i) & 1) == ((r >> j) & 1))
            continue;
        int s = r ^ (1 << i) ^ (1 << j);
        if (gg_tt_get(f->care, r) != gg_tt_get(f->care, s))
            return false;
        if (gg_tt_get(f->care, r) && gg_tt_get(f->on, r) != gg_tt_get(f->on, s))
            return false;
    }
    return true;
}

int gg_symm_classes(const gg_tt *f, int *class_of)
{
    int classes = 0;
    for (int i = 0; i < f->n_inputs; i++) {
        class_of[i] = i;
        for (int j = 0; j < i; j++)
            if (class_of[j] == j && gg_symm_swap_ok(f, i, j)) {
                class_of[i] = j;
                break;
            }
        classes += class_of[i] == i;
    }
    return classes;
}

/* 2-colours the conflict graph of the assignments a of A (for one value c
 * of the shared inputs); val[] is f over A|B|C with -1 for don't-care. */
static bool two_colourable(const int8_t *val, unsigned A, unsigned B,
                           unsigned c)
{
    int8_t colour[1 << GG_SYMM_DECOMP_MAX_INPUTS];
    unsigned stack[1 << GG_SYMM_DECOMP_MAX_INPUTS];
    for (unsigned a = A;; a = (a - 1) & A) {
        colour[a] = -1;
        if (!a)
            break;
    }
    for (unsigned root = A;; root = (root - 1) & A) {
        if (colour[root] < 0) {
            int sp = 0;
            colour[root] = 0;
            stack[sp++] = root;
            while (sp) {
                unsigned a = stack[--sp];
                for (unsigned a2 = A;; a2 = (a2 - 1) & A) {
                    bool conflict = false;
                    for (unsigned b = B;; b = (b - 1) & B) {
                        int v1 = val[a | b | c], v2 = val[a2 | b | c];
                        if (v1 >= 0 && v2 >= 0 && v1 != v2) {
                            conflict = true;
                            break;
                        }
                        if (!b)
                            break;
                    }
                    if (conflict) {
                        if (colour[a2] == colour[a])
                            return false;
                        if (colour[a2] < 0) {
                            colour[a2] = (int8_t)!colour[a];
                            stack[sp++] = a2;
                        }
                    }
                    if (!a2)
                        break;
                }
            }
        }
        if (!root)
            break;
    }
    return true;
}

/* Colours the conflict graph of one value c of the shared inputs with at
 * most `colours` colours, by backtracking. Assignments of A with the same
 * pattern over B (don't-cares included) have the same neighbours and never
 * conflict, so they are merged first; assignments with no care row at all
 * conflict with nothing and are dropped. The search gives up after
 * NODE_LIMIT steps and answers "colourable", the weaker claim (a pair is
 * only ever used to exclude networks, so that is sound). */
#define NODE_LIMIT 200000
#define MAXV (1 << GG_SYMM_DECOMP_MAX_INPUTS)

typedef struct colouring {
    int nv, colours;
    uint64_t adj[MAXV][MAXV / 64];
    int order[MAXV], colour[MAXV];
    long nodes;
} colouring;

/* k_colourable's graph and patterns, 292 KB: from the heap, once per
 * caller's loop, because as thread-locals they made every thread of
 * every golgen command zero them at its start. */
typedef struct colour_work {
    colouring g;
    int8_t pat[MAXV][MAXV];
} colour_work;

static int colour_from(colouring *g, int i, int used)
{
    if (i == g->nv)
        return 1;
    if (++g->nodes > NODE_LIMIT)
        return -1;
    int v = g->order[i];
    int top = used < g->colours ? used + 1 : g->colours;
    for (int col = 0; col < top; col++) {
        bool ok = true;
        for (int j = 0; j < i && ok; j++) {
            int u = g->order[j];
            if (g->colour[u] == col && (g->adj[v][u / 64] >> (u % 64) & 1))
                ok = false;
        }
        if (!ok)
            continue;
        g->colour[v] = col;
        int rc = colour_from(g, i + 1, col + 1 > used ? col + 1 : used);
        if (rc)
            return rc;
    }
    return 0;
}

static bool k_colourable(const int8_t *val, unsigned A, unsigned B,
                         unsigned c, int colours, colour_work *w)
{
    colouring *g = &w->g;
    int8_t(*pat)[MAXV] = w->pat;
    int nb = 0, bs[MAXV];
    for (unsigned b = B;; b = (b - 1) & B) {
        bs[nb++] = (int)b;
        if (!b)
            break;
    }
    g->nv = 0, g->colours = colours, g->nodes = 0;
    for (unsigned a = A;; a = (a - 1) & A) {
        int8_t p[MAXV];
        bool any = false;
        for (int i = 0; i < nb; i++) {
            p[i] = val[a | (unsigned)bs[i] | c];
            any |= p[i] >= 0;
        }
        bool dup = !any;
        for (int v = 0; v < g->nv && !dup; v++)
            dup = !memcmp(pat[v], p, (size_t)nb);
        if (!dup)
            memcpy(pat[g->nv++], p, (size_t)nb);
        if (!a)
            break;
    }
    if (g->nv <= colours)
        return true;
    int deg[MAXV] = {0};
    memset(g->adj, 0, sizeof g->adj);
    for (int v = 0; v < g->nv; v++)
        for (int u = 0; u < v; u++)
            for (int i = 0; i < nb; i++)
                if (pat[v][i] >= 0 && pat[u][i] >= 0 &&
                    pat[v][i] != pat[u][i]) {
                    g->adj[v][u / 64] |= 1ull << (u % 64);
                    g->adj[u][v / 64] |= 1ull << (v % 64);
                    deg[v]++, deg[u]++;
                    break;
                }
    for (int v = 0; v < g->nv; v++) { /* highest degree first */
        int i = v;
        while (i > 0 && deg[g->order[i - 1]] < deg[v]) {
            g->order[i] = g->order[i - 1];
            i--;
        }
        g->order[i] = v;
    }
    return colour_from(g, 0, 0) != 0; /* -1 (gave up): colourable */
}

/* gg_symm_decomposable_k with the colouring's work space made on first
 * need in *w (NULL at first; the caller frees it). Without memory the
 * answer is the weaker claim, decomposable. */
static bool decomposable_in(const gg_tt *f, unsigned s, unsigned r,
                            int colours, colour_work **w)
{
    int n = f->n_inputs;
    if (n > GG_SYMM_DECOMP_MAX_INPUTS)
        return true; /* not tested: assume the weaker claim */
    unsigned all = (1u << n) - 1, seen = s | r;
    s &= all, r &= all, seen &= all;
    int8_t val[1 << GG_SYMM_DECOMP_MAX_INPUTS];
    memset(val, -1, sizeof val);
    for (int row = 0; row < (1 << n); row++) {
        if (!gg_tt_get(f->care, row))
            continue;
        int v = gg_tt_get(f->on, row);
        unsigned key = (unsigned)row & seen;
        if (val[key] >= 0 && val[key] != v)
            return false; /* depends on an input neither side reads */
        val[key] = (int8_t)v;
    }
    unsigned A = s & ~r, B = r & ~s, C = s & r;
    for (unsigned c = C;; c = (c - 1) & C) {
        if (colours > 2 && !*w && !(*w = malloc(sizeof **w)))
            return true;
        if (colours <= 2 ? !two_colourable(val, A, B, c)
                         : !k_colourable(val, A, B, c, colours, *w))
            return false;
        if (!c)
            break;
    }
    return true;
}

bool gg_symm_decomposable_k(const gg_tt *f, unsigned s, unsigned r,
                            int colours)
{
    colour_work *w = NULL;
    bool yes = decomposable_in(f, s, r, colours, &w);
    free(w);
    return yes;
}

bool gg_symm_decomposable(const gg_tt *f, unsigned s, unsigned r)
{
    return gg_symm_decomposable_k(f, s, r, 2);
}

int gg_symm_nondecomp_k(const gg_tt *f, int colours, unsigned (*pairs)[2],
                        int cap)
{
    int n = f->n_inputs, count = 0;
    if (n > GG_SYMM_DECOMP_MAX_INPUTS)
        return 0;
    /* pair (s, r) <-> index: two bits per input, (in s) | (in r) << 1 */
    size_t total = (size_t)1 << (2 * n);
    uint8_t *nd = calloc(total, 1);
    colour_work *w = NULL;
    if (!nd)
        return 0;
    for (size_t p = 0; p < total; p++) {
        unsigned s = 0, r = 0;
        for (int i = 0; i < n; i++) {
            s |= (unsigned)(p >> (2 * i) & 1) << i;
            r |= (unsigned)(p >> (2 * i + 1) & 1) << i;
        }
        nd[p] = !decomposable_in(f, s, r, colours, &w);
    }
    free(w);
    for (size_t p = 0; p < total && count < cap; p++) {
        if (!nd[p])
            continue;
        bool maximal = true;
        for (int b = 0; b < 2 * n && maximal; b++)
            if (!(p >> b & 1) && nd[p | (size_t)1 << b])
                maximal = false;
        if (!maximal)
            continue;
        unsigned s = 0, r = 0;
        for (int i = 0; i < n; i++) {
            s |= (unsigned)(p >> (2 * i) & 1) << i;
            r |= (unsigned)(p >> (2 * i + 1) & 1) << i;
        }
        pairs[count][0] = s, pairs[count][1] = r;
        count++;
    }
    free(nd);
    return count;
}

int gg_symm_nondecomp(const gg_tt *f, unsigned (*pairs)[2], int cap)
{
    return gg_symm_nondecomp_k(f, 2, pairs, cap);
}

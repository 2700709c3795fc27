/* How fast could Life run on an interleaved bit layout (issue 19)? Vector
 * j of a row's S = W / 512 vectors holds cells j, j + S, j + 2S, ... (lane
 * bit b: cell j + b * S), so a cell's west and east neighbours are the
 * same bit of vectors j - 1 and j + 1: no funnel shifts, 8 vpternlog a
 * vector (Life's 2 row-sum gates and 6 final gates, as golgen emits them),
 * against today's 8 + 2 vpshldq + 1 valignq. Only the two end vectors of a
 * row rotate their neighbour by one lane.
 *
 * A band of R rows (whole width, torus across) is swept T times between
 * two buffers, rows 1 .. R-2 each time (rows 0 and R-1 stay as they are,
 * as a band's halo would), each column of NC vectors walked down KR rows
 * with the row sums of three rows in registers. The first two sweeps are
 * checked cell for cell against a scalar Life on the usual layout.
 * Printed: TSC cycles per 512-cell vector of the sweeps alone (no copies,
 * no halo), and the CUpS of that one core. Compare with
 * ports.c's roof for 8 ops a vector.
 *
 *   cc -O3 -march=native interleaved.c -o interleaved
 *   ./interleaved W R T     (W a multiple of 1024; bench/cpu_roof.sh) */
#include <immintrin.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <x86intrin.h>

typedef __m512i V;
#define LUT(a, b, c, imm) _mm512_ternarylogic_epi64((a), (b), (c), (imm))
#define NC 2   /* vector columns per walk */
#ifndef KR
#define KR 128 /* rows per walk */
#endif

/* Life's final stage behind the row sums (generated/networks, 6 LUTs). */
static inline V life_final(V sT, V cT, V sM, V cM, V sB, V cB, V C)
{
    V g0 = LUT(sT, sM, sB, 0x96);
    V g1 = LUT(sM, cM, g0, 0xc8);
    V g2 = LUT(sT, sB, g1, 0x6a);
    V g3 = LUT(cT, cB, g2, 0x16);
    V g4 = LUT(g1, g2, g3, 0x8a);
    return LUT(C, g0, g4, 0xa8);
}

/* The west neighbours of vector 0: cell b*S - 1 is lane b - 1 of vector
 * S - 1 (a one-bit rotation of the whole 512-bit vector). */
static inline V west_of_first(const V *row, int S)
{
    V x = row[S - 1];
    V lower = _mm512_permutexvar_epi64(_mm512_set_epi64(6, 5, 4, 3, 2, 1, 0, 7), x);
    return _mm512_shldi_epi64(x, lower, 1);
}

static inline V east_of_last(const V *row)
{
    V x = row[0];
    V upper = _mm512_permutexvar_epi64(_mm512_set_epi64(0, 7, 6, 5, 4, 3, 2, 1), x);
    return _mm512_shrdi_epi64(x, upper, 1);
}

typedef struct rowin {
    V s[NC], c[NC], m[NC]; /* row sum bits and the cells, per column */
} rowin;

static inline __attribute__((always_inline)) void
row_in(const V *row, int S, int j, int edge, rowin *r)
{
    for (int q = 0; q < NC; q++) {
        int x = j + q;
        V w = edge && x == 0 ? west_of_first(row, S) : row[x - (x > 0)];
        V e = edge && x == S - 1 ? east_of_last(row) : row[x + (x < S - 1)];
        V c = row[x];
        r->s[q] = LUT(w, c, e, 0x96);
        r->c[q] = LUT(w, c, e, 0xe8);
        r->m[q] = c;
    }
}

static inline __attribute__((always_inline)) void
out_row(const V *a, V *b, int S, int j, int edge, int y, const rowin *t,
        const rowin *m, rowin *bot)
{
    row_in(a + (size_t)(y + 1) * S, S, j, edge, bot);
    for (int q = 0; q < NC; q++)
        b[(size_t)y * S + j + q] = life_final(t->s[q], t->c[q], m->s[q],
                                              m->c[q], bot->s[q], bot->c[q],
                                              m->m[q]);
}

static inline __attribute__((always_inline)) void
walk(const V *a, V *b, int S, int y0, int y1, int j, int edge)
{
    rowin r0, r1, r2;
    row_in(a + (size_t)(y0 - 1) * S, S, j, edge, &r0);
    row_in(a + (size_t)y0 * S, S, j, edge, &r1);
    int y = y0;
    for (; y + 3 <= y1; y += 3) {
        out_row(a, b, S, j, edge, y, &r0, &r1, &r2);
        out_row(a, b, S, j, edge, y + 1, &r1, &r2, &r0);
        out_row(a, b, S, j, edge, y + 2, &r2, &r0, &r1);
    }
    if (y < y1) {
        out_row(a, b, S, j, edge, y, &r0, &r1, &r2);
        if (y + 1 < y1)
            out_row(a, b, S, j, edge, y + 1, &r1, &r2, &r0);
    }
}

static void sweep(const V *a, V *b, int S, int y0, int y1)
{
    for (int r = y0; r < y1; r += KR) {
        int re = r + KR < y1 ? r + KR : y1;
        walk(a, b, S, r, re, 0, 1);
        for (int j = NC; j < S - NC; j += NC)
            walk(a, b, S, r, re, j, 0);
        walk(a, b, S, r, re, S - NC, 1);
    }
}

static int cell(const uint64_t *w, int S, int x, int y)
{
    int j = x % S, lane = x / S;
    return (int)(w[((size_t)y * S + j) * 8 + lane / 64] >> (lane % 64) & 1);
}

/* Two generations of rows 1 .. R-2 and 2 .. R-3, as the sweeps do them. */
static long check(const uint64_t *start, const uint64_t *after, int W, int R)
{
    int S = W / 512;
    uint8_t *g = malloc((size_t)W * R), *h = malloc((size_t)W * R);
    if (!g || !h)
        return -1;
    for (int y = 0; y < R; y++)
        for (int x = 0; x < W; x++)
            g[(size_t)y * W + x] = (uint8_t)cell(start, S, x, y);
    memcpy(h, g, (size_t)W * R);
    for (int gen = 1; gen <= 2; gen++) {
        for (int y = gen; y < R - gen; y++)
            for (int x = 0; x < W; x++) {
                int n = 0;
                for (int dy = -1; dy <= 1; dy++)
                    for (int dx = -1; dx <= 1; dx++)
                        n += (dx || dy) * g[(size_t)(y + dy) * W + (x + dx + W) % W];
                int alive = g[(size_t)y * W + x];
                h[(size_t)y * W + x] = (uint8_t)(n == 3 || (alive && n == 2));
            }
        memcpy(g, h, (size_t)W * R);
    }
    long bad = 0;
    for (int y = 2; y < R - 2; y++)
        for (int x = 0; x < W; x++)
            bad += cell(after, S, x, y) != g[(size_t)y * W + x];
    free(g);
    free(h);
    return bad;
}

int main(int argc, char **argv)
{
    int W = argc > 1 ? atoi(argv[1]) : 16384;
    int R = argc > 2 ? atoi(argv[2]) : 256;
    int T = argc > 3 ? atoi(argv[3]) : 400;
    if (W < 1024 || W % 1024 || R < 8 || T < 2) {
        fprintf(stderr, "usage: interleaved W R T (W a multiple of 1024, "
                        "R >= 8, T >= 2)\n");
        return 2;
    }
    int S = W / 512;
    size_t bytes = (size_t)R * S * 64;
    V *a = aligned_alloc(64, bytes), *b = aligned_alloc(64, bytes);
    uint64_t *start = malloc(bytes);
    if (!a || !b || !start)
        return 2;
    uint64_t x = 88172645463325252u; /* xorshift soup, density 1/2 */
    for (size_t i = 0; i < bytes / 8; i++) {
        x ^= x << 13, x ^= x >> 7, x ^= x << 17;
        start[i] = x;
    }
    memcpy(a, start, bytes);
    memcpy(b, start, bytes);
    sweep(a, b, S, 1, R - 1);
    sweep(b, a, S, 2, R - 2);
    long bad = check(start, (const uint64_t *)a, W, R);
    if (bad) {
        printf("interleaved %dx%d: %ld cells differ from the scalar Life\n",
               W, R, bad);
        return 1;
    }
    struct timespec w0, w1;
    clock_gettime(CLOCK_MONOTONIC, &w0);
    unsigned long t0 = __rdtsc();
    for (int t = 0; t < T; t++) {
        sweep(a, b, S, 1, R - 1);
        V *s = a;
        a = b;
        b = s;
    }
    double cycles = (double)(__rdtsc() - t0);
    clock_gettime(CLOCK_MONOTONIC, &w1);
    double secs = (double)(w1.tv_sec - w0.tv_sec) + 1e-9 * (double)(w1.tv_nsec - w0.tv_nsec);
    double vectors = (double)T * (R - 2) * S;
    printf("interleaved %dx%d (%zu KiB a buffer), %d sweeps: checked; %.2f "
           "TSC cycles a vector, %.2e CUpS on one core\n",
           W, R, bytes / 1024, T, cycles / vectors, vectors * 512 / secs);
    free(a);
    free(b);
    free(start);
    return 0;
}

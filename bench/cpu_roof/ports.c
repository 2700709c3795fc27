/* What the cpu backend's loops can reach on this machine: the throughput
 * of the instructions they issue, in TSC cycles (the clock `golgen bench`
 * times with), on every core at once.
 *
 * The emitted Life loop issues per 512-cell vector 8 vpternlogq, 2 vpshldq
 * and 1 valignq (gcc, session 20), plus register copies around the
 * destructive vpternlog. The AVX2 path (`--isa avx2`, the gate2 network)
 * issues per 256-bit vector 21 two-input logic ops (7 vpxor, 6 vpand,
 * 5 vpor, 3 vpandn: 14 final gates, 5 row gates, the two ORs of the
 * neighbour words) and 4 shifts, its neighbour words coming from unaligned
 * loads (its hot loop under perf, session 22). The portable path is the
 * same C; on an x86 with AVX gcc vectorizes it into the same mix on
 * 128-bit registers. Each mix keeps every instruction independent (the
 * VEX forms do not read their destination; vpternlog keeps 12 chains), so
 * it measures throughput, not latency. The roofs printed are the cells of
 * a vector per (ops x TSC cycles per op) per core, times the cores: the
 * most any loop with that mix can do with nothing else in its way.
 *
 *   cc -O2 -mavx512f -mavx512vbmi2 -pthread ports.c -o ports && ./ports [THREADS]
 *   (bench/cpu_roof.sh builds and runs it) */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
#include <x86intrin.h>

#define N 120000000L /* instructions per mix */

#define T(r) "vpternlogq $0x96, %%zmm20, %%zmm21, %%zmm" #r "\n"
#define S(r) "vpshldq $1, %%zmm20, %%zmm21, %%zmm" #r "\n"
#define A(r) "valignq $1, %%zmm20, %%zmm21, %%zmm" #r "\n"
#define M(r) "vmovdqa64 %%zmm2" #r ", %%zmm1" #r "\n"
/* 21 logic ops and 4 shifts: one vector of the gate2 loop, on register
 * width w (ymm or xmm), destinations 0..11 round robin. */
#define LG(op, w, r) #op " %%" #w "14, %%" #w "15, %%" #w #r "\n"
#define SH(op, w, r) #op " $1, %%" #w "14, %%" #w #r "\n"
#define GATE2(w)                                                             \
    LG(vpxor, w, 0) LG(vpand, w, 1) LG(vpor, w, 2) LG(vpxor, w, 3)         \
    LG(vpandn, w, 4) LG(vpand, w, 5) SH(vpsllq, w, 6) LG(vpxor, w, 7)      \
    LG(vpor, w, 8) LG(vpand, w, 9) LG(vpxor, w, 10) SH(vpsrlq, w, 11)      \
    LG(vpandn, w, 0) LG(vpor, w, 1) LG(vpand, w, 2) LG(vpxor, w, 3)        \
    SH(vpsllq, w, 4) LG(vpor, w, 5) LG(vpand, w, 6) LG(vpxor, w, 7)        \
    LG(vpandn, w, 8) LG(vpor, w, 9) SH(vpsrlq, w, 10) LG(vpand, w, 11)     \
    LG(vpxor, w, 0)
#define LOOP(body)                                                          \
    "mov %0, %%rcx\n1:\n" body "dec %%rcx\njnz 1b\n"

typedef struct mix {
    const char *name;
    int counted; /* the ports' instructions per iteration: the divisor */
    double cycles; /* result: TSC cycles per counted instruction */
} mix;

static mix mixes[] = {
    {"12 vpternlogq", 12, 0},
    {"12 vpshldq", 12, 0},
    {"12 valignq", 12, 0},
    {"12 vpternlogq + 6 zmm copies", 12, 0},
    {"8 vpternlogq 2 vpshldq 1 valignq", 11, 0},
    {"ymm: 21 logic + 4 shifts (AVX2 path)", 25, 0},
    {"xmm: 21 logic + 4 shifts (portable)", 25, 0},
};

enum { MIX_AVX512 = 4, MIX_AVX2 = 5, MIX_XMM = 6 };

static double run_mix(int i)
{
    long iters = N / mixes[i].counted;
    unsigned long t0 = __rdtsc();
    switch (i) {
    case 0:
        __asm__ volatile(LOOP(T(0) T(1) T(2) T(3) T(4) T(5) T(6) T(7) T(8)
                                  T(9) T(10) T(11))
                         : : "r"(iters) : "rcx", "memory");
        break;
    case 1:
        __asm__ volatile(LOOP(S(0) S(1) S(2) S(3) S(4) S(5) S(6) S(7) S(8)
                                  S(9) S(10) S(11))
                         : : "r"(iters) : "rcx", "memory");
        break;
    case 2:
        __asm__ volatile(LOOP(A(0) A(1) A(2) A(3) A(4) A(5) A(6) A(7) A(8)
                                  A(9) A(10) A(11))
                         : : "r"(iters) : "rcx", "memory");
        break;
    case 3: /* copies into registers nothing else reads */
        __asm__ volatile(LOOP(M(2) T(0) T(1) M(3) T(2) T(3) M(4) T(4) T(5)
                                  M(5) T(6) T(7) M(6) T(8) T(9) M(7) T(10)
                                  T(11))
                         : : "r"(iters) : "rcx", "memory");
        break;
    case MIX_AVX512:
        __asm__ volatile(LOOP(T(0) T(1) S(2) T(3) T(4) A(5) T(6) T(7) S(8)
                                  T(9) T(10))
                         : : "r"(iters) : "rcx", "memory");
        break;
    case MIX_AVX2:
        __asm__ volatile(LOOP(GATE2(ymm)) : : "r"(iters) : "rcx", "memory");
        break;
    default:
        __asm__ volatile(LOOP(GATE2(xmm)) : : "r"(iters) : "rcx", "memory");
    }
    return (double)(__rdtsc() - t0) / (double)(iters * mixes[i].counted);
}

static pthread_barrier_t start;

#define REPEATS 3

/* Every thread runs every mix at the same moment as the others, so each
 * figure is what one core does while all of them are busy. One untimed
 * mix first: the first AVX-512 code after idling runs slower while the
 * core changes its clock; the best of REPEATS rounds, since what disturbs
 * a shared VM only ever slows it. */
static void *worker(void *arg)
{
    double *out = arg;
    size_t n = sizeof mixes / sizeof *mixes;
    pthread_barrier_wait(&start);
    run_mix(0);
    for (int rep = 0; rep < REPEATS; rep++)
        for (size_t i = 0; i < n; i++) {
            pthread_barrier_wait(&start);
            double c = run_mix((int)i);
            out[i] = rep == 0 || c < out[i] ? c : out[i];
        }
    return NULL;
}

int main(int argc, char **argv)
{
    int threads = argc > 1 ? atoi(argv[1]) : 1;
    if (threads < 1 || threads > 256) {
        fprintf(stderr, "usage: ports [THREADS 1..256]\n");
        return 2;
    }
    if (!__builtin_cpu_supports("avx512f") ||
        !__builtin_cpu_supports("avx512vbmi2")) {
        fprintf(stderr, "ports: this CPU lacks AVX-512 (F and VBMI2): the "
                        "cpu backend runs its AVX2 path here\n");
        return 2;
    }
    size_t n = sizeof mixes / sizeof *mixes;
    double(*res)[8] = calloc((size_t)threads, sizeof *res);
    pthread_t *tid = calloc((size_t)threads, sizeof *tid);
    if (!res || !tid)
        return 2;
    pthread_barrier_init(&start, NULL, (unsigned)threads);
    for (int t = 0; t < threads; t++)
        pthread_create(&tid[t], NULL, worker, res[t]);
    for (int t = 0; t < threads; t++)
        pthread_join(tid[t], NULL);
    double tsc = 0;
    FILE *f = fopen("/proc/cpuinfo", "r");
    char line[256];
    while (f && fgets(line, sizeof line, f))
        if (sscanf(line, "cpu MHz : %lf", &tsc) == 1)
            break;
    if (f)
        fclose(f);
    printf("%d thread%s at once; TSC cycles per instruction (slowest "
           "thread):\n", threads, threads == 1 ? "" : "s");
    for (size_t i = 0; i < n; i++) {
        double worst = 0;
        for (int t = 0; t < threads; t++)
            worst = res[t][i] > worst ? res[t][i] : worst;
        mixes[i].cycles = worst;
        printf("  %-34s %.3f\n", mixes[i].name, worst);
    }
    if (tsc > 0) {
        double per_op = mixes[MIX_AVX512].cycles;
        printf("roofs at %.0f MHz TSC x %d core%s, %.3f cycles an op:\n", tsc,
               threads, threads == 1 ? "" : "s", per_op);
        const int ops[] = {11, 10, 8};
        const char *what[] = {"today's loop (8 + 2 shifts + 1 align)",
                              "shifts from loads (8 + 2)",
                              "interleaved layout (8, no shifts)"};
        for (int i = 0; i < 3; i++)
            printf("  %-38s %2d ops a vector: %.2e CUpS\n", what[i], ops[i],
                   512.0 * tsc * 1e6 / (ops[i] * per_op) * threads);
        const int narrow[] = {MIX_AVX2, MIX_XMM}, bits[] = {256, 128};
        const char *nwhat[] = {"AVX2 path (gate2, 21 + 4 shifts)",
                               "portable path (xmm, 21 + 4 shifts)"};
        for (int i = 0; i < 2; i++)
            printf("  %-38s %2d ops a vector: %.2e CUpS\n", nwhat[i], 25,
                   bits[i] * tsc * 1e6 /
                       (25 * mixes[narrow[i]].cycles) * threads);
    }
    free(res);
    free(tid);
    return 0;
}

/* The GPU emitters without a GPU: every emitted CUDA kernel compiles with
 * NVRTC for sm_90, every emitted PTX module assembles with ptxas
 * -arch=sm_90 (Moore, von Neumann and hex rules; both shift flavours;
 * several generations per launch), the PTX holds the network as lop3.b32,
 * and the CLI prints them. Skips with a message when the CUDA toolkit is
 * absent (NVRTC: GOLGEN_NVRTC or the usual names; ptxas: GOLGEN_PTXAS or
 * /usr/local/cuda/bin/ptxas or PATH). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "test_util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "gpu_tune.h"
#include "cuda_backend.h"
#include "emit_cuda.h"
#include "emit_net.h"
#include "emit_opencl.h"
#include "emit_ptx.h"
#include "kernel_source.h"
#include "ptxas.h"

static const char *const rules[] = {"B3/S23", "B36/S23", "B3678/S34678",
                                    "B2/S", "B2/S013V", "B245/S3H"};
#define N_RULES (sizeof rules / sizeof *rules)

/* NVRTC present? Compile a trivial kernel once. */
static bool have_nvrtc(void)
{
    static int state = -1;
    if (state < 0) {
        char *out = NULL;
        size_t len;
        gg_fail_kind why;
        gg_err err;
        int bad = gg_nvrtc_compile(getenv("GOLGEN_NVRTC"),
                                   "extern \"C\" __global__ void k() {}",
                                   "compute_75", false, NULL, 0, &out, &len,
                                   &why, &err);
        free(out);
        state = !bad;
        if (bad)
            print_message("NVRTC unavailable (%s); CUDA compile tests "
                          "skipped\n", err.msg);
    }
    return state;
}

/* The cubin of src with three -D options (malloc'd). */
static char *compile_cuda(const char *src, const char *t, const char *imad,
                          const char *ns, size_t *len)
{
    const char *opts[3] = {t, imad, ns};
    char *out = NULL;
    gg_fail_kind why;
    gg_err err;
    *len = 0;
    if (gg_nvrtc_compile(getenv("GOLGEN_NVRTC"), src, "sm_90", true, opts, 3,
                         &out, len, &why, &err))
        fail_msg("%s %s %s: %s", t, imad, ns, err.msg);
    assert_true(*len > 1000);
    return out;
}

/* The PTX NVRTC makes of src with these options, or NULL when it refuses
 * them (err says why). */
static char *cuda_ptx(const char *src, const char *const *opts, int n,
                      gg_err *err)
{
    char *out = NULL;
    size_t len;
    gg_fail_kind why;
    if (gg_nvrtc_compile(getenv("GOLGEN_NVRTC"), src, "compute_90", false,
                         opts, n, &out, &len, &why, err))
        return NULL;
    return out;
}

/* How many times s occurs in text. */
static int count_of(const char *text, const char *s)
{
    int n = 0;
    for (const char *p = strstr(text, s); p; p = strstr(p + 1, s))
        n++;
    return n;
}

/* Six-tick turns, rows warmed in L1 and the constant row stride: the
 * steady turn's loads, prefetches and stores sit at constant offsets of
 * whole rows (stride 2078 words = 8312 bytes) from two pointers, and the
 * template refuses shapes it cannot run. */
static void test_cuda_turn_warm(void **state)
{
    (void)state;
    if (!have_nvrtc())
        skip();
    gg_rule r = gg_test_rule("B3/S23");
    char *src;
    size_t len;
    gg_err err;
    if (gg_kernel_cuda(&r, NULL, &src, &len, &err))
        fail_msg("%s", err.msg);
    const char *k6[] = {"-DGG_T=4", "-DGG_SHIFT_IMAD=0", "-DGG_PF=2",
                        "-DGG_TURN=6", "-DGG_WARM=6", "-DGG_NS=2078"};
    char *ptx = cuda_ptx(src, k6, 6, &err);
    if (!ptx)
        fail_msg("%s", err.msg);
    /* tick K of a turn warms row K + 4 past the pointer's (bytes
     * (K + 4) * 8312) and stores row K (K * 8312; half-words + 2) */
    char want[64];
    for (int k = 0; k < 6; k++) {
        snprintf(want, sizeof want, "+%d];", (k + 4) * 8312);
        assert_true(count_of(ptx, want) >= 1);
        if (k > 0) {
            snprintf(want, sizeof want, "+%d], ", k * 8312);
            assert_true(count_of(ptx, want) >= 2); /* 32- and low 16-bit */
            snprintf(want, sizeof want, "+%d], ", k * 8312 + 2);
            assert_true(count_of(ptx, want) >= 1);
        }
    }
    assert_true(count_of(ptx, "prefetch.global.L1") >= 6);
    assert_non_null(strstr(ptx, "trap;")); /* another stride traps */
    free(ptx);
    /* the generic stride warms rows too, through a computed address */
    const char *g6[] = {"-DGG_T=4", "-DGG_PF=2", "-DGG_TURN=6",
                        "-DGG_WARM=8"};
    ptx = cuda_ptx(src, g6, 4, &err);
    if (!ptx)
        fail_msg("%s", err.msg);
    assert_true(count_of(ptx, "prefetch.global.L1") >= 6);
    assert_null(strstr(ptx, "trap;"));
    free(ptx);
    /* refused: a turn of 4 ticks, warming no further than the loads */
    const char *bad1[] = {"-DGG_T=4", "-DGG_TURN=4"};
    const char *bad2[] = {"-DGG_T=4", "-DGG_PF=2", "-DGG_WARM=2"};
    assert_null(cuda_ptx(src, bad1, 2, &err));
    assert_non_null(strstr(err.msg, "GG_TURN"));
    assert_null(cuda_ptx(src, bad2, 3, &err));
    assert_non_null(strstr(err.msg, "GG_WARM"));
    free(src);
}

static void test_cuda_nvrtc(void **state)
{
    (void)state;
    if (!have_nvrtc())
        skip();
    for (size_t i = 0; i < N_RULES; i++) {
        gg_rule r = gg_test_rule(rules[i]);
        char *src;
        size_t len;
        gg_err err;
        if (gg_kernel_cuda(&r, NULL, &src, &len, &err))
            fail_msg("%s: %s", rules[i], err.msg);
        assert_non_null(strstr(src, "lop3.b32"));
        /* The full pipeline for the Moore, von Neumann and hex shapes,
         * shorter ones for the rest (compile time). */
        bool full = i == 0 || i == 4 || i == 5;
        const char *t = full ? "-DGG_T=16" : "-DGG_T=4";
        const char *imad = i % 2 ? "-DGG_SHIFT_IMAD=0" : "-DGG_SHIFT_IMAD=1";
        size_t n, nk;
        char *bin = compile_cuda(src, t, imad, "-DGG_GENERIC_NS=1", &n);
        if (i == 0) { /* the row stride as a constant is another kernel */
            char *k = compile_cuda(src, t, imad, "-DGG_NS=2078", &nk);
            assert_true(n != nk || memcmp(bin, k, n));
            free(k);
        }
        free(bin);
        free(src);
    }
}

static const char *ptxas_path(void)
{
    const char *env = getenv("GOLGEN_PTXAS");
    if (env)
        return access(env, X_OK) ? NULL : env;
    if (!access("/usr/local/cuda/bin/ptxas", X_OK))
        return "/usr/local/cuda/bin/ptxas";
    return system("command -v ptxas >/dev/null 2>&1") == 0 ? "ptxas" : NULL;
}

/* ptxas -arch=sm_90 on the module; fails the test on any error. */
static void assemble(const char *ptxas, const char *src, size_t len,
                     const char *what)
{
    char in[] = "/tmp/gg-test-ptx-XXXXXX";
    int fd = mkstemp(in);
    assert_true(fd >= 0);
    assert_int_equal(write(fd, src, len), (ssize_t)len);
    close(fd);
    char cmd[600];
    snprintf(cmd, sizeof cmd, "'%s' -arch=sm_90 -o /dev/null '%s' 2>&1",
             ptxas, in);
    FILE *p = popen(cmd, "r");
    assert_non_null(p);
    char out[2000] = "";
    size_t n = fread(out, 1, sizeof out - 1, p);
    out[n] = 0;
    int status = pclose(p);
    unlink(in);
    if (status != 0)
        fail_msg("ptxas rejected the %s module: %s", what, out);
}

static void test_ptx_ptxas(void **state)
{
    (void)state;
    const char *ptxas = ptxas_path();
    if (!ptxas) {
        print_message("ptxas not found; PTX assembly tests skipped\n");
        skip();
    }
    for (size_t i = 0; i < N_RULES; i++) {
        gg_rule r = gg_test_rule(rules[i]);
        /* interleaved levels: none, pairs, all of them */
        int ilv = i % 3 == 0 ? 0 : i % 3 == 1 ? 2 : 17;
        gg_ptx_opts o = {.tmax = i == 0 || i == 4 ? 16 : 4,
                         .funnel = i % 2 == 1, .wpb = 4, .ilv = ilv,
                         .wpl = 1};
        char *src;
        size_t len;
        gg_err err;
        if (gg_kernel_ptx(&r, &o, NULL, &src, &len, &err))
            fail_msg("%s: %s", rules[i], err.msg);
        assert_non_null(strstr(src, ".visible .entry gg_step_1("));
        assert_non_null(strstr(src, ".visible .entry gg_ghost("));
        assert_non_null(strstr(src, "lop3.b32"));
        assemble(ptxas, src, len, rules[i]);
        free(src);
    }
}

/* A module split for side-by-side ptxas runs: gg_step_16, gg_step_8 and
 * the rest, each part headed by the module's text before its first entry
 * and every entry in exactly one part; a T8 module has two parts. */
static void test_ptx_split(void **state)
{
    (void)state;
    gg_rule r = gg_test_rule("B36/S23");
    static const char *const entries[] = {"gg_ghost(", "gg_step_1(",
                                          "gg_step_2(", "gg_step_4(",
                                          "gg_step_8(", "gg_step_16("};
    static const int part16[] = {2, 2, 2, 2, 1, 0}, part8[] = {1, 1, 1, 1, 0};
    for (int tmax = 8; tmax <= 16; tmax *= 2) {
        gg_ptx_opts o = {.tmax = tmax, .funnel = true, .wpb = 4, .wpl = 1};
        char *src, *part[GG_PTXAS_PARTS];
        size_t len;
        gg_err err;
        if (gg_kernel_ptx(&r, &o, NULL, &src, &len, &err))
            fail_msg("%s", err.msg);
        int n = gg_ptxas_split(src, part);
        assert_int_equal(n, tmax == 16 ? 3 : 2);
        size_t head = (size_t)(strstr(src, ".visible .entry") - src), sum = 0;
        for (int k = 0; k < n; k++) {
            assert_memory_equal(part[k], src, head);
            sum += strlen(part[k]) - head;
        }
        assert_int_equal(sum, len - head);
        for (int e = 0; e < (tmax == 16 ? 6 : 5); e++) {
            char want[64];
            snprintf(want, sizeof want, ".visible .entry %s", entries[e]);
            int in = tmax == 16 ? part16[e] : part8[e];
            for (int k = 0; k < n; k++)
                assert_int_equal(strstr(part[k], want) != NULL, k == in);
        }
        for (int k = 0; k < n; k++)
            free(part[k]);
        free(src);
    }
    char *one[GG_PTXAS_PARTS];
    assert_int_equal(gg_ptxas_split("// no entries\n", one), 1);
    assert_string_equal(one[0], "// no entries\n");
    free(one[0]);
}

/* gg_ptxas_compile runs the given ptxas on every source whose cubin is
 * missing, keeps what it writes only when it succeeds, and leaves cached
 * ones alone. The ptxas here is a script (this machine has no CUDA
 * toolkit): it copies its input, and fails on sources that say FAIL. */
static void test_ptxas_compile(void **state)
{
    (void)state;
    char dir[4200], tool[4300], log[4300];
    snprintf(dir, sizeof dir, "%s/ptxas-cache", gg_test_dir);
    snprintf(tool, sizeof tool, "%s/fake-ptxas", gg_test_dir);
    snprintf(log, sizeof log, "%s/ptxas-runs", gg_test_dir);
    assert_int_equal(mkdir(dir, 0777), 0);
    FILE *f = fopen(tool, "w");
    assert_non_null(f);
    fprintf(f, "#!/bin/sh\n# -arch=sm_NN -o OUT IN\necho run >> '%s'\n"
            "grep -q FAIL \"$4\" && exit 1\ncp \"$4\" \"$3\"\n", log);
    fclose(f);
    assert_int_equal(chmod(tool, 0755), 0);
    const char *src[] = {"module one\n", "module two FAIL\n",
                         "module three\n", "module four\n", "module five\n"};
    gg_err err;
    assert_int_equal(gg_ptxas_compile(tool, dir, 90, src, 5, &err), 0);
    for (int i = 0; i < 5; i++) {
        char path[4200], got[64] = "";
        gg_ptxas_cubin_path(dir, 90, src[i], path, sizeof path);
        FILE *c = fopen(path, "r");
        assert_int_equal(c != NULL, i != 1);
        if (c) {
            assert_non_null(fgets(got, sizeof got, c));
            assert_string_equal(got, src[i]);
            fclose(c);
        }
    }
    /* a second call compiles only the one that failed */
    assert_int_equal(gg_ptxas_compile(tool, dir, 90, src, 5, &err), 0);
    char cmd[4400];
    snprintf(cmd, sizeof cmd, "test $(wc -l < '%s') -eq 6", log);
    assert_int_equal(gg_test_status(cmd), 0);
    /* another architecture is another cubin */
    char a[4200], b[4200];
    gg_ptxas_cubin_path(dir, 90, src[0], a, sizeof a);
    gg_ptxas_cubin_path(dir, 80, src[0], b, sizeof b);
    assert_string_not_equal(a, b);
    /* a ptxas that cannot be started is an error naming it */
    assert_int_equal(gg_ptxas_compile("/nonexistent/ptxas", dir, 90, src + 1,
                                      1, &err), -1);
    assert_non_null(strstr(err.msg, "/nonexistent/ptxas"));
    char found[4200];
    assert_false(gg_ptxas_find("off", found, sizeof found));
    assert_true(gg_ptxas_find(tool, found, sizeof found));
}

/* The rowsum-lr front (L and R of the middle row as row features) emits
 * for both GPU targets and assembles. */
static void test_rowsum_lr(void **state)
{
    (void)state;
    gg_rule r = gg_test_rule("B3/S23");
    char *src;
    size_t len;
    gg_err err;
    gg_choose_opts lr = {.gpu_front = GG_GPU_FRONT_ROWSUM_LR};
    int bad = gg_kernel_cuda(&r, &lr, &src, &len, &err);
    if (bad)
        fail_msg("cuda: %s", err.msg);
    assert_non_null(strstr(src, "rowsum-lr front"));
    assert_non_null(strstr(src, "/* L */"));
    free(src);
    const char *ptxas = ptxas_path();
    gg_ptx_opts o = {.tmax = 4, .funnel = true, .wpb = 4, .ilv = 5, .wpl = 1};
    bad = gg_kernel_ptx(&r, &o, &lr, &src, &len, &err);
    if (bad)
        fail_msg("ptx: %s", err.msg);
    if (ptxas)
        assemble(ptxas, src, len, "rowsum-lr");
    free(src);
}

static size_t count(const char *src, const char *what)
{
    size_t n = 0;
    for (const char *q = src; (q = strstr(q, what)); q++)
        n++;
    return n;
}

/* The module for rule_text with options a in *sa (length *la) and with
 * options b in *sb; fails the test if either is refused. */
static void emit_two(const char *rule_text, const gg_ptx_opts *a,
                     const gg_ptx_opts *b, char **sa, size_t *la, char **sb)
{
    gg_rule r = gg_test_rule(rule_text);
    size_t lb;
    gg_err err;
    if (gg_kernel_ptx(&r, a, NULL, sa, la, &err) ||
        gg_kernel_ptx(&r, b, NULL, sb, &lb, &err))
        fail_msg("%s: %s", rule_text, err.msg);
}

/* The GPU kernel plan (row net and final stage) the emitters use for
 * rule_text. */
static gg_kplan plan_of(const char *rule_text)
{
    gg_rule r = gg_test_rule(rule_text);
    gg_circuit *c = malloc(sizeof *c);
    gg_kplan p;
    gg_err err;
    assert_non_null(c);
    assert_int_equal(gg_choose_gpu_circuit(&r, NULL, c, &err), 0);
    assert_int_equal(gg_kplan_build(c, &p, &err), 0);
    free(c);
    return p;
}

/* Emitting Life with options o fails, naming why. */
static void assert_refused(const gg_ptx_opts *o, const char *why)
{
    gg_rule r = gg_test_rule("B3/S23");
    char *src;
    size_t len;
    gg_err err;
    assert_int_equal(gg_kernel_ptx(&r, o, NULL, &src, &len, &err), -1);
    assert_non_null(strstr(err.msg, why));
}

/* Powers of two only, up to 16. */
static void test_ptx_bad_tmax(void **state)
{
    (void)state;
    gg_rule r = gg_test_rule("B3/S23");
    char *src;
    size_t len;
    gg_err err;
    gg_ptx_opts o = {.tmax = 12, .wpb = 4, .wpl = 1};
    assert_int_equal(gg_kernel_ptx(&r, &o, NULL, &src, &len, &err), -1);
    assert_non_null(strstr(err.msg, "power of two"));
    o.tmax = 32;
    assert_int_equal(gg_kernel_ptx(&r, &o, NULL, &src, &len, &err), -1);
    /* words per lane: 1, 2 or 4, several only with funnel shifts */
    gg_ptx_opts w = {.tmax = 8, .funnel = true, .wpb = 4, .wpl = 3};
    assert_int_equal(gg_kernel_ptx(&r, &w, NULL, &src, &len, &err), -1);
    assert_non_null(strstr(err.msg, "words per lane"));
    w.wpl = 2;
    w.funnel = false;
    assert_int_equal(gg_kernel_ptx(&r, &w, NULL, &src, &len, &err), -1);
    assert_non_null(strstr(err.msg, "funnel"));
}

/* Two and four words per lane: one shuffle pair per level for all of a
 * lane's words (half / a quarter of the one-word kernel's), the words'
 * networks interleaved; assembles for sm_90 (several rules, both fronts'
 * shapes: Life, HighLife, Seeds). */
static void test_ptx_words_per_lane(void **state)
{
    (void)state;
    static const char *const wr[] = {"B3/S23", "B36/S23", "B2/S",
                                     "B3678/S34678"};
    const char *ptxas = ptxas_path();
    for (int i = 0; i < 4; i++) {
        gg_rule r = gg_test_rule(wr[i]);
        gg_ptx_opts o = {.tmax = i == 3 ? 4 : 8, .funnel = true, .wpb = 4,
                         .ilv = i == 2 ? 3 : 0, .wpl = i == 3 ? 4 : 2};
        char *src, *one;
        size_t len, len1;
        gg_err err;
        if (gg_kernel_ptx(&r, &o, NULL, &src, &len, &err))
            fail_msg("%s wpl %d: %s", wr[i], o.wpl, err.msg);
        o.wpl = 1;
        if (gg_kernel_ptx(&r, &o, NULL, &one, &len1, &err))
            fail_msg("%s: %s", wr[i], err.msg);
        /* the same shuffles, wpl times the gates */
        size_t shfl = 0, shfl1 = 0, lop = 0, lop1 = 0;
        for (const char *q = src; (q = strstr(q, "shfl.sync")); q++)
            shfl++;
        for (const char *q = one; (q = strstr(q, "shfl.sync")); q++)
            shfl1++;
        for (const char *q = src; (q = strstr(q, "lop3.b32")); q++)
            lop++;
        for (const char *q = one; (q = strstr(q, "lop3.b32")); q++)
            lop1++;
        assert_true(shfl > 0 && lop1 > 0);
        assert_int_equal(shfl, shfl1);
        assert_int_equal(lop, lop1 * (size_t)(i == 3 ? 4 : 2));
        assert_non_null(strstr(src, "mad.lo.s32 %s15, %s14, "));
        assert_non_null(strstr(src, i == 3 ? "%kw3" : "%kw1"));
        if (ptxas)
            assemble(ptxas, src, len, wr[i]);
        free(src);
        free(one);
    }
}

/* The interior copy (no wrap, no load guard; fill, steady and last
 * ticks) and multiply-add shifts for a share of the levels: the interior
 * copy takes the place of the wrapping loop (every task that is not a
 * plane edge runs it, reading the device layout's ghost rows), so it has
 * 8 ticks of the loop's gates where that loop had 3 (gg_step_T: the
 * fill's 3 ticks, the steady 3, the last 2);
 * each level with multiply-add shifts trades two funnel shifts for four
 * multiplies; the module assembles for sm_90. (Results are checked on
 * the device, which validates every kernel on grids with interior
 * tasks.) */
static void test_ptx_inner_fma(void **state)
{
    (void)state;
    static const char *const fr[] = {"B3/S23", "B36/S23", "B2/S"};
    const char *ptxas = ptxas_path();
    for (int i = 0; i < 3; i++) {
        gg_ptx_opts o = {.tmax = 16, .funnel = true, .wpb = 4, .wpl = 1,
                         .maxnreg = 168, .prefetch = 3, .loopfill = 1},
                    n = o;
        n.inner = 1;
        n.fma = i * 8; /* none, half, all */
        char *src, *base;
        size_t len;
        emit_two(fr[i], &n, &o, &src, &len, &base);
        assert_null(strstr(base, "STEADY_C:"));
        assert_non_null(strstr(base, "LOOP_A:"));
        assert_null(strstr(src, "LOOP_A:"));
        /* plane edges: the masked copy with its row-store predicates */
        assert_non_null(strstr(src, "LOOP_B:"));
        assert_int_equal(2 * count(src, "and.pred %ps1, %ps, %stfull;"),
                         count(base, "and.pred %ps1, %ps, %stfull;"));
        assert_non_null(strstr(src, "STEADY_C:"));
        assert_non_null(strstr(src, "FILL_C:"));
        /* the interior stores need no row predicate */
        assert_non_null(strstr(src, "mad.wide.s32 %rs, %yb, %ns4, %outq;"));
        gg_kplan p = plan_of(fr[i]);
        /* per entry gg_step_T (T = 1 .. 16): the interior copy's 8 ticks
         * of T final stages and T pushing levels instead of the wrapping
         * loop's 3; nf of the pushing levels shift by multiply-adds in
         * both copies (3 + 8 ticks) */
        size_t extra = 0, fma = 0, shf = count(base, "shf.l.wrap.b32 %w");
        for (int t = 1; t <= 16; t *= 2) {
            extra += (size_t)(5 * t * (p.final.n_gates + p.row.n_gates));
            size_t nf = (size_t)((n.fma * t + 8) / 16);
            fma += 11 * nf;
            shf += 5 * (size_t)t - 11 * nf;
        }
        assert_int_equal(count(src, "lop3.b32"),
                         count(base, "lop3.b32") + extra);
        assert_int_equal(count(src, "mad.hi.u32 %w"), fma);
        assert_int_equal(count(src, "shf.l.wrap.b32 %w"), shf);
        if (ptxas)
            assemble(ptxas, src, len, fr[i]);
        free(src);
        free(base);
    }
    gg_ptx_opts bad = {.tmax = 16, .funnel = true, .wpb = 4, .wpl = 1,
                       .fma = 17, .inner = 1};
    assert_refused(&bad, "multiply-add");
}

/* Six-tick turns of the interior loop: the steady loop holds six ticks
 * and up to five follow it (three and two with three-tick turns), the
 * same gates per tick, the masked copy unchanged; assemble for sm_90.
 * (Their results are checked on the device by the runtime's validation,
 * which has strips of every remainder modulo six.) */
static void test_ptx_turn6(void **state)
{
    (void)state;
    static const char *const tr[] = {"B3/S23", "B3678/S34678"};
    const char *ptxas = ptxas_path();
    for (int i = 0; i < 2; i++) {
        gg_ptx_opts o = gg_ptx_tuned(16, true, 4, 1), n;
        o.loopfill = 1;
        n = o;
        n.turn = 6;
        char *src, *base;
        size_t len;
        emit_two(tr[i], &n, &o, &src, &len, &base);
        /* per entry: the fill, steady and masked loops */
        assert_int_equal(count(base, "add.s32 %tk, %tk, 3;"), 3 * 5);
        assert_int_equal(count(src, "add.s32 %tk, %tk, 6;"), 5);
        assert_int_equal(count(src, "add.s32 %tk, %tk, 3;"), 2 * 5);
        assert_int_equal(count(src, "LOOP_B:"), count(base, "LOOP_B:"));
        gg_kplan p = plan_of(tr[i]);
        /* per entry gg_step_T: 14 ticks of the interior copy instead of
         * 8, each with T final stages and T pushing levels */
        size_t extra = 0;
        for (int t = 1; t <= 16; t *= 2)
            extra += (size_t)(6 * t * (p.final.n_gates + p.row.n_gates));
        assert_int_equal(count(src, "lop3.b32"),
                         count(base, "lop3.b32") + extra);
        if (ptxas)
            assemble(ptxas, src, len, tr[i]);
        free(src);
        free(base);
    }
    gg_ptx_opts bad = gg_ptx_tuned(16, true, 4, 1);
    bad.turn = 4;
    assert_refused(&bad, "ticks per loop turn");
}

/* A constant row stride (kstride) and rows warmed in L1 (warm): each
 * entry refuses another stride (trap), its steady turn loads, warms and
 * stores at constant offsets from two pointers set once per turn, so the
 * per-tick address arithmetic of the six steady ticks goes; the rest of
 * the interior copy keeps it and warms too. */
static void test_ptx_kstride_warm(void **state)
{
    (void)state;
    const char *ptxas = ptxas_path();
    gg_ptx_opts o = gg_ptx_tuned(16, true, 4, 1), k;
    o.turn = 6;
    o.warm = 8; /* prefetch stays 3 */
    k = o;
    k.kstride = 2078;
    char *src, *base, want[64];
    size_t len;
    emit_two("B3/S23", &k, &o, &src, &len, &base);
    assert_int_equal(count(src, "setp.ne.u32 %p7, %s0, 2078;"), 5);
    assert_int_equal(count(base, "@%p7 trap;"), 0);
    assert_int_equal(count(src, "ld.global.nc.u32 %nq2, [%ra0+"), 6 * 5);
    assert_int_equal(count(src, "prefetch.global.L1 [%ra0+"), 6 * 5);
    for (int tk = 0; tk < 6; tk++) { /* rows tk + 3 and tk + 8 */
        snprintf(want, sizeof want, "ld.global.nc.u32 %%nq2, [%%ra0+%d];",
                 tk * 4 * 2078);
        assert_int_equal(count(src, want), 5);
        snprintf(want, sizeof want, "prefetch.global.L1 [%%ra0+%d];",
                 (tk + 5) * 4 * 2078);
        assert_int_equal(count(src, want), 5);
    }
    assert_int_equal(count(src, "mad.wide.s32 %rs, %yb"),
                     count(base, "mad.wide.s32 %rs, %yb") - 6 * 5);
    assert_int_equal(count(src, "mad.wide.s32 %ra, %yb"),
                     count(base, "mad.wide.s32 %ra, %yb") - 6 * 5);
    assert_int_equal(count(src, "prefetch.global.L1"),
                     count(base, "prefetch.global.L1"));
    assert_int_equal(count(src, "lop3.b32"), count(base, "lop3.b32"));
    if (ptxas)
        assemble(ptxas, src, len, "B3/S23 kstride");
    free(src);
    free(base);
    gg_ptx_opts bad = o;
    bad.warm = 3;
    assert_refused(&bad, "rows warmed ahead");
    bad = o;
    bad.kstride = GG_PTX_KSTRIDE_MAX + 1;
    assert_refused(&bad, "constant row stride");
}

/* The staged fill of the interior copy: ticks 3s .. 3s+2 run levels
 * 0 .. s, so each entry gg_step_T runs 3T(T+1)/2 fewer final stages and
 * 3T(T-1)/2 fewer row nets than the fill loop of every level (T turns of
 * 3 ticks, emitted once); straight-line, its code holds 3T(T-1)/2 final
 * stages and 3T(T+1)/2 row nets where the loop's held 3T of each. The
 * masked copy keeps its loop. (Results: the device's validation.) */
static void test_ptx_staged_fill(void **state)
{
    (void)state;
    const char *ptxas = ptxas_path();
    gg_ptx_opts o = gg_ptx_tuned(16, true, 4, 1), n = o;
    o.loopfill = 1;
    char *src, *base;
    size_t len;
    emit_two("B36/S23", &n, &o, &src, &len, &base);
    assert_int_equal(count(base, "FILL_C:"), 5);
    assert_int_equal(count(src, "FILL_C:"), 0);
    assert_int_equal(count(src, "// fill stage 15: levels 0 .. 15"), 1);
    assert_int_equal(count(src, "// fill stage 0: levels 0 .. 0"), 5);
    assert_int_equal(count(src, "LOOP_B:"), count(base, "LOOP_B:"));
    gg_kplan p = plan_of("B36/S23");
    long long more = 0, nf = p.final.n_gates, nr = p.row.n_gates;
    for (long long t = 1; t <= 16; t *= 2)
        more += (3 * t * (t - 1) / 2 - 3 * t) * nf +
                (3 * t * (t + 1) / 2 - 3 * t) * nr;
    assert_int_equal((long long)count(src, "lop3.b32"),
                     (long long)count(base, "lop3.b32") + more);
    if (ptxas)
        assemble(ptxas, src, len, "staged fill");
    free(src);
    free(base);
}

/* Chains of levels (level g reads the row level g-1 pushed this tick) and
 * rows loaded several ticks ahead: the same gates, a shorter pipeline
 * fill (T + lag(T) ticks, lag(16) = 20 with chains of 4, 32 without),
 * the load queue's registers; assemble for sm_90. Not with several words
 * per lane. (Their results are checked on the device: the runtime
 * validates every kernel it loads against the reference.) */
static void test_ptx_chain_prefetch(void **state)
{
    (void)state;
    static const char *const cr[] = {"B3/S23", "B36/S23", "B2/S"};
    const char *ptxas = ptxas_path();
    for (int i = 0; i < 3; i++) {
        gg_ptx_opts o = {.tmax = 16, .funnel = true, .wpb = 4, .wpl = 1}, c = o;
        c.chain = i == 2 ? 16 : 4;
        c.prefetch = i + 2;
        c.maxnreg = 168;
        char *src, *base;
        size_t len;
        emit_two(cr[i], &c, &o, &src, &len, &base);
        size_t lop = 0, lopb = 0;
        for (const char *q = src; (q = strstr(q, "lop3.b32")); q++)
            lop++;
        for (const char *q = base; (q = strstr(q, "lop3.b32")); q++)
            lopb++;
        assert_true(lopb > 0);
        assert_int_equal(lop, lopb);
        /* gg_step_16's fill: 16 + 20 (chains of 4), 16 + 17 (one chain) */
        assert_non_null(strstr(src, i == 2 ? "%nt, %s29, 33;"
                                           : "%nt, %s29, 36;"));
        assert_non_null(strstr(base, "%nt, %s29, 48;"));
        assert_non_null(strstr(src, "mov.b32 %cur, %nq0;"));
        assert_non_null(strstr(src, ".maxnreg 168"));
        assert_null(strstr(base, "%nq0;"));
        if (ptxas)
            assemble(ptxas, src, len, cr[i]);
        free(src);
        free(base);
    }
    gg_ptx_opts w = {.tmax = 8, .funnel = true, .wpb = 4, .wpl = 2, .chain = 4};
    assert_refused(&w, "chains");
    w.chain = 0;
    w.prefetch = 2;
    assert_refused(&w, "ahead");
}

static int kernel_ptx_base(const gg_rule *r, const gg_choose_opts *o,
                           char **src, size_t *len, gg_err *err)
{
    return gg_kernel_ptx(r, NULL, o, src, len, err);
}

/* Emission is deterministic (generated/ is reproducible byte for byte). */
static void test_deterministic(void **state)
{
    (void)state;
    gg_rule r = gg_test_rule("B36/S23");
    int (*emit[3])(const gg_rule *, const gg_choose_opts *, char **,
                   size_t *, gg_err *) = {gg_kernel_cuda, kernel_ptx_base,
                                          gg_kernel_opencl};
    for (int k = 0; k < 3; k++) {
        char *a, *b;
        size_t la, lb;
        gg_err err;
        assert_int_equal(emit[k](&r, NULL, &a, &la, &err), 0);
        assert_int_equal(emit[k](&r, NULL, &b, &lb, &err), 0);
        assert_int_equal(la, lb);
        assert_memory_equal(a, b, la);
        free(a);
        free(b);
    }
}

/* golgen --target ptx|cuda|opencl prints the kernel to stdout. */
static void test_cli(void **state)
{
    (void)state;
    const char *golgen = getenv("GG_GOLGEN");
    if (!golgen) {
        print_message("GG_GOLGEN not set; CLI test skipped\n");
        skip();
    }
    static const char *const targets[] = {"ptx", "cuda", "opencl"};
    static const char *const marks[] = {".entry gg_ghost", "GG_ENTRY(16)",
                                        "__kernel"};
    for (int i = 0; i < 3; i++) {
        char cmd[600], buf[1 << 16];
        snprintf(cmd, sizeof cmd, "'%s' --target %s --rule B3/S23", golgen,
                 targets[i]);
        FILE *p = popen(cmd, "r");
        assert_non_null(p);
        size_t n = fread(buf, 1, sizeof buf - 1, p);
        buf[n] = 0;
        while (fread(cmd, 1, sizeof cmd, p) > 0) {
        }
        assert_int_equal(pclose(p), 0);
        if (!strstr(buf, marks[i]))
            fail_msg("--target %s printed no kernel", targets[i]);
        assert_non_null(strstr(buf, "golgen"));
    }
}

/* GOLGEN_GPU_TUNE: 3 to 9 integers, else an error naming the variable
 * (sscanf used to drop "garbage" silently and take "16,1,4x"). */
static void test_tune_env_parse(void **state)
{
    (void)state;
    gg_gpu_tune t;
    gg_err err;
    assert_int_equal(gg_gpu_tune_parse("16,1,4", &t, &err), 0);
    assert_int_equal(t.tmax, 16);
    assert_int_equal(t.wpb, 4);
    assert_int_equal(t.wpl, 1); /* left out: one word per lane */
    assert_int_equal(gg_gpu_tune_parse("8,0,2,1,4,6,2,6", &t, &err), 0);
    assert_int_equal(t.fma, 4);
    assert_int_equal(t.warm, 6);
    assert_int_equal(t.nreg, 0); /* left out: the default cap */
    assert_int_equal(gg_gpu_tune_parse("16,1,4,1,0,6,3,8,255", &t, &err), 0);
    assert_int_equal(t.nreg, 255);
    assert_true(gg_gpu_tune_ok(&t));
    t.nreg = 32; /* parsed, but out of range: the backend refuses it */
    assert_false(gg_gpu_tune_ok(&t));
    /* a last ",generic" is the config's (no constant row stride) */
    assert_int_equal(gg_gpu_tune_parse("16,1,4,1,0,6,3,8,255,generic", &t,
                                       &err), 0);
    assert_int_equal(t.nreg, 255);
    assert_int_equal(gg_gpu_tune_parse("8,0,2,generic", &t, &err), 0);
    assert_int_equal(t.tmax, 8);
    static const char *bad[] = {"garbage", "16,1,4x", "16,1", "16,,4",
                                "16,1,4,", "1,2,3,4,5,6,7,8,9,10",
                                "99999999999,1,4", "generic",
                                "16,generic", "16,1,4,generic,1",
                                "16,1,4,genericx"};
    for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
        if (gg_gpu_tune_parse(bad[i], &t, &err) != -1)
            fail_msg("GOLGEN_GPU_TUNE='%s' was accepted", bad[i]);
        assert_non_null(strstr(err.msg, "GOLGEN_GPU_TUNE"));
    }
}

/* GOLGEN_GPU_TUNE's "generic", alone or as the last item, turns the
 * constant-stride module off (it was GOLGEN_GPU_KSTRIDE=0); alone it
 * leaves the shape to the autotuner. */
static void test_tune_env_generic(void **state)
{
    (void)state;
    static const struct {
        const char *env;
        bool kstride;
        const char *tune;
    } cases[] = {{NULL, true, NULL},
                 {"16,1,4", true, "16,1,4"},
                 {"generic", false, NULL},
                 {"16,1,4,generic", false, "16,1,4,generic"},
                 {"16,1,4,xgeneric", true, "16,1,4,xgeneric"}};
    for (size_t i = 0; i < sizeof cases / sizeof *cases; i++) {
        gg_config cfg;
        gg_err err;
        if (cases[i].env)
            setenv("GOLGEN_GPU_TUNE", cases[i].env, 1);
        else
            unsetenv("GOLGEN_GPU_TUNE");
        assert_int_equal(gg_config_from_env(&cfg, &err), 0);
        assert_int_equal(cfg.gpu_kstride, cases[i].kstride);
        if (cases[i].tune)
            assert_string_equal(cfg.gpu_tune, cases[i].tune);
        else
            assert_null(cfg.gpu_tune);
    }
    unsetenv("GOLGEN_GPU_TUNE");
}

/* The tuning cache keeps the PTX multiply-add share, loop turn and
 * register cap; a file from before those fields reads as 0; an
 * out-of-range share, turn, cap or launch shape is not taken (the backend
 * then tunes again). */
static void test_tune_cache(void **state)
{
    (void)state;
    char path[256];
    gg_gpu_tune t = {16, 1, 4, 1, 2, 6, 2, 6, 255}, r;
    gg_gpu_tune_save(gg_test_dir, 42, &t);
    assert_true(gg_gpu_tune_load(gg_test_dir, 42, &r));
    assert_int_equal(r.nreg, 255);
    assert_int_equal(r.tmax, 16);
    assert_int_equal(r.wpb, 4);
    assert_int_equal(r.fma, 2);
    assert_int_equal(r.turn, 6);
    assert_int_equal(r.pf, 2);
    assert_int_equal(r.warm, 6);
    static const struct {
        const char *text;
        bool ok;
        int fma, turn, warm, nreg;
    } files[] = {
        {"tmax 8 funnel 1 wpb 2 wpl 1\n", true, 0, 0, 0, 0},
        {"tmax 16 funnel 1 wpb 4 wpl 1 fma 0 turn 6 pf 3 warm 8 nreg 255\n",
         true, 0, 6, 8, 255},
        {"tmax 16 funnel 1 wpb 4 wpl 1 fma 0 turn 6 pf 3 warm 8 nreg 16\n",
         false, 0, 0, 0, 0},
        {"tmax 16 funnel 1 wpb 4 wpl 1 fma 0 turn 6 pf 3 warm 8\n", true, 0,
         6, 8, 0},
        {"tmax 16 funnel 1 wpb 4 wpl 1 fma 0 turn 6 pf 3 warm 3\n", false, 0,
         0, 0, 0},
        {"tmax 16 funnel 1 wpb 4 wpl 1 fma 0 turn 6 pf 0 warm 9\n", false, 0,
         0, 0, 0},
        {"tmax 16 funnel 1 wpb 4 wpl 1 fma 17\n", false, 0, 0, 0, 0},
        {"tmax 12 funnel 1 wpb 4 wpl 1 fma 2\n", false, 0, 0, 0, 0},
        {"tmax 16 funnel 1 wpb 4 wpl 1 fma 2\n", true, 2, 0, 0, 0},
        {"tmax 16 funnel 1 wpb 4 wpl 1 fma 0 turn 3\n", true, 0, 3, 0, 0},
        {"tmax 16 funnel 1 wpb 4 wpl 1 fma 0 turn 5\n", false, 0, 0, 0, 0},
    };
    for (size_t i = 0; i < sizeof files / sizeof *files; i++) {
        snprintf(path, sizeof path, "%s/gpu-tune-%016llx.txt", gg_test_dir,
                 7ull);
        FILE *f = fopen(path, "w");
        assert_non_null(f);
        fputs(files[i].text, f);
        fclose(f);
        bool ok = gg_gpu_tune_load(gg_test_dir, 7, &r);
        assert_int_equal(ok, files[i].ok);
        if (ok) {
            assert_int_equal(r.fma, files[i].fma);
            assert_int_equal(r.turn, files[i].turn);
            assert_int_equal(r.warm, files[i].warm);
            assert_int_equal(r.nreg, files[i].nreg);
        }
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_tune_cache),
        cmocka_unit_test(test_tune_env_parse),
        cmocka_unit_test(test_tune_env_generic),
        cmocka_unit_test(test_cuda_nvrtc),
        cmocka_unit_test(test_cuda_turn_warm),
        cmocka_unit_test(test_ptx_ptxas),
        cmocka_unit_test(test_ptx_turn6),
        cmocka_unit_test(test_ptx_staged_fill),
        cmocka_unit_test(test_ptx_kstride_warm),
        cmocka_unit_test(test_ptx_bad_tmax),
        cmocka_unit_test(test_ptx_words_per_lane),
        cmocka_unit_test(test_ptx_chain_prefetch),
        cmocka_unit_test(test_ptx_inner_fma),
        cmocka_unit_test(test_rowsum_lr),
        cmocka_unit_test(test_ptx_split),
        cmocka_unit_test(test_ptxas_compile),
        cmocka_unit_test(test_deterministic),
        cmocka_unit_test(test_cli),
    };
    return cmocka_run_group_tests(tests, gg_test_setup_dir,
                                  gg_test_teardown_dir);
}

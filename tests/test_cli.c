/* The golgen command line as a user meets it: exit statuses, one clear
 * line on stderr for each class of bad input, and no partial output. */
#include <setjmp.h>
#include <stdbool.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmocka.h>

#include "test_util.h"

static char dir[] = "/tmp/gg_cli_XXXXXX";
static char out_text[8192];

/* Run `golgen ARGS` in the temp dir; capture stdout+stderr; exit status. */
static int golgen(const char *args)
{
    const char *exe = getenv("GG_GOLGEN");
    char cmd[2048], log[256];
    snprintf(log, sizeof log, "%s/log", dir);
    snprintf(cmd, sizeof cmd, "cd '%s' && '%s' %s >'%s' 2>&1", dir, exe, args,
             log);
    int status = gg_test_status(cmd);
    FILE *f = fopen(log, "r");
    size_t n = f ? fread(out_text, 1, sizeof out_text - 1, f) : 0;
    out_text[n] = 0;
    if (f)
        fclose(f);
    return status;
}

static void write_file(const char *name, const char *text)
{
    char path[256];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "w");
    assert_non_null(f);
    fputs(text, f);
    fclose(f);
}

/* A w x h random soup as RLE, each cell alive with odds num/den, the same
 * for the same seed. */
static void write_soup(const char *name, int w, int h, uint64_t seed,
                       unsigned num, unsigned den)
{
    char *rle = malloc((size_t)(w + 1) * (size_t)h + 64);
    assert_non_null(rle);
    int n = sprintf(rle, "x = %d, y = %d\n", w, h);
    for (int y = 0; y < h; y++) {
        for (int x = 0; x < w; x++)
            rle[n++] = gg_test_xorshift(&seed) % den < num ? 'o' : 'b';
        rle[n++] = y < h - 1 ? '$' : '!';
    }
    rle[n] = 0;
    write_file(name, rle);
    free(rle);
}

/* A file of the temp dir, NUL-terminated (the caller frees it). */
static char *read_in(const char *d, const char *name)
{
    char path[256];
    snprintf(path, sizeof path, "%s/%s", d, name);
    char *text = gg_test_read_file(path, NULL);
    assert_non_null(text);
    return text;
}

static bool exists(const char *name)
{
    char path[256];
    struct stat st;
    snprintf(path, sizeof path, "%s/%s", dir, name);
    return stat(path, &st) == 0;
}

static void expect(const char *args, int status, const char *needle)
{
    int got = golgen(args);
    if (got != status || !strstr(out_text, needle))
        fail_msg("golgen %s: status %d (want %d), output:\n%s\n(want '%s')",
                 args, got, status, out_text, needle);
}

static int setup(void **state)
{
    (void)state;
    return mkdtemp(dir) && getenv("GG_GOLGEN") ? 0 : -1;
}

static int teardown(void **state)
{
    (void)state;
    return gg_test_rmtree(dir);
}

static void test_help_and_usage(void **state)
{
    (void)state;
    expect("--help", 0, "commands:");
    expect("", 2, "usage:");
    expect("frobnicate", 2, "unknown command 'frobnicate'");
    expect("run --help", 0, "--gens");
    expect("verify --help", 0, "--rule");
}

/* A rule without a cache entry still gets its kernel (exit 0), with a
 * note on how to get a smaller final stage; a cached rule gets no note. */
static void test_emit_uncached_note(void **state)
{
    (void)state;
    expect("--target ptx --rule B2/S345 -o b2s345.ptx", 0,
           "no cached lut3 network");
    assert_true(exists("b2s345.ptx"));
    expect("--target opencl --rule B2/S345 -o b2s345.cl", 0,
           "'golgen synth --rule B2/S345 --lib gate2'");
    assert_int_equal(golgen("--target ptx --rule B3/S23 -o life.ptx"), 0);
    assert_null(strstr(out_text, "note:"));
}

static void test_rule_command(void **state)
{
    (void)state;
    expect("rule 'b36/s23:t512,512'", 0, "B36/S23:T512,512");
    expect("rule 23/3", 0, "B3/S23");
    expect("rule B3/S23", 0, "96 care rows of 128");
    expect("rule B9/S23", 2, "column 2");
    expect("rule B5/S2V", 2, "0..4");
    /* Golly's tubes and Klein bottles are described (golgen run takes
     * them: tests/topo_oracle.py); a Klein bottle cannot be infinite */
    expect("rule B3/S23:T0,5", 0, "tube infinite x 5");
    expect("rule 'B3/S23:k40,20'", 0, "B3/S23:K40,20*");
    expect("rule 'B3/S23:K0*,5'", 2, "infinite (0) side");
}

static void test_verify_command(void **state)
{
    (void)state;
    expect("verify --rule B3/S23", 0, "PASS: all 512");
    expect("verify --rule B36/S23 --lib gate2", 0, "PASS");
    expect("verify --rule B2/S013V --front none", 0, "PASS: all 32");
    expect("verify --rule B245/S3H", 0, "PASS: all 128");
    expect("verify --rule B3/S23 --lib lut4", 2, "unknown gate library");
    expect("verify --rule B3/S23 --front diagonal", 2, "unknown front");
}

static void test_run_results(void **state)
{
    (void)state;
    expect("run --gens 1103 -o r.rle", 0, "population 116");
    assert_true(exists("r.rle"));
    /* Reading our own output back and running on: still 116. */
    expect("run --gens 100 -o r2.rle r.rle", 0, "generation 1203");
    expect("run --gens 100 r2.rle", 0, "population 116");
    write_file("glider.cells", "!Name: glider\n.O.\n..O\nOOO\n");
    expect("run --gens 40 --rule B3/S23:P8,8 glider.cells", 0,
           "population 4");
}

static void test_bad_input(void **state)
{
    (void)state;
    expect("run --gens -5", 2, "--gens -5 is out of range");
    expect("run --gens many", 2, "whole number");
    expect("run", 2, "--gens N is required");
    expect("run --gens 10 --backend warp9", 2, "unknown backend 'warp9'");
    expect("run --gens 10 missing.rle", 2, "missing.rle");
    expect("run --gens 10 --rule B3/S23x", 2, "column 7");
    expect("run --gens 1 --rule B3/S23:T2000000000,2000000000", 2,
           "memory");
    expect("run --gens 1 --rule B3/S23:T2,2", 2, "does not fit");
    expect("bench --backend reference --isa avx2", 2, "cpu backend only");
    expect("bench --backend opencl --threads 4", 2, "cpu backend only");
    expect("bench --backend cpu --size 64x64 --gens 2 --threads 4096", 0,
           "--threads 4096 is more than the");
    /* B0 on the unbounded plane runs as Golly emulates it (b0_oracle
     * checks the cells against bgolly); what that path does not take is
     * refused by name */
    expect("run --gens 1 --rule B03/S23", 0, "(hashlife, leaves by ");
    expect("run --gens 1 --rule B03/S23 --engine dense", 0,
           "B0 emulated as Golly does");
    expect("run --gens 1 --rule B03/S23 --store b0.ggu", 2, "a B0 rule");
    write_file("cut.rle", "x = 5, y = 5, rule = B3/S23\n2o3$b");
    expect("run --gens 10 -o never.rle cut.rle", 2, "cut.rle");
    assert_false(exists("never.rle"));
    write_file("garbled.rle", "x = 3, y = 3\nbo$2b%o$3o!\n");
    expect("run --gens 10 -o never.rle garbled.rle", 2, "garbled.rle:2");
    assert_false(exists("never.rle"));
    expect("run --gens 10 -o no/such/dir/out.rle", 2, "no/such/dir");
    write_file("multi.rle", "x = 2, y = 1, rule = B3/S23\nAB!\n");
    expect("run --gens 1 multi.rle", 2, "state 2");
    expect("synth --rule B3/S23 --time-limit soon", 2,
           "--time-limit expects seconds");
    expect("synth --rule B3/S23 --shape-time-limit nan", 2,
           "--shape-time-limit expects seconds");
    expect("synth --rule B3/S23 --k-time-limit -1", 2,
           "--k-time-limit -1 is out of range");
    expect("synth --rule B3/S23 --lib gate2 --resynth-leaves 9", 2,
           "--resynth-leaves 9 is out of range 3..8");
}

/* Starts COMMAND (after "env --default-signal": its options, golgen and
 * its arguments) in the background with stderr in LOG, waits until LOG
 * matches PATTERN (grep) or the command ends, then sends it each signal
 * of SIGS ("HUP TERM") half a second apart; returns system()'s status.
 * golgen leaves a signal ignored at its start ignored (as any program
 * does); a background job of a non-interactive shell starts with SIGINT
 * ignored, and everything under nohup with SIGHUP, so env gives the job
 * every signal's default action, as a terminal's Ctrl-C finds it (an
 * --ignore-signal=HUP after it plays nohup). Waiting for the log, not a
 * fixed time, keeps the signal where the test means it on a loaded
 * machine. The log is removed first: the background job may truncate it
 * only after the first grep. */
static int signal_when(const char *command, const char *log,
                       const char *pattern, const char *sigs)
{
    char cmd[1024];
    snprintf(cmd, sizeof cmd,
             "cd '%s' && rm -f %s && { env --default-signal %s 2>%s & "
             "pid=$!; for i in $(seq 3000); do grep -q '%s' %s && break; "
             "kill -0 $pid 2>/dev/null || break; sleep 0.1; done; for s in "
             "%s; do kill -$s $pid 2>/dev/null; sleep 0.5; done; wait $pid; }",
             dir, log, command, log, pattern, log, sigs);
    return system(cmd);
}

/* `golgen run ARGS -o OUT` for a billion generations, signalled (SIGS) once
 * its first progress line shows it in its generations. */
static int signal_running(const char *env_opts, const char *args,
                          const char *out, const char *log, const char *sigs)
{
    char command[512];
    snprintf(command, sizeof command,
             "%s '%s' run --progress --gens 1000000000 %s -o %s", env_opts,
             getenv("GG_GOLGEN"), args, out);
    return signal_when(command, log, "generation ", sigs);
}

/* Ctrl-C during a long run: exit 130 and the generation reached is
 * written, not lost. */
static void test_interrupt_keeps_result(void **state)
{
    (void)state;
    int status = signal_running("", "--rule B3/S23:T200,200", "int.rle",
                                "int.log", "INT");
    assert_true(WIFEXITED(status));
    assert_int_equal(WEXITSTATUS(status), 130);
    assert_true(exists("int.rle"));
    expect("run --gens 0 int.rle", 0, "generation");
    assert_null(strstr(out_text, "generation 0,"));
}

/* SIGTERM and SIGHUP stop a run as Ctrl-C does, with their own exit
 * statuses (143, 129), on every family: two-state, Generations, 3D. */
static void test_stop_signals_keep_result(void **state)
{
    (void)state;
    static const struct {
        const char *sig, *args, *out, *check;
        int status;
    } cases[] = {
        {"TERM", "--rule B3/S23:T200,200", "t2.rle", "run --gens 0 t2.rle",
         143},
        {"TERM", "--rule /2/3:T300,300", "tg.rle", "run --gens 0 tg.rle",
         143},
        {"HUP", "--rule 3D4/4:T96 r3.rle3", "t3.rle3", NULL, 129},
    };
    write_file("r3.rle3", "3D version=1 size=10 pos=4,4,4\nx=2 y=2 z=2 "
               "rule=3D4/4\noo$oo/oo$oo!\n");
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        int status = signal_running("", cases[i].args, cases[i].out,
                                    "sig.log", cases[i].sig);
        assert_true(WIFEXITED(status));
        assert_int_equal(WEXITSTATUS(status), cases[i].status);
        assert_true(exists(cases[i].out));
        if (cases[i].check) {
            expect(cases[i].check, 0, "generation");
            assert_null(strstr(out_text, "generation 0,"));
        }
    }
}

/* A stop signal that comes while the input loads (here while golgen
 * waits for its input FIFO, once the handlers are in: SigCgt in
 * /proc/PID/status) ends the load there: a huge file need not be read
 * whole first. The run does no generation, says so, writes no OUT (the
 * input is where it was) and exits 143. */
static void test_early_stop_keeps_input(void **state)
{
    (void)state;
    char cmd[1024];
    snprintf(cmd, sizeof cmd,
             "cd '%s' && rm -f early.fifo early.rle && mkfifo early.fifo && "
             "{ env --default-signal '%s' run --rule B3/S23:T64,64 --gens "
             "1000 -o early.rle "
             "early.fifo 2>early.log & pid=$!; for i in $(seq 600); do "
             "m=$(awk '/^SigCgt/ {print $2}' /proc/$pid/status); "
             "[ $(( 0x${m:-0} >> 14 & 1 )) = 1 ] && break; sleep 0.05; done; "
             "kill -TERM $pid; "
             /* golgen may end before the write does: no SIGPIPE here */
             "( trap '' PIPE; printf 'x = 3, y = 1\\n3o!\\n' >early.fifo ) "
             "2>/dev/null; wait $pid; }", dir, getenv("GG_GOLGEN"));
    int status = system(cmd);
    assert_true(WIFEXITED(status));
    assert_int_equal(WEXITSTATUS(status), 143);
    assert_false(exists("early.rle"));
    char log[1100];
    snprintf(log, sizeof log, "grep -q \"stopped while reading "
             "'early.fifo'\" '%s/early.log'", dir);
    assert_int_equal(gg_test_status(log), 0);
}

/* A SIGHUP ignored at start (nohup) stays ignored: closing the terminal
 * does not end a long run; SIGTERM still does. */
static void test_ignored_hangup_stays_ignored(void **state)
{
    (void)state;
    int status = signal_running("--ignore-signal=HUP",
                                "--rule B3/S23:T200,200", "hup.rle",
                                "hup.log", "HUP TERM");
    assert_true(WIFEXITED(status));
    assert_int_equal(WEXITSTATUS(status), 143);
    assert_true(exists("hup.rle"));
}

/* A run killed with SIGKILL and resumed from its last checkpoint ends
 * where an uninterrupted run ends, on a torus and on the unbounded plane;
 * a store with a damaged band is refused naming it; export (whole and a
 * window) and import round-trip through RLE. */
static void test_store_checkpoint_resume(void **state)
{
    (void)state;
    static const char *const rules[] = {"B3/S23:T1001,703", "B3/S23"};
    /* a 120 x 120 soup: the reference takes seconds on either */
    write_soup("soup.rle", 120, 120, 0x2545f4914f6cdd1dull, 2, 5);
    for (int i = 0; i < 2; i++) {
        char cmd[2048];
        snprintf(cmd, sizeof cmd,
                 "cd '%s' && G='%s' && rm -f ck.ggu && "
                 "$G run --backend cpu --rule %s --gens 2500 -o full.rle "
                 "soup.rle 2>/dev/null && { $G run --backend reference "
                 "--rule %s --gens 2500 --store ck.ggu --checkpoint-every 50 "
                 "soup.rle 2>/dev/null & pid=$!; "
                 /* killed once a checkpoint exists (a loaded machine may
                  * take seconds to the first), a little after it */
                 "for i in $(seq 200); do [ -e ck.ggu ] && break; "
                 "sleep 0.05; done; sleep 0.2; kill -KILL $pid; "
                 "wait $pid; "
                 "} ; g=$($G store info ck.ggu | awk '/generation/{print $2}')"
                 " && test \"$g\" -gt 0 && test \"$g\" -lt 2500 && $G run "
                 "--backend cpu --resume ck.ggu --gens $((2500 - g)) -o "
                 "resumed.rle 2>/dev/null && cmp -s full.rle resumed.rle",
                 dir, getenv("GG_GOLGEN"), rules[i], rules[i]);
        if (gg_test_status(cmd) != 0)
            fail_msg("%s: the resumed run differs from the whole one, or "
                     "no checkpoint was written", rules[i]);
    }
    expect("run --gens 100 --rule B3/S23:T300,170 --store s.ggu", 0,
           "generation 100");
    expect("store info s.ggu", 0, "bands:      3 of 64 rows");
    expect("store export s.ggu -o s.rle", 0, "");
    expect("store import s.rle -o t.ggu", 0, "");
    expect("store export t.ggu --window -20,-20,40,30 -o w.rle", 0, "");
    expect("run --gens 0 w.rle", 0, "generation 100");
    char cmd[1024];
    snprintf(cmd, sizeof cmd, "cd '%s' && cmp -s s.ggu t.ggu && cp s.ggu "
             "d.ggu && printf 'x' | dd of=d.ggu bs=1 seek=7000 "
             "conv=notrunc 2>/dev/null", dir);
    assert_int_equal(gg_test_status(cmd), 0);
    expect("store export d.ggu -o d.rle", 2, "band 1 (rows 64 .. 127) fails "
           "its checksum");
    expect("run --resume s.ggu --rule B36/S23:T300,170 --gens 1", 2,
           "is not the rule of store");
    expect("run --gens 5 --checkpoint-every 2", 2, "needs --store");
}

/* Streaming through a backend in bands (--device-mem, runtime/
 * band_stepper.h) ends bit-identical to the run in memory: odd torus,
 * bounded plane, unbounded plane, on cpu and the reference. */
static void test_device_mem_streaming(void **state)
{
    (void)state;
    static const char *const rules[] = {"B3/S23:T301,203", "B36/S23:P299,117",
                                        "B3/S23"};
    static const char *const backends[] = {"cpu", "reference"};
    write_soup("band.rle", 60, 12, 0x9e3779b97f4a7c15ull, 2, 5);
    for (int i = 0; i < 3; i++)
        for (int k = 0; k < 2; k++) {
            char cmd[1024];
            snprintf(cmd, sizeof cmd, "cd '%s' && G='%s' && $G run --backend "
                     "%s --rule %s --gens 150 -o m.rle band.rle 2>/dev/null "
                     "&& $G run --backend %s --rule %s --gens 150 "
                     "--device-mem 3K -o b.rle band.rle 2>b.log && grep -q "
                     "streamed b.log && cmp -s m.rle b.rle", dir,
                     getenv("GG_GOLGEN"), backends[k], rules[i], backends[k],
                     rules[i]);
            if (gg_test_status(cmd) != 0)
                fail_msg("%s on %s: the banded run differs (or did not "
                         "stream)", rules[i], backends[k]);
        }
    expect("run --gens 1 --rule B3/S23:T1001,99 --device-mem 100", 3,
           "fewer than 3 rows");
    expect("run --gens 1 --device-mem 12Q", 2, "expects a size in bytes");
}

/* Out-of-core runs (--host-mem, runtime/formats/store_stream.h): a store streamed
 * band by band into another, several bands and passes (T = 2, 97 gens:
 * the last pass is shorter), is byte-identical to the store of the run in
 * memory on an odd torus and a bounded plane; a damaged input is refused
 * naming the band (also the torus's last band, read first as a halo) and
 * nothing is written; the options that need the whole universe refused. */
static void test_host_mem_store_stream(void **state)
{
    (void)state;
    static const char *const rules[] = {"B3/S23:T301,203", "B36/S23:P299,117"};
    write_soup("oc.rle", 150, 60, 0x853c49e6748fea9bull, 2, 5);
    for (int i = 0; i < 2; i++) {
        char cmd[1024];
        snprintf(cmd, sizeof cmd, "cd '%s' && G='%s' && rm -f oc*.ggu && "
                 "$G store import oc.rle --rule %s -o oc.ggu && $G run "
                 "--backend cpu --resume oc.ggu --gens 97 --store ocm.ggu "
                 "2>/dev/null && $G run --backend cpu --resume oc.ggu --gens "
                 "97 --host-mem 3K --store ocs.ggu 2>ocs.log && grep -q "
                 "'49 passes of up to 2 generations' ocs.log && "
                 "cmp ocm.ggu ocs.ggu", dir, getenv("GG_GOLGEN"), rules[i]);
        if (gg_test_status(cmd) != 0)
            fail_msg("%s: the store streamed band by band differs from the "
                     "one run in memory (or did not stream)", rules[i]);
    }
    char cmd[1024];
    snprintf(cmd, sizeof cmd, "cd '%s' && G='%s' && $G store import oc.rle "
             "--rule B3/S23:T301,203 -o oc.ggu && cp oc.ggu d1.ggu && cp "
             "oc.ggu d3.ggu && printf 'x' | dd of=d1.ggu bs=1 seek=7000 "
             "conv=notrunc 2>/dev/null && printf 'x' | dd of=d3.ggu bs=1 "
             "seek=12100 conv=notrunc 2>/dev/null && $G store import oc.rle "
             "-o ocu.ggu", dir, getenv("GG_GOLGEN"));
    assert_int_equal(gg_test_status(cmd), 0);
    expect("run --backend cpu --resume d1.ggu --gens 9 --host-mem 3K "
           "--store no.ggu", 2, "band 1 (rows 64 .. 127) fails its checksum");
    expect("run --backend cpu --resume d3.ggu --gens 9 --host-mem 3K "
           "--store no.ggu", 2, "band 3 (rows 192 .. 255) fails its checksum");
    assert_false(exists("no.ggu"));
    expect("run --resume oc.ggu --gens 9 --host-mem 3K", 2,
           "give --resume IN.ggu and --store OUT.ggu");
    expect("run --gens 9 --host-mem 3K --store no.ggu oc.rle", 2,
           "give --resume IN.ggu and --store OUT.ggu");
    expect("run --resume oc.ggu --gens 9 --host-mem 3K --store no.ggu -o "
           "no.rle", 2, "-o does not combine");
    expect("run --resume ocu.ggu --gens 9 --host-mem 3K --store no.ggu", 2,
           "unbounded-plane universe");
    expect("run --resume oc.ggu --gens 9 --host-mem 200 --store no.ggu", 2,
           "fewer than twice 3 rows");
    expect("run --resume oc.ggu --gens 9 --host-mem 3Q --store no.ggu", 2,
           "expects a size in bytes");
    assert_false(exists("no.ggu"));
}

/* Bands resident on several backends (--devices, runtime/universes/multi_band.h)
 * end bit-identical to one backend: odd torus, bounded plane and the
 * unbounded plane, 2 to 7 bands, several exchanges (T is rows / 32 here),
 * on cpu and the reference (host backends: every band on "device" 0). */
static void test_devices_bands(void **state)
{
    (void)state;
    static const char *const rules[] = {"B3/S23:T201,157", "B36/S23:P199,117",
                                        "B3/S23"};
    static const char *const backends[] = {"cpu", "reference"};
    static const char *const lists[] = {"0,0", "0,0,0", "0,0,0,0,0,0,0"};
    write_soup("bands.rle", 150, 40, 0x2545f4914f6cdd1dull, 1, 2);
    for (int i = 0; i < 3; i++)
        for (int k = 0; k < 2; k++)
            for (int d = 0; d < 3; d++) {
                char cmd[1024];
                snprintf(cmd, sizeof cmd, "cd '%s' && G='%s' && $G run "
                         "--backend %s --rule %s --gens 97 -o m.rle bands.rle "
                         "2>/dev/null && $G run --backend %s --rule %s --gens "
                         "97 --devices %s -o b.rle bands.rle 2>b.log && "
                         "cmp -s m.rle b.rle", dir, getenv("GG_GOLGEN"),
                         backends[k], rules[i], backends[k], rules[i],
                         lists[d]);
                if (gg_test_status(cmd) != 0)
                    fail_msg("%s on %s, --devices %s: the banded run differs",
                             rules[i], backends[k], lists[d]);
            }
    /* OpenCL (PoCL here): device bands, uploaded as views of the grid */
    static const char *const cl_rules[] = {"B3/S23:T201,157",
                                           "B36/S23:P199,117"};
    for (int i = 0; i < 2; i++) {
        char cmd[1024];
        snprintf(cmd, sizeof cmd, "cd '%s' && G='%s' && $G run --backend "
                 "cpu --rule %s --gens 97 -o m.rle bands.rle 2>/dev/null && "
                 "{ $G run --backend opencl --rule %s --gens 97 --devices "
                 "0,0,0 -o b.rle bands.rle 2>b.log; s=$?; [ $s = 3 ] || "
                 "{ [ $s = 0 ] && cmp -s m.rle b.rle; }; }", dir,
                 getenv("GG_GOLGEN"), cl_rules[i], cl_rules[i]);
        if (gg_test_status(cmd) != 0)
            fail_msg("%s on opencl, --devices 0,0,0: the banded run differs",
                     cl_rules[i]);
    }
    expect("run --gens 1 --backend cpu --devices 0,1", 2,
           "runs on the host, device 0 only");
    expect("run --gens 1 --devices 0,x", 2, "device ordinals");
    expect("run --gens 1 --devices 0,0 --device-mem 1M", 2,
           "do not combine");
    expect("run --gens 1 --rule /2/3:T100,100 --backend cpu --devices 0,0", 0,
           "bands (Generations");
    expect("run --gens 1 --rule /2/3:T100,100 --backend cpu --device-mem 1K",
           2, "Generations rules do not take --device-mem");
}

/* The number after "final stage:" in verify's output, or after "gate2: "
 * in synth's. */
static int gates_after(const char *text, const char *label)
{
    const char *p = strstr(text, label);
    return p ? atoi(p + strlen(label)) : -1;
}

/* synth stopped in its first step (the adder tree's rest) for a rule with
 * no cache entry still stores nothing worse than what the emitters build
 * without one. It used to store the 39-gate decision diagram where the
 * emitters make 21. */
static void test_synth_interrupt_stores_no_worse(void **state)
{
    (void)state;
    char cmd[1024];
    snprintf(cmd, sizeof cmd, "cd '%s' && mkdir -p gen_fb gen_syn && { "
             "timeout 30 '%s' synth --rule B3568/S1245 --lib gate2 "
             "--generated gen_syn >syn.out 2>syn.log & pid=$!; sleep 2; "
             "kill -INT $pid; wait $pid; }", dir, getenv("GG_GOLGEN"));
    int status = system(cmd);
    assert_true(WIFEXITED(status));
    if (WEXITSTATUS(status) == 3) /* built without CryptoMiniSat */
        skip();
    assert_int_equal(WEXITSTATUS(status), 130);
    expect("synth --rule B3568/S1245 --lib gate2 --generated gen_syn", 0,
           "not proven minimal");
    int stored = gates_after(out_text, "gate2: ");
    setenv("GOLGEN_GENERATED", "gen_fb", 1);
    expect("verify --rule B3568/S1245 --lib gate2", 0, "no cached network");
    unsetenv("GOLGEN_GENERATED");
    int fallback = gates_after(out_text, "final stage:");
    assert_true(fallback > 0);
    assert_in_range(stored, 1, fallback);
}

/* A damaged cache entry is refused, and the message says --force replaces
 * it: so --force does (it used to refuse before looking at --force). An
 * empty k range is a usage error, not a trivial search. */
static void test_synth_force_and_k_range(void **state)
{
    (void)state;
    expect("synth --rule B3/S23 --k-min 9 --k-max 3", 2, "nothing to search");
    assert_null(strstr(out_text, "usage:"));
    char cmd[512];
    snprintf(cmd, sizeof cmd, "mkdir -p '%s/gd/networks/rowsum/lut3'", dir);
    assert_int_equal(system(cmd), 0);
    write_file("gd/networks/rowsum/lut3/B2_S.net",
               "# golgen network cache entry\nrule B2/S\nfront rowsum\n"
               "lib lut3\ngates 5\nproven yes\nlower_bound 5\n");
    expect("synth --rule B2/S --generated gd", 1, "--force");
    int rc = golgen("synth --rule B2/S --generated gd --force");
    if (rc == 3) /* built without CryptoMiniSat */
        skip();
    assert_int_equal(rc, 0);
    assert_non_null(strstr(out_text, "replacing it"));
    expect("synth --rule B2/S --generated gd", 0, "5 gates, proven minimal");
    assert_null(strstr(out_text, "left to prove"));
    /* an unproven answer says what its proof still needs: Maze's cached 8
     * LUTs with k <= 6 ruled out leave k = 7, the costly one */
    expect("synth --rule B3/S12345 --lib lut3", 0,
           "left to prove: no network of 7 gates\n  (k=7: 36390 shapes, "
           "usually at least");
}

/* A rejected cache entry is a failed check (exit 1) whichever command
 * meets it; run and bench used to call it bad input (2). */
static void test_rejected_cache_exit_status(void **state)
{
    (void)state;
    char cmd[512];
    snprintf(cmd, sizeof cmd, "mkdir -p '%s/gbad/networks/rowsum/lut3' "
             "'%s/gbad/networks/rowsum/gate2'", dir, dir);
    assert_int_equal(system(cmd), 0);
    write_file("gbad/networks/rowsum/lut3/B3_S23.net",
               "rule B3/S23\nfront rowsum\nlib lut3\ngates 5\n");
    write_file("gbad/networks/rowsum/gate2/B3_S23.net",
               "rule B3/S23\nfront rowsum\nlib gate2\ngates 5\n");
    write_file("g.rle", "x = 3, y = 3, rule = B3/S23\nbo$2bo$3o!\n");
    setenv("GOLGEN_GENERATED", "gbad", 1);
    expect("verify --rule B3/S23", 1, "rejected");
    expect("--target c --rule B3/S23", 1, "rejected");
    expect("run --gens 2 --backend cpu -o - g.rle", 1, "rejected");
    expect("bench --backend cpu --size 64x64 --gens 2", 1, "rejected");
    /* OpenCL (gate2) too (it said 3); exit 3 only for a missing platform */
    int rc = golgen("run --gens 2 --backend opencl -o - g.rle");
    if (rc == 3)
        assert_null(strstr(out_text, "rejected"));
    else
        expect("run --gens 2 --backend opencl -o - g.rle", 1, "rejected");
    /* the fallback's work bound is a whole number or an error, never a
     * silent default (B3568/S1245 has no entry here) */
    setenv("GOLGEN_FALLBACK_WORK", "-1", 1);
    expect("verify --rule B3568/S1245", 2, "GOLGEN_FALLBACK_WORK='-1'");
    unsetenv("GOLGEN_FALLBACK_WORK");
    unsetenv("GOLGEN_GENERATED");
}

/* "-" reads the pattern from standard input, as -o - writes stdout. */
static void test_stdin_pattern(void **state)
{
    (void)state;
    write_file("in.rle", "x = 3, y = 3, rule = B3/S23\nbo$2bo$3o!\n");
    expect("run --gens 4 -o - - <in.rle", 0,
           "#CXRLE Pos=1,1 Gen=4\nx = 3, y = 3, rule = B3/S23\nbo$2bo$3o!");
    expect("run --gens 4 -o - - </dev/null", 2, "standard input");
    /* a box that fits, placed outside: the message says where */
    write_file("off.rle", "#CXRLE Pos=-40,-32\nx = 3, y = 3, rule = "
               "B3/S23:T64,64\nbo$2bo$3o!\n");
    expect("run --gens 4 -o - - <off.rle", 2, "(x -32..31, y -32..31)");
}

/* A file that names no place, run under a bounded --rule, is centred as if
 * the file had named that rule (same result as the bounded file). */
/* Ctrl-C during synth's early steps (the adder tree's rest, window
 * resynthesis; together about a minute for Day & Night) stops them too:
 * exit 130 well inside the 30 s timeout, the best network printed. */
static void test_synth_interrupt(void **state)
{
    (void)state;
    char cmd[1024];
    snprintf(cmd, sizeof cmd,
             "cd '%s' && { timeout 30 '%s' synth --rule B3678/S34678 --lib "
             "gate2 --force --no-store --resynth-time 60 >syn.out 2>syn.log "
             "& pid=$!; sleep 2; kill -INT $pid; wait $pid; }", dir,
             getenv("GG_GOLGEN"));
    int status = system(cmd);
    assert_true(WIFEXITED(status));
    if (WEXITSTATUS(status) == 3) /* built without CryptoMiniSat */
        skip();
    assert_int_equal(WEXITSTATUS(status), 130);
    char path[256], text[4096];
    snprintf(path, sizeof path, "%s/syn.out", dir);
    FILE *f = fopen(path, "r");
    assert_non_null(f);
    size_t n = fread(text, 1, sizeof text - 1, f);
    fclose(f);
    text[n] = 0;
    assert_non_null(strstr(text, "lib gate2"));
    assert_non_null(strstr(text, "not proven minimal"));
}

/* A long proof's progress lines weigh the shapes by their usual costs
 * (sat/exact/shape_prior.h): the table is found for a real rule's lut3 k=6
 * shape list at run time, not only in test_proof. Electrified Maze
 * (B45/S12345: its start, 7 LUTs, comes in about a second, and k=6 is
 * UNSAT) runs until its first line with an estimate, which needs a shape
 * done: a fixed time limit left none done on a loaded machine. */
static const char *file_text(const char *name);

static void test_synth_progress_estimate(void **state)
{
    (void)state;
    char command[512];
    snprintf(command, sizeof command,
             "'%s' synth --rule B45/S12345 --lib lut3 --k-min 6 --k-max 6 "
             "--time-limit 300 --threads 2 --no-store --generated gen_est "
             ">/dev/null", getenv("GG_GOLGEN"));
    int status = signal_when(command, "est.log", "about .* more", "TERM");
    assert_true(WIFEXITED(status));
    if (WEXITSTATUS(status) == 3) /* built without CryptoMiniSat */
        skip();
    const char *log = file_text("est.log");
    assert_non_null(strstr(log, "of 1781 shapes done in"));
    assert_non_null(strstr(log, "by their usual costs about"));
    assert_null(strstr(log, "at this rate"));
}

/* Reads DIR/name into out_text (for a command's redirected output). */
static const char *file_text(const char *name)
{
    char path[256];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "r");
    size_t n = f ? fread(out_text, 1, sizeof out_text - 1, f) : 0;
    out_text[n] = 0;
    if (f)
        fclose(f);
    return out_text;
}

/* SIGTERM (what `timeout` sends) and SIGHUP stop synth as Ctrl-C does:
 * the best network printed and cached with what the search proved, exit
 * 128 + the signal; --resume then goes on at the next k's remaining
 * shapes instead of starting over. --time-limit 0 is refused (it meant
 * "no limit"), and the default limit is in --help. */
static void test_synth_term_hup_resume(void **state)
{
    (void)state;
    expect("synth --rule B136/S1256 --time-limit 0", 2,
           "--time-limit none for no limit");
    expect("synth --help", 0, "default 600 s");
    char cmd[1024];
    snprintf(cmd, sizeof cmd, "cd '%s' && timeout --preserve-status -s TERM "
             "20 '%s' synth --rule B136/S1256 --generated gt >term.out "
             "2>term.log", dir, getenv("GG_GOLGEN"));
    int status = system(cmd);
    assert_true(WIFEXITED(status));
    if (WEXITSTATUS(status) == 3) /* built without CryptoMiniSat */
        skip();
    assert_int_equal(WEXITSTATUS(status), 143);
    assert_non_null(strstr(file_text("term.log"), "stopped by SIGTERM"));
    assert_non_null(strstr(file_text("term.out"), "not proven minimal"));
    assert_non_null(strstr(out_text, "\nout g"));
    /* cached, and verified again as it is read back */
    expect("synth --rule B136/S1256 --generated gt", 0, "(from the cache)");
    /* --resume skips the start-up steps: SIGHUP lands inside k = 5, or
     * k = 6 where the proofs run faster (k = 5 takes a few seconds); env:
     * SIGHUP's default action, also under nohup (signal_running) */
    snprintf(cmd, sizeof cmd, "cd '%s' && { env --default-signal '%s' "
             "synth --rule B136/S1256 "
             "--generated gt --resume >hup.out 2>hup.log & pid=$!; sleep 6; "
             "kill -HUP $pid; wait $pid; }", dir, getenv("GG_GOLGEN"));
    status = system(cmd);
    assert_true(WIFEXITED(status));
    assert_int_equal(WEXITSTATUS(status), 129);
    assert_non_null(strstr(file_text("hup.log"), "stopped by SIGHUP"));
    const char *p = strstr(file_text("gt/networks/rowsum/lut3/B136_S1256.net"),
                           "\nproof k=");
    assert_non_null(p);
    int k = atoi(p + strlen("\nproof k=")), shapes = k == 5 ? 130 : 1781;
    assert_true(k == 5 || k == 6);
    bool recorded = strstr(p, "unsat=\n") == NULL; /* some shapes proven */
    /* the next run starts where that one stopped: the shapes recorded are
     * skipped, the k below are not searched again */
    char want[32];
    snprintf(want, sizeof want, "\"search\":\"k%d:", k);
    expect("synth --rule B136/S1256 --generated gt --resume --time-limit 2 "
           "--json", 0, want);
    p = strstr(out_text, "\"resumed_shapes\":");
    assert_non_null(p);
    int resumed = atoi(p + strlen("\"resumed_shapes\":"));
    if (recorded) {
        assert_in_range(resumed, 1, shapes - 1);
        assert_non_null(strstr(out_text, "resuming the proof"));
    } else {
        assert_int_equal(resumed, 0);
    }
}

/* Lines of a run's summary (": generation N, ... s (backend)") taken
 * out of text, in place: they hold the seconds a run took. */
static void drop_summary(char *text)
{
    char *w = text;
    for (const char *r = text; *r;) {
        const char *end = strchr(r, '\n');
        size_t n = end ? (size_t)(end - r + 1) : strlen(r);
        bool summary = false;
        for (const char *p = r; p < r + n && !summary; p++)
            summary = !strncmp(p, ": generation ", 13);
        if (!summary) {
            memmove(w, r, n);
            w += n;
        }
        r += n;
    }
    *w = 0;
}

static void test_rule_override_placement(void **state)
{
    (void)state;
    write_file("rp.rle", "x = 3, y = 3, rule = B3/S23\nb2o$2o$bo!\n");
    write_file("rpp.rle", "x = 3, y = 3, rule = B3/S23:P10,10\nb2o$2o$bo!\n");
    expect("run --gens 30 --rule B3/S23:P10,10 -o - rp.rle", 0,
           "#CXRLE Pos=-4,1 Gen=30\nx = 4, y = 4, rule = B3/S23:P10,10\n"
           "bo$4o$o2bo$3bo!");
    expect("run --gens 30 -o - rpp.rle", 0,
           "#CXRLE Pos=-4,1 Gen=30\nx = 4, y = 4, rule = B3/S23:P10,10\n"
           "bo$4o$o2bo$3bo!");
    /* A Pos the file gives stays, Pos=0,0 too (it used to be taken for
     * "not positioned" and the glider was centred, a different run). */
    write_file("p0.rle", "#CXRLE Pos=0,0\nx = 3, y = 3, rule = B3/S23\n"
               "bo$2bo$3o!\n");
    write_file("p0p.rle", "#CXRLE Pos=0,0\nx = 3, y = 3, rule = "
               "B3/S23:P6,6\nbo$2bo$3o!\n");
    expect("run --gens 2 -o - p0p.rle", 0, "rule = B3/S23:P6,6");
    char in_file[sizeof out_text];
    snprintf(in_file, sizeof in_file, "%s", out_text);
    expect("run --gens 2 --rule B3/S23:P6,6 -o - p0.rle", 0,
           "rule = B3/S23:P6,6");
    /* the same pattern written; the summary lines' seconds may differ */
    drop_summary(in_file);
    drop_summary(out_text);
    assert_string_equal(out_text, in_file);
}

/* What the review of session 10 found: a 2D pattern named 3d... is 2D
 * (the 3D path is chosen by --rule or by the file's RLE3 header); 3D and
 * Generations runs check OUT before they run; an RLE3 number too large
 * says so. */
static void test_family_dispatch_and_output_checks(void **state)
{
    (void)state;
    write_file("3dglider.rle", "x = 3, y = 3, rule = B3/S23\nbo$2bo$3o!\n");
    expect("run --gens 4 -o - 3dglider.rle", 0, "x = 3, y = 3, rule = B3/S23");
    write_file("cube.rle3", "3D version=1 size=8\nx=2 y=2 z=2 "
               "rule=3D5..7/6\n2o$2o/2o$2o!\n");
    expect("run --gens 3 -o /nonexistent-dir/x.rle3 cube.rle3", 2,
           "No such file or directory; create the directory first");
    write_file("soup.rle", "x = 3, y = 3, rule = /2/3\nA.A$.B$AAA!\n");
    expect("run --gens 3 -o /nonexistent-dir/x.rle soup.rle", 2,
           "No such file or directory; create the directory first");
    write_file("big.rle3", "3D version=1 size=8 gen=99999999999999999999\n"
               "x=1 y=1 z=1 rule=3D5..7/6\no!\n");
    expect("run --gens 1 -o - big.rle3", 2, "gen is too large");
}

/* -o writes the format its name asks for (issue 21, part 6), each read
 * back by run; a name golgen does not write, /proc and an absurd tall
 * narrow torus get clear errors. */
static void test_output_formats(void **state)
{
    (void)state;
    write_file("gl.rle", "x = 3, y = 3, rule = B3/S23\nbo$2bo$3o!\n");
    expect("run --gens 4 -o gl.cells gl.rle", 0, "population 5");
    expect("run --gens 0 -o - gl.cells", 0, "x = 3, y = 3, rule = B3/S23\n"
           "bo$2bo$3o!");
    expect("run --gens 4 -o gl.lif gl.rle", 0, "population 5");
    expect("run --gens 0 -o - gl.lif", 0, "#CXRLE Pos=1,1\n");
    expect("run --gens 4 -o gl.mc gl.rle", 0, "population 5");
    expect("run --gens 0 -o - gl.mc", 0, "#CXRLE Pos=1,1 Gen=4\n"
           "x = 3, y = 3, rule = B3/S23\nbo$2bo$3o!");
    expect("run --gens 4 -o gl.rle.gz gl.rle", 2,
           "compressed output is not written");
    expect("run --gens 4 -o /proc/x.rle gl.rle", 2,
           "No such file or directory; that directory takes no new files");
    expect("run --gens 1 --rule B3/S23:T1,2000000000 gl.rle", 2,
           "turn it on its side (2000000000x1)");
}

/* Without --backend, run and bench take the fastest backend that runs
 * here and say which on stderr in one line, naming why faster ones were
 * passed over: without a GPU that is cpu, "ptx, cuda: ..." given as the
 * reason. Generations and 3D runs choose the same way among theirs. (On
 * the unbounded plane engine auto takes the hash tree, whose leaves need
 * a host backend: --engine dense keeps these runs on the whole grid.) */
static void test_backend_auto(void **state)
{
    (void)state;
    expect("run --engine dense --gens 10", 0, "golgen: backend auto -> ");
    bool gpu = strstr(out_text, "auto -> cuda") || strstr(out_text,
                                                          "auto -> ptx");
    if (!gpu) {
        expect("run --engine dense --gens 10", 0,
               "golgen: backend auto -> cpu (ptx, cuda: ");
        assert_non_null(strstr(out_text, "population 11, "));
        assert_non_null(strstr(out_text, "s (cpu)"));
        expect("run --engine dense --gens 10 --backend auto", 0,
               "backend auto -> cpu (");
        expect("bench --size 64x64 --gens 2 --json", 0, "\"backend\": \"cpu\"");
        write_file("cube.rle3", "3D version=1 size=8\nx=2 y=2 z=2 "
                   "rule=3D5..7/6\n2o$2o/2o$2o!\n");
        expect("run --gens 2 cube.rle3", 0,
               "backend auto -> cpu (ptx, cuda: ");
        /* no compiler: cpu is passed over with its reason in the same
         * line, and the reference runs */
        setenv("CC", "/nonexistent/cc", 1);
        expect("run --engine dense --gens 10", 0,
               "golgen: backend auto -> reference (ptx, "
               "cuda: ");
        assert_non_null(strstr(out_text, "; cpu: "));
        assert_non_null(strstr(out_text, "population 11, "));
        unsetenv("CC");
    }
    /* a named backend is used as named, without the line */
    expect("run --engine dense --gens 10 --backend reference", 0,
           "(reference)");
    assert_null(strstr(out_text, "backend auto"));
    write_file("bb.rle", "x = 3, y = 3, rule = /2/3\nA.A$.B$AAA!\n");
    expect("run --engine dense --gens 3 bb.rle", 0,
           gpu ? "golgen: backend auto -> " : "golgen: backend auto -> cpu");
    assert_non_null(strstr(out_text, "(cpu, Generations)"));
    expect("bench --isa avx2 --size 64x64 --gens 2", 0,
           "backend auto -> cpu (--isa is read by cpu only)");
    expect("run --gens 1 --backend warp9", 2, "or auto (the default)");
    expect("run --help", 0, "--backend auto (the default)");
    expect("bench --help", 0, "--backend auto (the default)");
}

/* --version: the version, the solver, and each backend with what its
 * probe says here. */
static void test_version(void **state)
{
    (void)state;
    expect("--version", 0, "golgen 0.1.0\nsolver: ");
    assert_true(strstr(out_text, "solver: CryptoMiniSat 5") ||
                strstr(out_text, "solver: none"));
    assert_non_null(strstr(out_text, "auto tries ptx, cuda, cpu, reference"));
    assert_non_null(strstr(out_text, "  reference  usable\n"));
    assert_non_null(strstr(out_text, "  opencl     "));
    /* a bad variable stops every command, but --version still answers */
    setenv("GOLGEN_FALLBACK_WORK", "-1", 1);
    expect("--version", 0, "  not probed: GOLGEN_FALLBACK_WORK='-1'");
    assert_non_null(strstr(out_text, "solver: "));
    unsetenv("GOLGEN_FALLBACK_WORK");
}

/* The lean golgen (meson.build) hands serve and runs under an MPI
 * launcher over to golgen-full beside it; without one it says so (exit
 * 3), and links neither libwebsockets nor MPI. */
static void test_lean_hands_over(void **state)
{
    (void)state;
    if (gg_test_status("test -x \"$(dirname \"$GG_GOLGEN\")/golgen-full\"")
        != 0)
        skip(); /* a build without libwebsockets and MPI: one golgen */
    char cmd[2048];
    snprintf(cmd, sizeof cmd,
             "cd '%s' && G=\"$GG_GOLGEN\" && "
             "! ldd \"$G\" | grep -q -e libwebsockets -e libmpi && "
             "\"$G\" serve --help 2>&1 | grep -q -- --port && "
             "cp \"$G\" ./golgen-alone && "
             "{ ./golgen-alone serve --help >alone.log 2>&1; test $? -eq 3; } "
             "&& grep -q 'needs golgen-full' alone.log && "
             "{ OMPI_COMM_WORLD_SIZE=2 ./golgen-alone run --gens 1 "
             ">/dev/null 2>&1; test $? -eq 3; }",
             dir);
    assert_int_equal(gg_test_status(cmd), 0);
    expect("--version", 0, "mpi: ");
}

static long file_size(const char *name)
{
    char path[256];
    struct stat st;
    snprintf(path, sizeof path, "%s/%s", dir, name);
    return stat(path, &st) ? -1 : (long)st.st_size;
}

/* --png writes the final state and says what it shows; --frames writes
 * one picture at the start and one every N generations; bad picture
 * options are usage errors found before the run, leaving no file. */
static void test_pictures(void **state)
{
    (void)state;
    if (golgen("run --gens 1 --png probe.png") == 3) { /* no libpng */
        assert_non_null(strstr(out_text, "libpng"));
        skip();
    }
    expect("run --gens 1103 --png r.png -o r.rle", 0,
           "r.png: 501 x 525 cells from (-240, -258), 1 pixel a cell");
    assert_true(file_size("r.png") > 100);
    expect("run --gens 20 --rule B3/S23:T8192,8192 --png big.png", 0,
           "big.png: 8192 x 8192 cells from (-4096, -4096), 2 x 2 cells a "
           "pixel");
    expect("run --gens 8 --frames fr --every 3 --window -8,-8,16,16", 0,
           "generation 8");
    assert_true(file_size("fr/frame_000000.png") > 0);
    assert_true(file_size("fr/frame_000002.png") > 0);
    assert_true(file_size("fr/frame_000003.png") > 0); /* gen 8, the end */
    assert_int_equal(file_size("fr/frame_000004.png"), -1);
    write_file("bb.rle", "x = 3, y = 3, rule = /2/3\nA.A$.B$AAA!\n");
    expect("run --gens 3 --png bb.png --png-zoom 4 bb.rle", 0,
           "4 pixels a cell");
    write_file("cube.rle3", "3D version=1 size=8\nx=2 y=2 z=2 "
               "rule=3D5..7/6\n2o$2o/2o$2o!\n");
    expect("run --gens 2 --png cube.png cube.rle3", 0,
           "cube.png: 8 x 8 cells from (0, 0)");
    expect("run --gens 5 --png no/such/dir/x.png", 2, "no/such/dir");
    expect("run --gens 5 --every 2", 2, "add --frames DIR");
    expect("run --gens 5 --png w.png --window 1,2,3", 2, "--window wants");
    expect("run --gens 5 --png w.png --window 1,2,0,3", 2,
           "--window w 0 is out of range");
    expect("run --gens 5 --png w.png --png-scale 2 --png-zoom 2", 2,
           "exclude each other");
    expect("run --gens 5 --png-zoom 2", 2, "add one");
    assert_int_equal(file_size("w.png"), -1);
    expect("run --help", 0, "--frames DIR");
}

/* ---- issue 42 parts 4 and 5: messages that named the wrong cause ---- */

/* A 3D file under a 2D rule, or for a store, is said to be 3D (it read as
 * "unexpected character '3' in a plaintext row"); a letter that is not
 * Hensel's says which ones its count takes (it said only totalistic rules
 * are supported); a 3D grid of two sides said "at at column 14". */
static void test_wrong_cause_messages(void **state)
{
    (void)state;
    write_file("w3.rle3", "3D version=1 size=10 pos=4,4,4\nx=2 y=2 z=2 "
               "rule=3D4/4\noo$oo/oo$oo!\n");
    expect("run --rule B3/S23 --gens 1 -o w3.rle w3.rle3", 2,
           "w3.rle3:1:1: this is a 3D pattern (RLE3");
    assert_non_null(strstr(out_text, "run it under a 3D rule, e.g. 'golgen "
                           "run --rule 3D5..7/6'"));
    assert_false(exists("w3.rle"));
    expect("store import w3.rle3 -o w3.ggu", 2,
           "stores do not take 3D patterns");
    assert_false(exists("w3.ggu"));
    expect("rule 'B2x/S23'", 2, "not a Hensel letter 'x' at column 3; a "
           "count of 2 takes the Hensel letters c e k a i n");
    expect("rule '3D5..7/6:T8,8'", 2, "two sides, ending at column 14;");
    assert_null(strstr(out_text, "at at"));
}

/* synth stopped before its exact search began (here in window
 * resynthesis) said "search: trivial (0.00 s)": it says what stopped it,
 * how long the run took and what it kept. */
static void test_synth_stop_says_what_it_kept(void **state)
{
    (void)state;
    char cmd[1024];
    snprintf(cmd, sizeof cmd,
             "cd '%s' && { env --default-signal '%s' synth --rule "
             "B3678/S34678 --lib gate2 --force --no-store --resynth-time 60 "
             ">stop.out 2>stop.log & pid=$!; sleep 2; kill -TERM $pid; "
             "wait $pid; }", dir, getenv("GG_GOLGEN"));
    int status = system(cmd);
    assert_true(WIFEXITED(status));
    if (WEXITSTATUS(status) == 3) /* built without CryptoMiniSat */
        skip();
    assert_int_equal(WEXITSTATUS(status), 143);
    const char *out = file_text("stop.out");
    assert_null(strstr(out, "trivial"));
    assert_non_null(strstr(out, "  search: stopped by SIGTERM "));
    assert_non_null(strstr(out, " s in all); kept the "));
}

/* --target's note says what the kernel's header says: B2n3/S23-q's final
 * stage is the cache's rowsum+cells network, so there is no note (it said
 * "no cached lut3 network; the kernel uses a quick one"); an uncached
 * rule's note names the stage's source as its header does. */
static void test_emit_note_matches_header(void **state)
{
    (void)state;
    static const char *const targets[] = {"ptx", "c"};
    char args[128], name[16];
    for (int i = 0; i < 2; i++) {
        snprintf(name, sizeof name, "hq.%s", targets[i]);
        snprintf(args, sizeof args, "--target %s --rule B2n3/S23-q -o %s",
                 targets[i], name);
        expect(args, 0, "");
        assert_null(strstr(out_text, "note:"));
        assert_non_null(strstr(file_text(name),
                               "Final stage from the SAT network cache"));
    }
    expect("--target ptx --rule B2/S345 -o q345.ptx", 0,
           "the kernel's lut3 final stage is a quick one (the adder tree; "
           "its header says so)");
    assert_non_null(strstr(file_text("q345.ptx"),
                           "Final stage from the adder tree"));
}

/* A rule the caches do not hold has its networks searched for while the
 * kernel is built (37 s for a random isotropic rule on the 2-core VM),
 * and stderr says so (--search-note-after 0: at once rather than after
 * a second) and, when done, how long it took and whether it is kept. A
 * kept search is not repeated, so the next run says nothing. */
static void test_new_rule_search_note(void **state)
{
    (void)state;
    char kc[300];
    snprintf(kc, sizeof kc, "%s/kc", dir);
    setenv("GOLGEN_CACHE_DIR", kc, 1);
    setenv("GOLGEN_FALLBACK_WORK", "1000", 1); /* a quick search */
    write_file("n.rle", "x = 3, y = 3\nbo$2bo$3o!\n");
    const char *run = "run --backend cpu --rule B2/S345 --gens 4 "
                      "--search-note-after 0 -o n4.rle n.rle";
    expect(run, 0, "golgen: synthesizing networks for B2/S345 (the network "
           "cache has none for it) ...\n");
    assert_non_null(strstr(out_text, "golgen: networks for B2/S345 "
                           "synthesized in "));
    assert_non_null(strstr(out_text, " s; kept for the next run\n"));
    expect(run, 0, "generation 4");
    assert_null(strstr(out_text, "synthesiz"));
    /* a Hensel rule's composed stage is kept too (issue 40): the next
     * run searches nothing */
    const char *hensel = "run --backend cpu --rule B2e3/S23 --gens 4 "
                         "--search-note-after 0 -o n4.rle n.rle";
    expect(hensel, 0, "synthesizing networks for B2e3/S23");
    assert_non_null(strstr(out_text, " s; kept for the next run\n"));
    expect(hensel, 0, "generation 4");
    assert_null(strstr(out_text, "synthesiz"));
    unsetenv("GOLGEN_FALLBACK_WORK");
    unsetenv("GOLGEN_CACHE_DIR");
}

/* The hash tree checkpoints into OUT.mc (--checkpoint-every without
 * --store): the file holds the generation reached (#G), and running it on
 * ends in the same cells as one straight run; a run that takes the dense
 * engine says it needs --store. */
static void test_tree_checkpoints(void **state)
{
    (void)state;
    write_file("acorn.rle", "x = 7, y = 3, rule = B3/S23\nbo5b$3bo3b$2o2b3o!\n");
    expect("run --engine hashlife --gens 5000 --checkpoint-every 2000 "
           "acorn.rle -o part.mc", 0, "generation 5000, population 804");
    char *part = read_in(dir, "part.mc");
    assert_non_null(strstr(part, "\n#G 5000\n"));
    free(part);
    expect("run --gens 5000 --checkpoint-every 1024 part.mc -o resumed.mc", 0,
           "generation 10000, population 633");
    expect("run --engine hashlife --gens 10000 acorn.rle -o straight.mc", 0,
           "generation 10000, population 633");
    char *a = read_in(dir, "resumed.mc");
    char *b = read_in(dir, "straight.mc");
    assert_string_equal(a, b);
    free(a);
    free(b);
    expect("run --engine dense --gens 10 --checkpoint-every 3 acorn.rle "
           "-o d.mc", 2, "needs --store S.ggu");
    expect("run --rule B3/S23:T64,64 --gens 10 --checkpoint-every 3 "
           "acorn.rle -o t.mc", 2, "takes the dense engine");
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_help_and_usage),
        cmocka_unit_test(test_lean_hands_over),
        cmocka_unit_test(test_emit_uncached_note),
        cmocka_unit_test(test_rule_command),
        cmocka_unit_test(test_verify_command),
        cmocka_unit_test(test_run_results),
        cmocka_unit_test(test_bad_input),
        cmocka_unit_test(test_interrupt_keeps_result),
        cmocka_unit_test(test_stop_signals_keep_result),
        cmocka_unit_test(test_early_stop_keeps_input),
        cmocka_unit_test(test_ignored_hangup_stays_ignored),
        cmocka_unit_test(test_store_checkpoint_resume),
        cmocka_unit_test(test_device_mem_streaming),
        cmocka_unit_test(test_host_mem_store_stream),
        cmocka_unit_test(test_devices_bands),
        cmocka_unit_test(test_synth_interrupt),
        cmocka_unit_test(test_synth_interrupt_stores_no_worse),
        cmocka_unit_test(test_synth_force_and_k_range),
        cmocka_unit_test(test_synth_term_hup_resume),
        cmocka_unit_test(test_rejected_cache_exit_status),
        cmocka_unit_test(test_stdin_pattern),
        cmocka_unit_test(test_rule_override_placement),
        cmocka_unit_test(test_family_dispatch_and_output_checks),
        cmocka_unit_test(test_output_formats),
        cmocka_unit_test(test_backend_auto),
        cmocka_unit_test(test_version),
        cmocka_unit_test(test_pictures),
        cmocka_unit_test(test_synth_progress_estimate),
        cmocka_unit_test(test_wrong_cause_messages),
        cmocka_unit_test(test_synth_stop_says_what_it_kept),
        cmocka_unit_test(test_emit_note_matches_header),
        cmocka_unit_test(test_new_rule_search_note),
        cmocka_unit_test(test_tree_checkpoints),
    };
    return cmocka_run_group_tests(tests, setup, teardown);
}

/* The CUDA backend (CUDA C through NVRTC, or PTX for the ptx backend,
 * ptx_backend.c): opening (device, circuit, launch shape, the first
 * module validated), closing, and the backend table. Its other files are
 * listed in cuda_internal.h. */
#include "cuda_backend.h"

#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backend.h"
#include "cuda_api.h"
#include "cuda_device.h"
#include "cuda_internal.h"
#include "cuda_resident.h"
#include "gpu_layout.h"
#include "kernel_source.h"
#include "cuda_table.h"
#include "rule_gen.h"

/* Check a driver call; the message names the call and the error. */
int gg_cuda_check(const gg_cuda *c, CUresult r, const char *what,
                  gg_err *err)
{
    return gg_cu_check(&c->cu, r, what, err);
}

/* ---- opening ---- */

static int open_device(gg_cuda *c, gg_fail_kind *why, gg_err *err)
{
    gg_cu_device d;
    memset(&d, 0, sizeof d);
    *why = GG_FAIL_ENV;
    int bad = gg_cu_device_open(&d, c->o.device, err);
    /* whatever was opened is released by close, after a failure too */
    c->cu = d.cu;
    c->dev = d.dev;
    c->ctx = d.ctx;
    c->sms = d.sms;
    c->cc = d.cc;
    snprintf(c->name, sizeof c->name, "%s", d.name);
    return bad;
}

/* The kernel's circuit, chosen once for every module this open builds;
 * it builds and passes its check, or a rejected cache entry is a failed
 * check (exit 1, as verify and the CPU backend say), not lost among the
 * environment failures of the build that follows. */
static int choose_parts(gg_cuda *c, gg_fail_kind *why, gg_err *err)
{
    int bad = gg_gpu_parts_init(&c->rule, &c->cfg->choose, &c->parts, err);
    *why = bad ? GG_FAIL_INVALID : GG_FAIL_ENV;
    if (!bad && !c->parts.gen) /* Generations kernels: not tried yet */
        gg_cuda_cheaper_front(c->parts.circuit, &c->cfg->choose);
    return bad;
}

void gg_cuda_cheaper_front(gg_circuit *cur, const gg_choose_opts *o)
{
    /* Von Neumann and hexagonal rules: no row sum is shared by three
     * output rows there, so the row-sum front only narrows the final
     * stage's inputs, and the neighbours read directly (front none) make
     * smaller networks: with the solver B3/S23V 4 LUTs against 2 + 3,
     * B3/S134V 5 against 2 + 4, B3/S23H 7 against 6 + 5, B245/S035H 8
     * against 6 + 8; without it (decision diagrams) 12 against 2 + 13 and
     * 17 against 6 + 15. Both keep three values a word row between ticks
     * (the cells and either the row sum or the W and E words). The cheaper
     * circuit per word wins; any failure keeps the row-sum one. */
    if (!cur || cur->rule.nbhd == GG_NBHD_MOORE ||
        cur->front.kind != GG_FRONT_ROWSUM ||
        !gg_rule_is_totalistic(&cur->rule))
        return;
    gg_circuit *alt = malloc(sizeof *alt);
    gg_err ignored;
    int bad_row;
    if (alt &&
        !gg_choose_circuit(&cur->rule, GG_FRONT_NONE, GG_LIB_LUT3, o, alt,
                           &ignored) &&
        gg_circuit_check(alt, &bad_row) == 0 &&
        gg_circuit_gates_per_word(alt) < gg_circuit_gates_per_word(cur))
        *cur = *alt;
    free(alt);
}

/* The module the caller will run first passes its validation cases
 * before open returns: the one for the hinted width when there is one
 * (its cubin came from the autotuner: no generic build), else the generic
 * module (always for Generations kernels: they have no other). */
static int validate_first(gg_cuda *c, gg_err *err)
{
    gg_gpu_geom g;
    if (gg_cuda_hinted_layout(c, &g) && gg_cuda_wanted_stride(c, &g))
        return gg_cuda_module_for(c, &g, err);
    return gg_cuda_validate_generic(c, err);
}

static int open_common(const gg_rule *rule, const char *src,
                       const gg_cuda_opts *o, gg_cuda **out, gg_fail_kind *why,
                       gg_err *err)
{
    static const gg_cuda_opts defaults;
    *out = NULL;
    gg_cuda *c = gg_alloc(1, sizeof *c, err, "CUDA backend");
    if (!c) {
        *why = GG_FAIL_ENV;
        return -1;
    }
    c->rule = *rule;
    c->np = gg_gen_planes_of(rule);
    c->o = o ? *o : defaults;
    c->cfg = gg_config_or_default(c->o.config);
    const char *dir = c->o.cache_dir ? c->o.cache_dir : c->cfg->cache_dir;
    double t0 = gg_cuda_now();
    int bad = open_device(c, why, err) ||
              gg_gpu_cache_dir(dir, c->cache_dir, sizeof c->cache_dir, err);
    c->phase[GG_PH_DEVICE] = gg_cuda_now() - t0;
    c->given = src != NULL;
    if (!bad && src) {
        c->tune = c->o.tune.tmax
                      ? c->o.tune
                      : (gg_gpu_tune){.tmax = 16, .funnel = 0, .wpb = 4,
                                      .wpl = 1};
        bad = gg_cuda_build(c, src, err);
    } else if (!bad) {
        t0 = gg_cuda_now();
        bad = choose_parts(c, why, err);
        c->phase[GG_PH_CIRCUIT] = gg_cuda_now() - t0;
        bad = bad || gg_cuda_choose_tune(c, err);
    }
    if (!bad) {
        *why = GG_FAIL_INVALID;
        bad = validate_first(c, err);
    }
    if (bad) {
        gg_cuda_close(c);
        return -1;
    }
    *out = c;
    return 0;
}

int gg_cuda_open(const gg_rule *rule, const gg_cuda_opts *o, gg_cuda **out,
                 gg_fail_kind *why, gg_err *err)
{
    return open_common(rule, NULL, o, out, why, err);
}

int gg_cuda_open_source(const gg_rule *rule, const char *src,
                        const gg_cuda_opts *o, gg_cuda **out,
                        gg_fail_kind *why, gg_err *err)
{
    return open_common(rule, src, o, out, why, err);
}

const char *gg_cuda_device(const gg_cuda *c) { return c->name; }
gg_gpu_tune gg_cuda_tune(const gg_cuda *c) { return c->tune; }
bool gg_cuda_cache_hit(const gg_cuda *c) { return c->cache_hit; }
int gg_cuda_registers(const gg_cuda *c) { return c->regs; }

void gg_cuda_close(gg_cuda *c)
{
    if (!c)
        return;
    if (c->cu.lib) {
        /* the frees below act on the calling thread's context: this one
         * (a band's backend is driven from a thread of its own, and the
         * close may come from another) */
        if (c->ctx)
            c->cu.cuCtxSetCurrent(c->ctx);
        gg_cuda_stream_free(c);
        gg_cuda_bands_free(c);
        gg_cuda_tiles_free(c);
        gg_cuda_free_buffers(c);
        gg_cuda_unload(c);
        if (c->ctx)
            c->cu.cuDevicePrimaryCtxRelease(c->dev);
        dlclose(c->cu.lib);
    }
    gg_gpu_parts_free(&c->parts);
    free(c);
}

/* ---- the backend table (runtime/backends/backend.h; ptx_backend.c) ---- */

int gg_cuda_table_probe(gg_cuda_lang lang, const gg_config *config,
                        gg_err *err)
{
    gg_cuda *c = gg_alloc(1, sizeof *c, err, "CUDA probe");
    gg_fail_kind why;
    if (!c)
        return -1;
    c->cfg = gg_config_or_default(config);
    int bad = open_device(c, &why, err);
    if (!bad && lang == GG_CUDA_LANG_CUDA) {
        gg_nvrtc_api nv;
        GG_LSAN_OFF();
        bad = gg_nvrtc_load(&nv, c->cfg->nvrtc, err);
        if (!bad)
            dlclose(nv.lib);
        GG_LSAN_ON();
    }
    gg_cuda_close(c);
    return bad;
}

int gg_cuda_table_open(gg_cuda_lang lang, const gg_rule *rule,
                       const gg_backend_opts *bo, void **state,
                       gg_fail_kind *why, gg_err *err)
{
    gg_cuda_opts o = {0};
    o.lang = lang;
    o.device = bo->device;
    o.config = bo->config;
    o.announce = bo->announce;
    o.width_hint = bo->width_hint;
    o.height_hint = bo->height_hint;
    return gg_cuda_open(rule, &o, (gg_cuda **)state, why, err);
}

/* The device and launch shape, "NVIDIA H100 ..., T16 shf wpb4 wpl1". */
static void describe_shape(const gg_cuda *c, char *what, size_t size)
{
    gg_gpu_tune t = c->tune;
    char extra[64] = ""; /* PTX: multiply-add share, turn, rows */
    size_t n = 0;
    if (t.fma)
        n += (size_t)snprintf(extra + n, sizeof extra - n, " fma%d/16",
                              t.fma);
    if (t.turn == 6)
        n += (size_t)snprintf(extra + n, sizeof extra - n, " turn6");
    if (t.warm)
        n += (size_t)snprintf(extra + n, sizeof extra - n, " pf%d warm%d",
                              gg_gpu_tune_rows_ahead(
                                  &t, c->o.lang == GG_CUDA_LANG_PTX),
                              t.warm);
    if (t.nreg)
        snprintf(extra + n, sizeof extra - n, " nreg%d", t.nreg);
    snprintf(what, size, "%s, T%d %s%s wpb%d wpl%d, %d regs", c->name,
             t.tmax, t.funnel == 2 ? "hyb" : t.funnel ? "shf" : "mad", extra,
             t.wpb, t.wpl > 1 ? t.wpl : 1, c->regs);
}

/* Seconds by phase of opening so far, in words. */
static void describe_open(const gg_cuda *c, char *buf, size_t size)
{
    const double *p = c->phase;
    char stamps[32] = "";
    if (c->stamps)
        snprintf(stamps, sizeof stamps, " (%d passed before)", c->stamps);
    snprintf(buf, size, "device %.2f s, circuit %.2f s, tuning %.2f s "
             "(compiles %.2f s), %d build%s %.2f s, checks %.2f s + %.2f s at "
             "the grid's width%s",
             p[GG_PH_DEVICE], p[GG_PH_CIRCUIT], p[GG_PH_TUNE],
             p[GG_PH_COMPILE], c->builds,
             c->builds == 1 ? "" : "s", p[GG_PH_BUILD], p[GG_PH_VALIDATE],
             p[GG_PH_WIDTH], stamps);
}

void gg_cuda_table_describe(void *state, gg_backend_desc *d)
{
    describe_shape(state, d->what, sizeof d->what);
    describe_open(state, d->open, sizeof d->open);
}

void gg_cuda_table_close(void *state) { gg_cuda_close(state); }

static int cuda_probe(const gg_backend_opts *o, gg_err *err)
{
    return gg_cuda_table_probe(GG_CUDA_LANG_CUDA, o->config, err);
}

static int cuda_open(const gg_rule *rule, const gg_backend_opts *o,
                     void **state, gg_fail_kind *why, gg_err *err)
{
    return gg_cuda_table_open(GG_CUDA_LANG_CUDA, rule, o, state, why, err);
}

const gg_backend_info gg_backend_cuda = {
    .name = "cuda",
    .probe = cuda_probe,
    .open = cuda_open,
    .open_table = gg_cuda_tk_open_cubin,
    GG_CUDA_SHARED_OPS,
};

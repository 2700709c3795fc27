/* golgen_bench_3d and golgen_backend_names (include/golgen.h,
 * golgen_0.4): what `golgen bench` does for a 3D rule, a soup stepped by
 * the backend the registry opens (runtime/backends/backend3d.h) and
 * timed, and the backends each family runs on (its usage text). */
#include "golgen.h"

#include <stdio.h>
#include <string.h>

#include "backend.h"
#include "backend3d.h"
#include "config.h"
#include "grid3d.h"
#include "net_common.h"
#include "rule3d.h"

static const struct {
    const char *name;
    gg_family f;
} families[] = {
    {"two-state", GG_FAMILY_TWO_STATE}, {"generations", GG_FAMILY_GENERATIONS},
    {"3d", GG_FAMILY_3D}, {"ltl", GG_FAMILY_LTL}, {"table", GG_FAMILY_TABLE},
};

/* The family called name: 0, or -1 when there is none. */
static int family_named(const char *name, gg_family *f)
{
    for (size_t i = 0; name && i < sizeof families / sizeof *families; i++)
        if (!strcmp(name, families[i].name)) {
            *f = families[i].f;
            return 0;
        }
    return -1;
}

int golgen_backend_names(const char *family, const char *sep, char *buf,
                         size_t len)
{
    gg_family f;
    if (!buf || !len)
        return GOLGEN_ERR_INPUT;
    buf[0] = 0;
    if (family_named(family, &f))
        return GOLGEN_ERR_INPUT;
    gg_backend_family_names(f, sep ? sep : "|", buf, len);
    return GOLGEN_OK;
}

int golgen_backend_takes(const char *backend, const char *family,
                         const char *feature, char *errbuf, size_t errlen)
{
    static const struct {
        const char *name;
        gg_family_feature x;
    } features[] = {
        {"run", GG_FEATURE_RUN}, {"store", GG_FEATURE_STORE},
        {"pictures", GG_FEATURE_PICTURES}, {"devices", GG_FEATURE_DEVICES},
        {"bench-bands", GG_FEATURE_BENCH_BANDS},
        {"device-mem", GG_FEATURE_DEVICE_MEM},
        {"host-mem", GG_FEATURE_HOST_MEM}, {"ranks", GG_FEATURE_RANKS},
    };
    gg_err err = {{0}};
    const gg_backend_info *info;
    gg_family f;
    size_t i = 0;
    while (feature && i < sizeof features / sizeof *features &&
           strcmp(feature, features[i].name))
        i++;
    if (family_named(family, &f) || i == sizeof features / sizeof *features)
        return gg_lib_fail(GOLGEN_ERR_INPUT, &(gg_err){"golgen_backend_"
                           "takes: an unknown family or feature"}, errbuf,
                           errlen);
    if (gg_lib_backend(backend, &info, &err) ||
        gg_backend_takes(info, f, features[i].x, &err))
        return gg_lib_fail(GOLGEN_ERR_INPUT, &err, errbuf, errlen);
    return gg_lib_fail(GOLGEN_OK, &err, errbuf, errlen);
}

_Static_assert(GOLGEN_MAX_SIDE3D == GG_MAX_SIDE3D,
               "the public bound is gen/rules/rule3d.h's");

static int fail_code(gg_fail_kind why)
{
    return why == GG_FAIL_ENV       ? GOLGEN_ERR_ENV
           : why == GG_FAIL_INVALID ? GOLGEN_ERR_CHECK
                                    : GOLGEN_ERR_INPUT;
}

/* The options in range, before anything is parsed or opened. */
static int check_opts(const golgen_bench3d_opts *o, gg_err *err)
{
    bool none = !o->sx && !o->sy && !o->sz;
    bool each = o->sx >= 1 && o->sx <= GG_MAX_SIDE3D && o->sy >= 1 &&
                o->sy <= GG_MAX_SIDE3D && o->sz >= 1 &&
                o->sz <= GG_MAX_SIDE3D;
    if ((!none && !each) || o->gens < 0 || o->seed < 0 || o->threads < 0 ||
        o->slab < 0 || o->ty < 0 || o->ty > 16)
        return gg_fail(err, "golgen_bench_3d: sx, sy and sz 1..%lld (all "
                       "or none), gens 1.. (0: 16), seed, threads and slab "
                       "0.., ty 0..16", (long long)GG_MAX_SIDE3D);
    return 0;
}

/* The backend asked for (NULL: auto), which must run 3D rules, and the
 * rule on the grid it is benched on: errors in the command's order. */
static int resolve(const char *text, const golgen_bench3d_opts *o,
                   const gg_backend_info **info, gg_rule3d *r, gg_err *err)
{
    if (gg_lib_backend(o->backend, info, err))
        return -1;
    if (gg_backend_takes(*info, GG_FAMILY_3D, GG_FEATURE_RUN, err))
        return -1;
    if (!text)
        return gg_fail(err, "golgen_bench_3d: no rule given");
    if (gg_rule3d_parse(text, r, err) || check_opts(o, err))
        return -1;
    bool torus = !o->box && r->topo != GG_TOPO3D_BOX;
    if (o->sx) {
        r->sx = o->sx, r->sy = o->sy, r->sz = o->sz;
    } else if (r->topo == GG_TOPO3D_SIZED_BY_PATTERN) {
        r->sx = r->sy = r->sz = 256;
    }
    r->topo = torus ? GG_TOPO3D_TORUS : GG_TOPO3D_BOX;
    return 0;
}

/* What ran and how fast, once the bench is over. */
static void describe(gg_backend3d *b, const gg_rule3d *r, int64_t gens,
                     const gg_backend_timing *t, const gg_grid3d *g,
                     golgen_bench3d_result *res)
{
    gg_backend_desc d;
    gg_backend3d_describe(b, &d);
    gg_rule3d_format_transition(r, res->rule, sizeof res->rule);
    snprintf(res->what, sizeof res->what, "%s", d.what);
    res->threads = d.threads;
    res->on_device = gg_backend3d_on_device(b);
    res->torus = r->topo == GG_TOPO3D_TORUS;
    res->sx = r->sx, res->sy = r->sy, res->sz = r->sz;
    res->gens = gens;
    res->seconds = t->seconds;
    res->cpu_seconds = t->cpu_seconds;
    res->population = gg_grid3d_population(g);
}

int golgen_bench_3d(const char *rule, const golgen_bench3d_opts *opts,
                    golgen_bench3d_result *res, char *errbuf, size_t errlen)
{
    gg_err err = {{0}};
    golgen_bench3d_opts o = opts ? *opts : (golgen_bench3d_opts){0};
    const gg_backend_info *info;
    gg_rule3d r;
    gg_config cfg;
    gg_grid3d g;
    if (errbuf && errlen)
        errbuf[0] = 0;
    memset(res, 0, sizeof *res);
    if (!o.gens)
        o.gens = 16;
    if (resolve(rule, &o, &info, &r, &err) ||
        gg_grid3d_init(&g, r.sx, r.sy, r.sz, &err))
        return gg_lib_fail(GOLGEN_ERR_INPUT, &err, errbuf, errlen);
    gg_grid3d_random(&g, 0.5, (uint64_t)o.seed);
    if (gg_config_from_env(&cfg, &err)) {
        gg_grid3d_free(&g);
        return gg_lib_fail(GOLGEN_ERR_INPUT, &err, errbuf, errlen);
    }
    gg_backend_opts bo = {.config = &cfg, .threads = o.threads,
                          .slab3d = o.slab, .ty3d = o.ty};
    gg_backend3d *b;
    gg_auto_line line;
    gg_fail_kind why = GG_FAIL_INPUT;
    if (gg_backend3d_open(info, &r, &bo, &b, &line, &why, &err)) {
        gg_grid3d_free(&g);
        return gg_lib_fail(fail_code(why), &err, errbuf, errlen);
    }
    snprintf(res->backend, sizeof res->backend, "%s",
             gg_backend3d_table(b)->name);
    if (!info)
        snprintf(res->auto_line, sizeof res->auto_line, "%s", line.text);
    if (o.on_open)
        o.on_open(o.ctx, res);
    gg_backend_timing t;
    /* a failure here is the device's or the host's, not the input's */
    int code = gg_backend3d_bench(b, &g, o.gens, &t, &err) ? GOLGEN_ERR_ENV
                                                           : GOLGEN_OK;
    if (!code)
        describe(b, &r, o.gens, &t, &g, res);
    gg_backend3d_close(b);
    gg_grid3d_free(&g);
    return code ? gg_lib_fail(code, &err, errbuf, errlen) : GOLGEN_OK;
}

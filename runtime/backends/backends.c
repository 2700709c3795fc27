/* The registry: every backend golgen has, in one array. This is the one
 * place that knows backends by name; adding a backend is a new file
 * runtime/<name>_backend.c with its gg_backend_info and one line in the
 * list of runtime/meson.build. */
#include "backend.h"
#include "backend3d.h"
#include "backend_ltl.h"
#include "rule_gen.h"

#include <stdio.h>
#include <string.h>

/* GG_BACKEND_LIST_X is " X(reference) X(cpu) ...", generated from the
 * list in runtime/meson.build (the registry's one line per backend, which
 * also builds runtime/<name>_backend.c). */
#include "gg_backends.h"

#define X(name) extern const gg_backend_info gg_backend_##name;
GG_BACKEND_LIST_X
#undef X

#define X(name) &gg_backend_##name,
const gg_backend_info *const gg_backends[] = {GG_BACKEND_LIST_X NULL};
#undef X

/* --backend auto's candidates, fastest first (GG_BACKEND_AUTO_X, from the
 * second list in runtime/meson.build, which checks that each is in the
 * first). */
#define X(name) &gg_backend_##name,
const gg_backend_info *const gg_backends_auto[] = {GG_BACKEND_AUTO_X NULL};
#undef X

/* Names of the backends (all, or those with upload_cells) into buf. */
static void names_of(bool generations, const char *sep, char *buf,
                     size_t size)
{
    size_t n = 0;
    buf[0] = 0;
    for (int i = 0; gg_backends[i] && n < size; i++)
        if (!generations || gg_backends[i]->upload_cells)
            n += (size_t)snprintf(buf + n, size - n, "%s%s", n ? sep : "",
                                  gg_backends[i]->name);
}

void gg_backend_names(const char *sep, char *buf, size_t size)
{
    names_of(false, sep, buf, size);
}

void gg_backend_generations_names(const char *sep, char *buf, size_t size)
{
    names_of(true, sep, buf, size);
}

const gg_backend_info *gg_backend_find(const char *name, gg_err *err)
{
    for (int i = 0; gg_backends[i]; i++)
        if (!strcmp(name, gg_backends[i]->name))
            return gg_backends[i];
    char names[256];
    gg_backend_names(", ", names, sizeof names);
    gg_fail(err, "unknown backend '%s'; available: %s", name, names);
    return NULL;
}

void gg_backends_plan_devices(const int *ordinal, int n)
{
    for (int i = 0; gg_backends[i]; i++)
        if (gg_backends[i]->plan_devices)
            gg_backends[i]->plan_devices(ordinal, n);
}

const gg_backend_info *gg_backend_accepting(unsigned opt)
{
    for (int i = 0; gg_backends[i]; i++)
        if (gg_backends[i]->options & opt)
            return gg_backends[i];
    return NULL;
}

/* ---- per-family entry points ---- */

extern const gg_backend3d_info gg_backend3d_reference, gg_backend3d_cpu,
    gg_backend3d_cuda, gg_backend3d_ptx;

/* The backends that run 3D rules, with their 3D entry points
 * (runtime/backends/backend3d.c, runtime/gpu/cuda3d.c). */
static const struct {
    const gg_backend_info *info;
    const gg_backend3d_info *ops;
} runs3d[] = {
    {&gg_backend_reference, &gg_backend3d_reference},
    {&gg_backend_cpu, &gg_backend3d_cpu},
    {&gg_backend_cuda, &gg_backend3d_cuda},
    {&gg_backend_ptx, &gg_backend3d_ptx},
};

const gg_backend3d_info *gg_backend3d_of(const gg_backend_info *info)
{
    for (size_t i = 0; i < sizeof runs3d / sizeof runs3d[0]; i++)
        if (runs3d[i].info == info)
            return runs3d[i].ops;
    return NULL;
}

/* ---- families and features ---- */

const char *gg_family_name(gg_family f)
{
    return f == GG_FAMILY_3D            ? "3D rules"
           : f == GG_FAMILY_GENERATIONS ? "Generations rules"
           : f == GG_FAMILY_LTL         ? "Larger than Life rules"
           : f == GG_FAMILY_TABLE       ? "Golly rule tables and trees"
                                        : "two-state rules";
}

gg_family gg_rule_family(const gg_rule *rule)
{
    return gg_rule_is_generations(rule) ? GG_FAMILY_GENERATIONS
                                        : GG_FAMILY_TWO_STATE;
}

/* Whether backend info steps family f at all (upload_cells for state
 * planes, 3D and LtL entry points, open_table). */
static bool runs(const gg_backend_info *info, gg_family f)
{
    switch (f) {
    case GG_FAMILY_TWO_STATE: return true;
    case GG_FAMILY_GENERATIONS: return info->upload_cells != NULL;
    case GG_FAMILY_LTL: return gg_backend_ltl_of(info) != NULL;
    case GG_FAMILY_TABLE:
        return info->open_table != NULL;
    default: return gg_backend3d_of(info) != NULL;
    }
}

void gg_backend_family_names(gg_family f, const char *sep, char *buf,
                             size_t size)
{
    size_t n = 0;
    buf[0] = 0;
    for (int i = 0; gg_backends[i] && n < size; i++)
        if (runs(gg_backends[i], f))
            n += (size_t)snprintf(buf + n, size - n, "%s%s", n ? sep : "",
                                  gg_backends[i]->name);
}

static const char *feature_name(gg_family_feature feature)
{
    static const char *const names[] = {
        [GG_FEATURE_RUN] = "runs",
        [GG_FEATURE_STORE] = "stores (--store, --resume, --checkpoint-every)",
        [GG_FEATURE_PICTURES] = "pictures (--png, --frames)",
        [GG_FEATURE_DEVICES] = "--devices (bands of rows on devices)",
        [GG_FEATURE_BENCH_BANDS] = "bench --devices",
        [GG_FEATURE_DEVICE_MEM] = "--device-mem (streaming through the "
                                  "backend)",
        [GG_FEATURE_HOST_MEM] = "--host-mem (store to store, band by band)",
        [GG_FEATURE_RANKS] = "MPI ranks",
    };
    return names[feature];
}

/* Which features each family has, whatever the backend: the bands,
 * streams and ranks cut 2D grids into rows; Generations bands are their
 * own runner (runtime/universes/gen_bands.h), the others two-state only
 * so far; 3D grids, Larger than Life and rule tables are stepped whole. */
static bool family_has(gg_family f, gg_family_feature feature)
{
    switch (feature) {
    case GG_FEATURE_RUN:
    case GG_FEATURE_STORE:
    case GG_FEATURE_PICTURES:
        return true;
    case GG_FEATURE_DEVICES:
        return f == GG_FAMILY_TWO_STATE || f == GG_FAMILY_GENERATIONS;
    default:
        return f == GG_FAMILY_TWO_STATE;
    }
}

int gg_backend_takes(const gg_backend_info *info, gg_family f,
                     gg_family_feature feature, gg_err *err)
{
    if (!family_has(f, feature))
        return gg_fail(err, "%s do not take %s yet; run without it",
                       gg_family_name(f), feature_name(feature));
    if (info && !runs(info, f)) {
        char names[256];
        gg_backend_family_names(f, ", ", names, sizeof names);
        return gg_fail(err, "the %s backend does not run %s yet; use "
                       "--backend %s (or auto)", info->name,
                       gg_family_name(f), names);
    }
    return 0;
}

#include "table_kernel.h"

#include <stdio.h>
#include <string.h>

#include "reference_table.h"

bool gg_table_backend_on_host(const gg_backend_info *info)
{
    return !info || (info->open_table && !info->rows);
}

void gg_table_host_names(const char *sep, char *buf, size_t size)
{
    size_t n = 0;
    buf[0] = 0;
    for (int i = 0; gg_backends[i] && n < size; i++)
        if (gg_backends[i]->open_table &&
            gg_table_backend_on_host(gg_backends[i]))
            n += (size_t)snprintf(buf + n, size - n, "%s%s", n ? sep : "",
                                  gg_backends[i]->name);
}

/* info's own open, its name on the kernel. */
static int open_on(const gg_backend_info *info, const gg_table_ask *a,
                   const gg_rulefile *rf, const char *name,
                   gg_table_kernel *k, gg_fail_kind *why, gg_err *err)
{
    gg_backend_opts o = {.config = a->config, .threads = a->leaves ? 1 : 0};
    memset(k, 0, sizeof *k);
    if (info->open_table(rf, name, &o, k, why, err)) {
        memset(k, 0, sizeof *k);
        return -1;
    }
    k->backend = info->name;
    return 0;
}

/* auto: the host's backends in auto's order, each failure kept for the
 * note (the reference, last, always opens). */
static int open_auto(const gg_table_ask *a, const gg_rulefile *rf,
                     const char *name, gg_table_kernel *k, gg_fail_kind *why,
                     gg_err *err)
{
    char note[sizeof k->note] = "";
    size_t n = 0;
    for (int i = 0; gg_backends_auto[i]; i++) {
        const gg_backend_info *info = gg_backends_auto[i];
        if (!info->open_table || !gg_table_backend_on_host(info))
            continue;
        if (!open_on(info, a, rf, name, k, why, err)) {
            snprintf(k->note, sizeof k->note, "%s", note);
            return 0;
        }
        if (n < sizeof note)
            n += (size_t)snprintf(note + n, sizeof note - n,
                                  "%sno %s kernel (%s)", n ? "; " : "",
                                  info->name, err->msg);
    }
    return -1; /* err: the last backend's */
}

int gg_table_kernel_open(const gg_table_ask *a, const gg_rulefile *rf,
                         const char *name, gg_table_kernel *k,
                         gg_fail_kind *why, gg_err *err)
{
    memset(k, 0, sizeof *k);
    *why = GG_FAIL_INPUT;
    if (!a->info)
        return open_auto(a, rf, name, k, why, err);
    if (gg_backend_takes(a->info, GG_FAMILY_TABLE, GG_FEATURE_RUN, err))
        return -1;
    if (a->leaves && !gg_table_backend_on_host(a->info)) {
        char names[128];
        gg_table_host_names(" or ", names, sizeof names);
        return gg_fail(err, "the %s backend steps rule tables on its "
                       "device, not the leaf squares of a hash tree on the "
                       "host; use --backend %s, or --engine dense for %s",
                       a->info->name, names, a->info->name);
    }
    return open_on(a->info, a, rf, name, k, why, err);
}

int gg_table_kernel_step(const gg_table_kernel *k, const gg_rulefile *rf,
                         gg_topo topo, gg_gen_cells *cells, int64_t gens,
                         gg_err *err)
{
    if (k->step)
        return k->step(k->ctx, topo, cells, gens, err);
    return gg_reference_table_run(rf, topo, cells, gens, NULL, err) < 0 ? -1
                                                                       : 0;
}

void gg_table_kernel_close(gg_table_kernel *k)
{
    if (k && k->close)
        k->close(k->ctx);
    if (k)
        memset(k, 0, sizeof *k);
}

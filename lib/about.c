/* golgen_solver_version, golgen_backend_auto_order and
 * golgen_backend_probes (include/golgen.h, golgen_0.5): what this build
 * has and what of it runs here, as `golgen --version` says. */
#include "golgen.h"

#include <stdio.h>
#include <string.h>

#include "backend.h"
#include "backend_auto.h"
#include "build_info.h"
#include "config.h"
#include "net_common.h"

void golgen_solver_version(char *buf, size_t len)
{
    if (buf && len)
        gg_build_solver(buf, len);
}

void golgen_backend_auto_order(const char *sep, char *buf, size_t len)
{
    if (!buf || !len)
        return;
    buf[0] = 0;
    for (int i = 0; gg_backends_auto[i]; i++) {
        size_t used = strlen(buf);
        snprintf(buf + used, len - used, "%s%s", i ? (sep ? sep : "|") : "",
                 gg_backends_auto[i]->name);
    }
}

int golgen_backend_probes(const char *indent, char *buf, size_t len,
                          char *errbuf, size_t errlen)
{
    gg_config cfg;
    gg_err err;
    if (errbuf && errlen)
        errbuf[0] = 0;
    if (!buf || !len)
        return gg_lib_fail(GOLGEN_ERR_INPUT, &(gg_err){"no place for the "
                           "report (buf is NULL or len 0)"}, errbuf, errlen);
    buf[0] = 0;
    /* the probes need the environment (compiler, cache directory) */
    if (gg_config_from_env(&cfg, &err))
        return gg_lib_fail(GOLGEN_ERR_INPUT, &err, errbuf, errlen);
    gg_backend_probe_report(&(gg_backend_opts){.config = &cfg},
                            indent ? indent : "", buf, len);
    return GOLGEN_OK;
}

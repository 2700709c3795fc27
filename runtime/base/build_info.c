#include "build_info.h"

#include <stdio.h>

#include "gg_config.h"

const char *gg_build_version(void) { return GG_VERSION; }

void gg_build_solver(char *buf, size_t size)
{
#if GG_HAVE_SAT
    snprintf(buf, size, "CryptoMiniSat %s", gg_cms_version());
#else
    snprintf(buf, size, "none");
#endif
}

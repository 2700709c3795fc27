// CryptoMiniSat's version string: only its C++ API has it
// (runtime/base/build_info.h).
#include <cryptominisat5/cryptominisat.h>

extern "C" const char *gg_cms_version(void);

extern "C" const char *gg_cms_version(void)
{
    return CMSat::SATSolver::get_version();
}

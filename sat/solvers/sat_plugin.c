/* The gg_sat interface (cms.h) in a build whose solver is the golgen-sat
 * module (sat_ops.h says why): the first call that needs a solver loads
 * it, every call goes through its table. A program that never solves
 * never maps CryptoMiniSat or the C++ runtime. */
#define _GNU_SOURCE /* dladdr */
#include "sat_ops.h"

#include <dlfcn.h>
#include <limits.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "gg_config.h"

/* Loaded once per process and read-only after: threads and ranks share it. */
static pthread_once_t load_once = PTHREAD_ONCE_INIT;
static const gg_sat_ops *loaded;
static char why_not[512];

/* The folder of the object this code was linked into (the golgen command,
 * libgolgen.so or the Python module), where installs put the module. */
static bool own_folder(char *dir, size_t size)
{
    Dl_info info;
    char exe[PATH_MAX];
    const char *path = NULL;
    /* the main program is named as it was invoked (argv[0], maybe found
     * through PATH or relative): the kernel's link says where it is */
    if (dladdr((void *)own_folder, &info) && info.dli_fname &&
        info.dli_fname[0] == '/')
        path = info.dli_fname;
    else {
        ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
        if (n <= 0)
            return false;
        exe[n] = '\0';
        path = exe;
    }
    const char *slash = strrchr(path, '/');
    size_t len = (size_t)(slash - path);
    if (len + 1 > size)
        return false;
    memcpy(dir, path, len);
    dir[len] = '\0';
    return true;
}

/* The module at path, if it is there and has this build's table; else
 * NULL with the reason appended to why_not. */
static const gg_sat_ops *try_module(const char *path)
{
    size_t used = strlen(why_not);
    char *why = why_not + used;
    size_t room = sizeof why_not - used;
    if (access(path, R_OK) != 0)
        return NULL;
    void *h = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    if (!h) {
        snprintf(why, room, "%s%s", used ? "; " : "", dlerror());
        return NULL;
    }
    gg_sat_ops_fn entry = (gg_sat_ops_fn)dlsym(h, GG_SAT_OPS_ENTRY);
    const gg_sat_ops *ops = entry ? entry() : NULL;
    if (!ops || ops->abi != GG_SAT_OPS_ABI ||
        strcmp(ops->version, GG_VERSION) != 0) {
        snprintf(why, room, "%s%s is from another golgen build (version %s, "
                 "table %d; this golgen: %s, table %d)", used ? "; " : "",
                 path, ops ? ops->version : "?", ops ? ops->abi : -1,
                 GG_VERSION, GG_SAT_OPS_ABI);
        dlclose(h);
        return NULL;
    }
    return ops;
}

/* Beside the program or library first (a build folder, a Python package,
 * a copy carried to another machine), then where this build was
 * configured to install it, then its build folder. */
static void load(void)
{
    char dir[PATH_MAX], path[PATH_MAX + 32];
    if (own_folder(dir, sizeof dir)) {
        snprintf(path, sizeof path, "%s/%s", dir, GG_SAT_PLUGIN_NAME);
        if ((loaded = try_module(path)))
            return;
    }
    if ((loaded = try_module(GG_SAT_PLUGIN_INSTALL)))
        return;
    if ((loaded = try_module(GG_SAT_PLUGIN_BUILD)))
        return;
    if (!why_not[0])
        snprintf(why_not, sizeof why_not, "%s is neither beside this "
                 "program nor at %s or %s", GG_SAT_PLUGIN_NAME,
                 GG_SAT_PLUGIN_INSTALL, GG_SAT_PLUGIN_BUILD);
}

static const gg_sat_ops *ops(void)
{
    pthread_once(&load_once, load);
    return loaded;
}

const char *gg_sat_unavailable_why(void)
{
    return ops() ? NULL : why_not;
}

bool gg_sat_available(void) { return ops() != NULL; }

bool gg_sat_kind_available(gg_sat_kind kind)
{
    return ops() && ops()->kind_available(kind);
}

gg_sat *gg_sat_new_kind(gg_sat_kind kind)
{
    return ops() ? ops()->new_kind(kind) : NULL;
}

gg_sat *gg_sat_new(void) { return gg_sat_new_kind(GG_SAT_CMS); }

gg_sat *gg_sat_new_for_shapes(void)
{
    return gg_sat_new_kind(gg_sat_kind_available(GG_SAT_CADICAL)
                               ? GG_SAT_CADICAL : GG_SAT_CMS);
}

/* A solver exists only once the module loaded, so below it is there. */
void gg_sat_free(gg_sat *s)
{
    if (s)
        loaded->free(s);
}

void gg_sat_set_threads(gg_sat *s, int threads)
{
    loaded->set_threads(s, threads);
}

int gg_sat_var(gg_sat *s) { return loaded->var(s); }

void gg_sat_clause(gg_sat *s, const int *lits, int n)
{
    loaded->clause(s, lits, n);
}

void gg_sat_set_conflict_budget(gg_sat *s, uint64_t n)
{
    loaded->set_conflict_budget(s, n);
}

gg_sat_result gg_sat_solve(gg_sat *s, double max_seconds)
{
    return loaded->solve(s, max_seconds);
}

gg_sat_result gg_sat_solve_assuming(gg_sat *s, const int *lits, int n,
                                    double max_seconds)
{
    return loaded->solve_assuming(s, lits, n, max_seconds);
}

void gg_sat_freeze(gg_sat *s, int v) { loaded->freeze(s, v); }

bool gg_sat_value(const gg_sat *s, int v) { return loaded->value(s, v); }

void gg_sat_interrupt(gg_sat *s) { loaded->interrupt(s); }

uint64_t gg_sat_conflicts(gg_sat *s) { return loaded->conflicts(s); }

const char *gg_cms_version(void)
{
    return ops() ? ops()->solver_version() : "(its module is not loaded)";
}

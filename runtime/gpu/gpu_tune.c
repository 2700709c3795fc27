#include "gpu_tune.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "jit.h"

uint64_t gg_gpu_hash(uint64_t h, const void *data, size_t len)
{
    const unsigned char *p = data;
    if (!h)
        h = 1469598103934665603ull;
    for (size_t i = 0; i < len; i++)
        h = (h ^ p[i]) * 1099511628211ull;
    return h;
}

int gg_gpu_cache_dir(const char *given, char *buf, size_t size, gg_err *err)
{
    gg_jit_opts jo = {0};
    jo.cache_dir = given;
    return gg_jit_cache_dir_made(&jo, buf, size, err);
}

int gg_gpu_tune_rows_ahead(const gg_gpu_tune *t, bool ptx)
{
    return t->pf ? t->pf : ptx ? 3 : 2;
}

bool gg_gpu_tune_ok(const gg_gpu_tune *t)
{
    int pf = gg_gpu_tune_rows_ahead(t, true);
    return t->tmax >= 1 && t->tmax <= 16 && !(t->tmax & (t->tmax - 1)) &&
           t->wpb >= 1 && t->wpb <= 32 &&
           (t->wpl <= 1 || t->wpl == 2 || t->wpl == 4) && t->fma >= 0 &&
           t->fma <= 16 && (!t->turn || t->turn == 3 || t->turn == 6) &&
           t->pf >= 0 && t->pf <= 8 && t->warm >= 0 && t->warm <= 8 &&
           (!t->warm || t->warm > pf) &&
           (!t->nreg || (t->nreg >= 64 && t->nreg <= 255));
}

int gg_gpu_tune_parse(const char *text, gg_gpu_tune *t, gg_err *err)
{
    int v[9] = {0, 0, 0, 1, 0, 0, 0, 0, 0}, n = 0;
    const char *s = text;
    for (;;) {
        char *end;
        if (n && !strcmp(s, "generic"))
            break; /* the last item: runtime/base/config.c reads it */
        errno = 0;
        long x = strtol(s, &end, 10);
        if (end == s || errno || x < INT_MIN || x > INT_MAX || n == 9 ||
            (*end && *end != ','))
            return gg_fail(err, "GOLGEN_GPU_TUNE='%s' is not a launch shape: "
                           "write 3 to 9 integers, tmax,funnel,wpb[,wpl[,fma"
                           "[,turn[,pf,warm[,nreg]]]]], e.g. 16,1,4, and "
                           "',generic' for no constant row stride; or unset "
                           "it (or 'generic') to autotune", text);
        v[n++] = (int)x;
        if (!*end)
            break;
        s = end + 1;
    }
    if (n < 3)
        return gg_fail(err, "GOLGEN_GPU_TUNE='%s' has %d number%s; it needs "
                       "at least tmax,funnel,wpb, e.g. 16,1,4", text, n,
                       n == 1 ? "" : "s");
    *t = (gg_gpu_tune){v[0], v[1], v[2], v[3], v[4], v[5], v[6], v[7], v[8]};
    return 0;
}

static void tune_path(char *buf, size_t size, const char *dir, uint64_t key)
{
    snprintf(buf, size, "%s/gpu-tune-%016llx.txt", dir,
             (unsigned long long)key);
}

bool gg_gpu_tune_load(const char *cache_dir, uint64_t key, gg_gpu_tune *t)
{
    char path[4200];
    tune_path(path, sizeof path, cache_dir, key);
    FILE *f = fopen(path, "r");
    if (!f)
        return false;
    gg_gpu_tune r = {0, 0, 0, 1, 0, 0, 0, 0, 0};
    int n = fscanf(f, "tmax %d funnel %d wpb %d wpl %d fma %d turn %d pf %d "
                   "warm %d nreg %d", &r.tmax, &r.funnel, &r.wpb, &r.wpl,
                   &r.fma, &r.turn, &r.pf, &r.warm, &r.nreg);
    fclose(f);
    if (n == 3)
        r.wpl = 1;
    if (n < 5)
        r.fma = 0;
    if (n < 6)
        r.turn = 0;
    if (n < 8)
        r.pf = r.warm = 0;
    if (n < 9)
        r.nreg = 0;
    if (n < 3 || r.wpl < 1 || !gg_gpu_tune_ok(&r))
        return false;
    if (r.wpl > 1) /* several words per lane: funnel shifts only */
        r.funnel = 1;
    *t = r;
    return true;
}

/* Best effort: a cache that cannot be written only costs a re-tune. */
void gg_gpu_tune_save(const char *cache_dir, uint64_t key,
                      const gg_gpu_tune *t)
{
    char path[4200], tmp[4300];
    tune_path(path, sizeof path, cache_dir, key);
    snprintf(tmp, sizeof tmp, "%s.%d.tmp", path, (int)getpid());
    FILE *f = fopen(tmp, "w");
    if (!f)
        return;
    int bad = fprintf(f, "tmax %d funnel %d wpb %d wpl %d fma %d turn %d "
                      "pf %d warm %d nreg %d\n", t->tmax, t->funnel, t->wpb,
                      t->wpl > 1 ? t->wpl : 1, t->fma,
                      t->turn == 6 ? 6 : 3, t->pf, t->warm, t->nreg) < 0;
    bad |= fclose(f) != 0;
    if (bad || rename(tmp, path))
        remove(tmp);
}

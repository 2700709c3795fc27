/* The public calls on worlds (include/golgen/world.h, golgen_0.8) over
 * lib/world_core.h: handles allocated here, every failure a code and a
 * sentence. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "run_lib.h"
#include "world_core.h"

static golgen_world *new_world(char *errbuf, size_t errlen)
{
    if (errbuf && errlen)
        errbuf[0] = 0;
    golgen_world *w = calloc(1, sizeof *w);
    if (!w)
        gg_world_fail(GOLGEN_ERR_ENV, &(gg_err){"out of memory"}, errbuf,
                      errlen);
    return w;
}

/* *out = w when made (bad 0), else w freed and the sentence given. */
static int made(golgen_world *w, int bad, const gg_err *err,
                golgen_world **out, char *errbuf, size_t errlen)
{
    if (bad) {
        free(w);
        return gg_world_fail(GOLGEN_ERR_INPUT, err, errbuf, errlen);
    }
    *out = w;
    return GOLGEN_OK;
}

int golgen_world_parse(const char *text, size_t len,
                       const golgen_world_load_opts *opts, golgen_world **w,
                       char *errbuf, size_t errlen)
{
    gg_err err;
    *w = NULL;
    golgen_world_load_opts o = opts ? *opts : (golgen_world_load_opts){0};
    if (!text)
        return gg_world_fail(GOLGEN_ERR_INPUT, &(gg_err){"no pattern "
                             "(text is NULL)"}, errbuf, errlen);
    golgen_world *nw = new_world(errbuf, errlen);
    if (!nw)
        return GOLGEN_ERR_ENV;
    int bad = gg_world_parse(nw, o.rule, o.fallback, o.near, text, len,
                             o.name ? o.name : "the pattern", o.max_cells,
                             &err);
    return made(nw, bad, &err, w, errbuf, errlen);
}

int golgen_world_read(const char *path, const golgen_world_load_opts *opts,
                      golgen_world **w, char *errbuf, size_t errlen)
{
    gg_err err;
    *w = NULL;
    golgen_world_load_opts o = opts ? *opts : (golgen_world_load_opts){0};
    if (!path)
        return gg_world_fail(GOLGEN_ERR_INPUT, &(gg_err){"no file (path is "
                             "NULL)"}, errbuf, errlen);
    const char *near = o.near ? o.near : path;
    golgen_world *nw = new_world(errbuf, errlen);
    if (!nw)
        return GOLGEN_ERR_ENV;
    int bad;
    if (golgen_file_is_rle3(path)) { /* a 3D grid (Golly's 3D.lua) */
        gg_rle3 p3;
        memset(&p3, 0, sizeof p3);
        bad = gg_rle3_read(path, &p3, &err) ||
              gg_world_from_rle3(nw, o.rule, o.fallback, near, &p3,
                                 o.max_cells, &err);
        gg_rle3_free(&p3);
    } else { /* read as golgen run reads it as cells (lib/pattern.c) */
        golgen_pattern *p;
        bad = gg_lib_pattern_read(path, GOLGEN_PATTERN_CELLS, NULL, &p,
                                  &err) ||
              gg_world_from_pattern(nw, o.rule, o.fallback, near,
                                    gg_lib_pattern_cells(p, NULL, &err),
                                    o.max_cells, &err);
        golgen_pattern_free(p);
    }
    return made(nw, bad, &err, w, errbuf, errlen);
}

int golgen_world_with_rule(const golgen_world *w,
                           const golgen_world_rule *rule, int64_t max_cells,
                           golgen_world **out, char *errbuf, size_t errlen)
{
    gg_err err;
    *out = NULL;
    golgen_world *nw = new_world(errbuf, errlen);
    if (!nw)
        return GOLGEN_ERR_ENV;
    int bad = gg_world_with_any(w, &rule->r, max_cells, nw, &err);
    return made(nw, bad, &err, out, errbuf, errlen);
}

int golgen_world_soup(const golgen_world_rule *rule, int64_t width,
                      int64_t height, int percent, uint64_t seed,
                      golgen_world **out, char *errbuf, size_t errlen)
{
    gg_err err;
    *out = NULL;
    if (width < 1 || height < 1 || percent < 0 || percent > 100)
        return gg_world_fail(GOLGEN_ERR_INPUT, &(gg_err){"a soup's sides "
                             "are at least 1, its percent 0 .. 100"},
                             errbuf, errlen);
    golgen_world *nw = new_world(errbuf, errlen);
    if (!nw)
        return GOLGEN_ERR_ENV;
    int bad = gg_world_soup_any(nw, &rule->r, width, height, percent, seed,
                                &err);
    return made(nw, bad, &err, out, errbuf, errlen);
}

void golgen_world_free(golgen_world *w)
{
    if (!w)
        return;
    golgen_world_stepper_close(w->run);
    gg_world_release(w);
    free(w);
}

int golgen_world_family(const golgen_world *w)
{
    return w->family;
}

int golgen_world_topology(const golgen_world *w)
{
    switch (gg_world_topo(w)->topo) {
    case GG_TOPO_TORUS: return GOLGEN_TOPO_TORUS;
    case GG_TOPO_PLANE: return GOLGEN_TOPO_BOUNDED;
    default: return GOLGEN_TOPO_UNBOUNDED;
    }
}

int golgen_world_states(const golgen_world *w)
{
    return gg_world_states(w);
}

int64_t golgen_world_generation(const golgen_world *w)
{
    return gg_world_generation(w);
}

int64_t golgen_world_population(const golgen_world *w)
{
    return gg_world_population(w);
}

void golgen_world_extent(const golgen_world *w, int64_t *x, int64_t *y,
                         int64_t *wd, int64_t *ht)
{
    gg_world_extent(w, x, y, wd, ht);
}

int golgen_world_bbox(const golgen_world *w, int64_t *x, int64_t *y,
                      int64_t *wd, int64_t *ht)
{
    if (gg_world_bbox(w, x, y, wd, ht))
        return 1;
    *x = *y = *wd = *ht = 0;
    return 0;
}

int64_t golgen_world_z(const golgen_world *w, int64_t *depth)
{
    return gg_world_z(w, depth);
}

int golgen_world_set_z(golgen_world *w, int64_t z, char *errbuf,
                       size_t errlen)
{
    gg_err err;
    w->edits++;
    return gg_world_set_z(w, z, &err)
               ? gg_world_fail(GOLGEN_ERR_INPUT, &err, errbuf, errlen)
               : GOLGEN_OK;
}

void golgen_world_render(const golgen_world *w, int64_t x, int64_t y,
                         int cols, int rows, int level, int64_t sample,
                         uint8_t *out)
{
    if (cols < 1 || rows < 1)
        return;
    if (level < 0 || level > 40) {
        memset(out, 0, (size_t)cols * (size_t)rows);
        return;
    }
    gg_world_render(w, x, y, cols, rows, level, sample, out);
}

#define GG_W_WINDOW_SIDE (1LL << 20)
#define GG_W_WINDOW_CELLS (1LL << 28)

int golgen_world_window(const golgen_world *w, int64_t x, int64_t y,
                        int64_t wd, int64_t ht, uint8_t *out, char *errbuf,
                        size_t errlen)
{
    if (wd < 1 || ht < 1 || wd > GG_W_WINDOW_SIDE ||
        ht > GG_W_WINDOW_SIDE || wd * ht > GG_W_WINDOW_CELLS) {
        gg_err err;
        gg_fail(&err, "a window of %lld x %lld cells: sides 1 .. 2^20, "
                "at most 2^28 cells", (long long)wd, (long long)ht);
        return gg_world_fail(GOLGEN_ERR_INPUT, &err, errbuf, errlen);
    }
    gg_world_render(w, x, y, (int)wd, (int)ht, 0, 0, out);
    return GOLGEN_OK;
}

int golgen_world_get(const golgen_world *w, int64_t x, int64_t y)
{
    uint8_t v = 0;
    gg_world_render(w, x, y, 1, 1, 0, 0, &v);
    return v;
}

int golgen_world_set(golgen_world *w, int64_t x, int64_t y, int state,
                     char *errbuf, size_t errlen)
{
    gg_err err;
    w->edits++;
    if (state < 0)
        return gg_world_fail(GOLGEN_ERR_INPUT, &(gg_err){"a negative "
                             "state"}, errbuf, errlen);
    return gg_world_set(w, x, y, state, &err)
               ? gg_world_fail(GOLGEN_ERR_INPUT, &err, errbuf, errlen)
               : GOLGEN_OK;
}

int golgen_world_paste(golgen_world *w, const char *text, size_t len,
                       int64_t x, int64_t y, char *errbuf, size_t errlen)
{
    gg_err err;
    w->edits++;
    return gg_world_paste(w, text, len, x, y, &err)
               ? gg_world_fail(GOLGEN_ERR_INPUT, &err, errbuf, errlen)
               : GOLGEN_OK;
}

void golgen_world_clear(golgen_world *w)
{
    w->edits++;
    gg_world_clear(w);
}

int golgen_world_run(golgen_world *w, int64_t n, const char *backend,
                     char *errbuf, size_t errlen)
{
    const char *name = backend ? backend : "auto";
    if (w->run && strcmp(w->run_backend, name)) {
        golgen_world_stepper_close(w->run);
        w->run = NULL;
    }
    if (!w->run) {
        golgen_world_rule r;
        gg_world_rule_get(w, &r.r);
        golgen_world_stepper_opts o = {.backend = backend};
        int code = golgen_world_stepper_open(&r, &o, &w->run, errbuf,
                                             errlen);
        gg_wrule_free(&r.r);
        if (code)
            return code;
        snprintf(w->run_backend, sizeof w->run_backend, "%s", name);
    }
    return golgen_world_step(w->run, w, n, NULL, errbuf, errlen);
}

int golgen_world_backend_check(const char *backend, char *errbuf,
                               size_t errlen)
{
    gg_err err;
    const gg_backend_info *info;
    return gg_lib_backend(backend, &info, &err)
               ? gg_world_fail(GOLGEN_ERR_INPUT, &err, errbuf, errlen)
               : GOLGEN_OK;
}

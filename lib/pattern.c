/* golgen_pattern (include/golgen/run.h, golgen_0.7): a pattern read once,
 * held as golgen run's readers hold it. Read AS_READ (what the hash tree
 * takes, cli/run's auto engine): a macrocell file stays its tree
 * (runtime/formats/mc_tree.h), an RLE whose box is much bigger than its
 * text stays its runs (runtime/formats/rle_runs.h), the rest become
 * cells; read as CELLS: every format becomes cells, as the dense engine
 * reads it (runtime/formats/pattern.h). A dense run of a tree or runs
 * gets cells on demand: drawn from the runs, or read again from the file
 * (or the kept text), exactly as a dense read would have read them. */
#include "run_lib.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "file_text.h"

/* An RLE goes to the tree as runs when its box has more cells than this
 * a byte of text: a soup keeps the dense reader, whose word-at-a-time
 * paths are faster than runs into leaves; Golly's circuits (a 31473 x
 * 31101 box from 46 KB) skip a 122 MB grid. */
#define SPARSE_CELLS_PER_BYTE 64.0

static golgen_pattern *new_pattern(const char *path, const char *name,
                                   gg_err *err)
{
    golgen_pattern *p = calloc(1, sizeof *p);
    if (p && path)
        p->path = strdup(path);
    if (p && name)
        p->name = strdup(name);
    if (!p || (path && !p->path) || (name && !p->name)) {
        golgen_pattern_free(p);
        gg_fail(err, "out of memory for a pattern");
        return NULL;
    }
    return p;
}

/* text (len bytes, called name) as AS_READ holds it: a macrocell's tree,
 * a sparse RLE's runs, else cells. */
static int parse_as_read(golgen_pattern *p, const char *text, size_t len,
                         const char *name, gg_stop_flag *stop, gg_err *err)
{
    int rc;
    if (len >= 4 && !memcmp(text, "[M2]", 4)) {
        rc = gg_mc_tree_parse(text, len, name, &p->mc, err);
        if (!rc)
            p->form = GG_LIB_TREE;
    } else if ((rc = gg_pattern_runs_parse(text, len, name, stop,
                                           SPARSE_CELLS_PER_BYTE, &p->runs,
                                           err)) != 1) {
        if (!rc)
            p->form = GG_LIB_RUNS;
    } else {
        rc = gg_pattern_parse_stop(text, len, name, stop, &p->p, err);
        if (!rc) {
            p->form = GG_LIB_CELLS;
            p->has_cells = true;
        }
    }
    return rc;
}

int gg_lib_pattern_read(const char *path, int how, gg_stop_flag *stop,
                        golgen_pattern **out, gg_err *err)
{
    struct stat st;
    *out = NULL;
    golgen_pattern *p = new_pattern(path, path, err);
    if (!p)
        return -1;
    p->stream = !strcmp(path, "-") || stat(path, &st) || !S_ISREG(st.st_mode);
    int rc;
    if (how == GOLGEN_PATTERN_CELLS || !strcmp(path, "-")) {
        rc = gg_pattern_read_stop(path, stop, &p->p, err);
        p->has_cells = !rc;
    } else {
        size_t len; /* gunzipped when gzip: a .mc.gz stays a tree too */
        char *text = gg_file_text_alloc(path, stop, &len, err);
        rc = text ? parse_as_read(p, text, len, path, stop, err) : -1;
        free(text);
    }
    if (rc) {
        golgen_pattern_free(p);
        return -1;
    }
    *out = p;
    return 0;
}

int gg_lib_pattern_parse(const char *text, size_t len, const char *name,
                         int how, golgen_pattern **out, gg_err *err)
{
    *out = NULL;
    golgen_pattern *p = new_pattern(NULL, name ? name : "the pattern", err);
    if (!p)
        return -1;
    int rc;
    if (how == GOLGEN_PATTERN_CELLS) {
        rc = gg_pattern_parse(text, len, p->name, &p->p, err);
        p->has_cells = !rc;
    } else {
        rc = parse_as_read(p, text, len, p->name, NULL, err);
    }
    if (!rc && !p->has_cells) { /* its cells may be asked for later */
        p->text = malloc(len + 1);
        if (p->text) {
            memcpy(p->text, text, len);
            p->text[len] = '\0';
            p->len = len;
        } else {
            rc = gg_fail(err, "out of memory for a pattern's text");
        }
    }
    if (rc) {
        golgen_pattern_free(p);
        return -1;
    }
    *out = p;
    return 0;
}

gg_pattern *gg_lib_pattern_cells(golgen_pattern *p, gg_stop_flag *stop,
                                 gg_err *err)
{
    if (p->has_cells)
        return &p->p;
    gg_err ignored; /* a box too big to draw: read as cells, which says */
    int rc = 0;
    if (p->form != GG_LIB_RUNS ||
        gg_pattern_runs_to_pattern(&p->runs, &p->p, &ignored))
        rc = p->path ? gg_pattern_read_stop(p->path, stop, &p->p, err)
                     : gg_pattern_parse_stop(p->text, p->len, p->name, stop,
                                             &p->p, err);
    if (rc)
        return NULL;
    /* held as cells from now on: the runs or the tree go */
    if (p->form == GG_LIB_RUNS)
        gg_pattern_runs_free(&p->runs);
    if (p->form == GG_LIB_TREE)
        gg_mc_tree_free(&p->mc);
    p->form = GG_LIB_CELLS;
    p->has_cells = true;
    free(p->text);
    p->text = NULL;
    return &p->p;
}

const char *gg_lib_pattern_rule(const golgen_pattern *p)
{
    return p->has_cells         ? p->p.rule
           : p->form == GG_LIB_TREE ? p->mc.rule
                                    : p->runs.head.rule;
}

void gg_lib_pattern_size(const golgen_pattern *p, int64_t *w, int64_t *h)
{
    *w = p->has_cells ? p->p.plane[0].width
         : p->form == GG_LIB_RUNS ? p->runs.width
                                  : 0;
    *h = p->has_cells ? p->p.plane[0].height
         : p->form == GG_LIB_RUNS ? p->runs.height
                                  : 0;
}

int64_t gg_lib_pattern_population(const golgen_pattern *p)
{
    if (!p->has_cells && p->form == GG_LIB_RUNS) /* counted while parsing */
        return p->runs.population;
    int64_t pop = 0;
    for (int i = 0; p->has_cells && i < p->p.n_planes; i++)
        pop += gg_grid_population(&p->p.plane[i]);
    return pop;
}

int64_t gg_lib_pattern_live(const golgen_pattern *p)
{
    if (!p->has_cells)
        return p->form == GG_LIB_RUNS ? p->runs.live : 0;
    return gg_grids_live(p->p.plane, p->p.n_planes);
}

/* ---- the public calls ---- */

static int report(int code, const gg_err *err, char *errbuf, size_t errlen)
{
    if (errbuf && errlen)
        snprintf(errbuf, errlen, "%s", err->msg);
    return code;
}

int golgen_pattern_read(const char *path, int how,
                        const volatile sig_atomic_t *stop,
                        golgen_pattern **p, char *errbuf, size_t errlen)
{
    gg_err err = {{0}};
    report(0, &err, errbuf, errlen);
    if (!path || !p || (how != GOLGEN_PATTERN_AS_READ &&
                        how != GOLGEN_PATTERN_CELLS)) {
        if (p)
            *p = NULL;
        gg_fail(&err, "golgen_pattern_read: a path, a handle to fill and "
                "GOLGEN_PATTERN_AS_READ or _CELLS");
        return report(GOLGEN_ERR_INPUT, &err, errbuf, errlen);
    }
    return gg_lib_pattern_read(path, how, stop, p, &err)
               ? report(GOLGEN_ERR_INPUT, &err, errbuf, errlen)
               : GOLGEN_OK;
}

int golgen_pattern_parse(const char *text, size_t len, const char *name,
                         int how, golgen_pattern **p, char *errbuf,
                         size_t errlen)
{
    gg_err err = {{0}};
    report(0, &err, errbuf, errlen);
    if ((!text && len) || !p ||
        (how != GOLGEN_PATTERN_AS_READ && how != GOLGEN_PATTERN_CELLS)) {
        if (p)
            *p = NULL;
        gg_fail(&err, "golgen_pattern_parse: text, a handle to fill and "
                "GOLGEN_PATTERN_AS_READ or _CELLS");
        return report(GOLGEN_ERR_INPUT, &err, errbuf, errlen);
    }
    return gg_lib_pattern_parse(text ? text : "", len, name, how, p, &err)
               ? report(GOLGEN_ERR_INPUT, &err, errbuf, errlen)
               : GOLGEN_OK;
}

const char *golgen_pattern_rule(const golgen_pattern *p)
{
    return p ? gg_lib_pattern_rule(p) : NULL;
}

int golgen_pattern_box(const golgen_pattern *p, int64_t *x, int64_t *y,
                       int64_t *w, int64_t *h)
{
    int64_t bx = 0, by = 0, bw = 0, bh = 0;
    if (p && (p->has_cells || p->form == GG_LIB_RUNS)) {
        const gg_pattern *head = p->has_cells ? &p->p : &p->runs.head;
        gg_lib_pattern_size(p, &bw, &bh);
        bx = head->x, by = head->y;
    } else if (p && p->mc.n > 1 && !p->mc.node[p->mc.n - 1].empty) {
        /* a root of level L covers x from -2^(L-1), y from -2^(L-1) + 1
         * (runtime/formats/pattern_mc_read.c) */
        const gg_mc_node *nd = &p->mc.node[p->mc.n - 1];
        int64_t half = (int64_t)1 << (nd->level - 1);
        bx = -half + nd->x0, by = -half + 1 + nd->y0;
        bw = nd->x1 - nd->x0 + 1, bh = nd->y1 - nd->y0 + 1;
    }
    if (bw <= 0 || bh <= 0)
        bx = by = bw = bh = 0;
    if (x)
        *x = bx;
    if (y)
        *y = by;
    if (w)
        *w = bw;
    if (h)
        *h = bh;
    return bw > 0 && bh > 0;
}

int64_t golgen_pattern_generation(const golgen_pattern *p)
{
    return !p                        ? 0
           : p->has_cells            ? p->p.generation
           : p->form == GG_LIB_TREE ? p->mc.generation
                                    : p->runs.head.generation;
}

const char *golgen_pattern_form(const golgen_pattern *p)
{
    return !p || p->form == GG_LIB_CELLS ? "cells"
           : p->form == GG_LIB_RUNS      ? "runs"
                                         : "tree";
}

void golgen_pattern_free(golgen_pattern *p)
{
    if (!p)
        return;
    if (p->has_cells)
        gg_pattern_free(&p->p);
    if (p->form == GG_LIB_RUNS)
        gg_pattern_runs_free(&p->runs);
    if (p->form == GG_LIB_TREE)
        gg_mc_tree_free(&p->mc);
    free(p->path);
    free(p->text);
    free(p->name);
    free(p);
}

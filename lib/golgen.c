/* The C library (include/golgen.h) over runtime/: opaque handles around
 * gg_rule and gg_universe, every failure a code and a sentence, nothing
 * printed, nothing exited. The environment is read here, at the library's
 * edge, as cli/main.c reads it for the command (runtime/base/config.h). */
#include "golgen.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backend.h"
#include "backend_auto.h"
#include "config.h"
#include "engine_choice.h"
#include "gg_config.h"
#include "hashlife.h"
#include "kernel_source.h"
#include "net_common.h"
#include "pattern.h"
#include "picture.h"
#include "rule.h"
#include "store.h"
#include "tiles.h"
#include "universe.h"

struct golgen_rule {
    gg_rule rule;
};

struct golgen_universe {
    gg_universe u;
    gg_config cfg;       /* the environment when the backend opened */
    gg_backend *backend; /* kept open between runs */
    bool for_tree;       /* opened for the tree's leaves: one thread, and
                            auto takes host backends only */
    char asked[32];      /* the name it was opened for ("auto") */
    char used[32];       /* the backend that runs */
    char line[1024];     /* auto's line, else the backend's name */
    const char *engine;  /* the engine of the last run ("" before any) */
    /* Tiles around the backend's stepper, kept from one tiles run to the
     * next (what they learnt holds while only they step the grid). */
    gg_tiles tiles;
    gg_stepper tiled;
    bool has_tiles;
    /* The tree of the last hashlife run, which left the grid as the tree
     * holds it: the next hashlife run goes on from it, memo and all.
     * Every other run drops it. Its leaves are stepped by backend. */
    gg_hl *tree;
};

/* The sentence into the caller's buffer; returns code. */
static int report(int code, const gg_err *err, char *errbuf, size_t errlen)
{
    if (errbuf && errlen)
        snprintf(errbuf, errlen, "%s", err->msg);
    return code;
}

static int fail_code(gg_fail_kind why)
{
    switch (why) {
    case GG_FAIL_ENV: return GOLGEN_ERR_ENV;
    case GG_FAIL_INVALID: return GOLGEN_ERR_CHECK;
    case GG_FAIL_INPUT: break;
    }
    return GOLGEN_ERR_INPUT;
}

static void clear(char *errbuf, size_t errlen)
{
    if (errbuf && errlen)
        errbuf[0] = '\0';
}

const char *golgen_version(void)
{
    return GG_VERSION;
}

/* ---- rules ---- */

int golgen_rule_parse(const char *text, golgen_rule **rule, char *errbuf,
                      size_t errlen)
{
    gg_err err;
    clear(errbuf, errlen);
    if (!rule)
        return report(GOLGEN_ERR_INPUT, &(gg_err){"no place for the rule "
                      "(rule is NULL)"}, errbuf, errlen);
    *rule = NULL;
    if (!text)
        return report(GOLGEN_ERR_INPUT, &(gg_err){"no rule text (NULL)"},
                      errbuf, errlen);
    golgen_rule *r = gg_alloc(1, sizeof *r, &err, "rule");
    if (!r || gg_rule_parse(text, &r->rule, &err)) {
        free(r);
        return report(GOLGEN_ERR_INPUT, &err, errbuf, errlen);
    }
    *rule = r;
    return GOLGEN_OK;
}

/* A rule's canonical text into buf (cut to fit; "" without a rule). */
static void rule_text(const gg_rule *rule, char *buf, size_t len)
{
    if (!buf || !len)
        return;
    buf[0] = '\0';
    if (rule) {
        char text[1024];
        gg_rule_format(rule, text, sizeof text);
        snprintf(buf, len, "%s", text);
    }
}

void golgen_rule_text(const golgen_rule *rule, char *buf, size_t len)
{
    rule_text(rule ? &rule->rule : NULL, buf, len);
}

void golgen_rule_free(golgen_rule *rule)
{
    free(rule);
}

/* ---- universes ---- */

/* What every constructor does first: clear the message, check and clear
 * the place for the new universe. */
static int begin_new(golgen_universe **u, char *errbuf, size_t errlen)
{
    clear(errbuf, errlen);
    if (!u)
        return report(GOLGEN_ERR_INPUT, &(gg_err){"u is NULL"}, errbuf,
                      errlen);
    *u = NULL;
    return GOLGEN_OK;
}

static int check_rule(const golgen_rule *rule, gg_err *err)
{
    if (!rule)
        return gg_fail(err, "no rule (NULL)");
    if (gg_rule_is_generations(&rule->rule)) {
        char text[256];
        gg_rule_format(&rule->rule, text, sizeof text);
        return gg_fail(err, "%s is a Generations rule: universes of "
                       "Generations rules are not in the library yet "
                       "('golgen run' runs them)", text);
    }
    return 0;
}

static int wrap(gg_universe *g, golgen_universe **out, gg_err *err)
{
    golgen_universe *u = gg_alloc(1, sizeof *u, err, "universe");
    if (!u) {
        gg_universe_free(g);
        return -1;
    }
    u->u = *g;
    *out = u;
    return 0;
}

int golgen_universe_new(const golgen_rule *rule, golgen_universe **u,
                        char *errbuf, size_t errlen)
{
    gg_err err;
    gg_universe g;
    int rc = begin_new(u, errbuf, errlen);
    if (rc)
        return rc;
    if (check_rule(rule, &err) || gg_universe_init(&g, &rule->rule, &err) ||
        wrap(&g, u, &err))
        return report(GOLGEN_ERR_INPUT, &err, errbuf, errlen);
    return GOLGEN_OK;
}

/* A pattern that sits where Golly puts one without a position. */
static int from_pattern(const golgen_rule *rule, gg_pattern *p,
                        golgen_universe **u, gg_err *err)
{
    gg_universe g;
    int bad = gg_universe_from_pattern(&g, &rule->rule, p, err) ||
              wrap(&g, u, err);
    gg_pattern_free(p);
    return bad ? -1 : 0;
}

static int check_box(const void *cells, int64_t width, int64_t height,
                     gg_err *err)
{
    if (!cells)
        return gg_fail(err, "no cells (NULL)");
    if (width < 1 || height < 1 || width > GG_MAX_GRID_SIDE ||
        height > GG_MAX_GRID_SIDE)
        return gg_fail(err, "a box of %lld x %lld cells: width and height "
                       "must be 1 to %lld", (long long)width,
                       (long long)height, (long long)GG_MAX_GRID_SIDE);
    return 0;
}

int golgen_universe_from_cells(const golgen_rule *rule, const uint8_t *cells,
                               int64_t width, int64_t height,
                               golgen_universe **u, char *errbuf,
                               size_t errlen)
{
    gg_err err;
    gg_pattern p;
    int rc = begin_new(u, errbuf, errlen);
    if (rc)
        return rc;
    if (check_rule(rule, &err) || check_box(cells, width, height, &err) ||
        gg_pattern_init(&p, width, height, 1, &err))
        return report(GOLGEN_ERR_INPUT, &err, errbuf, errlen);
    for (int64_t y = 0; y < height; y++)
        for (int64_t x = 0; x < width; x++)
            if (cells[y * width + x])
                gg_grid_set(&p.plane[0], x, y, 1);
    if (from_pattern(rule, &p, u, &err))
        return report(GOLGEN_ERR_INPUT, &err, errbuf, errlen);
    return GOLGEN_OK;
}

int golgen_universe_from_bits(const golgen_rule *rule, const uint8_t *bits,
                              int64_t width, int64_t height, size_t row_bytes,
                              golgen_universe **u, char *errbuf,
                              size_t errlen)
{
    gg_err err;
    gg_pattern p;
    int rc = begin_new(u, errbuf, errlen);
    if (rc)
        return rc;
    if (check_rule(rule, &err) || check_box(bits, width, height, &err))
        return report(GOLGEN_ERR_INPUT, &err, errbuf, errlen);
    if (row_bytes < (uint64_t)(width + 7) / 8)
        return report(GOLGEN_ERR_INPUT, &(gg_err){"row_bytes is shorter "
                      "than a row of width bits"}, errbuf, errlen);
    if (gg_pattern_init(&p, width, height, 1, &err))
        return report(GOLGEN_ERR_INPUT, &err, errbuf, errlen);
    for (int64_t y = 0; y < height; y++) {
        const uint8_t *row = bits + (size_t)y * row_bytes;
        for (int64_t x = 0; x < width; x++)
            if ((row[x >> 3] >> (x & 7)) & 1u)
                gg_grid_set(&p.plane[0], x, y, 1);
    }
    if (from_pattern(rule, &p, u, &err))
        return report(GOLGEN_ERR_INPUT, &err, errbuf, errlen);
    return GOLGEN_OK;
}

/* The rule given, else the pattern's, else B3/S23 (as golgen run). */
static int from_read(const golgen_rule *rule, gg_pattern *p,
                     golgen_universe **u, gg_err *err)
{
    golgen_rule own;
    if (!rule) {
        const char *text = p->rule ? p->rule : "B3/S23";
        if (gg_rule_parse(text, &own.rule, err)) {
            gg_pattern_free(p);
            return -1;
        }
        rule = &own;
    }
    if (check_rule(rule, err)) {
        gg_pattern_free(p);
        return -1;
    }
    return from_pattern(rule, p, u, err);
}

int golgen_universe_read(const golgen_rule *rule, const char *path,
                         golgen_universe **u, char *errbuf, size_t errlen)
{
    gg_err err;
    gg_pattern p;
    int rc = begin_new(u, errbuf, errlen);
    if (rc)
        return rc;
    if (!path || !strcmp(path, "-"))
        return report(GOLGEN_ERR_INPUT, &(gg_err){"give a pattern file's "
                      "name (the library reads no standard input)"}, errbuf,
                      errlen);
    if (gg_pattern_read(path, &p, &err) || from_read(rule, &p, u, &err))
        return report(GOLGEN_ERR_INPUT, &err, errbuf, errlen);
    return GOLGEN_OK;
}

int golgen_universe_parse(const golgen_rule *rule, const char *text,
                          size_t len, golgen_universe **u, char *errbuf,
                          size_t errlen)
{
    gg_err err;
    gg_pattern p;
    int rc = begin_new(u, errbuf, errlen);
    if (rc)
        return rc;
    if (!text)
        return report(GOLGEN_ERR_INPUT, &(gg_err){"no pattern text (NULL)"},
                      errbuf, errlen);
    if (gg_pattern_parse(text, len, "pattern text", &p, &err) ||
        from_read(rule, &p, u, &err))
        return report(GOLGEN_ERR_INPUT, &err, errbuf, errlen);
    return GOLGEN_OK;
}

static void drop_tiles(golgen_universe *u)
{
    if (u->has_tiles)
        gg_tiles_free(&u->tiles);
    u->has_tiles = false;
}

static void drop_tree(golgen_universe *u)
{
    gg_hl_free(u->tree);
    u->tree = NULL;
}

static void close_backend(golgen_universe *u)
{
    drop_tiles(u); /* both step through the backend */
    drop_tree(u);
    if (u->backend)
        gg_backend_close(u->backend);
    u->backend = NULL;
    u->asked[0] = u->used[0] = u->line[0] = '\0';
}

/* Open `name` ("auto" or NULL: the fastest here) unless it is open; for
 * the tree's leaves (as the command opens them: small squares one host
 * thread steps, auto among host backends only) when for_tree. */
static int open_backend(golgen_universe *u, const char *name, bool for_tree,
                        gg_err *err)
{
    bool is_auto = gg_backend_is_auto(name);
    const char *asked = is_auto ? "auto" : name;
    if (u->backend && !strcmp(u->asked, asked) && u->for_tree == for_tree)
        return GOLGEN_OK;
    close_backend(u);
    const gg_backend_info *info = NULL;
    if (!is_auto && !(info = gg_backend_find(name, err)))
        return GOLGEN_ERR_INPUT;
    if (strlen(asked) >= sizeof u->asked)
        return gg_fail(err, "backend name '%.40s...' is too long", asked);
    if (gg_config_from_env(&u->cfg, err))
        return GOLGEN_ERR_INPUT;
    gg_backend_opts o = {.config = &u->cfg, .announce = false,
                         .threads = for_tree ? 1 : 0, .host_only = for_tree};
    gg_fail_kind why = GG_FAIL_INPUT;
    if (is_auto) {
        gg_auto_line line;
        if (gg_backend_open_auto(&u->u.rule, &o, &u->backend, &line, &why,
                                 err))
            return fail_code(why);
        snprintf(u->line, sizeof u->line, "%s", line.text);
    } else if (gg_backend_open(info, &u->u.rule, &o, &u->backend, &why,
                               err)) {
        return fail_code(why);
    }
    snprintf(u->asked, sizeof u->asked, "%s", asked);
    u->for_tree = for_tree;
    snprintf(u->used, sizeof u->used, "%s", gg_backend_of(u->backend)->name);
    if (!is_auto)
        snprintf(u->line, sizeof u->line, "backend %s", u->used);
    return GOLGEN_OK;
}

/* The most cells a hashlife run brings back into the grid: 2^34 (2 GiB,
 * as the command writes a dense file from the tree), and no more cells
 * than the tree's default memory has bytes (the grid takes an eighth of
 * that, and a dense run of it several times the grid). */
static int64_t tree_dense_max(void)
{
    int64_t mem = gg_engine_default_mem();
    return mem < ((int64_t)1 << 34) ? mem : (int64_t)1 << 34;
}

/* What every run checks first; engine parsed into *e. */
static int begin_run(golgen_universe *u, int64_t gens, const char *engine,
                     gg_engine *e, gg_err *err)
{
    if (!u)
        return gg_fail(err, "u is NULL");
    if (gens < 0)
        return gg_fail(err, "the number of generations is negative");
    return gg_generations_check(u->u.generation, gens, err) ||
                   gg_engine_parse(engine, e, err)
               ? -1
               : 0;
}

/* Auto's choice for gens more generations (engine_choice.h): the tree,
 * else dense, in tiles when the backend (opened here to tell) is a host
 * backend. */
static int choose(golgen_universe *u, int64_t gens, const char *backend,
                  gg_engine *e, gg_err *err)
{
    int64_t w, h;
    golgen_universe_bbox(u, NULL, NULL, &w, &h);
    int64_t pop = gg_engine_box_needs_population(w, h)
                      ? golgen_universe_population(u)
                      : -1;
    if (gg_engine_prefers_tree(&u->u.rule, w, h, pop, gens, 0)) {
        *e = GG_ENGINE_HASHLIFE;
        return GOLGEN_OK;
    }
    int code = open_backend(u, backend, false, err);
    if (code)
        return code;
    *e = gg_engine_tiles_take(u->backend) ||
                 gg_engine_tiles_device(u->backend)
             ? GG_ENGINE_TILES
             : GG_ENGINE_DENSE;
    return GOLGEN_OK;
}

/* The engine asked for, refused by name where it cannot run, with its
 * backend open. */
static int open_engine(golgen_universe *u, int64_t gens, const char *backend,
                       gg_engine *e, gg_err *err)
{
    if (*e == GG_ENGINE_AUTO) {
        int code = choose(u, gens, backend, e, err);
        if (code)
            return code;
    }
    const char *no = gg_engine_tree_refuses(&u->u.rule);
    if (*e == GG_ENGINE_HASHLIFE && no) {
        char text[256];
        gg_rule_format(&u->u.rule, text, sizeof text);
        return gg_fail(err, "%s is %s: the hash-tree engine (hashlife) runs "
                       "rules on the unbounded plane only; use engine "
                       "auto, dense or tiles", text, no);
    }
    int code = open_backend(u, backend, *e == GG_ENGINE_HASHLIFE, err);
    if (code)
        return code;
    if (*e == GG_ENGINE_TILES && !gg_engine_tiles_take(u->backend) &&
        !gg_engine_tiles_device(u->backend))
        return gg_fail(err, "engine tiles steps tiles on a host backend "
                       "(cpu, reference) or on cuda and ptx; the %s backend "
                       "does not: use engine dense or auto", u->used);
    return GOLGEN_OK;
}

/* dense or tiles: the grid by the backend's stepper, or through tiles. */
static int run_grid(golgen_universe *u, int64_t gens, bool tiles,
                    gg_err *err)
{
    drop_tree(u);
    gg_stepper s = gg_backend_stepper(u->backend);
    if (!tiles)
        drop_tiles(u);
    else if (!u->has_tiles) {
        /* a device's tiles keep the grid there for the run */
        u->tiled = gg_engine_tiles_device(u->backend)
                       ? gg_tiles_device_stepper(&u->tiles, u->backend, 0, 0)
                       : gg_tiles_stepper(&u->tiles, &s, 0, 0);
        u->has_tiles = true;
    }
    if (gens && gg_universe_run(&u->u, tiles ? &u->tiled : &s, gens, NULL,
                                NULL, err)) {
        close_backend(u); /* it failed part way: open afresh next time */
        return GOLGEN_ERR_ENV;
    }
    return GOLGEN_OK;
}

/* The tree from the grid (unless the last run left one), gens on, and
 * the result back in the grid; on failure the grid stays as it was. */
static int run_tree(golgen_universe *u, int64_t gens, gg_err *err)
{
    drop_tiles(u);
    if (!gens)
        return GOLGEN_OK;
    if (!u->tree) {
        gg_pattern p;
        int64_t bytes = gg_engine_tree_bytes(gg_engine_default_mem());
        if (gg_hl_new(&u->u.rule, u->backend, bytes, &u->tree, err))
            return GOLGEN_ERR_ENV;
        int bad = gg_universe_to_pattern(&u->u, &p, err) ||
                  gg_hl_set_pattern(u->tree, &p, err);
        gg_pattern_free(&p);
        if (bad) {
            drop_tree(u);
            return GOLGEN_ERR_ENV;
        }
    }
    gg_pattern q;
    gg_universe g;
    if (gg_hl_run(u->tree, gens, NULL, NULL, err)) {
        close_backend(u); /* the tree failed part way: start afresh */
        return GOLGEN_ERR_ENV;
    }
    int64_t x0, y0, x1, y1;
    if (gg_hl_bbox(u->tree, &x0, &y0, &x1, &y1) &&
        (double)(x1 - x0 + 1) * (double)(y1 - y0 + 1) >
            (double)tree_dense_max()) {
        gg_fail(err, "hashlife ran to generation %lld, where the live cells "
                "span %lld x %lld: more than the universe's grid may hold "
                "here (%lld cells); it stays at generation %lld",
                (long long)gg_hl_generation(u->tree),
                (long long)(x1 - x0 + 1), (long long)(y1 - y0 + 1),
                (long long)tree_dense_max(), (long long)u->u.generation);
        drop_tree(u);
        return GOLGEN_ERR_ENV;
    }
    if (gg_hl_to_pattern(u->tree, tree_dense_max(), &q, err)) {
        drop_tree(u);
        return GOLGEN_ERR_ENV;
    }
    int bad = gg_universe_from_pattern(&g, &u->u.rule, &q, err);
    gg_pattern_free(&q);
    if (bad) {
        drop_tree(u);
        return GOLGEN_ERR_ENV;
    }
    gg_universe_free(&u->u);
    u->u = g;
    return GOLGEN_OK;
}

int golgen_universe_run_engine(golgen_universe *u, int64_t gens,
                               const char *backend, const char *engine,
                               char *errbuf, size_t errlen)
{
    gg_err err;
    gg_engine e;
    clear(errbuf, errlen);
    if (begin_run(u, gens, engine, &e, &err))
        return report(GOLGEN_ERR_INPUT, &err, errbuf, errlen);
    int code = open_engine(u, gens, backend, &e, &err);
    if (code)
        return report(code < 0 ? code : GOLGEN_ERR_INPUT, &err, errbuf,
                      errlen);
    u->engine = gg_engine_name(e);
    code = e == GG_ENGINE_HASHLIFE ? run_tree(u, gens, &err)
                                   : run_grid(u, gens, e == GG_ENGINE_TILES,
                                              &err);
    return code ? report(code, &err, errbuf, errlen) : GOLGEN_OK;
}

int golgen_universe_run(golgen_universe *u, int64_t gens, const char *backend,
                        char *errbuf, size_t errlen)
{
    return golgen_universe_run_engine(u, gens, backend, "auto", errbuf,
                                      errlen);
}

int golgen_universe_choose_engine(golgen_universe *u, int64_t gens,
                                  const char *backend, const char **engine,
                                  char *errbuf, size_t errlen)
{
    gg_err err;
    gg_engine e;
    clear(errbuf, errlen);
    if (engine)
        *engine = NULL;
    if (!engine)
        return report(GOLGEN_ERR_INPUT, &(gg_err){"engine is NULL"}, errbuf,
                      errlen);
    if (begin_run(u, gens, "auto", &e, &err))
        return report(GOLGEN_ERR_INPUT, &err, errbuf, errlen);
    int code = choose(u, gens, backend, &e, &err);
    if (code)
        return report(code, &err, errbuf, errlen);
    *engine = gg_engine_name(e);
    return GOLGEN_OK;
}

const char *golgen_universe_engine(const golgen_universe *u)
{
    return u && u->engine ? u->engine : "";
}

const char *golgen_universe_backend(const golgen_universe *u)
{
    return u ? u->used : "";
}

const char *golgen_universe_backend_line(const golgen_universe *u)
{
    return u ? u->line : "";
}

/* ---- reading cells back ---- */

int64_t golgen_universe_generation(const golgen_universe *u)
{
    return u ? u->u.generation : 0;
}

int64_t golgen_universe_population(const golgen_universe *u)
{
    return u ? gg_universe_population(&u->u) : 0;
}

int golgen_universe_get(const golgen_universe *u, int64_t x, int64_t y)
{
    if (!u)
        return 0;
    const gg_grid *g = &u->u.grid;
    /* unsigned compare: below x0 wraps to a huge value */
    uint64_t gx = (uint64_t)x - (uint64_t)u->u.x0;
    uint64_t gy = (uint64_t)y - (uint64_t)u->u.y0;
    if (gx >= (uint64_t)g->width || gy >= (uint64_t)g->height)
        return 0;
    return gg_grid_get(g, (int64_t)gx, (int64_t)gy);
}

int golgen_universe_bbox(const golgen_universe *u, int64_t *x, int64_t *y,
                         int64_t *w, int64_t *h)
{
    int64_t x0, y0, x1, y1;
    int64_t bx = 0, by = 0, bw = 0, bh = 0;
    if (!u)
        return GOLGEN_ERR_INPUT;
    if (gg_grid_bbox(&u->u.grid, &x0, &y0, &x1, &y1)) {
        bx = u->u.x0 + x0;
        by = u->u.y0 + y0;
        bw = x1 - x0 + 1;
        bh = y1 - y0 + 1;
    }
    if (x) *x = bx;
    if (y) *y = by;
    if (w) *w = bw;
    if (h) *h = bh;
    return GOLGEN_OK;
}

void golgen_universe_extent(const golgen_universe *u, int64_t *x, int64_t *y,
                            int64_t *w, int64_t *h)
{
    if (x) *x = u ? u->u.x0 : 0;
    if (y) *y = u ? u->u.y0 : 0;
    if (w) *w = u ? u->u.grid.width : 0;
    if (h) *h = u ? u->u.grid.height : 0;
}

int golgen_universe_window(const golgen_universe *u, int64_t x, int64_t y,
                           int64_t w, int64_t h, uint8_t *out, char *errbuf,
                           size_t errlen)
{
    clear(errbuf, errlen);
    if (!u || !out)
        return report(GOLGEN_ERR_INPUT, &(gg_err){"u or out is NULL"}, errbuf,
                      errlen);
    if (w < 0 || h < 0 || (w && h > INT64_MAX / w) ||
        x > INT64_MAX - w || y > INT64_MAX - h)
        return report(GOLGEN_ERR_INPUT, &(gg_err){"the window's size is "
                      "negative or too large"}, errbuf, errlen);
    for (int64_t j = 0; j < h; j++)
        for (int64_t i = 0; i < w; i++)
            out[j * w + i] = (uint8_t)golgen_universe_get(u, x + i, y + j);
    return GOLGEN_OK;
}

void golgen_universe_rule(const golgen_universe *u, char *buf, size_t len)
{
    rule_text(u ? &u->u.rule : NULL, buf, len);
}

/* ---- writing ---- */

int golgen_universe_write(const golgen_universe *u, const char *path,
                          char *errbuf, size_t errlen)
{
    gg_err err;
    gg_pattern p;
    clear(errbuf, errlen);
    if (!u)
        return report(GOLGEN_ERR_INPUT, &(gg_err){"u is NULL"}, errbuf,
                      errlen);
    if (gg_lib_out_path(path, "golgen_universe_format", &err) ||
        gg_universe_to_pattern(&u->u, &p, &err))
        return report(GOLGEN_ERR_INPUT, &err, errbuf, errlen);
    int bad = gg_pattern_write(path, &p, &err);
    gg_pattern_free(&p);
    return bad ? report(GOLGEN_ERR_INPUT, &err, errbuf, errlen) : GOLGEN_OK;
}

int golgen_universe_write_store(const golgen_universe *u, const char *path,
                                char *errbuf, size_t errlen)
{
    gg_err err;
    clear(errbuf, errlen);
    if (!u || !path)
        return report(GOLGEN_ERR_INPUT, &(gg_err){"u or path is NULL"},
                      errbuf, errlen);
    if (gg_store_write(path, &u->u, &err))
        return report(GOLGEN_ERR_INPUT, &err, errbuf, errlen);
    return GOLGEN_OK;
}

int golgen_universe_read_store(const char *path, golgen_universe **u,
                               char *errbuf, size_t errlen)
{
    gg_err err;
    gg_universe g;
    int rc = begin_new(u, errbuf, errlen);
    if (rc)
        return rc;
    if (!path)
        return report(GOLGEN_ERR_INPUT, &(gg_err){"path is NULL"}, errbuf,
                      errlen);
    if (gg_store_read(path, &g, &err) || wrap(&g, u, &err))
        return report(GOLGEN_ERR_INPUT, &err, errbuf, errlen);
    return GOLGEN_OK;
}

_Static_assert(GOLGEN_PICTURE_MAX_SIDE == GG_PICTURE_MAX_SIDE,
               "the public bound is runtime/formats/picture.h's");

int golgen_universe_write_png(const golgen_universe *u, const char *path,
                              const golgen_picture_opts *o,
                              golgen_picture_info *info, char *errbuf,
                              size_t errlen)
{
    gg_err err;
    gg_picture_info got;
    clear(errbuf, errlen);
    if (!u || !path)
        return report(GOLGEN_ERR_INPUT, &(gg_err){"u or path is NULL"},
                      errbuf, errlen);
    gg_picture_opts po = {0};
    if (o)
        po = (gg_picture_opts){.window = o->window, .wx = o->x, .wy = o->y,
                               .ww = o->w, .wh = o->h, .scale = o->scale,
                               .zoom = o->zoom, .max_side = o->max_side};
    if (gg_lib_png_check(&err))
        return report(GOLGEN_ERR_ENV, &err, errbuf, errlen);
    if (gg_picture_write_universe(path, &u->u, &po, &got, &err))
        return report(GOLGEN_ERR_INPUT, &err, errbuf, errlen);
    if (info)
        *info = (golgen_picture_info){got.x, got.y, got.w, got.h, got.scale,
                                      got.zoom};
    return GOLGEN_OK;
}

typedef int (*format_fn)(const gg_pattern *, char **, size_t *, gg_err *);

int golgen_universe_format(const golgen_universe *u, const char *format,
                           char **text, size_t *len, char *errbuf,
                           size_t errlen)
{
    static const struct {
        const char *name;
        format_fn fn;
    } formats[] = {
        {"rle", gg_pattern_format_rle},
        {"cells", gg_pattern_format_cells},
        {"lif", gg_pattern_format_life106},
        {"mc", gg_pattern_format_mc},
    };
    gg_err err;
    gg_pattern p;
    clear(errbuf, errlen);
    if (!u || !text || !len)
        return report(GOLGEN_ERR_INPUT, &(gg_err){"u, text or len is NULL"},
                      errbuf, errlen);
    *text = NULL;
    *len = 0;
    format_fn fn = NULL;
    for (size_t i = 0; i < sizeof formats / sizeof *formats; i++)
        if (format && !strcmp(format, formats[i].name))
            fn = formats[i].fn;
    if (!fn)
        return report(GOLGEN_ERR_INPUT, &(gg_err){"unknown pattern format; "
                      "available: rle, cells, lif, mc"}, errbuf, errlen);
    if (gg_universe_to_pattern(&u->u, &p, &err))
        return report(GOLGEN_ERR_INPUT, &err, errbuf, errlen);
    int bad = fn(&p, text, len, &err);
    gg_pattern_free(&p);
    return bad ? report(GOLGEN_ERR_INPUT, &err, errbuf, errlen) : GOLGEN_OK;
}

void golgen_universe_free(golgen_universe *u)
{
    if (!u)
        return;
    close_backend(u);
    gg_universe_free(&u->u);
    free(u);
}

/* ---- kernels ---- */

/* The PTX target is the autotuner's base shape (as golgen --target ptx). */
static int kernel_ptx_base(const gg_rule *rule, const gg_choose_opts *o,
                           char **src, size_t *len, gg_err *err)
{
    return gg_kernel_ptx(rule, NULL, o, src, len, err);
}

int golgen_emit(const golgen_rule *rule, const char *target, char **src,
                size_t *len, char *errbuf, size_t errlen)
{
    static const struct {
        const char *name;
        int (*emit)(const gg_rule *, const gg_choose_opts *, char **,
                    size_t *, gg_err *);
    } targets[] = { /* each takes every 2D family, Generations included */
        {"c", gg_kernel_c},
        {"cuda", gg_kernel_cuda},
        {"ptx", kernel_ptx_base},
        {"opencl", gg_kernel_opencl},
    };
    gg_err err;
    gg_config cfg;
    clear(errbuf, errlen);
    if (!rule || !src || !len)
        return report(GOLGEN_ERR_INPUT, &(gg_err){"rule, src or len is "
                      "NULL"}, errbuf, errlen);
    *src = NULL;
    *len = 0;
    int t = -1;
    for (int i = 0; i < (int)(sizeof targets / sizeof *targets); i++)
        if (target && !strcmp(target, targets[i].name))
            t = i;
    if (t < 0)
        return report(GOLGEN_ERR_INPUT, &(gg_err){"unknown target; "
                      "available: c, cuda, ptx, opencl"}, errbuf, errlen);
    if (gg_config_from_env(&cfg, &err))
        return report(GOLGEN_ERR_INPUT, &err, errbuf, errlen);
    if (targets[t].emit(&rule->rule, &cfg.choose, src, len, &err))
        return report(GOLGEN_ERR_CHECK, &err, errbuf, errlen);
    return GOLGEN_OK;
}

void golgen_free(void *p)
{
    free(p);
}

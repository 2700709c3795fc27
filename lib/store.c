/* Stores (include/golgen.h, golgen_0.3): a universe bit-packed on disk
 * with its rule, generation and position, a checksum per band of rows
 * (runtime/formats/store.h). The header, a window of it as a pattern file,
 * and a pattern file stored, every family a store takes (two-state,
 * Generations, Larger than Life and Golly rule tables, whose file is
 * found beside the pattern or in Golly's folder; 3D stores are read by
 * info and export). What `golgen
 * store` does (cli/cmd_store.c). */
#include "golgen.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gen_universe.h"
#include "ltl_universe.h"
#include "rule_find.h"
#include "table_universe.h"
#include "net_common.h"
#include "pattern.h"
#include "store.h"
#include "universe.h"

int golgen_store_info_read(const char *path, golgen_store_info **info,
                           char *errbuf, size_t errlen)
{
    gg_err err = {{0}};
    gg_store_info s;
    if (errbuf && errlen)
        errbuf[0] = 0;
    if (!path || !info)
        return gg_lib_fail(GOLGEN_ERR_INPUT, &(gg_err){"path or info is "
                           "NULL"}, errbuf, errlen);
    *info = NULL;
    if (gg_store_info_read(path, &s, &err))
        return gg_lib_fail(GOLGEN_ERR_INPUT, &err, errbuf, errlen);
    golgen_store_info *i = gg_alloc(1, sizeof *i, &err, "store info");
    if (!i)
        return gg_lib_fail(GOLGEN_ERR_ENV, &err, errbuf, errlen);
    snprintf(i->rule, sizeof i->rule, "%s", s.rule);
    i->version = s.version;
    i->width = s.width;
    /* a 3D store's rows are its layers' rows */
    i->height = s.depth > 0 ? s.height / s.depth : s.height;
    i->depth = s.depth;
    i->planes = s.planes;
    i->generation = s.generation;
    i->x0 = s.x0;
    i->y0 = s.y0;
    i->bands = s.bands;
    i->band_rows = s.band_rows;
    snprintf(i->family, sizeof i->family, "%s",
             gg_store_family_name(gg_store_family_of(&s)));
    *info = i;
    return GOLGEN_OK;
}

void golgen_store_info_free(golgen_store_info *info)
{
    free(info);
}

int golgen_store_export(const char *path, const int64_t *window,
                        const char *out, char *errbuf, size_t errlen)
{
    gg_err err = {{0}};
    gg_store_info s;
    gg_pattern p;
    if (errbuf && errlen)
        errbuf[0] = 0;
    if (!path || !out)
        return gg_lib_fail(GOLGEN_ERR_INPUT, &(gg_err){"path or out is "
                           "NULL"}, errbuf, errlen);
    if (gg_store_info_read(path, &s, &err))
        return gg_lib_fail(GOLGEN_ERR_INPUT, &err, errbuf, errlen);
    int64_t x = window ? window[0] : s.x0, y = window ? window[1] : s.y0,
            w = window ? window[2] : s.width, h = window ? window[3] : s.height;
    if (gg_store_window(path, x, y, w, h, &p, &err))
        return gg_lib_fail(GOLGEN_ERR_INPUT, &err, errbuf, errlen);
    int bad = gg_pattern_write(out, &p, &err);
    gg_pattern_free(&p);
    return bad ? gg_lib_fail(GOLGEN_ERR_INPUT, &err, errbuf, errlen)
               : GOLGEN_OK;
}

/* Pattern p placed under rule, stored in the universe its family takes. */
static int store_pattern(const gg_rule *rule, const gg_pattern *p,
                         const char *out, gg_err *err)
{
    int bad;
    if (gg_rule_is_generations(rule)) {
        gg_gen_universe g;
        if (gg_gen_universe_from_pattern(&g, rule, p, err))
            return -1;
        bad = gg_store_write_gen(out, &g, err);
        gg_gen_universe_free(&g);
        return bad;
    }
    gg_universe u;
    if (gg_universe_from_pattern(&u, rule, p, err))
        return -1;
    bad = gg_store_write(out, &u, err);
    gg_universe_free(&u);
    return bad;
}

/* Pattern p placed under a Larger than Life rule, stored. */
static int store_ltl(const char *text, const gg_pattern *p, const char *out,
                     gg_err *err)
{
    gg_ltl_rule rule;
    gg_ltl_universe u;
    if (gg_ltl_parse(text, &rule, err) ||
        gg_ltl_universe_from_pattern(&u, &rule, p, err))
        return -1;
    int bad = gg_ltl_universe_write_store(out, &u, err);
    gg_ltl_universe_free(&u);
    return bad;
}

/* Pattern p (read from in) placed under a Golly rule found as Golly finds
 * it (beside the pattern, in Golly's Rules folder), stored; 0 when no
 * file of that name was found (err: the parse error, then where it
 * looked), 1 when stored, -1 on failure. */
static int store_table(const char *text, const char *in, const gg_pattern *p,
                       const char *out, gg_err *err)
{
    gg_rule_found f;
    gg_err ferr;
    int got = gg_rule_find(text, in, NULL, NULL, &f, &ferr);
    if (got <= 0) {
        size_t n = strlen(err->msg);
        if (got < 0)
            *err = ferr;
        else
            snprintf(err->msg + n, sizeof err->msg - n,
                     " (nor a rule file: %.300s)", ferr.msg);
        return got;
    }
    gg_table_universe u;
    int bad = gg_table_universe_from_pattern(&u, &f.rf, f.rule, f.topo,
                                             f.width, f.height, p, err);
    if (!bad) {
        bad = gg_table_universe_write_store(out, &u, err);
        gg_table_universe_free(&u);
    }
    gg_rule_found_free(&f);
    return bad ? -1 : 1;
}

int golgen_store_import(const char *in, const char *rule_text,
                        const char *out, char *errbuf, size_t errlen)
{
    gg_err err = {{0}};
    gg_pattern p;
    gg_rule rule;
    if (errbuf && errlen)
        errbuf[0] = 0;
    if (!in || !out)
        return gg_lib_fail(GOLGEN_ERR_INPUT, &(gg_err){"in or out is NULL"},
                           errbuf, errlen);
    if (gg_pattern_read(in, &p, &err))
        return gg_lib_fail(GOLGEN_ERR_INPUT, &err, errbuf, errlen);
    const char *text = rule_text ? rule_text : p.rule ? p.rule : "B3/S23";
    int bad = gg_rule_parse(text, &rule, &err);
    if (bad && gg_ltl_looks_like(text))
        bad = store_ltl(text, &p, out, &err);
    else if (bad)
        bad = store_table(text, in, &p, out, &err) == 1 ? 0 : -1;
    else
        bad = store_pattern(&rule, &p, out, &err);
    gg_pattern_free(&p);
    return bad ? gg_lib_fail(GOLGEN_ERR_INPUT, &err, errbuf, errlen)
               : GOLGEN_OK;
}

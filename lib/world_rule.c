/* Rules of every family a world runs (lib/world_core.h): two-state and
 * Generations in B/S notation, Larger than Life, 3D, and Golly rule files
 * found as golgen run finds them; and the public calls on them
 * (include/golgen/world.h). */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "world_core.h"

/* The @COLORS section of the file the rule came from: "state r g b"
 * lines, or "r g b r g b" (a gradient over states 1 .. n-1), as Golly
 * reads them; anything after the numbers is a comment. The file is the
 * one gg_rule_find read (read again here: the rule parser skips the
 * section). A file that cannot be read again, or a built-in rule, keeps
 * Generations' colours. */
static void read_colours(gg_wtable *t)
{
    FILE *f = t->f.rf.builtin ? NULL : fopen(t->f.path, "rb");
    if (!f)
        return;
    char line[512];
    bool in = false;
    int n = t->f.rf.n_states;
    for (int s = 0; s < 256; s++)
        t->rgb[s][0] = t->rgb[s][1] = t->rgb[s][2] = 128;
    while (fgets(line, sizeof line, f)) {
        if (line[0] == '@') {
            in = !strncmp(line, "@COLORS", 7);
            continue;
        }
        if (!in || line[0] == '#')
            continue;
        long v[6];
        int k = 0;
        char *p = line, *end;
        while (k < 6) {
            long x = strtol(p, &end, 10);
            if (end == p)
                break;
            v[k++] = x < 0 ? 0 : x > 255 ? 255 : x;
            p = end;
        }
        if (k == 4 && v[0] >= 0 && v[0] < n) {
            for (int c = 0; c < 3; c++)
                t->rgb[v[0]][c] = (uint8_t)v[c + 1];
            t->coloured = true;
        } else if (k == 6 && n > 2) {
            for (int s = 1; s < n; s++)
                for (int c = 0; c < 3; c++)
                    t->rgb[s][c] = (uint8_t)(v[c] + (v[c + 3] - v[c]) *
                                                        (s - 1) / (n - 2));
            t->coloured = true;
        }
    }
    fclose(f);
}

/* A rule B/S notation does not know, as a Golly rule file; err keeps the
 * B/S parser's message when no file has that name. */
static int find_table(const char *text, const char *near, gg_wrule *r,
                      gg_err *err)
{
    gg_wtable *t = calloc(1, sizeof *t);
    if (!t)
        return gg_fail(err, "out of memory");
    gg_err ferr;
    int got = gg_rule_find(text, near, NULL, NULL, &t->f, &ferr);
    if (got != 1) {
        free(t);
        if (got < 0)
            *err = ferr;
        else {
            size_t n = strlen(err->msg);
            snprintf(err->msg + n, sizeof err->msg - n,
                     " (nor a rule file: %.300s)", ferr.msg);
        }
        return -1;
    }
    if (t->f.topo == GG_TOPO_UNBOUNDED && !gg_rulefile_zero_stays(&t->f.rf)) {
        gg_fail(err, "%s: state 0 amid 0s does not stay 0, so it cannot "
                "run on the unbounded plane: give a grid (%s:T100,100)",
                t->f.rule, t->f.rule);
        gg_rule_found_free(&t->f);
        free(t);
        return -1;
    }
    t->refs = 1;
    read_colours(t);
    r->family = GOLGEN_FAMILY_TABLE;
    r->table = t;
    snprintf(r->text, sizeof r->text, "%s", t->f.rule);
    return 0;
}

int gg_wrule_parse(const char *text, const char *near, gg_wrule *r,
                   gg_err *err)
{
    memset(r, 0, sizeof *r);
    if (gg_ltl_looks_like(text)) {
        if (gg_ltl_parse(text, &r->ltl, err))
            return -1;
        r->family = GOLGEN_FAMILY_LTL;
        char canon[1200];
        gg_ltl_format(&r->ltl, canon, sizeof canon);
        snprintf(r->text, sizeof r->text, "%.255s", canon);
        return 0;
    }
    if (gg_rule3d_is_3d(text)) {
        if (gg_rule3d_parse(text, &r->r3, err))
            return -1;
        r->family = GOLGEN_FAMILY_3D;
        gg_rule3d_format(&r->r3, r->text, sizeof r->text);
        return 0;
    }
    if (!gg_rule_parse(text, &r->rule, err)) {
        r->family = gg_rule_is_generations(&r->rule)
                        ? GOLGEN_FAMILY_GENERATIONS
                        : GOLGEN_FAMILY_TWO_STATE;
        gg_rule_format(&r->rule, r->text, sizeof r->text);
        return 0;
    }
    return find_table(text, near, r, err);
}

void gg_wrule_free(gg_wrule *r)
{
    if (r->table && __atomic_sub_fetch(&r->table->refs, 1,
                                       __ATOMIC_ACQ_REL) == 0) {
        gg_rule_found_free(&r->table->f);
        free(r->table);
    }
    r->table = NULL;
}

void gg_world_rule_get(const golgen_world *w, gg_wrule *r)
{
    memset(r, 0, sizeof *r);
    r->family = w->family;
    switch (w->family) {
    case GOLGEN_FAMILY_TWO_STATE: r->rule = w->u.rule; break;
    case GOLGEN_FAMILY_GENERATIONS: r->rule = w->g.rule; break;
    case GOLGEN_FAMILY_TABLE:
        r->table = w->tr;
        __atomic_add_fetch(&w->tr->refs, 1, __ATOMIC_ACQ_REL);
        break;
    case GOLGEN_FAMILY_LTL: r->ltl = w->l.rule; break;
    case GOLGEN_FAMILY_3D: r->r3 = w->d.rule; break;
    }
    gg_world_rule_text(w, r->text, sizeof r->text);
}

void gg_world_rule_text(const golgen_world *w, char *buf, size_t size)
{
    switch (w->family) {
    case GOLGEN_FAMILY_TWO_STATE: gg_rule_format(&w->u.rule, buf, size); break;
    case GOLGEN_FAMILY_GENERATIONS:
        gg_rule_format(&w->g.rule, buf, size);
        break;
    case GOLGEN_FAMILY_TABLE: snprintf(buf, size, "%s", w->t.rule); break;
    case GOLGEN_FAMILY_LTL:
        snprintf(buf, size, "%.255s", w->l.rule_text);
        break;
    case GOLGEN_FAMILY_3D: snprintf(buf, size, "%s", w->d.text); break;
    }
}

const gg_wtable *gg_world_table(const golgen_world *w)
{
    return w->family == GOLGEN_FAMILY_TABLE && w->tr->coloured ? w->tr
                                                                : NULL;
}

/* ---- the public calls (include/golgen/world.h) ---- */

int gg_world_fail(int code, const gg_err *err, char *errbuf, size_t errlen)
{
    if (errbuf && errlen)
        snprintf(errbuf, errlen, "%s", err->msg);
    return code;
}

int golgen_world_rule_parse(const char *text, const char *near,
                            golgen_world_rule **rule, char *errbuf,
                            size_t errlen)
{
    gg_err err;
    *rule = NULL;
    if (!text)
        return gg_world_fail(GOLGEN_ERR_INPUT,
                             &(gg_err){"no rule (text is NULL)"}, errbuf,
                             errlen);
    golgen_world_rule *r = calloc(1, sizeof *r);
    if (!r)
        return gg_world_fail(GOLGEN_ERR_ENV, &(gg_err){"out of memory"},
                             errbuf, errlen);
    if (gg_wrule_parse(text, near, &r->r, &err)) {
        free(r);
        return gg_world_fail(GOLGEN_ERR_INPUT, &err, errbuf, errlen);
    }
    *rule = r;
    return GOLGEN_OK;
}

void golgen_world_rule_free(golgen_world_rule *rule)
{
    if (!rule)
        return;
    gg_wrule_free(&rule->r);
    free(rule);
}

void golgen_world_rule_text(const golgen_world_rule *rule, char *buf,
                            size_t len)
{
    if (len)
        snprintf(buf, len, "%s", rule->r.text);
}

int golgen_world_rule_family(const golgen_world_rule *rule)
{
    return rule->r.family;
}

int golgen_world_get_rule(const golgen_world *w, golgen_world_rule **rule)
{
    golgen_world_rule *r = calloc(1, sizeof *r);
    *rule = r;
    if (!r)
        return GOLGEN_ERR_ENV;
    gg_world_rule_get(w, &r->r);
    return GOLGEN_OK;
}

void golgen_world_rule_name(const golgen_world *w, char *buf, size_t len)
{
    if (len)
        gg_world_rule_text(w, buf, len);
}

int golgen_world_colours(const golgen_world *w, uint8_t rgb[256][3])
{
    const gg_wtable *t = gg_world_table(w);
    if (!t)
        return 0;
    memcpy(rgb, t->rgb, sizeof t->rgb);
    return 1;
}

/* golgen serve: rules of every family the viewer runs (serve_world.h):
 * two-state and Generations in B/S notation, Larger than Life, 3D, and
 * Golly rule files found as golgen run finds them. */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "serve_world.h"

static const char *pattern_path; /* the file named on the command line */

void sv_rule_set_pattern_path(const char *path)
{
    pattern_path = path;
}

/* The @COLORS section of the file the rule came from: "state r g b"
 * lines, or "r g b r g b" (a gradient over states 1 .. n-1), as Golly
 * reads them; anything after the numbers is a comment. The file is the
 * one gg_rule_find read (read again here: the rule parser skips the
 * section). A file that cannot be read again keeps Generations' colours. */
static void read_colours(sv_table_rule *t)
{
    FILE *f = fopen(t->f.path, "rb");
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
static int find_table(const char *text, sv_rule *r, gg_err *err)
{
    sv_table_rule *t = calloc(1, sizeof *t);
    if (!t)
        return gg_fail(err, "out of memory");
    gg_err ferr;
    int got = gg_rule_find(text, pattern_path, NULL, &t->f, &ferr);
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
    r->family = SV_TABLE;
    r->table = t;
    snprintf(r->text, sizeof r->text, "%s", t->f.rule);
    return 0;
}

int sv_rule_parse_any(const char *text, sv_rule *r, gg_err *err)
{
    memset(r, 0, sizeof *r);
    if (gg_ltl_looks_like(text)) {
        if (gg_ltl_parse(text, &r->ltl, err))
            return -1;
        r->family = SV_LTL;
        char canon[1200];
        gg_ltl_format(&r->ltl, canon, sizeof canon);
        snprintf(r->text, sizeof r->text, "%.255s", canon);
        return 0;
    }
    if (gg_rule3d_is_3d(text)) {
        if (gg_rule3d_parse(text, &r->r3, err))
            return -1;
        r->family = SV_3D;
        gg_rule3d_format(&r->r3, r->text, sizeof r->text);
        return 0;
    }
    if (!gg_rule_parse(text, &r->rule, err)) {
        r->family = gg_rule_is_generations(&r->rule) ? SV_GEN : SV_LIFE;
        gg_rule_format(&r->rule, r->text, sizeof r->text);
        return 0;
    }
    return find_table(text, r, err);
}

void sv_rule_free(sv_rule *r)
{
    if (r->table && __atomic_sub_fetch(&r->table->refs, 1,
                                       __ATOMIC_ACQ_REL) == 0) {
        gg_rule_found_free(&r->table->f);
        free(r->table);
    }
    r->table = NULL;
}

int sv_rule_parse(const char *text, gg_rule *rule, gg_err *err)
{
    sv_rule r;
    if (sv_rule_parse_any(text, &r, err))
        return -1;
    sv_family f = r.family;
    sv_rule_free(&r);
    if (f == SV_LIFE || f == SV_GEN) {
        *rule = r.rule;
        return 0;
    }
    return gg_fail(err, "'%s': a two-state or Generations rule is wanted "
                   "here", text);
}

void sv_world_rule_get(const sv_world *w, sv_rule *r)
{
    memset(r, 0, sizeof *r);
    r->family = w->family;
    switch (w->family) {
    case SV_LIFE: r->rule = w->u.rule; break;
    case SV_GEN: r->rule = w->g.rule; break;
    case SV_TABLE:
        r->table = w->tr;
        __atomic_add_fetch(&w->tr->refs, 1, __ATOMIC_ACQ_REL);
        break;
    case SV_LTL: r->ltl = w->l.rule; break;
    case SV_3D: r->r3 = w->d.rule; break;
    }
    sv_world_rule_text(w, r->text, sizeof r->text);
}

void sv_world_rule_text(const sv_world *w, char *buf, size_t size)
{
    switch (w->family) {
    case SV_LIFE: gg_rule_format(&w->u.rule, buf, size); break;
    case SV_GEN: gg_rule_format(&w->g.rule, buf, size); break;
    case SV_TABLE: snprintf(buf, size, "%s", w->t.rule); break;
    case SV_LTL: snprintf(buf, size, "%.255s", w->l.rule_text); break;
    case SV_3D: snprintf(buf, size, "%s", w->d.text); break;
    }
}

const sv_table_rule *sv_world_table(const sv_world *w)
{
    return w->family == SV_TABLE && w->tr->coloured ? w->tr : NULL;
}

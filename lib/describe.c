/* golgen_rule_describe (include/golgen.h, golgen_0.3): what golgen
 * understands of a rule string, as `golgen rule` prints it, one "label:
 * value" line each: B/S rules (totalistic, Hensel, MAP), Generations,
 * Larger than Life, Golly rule files (@TABLE, @TREE) and 3D.lua rules.
 * The one copy of these descriptions (cli/cmd_rule.c prints them). */
#include "golgen.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backend.h"
#include "backend_ltl.h"
#include "emit_c3d.h"
#include "front.h"
#include "net_common.h"
#include "rule3d.h"
#include "rule_find.h"
#include "rule_gen.h"
#include "rule_ltl.h"
#include "truth.h"

/* "label:  3 6" (or "(none)"): the counts set in mask, 0..max. */
static void print_counts(FILE *o, const char *label, uint32_t mask, int max)
{
    fprintf(o, "%-15s", label);
    if (!mask)
        fprintf(o, " (none)");
    for (int c = 0; c <= max; c++)
        if ((mask >> c) & 1)
            fprintf(o, " %d", c);
    fprintf(o, "\n");
}

static void print_topology(FILE *o, const gg_rule *r)
{
    char text[256];
    gg_rule_topology_text(r, text, sizeof text);
    fprintf(o, "%-15s %s%s\n", "topology:", text,
            r->topo == GG_TOPO_UNBOUNDED ? " (Golly's default)" : "");
    if (gg_rule_has_ring_grid(r)) /* lib/run_topo.c */
        fprintf(o, "%-15s golgen run steps it as a plane whose ring is "
                "refilled from the grid; other commands take :T and :P\n",
                "grid:");
}

static const char *kind_name(const gg_rule *r)
{
    if (r->kind == GG_KIND_TOTALISTIC)
        return "outer-totalistic";
    bool tot = gg_rule_is_totalistic(r);
    if (r->notation == GG_NOTATION_WOLFRAM)
        return "Wolfram's elementary 1D rule, a row a generation (a MAP "
               "table: a dead cell takes its bit of NW N NE)";
    if (r->notation == GG_NOTATION_MAP)
        return tot ? "MAP (a whole 3x3 table; this one is totalistic)"
                   : "MAP (a whole 3x3 table)";
    return tot ? "isotropic non-totalistic (Hensel), totalistic after all"
               : "isotropic non-totalistic (Hensel)";
}

static int print_final(FILE *o, const gg_rule *r, gg_err *err)
{
    gg_front f;
    gg_tt t;
    if (gg_front_build(r, gg_front_for_rule(r), &f, err) ||
        gg_front_final_tt(r, &f, &t, err))
        return -1;
    fprintf(o, "%-15s %d inputs (", "final stage:", t.n_inputs);
    for (int i = 0; i < f.net.n_outputs; i++)
        fprintf(o, "%s%s", i ? " " : "", f.names[i]);
    fprintf(o, "), %d care rows of %d, %d on\n", gg_tt_count_care(&t),
            gg_tt_rows(&t), gg_tt_count_on(&t));
    return 0;
}

/* B/S rules: totalistic, Hensel, MAP. */
static int two_state(FILE *o, const gg_rule *r, gg_err *err)
{
    char canon[256], trans[192];
    gg_rule_format(r, canon, sizeof canon);
    gg_rule_format_transition(r, trans, sizeof trans);
    gg_tt t;
    gg_tt_from_rule(r, &t);
    fprintf(o, "%-15s %s\n", "rule:", canon);
    fprintf(o, "%-15s %s\n", "transition:", trans);
    fprintf(o, "%-15s %s\n", "kind:", kind_name(r));
    fprintf(o, "%-15s %s (%d neighbours)\n", "neighbourhood:",
            gg_nbhd_name(r->nbhd), r->n_neighbours);
    print_topology(o, r);
    print_counts(o, "birth:", r->birth, r->n_neighbours);
    print_counts(o, "survival:", r->survive, r->n_neighbours);
    fprintf(o, "%-15s %d rows (centre + %d neighbours), %d on\n",
            "truth table:", gg_tt_rows(&t), r->n_neighbours,
            gg_tt_count_on(&t));
    if (gg_rule_has_b0(r))
        fprintf(o, "%-15s yes: simulated literally on bounded grids; "
                "unbounded runs are refused\n", "B0:");
    return print_final(o, r, err);
}

static void generations(FILE *o, const gg_rule *r)
{
    char canon[256], trans[192];
    gg_rule_format(r, canon, sizeof canon);
    gg_rule_format_transition(r, trans, sizeof trans);
    fprintf(o, "%-15s %s\n", "rule:", canon);
    fprintf(o, "%-15s %s\n", "transition:", trans);
    fprintf(o, "%-15s Generations, %d states (0 dead, 1 alive, %s)\n",
            "kind:", r->states,
            r->states > 2 ? "2.. dying" : "no dying states");
    fprintf(o, "%-15s %s (%d neighbours; only state-1 cells count)\n",
            "neighbourhood:", gg_nbhd_name(r->nbhd), r->n_neighbours);
    print_topology(o, r);
    print_counts(o, "birth:", r->birth, r->n_neighbours);
    print_counts(o, "survival:", r->survive, r->n_neighbours);
    fprintf(o, "%-15s %d bit plane%s per cell\n", "state planes:",
            gg_gen_planes(r->states),
            gg_gen_planes(r->states) > 1 ? "s" : "");
    char names[256];
    gg_backend_generations_names(", ", names, sizeof names);
    fprintf(o, "%-15s %s (the two-state rule's network + a per-cell "
            "stage)\n", "backends:", names);
}

static void print_ranges(FILE *o, const char *label, const int32_t *lo,
                         const int32_t *hi, int n)
{
    fprintf(o, "%-15s", label);
    for (int i = 0; i < n; i++)
        fprintf(o, "%s%ld..%ld", i ? ", " : " ", (long)lo[i], (long)hi[i]);
    fprintf(o, "\n");
}

/* Larger than Life in Golly's notation. */
static int ltl(FILE *o, const char *text, gg_err *err)
{
    gg_ltl_rule r;
    if (gg_ltl_parse(text, &r, err))
        return -1;
    char canon[1200];
    gg_ltl_format(&r, canon, sizeof canon);
    fprintf(o, "%-15s %s\n", "rule:", canon);
    fprintf(o, "%-15s Larger than Life, range %d\n", "kind:", r.range);
    fprintf(o, "%-15s %s of range %d (%lld cells with the middle)\n",
            "neighbourhood:", gg_ltl_nbhd_name(r.nbhd), r.range,
            (long long)gg_ltl_nbhd_cells(&r));
    fprintf(o, "%-15s %s\n", "middle cell:",
            r.middle ? "counted when live (M1)" : "not counted (M0)");
    if (r.states > 2)
        fprintf(o, "%-15s %d (a cell that does not survive decays through "
                "states 2..%d, as Generations)\n", "states:", r.states,
                r.states - 1);
    else
        fprintf(o, "%-15s 2\n", "states:");
    print_ranges(o, "survival:", r.s_lo, r.s_hi, r.n_s);
    print_ranges(o, "birth:", r.b_lo, r.b_hi, r.n_b);
    if (r.n_s > 1 || r.n_b > 1)
        fprintf(o, "%-15s several S or B ranges are a golgen extension; "
                "bgolly 3.3 reads one of each\n", "note:");
    if (r.topo == GG_TOPO_UNBOUNDED)
        fprintf(o, "%-15s unbounded plane\n", "topology:");
    else
        fprintf(o, "%-15s %s %lldx%lld\n", "topology:",
                r.topo == GG_TOPO_TORUS ? "torus" : "bounded plane",
                (long long)r.width, (long long)r.height);
    char names[128];
    gg_backend_ltl_names(names, sizeof names);
    fprintf(o, "%-15s %s (cpu: a compiled kernel, validated against the "
            "reference)\n", "backends:", names);
    return 0;
}

static void table(FILE *o, const gg_rule_found *f, const gg_rule *ring)
{
    const gg_rulefile *r = &f->rf;
    fprintf(o, "%-15s %s\n", "rule:", f->rule);
    fprintf(o, "%-15s %s\n", "file:", f->path);
    if (r->name[0] && !r->builtin)
        fprintf(o, "%-15s %s\n", "@RULE:", r->name);
    fprintf(o, "%-15s Golly rule %s, %d states\n", "kind:",
            r->builtin   ? "of its JvN algorithm, built in"
            : r->is_tree ? "tree (@TREE)"
                         : "table (@TABLE)",
            r->n_states);
    fprintf(o, "%-15s %s (%d neighbours)\n", "neighbourhood:",
            gg_rf_nbhd_name(r->nbhd), gg_rf_nbhd_neighbours(r->nbhd));
    if (!r->is_tree) {
        fprintf(o, "%-15s %s\n", "symmetries:", r->symmetries);
        fprintf(o, "%-15s %lld (%lld once variables are bound and "
                "symmetries applied)\n", "transitions:",
                (long long)r->n_transitions, (long long)r->n_expanded);
    }
    fprintf(o, "%-15s %lld nodes over %d inputs\n", "decision DAG:",
            (long long)r->n_nodes, r->n_inputs);
    if (ring)
        print_topology(o, ring);
    else if (f->topo == GG_TOPO_UNBOUNDED)
        fprintf(o, "%-15s unbounded plane\n", "topology:");
    else
        fprintf(o, "%-15s %s %lldx%lld\n", "topology:",
                f->topo == GG_TOPO_TORUS ? "torus" : "bounded plane",
                (long long)f->width, (long long)f->height);
    char names[256];
    gg_backend_family_names(GG_FAMILY_TABLE, ", ", names, sizeof names);
    fprintf(o, "%-15s %s (each but the reference compiles the decision "
            "graph to a bitsliced kernel, checked against the reference "
            "before use)\n", "backends:", names);
}

/* A name B/S notation does not know may be a Golly rule file; err holds
 * the parse error. */
static int rule_file(FILE *o, const char *name, const char *rules_dir,
                     gg_err *err)
{
    gg_rule_found *f = gg_alloc(1, sizeof *f, err, "rule file");
    gg_err ferr;
    if (!f)
        return -1;
    /* a grid only golgen run takes: the file found by its name alone */
    gg_rule ring;
    bool is_ring = gg_rule_ring_grid_of(name, &ring);
    char bare[200];
    snprintf(bare, sizeof bare, "%.*s", (int)strcspn(name, ":") & 127, name);
    int got = gg_rule_find(is_ring ? bare : name, NULL, rules_dir, NULL, f,
                           &ferr);
    if (got > 0 && is_ring) {
        char canon[64];
        gg_rule_format(&ring, canon, sizeof canon);
        snprintf(f->rule, sizeof f->rule, "%.150s%s", bare,
                 strchr(canon, ':'));
    }
    if (got == 0) {
        size_t n = strlen(err->msg);
        snprintf(err->msg + n, sizeof err->msg - n, " (nor a rule file: "
                 "%.300s)", ferr.msg);
    } else if (got < 0)
        *err = ferr;
    else {
        table(o, f, is_ring ? &ring : NULL);
        gg_rule_found_free(f);
    }
    free(f);
    return got > 0 ? 0 : -1;
}

static int rule3d(FILE *o, const char *text, gg_err *err)
{
    gg_rule3d r;
    if (gg_rule3d_parse(text, &r, err))
        return -1;
    char canon[320], trans[256], s[96], b[96];
    gg_rule3d_format(&r, canon, sizeof canon);
    gg_rule3d_format_transition(&r, trans, sizeof trans);
    gg_rule3d_format_counts(r.survive, r.n_neighbours, s, sizeof s);
    gg_rule3d_format_counts(r.birth, r.n_neighbours, b, sizeof b);
    fprintf(o, "%-15s %s\n", "rule:", canon);
    fprintf(o, "%-15s %s (Golly 3D.lua's form: survival/birth)\n",
            "transition:", trans);
    fprintf(o, "%-15s 3D totalistic\n", "kind:");
    fprintf(o, "%-15s %s\n", "neighbourhood:", gg_nbhd3d_name(r.nbhd));
    fprintf(o, "%-15s %s\n", "survival:", *s ? s : "(none)");
    fprintf(o, "%-15s %s\n", "birth:", *b ? b : "(none)");
    if (r.topo == GG_TOPO3D_SIZED_BY_PATTERN)
        fprintf(o, "%-15s torus of the pattern's size (RLE3 size=N; add "
                ":TN or :PN to fix it)\n", "topology:");
    else
        fprintf(o, "%-15s %s %lldx%lldx%lld\n", "topology:",
                r.topo == GG_TOPO3D_BOX ? "bounded box" : "torus",
                (long long)r.sx, (long long)r.sy, (long long)r.sz);
    gg_tt t;
    gg_c3d_final_tt(&r, &t);
    fprintf(o, "%-15s %d inputs (%s bits, centre), %d care rows of %d, %d "
            "on\n", "final stage:", t.n_inputs,
            r.nbhd == GG_NBHD3D_MOORE ? "5 sum-of-27" : "count",
            gg_tt_count_care(&t), gg_tt_rows(&t), gg_tt_count_on(&t));
    char names[256];
    gg_backend_family_names(GG_FAMILY_3D, ", ", names, sizeof names);
    fprintf(o, "%-15s %s\n", "backends:", names);
    return 0;
}

static int describe(FILE *o, const char *text, const char *rules_dir,
                    gg_err *err)
{
    gg_rule r;
    if (gg_rule3d_is_3d(text))
        return rule3d(o, text, err);
    if (gg_ltl_looks_like(text))
        return ltl(o, text, err);
    if (gg_rule_parse_grid(text, &r, err))
        return rule_file(o, text, rules_dir, err);
    if (gg_rule_is_generations(&r)) {
        generations(o, &r);
        return 0;
    }
    return two_state(o, &r, err);
}

int golgen_rule_is_3d(const char *text)
{
    return text && gg_rule3d_is_3d(text);
}

int golgen_rule_describe(const char *text, const char *rules_dir,
                         char **desc, size_t *len, char *errbuf,
                         size_t errlen)
{
    gg_err err = {{0}};
    if (errbuf && errlen)
        errbuf[0] = 0;
    if (!text || !desc || !len)
        return gg_lib_fail(GOLGEN_ERR_INPUT, &(gg_err){"text, desc or len "
                           "is NULL"}, errbuf, errlen);
    *desc = NULL;
    *len = 0;
    char *buf = NULL;
    size_t n = 0;
    FILE *o = open_memstream(&buf, &n);
    if (!o)
        return gg_lib_fail(GOLGEN_ERR_ENV, &(gg_err){"out of memory for a "
                           "rule's description"}, errbuf, errlen);
    int bad = describe(o, text, rules_dir, &err);
    if (fclose(o) && !bad) {
        bad = 1;
        gg_fail(&err, "out of memory for a rule's description");
    }
    if (bad) {
        free(buf);
        return gg_lib_fail(GOLGEN_ERR_INPUT, &err, errbuf, errlen);
    }
    *desc = buf;
    *len = n;
    return GOLGEN_OK;
}

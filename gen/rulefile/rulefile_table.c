/* @TABLE's lines as Golly 3.3's ruletable_algo reads them (keywords
 * n_states:, neighborhood:, symmetries:, "var", transitions in the
 * comma-free or the comma form), variables bound here: the symmetries are
 * applied when the DAG is built (gen/rulefile/rulefile_build.c). */
#include "rulefile_parts.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* Past this many transitions after binding, a table is refused rather
 * than left to fill memory (Golly's files have at most a few thousand). */
#define MAX_BASE (1 << 22)
#define MAX_TOKENS 64

typedef struct var {
    char name[64];
    int n;
    uint8_t vals[1024]; /* a variable may repeat values and others' */
} var;

typedef struct reader {
    gg_rf_text *t;
    gg_rf_table *tab;
    int line; /* the line being read */
    var *vars;
    int n_vars, cap_vars;
    int32_t *index; /* vars by name: i + 1, 0 empty; at most half full */
    int n_index;
    bool have_states, have_nbhd, have_sym;
    gg_err *err;
} reader;

/* Split s into tokens at any of `delims`, in place (s is a copy). */
static int tokenize(char *s, const char *delims, char **tok, int max)
{
    int n = 0;
    char *save = NULL;
    for (char *p = strtok_r(s, delims, &save); p && n < max;
         p = strtok_r(NULL, delims, &save))
        tok[n++] = p;
    return n;
}

static uint64_t name_hash(const char *s)
{
    uint64_t h = 0xcbf29ce484222325ull;
    for (; *s; s++)
        h = (h ^ (unsigned char)*s) * 0x100000001b3ull;
    return h;
}

/* Every token of a transition is looked up (Evoloop: 123 variables, a
 * name compared with each took a sixth of reading the file). */
static var *find_var(reader *r, const char *name)
{
    for (uint64_t k = r->n_index ? name_hash(name) : 0; r->n_index; k++) {
        int32_t i = r->index[k & (uint64_t)(r->n_index - 1)];
        if (!i)
            break;
        if (!strcmp(r->vars[i - 1].name, name))
            return &r->vars[i - 1];
    }
    return NULL;
}

static void place_var(reader *r, int i)
{
    uint64_t k = name_hash(r->vars[i].name);
    while (r->index[k & (uint64_t)(r->n_index - 1)])
        k++;
    r->index[k & (uint64_t)(r->n_index - 1)] = i + 1;
}

/* vars[i], just added, into the index (grown to stay half empty). */
static int index_var(reader *r, int i)
{
    if (2 * (i + 1) > r->n_index) {
        int n = r->n_index ? 2 * r->n_index : 64;
        int32_t *x = calloc((size_t)n, sizeof *x);
        if (!x)
            return gg_fail(r->err, "out of memory for the table's "
                           "variables");
        free(r->index);
        r->index = x;
        r->n_index = n;
        for (int j = 0; j < i; j++)
            place_var(r, j);
    }
    place_var(r, i);
    return 0;
}

/* An unsigned decimal state below n_states (Golly's sscanf %u: digits
 * first, anything after them ignored). */
static int read_state(reader *r, const char *tok, int *s)
{
    if (!isdigit((unsigned char)*tok))
        return gg_rf_fail(r->err, r->t, r->line, "'%s' is neither a state "
                          "nor a variable defined above", tok);
    long v = strtol(tok, NULL, 10);
    if (v >= r->tab->n_states)
        return gg_rf_fail(r->err, r->t, r->line, "state %s out of range "
                          "(n_states:%d gives 0..%d)", tok,
                          r->tab->n_states, r->tab->n_states - 1);
    *s = (int)v;
    return 0;
}

static bool starts_with(const char *line, const char *word)
{
    return !strncasecmp(line, word, strlen(word));
}

static char *trim(char *s)
{
    while (isspace((unsigned char)*s))
        s++;
    size_t n = strlen(s);
    while (n && isspace((unsigned char)s[n - 1]))
        s[--n] = 0;
    return s;
}

static int read_n_states(reader *r, const char *rest)
{
    char *e;
    long v = strtol(rest, &e, 10);
    if (e == rest)
        return gg_rf_fail(r->err, r->t, r->line, "n_states: needs a number");
    if (v < 2 || v > 256)
        return gg_rf_fail(r->err, r->t, r->line, "n_states out of range "
                          "(min 2, max 256)");
    r->tab->n_states = (int)v;
    r->have_states = true;
    return 0;
}

static int read_nbhd(reader *r, char *rest)
{
    static const char *const names[] = {"Moore", "vonNeumann", "hexagonal",
                                        "oneDimensional"};
    static const int inputs[] = {9, 5, 7, 3};
    rest = trim(rest);
    for (int i = 0; i < 4; i++)
        if (!strcmp(rest, names[i])) {
            r->tab->nbhd = (gg_rf_nbhd)i;
            r->tab->n_inputs = inputs[i];
            r->have_nbhd = true;
            return 0;
        }
    return gg_rf_fail(r->err, r->t, r->line, "unsupported neighborhood "
                      "'%s' (Moore, vonNeumann, hexagonal, oneDimensional)",
                      rest);
}

static int read_symmetries(reader *r, char *rest)
{
    /* per neighbourhood, as Golly offers them */
    static const char *const sym[4] = {
        " none rotate4 rotate8 rotate4reflect rotate8reflect "
        "reflect_horizontal permute ",
        " none rotate4 rotate4reflect reflect_horizontal permute ",
        " none rotate2 rotate3 rotate6 rotate6reflect permute ",
        " none reflect permute "};
    if (!r->have_nbhd)
        return gg_rf_fail(r->err, r->t, r->line, "neighborhood must be "
                          "declared before symmetries");
    rest = trim(rest);
    char key[40];
    const char *list = sym[r->tab->nbhd];
    if (strlen(rest) > 30 || !*rest ||
        !strstr(list, (snprintf(key, sizeof key, " %s ", rest), key)))
        return gg_rf_fail(r->err, r->t, r->line, "unsupported symmetries "
                          "'%s' for the %s neighborhood (one of:%s)", rest,
                          gg_rf_nbhd_name(r->tab->nbhd), list);
    snprintf(r->tab->symmetries, sizeof r->tab->symmetries, "%s", rest);
    r->have_sym = true;
    return 0;
}

static int header_done(reader *r, const char *before)
{
    if (r->have_states && r->have_nbhd && r->have_sym)
        return 0;
    return gg_rf_fail(r->err, r->t, r->line, "one or more of n_states, "
                      "neighborhood or symmetries missing before the first "
                      "%s", before);
}

static int add_value(reader *r, var *v, int s)
{
    if (v->n == (int)sizeof v->vals)
        return gg_rf_fail(r->err, r->t, r->line, "variable %s has more than "
                          "%d values", v->name, (int)sizeof v->vals);
    v->vals[v->n++] = (uint8_t)s;
    return 0;
}

/* "var name={0,1,other,...}" */
static int read_var(reader *r, const char *line)
{
    if (header_done(r, "variable"))
        return -1;
    char a[4096], b[4096], *tok[MAX_TOKENS], *tb[1024];
    snprintf(a, sizeof a, "%s", line);
    snprintf(b, sizeof b, "%s", line);
    int na = tokenize(a, "= ", tok, MAX_TOKENS);
    int nb = tokenize(b, "= {,}", tb, 1024);
    if (na < 2 || nb < 2 || strcmp(tok[1], tb[1]))
        return gg_rf_fail(r->err, r->t, r->line, "bad variable name in '%s'",
                          line);
    if (nb < 3)
        return gg_rf_fail(r->err, r->t, r->line, "variable %s has no values",
                          tb[1]);
    if (strlen(tb[1]) >= sizeof r->vars->name)
        return gg_rf_fail(r->err, r->t, r->line, "variable name longer than "
                          "%d characters", (int)sizeof r->vars->name - 1);
    var v = {.n = 0};
    snprintf(v.name, sizeof v.name, "%s", tb[1]);
    for (int i = 2; i < nb; i++) {
        const var *w = find_var(r, tb[i]);
        int s;
        for (int k = 0; w && k < w->n; k++)
            if (add_value(r, &v, w->vals[k]))
                return -1;
        if (!w && (read_state(r, tb[i], &s) || add_value(r, &v, s)))
            return -1;
    }
    var *old = find_var(r, v.name);
    if (old) { /* a name defined again replaces the old one (Golly's map) */
        *old = v;
        return 0;
    }
    if (r->n_vars == r->cap_vars) {
        int cap = r->cap_vars ? r->cap_vars * 2 : 16;
        var *nv = realloc(r->vars, (size_t)cap * sizeof *nv);
        if (!nv)
            return gg_fail(r->err, "out of memory for the table's variables");
        r->vars = nv;
        r->cap_vars = cap;
    }
    r->vars[r->n_vars] = v;
    return index_var(r, r->n_vars++);
}

/* Room for one more transition; its sets cleared. */
static int new_base(reader *r, int64_t *at)
{
    gg_rf_table *tab = r->tab;
    if (tab->n_base == MAX_BASE)
        return gg_rf_fail(r->err, r->t, r->line, "more than %d transitions "
                          "once variables are bound: too large a table",
                          MAX_BASE);
    if (tab->n_base == tab->cap_base) {
        int64_t cap = tab->cap_base ? tab->cap_base * 2 : 256;
        size_t words = (size_t)(cap * tab->n_inputs * 4);
        uint64_t *s = realloc(tab->sets, words * sizeof *s);
        if (s)
            tab->sets = s;
        uint8_t *o = s ? realloc(tab->out, (size_t)cap) : NULL;
        if (!o)
            return gg_fail(r->err, "out of memory for the table");
        tab->out = o;
        tab->cap_base = cap;
    }
    *at = tab->n_base++;
    memset(tab->sets + *at * tab->n_inputs * 4, 0,
           (size_t)tab->n_inputs * 4 * sizeof *tab->sets);
    return 0;
}

static void set_bit(uint64_t *set, int s)
{
    set[s >> 6] |= 1ull << (s & 63);
}

/* "012345": single-digit states, no commas (only before any variable) */
static int read_compact(reader *r, const char *line)
{
    int n = r->tab->n_inputs;
    if ((int)strlen(line) < n + 1)
        return gg_rf_fail(r->err, r->t, r->line, "too few entries in '%s' "
                          "(%d inputs and the output)", line, n);
    for (int i = 0; i <= n; i++)
        if (!isdigit((unsigned char)line[i]) ||
            line[i] - '0' >= r->tab->n_states)
            return gg_rf_fail(r->err, r->t, r->line, "'%c' in '%s' is not "
                              "a state (0..%d)", line[i], line,
                              r->tab->n_states - 1);
    int64_t at;
    if (new_base(r, &at))
        return -1;
    uint64_t *sets = r->tab->sets + at * n * 4;
    for (int i = 0; i < n; i++)
        set_bit(sets + i * 4, line[i] - '0');
    r->tab->out[at] = (uint8_t)(line[n] - '0');
    return 0;
}

/* The variables named more than once among the line's tokens (inputs
 * and output): Golly binds each to one value per copy of the line. */
static int bound_vars(reader *r, char **tok, int n, var **bound)
{
    int nb = 0;
    for (int i = 0; i < n; i++) {
        var *v = find_var(r, tok[i]);
        bool seen = false;
        for (int k = 0; k < nb; k++)
            seen |= bound[k] == v;
        int count = 0;
        for (int k = 0; v && !seen && k < n; k++)
            count += !strcmp(tok[k], tok[i]);
        if (count > 1)
            bound[nb++] = v;
    }
    return nb;
}

static int bound_index(var *const *bound, int nb, const var *v)
{
    for (int k = 0; k < nb; k++)
        if (bound[k] == v)
            return k;
    return -1;
}

/* One copy of the line for the bound variables' values pick[]. */
static int add_copy(reader *r, char **tok, var **bound, int nb,
                    const int *pick)
{
    int n = r->tab->n_inputs, s;
    int64_t at;
    if (new_base(r, &at))
        return -1;
    uint64_t *sets = r->tab->sets + at * n * 4;
    for (int i = 0; i <= n; i++) {
        var *v = find_var(r, tok[i]);
        int b = v ? bound_index(bound, nb, v) : -1;
        if (b >= 0)
            s = v->vals[pick[b]];
        else if (v && i == n && v->n == 1)
            s = v->vals[0]; /* a one-state variable may be the output */
        else if (v && i == n)
            return gg_rf_fail(r->err, r->t, r->line, "output must be a "
                              "state, a single-state variable or a bound "
                              "variable, not %s", tok[i]);
        else if (v) {
            for (int k = 0; k < v->n; k++)
                set_bit(sets + i * 4, v->vals[k]);
            continue;
        } else if (read_state(r, tok[i], &s))
            return -1;
        if (i < n)
            set_bit(sets + i * 4, s);
        else
            r->tab->out[at] = (uint8_t)s;
    }
    return 0;
}

/* "a,b,0,1,...,out": every combination of the bound variables' values */
static int read_commas(reader *r, const char *line)
{
    char copy[4096], *tok[MAX_TOKENS];
    snprintf(copy, sizeof copy, "%s", line);
    int n = r->tab->n_inputs;
    int nt = tokenize(copy, ", #\t", tok, MAX_TOKENS);
    if (nt < n + 1)
        return gg_rf_fail(r->err, r->t, r->line, "too few entries in '%s' "
                          "(%d inputs and the output)", line, n);
    var *bound[GG_RF_MAX_INPUTS + 1];
    int nb = bound_vars(r, tok, n + 1, bound), pick[GG_RF_MAX_INPUTS + 1];
    memset(pick, 0, sizeof pick);
    for (;;) {
        if (add_copy(r, tok, bound, nb, pick))
            return -1;
        int k = 0;
        for (; k < nb && ++pick[k] == bound[k]->n; k++)
            pick[k] = 0;
        if (k == nb)
            return 0;
    }
}

static int read_line(reader *r, char *line)
{
    char *hash = strchr(line, '#');
    if (hash)
        *hash = 0;
    line = trim(line);
    if (!*line)
        return 0;
    if (starts_with(line, "n_states:"))
        return read_n_states(r, line + 9);
    if (starts_with(line, "neighborhood:"))
        return read_nbhd(r, line + 13);
    if (starts_with(line, "symmetries:"))
        return read_symmetries(r, line + 11);
    if (starts_with(line, "var "))
        return read_var(r, line);
    if (header_done(r, "transition"))
        return -1;
    r->tab->n_lines++;
    if (r->tab->n_states <= 10 && r->n_vars == 0 && !strchr(line, ','))
        return read_compact(r, line);
    return read_commas(r, line);
}

int gg_rf_table_read(gg_rf_text *t, gg_rf_table *tab, gg_err *err)
{
    memset(tab, 0, sizeof *tab);
    /* Golly's defaults, which a file may leave out only in principle: it
     * must still name all three before its first variable or transition */
    tab->n_states = 8;
    tab->nbhd = GG_RF_VONNEUMANN;
    tab->n_inputs = 5;
    snprintf(tab->symmetries, sizeof tab->symmetries, "rotate4");
    reader r = {.t = t, .tab = tab, .err = err};
    const char *l;
    size_t n;
    int bad = 0;
    while (!bad && gg_rf_next_line(t, &l, &n)) {
        r.line = t->line - 1;
        if (n >= 4000) /* Golly's limit too */
            bad = gg_rf_fail(err, t, r.line, "line too long (%zu "
                             "characters; at most 3999)", n);
        char buf[4096];
        memcpy(buf, l, n < 4000 ? n : 0);
        buf[n < 4000 ? n : 0] = 0;
        if (!bad && memchr(l, 0, n))
            bad = gg_rf_fail(err, t, r.line, "a NUL byte in the line");
        if (!bad)
            bad = read_line(&r, buf);
    }
    r.line = t->line;
    if (!bad && (!r.have_states || !r.have_nbhd || !r.have_sym))
        bad = gg_rf_fail(err, t, r.line, "@TABLE ends without n_states, "
                         "neighborhood and symmetries");
    free(r.vars);
    free(r.index);
    if (bad)
        gg_rf_table_free(tab);
    return bad;
}

void gg_rf_table_free(gg_rf_table *tab)
{
    free(tab->sets);
    free(tab->out);
    tab->sets = NULL;
    tab->out = NULL;
    tab->n_base = tab->cap_base = 0;
}

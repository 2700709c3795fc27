#include "store.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "atomic_file.h"
#include "rule_gen.h"
#include "rule_ltl.h"
#include "store_format.h"

#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__
#error "the store's rows are written as the host's words: little-endian only"
#endif

static const char magic[8] = {'G', 'G', 'U', 'S', 'T', 'O', 'R', 'E'};

enum { OFF_DEPTH = 320, OFF_SUM = 328, OFF_BANDS = 336 };

uint64_t gg_store_fnv(uint64_t h, const void *p, size_t n)
{
    const unsigned char *b = p;
    for (size_t i = 0; i < n; i++)
        h = (h ^ b[i]) * 0x100000001b3ull;
    return h;
}

static void put64(unsigned char *b, int off, uint64_t v)
{
    for (int i = 0; i < 8; i++)
        b[off + i] = (unsigned char)(v >> (8 * i));
}

static uint64_t get64(const unsigned char *b, int off)
{
    uint64_t v = 0;
    for (int i = 0; i < 8; i++)
        v |= (uint64_t)b[off + i] << (8 * i);
    return v;
}

static void put32(unsigned char *b, int off, uint32_t v)
{
    for (int i = 0; i < 4; i++)
        b[off + i] = (unsigned char)(v >> (8 * i));
}

static uint32_t get32(const unsigned char *b, int off)
{
    uint32_t v = 0;
    for (int i = 0; i < 4; i++)
        v |= (uint32_t)b[off + i] << (8 * i);
    return v;
}

int gg_store_band_rows_for(int64_t height)
{
    int64_t r = (height + GG_STORE_MAX_BANDS - 1) / GG_STORE_MAX_BANDS;
    return (int)(r < 64 ? 64 : r);
}

size_t gg_store_row_bytes(int64_t width)
{
    return (size_t)((width + 63) / 64) * 8;
}

void gg_store_header_encode(unsigned char h[GG_STORE_HEADER],
                            const gg_store_info *s, const uint64_t *sums)
{
    memset(h, 0, GG_STORE_HEADER);
    memcpy(h, magic, 8);
    put32(h, 8, 1);
    put32(h, 12, GG_STORE_HEADER);
    put64(h, 16, (uint64_t)s->width);
    put64(h, 24, (uint64_t)s->height);
    put64(h, 32, (uint64_t)s->generation);
    put64(h, 40, (uint64_t)s->x0);
    put64(h, 48, (uint64_t)s->y0);
    put32(h, 56, (uint32_t)s->planes);
    put32(h, 60, (uint32_t)s->band_rows);
    put64(h, 64, (uint64_t)s->bands);
    /* byte 319 stays 0: the text ends before the depth field */
    memcpy(h + 72, s->rule, GG_STORE_RULE_BYTES - 1);
    put64(h, OFF_DEPTH, (uint64_t)s->depth);
    put64(h, OFF_SUM, gg_store_fnv(GG_STORE_FNV0, h, OFF_SUM));
    for (int64_t b = 0; b < s->bands; b++)
        put64(h, OFF_BANDS + 8 * (int)b, sums[b]);
}

int gg_store_band_damaged(gg_err *err, const char *path,
                          const gg_store_info *s, int64_t b)
{
    return gg_fail(err, "store %s: band %lld (rows %lld .. %lld) fails its "
                   "checksum; the file is damaged", path, (long long)b,
                   (long long)(b * s->band_rows),
                   (long long)((b + 1) * s->band_rows - 1));
}

/* The store's rows are the planes' rows interleaved: row y of plane 0,
 * then row y of plane 1 .., so a band of rows holds every state bit of
 * its cells and a window still reads only the bands it covers. */
static int write_planes(const char *path, gg_store_info *s,
                        const gg_grid *planes, gg_err *err)
{
    const gg_grid *g = &planes[0];
    if (strlen(s->rule) >= GG_STORE_RULE_BYTES - 1)
        return gg_fail(err, "cannot write store %s: the rule's text is over "
                       "%d bytes", path, GG_STORE_RULE_BYTES - 2);
    s->version = 1;
    s->width = g->width;
    s->height = g->height;
    s->band_rows = gg_store_band_rows_for(g->height);
    s->bands = (g->height + s->band_rows - 1) / s->band_rows;
    unsigned char *h = malloc(GG_STORE_HEADER);
    if (!h)
        return gg_fail(err, "out of memory writing %s", path);
    /* the grid's rows are its stride apart: the store keeps them packed */
    size_t row = gg_store_row_bytes(g->width);
    uint64_t sums[GG_STORE_MAX_BANDS];
    for (int64_t b = 0; b < s->bands; b++) {
        sums[b] = GG_STORE_FNV0;
        for (int64_t y = b * s->band_rows;
             y < g->height && y < (b + 1) * s->band_rows; y++)
            for (int p = 0; p < s->planes; p++)
                sums[b] = gg_store_fnv(sums[b], gg_grid_row(&planes[p], y),
                                       row);
    }
    gg_store_header_encode(h, s, sums);
    gg_atomic_file f;
    int bad = gg_atomic_open(path, &f, err) ||
              gg_atomic_write(&f, h, GG_STORE_HEADER, err);
    for (int64_t y = 0; !bad && y < g->height; y++)
        for (int p = 0; !bad && p < s->planes; p++)
            bad = gg_atomic_write(&f, gg_grid_row(&planes[p], y), row, err);
    free(h);
    return bad || gg_atomic_commit(&f, err) ? -1 : 0;
}

int gg_store_write(const char *path, const gg_universe *u, gg_err *err)
{
    gg_store_info s = {.generation = u->generation, .x0 = u->x0,
                       .y0 = u->y0, .planes = 1};
    gg_rule_format(&u->rule, s.rule, GG_STORE_RULE_BYTES);
    return write_planes(path, &s, &u->grid, err);
}

int gg_store_write_gen(const char *path, const gg_gen_universe *u,
                       gg_err *err)
{
    gg_store_info s = {.generation = u->generation, .x0 = u->x0,
                       .y0 = u->y0, .planes = u->cells.n_planes};
    gg_rule_format(&u->rule, s.rule, GG_STORE_RULE_BYTES);
    return write_planes(path, &s, u->cells.plane, err);
}

int gg_store_write_cells(const char *path, const gg_gen_cells *c,
                         const char *rule_text, int64_t generation,
                         int64_t x0, int64_t y0, gg_err *err)
{
    gg_store_info s = {.generation = generation, .x0 = x0, .y0 = y0,
                       .planes = c->n_planes};
    snprintf(s.rule, sizeof s.rule, "%s", rule_text);
    if (strlen(rule_text) >= sizeof s.rule)
        return gg_fail(err, "cannot write store %s: the rule's text is over "
                       "%d bytes", path, GG_STORE_RULE_BYTES - 2);
    return write_planes(path, &s, c->plane, err);
}

/* A 3D grid's rows are already one grid's: row (y, z) is row z * sy + y
 * (runtime/universes/grid3d.h), so the store keeps them as a grid sy * sz
 * rows tall, and depth says where the layers part. */
int gg_store_write3d(const char *path, const gg_grid3d *g,
                     const char *rule_text, int64_t generation, gg_err *err)
{
    gg_store_info s = {.generation = generation, .planes = 1,
                       .depth = g->sz};
    snprintf(s.rule, sizeof s.rule, "%s", rule_text);
    gg_grid rows = {.width = g->sx, .height = g->sy * g->sz,
                    .stride = g->stride, .bits = g->bits};
    return write_planes(path, &s, &rows, err);
}

/* Why the sizes of a header that passed its checksum cannot be golgen's,
 * or NULL: each field named, since a hand-made or fuzzed header gets here
 * (a valid checksum says only that the bytes were not damaged since). */
static const char *impossible_sizes(const gg_store_info *s)
{
    if (s->width < 1 || s->height < 1)
        return "its width or height is not positive";
    if (s->generation < 0)
        return "its generation is negative";
    if (s->planes < 1 || s->planes > GG_GEN_CELLS_MAX_PLANES)
        return "its count of state planes is not 1 to 8";
    if (s->depth < 0 || (s->depth > 0 && s->height % s->depth))
        return "its depth (3D layers) does not divide its rows";
    if (s->depth > 0 && s->planes != 1)
        return "it is 3D with several state planes";
    if (s->band_rows < 1 || s->bands > GG_STORE_MAX_BANDS ||
        s->bands != (s->height + s->band_rows - 1) / s->band_rows)
        return "its bands do not cover its rows";
    if ((s->width + 63) / 64 > INT64_MAX / 8 / s->planes / s->height)
        return "its rows would not fit in any file";
    return NULL;
}

static void header_decode(const unsigned char *h, gg_store_info *s)
{
    s->version = 1;
    s->width = (int64_t)get64(h, 16);
    s->height = (int64_t)get64(h, 24);
    s->generation = (int64_t)get64(h, 32);
    s->x0 = (int64_t)get64(h, 40);
    s->y0 = (int64_t)get64(h, 48);
    s->planes = (int)get32(h, 56);
    s->band_rows = (int)get32(h, 60);
    s->bands = (int64_t)get64(h, 64);
    memcpy(s->rule, h + 72, GG_STORE_RULE_BYTES);
    s->rule[GG_STORE_RULE_BYTES - 1] = 0;
    s->depth = (int64_t)get64(h, OFF_DEPTH);
}

/* Why h is not a golgen store's header (written in why when it needs
 * numbers), or NULL (s then holds it). */
static const char *header_why(const unsigned char *h, gg_store_info *s,
                              char why[96])
{
    if (memcmp(h, magic, 8))
        return "it does not start with GGUSTORE";
    if (get32(h, 8) != 1) {
        snprintf(why, 96, "its format version is %u, not 1 (a newer "
                 "golgen wrote it?)", get32(h, 8));
        return why;
    }
    if (get64(h, OFF_SUM) != gg_store_fnv(GG_STORE_FNV0, h, OFF_SUM))
        return "its header checksum fails (the file is damaged)";
    if (get32(h, 12) != GG_STORE_HEADER) {
        snprintf(why, 96, "its header-size field says %u bytes; "
                 "format 1 headers are %d", get32(h, 12), GG_STORE_HEADER);
        return why;
    }
    header_decode(h, s);
    const char *sizes = impossible_sizes(s);
    if (sizes)
        return sizes;
    if (gg_store_family_of(s) == GG_STORE_UNKNOWN)
        return "its rule is none golgen knows (B/S, Generations, Larger "
               "than Life or a Golly rule's name)";
    return NULL;
}

/* Why a regular file of this size cannot hold the rows the header names,
 * or NULL: checked before anything is allocated for them (a hostile
 * header may name terabytes). */
static const char *size_why(const gg_store_info *s, const struct stat *st)
{
    if (!S_ISREG(st->st_mode))
        return NULL; /* a pipe's rows are checked as they come */
    int64_t rows = (int64_t)gg_store_row_bytes(s->width) * s->planes;
    if ((st->st_size - GG_STORE_HEADER) / rows < s->height)
        return "it is shorter than its header says (cut short?)";
    if ((st->st_size - GG_STORE_HEADER) / rows > s->height ||
        (st->st_size - GG_STORE_HEADER) % rows)
        return "it has bytes after its last row: it is not what golgen "
               "wrote";
    return NULL;
}

FILE *gg_store_open(const char *path, gg_store_info *s, uint64_t *sums,
                    gg_err *err)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        gg_fail(err, "cannot open store %s: %s", path, strerror(errno));
        return NULL;
    }
    struct stat st;
    unsigned char h[GG_STORE_HEADER];
    char text[96];
    const char *why = NULL;
    bool stated = !fstat(fileno(f), &st);
    if (stated && S_ISDIR(st.st_mode))
        why = "it is a directory; name the .ggu file in it";
    else if (fread(h, 1, sizeof h, f) != sizeof h)
        why = "it is shorter than a store header";
    else
        why = header_why(h, s, text);
    if (!why && stated)
        why = size_why(s, &st);
    if (why) {
        gg_fail(err, "%s is not a golgen store: %s", path, why);
        fclose(f);
        return NULL;
    }
    for (int64_t b = 0; sums && b < s->bands; b++)
        sums[b] = get64(h, OFF_BANDS + 8 * (int)b);
    return f;
}

int gg_store_info_read(const char *path, gg_store_info *info, gg_err *err)
{
    FILE *f = gg_store_open(path, info, NULL, err);
    if (!f)
        return -1;
    fclose(f);
    return 0;
}

/* Band b's rows into rows y - gy0 of the planes g[0 .. s->planes - 1]
 * (already sized). */
static int read_band(FILE *f, const char *path, const gg_store_info *s,
                     const uint64_t *sums, int64_t b, gg_grid *g,
                     int64_t gy0, gg_err *err)
{
    size_t row = gg_store_row_bytes(s->width);
    off_t at = GG_STORE_HEADER + (off_t)(b * s->band_rows) * (off_t)row *
                                     (off_t)s->planes;
    if (fseeko(f, at, SEEK_SET))
        return gg_fail(err, "cannot seek in store %s: %s", path,
                       strerror(errno));
    uint64_t sum = GG_STORE_FNV0;
    for (int64_t y = b * s->band_rows;
         y < s->height && y < (b + 1) * s->band_rows; y++)
        for (int p = 0; p < s->planes; p++) {
            uint64_t *dst = gg_grid_row(&g[p], y - gy0);
            if (fread(dst, 1, row, f) != row)
                return gg_fail(err, "store %s ends inside band %lld (rows "
                               "%lld ..): it was cut short", path,
                               (long long)b, (long long)(b * s->band_rows));
            sum = gg_store_fnv(sum, dst, row);
        }
    if (sum != sums[b])
        return gg_store_band_damaged(err, path, s, b);
    return 0;
}

/* A Golly rule's name as golgen writes it (cli/run_table.c): letters,
 * digits and - _ . +, then an optional grid suffix; a rule file's name is
 * never empty. */
static bool table_name(const char *t)
{
    size_t n = strcspn(t, ":");
    if (!n)
        return false;
    for (size_t i = 0; t[i]; i++) {
        unsigned char c = (unsigned char)t[i];
        if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
              (c >= '0' && c <= '9') || strchr("-_.+:,*", c)))
            return false;
    }
    return !strchr(t + n + (t[n] != 0), ':');
}

/* A B/S or Generations rule on one of Golly's grids that only golgen
 * run's ring takes (Klein bottles, spheres, tubes ..: gen/rules/rule.h's
 * gg_rule_ring_grid_of): true with *base, the rule without its suffix,
 * which says the family and its planes. */
static bool ring_base_rule(const char *text, gg_rule *base)
{
    gg_rule grid;
    gg_err ignored;
    char head[GG_STORE_RULE_BYTES];
    if (!gg_rule_ring_grid_of(text, &grid))
        return false;
    snprintf(head, sizeof head, "%.*s", (int)(strrchr(text, ':') - text),
             text);
    return !gg_rule_parse(head, base, &ignored);
}

gg_store_family gg_store_family_of(const gg_store_info *s)
{
    gg_rule rule;
    gg_ltl_rule ltl;
    gg_err ignored;
    if (s->depth > 0)
        return GG_STORE_3D;
    if (!gg_rule_parse(s->rule, &rule, &ignored) ||
        ring_base_rule(s->rule, &rule))
        return gg_rule_is_generations(&rule) ? GG_STORE_GENERATIONS
                                             : GG_STORE_TWO_STATE;
    if (gg_ltl_looks_like(s->rule))
        return gg_ltl_parse(s->rule, &ltl, &ignored) ? GG_STORE_UNKNOWN
                                                     : GG_STORE_LTL;
    return table_name(s->rule) ? GG_STORE_TABLE : GG_STORE_UNKNOWN;
}

const char *gg_store_family_name(gg_store_family f)
{
    static const char *const names[] = {
        [GG_STORE_UNKNOWN] = "none golgen knows",
        [GG_STORE_TWO_STATE] = "two-state",
        [GG_STORE_GENERATIONS] = "Generations",
        [GG_STORE_3D] = "3D",
        [GG_STORE_LTL] = "Larger than Life",
        [GG_STORE_TABLE] = "Golly rule table or tree",
    };
    return names[f];
}

/* Planes for `states` states: ceil(log2 states), 1 at least. */
static int planes_for(int states)
{
    int p = 1;
    while ((1 << p) < states)
        p++;
    return p;
}

/* A store of a Larger than Life rule or a Golly rule table, which the
 * B/S readers below do not take: its planes checked where the rule says
 * how many (LtL; a table's are checked against its file at resume). */
static int other_family(const char *path, const gg_store_info *s,
                        gg_err *err)
{
    gg_store_family f = gg_store_family_of(s);
    gg_ltl_rule ltl;
    if (f == GG_STORE_UNKNOWN)
        return gg_fail(err, "store %s: its rule '%.100s' is none golgen "
                       "knows (B/S, Generations, Larger than Life or a Golly "
                       "rule's name): the file is not what golgen wrote",
                       path, s->rule);
    if (f == GG_STORE_LTL && !gg_ltl_parse(s->rule, &ltl, err) &&
        planes_for(ltl.states) != s->planes)
        return gg_fail(err, "store %s: its rule %s needs %d state plane%s, "
                       "but its header says %d: the file is not what golgen "
                       "wrote", path, s->rule, planes_for(ltl.states),
                       planes_for(ltl.states) > 1 ? "s" : "", s->planes);
    return 0;
}

/* The store's rule, parsed, and the planes it needs matching the header's:
 * a rule's family must not be lost between the file and the stepper.
 * rule NULL: any 2D family (a window's cells), its planes checked where
 * the rule says how many. */
static int store_rule(const char *path, const gg_store_info *s,
                      gg_rule *rule, gg_err *err)
{
    if (s->depth > 0)
        return gg_fail(err, "store %s holds a 3D universe (%s, %lld layers): "
                       "golgen run --resume continues it; 2D readers and "
                       "windows do not take it", path, s->rule,
                       (long long)s->depth);
    gg_store_family f = gg_store_family_of(s);
    if (f == GG_STORE_LTL || f == GG_STORE_TABLE || f == GG_STORE_UNKNOWN) {
        if (other_family(path, s, err))
            return -1;
        if (!rule)
            return 0;
        return gg_fail(err, "store %s holds a %s universe (%s): golgen run "
                       "--resume continues it", path,
                       gg_store_family_name(f), s->rule);
    }
    gg_rule own;
    /* a ring grid's cells are read (windows, golgen run's ring), never
     * stepped by a universe that would take the grid for a plane */
    bool cells_only = !rule && ring_base_rule(s->rule, &own);
    rule = rule ? rule : &own;
    if (!cells_only && gg_rule_parse(s->rule, rule, err))
        return -1;
    if (gg_gen_planes_of(rule) != s->planes)
        return gg_fail(err, "store %s: its rule %s needs %d state plane%s, "
                       "but its header says %d: the file is not what golgen "
                       "wrote", path, s->rule, gg_gen_planes_of(rule),
                       gg_gen_planes_of(rule) > 1 ? "s" : "", s->planes);
    return 0;
}

/* Every band of an open store into planes g (sized), then the end. */
static int read_all(FILE *f, const char *path, const gg_store_info *s,
                    const uint64_t *sums, gg_grid *g, gg_err *err)
{
    for (int64_t b = 0; b < s->bands; b++)
        if (read_band(f, path, s, sums, b, g, 0, err))
            return -1;
    if (fgetc(f) != EOF)
        return gg_fail(err, "store %s has bytes after its last row: it is "
                       "not what golgen wrote", path);
    for (int p = 0; p < s->planes; p++) /* bits past the width */
        if (gg_grid_tail_mask(&g[p]) != ~0ull)
            for (int64_t y = 0; y < s->height; y++)
                gg_grid_row(&g[p], y)[g[p].stride - 1] &=
                    gg_grid_tail_mask(&g[p]);
    return 0;
}

/* A whole store's cells into c (its planes), the rule into *rule and the
 * header into *s; the family must be the caller's (gen: Generations). */
static int read_cells(const char *path, bool gen, gg_rule *rule,
                      gg_gen_cells *c, gg_store_info *s, gg_err *err)
{
    uint64_t sums[GG_STORE_MAX_BANDS];
    memset(c, 0, sizeof *c);
    FILE *f = gg_store_open(path, s, sums, err);
    if (!f)
        return -1;
    int bad = store_rule(path, s, rule, err);
    if (!bad && gg_rule_is_generations(rule) != gen)
        bad = gen ? gg_fail(err, "store %s holds a two-state universe (%s): "
                            "read it with gg_store_read", path, s->rule)
                  : gg_fail(err, "store %s holds a Generations universe "
                            "(%s): read it with gg_store_read_gen", path,
                            s->rule);
    bad = bad ||
          gg_gen_cells_init(c, s->planes, s->width, s->height, err) ||
          read_all(f, path, s, sums, c->plane, err);
    fclose(f);
    if (bad)
        gg_gen_cells_free(c);
    return bad ? -1 : 0;
}

int gg_store_read(const char *path, gg_universe *u, gg_err *err)
{
    gg_store_info s;
    gg_gen_cells c;
    memset(u, 0, sizeof *u);
    if (read_cells(path, false, &u->rule, &c, &s, err))
        return -1;
    u->grid = c.plane[0]; /* one plane: the universe takes it */
    u->x0 = s.x0;
    u->y0 = s.y0;
    u->generation = s.generation;
    return 0;
}

int gg_store_read_gen(const char *path, gg_gen_universe *u, gg_err *err)
{
    gg_store_info s;
    memset(u, 0, sizeof *u);
    if (read_cells(path, true, &u->rule, &u->cells, &s, err))
        return -1;
    u->x0 = s.x0;
    u->y0 = s.y0;
    u->generation = s.generation;
    return 0;
}

int gg_store_read_cells(const char *path, gg_gen_cells *c,
                        gg_store_info *s, gg_err *err)
{
    uint64_t sums[GG_STORE_MAX_BANDS];
    memset(c, 0, sizeof *c);
    FILE *f = gg_store_open(path, s, sums, err);
    if (!f)
        return -1;
    gg_store_family fam = gg_store_family_of(s);
    gg_rule base;
    bool ring = ring_base_rule(s->rule, &base);
    int bad = 0;
    if (fam != GG_STORE_LTL && fam != GG_STORE_TABLE && !ring)
        bad = fam == GG_STORE_UNKNOWN
                  ? other_family(path, s, err)
                  : gg_fail(err, "store %s holds a %s universe (%s), not "
                            "one of Larger than Life, a Golly rule table "
                            "or a grid of golgen run's ring", path,
                            gg_store_family_name(fam), s->rule);
    bad = bad || store_rule(path, s, NULL, err) ||
          gg_gen_cells_init(c, s->planes, s->width, s->height, err) ||
          read_all(f, path, s, sums, c->plane, err);
    fclose(f);
    if (bad)
        gg_gen_cells_free(c);
    return bad ? -1 : 0;
}

int gg_store_read3d(const char *path, gg_grid3d *g, char rule[256],
                    int64_t *generation, gg_err *err)
{
    gg_store_info s;
    uint64_t sums[GG_STORE_MAX_BANDS];
    memset(g, 0, sizeof *g);
    FILE *f = gg_store_open(path, &s, sums, err);
    if (!f)
        return -1;
    int bad = 0;
    if (s.depth < 1)
        bad = gg_fail(err, "store %s holds a 2D universe (%s), not a 3D one",
                      path, s.rule);
    bad = bad ||
          gg_grid3d_init(g, s.width, s.height / s.depth, s.depth, err);
    gg_grid rows = {.width = g->sx, .height = s.height, .stride = g->stride,
                    .bits = g->bits};
    bad = bad || read_all(f, path, &s, sums, &rows, err);
    fclose(f);
    if (bad) {
        gg_grid3d_free(g);
        return -1;
    }
    memcpy(rule, s.rule, 256);
    *generation = s.generation;
    return 0;
}

/* The rule, position and generation of a window's pattern. */
static int window_meta(gg_pattern *p, const gg_store_info *s, int64_t x,
                       int64_t y, gg_err *err)
{
    p->rule = strdup(s->rule);
    p->x = x;
    p->y = y;
    p->positioned = true;
    p->generation = s->generation;
    p->multistate = s->planes > 1; /* Golly's letters, as run writes */
    if (!p->rule) {
        gg_pattern_free(p);
        return gg_fail(err, "out of memory");
    }
    return 0;
}

int gg_store_window(const char *path, int64_t x, int64_t y, int64_t w,
                    int64_t h, gg_pattern *p, gg_err *err)
{
    gg_store_info s;
    uint64_t sums[GG_STORE_MAX_BANDS];
    if (w < 1 || h < 1)
        return gg_fail(err, "a window needs a positive width and height");
    FILE *f = gg_store_open(path, &s, sums, err);
    if (!f)
        return -1;
    /* the window in grid rows, clipped to the grid */
    int64_t gx = x - s.x0, gy = y - s.y0;
    int64_t r0 = gy < 0 ? 0 : gy, r1 = gy + h > s.height ? s.height : gy + h;
    if (r1 <= r0)
        r1 = r0 = 0;
    int64_t b0 = r0 / s.band_rows, b1 = r1 ? (r1 - 1) / s.band_rows + 1 : 0;
    int64_t first = b0 * s.band_rows;
    int64_t last = b1 * s.band_rows < s.height ? b1 * s.band_rows : s.height;
    gg_gen_cells rows = {0};
    int bad = store_rule(path, &s, NULL, err) ||
              gg_gen_cells_init(&rows, s.planes, s.width,
                                last > first ? last - first : 1, err);
    for (int64_t b = b0; !bad && b < b1; b++)
        bad = read_band(f, path, &s, sums, b, rows.plane, first, err);
    fclose(f);
    bad = bad || gg_pattern_init(p, w, h, s.planes, err) ||
          window_meta(p, &s, x, y, err);
    if (!bad && r1 > r0) /* band rows start at grid row `first` */
        for (int i = 0; i < s.planes; i++)
            gg_grid_blit(&p->plane[i], &rows.plane[i], -gx, first - gy);
    gg_gen_cells_free(&rows);
    return bad ? -1 : 0;
}

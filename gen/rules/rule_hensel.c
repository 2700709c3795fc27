/* Isotropic non-totalistic rules in Hensel's notation and MAP rules, read
 * and written as Golly 3.3 reads and writes them (checked against bgolly).
 *
 * Golly numbers a 3x3 block's cells (liferules' 3x3 map, as its 4x4 map
 * reads it) from the top right: NE = bit 0, N 1, NW 2, E 3, centre 4, W 5,
 * SE 6, S 7, SW 8. MAP strings are in that order (checked against bgolly
 * with random hexagonal and von Neumann MAP rules, which are not
 * symmetric). A Hensel letter names one arrangement of `count` live neighbours up
 * to rotation and reflection; the tables below give one representative of
 * each in that numbering (the notation's definition), counts above 4 are
 * the complements of the arrangements of 8 - count. MAP rules list the
 * next state of all 2^(n+1) blocks in that order as base64, six bits a
 * character, most significant first. */
#include "rule_hensel.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>

#define LETTERS "ceaiknjqrytwz"
#define CENTRE_BIT 0x10
#define NEIGHBOUR_BITS 0x1ef

/* Letters valid for counts 1..4 (and 7..5): prefixes of LETTERS. */
static const int n_letters[9] = {0, 2, 6, 10, 13, 10, 6, 2, 0};

/* Representatives per count 1..4, indexed like LETTERS. */
static const int rep1[] = {1, 2};
static const int rep2[] = {5, 10, 3, 40, 33, 68};
static const int rep3[] = {69, 42, 11, 7, 98, 13, 14, 70, 41, 97};
static const int rep4[] = {325, 170, 15, 45, 99, 71, 106, 102, 43, 101,
                           105, 78, 108};
static const int *const reps[] = {NULL, rep1, rep2, rep3, rep4};

/* Golly's bit of the cell in column c, row r of the block. */
static int golly_bit(int c, int r) { return 8 - (3 * r + c); }

/* The block x turned a quarter clockwise, or flipped top to bottom. */
static int transform(int x, bool flip)
{
    int y = 0;
    for (int r = 0; r < 3; r++)
        for (int c = 0; c < 3; c++) {
            if (!(x >> golly_bit(c, r) & 1))
                continue;
            y |= flip ? 1 << golly_bit(c, 2 - r) : 1 << golly_bit(2 - r, c);
        }
    return y;
}

/* golgen's row for a Moore block in Golly's numbering: neighbours in
 * gg_nbhd_offsets order (NW N NE W E SW S SE), then the centre. */
static int moore_row(int g)
{
    static const int from[9] = {8, 7, 6, 5, 3, 2, 1, 0, 4};
    int r = 0;
    for (int i = 0; i < 9; i++)
        r |= (g >> from[i] & 1) << i;
    return r;
}

static void put_row(uint64_t *table, int r, bool v)
{
    uint64_t m = 1ull << (r & 63);
    table[r >> 6] = v ? table[r >> 6] | m : table[r >> 6] & ~m;
}

/* Every rotation and reflection of block x gets next state v. */
static void put_symmetric(uint64_t *table, int x, bool v)
{
    for (int f = 0; f < 2; f++) {
        for (int k = 0; k < 4; k++) {
            put_row(table, moore_row(x), v);
            x = transform(x, false);
        }
        x = transform(x, true);
    }
}

static int letter_block(int count, int letter)
{
    if (count <= 4)
        return reps[count][letter];
    return reps[8 - count][letter] ^ NEIGHBOUR_BITS;
}

/* All blocks of `count` live neighbours (centre as given) get v. */
static void put_count(uint64_t *table, int count, bool survival, bool v)
{
    for (int g = 0; g < 512; g++)
        if ((g & CENTRE_BIT) == (survival ? CENTRE_BIT : 0) &&
            __builtin_popcount(g & NEIGHBOUR_BITS) == count)
            put_row(table, moore_row(g), v);
}

typedef struct reader {
    const char *text; /* the whole rule, for messages */
    const char *s;    /* lower-cased transition */
    size_t n;
    gg_err *err;
} reader;

static int bad(const reader *rd, size_t at, const char *what, const char *fix)
{
    char c[8] = " ";
    if (rd->s[at])
        gg_text_char(rd->text, at, c, sizeof c);
    return gg_fail(rd->err, "rule '%s': %s '%s' at column %zu; %s", rd->text,
                   what, c, gg_text_column(rd->text, at), fix);
}

static int letter_index(char c)
{
    const char *p = c ? strchr(LETTERS, c) : NULL;
    return p ? (int)(p - LETTERS) : -1;
}

/* The letters valid after neighbour count 1..7, as "c e k a i n"
 * (count 2). */
static void hensel_letters(int count, char *buf, size_t size)
{
    /* the order the notation's tables list them in (LifeWiki, Golly's
     * help), which users know, rather than LETTERS' */
    static const char usual[] = "cekainyqjrtwz";
    int max = n_letters[count];
    size_t n = 0;
    for (const char *c = usual; *c; c++)
        if (letter_index(*c) < max && n + 2 < size) {
            if (n)
                buf[n++] = ' ';
            buf[n++] = *c;
        }
    if (size)
        buf[n] = 0;
}

int gg_rule_hensel_letter_fix(int count, char *buf, size_t size)
{
    char letters[32];
    if (count < 0 || count > 8 || !n_letters[count])
        return snprintf(buf, size, "a count of %d takes no letters (Hensel "
                        "letters name arrangements of 1 to 7 neighbours, "
                        "e.g. B2n3/S23-q)", count);
    hensel_letters(count, letters, sizeof letters);
    return snprintf(buf, size, "a count of %d takes the Hensel letters %s, "
                    "e.g. B2n3/S23-q", count, letters);
}

/* A letter that is not Hensel's at all, or not one of count's: the
 * message names the letters count takes. */
static int bad_letter(const reader *rd, size_t at, bool unknown, int count)
{
    char fix[160];
    gg_rule_hensel_letter_fix(count, fix, sizeof fix);
    return bad(rd, at, unknown ? "not a Hensel letter"
                               : "letter not valid here", fix);
}

/* One part (birth or survival) from `from` to `to`: digits, each with an
 * optional '-' and letters. As Golly: a digit alone (or before '-') sets
 * every arrangement of its count unless the count was named before, a
 * letter sets its arrangements, a letter after '-' clears them. */
static int read_part(const reader *rd, size_t from, size_t to, bool survival,
                     gg_rule *rule)
{
    uint16_t *letters = &rule->letters[survival ? 9 : 0];
    uint32_t *counts = survival ? &rule->survive : &rule->birth;
    bool used_pos[9] = {false}, used_neg[9] = {false};
    int count = -1;
    bool negative = false;
    for (size_t at = from; at < to; at++) {
        char c = rd->s[at];
        if (c >= '0' && c <= '8') {
            count = c - '0';
            negative = false;
            char next = at + 1 < to ? rd->s[at + 1] : 0;
            if (letter_index(next) < 0 && !(*counts >> count & 1))
                put_count(rule->table, count, survival, true);
            if (letter_index(next) < 0)
                *counts |= 1u << count;
            continue;
        }
        if (count < 0)
            return bad(rd, at, "expected a neighbour count, found",
                       "each part of a non-totalistic rule starts with a "
                       "digit, e.g. B2n3/S23-q");
        if (c == '-') {
            if (rd->s[at - 1] < '0' || rd->s[at - 1] > '8')
                return bad(rd, at, "misplaced", "'-' follows a digit, as in "
                           "S2-i3");
            negative = true;
            continue;
        }
        int l = letter_index(c);
        if (l < 0 && !isalpha((unsigned char)c))
            return bad(rd, at, "unexpected character",
                       "a part is digits, each followed by letters or by '-' "
                       "and letters, e.g. B2n3/S23-q");
        if (l < 0 || l >= n_letters[count])
            return bad_letter(rd, at, l < 0, count);
        (negative ? used_neg : used_pos)[count] = true;
        if (used_neg[count] && used_pos[count])
            return bad(rd, at, "letters both with and without '-' for one "
                       "count", "name a count's letters one way, e.g. "
                       "3-q or 3cekainyjr");
        *counts |= 1u << count;
        letters[count] |= (uint16_t)(1u << l);
        if (negative)
            letters[count] |= GG_HENSEL_NEGATIVE;
        put_symmetric(rule->table,
                      letter_block(count, l) | (survival ? CENTRE_BIT : 0),
                      !negative);
    }
    return 0;
}

/* A part's span from..to, its leading B or S (which names it) skipped:
 * 'b' or 's' into *name, 0 when it has none; a B or S inside is an
 * error. */
static int take_part(const reader *rd, size_t from, size_t to, size_t span[2],
                     char *name)
{
    *name = from < to && (rd->s[from] == 'b' || rd->s[from] == 's')
                ? rd->s[from]
                : 0;
    span[0] = from + (*name != 0), span[1] = to;
    for (size_t at = span[0]; at < to; at++)
        if (rd->s[at] == 'b' || rd->s[at] == 's')
            return bad(rd, at, "misplaced", "B and S each start their part, "
                       "e.g. B2n3/S23-q");
    return 0;
}

/* Where the birth and survival parts lie, as Golly reads them: B..S..,
 * S..B.. (no separator), or two sides of one '/' or '_', each side
 * named by its leading B or S, or survival/birth when neither is. */
static int split(const reader *rd, size_t b[2], size_t s[2])
{
    const char *slash = memchr(rd->s, '/', rd->n);
    const char *under = memchr(rd->s, '_', rd->n);
    if (slash && under)
        return bad(rd, (size_t)(under - rd->s), "second separator",
                   "give one '/' between B and S, e.g. B2n3/S23-q");
    slash = slash ? slash : under;
    size_t cut = slash ? (size_t)(slash - rd->s) : rd->n;
    if (!slash) { /* B..S.. or S..B..: the second letter cuts */
        const char *second = NULL;
        for (size_t at = 1; at < rd->n && !second; at++)
            if (rd->s[at] == 'b' || rd->s[at] == 's')
                second = rd->s + at;
        if (rd->s[0] != 'b' && rd->s[0] != 's')
            return bad(rd, 0, "unexpected character",
                       "a rule starts with B or S, e.g. B2n3/S23-q");
        cut = second ? (size_t)(second - rd->s) : rd->n;
    }
    size_t left[2], right[2];
    char ln, rn;
    if (take_part(rd, 0, cut, left, &ln) ||
        take_part(rd, slash ? cut + 1 : cut, rd->n, right, &rn))
        return -1;
    if (ln && ln == rn)
        return bad(rd, right[0] - 1, "second", "give B and S once each");
    /* with neither letter the left side is survival, as in 23/3 */
    bool left_birth = ln == 'b' || (!ln && rn == 's');
    size_t *lp = left_birth ? b : s, *rp = left_birth ? s : b;
    lp[0] = left[0], lp[1] = left[1];
    rp[0] = right[0], rp[1] = right[1];
    return 0;
}

int gg_rule_parse_hensel(const char *text, size_t n, gg_rule *rule,
                         gg_err *err)
{
    char low[256];
    if (n >= sizeof low)
        return gg_fail(err, "rule '%s' is too long", text);
    for (size_t i = 0; i < n; i++)
        low[i] = (char)tolower((unsigned char)text[i]);
    low[n] = 0;
    reader rd = {text, low, n, err};
    char last = n ? low[n - 1] : 0;
    if (last == 'v' || last == 'h')
        return bad(&rd, n - 1, "neighbourhood",
                   "Hensel letters name Moore arrangements: leave the "
                   "suffix out, or write a MAP rule for this neighbourhood");
    size_t b[2] = {0, 0}, s[2] = {0, 0};
    if (split(&rd, b, s))
        return -1;
    rule->kind = GG_KIND_TABLE;
    rule->notation = GG_NOTATION_HENSEL;
    rule->nbhd = GG_NBHD_MOORE;
    rule->n_neighbours = 8;
    return read_part(&rd, b[0], b[1], false, rule) ||
                   read_part(&rd, s[0], s[1], true, rule)
               ? -1
               : 0;
}

bool gg_rule_text_is_hensel(const char *text, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        char c = (char)tolower((unsigned char)text[i]);
        if (c == '-' || (c != 'b' && c != 's' && c != 'v' && c != 'h' &&
                         letter_index(c) >= 0))
            return true;
    }
    return false;
}

/* ---- writing Hensel rules, as Golly writes them ---- */

/* A count's letters: the shorter of the set and its complement (with '-'),
 * in alphabetical order; nothing when every arrangement is named, and the
 * count itself dropped when none is (returns false). */
static bool put_letters(uint16_t bits, int count, char *out, size_t *n,
                        size_t size)
{
    bool negative = bits & GG_HENSEL_NEGATIVE;
    bits &= (uint16_t)~GG_HENSEL_NEGATIVE;
    int max = n_letters[count], set = __builtin_popcount(bits);
    /* Golly keeps seven of thirteen letters as they are */
    if (!(!negative && set == 7 && max == 13) &&
        set + negative > max / 2) {
        bits = (uint16_t)(~bits & ((1u << max) - 1));
        if (bits)
            negative = !negative;
    }
    if (negative && !bits)
        return false;
    if (negative && *n + 1 < size)
        out[(*n)++] = '-';
    for (char c = 'a'; c <= 'z'; c++) {
        int l = letter_index(c);
        if (l >= 0 && bits >> l & 1 && *n + 1 < size)
            out[(*n)++] = c;
    }
    return true;
}

static void put_part(const gg_rule *rule, bool survival, char *out,
                     size_t *n, size_t size)
{
    uint32_t counts = survival ? rule->survive : rule->birth;
    for (int count = 0; count <= 8; count++) {
        if (!(counts >> count & 1) || *n + 1 >= size)
            continue;
        size_t at = (*n)++;
        out[at] = (char)('0' + count);
        uint16_t bits = rule->letters[(survival ? 9 : 0) + count];
        if (bits && !put_letters(bits, count, out, n, size))
            *n = at; /* every arrangement cleared: no such count */
    }
}

void gg_rule_format_hensel(const gg_rule *rule, char *buf, size_t size)
{
    size_t n = 0;
    if (size < 8) {
        if (size)
            buf[0] = 0;
        return;
    }
    buf[n++] = 'B';
    put_part(rule, false, buf, &n, size);
    if (n + 2 < size) {
        buf[n++] = '/';
        buf[n++] = 'S';
    }
    put_part(rule, true, buf, &n, size);
    buf[n] = 0;
}

/* ---- MAP rules ---- */

static const char b64[] =
    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

/* The MAP bit of golgen row r: Golly's block numbering restricted to the
 * neighbourhood's cells, most significant first. */
static int map_bit(gg_nbhd nbhd, int r)
{
    /* per golgen bit (neighbours in offset order, then the centre) */
    static const int moore[9] = {8, 7, 6, 5, 3, 2, 1, 0, 4};
    /* bgolly 3.3 orders a hexagonal MAP from the bottom row up (S SE W
     * C E NW N, most significant first), unlike Moore and von Neumann:
     * found by running random hexagonal MAP rules against it */
    static const int hex[7] = {1, 0, 4, 2, 6, 5, 3};
    static const int vn[5] = {4, 3, 1, 0, 2};
    const int *to = nbhd == GG_NBHD_HEX ? hex
                    : nbhd == GG_NBHD_VONNEUMANN ? vn
                                                  : moore;
    int n = nbhd == GG_NBHD_HEX ? 7 : nbhd == GG_NBHD_VONNEUMANN ? 5 : 9;
    int k = 0;
    for (int i = 0; i < n; i++)
        k |= (r >> i & 1) << to[i];
    return k;
}

static int map_chars(int rows) { return (rows + 5) / 6; }

int gg_rule_parse_map(const char *text, size_t n, gg_rule *rule, gg_err *err)
{
    const char *code = text + 3;
    size_t len = n - 3;
    if (len > 2 && !strncmp(code + len - 2, "==", 2))
        len -= 2;
    gg_nbhd nbhd = len == 86 ? GG_NBHD_MOORE : len == 22 ? GG_NBHD_HEX
                   : len == 6 ? GG_NBHD_VONNEUMANN : GG_NBHD_COUNT;
    if (nbhd == GG_NBHD_COUNT)
        return gg_fail(err, "rule '%s': a MAP rule has 86 base64 characters "
                       "(Moore), 22 (hexagonal) or 6 (von Neumann), not "
                       "%zu", text, len);
    for (size_t i = 0; i < len; i++)
        if (!strchr(b64, code[i]) || !code[i])
            return gg_fail(err, "rule '%s': '%c' at column %zu is not a "
                           "base64 character (A-Z a-z 0-9 + /)", text,
                           code[i], i + 4);
    rule->kind = GG_KIND_TABLE;
    rule->notation = GG_NOTATION_MAP;
    rule->nbhd = nbhd;
    gg_nbhd_offsets(nbhd, &rule->n_neighbours);
    int rows = 2 << rule->n_neighbours;
    int last = map_chars(rows) - 1, used = rows - 6 * last;
    rule->map_tail = (uint8_t)((strchr(b64, code[last]) - b64) &
                               ((1 << (6 - used)) - 1));
    for (int r = 0; r < rows; r++) {
        int k = map_bit(nbhd, r);
        int c = (int)(strchr(b64, code[k / 6]) - b64);
        put_row(rule->table, r, c >> (5 - k % 6) & 1);
        if (c >> (5 - k % 6) & 1) {
            int count = __builtin_popcount(r & ((1 << rule->n_neighbours) - 1));
            *(r >> rule->n_neighbours ? &rule->survive : &rule->birth) |=
                1u << count;
        }
    }
    return 0;
}

void gg_rule_format_map(const gg_rule *rule, char *buf, size_t size)
{
    int rows = 2 << rule->n_neighbours;
    unsigned char six[86] = {0};
    for (int r = 0; r < rows; r++)
        if (rule->table[r >> 6] >> (r & 63) & 1) {
            int k = map_bit(rule->nbhd, r);
            six[k / 6] |= (unsigned char)(1u << (5 - k % 6));
        }
    six[map_chars(rows) - 1] |= rule->map_tail;
    size_t n = (size_t)snprintf(buf, size, "MAP");
    for (int i = 0; i < map_chars(rows) && n + 1 < size; i++)
        buf[n++] = b64[six[i]];
    if (n < size)
        buf[n] = 0;
}

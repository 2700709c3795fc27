/* golgen serve: the page's messages (serve_msg.h). */
#include "serve_msg.h"

#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

static int fail(char *err, size_t errlen, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    if (err && errlen)
        vsnprintf(err, errlen, fmt, ap);
    va_end(ap);
    return -1;
}

/* The words of the first line: at most `max`, each [p, p + n). */
typedef struct words {
    int n;
    const char *p[8];
    size_t len[8];
} words;

/* Split [buf, buf + len) at single spaces; false for empty words, more
 * than 8, or bytes other than printable ASCII. */
static bool split(const char *buf, size_t len, words *w)
{
    w->n = 0;
    size_t start = 0;
    for (size_t i = 0; i <= len; i++) {
        if (i < len && buf[i] != ' ') {
            if ((unsigned char)buf[i] < 0x21 || (unsigned char)buf[i] > 0x7e)
                return false;
            continue;
        }
        if (i == start || w->n == 8)
            return false;
        w->p[w->n] = buf + start;
        w->len[w->n++] = i - start;
        start = i + 1;
    }
    return true;
}

static bool is_word(const words *w, int i, const char *s)
{
    return w->len[i] == strlen(s) && !memcmp(w->p[i], s, w->len[i]);
}

/* A decimal in [min, max]: optional '-', 1 to 19 digits. */
static int number(const words *w, int i, const char *what, int64_t min,
                  int64_t max, int64_t *v, char *err, size_t errlen)
{
    const char *p = w->p[i];
    size_t n = w->len[i];
    bool neg = n > 0 && p[0] == '-';
    if (neg)
        p++, n--;
    if (n == 0 || n > 19)
        return fail(err, errlen, "%s: expected a number of 1 to 19 digits",
                    what);
    uint64_t u = 0;
    for (size_t k = 0; k < n; k++) {
        if (p[k] < '0' || p[k] > '9')
            return fail(err, errlen, "%s: '%.*s' is not a number", what,
                        (int)w->len[i] > 40 ? 40 : (int)w->len[i], w->p[i]);
        u = u * 10 + (uint64_t)(p[k] - '0'); /* 19 digits fit */
    }
    if (u > (uint64_t)INT64_MAX)
        return fail(err, errlen, "%s is out of range", what);
    int64_t s = neg ? -(int64_t)u : (int64_t)u;
    if (s < min || s > max)
        return fail(err, errlen, "%s %lld is out of range %lld .. %lld", what,
                    (long long)s, (long long)min, (long long)max);
    *v = s;
    return 0;
}

typedef struct command {
    const char *name;
    sv_kind kind;
    int args, max_args; /* words after the name */
    bool body;          /* a pattern follows the first line */
} command;

static const command commands[] = {
    {"view", SV_VIEW, 5, 5, 0},   {"run", SV_RUN, 0, 0, 0},
    {"pause", SV_PAUSE, 0, 0, 0}, {"step", SV_STEP, 1, 1, 0},
    {"speed", SV_SPEED, 1, 1, 0}, {"set", SV_SET, 3, 3, 0},
    {"rule", SV_RULE, 1, 1, 0},   {"load", SV_LOAD, 0, 0, 1},
    {"save", SV_SAVE, 0, 1, 0},   {"fit", SV_FIT, 0, 0, 0},
    {"clear", SV_CLEAR, 0, 0, 0}, {"paste", SV_PASTE, 2, 2, 1},
    {"soup", SV_SOUP, 4, 4, 0},   {"z", SV_Z, 1, 1, 0},
    {"colours", SV_COLOURS, 0, 0, 0},
};

static int args(const words *w, sv_msg *m, char *err, size_t errlen)
{
    int64_t v[5];
    switch (m->kind) {
    case SV_VIEW:
        if (number(w, 1, "view x", -SV_MAX_COORD, SV_MAX_COORD, &v[0], err,
                   errlen) ||
            number(w, 2, "view y", -SV_MAX_COORD, SV_MAX_COORD, &v[1], err,
                   errlen) ||
            number(w, 3, "view columns", 1, SV_MAX_SIDE, &v[2], err,
                   errlen) ||
            number(w, 4, "view rows", 1, SV_MAX_SIDE, &v[3], err, errlen) ||
            number(w, 5, "zoom level", 0, SV_MAX_LEVEL, &v[4], err, errlen))
            return -1;
        if (v[2] * v[3] > SV_MAX_BLOCKS)
            return fail(err, errlen, "view of %lld x %lld blocks: at most "
                        "%ld", (long long)v[2], (long long)v[3],
                        (long)SV_MAX_BLOCKS);
        m->x = v[0], m->y = v[1];
        m->cols = (int)v[2], m->rows = (int)v[3], m->level = (int)v[4];
        return 0;
    case SV_STEP:
        return number(w, 1, "step", 1, SV_MAX_STEP, &m->n, err, errlen);
    case SV_SPEED:
        return number(w, 1, "speed", 0, SV_MAX_DELAY, &m->n, err, errlen);
    case SV_Z:
        if (is_word(w, 1, "sum"))
            return m->n = SV_Z_SUM, 0;
        return number(w, 1, "z", 0, SV_MAX_Z - 1, &m->n, err, errlen);
    case SV_SET:
        return number(w, 1, "set x", -SV_MAX_COORD, SV_MAX_COORD, &m->x, err,
                      errlen) ||
                       number(w, 2, "set y", -SV_MAX_COORD, SV_MAX_COORD,
                              &m->y, err, errlen) ||
                       number(w, 3, "set state", 0, 255, &m->n, err, errlen)
                   ? -1
                   : 0;
    case SV_SAVE:
        m->format = SV_RLE;
        if (w->n == 1 || is_word(w, 1, "rle"))
            return 0;
        if (is_word(w, 1, "mc"))
            return m->format = SV_MC, 0;
        if (is_word(w, 1, "png"))
            return m->format = SV_PNG, 0;
        return fail(err, errlen, "save: the format is rle, mc or png");
    case SV_PASTE:
        return number(w, 1, "paste x", -SV_MAX_COORD, SV_MAX_COORD, &m->x,
                      err, errlen) ||
                       number(w, 2, "paste y", -SV_MAX_COORD, SV_MAX_COORD,
                              &m->y, err, errlen)
                   ? -1
                   : 0;
    case SV_SOUP:
        return number(w, 1, "soup width", 1, SV_MAX_SOUP_SIDE, &m->x, err,
                      errlen) ||
                       number(w, 2, "soup height", 1, SV_MAX_SOUP_SIDE,
                              &m->y, err, errlen) ||
                       number(w, 3, "soup percent", 0, 100, &m->n, err,
                              errlen) ||
                       number(w, 4, "soup seed", 0, INT64_MAX, &m->seed, err,
                              errlen)
                   ? -1
                   : 0;
    case SV_RULE:
        if (w->len[1] > SV_MAX_RULE)
            return fail(err, errlen, "a rule of %zu characters: at most %d",
                        w->len[1], SV_MAX_RULE);
        m->text = w->p[1];
        m->text_len = w->len[1];
        return 0;
    default:
        return 0;
    }
}

int sv_msg_parse(const char *buf, size_t len, sv_msg *m, char *err,
                 size_t errlen)
{
    memset(m, 0, sizeof *m);
    if (len > SV_MAX_MSG)
        return fail(err, errlen, "a message of %zu bytes: at most %ld "
                    "(patterns up to 1 MiB)", len, (long)SV_MAX_MSG);
    const char *nl = memchr(buf, '\n', len);
    size_t head = nl ? (size_t)(nl - buf) : len;
    words w;
    if (head == 0 || head > 400 || !split(buf, head, &w))
        return fail(err, errlen, "not a command: expected words of "
                    "printable ASCII separated by single spaces");
    for (size_t i = 0; i < sizeof commands / sizeof *commands; i++) {
        if (!is_word(&w, 0, commands[i].name))
            continue;
        m->kind = commands[i].kind;
        const command *c = &commands[i];
        if (w.n - 1 < c->args || w.n - 1 > c->max_args) {
            if (c->args == c->max_args)
                return fail(err, errlen, "%s takes %d argument%s, got %d",
                            c->name, c->args, c->args == 1 ? "" : "s",
                            w.n - 1);
            return fail(err, errlen, "%s takes %d to %d arguments, got %d",
                        c->name, c->args, c->max_args, w.n - 1);
        }
        if (c->body) {
            if (!nl || len - head - 1 == 0)
                return fail(err, errlen, "%s: the pattern follows the "
                            "first line", c->name);
            if (len - head - 1 > SV_MAX_LOAD)
                return fail(err, errlen, "a pattern of %zu bytes: at most "
                            "%ld", len - head - 1, (long)SV_MAX_LOAD);
            m->text = nl + 1;
            m->text_len = len - head - 1;
            return args(&w, m, err, errlen);
        }
        if (nl)
            return fail(err, errlen, "%s takes one line", c->name);
        return args(&w, m, err, errlen);
    }
    return fail(err, errlen, "unknown command '%.*s'",
                (int)(w.len[0] > 20 ? 20 : w.len[0]), w.p[0]);
}

/* A growing text buffer for the pattern writers that format in memory
 * (.cells, Life 1.06, macrocell). A failed growth sets `failed` once and
 * later appends do nothing, so writers check once at the end. */
#ifndef GG_PATTERN_BUF_H
#define GG_PATTERN_BUF_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct gg_textbuf {
    char *s;
    size_t len, cap;
    bool failed;
} gg_textbuf;

static inline bool gg_textbuf_room(gg_textbuf *b, size_t n)
{
    if (b->failed)
        return false;
    if (b->len + n + 1 <= b->cap)
        return true;
    size_t cap = b->cap ? b->cap : 4096;
    while (cap < b->len + n + 1)
        cap *= 2;
    char *s = realloc(b->s, cap);
    if (!s) {
        b->failed = true;
        return false;
    }
    b->s = s;
    b->cap = cap;
    return true;
}

static inline void gg_textbuf_put(gg_textbuf *b, const char *s, size_t n)
{
    if (!gg_textbuf_room(b, n))
        return;
    memcpy(b->s + b->len, s, n);
    b->len += n;
    b->s[b->len] = 0;
}

static inline void gg_textbuf_str(gg_textbuf *b, const char *s)
{
    gg_textbuf_put(b, s, strlen(s));
}

static inline void gg_textbuf_char(gg_textbuf *b, char c)
{
    gg_textbuf_put(b, &c, 1);
}

__attribute__((format(printf, 2, 3)))
static inline void gg_textbuf_printf(gg_textbuf *b, const char *fmt, ...)
{
    char line[256];
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(line, sizeof line, fmt, ap);
    va_end(ap);
    if (n > 0)
        gg_textbuf_put(b, line, (size_t)n < sizeof line ? (size_t)n
                                                        : sizeof line - 1);
}

#endif

#include "error.h"

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int gg_fail(gg_err *err, const char *fmt, ...)
{
    if (err) {
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(err->msg, sizeof err->msg, fmt, ap);
        va_end(ap);
    }
    return -1;
}

void *gg_alloc(size_t nmemb, size_t size, gg_err *err, const char *what)
{
    if (nmemb && size > SIZE_MAX / nmemb) {
        gg_fail(err, "%s: %zu x %zu bytes overflows the address space", what,
                nmemb, size);
        return NULL;
    }
    void *p = calloc(nmemb ? nmemb : 1, size ? size : 1);
    if (!p)
        gg_fail(err, "%s: out of memory allocating %zu bytes; use a smaller "
                "size", what, nmemb * size);
    return p;
}

/* UTF-8 continuation bytes are 10xxxxxx */
static int continuation(unsigned char c) { return (c & 0xC0) == 0x80; }

void gg_text_char(const char *text, size_t at, char *buf, size_t size)
{
    size_t n = 1;
    while (text[at + n] && continuation((unsigned char)text[at + n]) &&
           n < 4)
        n++;
    if (n >= size)
        n = size - 1;
    memcpy(buf, text + at, n);
    buf[n] = 0;
}

size_t gg_text_column(const char *text, size_t at)
{
    size_t col = 1;
    for (size_t i = 0; i < at && text[i]; i++)
        col += !continuation((unsigned char)text[i]);
    return col;
}

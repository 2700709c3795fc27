#include "error.h"

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

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

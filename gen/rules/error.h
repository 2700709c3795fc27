/* Error reporting shared by every module: one sentence, no partial results.
 * Functions that can fail on user input return 0 on success and -1 on error,
 * with the sentence in *err (what is wrong, where, and the fix when known). */
#ifndef GG_ERROR_H
#define GG_ERROR_H

#include <stddef.h>

typedef struct gg_err {
    char msg[512];
} gg_err;

/* printf-style; always returns -1 so callers can `return gg_fail(err, ...)`. */
int gg_fail(gg_err *err, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

/* The character of text at byte `at` (its whole UTF-8 sequence, so a
 * message never prints half of one) into buf, and its column counted in
 * characters from 1: error messages name what the user typed. */
void gg_text_char(const char *text, size_t at, char *buf, size_t size);
size_t gg_text_column(const char *text, size_t at);

/* Allocation that reports failure as an error instead of crashing. */
void *gg_alloc(size_t nmemb, size_t size, gg_err *err, const char *what);

#endif

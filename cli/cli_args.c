#include "cli_args.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "golgen.h"

int gg_cli_say(const char *cmd, int status, const char *msg)
{
    if (msg && msg[0])
        fprintf(stderr, "golgen %s: %s\n", cmd, msg);
    return status;
}

int gg_cli_status(int code)
{
    switch (code) {
    case GOLGEN_OK: return GG_EXIT_OK;
    case GOLGEN_ERR_CHECK: return GG_EXIT_CHECK_FAILED;
    case GOLGEN_ERR_ENV: return GG_EXIT_ENV;
    default: return GG_EXIT_USAGE;
    }
}

int gg_cli_parse_int(const char *option, const char *text, int64_t min,
                     int64_t max, int64_t *value, char *msg, size_t len)
{
    char *end;
    errno = 0;
    long long v = strtoll(text, &end, 10);
    if (end == text || *end || errno == ERANGE) {
        snprintf(msg, len, "%s expects a whole number, got '%s'", option,
                 text);
        return -1;
    }
    if (v < min || v > max) {
        snprintf(msg, len, "%s %lld is out of range %lld..%lld", option, v,
                 (long long)min, (long long)max);
        return -1;
    }
    *value = v;
    return 0;
}

int gg_cli_parse_seconds(const char *option, const char *text, double max,
                         double *value, char *msg, size_t len)
{
    char *end;
    errno = 0;
    double v = strtod(text, &end);
    /* "v == v" refuses nan, which strtod accepts */
    if (end == text || *end || errno == ERANGE || !(v == v)) {
        snprintf(msg, len, "%s expects seconds (a number such as 30 or "
                 "0.5), got '%s'", option, text);
        return -1;
    }
    if (v < 0 || v > max) {
        snprintf(msg, len, "%s %g is out of range 0..%g seconds", option, v,
                 max);
        return -1;
    }
    *value = v;
    return 0;
}

int gg_cli_parse_window(const char *option, const char *arg, int64_t v[4],
                        char *msg, size_t len)
{
    char buf[128], name[64];
    char *parts[4];
    int n = 0;
    snprintf(buf, sizeof buf, "%s", arg);
    for (char *s = buf, *comma; n < 4; s = comma + 1) {
        parts[n++] = s;
        comma = strchr(s, ',');
        if (!comma)
            break;
        *comma = 0;
    }
    if (n != 4 || strchr(parts[3], ',')) {
        snprintf(msg, len, "%s wants x,y,w,h (Golly coordinates of the "
                 "top-left cell, then width and height), e.g. "
                 "-64,-64,128,128, not '%s'", option, arg);
        return -1;
    }
    const int64_t big = INT64_C(1) << 31;
    static const char *const what[4] = {"x", "y", "w", "h"};
    for (int i = 0; i < 4; i++) {
        snprintf(name, sizeof name, "%s %s", option, what[i]);
        if (gg_cli_parse_int(name, parts[i], i < 2 ? -big : 1, big, &v[i],
                             msg, len))
            return -1;
    }
    return 0;
}

double gg_cli_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

int gg_cli_fail(char *msg, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, GG_CLI_MSG, fmt, ap);
    va_end(ap);
    return -1;
}

int gg_cli_parse_bytes(const char *option, const char *text, int64_t *bytes,
                       char *msg, size_t len)
{
    char *end;
    errno = 0;
    double v = strtod(text, &end);
    int shift = 0;
    switch (*end) {
    case 'K': case 'k': shift = 10; end++; break;
    case 'M': case 'm': shift = 20; end++; break;
    case 'G': case 'g': shift = 30; end++; break;
    case 'T': case 't': shift = 40; end++; break;
    default: break;
    }
    if (*end == 'B' || *end == 'b' || *end == 'i')
        end += *end == 'i' && (end[1] == 'B' || end[1] == 'b') ? 2 : 1;
    double b = v * (double)(INT64_C(1) << shift);
    if (end == text || *end || errno == ERANGE || !(b >= 1) || b > 9e18) {
        snprintf(msg, len, "%s expects a size in bytes such as 512M, 8G or "
                 "65536, not '%s'", option, text);
        return -1;
    }
    *bytes = (int64_t)b;
    return 0;
}

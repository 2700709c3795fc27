#include "cli_args.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

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

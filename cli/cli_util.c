#include "cli_util.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>


int gg_cli_error(const char *cmd, int status, const gg_err *err)
{
    fprintf(stderr, "golgen %s: %s\n", cmd, err->msg);
    return status;
}

int gg_cli_int(const char *option, const char *text, int64_t min, int64_t max,
               int64_t *value, gg_err *err)
{
    char *end;
    errno = 0;
    long long v = strtoll(text, &end, 10);
    if (end == text || *end || errno == ERANGE)
        return gg_fail(err, "%s expects a whole number, got '%s'", option,
                       text);
    if (v < min || v > max)
        return gg_fail(err, "%s %lld is out of range %lld..%lld", option, v,
                       (long long)min, (long long)max);
    *value = v;
    return 0;
}

int gg_cli_seconds(const char *option, const char *text, double max,
                   double *value, gg_err *err)
{
    char *end;
    errno = 0;
    double v = strtod(text, &end);
    /* "v == v" refuses nan, which strtod accepts */
    if (end == text || *end || errno == ERANGE || !(v == v))
        return gg_fail(err, "%s expects seconds (a number such as 30 or "
                       "0.5), got '%s'", option, text);
    if (v < 0 || v > max)
        return gg_fail(err, "%s %g is out of range 0..%g seconds", option, v,
                       max);
    *value = v;
    return 0;
}

int gg_cli_backend(const char *name, const gg_backend_info *def,
                   const gg_backend_info **backend, gg_err *err)
{
    *backend = name ? gg_backend_find(name, err) : def;
    return *backend ? 0 : -1;
}

int gg_cli_front(const char *text, const gg_rule *rule, gg_front_kind *front,
                 gg_err *err)
{
    if (gg_rule_is_generations(rule)) /* synth, verify: no kernels yet */
        return gg_fail(err, "Generations rules (S/B/C) have no circuits "
                       "yet; 'golgen run' runs them on the reference");
    if (text)
        return gg_front_parse(text, front, err);
    *front = gg_front_for_rule(rule);
    return 0;
}

double gg_cli_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

void gg_cli_print_counts(const char *label, uint32_t mask, int max)
{
    printf("%-15s", label);
    if (!mask)
        printf(" (none)");
    for (int c = 0; c <= max; c++)
        if ((mask >> c) & 1)
            printf(" %d", c);
    printf("\n");
}

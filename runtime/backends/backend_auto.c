/* The auto policy (runtime/backends/backend_auto.h): fastest first, pass over what
 * cannot run with its reason, stop at a bad input. */
#include "backend_auto.h"

#include <stdio.h>
#include <string.h>

bool gg_backend_is_auto(const char *name)
{
    return !name || !strcmp(name, "auto");
}

/* The reasons for passing candidates over, grouped so that backends with
 * one cause (cuda and ptx without a driver) share one clause. */
enum { MAX_SKIPPED = 16 };

typedef struct skipped {
    int n;
    char names[MAX_SKIPPED][64];
    char reason[MAX_SKIPPED][sizeof(((gg_err *)0)->msg)];
} skipped;

static void skip_add(skipped *s, const char *name, const char *reason)
{
    for (int i = 0; i < s->n; i++)
        if (!strcmp(s->reason[i], reason)) {
            size_t len = strlen(s->names[i]);
            snprintf(s->names[i] + len, sizeof s->names[i] - len, ", %s",
                     name);
            return;
        }
    if (s->n == MAX_SKIPPED)
        return;
    snprintf(s->names[s->n], sizeof s->names[s->n], "%s", name);
    snprintf(s->reason[s->n], sizeof s->reason[s->n], "%s", reason);
    s->n++;
}

/* "cuda, ptx: reason; cpu: reason" */
static void skip_format(const skipped *s, char *buf, size_t size)
{
    size_t len = 0;
    buf[0] = 0;
    for (int i = 0; i < s->n && len < size; i++)
        len += (size_t)snprintf(buf + len, size - len, "%s%s: %s",
                                i ? "; " : "", s->names[i], s->reason[i]);
}

int gg_auto_choose(const char *const *names, int n, gg_auto_open_fn open_fn,
                   void *ctx, gg_auto_line *line, gg_fail_kind *why,
                   gg_err *err)
{
    skipped s = {0};
    char reasons[sizeof line->text];
    *why = GG_FAIL_ENV;
    for (int i = 0; i < n; i++) {
        if (!open_fn(ctx, names[i], why, err)) {
            skip_format(&s, reasons, sizeof reasons);
            snprintf(line->text, sizeof line->text,
                     s.n ? "backend auto -> %s (%s)" : "backend auto -> %s%s",
                     names[i], reasons);
            return i;
        }
        if (*why == GG_FAIL_INPUT)
            return -1; /* err says what is wrong with the input */
        /* a reason is one line, whatever the backend wrote */
        for (char *c = err->msg; *c; c++)
            if (*c == '\n')
                *c = ' ';
        skip_add(&s, names[i], err->msg);
    }
    skip_format(&s, reasons, sizeof reasons);
    snprintf(line->text, sizeof line->text, "backend auto: none runs here");
    return gg_fail(err, "--backend auto found no backend that runs here "
                   "(%.400s); name one with --backend, or fix the first "
                   "cause", reasons);
}

typedef struct table_ctx {
    const gg_rule *rule;
    const gg_backend_opts *o;
    gg_backend *opened;
} table_ctx;

/* Probe first: it says in one line why a backend cannot run (no driver),
 * where an open would fail later and longer. */
static int table_open(void *ctx, const char *name, gg_fail_kind *why,
                      gg_err *err)
{
    table_ctx *t = ctx;
    const gg_backend_info *info = gg_backend_find(name, err);
    *why = GG_FAIL_ENV;
    if (!info || info->probe(t->o, err))
        return -1;
    return gg_backend_open(info, t->rule, t->o, &t->opened, why, err);
}

int gg_backend_open_auto(const gg_rule *rule, const gg_backend_opts *o,
                         gg_backend **out, gg_auto_line *line,
                         gg_fail_kind *why, gg_err *err)
{
    static const gg_backend_opts defaults;
    const char *names[32];
    int n = 0;
    /* a multi-state rule only where the backend takes state planes: the
     * others would refuse it as bad input, which ends the search */
    bool planes = gg_rule_is_generations(rule) && rule->states > 2;
    o = o ? o : &defaults;
    for (int i = 0; gg_backends_auto[i] && n < 32; i++)
        if ((!planes || gg_backends_auto[i]->upload_cells) &&
            !(o->host_only && gg_backends_auto[i]->rows))
            names[n++] = gg_backends_auto[i]->name;
    table_ctx t = {rule, o, NULL};
    *out = NULL;
    if (gg_auto_choose(names, n, table_open, &t, line, why, err) < 0)
        return -1;
    *out = t.opened;
    return 0;
}

void gg_backend_probe_report(const gg_backend_opts *o, const char *indent,
                             char *buf, size_t size)
{
    static const gg_backend_opts defaults;
    size_t len = 0;
    buf[0] = 0;
    for (int i = 0; gg_backends[i] && len < size; i++) {
        gg_err err;
        err.msg[0] = 0;
        bool bad = gg_backends[i]->probe(o ? o : &defaults, &err) != 0;
        len += (size_t)snprintf(buf + len, size - len, "%s%-10s %s\n",
                                indent, gg_backends[i]->name,
                                bad ? err.msg : "usable");
    }
}

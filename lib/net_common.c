#include "net_common.h"

#include <stdio.h>
#include <string.h>

#include "backend_auto.h"
#include "fail.h"
#include "png_write.h"
#include "rule_gen.h"

int gg_lib_fail(int code, const gg_err *err, char *errbuf, size_t errlen)
{
    if (errbuf && errlen)
        snprintf(errbuf, errlen, "%s", err->msg);
    return code;
}

int gg_lib_out_path(const char *path, const char *text_call, gg_err *err)
{
    if (path && *path && strcmp(path, "-"))
        return 0;
    return gg_fail(err, "give a file name (the library writes no standard "
                   "output; %s gives the text)", text_call);
}

int gg_lib_png_check(gg_err *err)
{
    if (gg_png_available())
        return 0;
    return gg_fail(err, "this golgen was built without libpng: no pictures "
                   "(install libpng-dev and rebuild)");
}

void gg_lib_note_v(void (*on_note)(void *ctx, const char *line), void *ctx,
                   const char *fmt, va_list ap)
{
    if (!on_note)
        return;
    char line[1400];
    vsnprintf(line, sizeof line, fmt, ap);
    on_note(ctx, line);
}

int gg_lib_backend(const char *name, const gg_backend_info **info,
                   gg_err *err)
{
    *info = NULL;
    if (gg_backend_is_auto(name))
        return 0;
    *info = gg_backend_find(name, err);
    if (!*info) /* "auto" is a choice too */
        strncat(err->msg, ", or auto (the default)",
                sizeof err->msg - strlen(err->msg) - 1);
    return *info ? 0 : -1;
}

/* sat/choose/choose.h's event in the public shape. */
static void tell(void *ctx, const gg_choose_search *s)
{
    const gg_lib_search_hook *h = ctx;
    char rule[128];
    gg_rule_format_transition(s->rule, rule, sizeof rule);
    golgen_search_event e = {
        .rule = rule,
        .front = gg_front_name(s->front),
        .usual_front = gg_front_name(gg_front_for_rule(s->rule)),
        .lib = gg_lib_name(s->lib),
        .begin = s->begin,
        .kept = s->kept,
    };
    h->fn(h->ctx, &e);
}

int gg_lib_choose_opts(const char *cache_root, gg_lib_search_hook *hook,
                       gg_config *cfg, gg_choose_opts *o, gg_err *err)
{
    if (gg_config_from_env(cfg, err))
        return -1;
    *o = cfg->choose;
    if (cache_root)
        o->cache_root = cache_root;
    o->on_search = hook && hook->fn ? tell : NULL;
    o->on_search_ctx = hook;
    return 0;
}

void gg_lib_gates(const gg_net *n, golgen_gates *g)
{
    int counts[GG_OP_COUNT];
    memset(g, 0, sizeof *g);
    g->total = gg_net_count(n, counts);
    for (int op = 0; op < GG_OP_COUNT && g->n_kinds < GOLGEN_GATE_KINDS;
         op++)
        if (counts[op]) {
            g->kind[g->n_kinds].op = gg_op_name((gg_op)op);
            g->kind[g->n_kinds++].count = counts[op];
        }
}

int gg_lib_front(const char *text, const gg_rule *rule, gg_front_kind *front,
                 gg_err *err)
{
    if (gg_rule_is_generations(rule)) {
        char name[128], two[128];
        gg_rule t = gg_gen_two_state(rule);
        gg_rule_format(rule, name, sizeof name);
        gg_rule_format_transition(&t, two, sizeof two);
        return gg_fail(err, "%s is a Generations rule: its kernels run the "
                       "two-state rule %s on the alive plane, plus a small "
                       "per-cell stage synthesized with the kernel; search "
                       "that rule's network: --rule %s", name, two, two);
    }
    if (text)
        return gg_front_parse(text, front, err);
    *front = gg_front_for_rule(rule);
    return 0;
}

/* golgen_emit_kernel and golgen_write_file (include/golgen.h,
 * golgen_0.3): a kernel with the stages it was built from, for every
 * family `golgen --target` takes (3D rules: c and cuda), and a file
 * written whole or not at all. The command's --target is these two calls
 * (cli/cmd_emit.c). */
#include "golgen.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "atomic_file.h"
#include "cpu3d.h"
#include "cuda3d.h"
#include "emit_c3d.h"
#include "kernel_source.h"
#include "net_common.h"
#include "rule3d.h"
#include "rule_gen.h"

/* A 3D rule's kernel (c or cuda). */
static int emit3d(const char *rule_text, const char *target, char **src,
                  size_t *len, gg_err *err)
{
    gg_rule3d rule;
    if (gg_rule3d_parse(rule_text, &rule, err))
        return -1;
    /* the emit targets with a 3D kernel (not backends: --target) */
    static const char *const targets[] = {"c", "cuda"};
    int t = 0;
    while (t < 2 && strcmp(target, targets[t]))
        t++;
    bool cuda = t == 1;
    if (t == 2)
        return gg_fail(err, "%s is a 3D rule; --target %s has no 3D kernel "
                       "yet: use --target c or --target cuda", rule_text,
                       target);
    char source[256];
    int gates;
    if (cuda)
        return gg_cuda3d_source(&rule, NULL, src, len, source, sizeof source,
                                &gates, err);
    gg_net *net = gg_alloc(1, sizeof *net, err, "3D network");
    int bad = !net ||
              gg_cpu3d_choose_final(&rule, net, source, sizeof source, err) ||
              gg_emit_c3d(&rule, net, source, src, len, err);
    free(net);
    return bad ? -1 : 0;
}

/* The stages' story in the public shape (a Generations rule's network is
 * its two-state rule's). */
static void stages(const gg_rule *rule, const gg_kernel_stages *st,
                   golgen_kernel *k)
{
    gg_rule two = gg_gen_two_state(rule);
    gg_rule_format_transition(&two, k->rule, sizeof k->rule);
    snprintf(k->usual_front, sizeof k->usual_front, "%s",
             gg_front_name(gg_front_for_rule(&two)));
    for (int i = 0; i < st->n && i < GOLGEN_KERNEL_STAGES; i++) {
        snprintf(k->stage[i].lib, sizeof k->stage[i].lib, "%s",
                 gg_lib_name(st->stage[i].lib));
        snprintf(k->stage[i].front, sizeof k->stage[i].front, "%s",
                 gg_front_name(st->stage[i].front));
        snprintf(k->stage[i].source, sizeof k->stage[i].source, "%s",
                 st->stage[i].source);
        k->stage[i].cached = st->stage[i].cached;
        k->n_stages++;
    }
}

int golgen_emit_kernel(const char *rule_text, const char *target,
                       const golgen_emit_opts *o, golgen_kernel **out,
                       char *errbuf, size_t errlen)
{
    gg_err err = {{0}};
    if (errbuf && errlen)
        errbuf[0] = 0;
    if (!rule_text || !target || !out)
        return gg_lib_fail(GOLGEN_ERR_INPUT, &(gg_err){"rule, target or out "
                           "is NULL"}, errbuf, errlen);
    *out = NULL;
    golgen_kernel *k = gg_alloc(1, sizeof *k, &err, "kernel");
    if (!k)
        return gg_lib_fail(GOLGEN_ERR_ENV, &err, errbuf, errlen);
    int rc = GOLGEN_OK;
    if (gg_rule3d_is_3d(rule_text)) {
        k->dims = 3;
        /* (every failure here is bad input, as golgen --target has it) */
        if (emit3d(rule_text, target, &k->src, &k->len, &err))
            rc = GOLGEN_ERR_INPUT;
    } else {
        gg_rule rule;
        gg_config cfg; /* choose points into it */
        gg_choose_opts choose;
        gg_kernel_stages st;
        gg_lib_search_hook hook = {o ? o->on_search : NULL,
                                   o ? o->search_ctx : NULL};
        k->dims = 2;
        if (gg_rule_parse(rule_text, &rule, &err) ||
            gg_lib_choose_opts(NULL, &hook, &cfg, &choose, &err))
            rc = GOLGEN_ERR_INPUT;
        else if (gg_kernel_for_target(target, &rule, &choose, &k->src,
                                      &k->len, &st, &err))
            rc = GOLGEN_ERR_CHECK;
        else
            stages(&rule, &st, k);
    }
    if (rc) {
        golgen_kernel_free(k);
        return gg_lib_fail(rc, &err, errbuf, errlen);
    }
    *out = k;
    return GOLGEN_OK;
}

void golgen_kernel_free(golgen_kernel *k)
{
    if (k)
        free(k->src);
    free(k);
}

int golgen_write_file(const char *path, const void *data, size_t len,
                      char *errbuf, size_t errlen)
{
    gg_err err = {{0}};
    gg_atomic_file f;
    if (errbuf && errlen)
        errbuf[0] = 0;
    if (!path || (!data && len))
        return gg_lib_fail(GOLGEN_ERR_INPUT, &(gg_err){"path or data is "
                           "NULL"}, errbuf, errlen);
    if (gg_atomic_open(path, &f, &err) ||
        gg_atomic_write(&f, data, len, &err) || gg_atomic_commit(&f, &err))
        return gg_lib_fail(GOLGEN_ERR_INPUT, &err, errbuf, errlen);
    return GOLGEN_OK;
}

#include "choose_resub.h"

#include <stdlib.h>

#include "net_resub.h"

int gg_choose_resub_final(gg_net *net, const gg_tt *t)
{
    gg_err ignore; /* a network resub cannot take stays as it is */
    if (!gg_net_in_lib(net, GG_LIB_LUT3) || net->n_outputs != 1)
        return 0;
    int saved = gg_net_resub(net, t, 0, &ignore);
    return saved > 0 ? saved : 0;
}

int gg_choose_resub_over(const gg_rule *rule, const gg_front *front,
                         gg_net *final)
{
    if (!gg_net_in_lib(final, GG_LIB_LUT3) || final->n_outputs != 1)
        return 0;
    gg_err ignore;
    gg_tt *t = gg_alloc(1, sizeof *t, &ignore, "table");
    gg_resub_rows *rows = gg_alloc(1, sizeof *rows, &ignore, "rows");
    int saved = 0;
    if (t && rows) {
        gg_tt_from_rule(rule, t);
        if (gg_resub_rows_through(&front->net, t, rows, &ignore) == 0)
            saved = gg_net_resub_rows(final, rows, 0, &ignore);
    }
    free(t);
    free(rows);
    return saved > 0 ? saved : 0;
}

int gg_choose_resub_circuit(gg_circuit *c)
{
    return c->lib == GG_LIB_LUT3
               ? gg_choose_resub_over(&c->rule, &c->front, &c->final)
               : 0;
}

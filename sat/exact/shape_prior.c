#include "shape_prior.h"

const gg_shape_prior *gg_shape_prior_find(gg_lib lib, int k, uint32_t hash,
                                          int n_shapes)
{
    for (const gg_shape_prior *p = gg_shape_priors; p->k; p++)
        if (p->lib == lib && p->k == k && p->shapes_hash == hash &&
            p->n_shapes == n_shapes)
            return p;
    return NULL;
}

/* k=6: a whole proof took 39.6-42.9M conflicts under today's CaDiCaL
 * settings (session 19). k=7: every 200th of its shapes for Maze took at
 * least 236k conflicts a shape on average (six of 175 were cut off at
 * 32-419 s), so at least 8.6G for all 36,390: at least 200 times k=6
 * (session 20; at least 6 hours of 64 cores). */
static const gg_k_cost lut3_costs[] = {
    {7, 36390, 200.0, true},
};

const gg_k_cost *gg_k_cost_find(gg_lib lib, int k)
{
    if (lib != GG_LIB_LUT3)
        return NULL;
    for (size_t i = 0; i < sizeof lut3_costs / sizeof *lut3_costs; i++)
        if (lut3_costs[i].k == k)
            return &lut3_costs[i];
    return NULL;
}

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

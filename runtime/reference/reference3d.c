#include "reference3d.h"

#include <string.h>

static inline int64_t wrap(int64_t v, int64_t n)
{
    return v < 0 ? v + n : v >= n ? v - n : v;
}

/* Row (y, z) of out from in. */
static void step_row(const gg_rule3d *rule, bool torus, const gg_grid3d *in,
                     gg_grid3d *out, int64_t y, int64_t z)
{
    int n;
    const gg_offset *off = gg_nbhd3d_offsets(rule->nbhd, &n);
    for (int64_t x = 0; x < in->sx; x++) {
        int count = 0;
        for (int k = 0; k < n; k++) {
            /* offsets are -1..1 and sides >= 1, so one wrap is enough (a
             * side of 1 or 2 counts a cell twice, as on any torus) */
            int64_t nx = x + off[k].dx, ny = y + off[k].dy,
                    nz = z + off[k].dz;
            if (torus) {
                nx = wrap(nx, in->sx);
                ny = wrap(ny, in->sy);
                nz = wrap(nz, in->sz);
            } else if (nx < 0 || ny < 0 || nz < 0 || nx >= in->sx ||
                       ny >= in->sy || nz >= in->sz)
                continue;
            count += gg_grid3d_get(in, nx, ny, nz);
        }
        if (gg_rule3d_next(rule, gg_grid3d_get(in, x, y, z), count))
            gg_grid3d_set(out, x, y, z, 1);
    }
}

/* One generation row by row, given up (false) once a stop is asked: a
 * row takes well under a millisecond, a 1000^3 generation a minute. */
static bool step_until(const gg_rule3d *rule, bool torus,
                       const gg_grid3d *in, gg_grid3d *out,
                       gg_stop_flag *stop)
{
    memset(out->bits, 0, (size_t)gg_grid3d_words(out) * sizeof *out->bits);
    for (int64_t z = 0; z < in->sz; z++)
        for (int64_t y = 0; y < in->sy; y++) {
            if (gg_stop_asked(stop))
                return false;
            step_row(rule, torus, in, out, y, z);
        }
    return true;
}

static int check_sizes(const gg_grid3d *in, const gg_grid3d *out,
                       gg_err *err)
{
    if (in->sx != out->sx || in->sy != out->sy || in->sz != out->sz ||
        in == out)
        return gg_fail(err, "reference3d: the two grids must be distinct "
                       "and of one size");
    return 0;
}

int gg_ref3d_step(const gg_rule3d *rule, bool torus, const gg_grid3d *in,
                  gg_grid3d *out, gg_err *err)
{
    if (check_sizes(in, out, err))
        return -1;
    step_until(rule, torus, in, out, NULL);
    return 0;
}

int64_t gg_ref3d_run_until(const gg_rule3d *rule, bool torus, gg_grid3d *g,
                           int64_t gens, gg_stop_flag *stop, gg_err *err)
{
    if (gens <= 0)
        return 0;
    gg_grid3d tmp;
    if (gg_grid3d_init(&tmp, g->sx, g->sy, g->sz, err))
        return -1;
    int64_t i = 0;
    /* swapped only after a whole generation: one given up leaves g at
     * the last one completed */
    for (; i < gens && step_until(rule, torus, g, &tmp, stop); i++) {
        uint64_t *t = g->bits;
        g->bits = tmp.bits;
        tmp.bits = t;
    }
    gg_grid3d_free(&tmp);
    return i;
}

int gg_ref3d_run(const gg_rule3d *rule, bool torus, gg_grid3d *g,
                 int64_t gens, gg_err *err)
{
    return gg_ref3d_run_until(rule, torus, g, gens, NULL, err) < 0 ? -1 : 0;
}

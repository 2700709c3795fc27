#include "gen_bands.h"

#include <string.h>

/* Halo rows: generations between the bands' refreshes. The halo is
 * recomputed by both neighbours, so T = rows / 8 keeps that near a
 * quarter at most; 256 bounds a band's copy on a huge grid. */
#define GEN_BANDS_T_MAX 256

/* Bands of at least 3 rows: a short grid uses the first backends only. */
static int bands_for(const gg_gen_bands *m, int64_t height)
{
    int64_t fit = height / 3;
    return fit < m->n ? (fit > 1 ? (int)fit : 1) : m->n;
}

/* Row y of the grid as the band sees it: wrapped on the torus. */
static int64_t wrap(int64_t y, int64_t h)
{
    return ((y % h) + h) % h;
}

/* Rows a .. z - 1 of every plane of `from` (wrapped) into band (sized). */
static void take_rows(const gg_gen_cells *from, int64_t a, int64_t z,
                      gg_gen_cells *band)
{
    int64_t h = gg_gen_cells_height(from);
    size_t bytes = (size_t)from->plane[0].stride * sizeof(uint64_t);
    for (int p = 0; p < from->n_planes; p++)
        for (int64_t y = a; y < z; y++)
            memcpy(gg_grid_row(&band->plane[p], y - a),
                   gg_grid_row(&from->plane[p], wrap(y, h)), bytes);
}

/* One round: band k of `cells` with its halos, t generations on backend
 * k, its interior into `out`. */
static int round_one(gg_gen_bands *m, int k, int n, gg_topo topo,
                     const gg_gen_cells *cells, gg_gen_cells *out,
                     int64_t t, gg_err *err)
{
    int64_t h = gg_gen_cells_height(cells);
    int64_t y0 = h * k / n, y1 = h * (k + 1) / n;
    int64_t a = y0 - t, z = y1 + t;
    if (topo != GG_TOPO_TORUS) { /* the plane's edges stay edges */
        a = a < 0 ? 0 : a;
        z = z > h ? h : z;
    }
    gg_gen_cells band;
    if (gg_gen_cells_init(&band, cells->n_planes, gg_gen_cells_width(cells),
                          z - a, err))
        return -1;
    take_rows(cells, a, z, &band);
    /* the band's own torus wraps its halos onto each other: the seam
     * spoils halo rows only, within t generations */
    int bad = gg_backend_advance_cells(m->b[k], topo, &band, t, err);
    size_t bytes = (size_t)cells->plane[0].stride * sizeof(uint64_t);
    for (int p = 0; !bad && p < cells->n_planes; p++)
        for (int64_t y = y0; y < y1; y++)
            memcpy(gg_grid_row(&out->plane[p], y),
                   gg_grid_row(&band.plane[p], y - a), bytes);
    gg_gen_cells_free(&band);
    return bad;
}

/* The halo for this call: a fraction of the shortest band, within the
 * backend's batch bound and the generations asked for. */
static int64_t halo_rows(gg_gen_bands *m, int n, int64_t h, int64_t gens)
{
    int64_t least = h / n, t = least / 8;
    int64_t cap = gg_backend_max_batch(m->b[0]);
    t = t < 1 ? 1 : t > GEN_BANDS_T_MAX ? GEN_BANDS_T_MAX : t;
    t = cap > 0 && t > cap ? cap : t;
    return t > gens ? gens : t;
}

static int bands_step(void *ctx, const gg_rule *rule, gg_topo topo,
                      gg_gen_cells *cells, int64_t gens, gg_err *err)
{
    (void)rule; /* the backends were opened for it */
    gg_gen_bands *m = ctx;
    int n = bands_for(m, gg_gen_cells_height(cells));
    m->bands_used = n;
    if (n == 1)
        return gg_backend_advance_cells(m->b[0], topo, cells, gens, err);
    gg_gen_cells out;
    if (gg_gen_cells_init(&out, cells->n_planes, gg_gen_cells_width(cells),
                          gg_gen_cells_height(cells), err))
        return -1;
    int bad = 0;
    while (gens > 0 && !bad) {
        int64_t t = halo_rows(m, n, gg_gen_cells_height(cells), gens);
        for (int k = 0; k < n && !bad; k++)
            bad = round_one(m, k, n, topo, cells, &out, t, err);
        if (!bad) { /* out holds the new generation: swap the buffers */
            gg_gen_cells spare = *cells;
            *cells = out;
            out = spare;
            gens -= t;
            m->rounds++;
        }
    }
    gg_gen_cells_free(&out);
    return bad;
}

gg_gen_stepper gg_gen_bands_view(gg_gen_bands *m)
{
    gg_gen_stepper one = gg_backend_gen_stepper(m->b[0]);
    return (gg_gen_stepper){.name = one.name, .step = bands_step, .ctx = m,
                            .max_batch = one.max_batch};
}

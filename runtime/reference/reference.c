#include "reference.h"

#include "reference_words.h"

/* Coordinate of a neighbour along one axis, or -1 when it is outside a
 * plane. */
static int64_t wrap(int64_t v, int64_t size, gg_topo topo)
{
    if (v >= 0 && v < size)
        return v;
    if (topo == GG_TOPO_PLANE)
        return -1;
    return ((v % size) + size) % size;
}

static int next_state(const gg_rule *rule, gg_topo topo, const gg_grid *in,
                      int64_t x, int64_t y)
{
    int count;
    const gg_offset *off = gg_nbhd_offsets(rule->nbhd, &count);
    uint32_t neighbours = 0;
    for (int i = 0; i < count; i++) {
        int64_t nx = wrap(x + off[i].dx, in->width, topo);
        int64_t ny = wrap(y + off[i].dy, in->height, topo);
        if (nx >= 0 && ny >= 0 && gg_grid_get(in, nx, ny))
            neighbours |= 1u << i;
    }
    return gg_rule_next(rule, gg_grid_get(in, x, y), neighbours);
}

/* Whether the 64-cell word (wx, y) and every word its cells can see are
 * dead; without B0 its next state is then dead too. This is the only
 * shortcut: it keeps sparse universes (escaping gliders) affordable. */
static bool quiet(const gg_grid *in, gg_topo topo, int64_t wx, int64_t y)
{
    for (int64_t dy = -1; dy <= 1; dy++) {
        int64_t ny = wrap(y + dy, in->height, topo);
        if (ny < 0)
            continue;
        const uint64_t *row = gg_grid_row(in, ny);
        for (int64_t dw = -1; dw <= 1; dw++) {
            int64_t nw = wrap(wx + dw, in->stride, topo);
            if (nw >= 0 && row[nw])
                return false;
        }
    }
    /* A torus narrower than 64 cells wraps within one word: covered above. */
    return true;
}

static void step_row(const gg_rule *rule, gg_topo topo, const gg_grid *in,
                     gg_grid *out, int64_t y)
{
    bool b0 = gg_rule_has_b0(rule);
    uint64_t *orow = gg_grid_row(out, y);
    for (int64_t wx = 0; wx < in->stride; wx++) {
        if (!b0 && quiet(in, topo, wx, y)) {
            orow[wx] = 0;
            continue;
        }
        int64_t end = wx * 64 + 64 < in->width ? wx * 64 + 64 : in->width;
        for (int64_t x = wx * 64; x < end; x++)
            gg_grid_set(out, x, y, next_state(rule, topo, in, x, y));
    }
}

/* One generation row by row, given up (false) once a stop is asked: a
 * row takes well under a millisecond, so the stop is seen at once. */
static bool step_until(const gg_rule *rule, gg_topo topo, const gg_grid *in,
                       gg_grid *out, gg_stop_flag *stop)
{
    for (int64_t y = 0; y < in->height; y++) {
        if (gg_stop_asked(stop))
            return false;
        step_row(rule, topo, in, out, y);
    }
    return true;
}

void gg_reference_step(const gg_rule *rule, gg_topo topo, const gg_grid *in,
                       gg_grid *out)
{
    step_until(rule, topo, in, out, NULL);
}

static bool step_threads(const gg_rule *rule, gg_topo topo,
                         const gg_grid *in, gg_grid *out, gg_stop_flag *stop)
{
    (void)stop; /* for checks, which ask for no stop */
#pragma omp parallel for schedule(dynamic, 4)
    for (int64_t y = 0; y < in->height; y++)
        step_row(rule, topo, in, out, y);
    return true;
}

static bool step_words(const gg_rule *rule, gg_topo topo, const gg_grid *in,
                       gg_grid *out, gg_stop_flag *stop)
{
    (void)stop;
    gg_reference_words_step(rule, topo, in, out);
    return true;
}

typedef bool (*step_fn)(const gg_rule *, gg_topo, const gg_grid *,
                        gg_grid *, gg_stop_flag *);

/* The grid swaps with its scratch copy only after a whole generation, so
 * a generation given up leaves grid at the last one completed. */
static int64_t run_steps(const gg_rule *rule, gg_topo topo, gg_grid *grid,
                         int64_t gens, step_fn step, gg_stop_flag *stop,
                         gg_err *err)
{
    gg_grid next;
    if (gg_grid_init(&next, grid->width, grid->height, err))
        return -1;
    int64_t g = 0;
    for (; g < gens && step(rule, topo, grid, &next, stop); g++) {
        gg_grid t = *grid;
        *grid = next;
        next = t;
    }
    gg_grid_free(&next);
    return g;
}

int gg_reference_run(const gg_rule *rule, gg_topo topo, gg_grid *grid,
                     int64_t gens, gg_err *err)
{
    return run_steps(rule, topo, grid, gens, step_until, NULL, err) < 0 ? -1
                                                                        : 0;
}

int64_t gg_reference_run_until(const gg_rule *rule, gg_topo topo,
                               gg_grid *grid, int64_t gens,
                               gg_stop_flag *stop, gg_err *err)
{
    return run_steps(rule, topo, grid, gens, step_until, stop, err);
}

int gg_reference_run_threads(const gg_rule *rule, gg_topo topo,
                             gg_grid *grid, int64_t gens, gg_err *err)
{
    step_fn step = gg_reference_words_takes(rule) ? step_words : step_threads;
    return run_steps(rule, topo, grid, gens, step, NULL, err) < 0 ? -1 : 0;
}

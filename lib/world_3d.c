/* A 3D world (lib/world_core.h): the grid of
 * runtime/universes/grid3d.h, shown one z slice at a time; the slice is a
 * 2D grid over the same words (plane z's rows are consecutive), so it is
 * drawn, edited and fitted as a bounded two-state grid is. */
#include <stdlib.h>
#include <string.h>

#include "world_core.h"

static void show_slice(golgen_world *w)
{
    gg_world3d *d = &w->d;
    d->slice = (gg_grid){.width = d->g.sx, .height = d->g.sy,
                         .stride = d->g.stride,
                         .bits = gg_grid3d_row(&d->g, 0, d->z)};
}

/* An empty grid of r's size (a rule sized by the pattern: side^3). */
static int init(golgen_world *w, const gg_wrule *r, int64_t side, gg_err *err)
{
    memset(w, 0, sizeof *w);
    w->family = GOLGEN_FAMILY_3D;
    gg_world3d *d = &w->d;
    d->rule = r->r3;
    if (d->rule.topo == GG_TOPO3D_SIZED_BY_PATTERN) {
        d->rule.topo = GG_TOPO3D_TORUS;
        d->rule.sx = d->rule.sy = d->rule.sz = side;
    }
    gg_rule3d_format(&d->rule, d->text, sizeof d->text);
    w->topo.topo = d->rule.topo == GG_TOPO3D_TORUS ? GG_TOPO_TORUS
                                                   : GG_TOPO_PLANE;
    w->topo.width = d->rule.sx, w->topo.height = d->rule.sy;
    if (gg_grid3d_init(&d->g, d->rule.sx, d->rule.sy, d->rule.sz, err))
        return -1;
    d->z = d->rule.sz / 2;
    show_slice(w);
    return 0;
}

int gg_world_3d_from_pattern(golgen_world *w, const gg_wrule *r,
                             const gg_pattern *p, gg_err *err)
{
    if (init(w, r, GG_W_3D_DEFAULT_SIDE, err))
        return -1;
    gg_world3d *d = &w->d;
    int64_t pw = gg_pattern_width(p), ph = gg_pattern_height(p);
    /* Golly's place on a bounded grid: centred, unless the file says */
    int64_t px = p->positioned ? p->x : -(pw / 2);
    int64_t py = p->positioned ? p->y : -(ph / 2);
    bool torus = d->rule.topo == GG_TOPO3D_TORUS;
    for (int64_t y = 0; y < ph; y++)
        for (int64_t x = 0; x < pw; x++) {
            if (!gg_pattern_get(p, x, y))
                continue;
            int64_t gx = px + x + d->rule.sx / 2, gy = py + y + d->rule.sy / 2;
            if (torus) {
                gx = ((gx % d->rule.sx) + d->rule.sx) % d->rule.sx;
                gy = ((gy % d->rule.sy) + d->rule.sy) % d->rule.sy;
            } else if (gx < 0 || gy < 0 || gx >= d->rule.sx ||
                       gy >= d->rule.sy) {
                gg_grid3d_free(&d->g);
                return gg_fail(err, "cell (%lld, %lld) is outside the %s "
                               "box", (long long)(px + x),
                               (long long)(py + y), d->text);
            }
            gg_grid3d_set(&d->g, gx, gy, d->z, 1);
        }
    return 0;
}

/* As golgen run places it (lib/run3d.c): at pos=, which must fit. */
int gg_world_3d_from_rle3(golgen_world *w, const gg_wrule *r, const gg_rle3 *p,
                    gg_err *err)
{
    if (init(w, r, p->size, err))
        return -1;
    gg_world3d *d = &w->d;
    if (p->pos[0] + p->w > d->rule.sx || p->pos[1] + p->h > d->rule.sy ||
        p->pos[2] + p->d > d->rule.sz) {
        gg_grid3d_free(&d->g);
        return gg_fail(err, "the %lldx%lldx%lld pattern at pos=%lld,%lld,"
                       "%lld does not fit the grid of rule '%s'; give a "
                       "larger :T or :P size", (long long)p->w,
                       (long long)p->h, (long long)p->d,
                       (long long)p->pos[0], (long long)p->pos[1],
                       (long long)p->pos[2], d->text);
    }
    for (int64_t z = 0; p->cells.bits && z < p->d; z++)
        for (int64_t y = 0; y < p->h; y++)
            for (int64_t x = 0; x < p->w; x++)
                if (gg_grid3d_get(&p->cells, x, y, z))
                    gg_grid3d_set(&d->g, p->pos[0] + x, p->pos[1] + y,
                                  p->pos[2] + z, 1);
    d->generation = p->gen;
    return 0;
}

int gg_world_3d_to_pattern(const golgen_world *w, gg_pattern *p, gg_err *err)
{
    const gg_grid *s = &w->d.slice;
    if (gg_pattern_init(p, s->width, s->height, 1, err))
        return -1;
    for (int64_t y = 0; y < s->height; y++)
        memcpy(gg_grid_row(&p->plane[0], y), gg_grid_row(s, y),
               (size_t)s->stride * sizeof(uint64_t));
    p->x = -(s->width / 2), p->y = -(s->height / 2);
    p->positioned = true;
    p->generation = w->d.generation;
    return 0;
}

int gg_world_3d_with_rule(const golgen_world *w, const gg_wrule *r,
                          golgen_world *out, gg_err *err)
{
    const gg_rule3d *a = &w->d.rule;
    gg_rule3d b = r->r3;
    if (b.topo == GG_TOPO3D_SIZED_BY_PATTERN)
        b.sx = a->sx, b.sy = a->sy, b.sz = a->sz;
    if (b.sx != a->sx || b.sy != a->sy || b.sz != a->sz)
        return gg_fail(err, "%s: the grid is %lldx%lldx%lld; a 3D rule of "
                       "another size starts from a loaded pattern",
                       r->text, (long long)a->sx, (long long)a->sy,
                       (long long)a->sz);
    if (init(out, r, a->sx, err))
        return -1;
    memcpy(out->d.g.bits, w->d.g.bits,
           (size_t)gg_grid3d_words(&w->d.g) * sizeof(uint64_t));
    out->d.generation = w->d.generation;
    out->d.z = w->d.z;
    out->d.project = w->d.project;
    show_slice(out);
    return 0;
}

int64_t gg_world_z(const golgen_world *w, int64_t *depth)
{
    *depth = w->family == GOLGEN_FAMILY_3D ? w->d.g.sz : 0;
    if (w->family != GOLGEN_FAMILY_3D)
        return 0;
    return w->d.project ? GOLGEN_WORLD_Z_SUM : w->d.z;
}

int gg_world_set_z(golgen_world *w, int64_t z, gg_err *err)
{
    if (w->family != GOLGEN_FAMILY_3D)
        return gg_fail(err, "z: only a 3D rule's grid has slices");
    if (z == GOLGEN_WORLD_Z_SUM) { /* the slice stays for the way back */
        w->d.project = true;
        show_slice(w);
        return 0;
    }
    if (z < 0 || z >= w->d.g.sz)
        return gg_fail(err, "z %lld: the grid's slices are 0 .. %lld",
                       (long long)z, (long long)w->d.g.sz - 1);
    w->d.z = z;
    w->d.project = false;
    show_slice(w);
    return 0;
}

int gg_world_3d_editable(const golgen_world *w, gg_err *err)
{
    if (w->family == GOLGEN_FAMILY_3D && w->d.project)
        return gg_fail(err, "the projection shows every z at once: pick a "
                       "z slice (z- / z+) to draw or paste in");
    return 0;
}

/* Each plane's window drawn as the slice is (so a torus wraps, a block
 * is a share), summed over z: at level 0 a cell's count of live cells
 * in its column, above it the blocks' shares added up. */
void gg_world_3d_render_sum(const golgen_world *w, int64_t x, int64_t y,
                            int cols, int rows, int level, int64_t sample,
                            uint8_t *out)
{
    size_t n = (size_t)cols * (size_t)rows;
    memset(out, 0, n);
    uint8_t *plane = malloc(n);
    uint32_t *sum = calloc(n, sizeof *sum); /* 2^24 planes x 255 fit */
    golgen_world one = *w; /* the same grid, one slice at a time */
    one.d.project = false;
    for (int64_t z = 0; plane && sum && z < w->d.g.sz; z++) {
        one.d.z = z;
        show_slice(&one);
        gg_world_render(&one, x, y, cols, rows, level, sample, plane);
        for (size_t i = 0; i < n; i++)
            sum[i] += plane[i];
    }
    /* shades as picture.h's: 0 none, then the share, any live cell >= 1 */
    uint64_t full = (uint64_t)w->d.g.sz * (level ? 255u : 1u);
    for (size_t i = 0; plane && sum && i < n; i++) {
        uint64_t v = (uint64_t)sum[i] * 255u / full;
        out[i] = sum[i] == 0 ? 0 : v < 1 ? 1 : (uint8_t)v;
    }
    free(plane);
    free(sum);
}

bool gg_world_3d_bbox_sum(const golgen_world *w, int64_t *x0, int64_t *y0,
                    int64_t *x1, int64_t *y1)
{
    golgen_world one = *w;
    bool any = false;
    for (int64_t z = 0; z < w->d.g.sz; z++) {
        one.d.z = z;
        show_slice(&one);
        gg_grid_bbox_join(&one.d.slice, &any, x0, y0, x1, y1);
    }
    return any;
}

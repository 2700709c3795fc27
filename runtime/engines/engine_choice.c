#include "engine_choice.h"

#include "hashlife.h"

#include <string.h>
#include <unistd.h>

static const char *const names[] = {
    [GG_ENGINE_AUTO] = "auto",
    [GG_ENGINE_DENSE] = "dense",
    [GG_ENGINE_TILES] = "tiles",
    [GG_ENGINE_HASHLIFE] = "hashlife",
};

int gg_engine_parse(const char *name, gg_engine *engine, gg_err *err)
{
    *engine = GG_ENGINE_AUTO;
    if (!name)
        return 0;
    for (int i = 0; i < (int)(sizeof names / sizeof *names); i++)
        if (!strcmp(name, names[i])) {
            *engine = (gg_engine)i;
            return 0;
        }
    return gg_fail(err, "unknown engine '%.60s'; use auto, dense (the whole "
                   "grid by a backend), tiles (the grid's active tiles, on the "
                   "host or a GPU) or hashlife (a hash tree whose leaves a "
                   "backend steps)", name);
}

const char *gg_engine_name(gg_engine engine)
{
    return (unsigned)engine < sizeof names / sizeof *names ? names[engine]
                                                           : "?";
}

const char *gg_engine_tree_refuses(const gg_rule *rule)
{
    return gg_rule_is_bounded(rule) ? "a bounded grid"
           : gg_rule_has_b0(rule)   ? "a B0 rule"
                                    : NULL;
}

bool gg_engine_dense_too_big(int64_t width, int64_t height, int64_t mem)
{
    if (mem <= 0)
        mem = gg_engine_default_mem();
    /* two grids of a bit a cell, and the plane's margin as it regrows */
    return (double)width * (double)height / 8.0 * 3.0 > (double)mem;
}

bool gg_engine_box_needs_population(int64_t width, int64_t height)
{
    return (double)width * (double)height >= (double)(1 << 22);
}

bool gg_engine_prefers_tree(const gg_rule *rule, int64_t width,
                            int64_t height, int64_t population, int64_t gens,
                            int64_t mem)
{
    if (gg_engine_tree_refuses(rule))
        return false;
    /* sparse: 2% of a 4096^2 box ran 13x less CPU in the tree, 5% even,
     * 50% 7x more (BENCHMARKS.md, "Auto and sparse boxes") */
    bool sparse = population >= 0 &&
                  (double)population * 32.0 < (double)width * (double)height;
    return !gg_engine_box_needs_population(width, height) || sparse ||
           gens >= 4 * (width > height ? width : height) ||
           gg_engine_dense_too_big(width, height, mem);
}

bool gg_engine_table_leaf_needs_population(int64_t width, int64_t height)
{
    return (double)width * (double)height >= (double)(1 << 10);
}

bool gg_engine_table_box_busy(int64_t width, int64_t height,
                              int64_t population)
{
    return gg_engine_table_leaf_needs_population(width, height) &&
           population >= (1 << 10) &&
           (double)population * 4.0 >= (double)width * (double)height;
}

int gg_engine_table_leaf_log(const gg_engine_table_facts *f)
{
    /* CPU ms to 1000 generations, 4x4 / 8x8 / 16x16 / 32x32 leaves
     * (BENCHMARKS.md, "Session 31: the table tree's leaf by how its cells
     * move"): HPP-demo 954 / 238 / 147 / 170, Margolus DLA 993 / 267 /
     * 195 / 214, a 512^2 WireWorld soup 3847 / 372 / 137 / 111;
     * Hutton-replicator 44 / 93 / 180 / 293, JvN golly-constructor 57 /
     * 45 / 63 / 93, a Langtons-Loops soup 24 / 14 / 24 / 75; Margolus
     * Sand 4.9 / 8.5 / 11.8 / 21.1; Tempesti-Loop 33 / 582 / 1893 / 2406 */
    if (!gg_engine_table_leaf_needs_population(f->width, f->height))
        return HL_LEAF_LOG_MIN;
    bool dense = gg_engine_table_box_busy(f->width, f->height,
                                          f->population);
    if (dense && f->variety >= 0 && f->variety < GG_ENGINE_ORDERED_VARIETY)
        return HL_LEAF_LOG_MIN;
    /* a gas: every square new, so no reuse pays for small leaves' nodes;
     * 16 x 16 but where the rule's kernel is cheapest (4 states) */
    if (f->motion >= GG_ENGINE_GAS_MOTION)
        return f->states <= 4 ? HL_LEAF_LOG_DEFAULT : 4;
    /* a soup (every 4 x 4 square unlike) or cells that move much */
    if ((dense && f->variety >= GG_ENGINE_SOUP_VARIETY) ||
        f->motion >= GG_ENGINE_BUSY_MOTION)
        return 3;
    /* wires and loops: 8 x 8 for a big machine's first thousands of
     * generations (JvN's CY_Lee computer 105 / 82 ms at 1000), 4 x 4 as
     * its signals repeat (codon5 at 10^4: 36 / 51 ms) */
    return f->population >= (1 << 14) && f->gens < GG_ENGINE_LONG_GENS
               ? 3
               : HL_LEAF_LOG_MIN;
}

int gg_engine_table_leaf_for(const gg_pattern *p, int states, int64_t gens,
                             gg_engine_cells_step step, void *ctx)
{
    int64_t w = p->plane[0].width, h = p->plane[0].height;
    gg_engine_table_facts f = {.width = w, .height = h, .population = -1,
                               .variety = -1, .motion = -1,
                               .states = states, .gens = gens};
    if (gg_engine_table_leaf_needs_population(w, h))
        f.population = gg_grids_live(p->plane, p->n_planes);
    bool busy = gg_engine_table_box_busy(w, h, f.population);
    if (busy)
        f.variety = gg_engine_square_variety(p);
    /* cells stepped only where their motion can change the leaf: not
     * for a busy box of repeated squares, which takes 4 x 4 whatever it
     * does (1-2 ms of Margolus Sand's 5), nor a sparse box of fewer than
     * 2^12 live cells (a 64-state Perrier-Parenthesis-Checker's 8 ms of
     * 7: its wires and loops take 4 x 4 too) */
    bool ordered = busy && f.variety >= 0 &&
                   f.variety < GG_ENGINE_ORDERED_VARIETY;
    if (f.population >= (busy ? GG_ENGINE_MOTION_MIN_LIVE
                               : GG_ENGINE_MOTION_MIN_SPARSE) &&
        !ordered)
        f.motion = gg_engine_table_motion(p, states, GG_ENGINE_MOTION_GENS,
                                          step, ctx);
    return gg_engine_table_leaf_log(&f);
}

int gg_engine_two_state_leaf_log(int gates_per_word)
{
    /* CPU ms to 1000, 32x32 / 16x16 leaves, Golly's Hensel patterns on
     * the tree (BENCHMARKS.md, "Session 30: leaves by the network's
     * cost"): 24 gates Sierpinski-builder 6.28 / 4.67, reflectorless
     * puffer 2.56 / 2.53; 26 horiship-guns 8.41 / 6.75; 37 binary ruler
     * 5.40 / 5.82; 42 cruise-ship factory 2.15 / 2.29; 46 rr14gun 4.84 /
     * 4.25; 54 b2ein rakes 11.53 / 8.07. Below 24 (Life's 8, JustFriends'
     * 15, 19, 20) 16x16 lost: JustFriends oscillators 8.1 / 19.2,
     * pondpuffer 14.3 / 16.2 */
    return gates_per_word >= 24 ? 4 : 0;
}

bool gg_engine_tiles_take(const gg_backend *b)
{
    return !gg_backend_of(b)->rows;
}

bool gg_engine_tiles_device(const gg_backend *b)
{
    return gg_backend_of(b)->tiles_step != NULL;
}

int64_t gg_engine_default_mem(void)
{
    long pages = sysconf(_SC_PHYS_PAGES), size = sysconf(_SC_PAGESIZE);
    return pages > 0 && size > 0 ? (int64_t)pages * size / 4
                                 : (int64_t)1 << 30;
}

int64_t gg_engine_tree_bytes(int64_t mem)
{
    int64_t share = (mem - ((int64_t)12 << 20)) / 3 * 2;
    return share > mem / 4 ? share : mem / 4;
}

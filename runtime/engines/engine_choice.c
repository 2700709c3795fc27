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

int gg_engine_table_leaf_log(int64_t width, int64_t height,
                             int64_t population, double variety)
{
    /* CPU seconds, 4x4 / 8x8 / 32x32 leaves (BENCHMARKS.md, "Small leaves
     * for rule tables"): Tempesti-Loop to 1000 0.05 / 0.33 / 1.23, to
     * 5000 0.14 / 0.77 / 32; Langtons-Loops to 20000 0.10 / 0.11 / 3.2;
     * primes.mc to 10^5 0.10 / 0.12 / 0.35; Devore-rep (97639 live, 2%)
     * to 5000 0.13 / 0.09; WireWorld soups 78% alive, 1000 generations:
     * 96^2 0.02 / 0.00 / 0.00, 128^2 0.08 / 0.01 / 0.00, 512^2 3.6 / 0.33
     * / 0.06; Margolus/TMGas (1520 live, a dense gas) 0.01 / 0.01 / 0.04 */
    if (!gg_engine_table_leaf_needs_population(width, height))
        return HL_LEAF_LOG_MIN;
    bool dense = gg_engine_table_box_busy(width, height, population);
    /* CPU ms to 1000 (32x32 / 4x4 leaves; bgolly): Margolus/Sand 15.1 /
     * 5.6 (10.0), Evoloop-finite 52 / 16.4 (46), BBM 6.8 / 5.0 (4.1);
     * Sand to 10^5 0.79 s / 0.039 s (BENCHMARKS.md, "Session 29: small
     * rule tables on the tree") */
    if (dense && variety >= 0 && variety < GG_ENGINE_ORDERED_VARIETY)
        return HL_LEAF_LOG_MIN;
    if (dense && population >= (1 << 13))
        return HL_LEAF_LOG_DEFAULT;
    return dense || population >= (1 << 14) ? 3 : HL_LEAF_LOG_MIN;
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

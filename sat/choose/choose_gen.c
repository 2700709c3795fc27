#include "choose_gen.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cache.h"
#include "choose.h"
#include "cms.h"
#include "net_build.h"
#include "net_text.h"
#include "rule_gen.h"
#include "synth.h"

/* One output, minimal in gate2 when the work suffices: *proven says. */
static int synth_one(const gg_tt *t, gg_net *net, bool *proven, gg_err *err)
{
    gg_synth_result *res = gg_alloc(1, sizeof *res, err, "Generations stage");
    if (!res)
        return -1;
    gg_synth_opts o = {.lib = GG_LIB_GATE2,
                       .work_limit = GG_CHOOSE_WORK,
                       .time_limit = GG_CHOOSE_GUARD_SECONDS};
    int rc = gg_synth_run(t, &o, res, err);
    if (!rc) {
        *net = res->net;
        *proven = *proven && res->proven;
    }
    free(res);
    return rc;
}

/* Per-output networks: synthesized (or decision diagrams without the
 * solver). */
static int per_output(int states, gg_gen_nets *g, gg_err *err)
{
    if (!gg_sat_available())
        return gg_gen_nets_build(states, g, err);
    int q = gg_gen_planes(states);
    gg_net *outs = gg_alloc((size_t)q + 2, sizeof *outs, err,
                            "Generations stage");
    if (!outs)
        return -1;
    const gg_net *ptr[GG_GEN_NETS_MAX_PLANES + 1];
    bool proven = true;
    gg_tt t;
    int bad = 0;
    for (int o = 0; o <= q && !bad; o++) {
        gg_gen_post_tt(states, o, &t);
        bad = synth_one(&t, &outs[o], &proven, err);
        ptr[o] = &outs[o];
    }
    if (!bad) {
        gg_gen_alive_tt(states, &t);
        bad = synth_one(&t, &outs[q + 1], &proven, err);
    }
    if (!bad)
        bad = gg_gen_nets_assemble(states, ptr, &outs[q + 1], proven, g, err);
    free(outs);
    return bad;
}

int gg_choose_gen_nets(int states, gg_gen_nets *g, gg_err *err)
{
    gg_gen_nets *c = gg_alloc(1, sizeof *c, err, "Generations stage");
    if (!c)
        return -1;
    /* the cheaper of the counter and the per-output networks; a tie goes
     * to the synthesized ones (minimal per output) */
    int bad = gg_gen_nets_counter(states, c, err) ||
              per_output(states, g, err);
    if (!bad && gg_gen_nets_cost(c) < gg_gen_nets_cost(g))
        *g = *c;
    free(c);
    return bad;
}

/* ---- kept between runs ---- */

/* The stage's file under root: the synthesis is the same on every machine
 * for a given work limit, so the limit names the folder (a build without
 * the solver makes decision diagrams: a folder of their own). */
static int kept_path(const char *root, int states, char *buf, size_t size)
{
    int n = gg_sat_available()
                ? snprintf(buf, size, "%s/gen-stage-v1-work%d/C%d.txt", root,
                           GG_CHOOSE_WORK, states)
                : snprintf(buf, size, "%s/gen-stage-v1-diagrams/C%d.txt",
                           root, states);
    return n > 0 && (size_t)n < size ? 0 : -1;
}

/* Split point of a kept file: the alive net above, the post net below. */
#define POST_MARK "%% post\n"

/* The kept stage at path into g, verified on every care row: 0, or -1
 * when it is missing or damaged (it is then made again). */
static int read_kept(const char *path, int states, gg_gen_nets *g)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return -1;
    char text[1 << 16];
    size_t n = fread(text, 1, sizeof text - 1, f);
    fclose(f);
    text[n] = 0;
    int proven = 0, c = 0;
    char *post = strstr(text, POST_MARK);
    if (sscanf(text, "golgen Generations stage C=%d proven=%d", &c,
               &proven) != 2 || c != states || !post)
        return -1;
    *post = 0;
    char *alive = strchr(text, '\n');
    gg_err ignore;
    memset(g, 0, sizeof *g);
    g->states = states;
    g->planes = gg_gen_planes(states);
    g->a_is_p0 = states <= 3;
    g->proven = proven == 1;
    return alive &&
                   !gg_net_parse_text(alive + 1, 2, &g->alive, NULL,
                                      &ignore) &&
                   !gg_net_parse_text(post + strlen(POST_MARK), 1, &g->post,
                                      NULL, &ignore) &&
                   !gg_gen_nets_verify(g, &ignore)
               ? 0
               : -1;
}

/* g kept at path, atomically (a failure to keep it changes nothing). */
static void write_kept(const char *path, const gg_gen_nets *g)
{
    char dirs[4200], tmp[4300];
    gg_err ignore;
    snprintf(dirs, sizeof dirs, "%s", path);
    if (gg_cache_make_dirs(dirs, &ignore))
        return;
    snprintf(tmp, sizeof tmp, "%s.tmp%ld", path, (long)getpid());
    FILE *f = fopen(tmp, "wb");
    if (!f)
        return;
    fprintf(f, "golgen Generations stage C=%d proven=%d\n", g->states,
            g->proven ? 1 : 0);
    gg_net_write_text(f, &g->alive, NULL);
    fputs(POST_MARK, f);
    gg_net_write_text(f, &g->post, NULL);
    if (fclose(f) || rename(tmp, path))
        remove(tmp);
}

int gg_choose_gen_nets_kept(int states, const char *root, gg_gen_nets *g,
                            gg_err *err)
{
    char path[4200];
    bool keep = root && *root && kept_path(root, states, path,
                                           sizeof path) == 0;
    if (keep && read_kept(path, states, g) == 0)
        return 0;
    if (gg_choose_gen_nets(states, g, err))
        return -1;
    if (keep)
        write_kept(path, g);
    return 0;
}

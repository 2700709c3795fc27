/* golgen_run_2d with host_mem: a store run band by band into another store
 * (runtime/formats/store_stream.h) when the universe does not fit host
 * memory. Moved from the command's cli/run_store_stream.c. */
#include "run_lib.h"

#include <stdio.h>
#include <string.h>

#include "atomic_file.h"
#include "store.h"
#include "store_stream.h"

int gg_run_store_rule_check(const char *given, const gg_rule *stored,
                            const char *path, gg_err *err)
{
    gg_rule g;
    if (!given)
        return 0;
    if (!gg_rule_parse(given, &g, err) &&
        gg_rule_same_transition(&g, stored) && g.topo == stored->topo &&
        g.width == stored->width && g.height == stored->height)
        return 0;
    char text[256];
    gg_rule_format(stored, text, sizeof text);
    return gg_fail(err, "--rule %s is not the rule of store %s (%s): drop "
                   "--rule to continue it", given, path, text);
}

/* The options that do not combine with host_mem, refused before anything
 * runs: it needs resume and store, and the whole universe is never in
 * memory for out, pictures or several devices. */
static int host_mem_check(const gg_run *r, gg_err *err)
{
    const golgen_run2d_opts *o = r->o;
    if (!o->resume || !o->store)
        return gg_fail(err, "--host-mem streams one store into another: give "
                       "--resume IN.ggu and --store OUT.ggu");
    const char *what = o->out                 ? "-o"
                       : o->checkpoint_every  ? "--checkpoint-every"
                       : r->n_devices         ? "--devices"
                       : o->png || o->frames ? "--png and --frames"
                                              : NULL;
    if (what)
        return gg_fail(err, "--host-mem never holds the whole universe, so "
                       "%s does not combine with it (every pass of the run "
                       "is a checkpoint; 'golgen store export' writes "
                       "patterns and windows)", what);
    return 0;
}

/* The family of the store to resume (its header alone); UNKNOWN also
 * when it cannot be read, which the reader then says. */
static gg_store_family store_family(const char *path)
{
    gg_store_info s;
    gg_err ignored;
    return gg_store_info_read(path, &s, &ignored) ? GG_STORE_UNKNOWN
                                                  : gg_store_family_of(&s);
}

/* Open the backend for the store's rule. */
static int prepare(gg_run *r, gg_rule *rule, gg_backend **b, int *status,
                   gg_err *err)
{
    const golgen_run2d_opts *o = r->o;
    gg_store_info s;
    *status = GG_RUN_USAGE;
    if (gg_run_ranks_refuse(r, "runs with --host-mem", err) ||
        gg_atomic_probe(o->store, err) ||
        gg_store_stream_check(o->resume, o->host_mem, err) ||
        gg_store_info_read(o->resume, &s, err) ||
        gg_rule_parse(s.rule, rule, err) ||
        gg_run_store_rule_check(o->rule, rule, o->resume, err))
        return -1;
    gg_backend_opts bo = {.config = &r->cfg, .announce = o->announce != 0};
    return gg_run_open_backend(r, r->backend, rule, &bo, b, status, err);
}

int gg_run_host_mem(gg_run *r, gg_err *err)
{
    const golgen_run2d_opts *o = r->o;
    golgen_run2d_result *res = r->res;
    gg_store_family fam = o->resume ? store_family(o->resume)
                                    : GG_STORE_UNKNOWN;
    if ((fam == GG_STORE_LTL || fam == GG_STORE_TABLE) &&
        gg_run_family_refusals(r, fam == GG_STORE_LTL ? GG_FAMILY_LTL
                                                      : GG_FAMILY_TABLE,
                               err))
        return GG_RUN_USAGE;
    if (host_mem_check(r, err))
        return GG_RUN_USAGE;
    gg_rule rule;
    gg_backend *b;
    int status;
    snprintf(res->family, sizeof res->family, "two-state");
    snprintf(res->engine, sizeof res->engine, "stream");
    if (prepare(r, &rule, &b, &status, err))
        return status;
    if (gg_run_stop_asked(r)) { /* before the first pass: out is not begun */
        gg_backend_close(b);
        res->ran = 1;
        return GG_RUN_OK;
    }
    gg_memory_stepper mem;
    gg_stepper stepper = gg_backend_memory_stepper(b, o->device_mem, &mem);
    if (!o->device_mem)
        stepper = mem.whole;
    gg_run_prog prog = {.r = r};
    gg_store_stream_opts so = {o->gens, o->host_mem, gg_run_progress, &prog};
    gg_store_stream_stats st;
    double start = gg_run_now();
    /* a stop ends the pass in flight, which is written */
    int bad = gg_store_stream(o->resume, o->store, &stepper, &so, &st, err);
    double seconds = gg_run_now() - start;
    gg_run_report_streaming(r, &mem, stepper.name);
    gg_backend_close(b);
    if (bad) {
        res->stop_exit = gg_run_stop_asked(r);
        return GG_RUN_USAGE;
    }
    res->ran = 1;
    res->reached = st.done;
    res->generation = st.generation;
    res->population = st.population;
    res->seconds = seconds;
    res->written = 1;
    gg_rule_format(&rule, res->rule, sizeof res->rule);
    gg_run_summary(r, "%s: generation %lld, population %lld, %.3f s (%s; "
                   "%lld passes of up to %lld generations, %lld bands "
                   "stepped, %lld rows each)", res->rule,
                   (long long)st.generation, (long long)st.population,
                   seconds, stepper.name, (long long)st.passes,
                   (long long)st.t, (long long)st.bands, (long long)st.rows);
    return GG_RUN_OK;
}

#include "run_store_stream.h"

#include <stdio.h>
#include <unistd.h>

#include "atomic_file.h"
#include "cli_util.h"
#include "run_control.h"
#include "run_ranks.h"
#include "store.h"
#include "store_stream.h"

int gg_host_mem_check(const gg_host_mem_run *r, bool out, bool checkpoints,
                      bool devices, bool pictures, gg_err *err)
{
    if (!r->in || !r->out)
        return gg_fail(err, "--host-mem streams one store into another: give "
                       "--resume IN.ggu and --store OUT.ggu");
    const char *what = out ? "-o" : checkpoints ? "--checkpoint-every"
                       : devices ? "--devices"
                       : pictures ? "--png and --frames" : NULL;
    if (what)
        return gg_fail(err, "--host-mem never holds the whole universe, so "
                       "%s does not combine with it (every pass of the run "
                       "is a checkpoint; 'golgen store export' writes "
                       "patterns and windows)", what);
    return 0;
}

int gg_cli_store_rule_check(const char *given, const gg_rule *stored,
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

/* Open the backend for the store's rule and say how the run will go. */
static int prepare(const gg_host_mem_run *r, gg_rule *rule, gg_backend **b,
                   int *status, gg_err *err)
{
    gg_store_info s;
    *status = GG_EXIT_USAGE;
    if (gg_cli_ranks_refuse("runs with --host-mem", err) ||
        gg_atomic_probe(r->out, err) ||
        gg_store_stream_check(r->in, r->host_mem, err) ||
        gg_store_info_read(r->in, &s, err) ||
        gg_rule_parse(s.rule, rule, err) ||
        gg_cli_store_rule_check(r->rule, rule, r->in, err))
        return -1;
    gg_backend_opts bo = {.config = r->cfg, .announce = isatty(2)};
    return gg_cli_open_backend(r->backend, rule, &bo, b, status, err);
}

int gg_run_host_mem(const gg_host_mem_run *r)
{
    gg_err err;
    gg_rule rule;
    gg_backend *b;
    int status;
    if (prepare(r, &rule, &b, &status, &err))
        return gg_cli_error("run", status, &err);
    if (gg_run_stopped()) { /* before the first pass: OUT is not begun */
        gg_backend_close(b);
        return gg_run_stop_report(0, r->gens, false);
    }
    gg_memory_stepper mem;
    gg_stepper stepper = gg_backend_memory_stepper(b, r->device_mem, &mem);
    if (!r->device_mem)
        stepper = mem.whole;
    gg_run_progress ps;
    gg_run_progress_init(&ps, r->progress, r->gens);
    gg_store_stream_opts o = {r->gens, r->host_mem, gg_run_progress_cb,
                              &ps};
    gg_store_stream_stats st;
    double start = gg_cli_now();
    /* a stop ends the pass in flight, which is written */
    int bad = gg_store_stream(r->in, r->out, &stepper, &o, &st, &err);
    double seconds = gg_cli_now() - start;
    gg_cli_report_streaming(&mem, stepper.name);
    gg_backend_close(b);
    if (bad) {
        int rc = gg_cli_error("run", GG_EXIT_USAGE, &err);
        return gg_run_stopped() ? gg_run_stop_status() : rc;
    }
    char text[128];
    gg_rule_format(&rule, text, sizeof text);
    fprintf(stderr, "%s: generation %lld, population %lld, %.3f s (%s; "
            "%lld passes of up to %lld generations, %lld bands stepped, "
            "%lld rows each)\n", text, (long long)st.generation,
            (long long)st.population, seconds, stepper.name,
            (long long)st.passes, (long long)st.t, (long long)st.bands,
            (long long)st.rows);
    return gg_run_stop_report(st.done, r->gens, true);
}

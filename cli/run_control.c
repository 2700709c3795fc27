#include "run_control.h"

#include <signal.h>
#include <stdio.h>

#include "cli_args.h"
#include "stop_signals.h"

static volatile sig_atomic_t stop_signal;
static struct sigaction old[GG_N_STOP_SIGNALS];

static void on_stop(int sig)
{
    stop_signal = sig;
}

void gg_run_stop_install(void)
{
    stop_signal = 0;
    gg_stop_signals_catch(on_stop, old);
}

void gg_run_stop_restore(void) { gg_stop_signals_release(old); }

bool gg_run_stopped(void) { return stop_signal != 0; }

const volatile sig_atomic_t *gg_run_stop_flag(void)
{
    return &stop_signal;
}

int gg_run_stop_status(void) { return stop_signal ? 128 + stop_signal : 0; }

int gg_run_stop_report(int64_t reached, int64_t total, bool written)
{
    if (!stop_signal)
        return 0;
    fprintf(stderr, "golgen run: interrupted by %s%s after %lld of %lld "
            "generations%s\n", gg_stop_signal_name(stop_signal),
            stop_signal == SIGINT ? " (Ctrl-C)" : "", (long long)reached,
            (long long)total,
            written ? "; the result so far was written" : "");
    return gg_run_stop_status();
}

void gg_run_progress_init(gg_run_progress *p, bool show, int64_t all)
{
    p->last = gg_cli_now();
    p->show = show;
    p->base = 0;
    p->all = all;
}

bool gg_run_progress_cb(void *ctx, int64_t done, int64_t total)
{
    gg_run_progress *p = ctx;
    double t = gg_cli_now();
    (void)total;
    done += p->base;
    if (p->show && p->all > 0 && (t - p->last >= 1.0 || done == p->all)) {
        p->last = t;
        fprintf(stderr, "\rgeneration %lld of %lld (%.0f%%)",
                (long long)done, (long long)p->all,
                100.0 * (double)done / (double)p->all);
        if (done == p->all)
            fputc('\n', stderr);
    }
    return !stop_signal;
}

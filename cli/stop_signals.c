#include "stop_signals.h"

#include <string.h>

static const int stops[GG_N_STOP_SIGNALS] = {SIGINT, SIGTERM, SIGHUP};

void gg_stop_signals_catch(void (*on)(int),
                           struct sigaction old[GG_N_STOP_SIGNALS])
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on;
    sa.sa_flags = SA_RESTART;
    sigemptyset(&sa.sa_mask);
    for (int i = 0; i < GG_N_STOP_SIGNALS; i++) {
        sigaction(stops[i], NULL, &old[i]);
        if (old[i].sa_handler != SIG_IGN)
            sigaction(stops[i], &sa, NULL);
    }
}

void gg_stop_signals_release(const struct sigaction old[GG_N_STOP_SIGNALS])
{
    for (int i = 0; i < GG_N_STOP_SIGNALS; i++)
        sigaction(stops[i], &old[i], NULL);
}

const char *gg_stop_signal_name(int sig)
{
    return sig == SIGTERM ? "SIGTERM" : sig == SIGHUP ? "SIGHUP" : "SIGINT";
}

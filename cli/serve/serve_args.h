/* golgen serve's command line as serve_main.c reads it (it needs nothing
 * of the engine: tests/check_layers.py), and the server started on it
 * (serve_server.c). */
#ifndef GG_SERVE_ARGS_H
#define GG_SERVE_ARGS_H

#include "commands.h"

#define SV_DEFAULT_BATCH_MS 500 /* golgen serve --batch-ms: the longest */
/* Frames a second a watched batch makes at least (serve_watch.h; a page
 * takes at most its display's rate) */
#define SV_WATCH_FPS 36

typedef struct sv_args {
    const char *rule, *in, *backend, *address; /* NULL: not given */
    int port, batch_ms, fps;
} sv_args;

/* The universe in a->in (NULL: the R-pentomino; Golly's 3D.lua RLE3 as
 * a 3D grid) under a->rule, run on a->backend (NULL: auto) and served
 * until SIGINT, SIGTERM or SIGHUP: the exit status, having said on
 * stderr why it failed. */
int sv_serve_command(const sv_args *a, const gg_config *cfg);

#endif

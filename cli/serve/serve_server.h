/* golgen serve: the HTTP and WebSocket server (libwebsockets) over a
 * running simulation: the page at /, the socket at /ws; what a message
 * does to the universe, and frames of a page's view. The command's
 * universe and simulation are started here too (sv_serve_command). */
#ifndef GG_SERVE_SERVER_H
#define GG_SERVE_SERVER_H

#include "serve_args.h" /* sv_serve_command, defined here */
#include "serve_sim.h"

typedef struct sv_server_opts {
    const char *address; /* NULL: 127.0.0.1 */
    int port;            /* 0: a free one */
    const char *token;   /* required as ?token= when not NULL */
    const char *pattern; /* the file named on the command line (NULL:
                            none): rule files are looked for beside it */
} sv_server_opts;

/* Serve until SIGINT, SIGTERM or SIGHUP; 0, or -1 with a sentence in err
 * when it cannot listen. */
int sv_serve(sv_sim *sim, const sv_server_opts *o, char *err, size_t len);

#endif

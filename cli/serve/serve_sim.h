/* golgen serve: the simulation thread. It owns the open backend and runs
 * the universe in batches of about 15 ms (or one generation and a delay),
 * never waiting for a page; the server thread takes `lock` between
 * batches to read a frame or change the universe. */
#ifndef GG_SERVE_SIM_H
#define GG_SERVE_SIM_H

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>

#include "backend.h"
#include "config.h"
#include "serve_world.h"

typedef struct sv_sim {
    pthread_mutex_t lock;
    pthread_cond_t wake;
    pthread_t thread;
    bool started;
    /* under lock */
    sv_world world;
    uint64_t rule_epoch; /* bumped when the world's rule changes */
    uint64_t edits;      /* bumped by every change but a step */
    bool running, quit;
    int64_t steps_left; /* step N: generations still to run, then pause */
    int delay_ms;
    double rate;        /* generations a second, lately */
    char backend[64];   /* the open backend's name */
    char note[640];     /* the last failure, for every page */
    uint64_t note_seq;
    int64_t pop, pop_gen; /* population cache: at generation pop_gen */
    uint64_t pop_edits;   /* ... and edit count */
    /* the sim thread's own */
    const gg_backend_info *info;
    const gg_config *cfg;
    void (*notify)(void *ctx); /* wakes the server (a new note) */
    void *notify_ctx;
} sv_sim;

/* Start the thread on the world (taken over); backend NULL: auto. */
int sv_sim_start(sv_sim *s, sv_world *world, const gg_backend_info *backend,
                 const gg_config *cfg, gg_err *err);
void sv_sim_stop(sv_sim *s);
/* Under lock: the population now (cached per generation and edit). */
int64_t sv_sim_population(sv_sim *s);
/* Under lock: a new world replaces the old (taken over), paused. */
void sv_sim_replace(sv_sim *s, sv_world *world);

#endif

/* golgen serve: the simulation thread. It owns the world's stepper (the
 * library's: include/golgen/world.h) and runs the universe in batches of
 * 33 ms to batch_ms (or one generation and a delay), never waiting for a
 * page; the server thread takes `lock`
 * between batches to change the universe. Frames are drawn by this thread
 * between batches (or while it waits) for the views the pages asked for
 * (drawn again only when something shown changed) and left in the view's
 * slot for the server to send: the server never waits for a batch to draw
 * a frame, and the simulation never waits for a page or the network.
 * Where a batch spans several frames (a big bounded two-state universe on
 * the cpu backend), its frames are taken from inside the kernel's pass
 * instead (serve_watch.h), queued in the view and drawn by the server
 * thread when each falls due. */
#ifndef GG_SERVE_SIM_H
#define GG_SERVE_SIM_H

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>

#include "golgen.h"
#include "serve_args.h" /* SV_DEFAULT_BATCH_MS, SV_WATCH_FPS */
#include "serve_watch.h"

#define SV_MAX_VIEWS 64   /* pages at once */
#define SV_FRAME_BATCH 0.033    /* seconds a batch, unless longer ones
                                   make generations cheaper */
#define SV_FRAME_HEADER 224 /* a frame's header, then its blocks */

/* A frame made inside a batch (serve_watch.h), to go at its time: its
 * header, and where its blocks are counted (drawn when it is sent). */
typedef struct sv_queued {
    unsigned char head[SV_FRAME_HEADER];
    double due;   /* when it may go (gg_cli_now) */
    int set, k, f; /* sv_watch set, view and frame */
    uint64_t id;  /* the set's id then (another: the maps are gone) */
} sv_queued;

/* One page's view, under vlock. */
typedef struct sv_view {
    bool used;
    uint64_t owner;   /* which page holds it (a slot is reused) */
    int64_t x, y;     /* the window asked for (serve_msg.h's view) */
    int cols, rows, level;
    uint64_t asked;   /* bumped by each view message */
    bool want;        /* a frame is wanted */
    bool ready;       /* frame holds one to send */
    unsigned char *frame; /* pre bytes, then the frame */
    size_t len, cap;
    /* what the frame drew: a frame is drawn again only when one changed */
    uint64_t drawn_asked, drawn_key;
    double last_ask;      /* when the page last asked for a frame */
    /* frames of the last watched batch, in order of generation: the one
     * due latest before now goes when the page asks (older ones are
     * skipped); they show up to what queued_key says */
    sv_queued queue[SV_WATCH_FRAMES];
    int queued, next;
    uint64_t queued_key;
} sv_view;

typedef struct sv_sim {
    pthread_mutex_t lock;
    pthread_cond_t wake;
    pthread_t thread;
    bool started;
    /* under lock: the world on view (include/golgen/world.h) */
    golgen_world *world;
    uint64_t rule_epoch; /* bumped when the world's rule changes */
    uint64_t edits;      /* bumped by every change but a step */
    bool running, quit;
    int64_t steps_left; /* step N: generations still to run, then pause */
    int delay_ms;
    int batch_ms;       /* the longest a batch at full speed */
    int fps;            /* frames a second a watched batch makes at least
                           (0: SV_WATCH_FPS) */
    double rate;        /* generations a second, lately */
    char backend[64];   /* the open backend's name */
    int64_t pop, pop_gen; /* population cache: at generation pop_gen */
    uint64_t pop_edits;   /* ... and edit count */
    double pop_time;      /* when it was counted */
    /* views and notes, under vlock (taken after lock, never before) */
    pthread_mutex_t vlock;
    sv_view views[SV_MAX_VIEWS];
    uint64_t owners;
    char note[640];     /* the last failure, for every page */
    uint64_t note_seq;
    size_t pre;         /* bytes before each frame (LWS_PRE) */
    int64_t live_gen;   /* the generation reached (atomic) */
    /* the sim thread's own: a frame drawn outside vlock */
    unsigned char *scratch;
    size_t scratch_cap;
    sv_watch watch;   /* watched batches' views and maps (the sets' ids
                         and views change under vlock) */
    double call_rate; /* generations a second of the last full batch */
    /* the sim thread's own */
    const char *backend_name; /* NULL: auto */
    void (*notify)(void *ctx); /* wakes the server (a new note) */
    void *notify_ctx;
} sv_sim;

/* Start the thread on the world (taken over); backend NULL: auto. -1
 * with a sentence in err when the thread cannot start. */
int sv_sim_start(sv_sim *s, golgen_world *world, const char *backend,
                 char *err, size_t errlen);
void sv_sim_stop(sv_sim *s);
/* Under lock: the population (cached per generation and edit; while
 * running, counted again at most once a second: it reads the whole
 * grid); *gen the generation it was counted at. */
int64_t sv_sim_population(sv_sim *s, int64_t *gen);
/* Wake the thread: a view was asked for, or a change was made. */
void sv_sim_wake(sv_sim *s);
/* A view slot for a new page (-1: all taken) and its owner id; given
 * back by sv_sim_view_free. */
int sv_sim_view_new(sv_sim *s, uint64_t *owner);
void sv_sim_view_free(sv_sim *s, int slot);
/* A frame of (x, y, cols, rows, level) wanted in slot. */
void sv_sim_view_ask(sv_sim *s, int slot, int64_t x, int64_t y, int cols,
                     int rows, int level);
/* Under vlock (the server): the frame to send for slot into *buf (pre
 * bytes, then the frame; *buf grows to *cap bytes as needed), its length,
 * or 0: none now, and *wait (seconds; 0: none) says when a watched frame
 * falls due. A watched frame is drawn here, on the server's thread. */
size_t sv_sim_view_take(sv_sim *s, int slot, unsigned char **buf,
                        size_t *cap, double *wait);
/* Under lock: a new world replaces the old (taken over), paused. */
void sv_sim_replace(sv_sim *s, golgen_world *world);

#endif

#include "search_hook.h"

#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cli_rank.h"

#define MAX_UNKEPT 4

/* One note: from the first search that begins to gg_search_note_finish.
 * The timer thread prints the opening line; the hook can be called from
 * any thread, so everything is under mu. */
static struct {
    pthread_mutex_t mu;
    pthread_cond_t cv; /* on CLOCK_MONOTONIC (make_ready) */
    pthread_t timer;
    bool timing;    /* the timer thread runs */
    bool started;   /* a search began since the last finish */
    bool printed;   /* the opening line is out */
    bool finishing;
    bool ready;     /* the clock is set and the exit hook registered */
    int depth;      /* searches under way (they nest) */
    double after, t0, t_end;
    char rule[128];
    char usual[32];  /* the rule's front when synth is given none */
    int n_unkept;    /* outermost searches nothing keeps */
    struct {
        char front[32], lib[16];
    } unkept[MAX_UNKEPT];
} note = {.mu = PTHREAD_MUTEX_INITIALIZER, .cv = PTHREAD_COND_INITIALIZER,
        .after = 1};

static double now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static void print_opening(void)
{
    note.printed = true;
    if (gg_cli_rank() == 0)
        fprintf(stderr, "golgen: synthesizing networks for %s (the network "
                "cache has none for it) ...\n", note.rule);
}

/* Which searches the next run repeats, as the commands that would cache
 * them instead. */
static void unkept_commands(char *buf, size_t size)
{
    size_t n = 0;
    buf[0] = 0;
    for (int i = 0; i < note.n_unkept && n < size; i++) {
        char front[48] = "";
        if (strcmp(note.unkept[i].front, note.usual))
            snprintf(front, sizeof front, " --front %s",
                     note.unkept[i].front);
        n += (size_t)snprintf(buf + n, size - n, "%s'golgen synth --rule %s%s"
                              "%s'", i ? " and " : "", note.rule, front,
                              !strcmp(note.unkept[i].lib, "lut3")
                                  ? ""
                                  : " --lib gate2");
    }
}

static void print_closing(void)
{
    double took = (note.depth ? now() : note.t_end) - note.t0;
    char commands[768];
    if (gg_cli_rank() != 0)
        return;
    if (!note.n_unkept) {
        fprintf(stderr, "golgen: networks for %s synthesized in %.1f s; "
                "kept for the next run\n", note.rule, took);
        return;
    }
    unkept_commands(commands, sizeof commands);
    fprintf(stderr, "golgen: networks for %s synthesized in %.1f s; some "
            "are not kept, so the next run searches again unless the network "
            "cache gets them from %s\n", note.rule, took, commands);
}

static void remember_unkept(const golgen_search_event *s)
{
    for (int i = 0; i < note.n_unkept; i++)
        if (!strcmp(note.unkept[i].front, s->front) &&
            !strcmp(note.unkept[i].lib, s->lib))
            return;
    if (note.n_unkept < MAX_UNKEPT) {
        snprintf(note.unkept[note.n_unkept].front,
                 sizeof note.unkept[0].front, "%s", s->front);
        snprintf(note.unkept[note.n_unkept++].lib, sizeof note.unkept[0].lib,
                 "%s", s->lib);
    }
}

/* Prints the opening line once a search has run `after` seconds since
 * the first began, unless the note is finished first. Between searches
 * (depth 0: the kernel compiles, say) it waits for the next one. */
static void *timer_main(void *arg)
{
    (void)arg;
    pthread_mutex_lock(&note.mu);
    double at = note.t0 + note.after;
    struct timespec ts = {(time_t)at, (long)((at - (double)(time_t)at) * 1e9)};
    while (!note.finishing && (note.depth == 0 || now() < at)) {
        if (now() < at)
            pthread_cond_timedwait(&note.cv, &note.mu, &ts);
        else
            pthread_cond_wait(&note.cv, &note.mu);
    }
    if (!note.finishing)
        print_opening();
    pthread_mutex_unlock(&note.mu);
    return NULL;
}

/* mu held; once, before the first note's timer starts. */
static void make_ready(void)
{
    if (note.ready)
        return;
    note.ready = true;
    /* the timer's deadline is on the clock now() reads; nobody waits on
     * cv before the first timer */
    pthread_condattr_t attr;
    pthread_condattr_init(&attr);
    pthread_condattr_setclock(&attr, CLOCK_MONOTONIC);
    pthread_cond_destroy(&note.cv);
    pthread_cond_init(&note.cv, &attr);
    pthread_condattr_destroy(&attr);
    /* a command that exits between a search and its finish (an error
     * path) still joins the timer and closes the note */
    atexit(gg_search_note_finish);
}

/* mu held. Only the outermost search counts: a composed stage's parts
 * are kept or not with it. */
static void search_begins(const golgen_search_event *s)
{
    if (note.depth++ > 0)
        return;
    if (!s->kept)
        remember_unkept(s);
    if (note.started)
        return;
    note.started = true;
    make_ready();
    note.t0 = now();
    snprintf(note.rule, sizeof note.rule, "%s", s->rule);
    snprintf(note.usual, sizeof note.usual, "%s", s->usual_front);
    if (note.after <= 0)
        print_opening();
    else if (pthread_create(&note.timer, NULL, timer_main, NULL) == 0)
        note.timing = true;
}

void gg_search_note_event(void *ctx, const golgen_search_event *s)
{
    (void)ctx;
    pthread_mutex_lock(&note.mu);
    if (s->begin)
        search_begins(s);
    else if (note.depth > 0 && --note.depth == 0)
        note.t_end = now();
    pthread_cond_broadcast(&note.cv);
    pthread_mutex_unlock(&note.mu);
}

void gg_search_note_finish(void)
{
    pthread_mutex_lock(&note.mu);
    note.finishing = true;
    pthread_cond_broadcast(&note.cv);
    bool timing = note.timing;
    pthread_mutex_unlock(&note.mu);
    if (timing)
        pthread_join(note.timer, NULL);
    pthread_mutex_lock(&note.mu);
    if (note.printed)
        print_closing();
    note.timing = note.started = note.printed = note.finishing = false;
    note.depth = note.n_unkept = 0;
    pthread_mutex_unlock(&note.mu);
}

void gg_search_note_after(double seconds)
{
    pthread_mutex_lock(&note.mu);
    note.after = seconds;
    pthread_mutex_unlock(&note.mu);
}

/* golgen serve: the simulation thread (serve_sim.h). */
#include "serve_sim.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "cli_util.h"

#define SV_BATCH_SECONDS 0.015

static void note(sv_sim *s, const char *msg)
{
    snprintf(s->note, sizeof s->note, "%s", msg);
    s->note_seq++;
    s->running = false;
    s->steps_left = 0;
    if (s->notify)
        s->notify(s->notify_ctx);
}

static void rule_text(const sv_world *w, char *buf, size_t size)
{
    gg_rule_format(sv_world_rule(w), buf, size);
}

/* Under lock, returned under lock: a backend for the world's rule (the
 * lock is let go while it opens: compiling a kernel takes seconds). */
static int reopen(sv_sim *s, gg_backend **b, uint64_t *epoch)
{
    gg_rule rule = *sv_world_rule(&s->world);
    uint64_t want = s->rule_epoch;
    pthread_mutex_unlock(&s->lock);
    if (*b)
        gg_backend_close(*b);
    *b = NULL;
    gg_err err;
    int status;
    gg_backend_opts bo = {.config = s->cfg};
    int bad = gg_cli_open_backend(s->info, &rule, &bo, b, &status, &err);
    pthread_mutex_lock(&s->lock);
    if (bad) {
        *b = NULL;
        note(s, err.msg);
        snprintf(s->backend, sizeof s->backend, "none");
        *epoch = want; /* not again until the rule changes */
        return -1;
    }
    snprintf(s->backend, sizeof s->backend, "%s",
             gg_backend_of(*b)->name);
    *epoch = want;
    return 0;
}

static double now(void)
{
    return gg_cli_now();
}

/* n generations of the world on b, under lock. */
static int advance(sv_sim *s, gg_backend *b, int64_t n, gg_err *err)
{
    sv_world *w = &s->world;
    if (gg_generations_check(sv_world_generation(w), n, err))
        return -1;
    if (w->gen) {
        gg_gen_stepper st = gg_backend_gen_stepper(b);
        return gg_gen_universe_run(&w->g, &st, n, NULL, NULL, err);
    }
    gg_stepper st = gg_backend_stepper(b);
    return gg_universe_run(&w->u, &st, n, NULL, NULL, err);
}

/* Sleep ms, or less when woken (pause, a new speed), under lock. */
static void delay(sv_sim *s, int ms)
{
    struct timespec t;
    clock_gettime(CLOCK_REALTIME, &t);
    t.tv_sec += ms / 1000;
    t.tv_nsec += (long)(ms % 1000) * 1000000L;
    if (t.tv_nsec >= 1000000000L)
        t.tv_sec++, t.tv_nsec -= 1000000000L;
    pthread_cond_timedwait(&s->wake, &s->lock, &t);
}

static void *loop(void *arg)
{
    sv_sim *s = arg;
    gg_backend *b = NULL;
    uint64_t epoch = 0;
    int64_t batch = 1, rate_gens = 0;
    double rate_since = now();
    pthread_mutex_lock(&s->lock);
    epoch = s->rule_epoch - 1; /* open for the first rule */
    while (!s->quit) {
        if (epoch != s->rule_epoch) {
            reopen(s, &b, &epoch);
            continue;
        }
        if (!b || (!s->running && s->steps_left == 0)) {
            s->rate = 0;
            rate_gens = 0;
            rate_since = now();
            pthread_cond_wait(&s->wake, &s->lock);
            continue;
        }
        int64_t n = s->delay_ms ? 1 : batch;
        if (s->steps_left && n > s->steps_left)
            n = s->steps_left;
        int64_t before = sv_world_generation(&s->world);
        double t0 = now();
        gg_err err;
        if (advance(s, b, n, &err)) {
            char msg[600];
            snprintf(msg, sizeof msg, "the run stopped: %s", err.msg);
            note(s, msg);
            continue;
        }
        double t = now() - t0;
        int64_t ran = sv_world_generation(&s->world) - before;
        if (s->steps_left) {
            s->steps_left -= ran < s->steps_left ? ran : s->steps_left;
            if (!s->steps_left)
                s->running = false;
        }
        if (!s->delay_ms && n == batch) { /* batches of about 15 ms */
            if (t < SV_BATCH_SECONDS / 2 && batch < (1LL << 40))
                batch *= 2;
            else if (t > SV_BATCH_SECONDS * 2 && batch > 1)
                batch /= 2;
        }
        rate_gens += ran;
        if (now() - rate_since >= 0.5) {
            s->rate = rate_gens / (now() - rate_since);
            rate_gens = 0;
            rate_since = now();
        }
        if (s->delay_ms)
            delay(s, s->delay_ms);
        else { /* let the server in between batches */
            pthread_mutex_unlock(&s->lock);
            sched_yield();
            pthread_mutex_lock(&s->lock);
        }
    }
    pthread_mutex_unlock(&s->lock);
    if (b)
        gg_backend_close(b);
    return NULL;
}

int sv_sim_start(sv_sim *s, sv_world *world, const gg_backend_info *backend,
                 const gg_config *cfg, gg_err *err)
{
    s->world = *world;
    memset(world, 0, sizeof *world);
    s->info = backend;
    s->cfg = cfg;
    s->rule_epoch = 1;
    s->pop_gen = -1;
    snprintf(s->backend, sizeof s->backend, "opening");
    pthread_mutex_init(&s->lock, NULL);
    pthread_cond_init(&s->wake, NULL);
    int e = pthread_create(&s->thread, NULL, loop, s);
    if (e)
        return gg_fail(err, "cannot start the simulation thread: %s",
                       strerror(e));
    s->started = true;
    return 0;
}

void sv_sim_stop(sv_sim *s)
{
    if (s->started) {
        pthread_mutex_lock(&s->lock);
        s->quit = true;
        pthread_cond_signal(&s->wake);
        pthread_mutex_unlock(&s->lock);
        pthread_join(s->thread, NULL);
        s->started = false;
    }
    sv_world_free(&s->world);
}

int64_t sv_sim_population(sv_sim *s)
{
    int64_t g = sv_world_generation(&s->world);
    if (g != s->pop_gen || s->edits != s->pop_edits) {
        s->pop = sv_world_population(&s->world);
        s->pop_gen = g;
        s->pop_edits = s->edits;
    }
    return s->pop;
}

void sv_sim_replace(sv_sim *s, sv_world *world)
{
    char a[256], b[256];
    rule_text(&s->world, a, sizeof a);
    rule_text(world, b, sizeof b);
    sv_world_free(&s->world);
    s->world = *world;
    memset(world, 0, sizeof *world);
    if (strcmp(a, b))
        s->rule_epoch++;
    s->edits++;
    s->running = false;
    s->steps_left = 0;
    pthread_cond_signal(&s->wake);
}

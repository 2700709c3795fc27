/* golgen serve: the simulation thread (serve_sim.h). */
#include "serve_sim.h"

#include <errno.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "cli_util.h"


static void note(sv_sim *s, const char *msg)
{
    pthread_mutex_lock(&s->vlock);
    snprintf(s->note, sizeof s->note, "%s", msg);
    s->note_seq++;
    pthread_mutex_unlock(&s->vlock);
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
    s->edits++; /* the name shown changed */
    *epoch = want;
    return 0;
}

static double now(void)
{
    return gg_cli_now();
}

/* n generations of the world on b, under lock. A bounded two-state
 * universe is stepped in one kernel call (gg_universe_run would start
 * its batches at one generation, and the cpu kernel runs up to 32
 * generations a pass over memory: calls of a few generations run at a
 * fraction of its rate). */
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
    gg_universe *u = &w->u;
    if (!gg_rule_is_bounded(&u->rule))
        return gg_universe_run(u, &st, n, NULL, NULL, err);
    if (st.hold && st.hold(st.ctx, u->rule.topo, &u->grid, err))
        return -1;
    int bad = 0;
    while (n > 0 && !bad) {
        int64_t k = st.max_batch && n > st.max_batch ? st.max_batch : n;
        bad = st.step(st.ctx, &u->rule, u->rule.topo, &u->grid, k, err);
        if (!bad)
            u->generation += k, n -= k;
    }
    gg_err later;
    if (st.hold && st.drop(st.ctx, &u->grid, bad ? &later : err))
        bad = -1;
    return bad;
}

static void put64(unsigned char *p, uint64_t v)
{
    for (int i = 0; i < 8; i++)
        p[i] = (unsigned char)(v >> (8 * i));
}

static void put32(unsigned char *p, uint32_t v)
{
    for (int i = 0; i < 4; i++)
        p[i] = (unsigned char)(v >> (8 * i));
}

/* Under lock: a frame of v's window into scratch, little-endian: "GGF1",
 * level, cols, rows, x, y, generation, population, rate (double), flags
 * (1 running, 2 torus), states, the grid's x, y, width, height, then
 * "rule | backend" (112 bytes, NUL padded), the generation reached when
 * the frame was sent (filled in by the server), the generation the
 * population was counted at, then cols x rows bytes (serve_world.h). */
static int draw(sv_sim *s, const sv_view *v, size_t *len)
{
    size_t n = SV_FRAME_HEADER + (size_t)v->cols * v->rows;
    if (s->scratch_cap < s->pre + n) {
        free(s->scratch);
        s->scratch = malloc(s->pre + n);
        s->scratch_cap = s->scratch ? s->pre + n : 0;
        if (!s->scratch)
            return -1;
    }
    unsigned char *p = s->scratch + s->pre;
    memset(p, 0, SV_FRAME_HEADER);
    const sv_world *w = &s->world;
    /* running, a window that would read more than SV_EXACT_CELLS cells
     * reads a sample of each block's rows (serve_world.h); paused, every
     * frame is exact */
    int64_t side = 1LL << v->level, sample = 0;
    double cells = (double)v->cols * v->rows * (double)side * (double)side;
    if ((s->running || s->steps_left) && v->level >= 2 &&
        cells > SV_EXACT_CELLS) {
        sample = 1;
        while (sample * 2 < side &&
               (double)v->cols * v->rows * side * (sample * 2) <=
                   SV_EXACT_CELLS)
            sample *= 2;
    }
    sv_world_render(w, v->x, v->y, v->cols, v->rows, v->level, sample,
                    p + SV_FRAME_HEADER);
    int64_t e[4], pop_gen;
    sv_world_extent(w, &e[0], &e[1], &e[2], &e[3]);
    memcpy(p, "GGF1", 4);
    put32(p + 4, (uint32_t)v->level);
    put32(p + 8, (uint32_t)v->cols);
    put32(p + 12, (uint32_t)v->rows);
    put64(p + 16, (uint64_t)v->x);
    put64(p + 24, (uint64_t)v->y);
    put64(p + 32, (uint64_t)sv_world_generation(w));
    put64(p + 40, (uint64_t)sv_sim_population(s, &pop_gen));
    uint64_t rate;
    memcpy(&rate, &s->rate, 8);
    put64(p + 48, rate);
    put32(p + 56, ((s->running || s->steps_left) ? 1u : 0u) |
                      (sv_world_rule(w)->topo == GG_TOPO_TORUS ? 2u : 0u));
    put32(p + 60, (uint32_t)sv_world_states(w));
    for (int i = 0; i < 4; i++)
        put64(p + 64 + 8 * i, (uint64_t)e[i]);
    char rule[100];
    gg_rule_format(sv_world_rule(w), rule, sizeof rule);
    snprintf((char *)p + 96, 112, "%.70s | %.30s", rule, s->backend);
    put64(p + 216, (uint64_t)pop_gen);
    *len = n;
    return 0;
}

/* Under lock: what a frame shows, as one number (any change redraws). */
static uint64_t shown_key(sv_sim *s)
{
    uint64_t k = (uint64_t)sv_world_generation(&s->world);
    k = k * 0x9e3779b97f4a7c15ull + s->edits;
    k = k * 0x9e3779b97f4a7c15ull + (s->running || s->steps_left);
    return k;
}

/* Under lock: frames for the views that want one, drawn again only
 * when what they show changed; the server is woken to send them. */
static void publish(sv_sim *s)
{
    __atomic_store_n(&s->live_gen, sv_world_generation(&s->world),
                     __ATOMIC_RELEASE);
    uint64_t key = shown_key(s);
    bool any = false;
    pthread_mutex_lock(&s->vlock);
    for (int i = 0; i < SV_MAX_VIEWS; i++) {
        sv_view *v = &s->views[i];
        if (!v->used || (!v->want && !v->ready))
            continue; /* (a frame not sent yet is drawn again if stale) */
        if (v->asked == v->drawn_asked && key == v->drawn_key && v->len) {
            v->ready = true; /* nothing changed: the last frame again */
            v->want = false;
            any = true;
            continue;
        }
        sv_view ask = *v;
        pthread_mutex_unlock(&s->vlock);
        size_t len;
        int bad = draw(s, &ask, &len);
        pthread_mutex_lock(&s->vlock);
        if (bad || !v->used || v->owner != ask.owner || v->asked != ask.asked)
            continue; /* gone or moved: drawn again next time */
        unsigned char *f = v->frame;
        size_t cap = v->cap;
        v->frame = s->scratch, v->cap = s->scratch_cap, v->len = len;
        s->scratch = f, s->scratch_cap = cap;
        v->ready = true;
        v->want = false;
        v->drawn_asked = ask.asked;
        v->drawn_key = key;
        any = true;
    }
    pthread_mutex_unlock(&s->vlock);
    if (any && s->notify)
        s->notify(s->notify_ctx);
}

/* Under lock: wait until woken or ms milliseconds pass. */
static void wait_ms(sv_sim *s, double ms)
{
    struct timespec t;
    clock_gettime(CLOCK_REALTIME, &t);
    long ns = (long)(ms * 1e6);
    t.tv_sec += ns / 1000000000L;
    t.tv_nsec += ns % 1000000000L;
    if (t.tv_nsec >= 1000000000L)
        t.tv_sec++, t.tv_nsec -= 1000000000L;
    pthread_cond_timedwait(&s->wake, &s->lock, &t);
}

/* A wait wakes for every view message, so frames go out during a delay
 * or a pause; a wake-up lost to a race costs at most this: */
#define SV_POLL_MS 10.0

/* Sleep ms after a step (drawing frames meanwhile), or less when the run
 * is paused, the speed changes or the thread must end. Under lock. */
static void delay(sv_sim *s, int ms)
{
    double end = now() + ms / 1000.0;
    int speed = s->delay_ms;
    uint64_t epoch = s->rule_epoch;
    for (;;) {
        double left = (end - now()) * 1000.0;
        if (left <= 0 || s->quit || (!s->running && !s->steps_left) ||
            s->delay_ms != speed || s->rule_epoch != epoch)
            return;
        wait_ms(s, left < SV_POLL_MS ? left : SV_POLL_MS);
        publish(s);
    }
}

static void *loop(void *arg)
{
    sv_sim *s = arg;
    gg_backend *b = NULL;
    uint64_t epoch = 0;
    int64_t batch = 1, rate_gens = 0;
    double pass_again = 0; /* when a whole cpu pass is tried again */
    double rate_since = now();
    pthread_mutex_lock(&s->lock);
    epoch = s->rule_epoch - 1; /* open for the first rule */
    while (!s->quit) {
        if (epoch != s->rule_epoch) {
            reopen(s, &b, &epoch);
            publish(s);
            continue;
        }
        if (!b || (!s->running && s->steps_left == 0)) {
            s->rate = 0;
            rate_gens = 0;
            rate_since = now();
            publish(s);
            wait_ms(s, SV_POLL_MS);
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
        if (!s->delay_ms && n == batch && ran == n) {
            /* batches of about SV_FRAME_BATCH (a new generation for
             * every frame of a 30 Hz page), but on the cpu backend at
             * least a pass of its kernel (SV_CPU_PASS generations) while
             * one fits in batch_ms (tried again every 2 s): a call of
             * fewer moves the grid through memory as often (on a 32768^2
             * torus one generation costs about what 8 do, 16 a fifth
             * more each than 32) */
            double cap = s->batch_ms / 1000.0;
            double target = cap < SV_FRAME_BATCH ? cap : SV_FRAME_BATCH;
            if (batch < (1LL << 40) && t < target / 2)
                batch *= 2;
            else if (t > target * 2 && batch > 1)
                batch /= 2;
            if (!strcmp(s->backend, "cpu")) {
                if (n >= SV_CPU_PASS && t > cap * 1.5)
                    batch = n / 2, pass_again = now() + 2;
                else if (batch < SV_CPU_PASS && now() >= pass_again)
                    batch = SV_CPU_PASS;
            }
        }
        rate_gens += ran;
        if (now() - rate_since >= 0.5) {
            s->rate = rate_gens / (now() - rate_since);
            rate_gens = 0;
            rate_since = now();
        }
        publish(s);
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
    pthread_mutex_init(&s->vlock, NULL);
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
    for (int i = 0; i < SV_MAX_VIEWS; i++)
        free(s->views[i].frame);
    free(s->scratch);
}

int64_t sv_sim_population(sv_sim *s, int64_t *gen)
{
    int64_t g = sv_world_generation(&s->world);
    bool running = s->running || s->steps_left;
    if (s->pop_gen < 0 || s->edits != s->pop_edits ||
        (g != s->pop_gen && (!running || now() - s->pop_time >= 1.0))) {
        s->pop = sv_world_population(&s->world);
        s->pop_gen = g;
        s->pop_edits = s->edits;
        s->pop_time = now();
    }
    *gen = s->pop_gen;
    return s->pop;
}

void sv_sim_wake(sv_sim *s)
{
    pthread_cond_signal(&s->wake);
}

int sv_sim_view_new(sv_sim *s, uint64_t *owner)
{
    int slot = -1;
    pthread_mutex_lock(&s->vlock);
    for (int i = 0; i < SV_MAX_VIEWS && slot < 0; i++)
        if (!s->views[i].used) {
            sv_view *v = &s->views[i];
            free(v->frame);
            memset(v, 0, sizeof *v);
            v->used = true;
            v->owner = *owner = ++s->owners;
            slot = i;
        }
    pthread_mutex_unlock(&s->vlock);
    return slot;
}

void sv_sim_view_free(sv_sim *s, int slot)
{
    pthread_mutex_lock(&s->vlock);
    sv_view *v = &s->views[slot];
    free(v->frame);
    memset(v, 0, sizeof *v);
    pthread_mutex_unlock(&s->vlock);
}

void sv_sim_view_ask(sv_sim *s, int slot, int64_t x, int64_t y, int cols,
                     int rows, int level)
{
    pthread_mutex_lock(&s->vlock);
    sv_view *v = &s->views[slot];
    if (v->x != x || v->y != y || v->cols != cols || v->rows != rows ||
        v->level != level || !v->asked) {
        v->x = x, v->y = y, v->cols = cols, v->rows = rows;
        v->level = level;
        v->asked++;
    }
    v->want = true;
    pthread_mutex_unlock(&s->vlock);
    sv_sim_wake(s);
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

/* golgen serve: the simulation thread (serve_sim.h). */
#include "serve_sim.h"

#include <errno.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "cli_args.h"
#include "search_hook.h"

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

static void rule_text(const golgen_world *w, char *buf, size_t size)
{
    golgen_world_rule_name(w, buf, size);
}

/* A stepper for rule on the backend asked for (include/golgen/world.h),
 * as golgen run opens one: a new rule's network search said on stderr
 * (cli/search_hook.h), and auto's choice for a two-state or Generations
 * rule ("golgen: backend auto -> cpu (...)"). */
static int open_stepper(const sv_sim *s, const golgen_world_rule *rule,
                        golgen_world_stepper **st, char *err, size_t len)
{
    golgen_world_stepper_opts o = {.backend = s->backend_name,
                                   .on_search = gg_search_note_event};
    int bad = golgen_world_stepper_open(rule, &o, st, err, len);
    gg_search_note_finish(); /* the networks searched for are built */
    if (!bad && golgen_world_stepper_auto_line(*st)[0])
        fprintf(stderr, "golgen: %s\n", golgen_world_stepper_auto_line(*st));
    return bad;
}

/* Under lock, returned under lock: a stepper for the world's rule (the
 * lock is let go while it opens: compiling a kernel takes seconds). *b
 * NULL: none open. */
static int reopen(sv_sim *s, golgen_world_stepper **b, uint64_t *epoch)
{
    golgen_world_rule *rule;
    int bad = golgen_world_get_rule(s->world, &rule);
    uint64_t want = s->rule_epoch;
    pthread_mutex_unlock(&s->lock);
    if (*b)
        golgen_world_stepper_close(*b);
    *b = NULL;
    char err[512] = "out of memory";
    golgen_world_stepper *st = NULL;
    bad = bad || open_stepper(s, rule, &st, err, sizeof err);
    golgen_world_rule_free(rule);
    pthread_mutex_lock(&s->lock);
    if (bad) {
        note(s, err);
        snprintf(s->backend, sizeof s->backend, "none");
        *epoch = want; /* not again until the rule changes */
        return -1;
    }
    *b = st;
    snprintf(s->backend, sizeof s->backend, "%s",
             golgen_world_stepper_name(st));
    s->edits++; /* the name shown changed */
    *epoch = want;
    return 0;
}

static double now(void)
{
    return gg_cli_now();
}

/* n generations of the world on b, under lock (the world's stepper:
 * include/golgen/world.h). */
static int advance(sv_sim *s, golgen_world_stepper *b, int64_t n, char *err,
                   size_t len)
{
    return golgen_world_step(b, s->world, n, NULL, err, len);
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

/* Under lock: a frame's header for v's window at generation gen,
 * little-endian: "GGF1", level, cols, rows, x, y, generation, population,
 * rate (double), flags (1 running, 2 torus, 4 taken inside a batch:
 * serve_watch.h, 8 single cells are shades: a 3D projection), states, the grid's x, y, width, height, then "rule |
 * backend" (112 bytes, NUL padded), the generation reached when the
 * frame was sent (filled in by the server), the generation the population
 * was counted at; then come cols x rows bytes (serve_world.h). */
static void header(sv_sim *s, const sv_view *v, int64_t gen, bool inside,
                   unsigned char *p)
{
    memset(p, 0, SV_FRAME_HEADER);
    const golgen_world *w = s->world;
    int64_t e[4], pop_gen;
    golgen_world_extent(w, &e[0], &e[1], &e[2], &e[3]);
    memcpy(p, "GGF1", 4);
    put32(p + 4, (uint32_t)v->level);
    put32(p + 8, (uint32_t)v->cols);
    put32(p + 12, (uint32_t)v->rows);
    put64(p + 16, (uint64_t)v->x);
    put64(p + 24, (uint64_t)v->y);
    put64(p + 32, (uint64_t)gen);
    put64(p + 40, (uint64_t)sv_sim_population(s, &pop_gen));
    uint64_t rate;
    memcpy(&rate, &s->rate, 8);
    put64(p + 48, rate);
    int64_t depth, z = golgen_world_z(w, &depth);
    put32(p + 56,
          ((s->running || s->steps_left) ? 1u : 0u) |
              (golgen_world_topology(w) == GOLGEN_TOPO_TORUS ? 2u : 0u) |
              (inside ? 4u : 0u) | (z == GOLGEN_WORLD_Z_SUM ? 8u : 0u));
    put32(p + 60, (uint32_t)golgen_world_states(w));
    for (int i = 0; i < 4; i++)
        put64(p + 64 + 8 * i, (uint64_t)e[i]);
    char rule[100], slice[40] = "";
    golgen_world_rule_name(w, rule, sizeof rule);
    if (depth && z == GOLGEN_WORLD_Z_SUM) /* the projection ("z=sum/32") */
        snprintf(slice, sizeof slice, " z=sum/%lld", (long long)depth);
    else if (depth) /* a 3D grid: the slice shown ("z=16/32") */
        snprintf(slice, sizeof slice, " z=%lld/%lld", (long long)z,
                 (long long)depth);
    snprintf((char *)p + 96, 112, "%.60s | %.24s%s", rule, s->backend,
             slice);
    put64(p + 216, (uint64_t)pop_gen);
}

/* Under lock: a frame of v's window into scratch (header, then blocks). */
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
    /* running, a window that would read more than SV_EXACT_CELLS cells
     * reads a sample of each block's rows (golgen_world_render); paused,
     * every frame is exact */
    int64_t sample = s->running || s->steps_left
                         ? sv_watch_sample(v->cols, v->rows, v->level)
                         : 0;
    golgen_world_render(s->world, v->x, v->y, v->cols, v->rows, v->level,
                        sample, p + SV_FRAME_HEADER);
    header(s, v, golgen_world_generation(s->world), false, p);
    *len = n;
    return 0;
}

/* Under lock: what a frame shows, as one number (any change redraws). */
static uint64_t shown_key(sv_sim *s)
{
    uint64_t k = (uint64_t)golgen_world_generation(s->world);
    k = k * 0x9e3779b97f4a7c15ull + s->edits;
    k = k * 0x9e3779b97f4a7c15ull + (s->running || s->steps_left);
    return k;
}

/* Under lock: the views a batch of n generations on b is watched for
 * (the next set of s->watch; serve_watch.h), every how many generations;
 * false: none (a delay, a backend or universe that cannot be watched, no
 * page asking, or one frame a batch at this rate: drawn after it). */
static bool plan_watch(sv_sim *s, golgen_world_stepper *st, int64_t n)
{
    /* a bounded two-state world on a backend that watches (cpu) */
    if (!golgen_world_stepper_watches(st, s->world))
        return false;
    int64_t most = golgen_world_stepper_max_batch(st);
    if (s->delay_ms || n < 2 || (most && n > most))
        return false;
    /* a frame every `every` generations: at least fps frames a second at
     * the last batch's rate (a page takes at most its display's rate: more
     * would be counted for nothing) */
    int fps = s->fps > 0 ? s->fps : SV_WATCH_FPS;
    int64_t every = s->call_rate > 0 ? (int64_t)(s->call_rate / fps) : n / 8;
    if (every < 1)
        every = 1;
    if (n / every > SV_WATCH_FRAMES)
        every = (n + SV_WATCH_FRAMES - 1) / SV_WATCH_FRAMES;
    if (n / every < 2)
        return false;
    int cur = !s->watch.last;
    sv_watch_set *ws = &s->watch.set[cur];
    double t = now();
    pthread_mutex_lock(&s->vlock);
    ws->id++; /* frames still queued from this set are gone */
    ws->n = 0;
    for (int i = 0; i < SV_MAX_VIEWS; i++) {
        sv_view *v = &s->views[i];
        sv_watch_view *wv = &ws->v[ws->n];
        if (!v->used || !v->asked || t - v->last_ask > 1.0 ||
            !sv_watch_view_init(wv, s->world, v->x, v->y, v->cols, v->rows,
                                v->level, true))
            continue;
        wv->slot = i;
        wv->owner = v->owner;
        wv->asked = v->asked;
        ws->n++;
    }
    pthread_mutex_unlock(&s->vlock);
    /* maps over SV_WATCH_BYTES: fewer frames */
    while (ws->n && sv_watch_begin(ws, (int)(n / every), every))
        if (n / (every *= 2) < 2)
            ws->n = 0;
    if (!ws->n)
        return false;
    s->watch.last = cur;
    return true;
}

/* Under lock: n generations (n <= the backend's max_batch) of the bounded
 * two-state world, watched (plan_watch). */
static int advance_watched(sv_sim *s, golgen_world_stepper *st, int64_t n,
                           char *err, size_t len)
{
    int64_t x, y, width, height;
    golgen_world_extent(s->world, &x, &y, &width, &height);
    golgen_row_watch w =
        sv_watch_kernel(&s->watch.set[s->watch.last], height);
    return golgen_world_step_watched(st, s->world, n, &w, err, len);
}

/* Under lock, after a watched batch of n generations from generation g0
 * that ended at `end` and took `took` seconds: its frames go to the views
 * still asking for the same window, due one after another as far apart
 * as their generations were made (the next batch's frames come then). */
static void queue_frames(sv_sim *s, int64_t g0, int64_t n, double end,
                         double took)
{
    sv_watch_set *ws = &s->watch.set[s->watch.last];
    uint64_t key = shown_key(s);
    int64_t pop_gen;
    sv_sim_population(s, &pop_gen); /* counted (if due) outside vlock */
    bool any = false;
    pthread_mutex_lock(&s->vlock);
    for (int k = 0; k < ws->n; k++) {
        const sv_watch_view *wv = &ws->v[k];
        sv_view *v = &s->views[wv->slot];
        if (!v->used || v->owner != wv->owner || v->asked != wv->asked)
            continue; /* gone or moved: drawn after the batch */
        sv_view at = {.x = wv->x, .y = wv->y, .cols = wv->cols,
                      .rows = wv->rows, .level = wv->level};
        for (int f = 0; f < ws->frames; f++) {
            sv_queued *q = &v->queue[f];
            header(s, &at, g0 + (f + 1) * ws->every, true, q->head);
            q->due = end + (double)(f * ws->every) * took / (double)n;
            q->set = s->watch.last, q->k = k, q->f = f;
            q->id = ws->id;
        }
        v->queued = ws->frames;
        v->next = 0;
        v->queued_key = key;
        v->ready = false; /* (drawn before the batch) */
        any = true;
    }
    pthread_mutex_unlock(&s->vlock);
    if (any && s->notify)
        s->notify(s->notify_ctx);
}

/* Under lock: frames for the views that want one, drawn again only
 * when what they show changed; the server is woken to send them. */
static void publish(sv_sim *s)
{
    __atomic_store_n(&s->live_gen, golgen_world_generation(s->world),
                     __ATOMIC_RELEASE);
    uint64_t key = shown_key(s);
    bool any = false;
    pthread_mutex_lock(&s->vlock);
    for (int i = 0; i < SV_MAX_VIEWS; i++) {
        sv_view *v = &s->views[i];
        if (v->queued && v->queued_key != key)
            v->queued = v->next = 0; /* frames of an older batch */
        if (!v->used || (!v->want && !v->ready))
            continue; /* (a frame not sent yet is drawn again if stale) */
        if (v->queued)
            continue; /* frames of the last batch show up to now */
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
        v->queued = v->next = 0; /* this one is newer */
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
    golgen_world_stepper *b = NULL;
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
        int64_t before = golgen_world_generation(s->world);
        bool watched = plan_watch(s, b, n);
        double t0 = now();
        char err[512];
        if (watched ? advance_watched(s, b, n, err, sizeof err)
                    : advance(s, b, n, err, sizeof err)) {
            char msg[600];
            snprintf(msg, sizeof msg, "the run stopped: %s", err);
            note(s, msg);
            continue;
        }
        double t = now() - t0;
        int64_t ran = golgen_world_generation(s->world) - before;
        if (!s->delay_ms && ran == n && t > 0)
            s->call_rate = ran / t;
        if (s->steps_left) {
            s->steps_left -= ran < s->steps_left ? ran : s->steps_left;
            if (!s->steps_left)
                s->running = false;
        }
        if (!s->delay_ms && n == batch && ran == n) {
            /* batches of about SV_FRAME_BATCH (a new generation for
             * every frame of a 30 Hz page), but on the cpu backend at
             * least a pass of its kernel (golgen_world_stepper_pass) while
             * one fits in batch_ms (tried again every 2 s): a call of
             * fewer moves the grid through memory as often (on a 32768^2
             * torus one generation costs about what 8 do, 16 a fifth
             * more each than 32). A watched batch (frames from inside
             * it) runs two passes at least: each call of the kernel costs
             * about 5% of a pass more than one of many passes does. */
            double cap = s->batch_ms / 1000.0;
            double target = cap < SV_FRAME_BATCH ? cap : SV_FRAME_BATCH;
            int64_t pass = golgen_world_stepper_pass(b);
            int64_t floor = watched ? 2 * pass : pass;
            /* a rule table's tree: its generations are what a batch
             * sizes, the cells moved in and out cost the same whatever
             * it runs (a 3M-cell loop colony: 75 ms a batch; sized by
             * the whole, the batch fell to 1 generation, 13 a second) */
            double tg = t - golgen_world_stepper_overhead(b);
            if (batch < (1LL << 40) && tg < target / 2 && t < cap)
                batch *= 2;
            else if (tg > target * 2 && batch > 1)
                batch /= 2;
            if (pass) {
                if (n >= pass && t > cap * 1.5)
                    batch = n / 2, pass_again = now() + 2;
                else if (batch < floor && now() >= pass_again)
                    batch = floor;
            }
        }
        rate_gens += ran;
        if (now() - rate_since >= 0.5) {
            s->rate = rate_gens / (now() - rate_since);
            rate_gens = 0;
            rate_since = now();
        }
        if (watched)
            queue_frames(s, before, ran, now(), t);
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
        golgen_world_stepper_close(b);
    return NULL;
}

int sv_sim_start(sv_sim *s, golgen_world *world, const char *backend,
                 char *err, size_t errlen)
{
    s->world = world;
    s->backend_name = backend;
    s->rule_epoch = 1;
    s->pop_gen = -1;
    snprintf(s->backend, sizeof s->backend, "opening");
    pthread_mutex_init(&s->lock, NULL);
    pthread_mutex_init(&s->vlock, NULL);
    pthread_cond_init(&s->wake, NULL);
    int e = pthread_create(&s->thread, NULL, loop, s);
    if (e) {
        snprintf(err, errlen, "cannot start the simulation thread: %s",
                 strerror(e));
        return -1;
    }
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
    golgen_world_free(s->world);
    s->world = NULL;
    for (int i = 0; i < SV_MAX_VIEWS; i++)
        free(s->views[i].frame);
    free(s->scratch);
    sv_watch_free(&s->watch);
}

int64_t sv_sim_population(sv_sim *s, int64_t *gen)
{
    int64_t g = golgen_world_generation(s->world);
    bool running = s->running || s->steps_left;
    if (s->pop_gen < 0 || s->edits != s->pop_edits ||
        (g != s->pop_gen && (!running || now() - s->pop_time >= 1.0))) {
        s->pop = golgen_world_population(s->world);
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

/* A view's slot emptied, its buffers freed (a closed page keeps
 * nothing). */
static void view_clear(sv_view *v)
{
    free(v->frame);
    memset(v, 0, sizeof *v);
}

int sv_sim_view_new(sv_sim *s, uint64_t *owner)
{
    int slot = -1;
    pthread_mutex_lock(&s->vlock);
    for (int i = 0; i < SV_MAX_VIEWS && slot < 0; i++)
        if (!s->views[i].used) {
            sv_view *v = &s->views[i];
            view_clear(v);
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
    view_clear(&s->views[slot]);
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
    v->last_ask = now();
    pthread_mutex_unlock(&s->vlock);
    sv_sim_wake(s);
}

/* *buf holds at least pre + n bytes (false: out of memory). */
static bool room(unsigned char **buf, size_t *cap, size_t n)
{
    if (*cap >= n)
        return true;
    free(*buf);
    *buf = malloc(n);
    *cap = *buf ? n : 0;
    return *buf != NULL;
}

size_t sv_sim_view_take(sv_sim *s, int slot, unsigned char **buf,
                        size_t *cap, double *wait)
{
    sv_view *v = &s->views[slot];
    *wait = 0;
    if (v->ready && v->frame) {
        v->ready = false;
        if (!room(buf, cap, s->pre + v->len))
            return 0;
        memcpy(*buf + s->pre, v->frame + s->pre, v->len);
        return v->len;
    }
    if (!v->want || v->next >= v->queued)
        return 0;
    /* the newest frame due: a page slower than the frames skips some */
    double t = now();
    int pick = -1;
    for (int i = v->next; i < v->queued && v->queue[i].due <= t; i++)
        pick = i;
    if (pick < 0) {
        *wait = v->queue[v->next].due - t;
        return 0;
    }
    const sv_queued *q = &v->queue[pick];
    const sv_watch_set *ws = &s->watch.set[q->set];
    if (ws->id != q->id) { /* its maps are being written again */
        v->queued = v->next = 0;
        return 0;
    }
    const sv_watch_view *wv = &ws->v[q->k];
    size_t n = SV_FRAME_HEADER + (size_t)wv->cols * (size_t)wv->rows;
    if (!room(buf, cap, s->pre + n))
        return 0;
    memcpy(*buf + s->pre, q->head, SV_FRAME_HEADER);
    sv_watch_render(ws, q->k, q->f, *buf + s->pre + SV_FRAME_HEADER);
    v->next = pick + 1;
    v->want = false;
    return n;
}

void sv_sim_replace(sv_sim *s, golgen_world *world)
{
    char a[256], b[256];
    rule_text(s->world, a, sizeof a);
    rule_text(world, b, sizeof b);
    golgen_world_free(s->world);
    s->world = world;
    if (strcmp(a, b))
        s->rule_epoch++;
    s->edits++;
    s->running = false;
    s->steps_left = 0;
    pthread_cond_signal(&s->wake);
}

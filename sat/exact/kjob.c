#include "kjob.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cegar.h"
#include "proof.h"
#include "shape_prior.h"
#include "symm.h"

#define MAX_THREADS 64
#define ND_CAP 4096 /* non-decomposable pairs kept (fewer is still sound) */

typedef struct job {
    const gg_kjob_in *in;
    gg_shape *shapes;      /* NULL: one free-topology problem */
    int n_problems;
    int8_t *status;        /* per problem: gg_synth_status, -1 untried */
    /* With a team (sat/exact/team.h): the problems claimed from rank 0's
     * counter, queued for the workers by the supervisor (under mu) */
    int *queue, q_head, q_tail;
    int *claimed, n_claimed; /* every one this process took */
    bool exhausted;        /* no more will come */
    int unclaimed;         /* problems from here on were handed to none */
    pthread_cond_t cv;     /* the queue changed, or the job stops */
    int stride;            /* a sample: every stride-th shape only */
    int first;             /* a sample: first shape of the range */
    atomic_int next, done, stop, undecided;
    atomic_uint_fast64_t work; /* conflicts + GG_KJOB_PROBLEM_WORK each */
    pthread_mutex_t mu;
    gg_sat *running[MAX_THREADS];
    atomic_int found_here; /* found, for the supervisor's team poll */
    bool found;
    gg_net net;
    uint64_t conflicts;
    unsigned (*nd)[2];     /* f's maximal non-decomposable input pairs */
    int n_nd;
    unsigned (*nd4)[2];    /* the same for two-exit cones (4 colours) */
    int n_nd4;
    int failed;            /* an encoder error */
    gg_err err;
    /* The progress estimate's usual shape costs (sat/exact/shape_prior.h), or
     * NULL; the cost of the job's problems in all and of those done */
    const gg_shape_prior *prior;
    uint64_t prior_total;
    atomic_uint_fast64_t prior_done;
} job;

typedef struct worker {
    job *j;
    int id;
} worker;

double gg_kjob_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

static void interrupt_all(job *j)
{
    pthread_mutex_lock(&j->mu);
    for (int t = 0; t < MAX_THREADS; t++)
        if (j->running[t])
            gg_sat_interrupt(j->running[t]);
    pthread_mutex_unlock(&j->mu);
}

/* Records the outcome of one problem under the lock. */
static void record(job *j, int id, gg_sat *s, gg_synth_status st,
                   const gg_net *net, int rc, const gg_err *err)
{
    pthread_mutex_lock(&j->mu);
    j->running[id] = NULL;
    j->conflicts += gg_sat_conflicts(s);
    if (rc && !j->failed)
        j->failed = 1, j->err = *err;
    if (st == GG_SYNTH_SAT && !j->found)
        j->found = true, j->net = *net;
    pthread_mutex_unlock(&j->mu);
    if (st == GG_SYNTH_SAT)
        atomic_store(&j->found_here, 1);
    if (st == GG_SYNTH_UNKNOWN)
        atomic_store(&j->undecided, 1);
    if (st == GG_SYNTH_SAT || rc)
        atomic_store(&j->stop, 1);
}

/* The shape a problem number stands for. */
static int shape_of(const job *j, int p)
{
    if (j->in->subset)
        return j->in->subset[p];
    return j->first + p * j->stride;
}

static double problem_deadline(const gg_kjob_in *in)
{
    double d = in->deadline;
    if (in->problem_limit > 0) {
        double mine = gg_kjob_now() + in->problem_limit;
        if (d <= 0 || mine < d)
            d = mine;
    }
    return d;
}

/* The solver of one problem (see gg_kjob_in.solver). */
static gg_sat *new_solver(const job *j)
{
    const gg_kjob_in *in = j->in;
    bool cadical = j->shapes && in->solver != GG_SAT_CMS &&
                   !(in->solver == GG_SAT_AUTO && in->work_limit) &&
                   gg_sat_kind_available(GG_SAT_CADICAL);
    return cadical ? gg_sat_new_kind(GG_SAT_CADICAL) : gg_sat_new();
}

static void solve_one(job *j, int id, int p)
{
    const gg_kjob_in *in = j->in;
    gg_sat *s = new_solver(j);
    gg_err err = {{0}};
    gg_net net;
    gg_enc_spec spec = {.f = in->f, .lib = in->lib, .k = in->k,
                        .shape = j->shapes ? &j->shapes[shape_of(j, p)] : NULL,
                        .class_of = in->class_of, .lim = in->lim,
                        .nd = j->nd, .n_nd = j->n_nd,
                        .nd4 = j->nd4, .n_nd4 = j->n_nd4,
                        .diff = !in->plain_cnf,
                        .automorphisms = !in->plain_cnf};
    pthread_mutex_lock(&j->mu);
    j->running[id] = s;
    pthread_mutex_unlock(&j->mu);
    gg_synth_status st = GG_SYNTH_UNKNOWN;
    int rc = -1;
    double t0 = gg_kjob_now();
    if (s && !j->shapes) /* one problem: the solver gets every thread */
        gg_sat_set_threads(s, in->threads);
    uint64_t spent = atomic_load(&j->work);
    if (s && in->work_limit)
        gg_sat_set_conflict_budget(s, in->work_limit > spent
                                          ? in->work_limit - spent : 1);
    gg_enc *e = s ? gg_enc_new(&spec, s, &err) : NULL;
    if (e && !atomic_load(&j->stop)) {
        rc = 0;
        st = gg_cegar_solve(e, s, in->f, in->init_rows, problem_deadline(in),
                            &net);
    } else if (e) {
        rc = 0; /* stopped before it started: leaves the k undecided */
    }
    if (in->sample.trace)
        fprintf(stderr, "    shape %d: %s %llu conflicts %.2f s\n",
                shape_of(j, p),
                st == GG_SYNTH_SAT ? "SAT" : st == GG_SYNTH_UNSAT ? "UNSAT"
                                                                   : "?",
                (unsigned long long)gg_sat_conflicts(s), gg_kjob_now() - t0);
    j->status[p] = (int8_t)st;
    uint64_t cost = gg_sat_conflicts(s) + GG_KJOB_PROBLEM_WORK;
    uint64_t work = atomic_fetch_add(&j->work, cost) + cost;
    if (in->work_limit && work >= in->work_limit) {
        atomic_store(&j->undecided, 1); /* the rest untried */
        atomic_store(&j->stop, 1);
    }
    record(j, id, s, st, &net, rc, &err);
    gg_enc_free(e);
    gg_sat_free(s);
}

/* The next problem to solve, or -1: in order, or from the team's queue. */
static int next_problem(job *j)
{
    if (!j->in->team) {
        int p = atomic_fetch_add(&j->next, 1);
        return p < j->n_problems ? p : -1;
    }
    int p = -1;
    pthread_mutex_lock(&j->mu);
    while (j->q_head == j->q_tail && !j->exhausted && !atomic_load(&j->stop))
        pthread_cond_wait(&j->cv, &j->mu);
    if (j->q_head < j->q_tail && !atomic_load(&j->stop))
        p = j->queue[j->q_head++];
    pthread_mutex_unlock(&j->mu);
    return p;
}

static void *work(void *arg)
{
    worker *w = arg;
    job *j = w->j;
    for (;;) {
        if (atomic_load(&j->stop))
            break;
        int p = next_problem(j);
        if (p < 0)
            break;
        solve_one(j, w->id, p);
        if (j->prior)
            atomic_fetch_add(&j->prior_done, j->prior->cost[shape_of(j, p)]);
        atomic_fetch_add(&j->done, 1);
    }
    return NULL;
}

/* The share of the job's work done, by the shapes' usual costs, or -1
 * without them. A team's is what its members last reported finished
 * (rank 0 prints the progress lines): the shapes handed out would count
 * the ones in flight, and those are the hard ones (64 ranks, 50 s into a
 * 140 s k=6: the shapes handed out were 75% of the usual work, those
 * finished about 36%). */
static double work_share(job *j)
{
    if (!j->prior || !j->prior_total)
        return -1;
    const gg_team *t = j->in->team;
    uint64_t done = t ? t->done_work(t->ctx) : atomic_load(&j->prior_done);
    return (double)done / (double)j->prior_total;
}

/* "k=6: 40 of 1781 shapes done in 3.0 min; by their usual costs about
 * 21 min more, past the time limit (7.0 min left)". Long searches are
 * hours, so say so, and say when the limit will end the k unproven. The
 * shapes differ a lot and the hard ones come first, so the time left is
 * the elapsed time scaled by the share of the usual work still to do
 * (sat/exact/shape_prior.h) where that is known, else by the shapes left. */
static void report_shapes(job *j, int done, double seconds, double now)
{
    const gg_kjob_in *in = j->in;
    int total = j->n_problems;
    fprintf(stderr, "  k=%d: %d of %d shapes%s in ", in->k, done, total,
            in->team ? " handed out to the ranks"
                     : in->subset ? " left done" : " done");
    gg_kjob_print_seconds(stderr, seconds);
    double share = work_share(j);
    if (done > 0 && done < total) {
        double more = share > 0 ? seconds * (1 - share) / share
                                : seconds * (total - done) / done;
        fprintf(stderr, share > 0 ? "; by their usual costs about "
                                  : "; at this rate about ");
        gg_kjob_print_seconds(stderr, more);
        fprintf(stderr, " more");
        if (in->deadline > 0) {
            double left = in->deadline - now;
            fprintf(stderr, more > left ? ", past the time limit (" :
                    ", within the time limit (");
            gg_kjob_print_seconds(stderr, left > 0 ? left : 0);
            fprintf(stderr, " left)");
        }
    }
    fputc('\n', stderr);
}

void gg_kjob_print_seconds(FILE *out, double s)
{
    if (s >= 3600)
        fprintf(out, "%.1f h", s / 3600);
    else if (s >= 60)
        fprintf(out, "%.1f min", s / 60);
    else
        fprintf(out, "%.0f s", s);
}

/* Problems from the team's counter for the queue, which the supervisor
 * keeps a few ahead of the workers (rank 0's call also answers the other
 * ranks' claims). */
static void claim_more(job *j, int threads)
{
    const gg_team *t = j->in->team;
    int got[GG_TEAM_CLAIM_MAX];
    pthread_mutex_lock(&j->mu);
    int want = j->exhausted || atomic_load(&j->stop)
                   ? 0 : threads + 1 - (j->q_tail - j->q_head);
    pthread_mutex_unlock(&j->mu);
    if (want > GG_TEAM_CLAIM_MAX)
        want = GG_TEAM_CLAIM_MAX;
    int n = t->claim(t->ctx, j->n_problems, want > 0 ? want : 0,
                     atomic_load(&j->prior_done), got);
    pthread_mutex_lock(&j->mu);
    if (n < 0)
        j->exhausted = true;
    for (int i = 0; i < n; i++) {
        j->queue[j->q_tail++] = got[i];
        j->claimed[j->n_claimed++] = got[i];
    }
    pthread_cond_broadcast(&j->cv);
    pthread_mutex_unlock(&j->mu);
}

/* Whether this process has work left: its problems, or with a team the
 * ones it claimed and those still to come. */
static bool working(job *j)
{
    if (atomic_load(&j->stop))
        return false;
    if (!j->in->team)
        return atomic_load(&j->done) < j->n_problems;
    pthread_mutex_lock(&j->mu);
    bool more = !j->exhausted || atomic_load(&j->done) < j->n_claimed;
    pthread_mutex_unlock(&j->mu);
    return more;
}

/* The calling thread watches the clock and the cancel flag; solvers only
 * notice an interrupt, so it is the one that sends it. With a team it
 * also claims problems and tells and hears of networks found. */
static void supervise(job *j, int threads)
{
    const gg_kjob_in *in = j->in;
    const gg_team *t = in->team;
    double t0 = gg_kjob_now(), last = t0;
    long nap = 100000; /* small problems end in microseconds: start short */
    /* a team's claims wait for this loop: it naps at most 2 ms */
    long max_nap = t ? 2000000 : 20000000;
    if (t)
        claim_more(j, threads);
    while (working(j)) {
        nanosleep(&(struct timespec){0, nap}, NULL);
        nap = nap < max_nap ? 2 * nap : nap;
        double now = gg_kjob_now();
        bool cancel = in->cancel && *in->cancel;
        if (t && t->poll(t->ctx, atomic_load(&j->found_here))) {
            atomic_store(&j->stop, 1); /* the merge makes the k SAT */
            interrupt_all(j);
        }
        if (cancel || (in->deadline > 0 && now > in->deadline)) {
            atomic_store(&j->undecided, 1);
            atomic_store(&j->stop, 1);
            interrupt_all(j);
        }
        if (t)
            claim_more(j, threads);
        /* every 10 s for the first minute, then every minute */
        if (in->progress && now - last > (now - t0 < 60 ? 10 : 60)) {
            if (j->shapes)
                report_shapes(j, t ? t->handed(t->ctx) : atomic_load(&j->done),
                              now - t0, now);
            else
                fprintf(stderr, "  k=%d: one free-topology CNF, %.0f s so "
                        "far\n", in->k, now - t0);
            last = now;
        }
    }
    if (t) /* a network found here reaches the others before the merge
              waits for them */
        t->poll(t->ctx, atomic_load(&j->found_here));
    interrupt_all(j);
    pthread_mutex_lock(&j->mu); /* workers waiting for the queue: done */
    j->exhausted = true;
    pthread_cond_broadcast(&j->cv);
    pthread_mutex_unlock(&j->mu);
}

static int run_workers(job *j, gg_err *err)
{
    int n = j->in->threads < MAX_THREADS ? j->in->threads : MAX_THREADS;
    pthread_t tid[MAX_THREADS];
    worker w[MAX_THREADS];
    int started = 0;
    for (; started < n; started++) {
        w[started] = (worker){j, started};
        if (pthread_create(&tid[started], NULL, work, &w[started]))
            break;
    }
    if (!started)
        return gg_fail(err, "cannot start solver threads");
    supervise(j, n);
    for (int t = 0; t < started; t++)
        pthread_join(tid[t], NULL);
    return 0;
}

/* Shapes not decided: out of time, or never tried because of a stop.
 * With a team: those this process claimed, and on rank 0 those never
 * handed out. */
static int list_undecided(const job *j, int **out, int *count, gg_err *err)
{
    *count = 0;
    *out = gg_alloc((size_t)j->n_problems, sizeof **out, err, "shape list");
    if (!*out)
        return -1;
    int n = j->in->team ? j->n_claimed : j->n_problems;
    for (int i = 0; i < n; i++) {
        int p = j->in->team ? j->claimed[i] : i;
        if (j->status[p] != GG_SYNTH_UNSAT && j->status[p] != GG_SYNTH_SAT)
            (*out)[(*count)++] = j->shapes ? shape_of(j, p) : 0;
    }
    for (int p = j->unclaimed; j->in->team && p < j->n_problems; p++)
        (*out)[(*count)++] = j->shapes ? shape_of(j, p) : 0;
    return 0;
}

/* The usual costs of the shapes, when they were measured for this list.
 * Every member of a team looks them up (each reports its finished share
 * with its claims), whether or not it prints progress. */
static void set_prior(job *j, const gg_synth_k *stat)
{
    if ((!j->in->progress && !j->in->team) || j->n_problems <= 0)
        return;
    j->prior = gg_shape_prior_find(j->in->lib, j->in->k, stat->shapes_hash,
                                   stat->shapes_total);
    for (int p = 0; j->prior && p < j->n_problems; p++)
        j->prior_total += j->prior->cost[shape_of(j, p)];
}

/* Profiling aid: a fixed sample of the shapes, or one range of them. */
static void sample_shapes(job *j, const gg_synth_sample *s)
{
    j->stride = s->stride > 1 ? s->stride : 1;
    if (j->n_problems > 0)
        j->n_problems = (j->n_problems + j->stride - 1) / j->stride;
    if (s->range && j->n_problems > 0) {
        int b = s->last < j->n_problems ? s->last : j->n_problems - 1;
        j->first = s->first < 0 ? 0 : s->first > b ? b : s->first;
        j->n_problems = b - j->first + 1;
        j->stride = 1;
    }
    if (j->stride > 1 || s->range)
        atomic_store(&j->undecided, 1); /* a sample proves nothing */
}

int gg_kjob_run(const gg_kjob_in *in, gg_net *net, gg_synth_k *stat,
                int **undecided, int *n_undecided, gg_err *err)
{
    double t0 = gg_kjob_now();
    job *j = gg_alloc(1, sizeof *j, err, "search job");
    if (!j)
        return -1;
    j->in = in;
    j->n_problems = 1;
    pthread_mutex_init(&j->mu, NULL);
    pthread_cond_init(&j->cv, NULL);
    memset(stat, 0, sizeof *stat);
    stat->k = in->k;
    stat->status = GG_SYNTH_UNKNOWN;
    if (in->use_shapes) {
        int arity = in->lib == GG_LIB_LUT3 ? 3 : 2;
        j->n_problems = gg_shape_enum(in->k, arity, in->min_pi_slots,
                                      &j->shapes, err);
        stat->shapes_total = j->n_problems;
        if (j->n_problems > 0)
            stat->shapes_hash = gg_proof_shapes_hash(j->shapes,
                                                     j->n_problems);
        sample_shapes(j, &in->sample);
        if (in->subset)
            j->n_problems = in->n_subset;
        set_prior(j, stat);
    }
    if (in->use_shapes && j->n_problems > 0) {
        j->nd = gg_alloc(ND_CAP, sizeof *j->nd, err, "decompositions");
        if (!j->nd)
            j->n_problems = -1;
        else
            j->n_nd = gg_symm_nondecomp(in->f, j->nd, ND_CAP);
        j->nd4 = gg_alloc(ND_CAP, sizeof *j->nd4, err, "decompositions");
        if (!j->nd4)
            j->n_problems = -1;
        else
            j->n_nd4 = gg_symm_nondecomp_k(in->f, 4, j->nd4, ND_CAP);
        if (in->sample.trace)
            fprintf(stderr, "  non-decomposable pairs: %d (one exit), %d "
                    "(two exits)\n", j->n_nd, j->n_nd4);
    }
    int rc = -1;
    if (j->n_problems >= 0)
        j->status = gg_alloc((size_t)j->n_problems + 1, 1, err, "statuses");
    if (j->status)
        memset(j->status, -1, (size_t)j->n_problems + 1);
    if (j->status && in->team) {
        size_t n = (size_t)j->n_problems + GG_TEAM_CLAIM_MAX + 1;
        j->queue = gg_alloc(n, sizeof *j->queue, err, "shape queue");
        j->claimed = gg_alloc(n, sizeof *j->claimed, err, "shape queue");
    }
    if (j->status && (!in->team || (j->queue && j->claimed)) &&
        run_workers(j, err) == 0 && !j->failed)
        rc = 0;
    else if (j->failed)
        *err = j->err;
    if (in->team) { /* even after a failure: the other ranks wait for it */
        int late[GG_TEAM_CLAIM_MAX], n_late = 0;
        in->team->release(in->team->ctx, late, &n_late, &j->unclaimed);
        for (int i = 0; i < n_late && j->claimed; i++)
            j->claimed[j->n_claimed++] = late[i]; /* claimed, never tried */
    }
    gg_team_outcome o = {.found = j->found, .net = j->net,
                         .undecided = atomic_load(&j->undecided),
                         .conflicts = j->conflicts,
                         .work = atomic_load(&j->work),
                         .done = atomic_load(&j->done), .failed = rc != 0};
    if (rc == 0 && (undecided || in->team) &&
        list_undecided(j, &o.open, &o.n_open, err))
        rc = -1, o.failed = true;
    /* every member merges, a failed one too: the others wait for it */
    if (in->team && in->team->merge(in->team->ctx, &o, err))
        rc = -1;
    if (rc == 0) {
        stat->status = o.found ? GG_SYNTH_SAT
                       : o.undecided ? GG_SYNTH_UNKNOWN : GG_SYNTH_UNSAT;
        if (o.found)
            *net = o.net;
    }
    if (rc == 0 && undecided) {
        *undecided = o.open;
        *n_undecided = o.n_open;
    } else {
        free(o.open);
    }
    stat->shapes = o.done;
    stat->conflicts = o.conflicts;
    stat->work = o.work;
    stat->seconds = gg_kjob_now() - t0;
    pthread_mutex_destroy(&j->mu);
    pthread_cond_destroy(&j->cv);
    free(j->queue);
    free(j->claimed);
    free(j->shapes);
    free(j->status);
    free(j->nd);
    free(j->nd4);
    free(j);
    return rc;
}

/* golgen.verify and golgen.synth in C: libgolgen's golgen_verify and
 * golgen_synth (golgen_0.3) with the GIL released, their results as
 * dicts (python/golgen/networks.py wraps them). */
#include "ext.h"

#include <pthread.h>
#include <time.h>

/* A golgen_gates as {"total": n, "kinds": {"lut3": n, ...}}. */
static PyObject *gates(const golgen_gates *g)
{
    PyObject *kinds = PyDict_New();
    if (!kinds)
        return NULL;
    for (int i = 0; i < g->n_kinds; i++) {
        PyObject *n = PyLong_FromLong(g->kind[i].count);
        if (!n || PyDict_SetItemString(kinds, g->kind[i].op, n)) {
            Py_XDECREF(n);
            Py_DECREF(kinds);
            return NULL;
        }
        Py_DECREF(n);
    }
    return Py_BuildValue("{s:i,s:N}", "total", g->total, "kinds", kinds);
}

/* Sets key to value (a new reference, NULL on a failure before) in d. */
static int put(PyObject *d, const char *key, PyObject *value)
{
    if (!value)
        return -1;
    int bad = PyDict_SetItemString(d, key, value);
    Py_DECREF(value);
    return bad;
}

static PyObject *verify_dict(const golgen_verify_result *r)
{
    PyObject *d = Py_BuildValue(
        "{s:O,s:i,s:s,s:i,s:i,s:i,s:i,s:s}",
        "passed", r->passed ? Py_True : Py_False, "dims", r->dims,
        "rule", r->rule, "neighbours", r->neighbours, "rows", r->rows,
        "wrong", r->wrong, "first_bad", r->first_bad, "source", r->source);
    if (!d || put(d, "final_gates", gates(&r->final_gates)))
        goto fail;
    if (r->dims == 3) {
        if (put(d, "count_bits", PyLong_FromLong(r->count_bits)))
            goto fail;
        return d;
    }
    if (put(d, "front", PyUnicode_FromString(r->front)) ||
        put(d, "lib", PyUnicode_FromString(r->lib)) ||
        put(d, "proven", PyBool_FromLong(r->proven)) ||
        put(d, "cached", PyBool_FromLong(r->cached)) ||
        put(d, "lower_bound", PyLong_FromLong(r->lower_bound)) ||
        put(d, "cache_path", r->cached ? PyUnicode_FromString(r->cache_path)
                                       : Py_NewRef(Py_None)) ||
        put(d, "search", PyUnicode_FromString(r->search)) ||
        put(d, "front_gates", gates(&r->front_gates)) ||
        put(d, "front_per_word", PyLong_FromLong(r->front_per_word)) ||
        put(d, "rows_shared", PyBool_FromLong(r->rows_shared)) ||
        put(d, "ops_per_word", PyLong_FromLong(r->ops_per_word)) ||
        put(d, "shifts_per_word", PyLong_FromLong(r->shifts_per_word)))
        goto fail;
    if (r->states > 2) {
        PyObject *g = r->gen_status
            ? Py_BuildValue("{s:i,s:s}", "states", r->states, "error",
                            r->gen_error)
            : Py_BuildValue("{s:i,s:i,s:O,s:N,s:N}", "states", r->states,
                            "planes", r->planes, "proven",
                            r->gen_proven ? Py_True : Py_False, "alive",
                            r->gen_alive_shown ? gates(&r->alive_gates)
                                               : Py_NewRef(Py_None),
                            "next", gates(&r->next_gates));
        if (put(d, "generations", g))
            goto fail;
    }
    return d;
fail:
    Py_XDECREF(d);
    return NULL;
}

PyObject *gp_verify(PyObject *self, PyObject *args, PyObject *kw)
{
    static char *names[] = {"rule", "front", "lib", "cache_root", NULL};
    golgen_verify_opts o = {0};
    const char *rule;
    (void)self;
    if (!PyArg_ParseTupleAndKeywords(args, kw, "s|zzz:verify", names, &rule,
                                     &o.front, &o.lib, &o.cache_root))
        return NULL;
    golgen_verify_result *r = NULL;
    char err[GP_ERRLEN];
    int rc;
    Py_BEGIN_ALLOW_THREADS
    rc = golgen_verify(rule, &o, &r, err, sizeof err);
    Py_END_ALLOW_THREADS
    if (rc)
        return gp_raise(rc, err);
    PyObject *d = verify_dict(r);
    golgen_verify_free(r);
    return d;
}

static PyObject *synth_dict(const golgen_synth_result *r)
{
    PyObject *per_k = PyList_New(0), *left = PyList_New(0), *d = NULL;
    if (!per_k || !left)
        goto fail;
    for (int i = 0; i < r->n_k; i++) {
        PyObject *k = Py_BuildValue(
            "{s:i,s:s,s:d,s:K,s:i,s:i}", "k", r->per_k[i].k, "status",
            r->per_k[i].status, "seconds", r->per_k[i].seconds, "conflicts",
            r->per_k[i].conflicts, "shapes", r->per_k[i].shapes,
            "shapes_total", r->per_k[i].shapes_total);
        if (!k || PyList_Append(per_k, k)) {
            Py_XDECREF(k);
            goto fail;
        }
        Py_DECREF(k);
    }
    for (int i = 0; i < r->n_left; i++) {
        PyObject *k = Py_BuildValue(
            "{s:i,s:i,s:d,s:O}", "k", r->left[i].k, "shapes",
            r->left[i].shapes, "times_k6", r->left[i].times_k6, "at_least",
            r->left[i].at_least ? Py_True : Py_False);
        if (!k || PyList_Append(left, k)) {
            Py_XDECREF(k);
            goto fail;
        }
        Py_DECREF(k);
    }
    d = Py_BuildValue(
        "{s:s,s:s,s:s,s:i,s:O,s:i,s:O,s:O,s:O,s:O,s:s,s:d,s:s,s:i,s:N,"
        "s:{s:i,s:i,s:i,s:i},s:N,s:s}",
        "rule", r->rule, "front", r->front, "lib", r->lib, "gates", r->gates,
        "proven", r->proven ? Py_True : Py_False, "lower_bound",
        r->lower_bound, "output_inverted",
        r->output_inverted ? Py_True : Py_False, "cached",
        r->cached ? Py_True : Py_False, "exact", r->exact ? Py_True : Py_False,
        "stopped", r->stopped ? Py_True : Py_False, "start", r->start,
        "seconds", r->seconds, "search", r->search, "ops_per_word",
        r->ops_per_word, "per_k", per_k, "ops", "shifts", r->shifts, "front",
        r->front_ops, "final", r->final_ops, "not", r->not_ops, "left", left,
        "network", r->network);
    if (d && r->proof_impossible &&
        put(d, "proof", Py_BuildValue("{s:i,s:i,s:i}", "k", r->proof_k,
                                      "shapes", r->proof_shapes,
                                      "impossible", r->proof_impossible))) {
        Py_DECREF(d);
        return NULL;
    }
    return d;
fail:
    Py_XDECREF(per_k);
    Py_XDECREF(left);
    return NULL;
}

/* A search on a thread of its own, so that the caller's thread can take
 * Ctrl-C meanwhile: it sets the stop flag, and the search returns its
 * best network so far (stopped, unproven), as `golgen synth` prints it. */
typedef struct synth_job {
    const char *rule;
    golgen_synth_opts *o;
    golgen_synth_result *r;
    int rc;
    char err[GP_ERRLEN];
    int done; /* atomic */
} synth_job;

static void *synth_main(void *arg)
{
    synth_job *j = arg;
    j->rc = golgen_synth(j->rule, j->o, &j->r, j->err, sizeof j->err);
    __atomic_store_n(&j->done, 1, __ATOMIC_RELEASE);
    return NULL;
}

/* Runs j, polling for signals every 50 ms; 1 when one stopped it. */
static int run_synth(synth_job *j, volatile int *stop)
{
    pthread_t t;
    int stopped = 0;
    if (pthread_create(&t, NULL, synth_main, j)) {
        Py_BEGIN_ALLOW_THREADS
        synth_main(j);
        Py_END_ALLOW_THREADS
        return 0;
    }
    while (!__atomic_load_n(&j->done, __ATOMIC_ACQUIRE)) {
        Py_BEGIN_ALLOW_THREADS
        nanosleep(&(struct timespec){0, 50000000}, NULL);
        Py_END_ALLOW_THREADS
        if (!stopped && PyErr_CheckSignals() < 0) {
            /* the search keeps its best network: the interrupt is
             * answered by the result's "stopped" */
            PyErr_Clear();
            *stop = stopped = 1;
        }
    }
    Py_BEGIN_ALLOW_THREADS
    pthread_join(t, NULL);
    Py_END_ALLOW_THREADS
    return stopped;
}

PyObject *gp_synth(PyObject *self, PyObject *args, PyObject *kw)
{
    static char *names[] = {
        "rule", "lib", "front", "cache_root", "time_limit", "k_time_limit",
        "shape_time_limit", "resynth_time", "resynth_leaves", "threads",
        "k_min", "k_max", "init_rows", "force", "resume", "store",
        "solver", "progress", NULL};
    golgen_synth_opts o;
    golgen_synth_defaults(&o);
    const char *rule;
    int store = 1;
    (void)self;
    if (!PyArg_ParseTupleAndKeywords(
            args, kw, "s|zzzddddiiiiippp" "zp:synth", names, &rule, &o.lib,
            &o.front, &o.cache_root, &o.time_limit, &o.k_time_limit,
            &o.shape_time_limit, &o.resynth_time, &o.resynth_leaves,
            &o.threads, &o.k_min, &o.k_max, &o.init_rows, &o.force,
            &o.resume, &store, &o.solver, &o.progress))
        return NULL;
    o.no_store = !store;
    volatile int stop = 0;
    o.stop = &stop;
    synth_job *j = PyMem_Calloc(1, sizeof *j);
    if (!j)
        return PyErr_NoMemory();
    j->rule = rule;
    j->o = &o;
    run_synth(j, &stop);
    PyObject *d = j->rc ? gp_raise(j->rc, j->err) : synth_dict(j->r);
    golgen_synth_free(j->r);
    PyMem_Free(j);
    return d;
}

PyObject *gp_solver_available(PyObject *self, PyObject *args)
{
    const char *name = "any";
    (void)self;
    if (!PyArg_ParseTuple(args, "|s:solver_available", &name))
        return NULL;
    return PyBool_FromLong(golgen_solver_available(name));
}

PyObject *gp_describe(PyObject *self, PyObject *args)
{
    const char *text, *rules_dir = NULL;
    char *desc = NULL, err[GP_ERRLEN];
    size_t len = 0;
    (void)self;
    if (!PyArg_ParseTuple(args, "s|z:describe", &text, &rules_dir))
        return NULL;
    int rc = golgen_rule_describe(text, rules_dir, &desc, &len, err,
                                  sizeof err);
    if (rc)
        return gp_raise(rc, err);
    PyObject *s = PyUnicode_DecodeUTF8(desc, (Py_ssize_t)len, "replace");
    golgen_free(desc);
    return s;
}

/* Runs in C: golgen.run_3d (libgolgen golgen_0.6), what `golgen run`
 * does for a 3D rule, from an RLE3 file or a 3D store to RLE3, a store and
 * pictures; and (golgen_0.7) patterns read once and golgen.run, what it
 * does for a 2D rule of every family. Paths are str, bytes or
 * os.PathLike; the runs and reads release the GIL. */
#include "ext.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* An optional path: NULL for None, else fs-encoded bytes in *held (the
 * caller drops it). */
static int opt_path(PyObject *obj, PyObject **held, const char **path)
{
    *held = NULL;
    *path = NULL;
    if (!obj || obj == Py_None)
        return 0;
    if (!PyUnicode_FSConverter(obj, held))
        return -1;
    *path = PyBytes_AS_STRING(*held);
    return 0;
}

PyObject *gp_run_3d(PyObject *self, PyObject *args, PyObject *kw)
{
    static char *names[] = {"gens", "pattern", "resume", "rule", "backend",
                            "threads", "out", "store", "checkpoint_every",
                            "png", "frames", "frame_every", NULL};
    enum { IN, RESUME, OUT, STORE, PNG, FRAMES, NPATHS };
    PyObject *obj[NPATHS] = {0}, *held[NPATHS] = {0};
    const char *p[NPATHS] = {0};
    golgen_run3d_opts o = {0};
    long long gens, every = 0, frame_every = 0;
    int threads = 0;
    (void)self;
    if (!PyArg_ParseTupleAndKeywords(
            args, kw, "L|OOzziOOLOOL:run_3d", names, &gens, &obj[IN],
            &obj[RESUME], &o.rule, &o.backend, &threads, &obj[OUT],
            &obj[STORE], &every, &obj[PNG], &obj[FRAMES], &frame_every))
        return NULL;
    PyObject *result = NULL;
    for (int i = 0; i < NPATHS; i++)
        if (opt_path(obj[i], &held[i], &p[i]))
            goto done;
    o.in = p[IN], o.resume = p[RESUME], o.out = p[OUT], o.store = p[STORE];
    o.png = p[PNG], o.frames = p[FRAMES];
    o.gens = gens, o.threads = threads, o.checkpoint_every = every;
    o.frame_every = frame_every;
    golgen_run3d_result res;
    char err[GP_ERRLEN];
    int rc;
    Py_BEGIN_ALLOW_THREADS
    rc = golgen_run_3d(&o, &res, err, sizeof err);
    Py_END_ALLOW_THREADS
    if (rc) {
        gp_raise(rc, err);
        goto done;
    }
    result = Py_BuildValue("{s:s,s:L,s:L,s:L,s:d}", "backend", res.backend,
                           "generation", (long long)res.generation,
                           "population", (long long)res.population,
                           "reached", (long long)res.reached, "seconds",
                           res.seconds);
done:
    for (int i = 0; i < NPATHS; i++)
        Py_XDECREF(held[i]);
    return result;
}

/* ---- patterns and 2D runs (libgolgen golgen_0.7) ---- */

#define GP_PATTERN "golgen.pattern"

static void pattern_free(PyObject *capsule)
{
    golgen_pattern_free(PyCapsule_GetPointer(capsule, GP_PATTERN));
}

/* read_pattern(path, text, cells) -> capsule: the file at path (str,
 * bytes or os.PathLike; "-": stdin) or, path None, text (str). */
PyObject *gp_read_pattern(PyObject *self, PyObject *args)
{
    PyObject *obj, *held = NULL;
    const char *text, *path;
    Py_ssize_t len = 0;
    int cells;
    (void)self;
    if (!PyArg_ParseTuple(args, "Oz#p:read_pattern", &obj, &text, &len,
                          &cells) ||
        opt_path(obj, &held, &path))
        return NULL;
    int how = cells ? GOLGEN_PATTERN_CELLS : GOLGEN_PATTERN_AS_READ;
    golgen_pattern *p = NULL;
    char err[GP_ERRLEN];
    int rc;
    Py_BEGIN_ALLOW_THREADS
    rc = path ? golgen_pattern_read(path, how, NULL, &p, err, sizeof err)
              : golgen_pattern_parse(text ? text : "", (size_t)len, NULL, how,
                                     &p, err, sizeof err);
    Py_END_ALLOW_THREADS
    Py_XDECREF(held);
    if (rc)
        return gp_raise(rc, err);
    PyObject *capsule = PyCapsule_New(p, GP_PATTERN, pattern_free);
    if (!capsule)
        golgen_pattern_free(p);
    return capsule;
}

/* pattern_info(capsule) -> (rule or None, x, y, w, h, generation, form) */
PyObject *gp_pattern_info(PyObject *self, PyObject *args)
{
    PyObject *capsule;
    (void)self;
    if (!PyArg_ParseTuple(args, "O:pattern_info", &capsule))
        return NULL;
    golgen_pattern *p = PyCapsule_GetPointer(capsule, GP_PATTERN);
    if (!p)
        return NULL;
    int64_t x, y, w, h;
    golgen_pattern_box(p, &x, &y, &w, &h);
    return Py_BuildValue("(zLLLLLs)", golgen_pattern_rule(p), (long long)x,
                         (long long)y, (long long)w, (long long)h,
                         (long long)golgen_pattern_generation(p),
                         golgen_pattern_form(p));
}

/* The lines a run says, kept (the run holds no GIL: plain C). */
typedef struct said_lines {
    char *text;
    size_t len, cap;
    int failed;
} said_lines;

static void keep_line(said_lines *s, const char *prefix, const char *line)
{
    size_t n = strlen(prefix) + strlen(line) + 1;
    if (s->failed)
        return;
    if (s->len + n + 1 > s->cap) {
        size_t cap = (s->len + n + 1) * 2;
        char *t = realloc(s->text, cap);
        if (!t) {
            s->failed = 1;
            return;
        }
        s->text = t;
        s->cap = cap;
    }
    s->len += (size_t)sprintf(s->text + s->len, "%s%s\n", prefix, line);
}

static void said_note(void *ctx, const char *line)
{
    keep_line(ctx, "", line);
}

static void said_open(void *ctx, const golgen_run2d_result *res)
{
    if (res->auto_line[0])
        keep_line(ctx, "golgen: ", res->auto_line);
}

PyObject *gp_run(PyObject *self, PyObject *args, PyObject *kw)
{
    static char *names[] = {
        "gens", "pattern", "path", "resume", "rule", "rules_dir", "backend",
        "engine", "mem", "tree_leaf", "out", "store", "checkpoint_every",
        "device_mem", "devices", "host_mem", "png", "frames", "frame_every",
        NULL};
    enum { IN, RESUME, RULES, OUT, STORE, PNG, FRAMES, NPATHS };
    PyObject *obj[NPATHS] = {0}, *held[NPATHS] = {0}, *capsule = Py_None;
    const char *p[NPATHS] = {0};
    golgen_run2d_opts o = {0};
    long long gens, mem = 0, every = 0, device_mem = 0, host_mem = 0;
    long long frame_every = 0;
    int leaf = 0;
    (void)self;
    if (!PyArg_ParseTupleAndKeywords(
            args, kw, "L|OOOzOzzLiOOLLzLOOL:run", names, &gens, &capsule,
            &obj[IN], &obj[RESUME], &o.rule, &obj[RULES], &o.backend,
            &o.engine, &mem, &leaf, &obj[OUT], &obj[STORE], &every,
            &device_mem, &o.devices, &host_mem, &obj[PNG], &obj[FRAMES],
            &frame_every))
        return NULL;
    PyObject *result = NULL;
    said_lines said = {0};
    if (capsule != Py_None &&
        !(o.pattern = PyCapsule_GetPointer(capsule, GP_PATTERN)))
        return NULL;
    for (int i = 0; i < NPATHS; i++)
        if (opt_path(obj[i], &held[i], &p[i]))
            goto done;
    o.in = p[IN], o.resume = p[RESUME], o.rules_dir = p[RULES];
    o.out = p[OUT], o.store = p[STORE], o.png = p[PNG], o.frames = p[FRAMES];
    o.gens = gens, o.mem = mem, o.tree_leaf = leaf;
    o.checkpoint_every = every, o.device_mem = device_mem;
    o.host_mem = host_mem, o.frame_every = frame_every;
    o.on_note = said_note;
    o.on_open = said_open;
    o.ctx = &said;
    golgen_run2d_result res;
    char err[GP_ERRLEN];
    int rc;
    Py_BEGIN_ALLOW_THREADS
    rc = golgen_run_2d(&o, &res, err, sizeof err);
    Py_END_ALLOW_THREADS
    if (rc) {
        gp_raise(rc, err);
        goto done;
    }
    result = Py_BuildValue(
        "{s:s,s:s,s:s,s:s,s:L,s:L,s:L,s:d,s:s,s:s#}", "family", res.family,
        "engine", res.engine, "backend", res.backend, "rule", res.rule,
        "generation", (long long)res.generation, "population",
        (long long)res.population, "reached", (long long)res.reached,
        "seconds", res.seconds, "summary", res.summary, "lines",
        said.text ? said.text : "", (Py_ssize_t)said.len);
done:
    free(said.text);
    for (int i = 0; i < NPATHS; i++)
        Py_XDECREF(held[i]);
    return result;
}

/* golgen._golgen.Handle: one golgen_universe, freed with the object.
 *
 * Runs and window reads release the GIL, so another Python thread could
 * call into the same handle meanwhile; libgolgen forbids overlapping calls
 * on one handle, so a `busy` flag (read and set with the GIL held) turns
 * such a call into a RuntimeError instead of a race. */
#include "ext.h"

typedef struct {
    PyObject_HEAD
    golgen_universe *u;
    int busy;
} handle;

PyObject *gp_handle_wrap(golgen_universe *u)
{
    handle *h = PyObject_New(handle, &gp_handle_type);
    if (!h)
        return NULL;
    h->u = u;
    h->busy = 0;
    return (PyObject *)h;
}

static void dealloc(PyObject *self)
{
    golgen_universe_free(((handle *)self)->u);
    PyObject_Free(self);
}

/* Refuse a call while another thread is inside this handle. */
static int idle(handle *h)
{
    return gp_idle(h->busy, "universe", "run");
}

/* run(gens, backend, engine=None): None for either is auto. */
static PyObject *h_run(PyObject *self, PyObject *args)
{
    handle *h = (handle *)self;
    long long gens;
    const char *backend, *engine = NULL;
    char err[GP_ERRLEN];
    if (!PyArg_ParseTuple(args, "Lz|z:run", &gens, &backend, &engine) ||
        !idle(h))
        return NULL;
    int rc;
    h->busy = 1;
    Py_BEGIN_ALLOW_THREADS
    rc = golgen_universe_run_engine(h->u, gens, backend, engine, err,
                                    sizeof err);
    Py_END_ALLOW_THREADS
    h->busy = 0;
    if (rc)
        return gp_raise(rc, err);
    Py_RETURN_NONE;
}

/* choose_engine(gens, backend) -> the engine auto takes for gens more
 * generations: 'hashlife', 'tiles' or 'dense' (it may open the backend). */
static PyObject *h_choose_engine(PyObject *self, PyObject *args)
{
    handle *h = (handle *)self;
    long long gens;
    const char *backend, *engine = NULL;
    char err[GP_ERRLEN];
    if (!PyArg_ParseTuple(args, "Lz:choose_engine", &gens, &backend) ||
        !idle(h))
        return NULL;
    int rc;
    h->busy = 1;
    Py_BEGIN_ALLOW_THREADS
    rc = golgen_universe_choose_engine(h->u, gens, backend, &engine, err,
                                       sizeof err);
    Py_END_ALLOW_THREADS
    h->busy = 0;
    if (rc)
        return gp_raise(rc, err);
    return PyUnicode_FromString(engine);
}

static PyObject *h_engine(PyObject *self, PyObject *noargs)
{
    (void)noargs;
    if (!idle((handle *)self))
        return NULL;
    return PyUnicode_FromString(golgen_universe_engine(((handle *)self)->u));
}

/* x, y, w, h of the area simulated now (the whole grid when bounded). */
static PyObject *h_extent(PyObject *self, PyObject *noargs)
{
    handle *h = (handle *)self;
    int64_t x, y, w, hh;
    (void)noargs;
    if (!idle(h))
        return NULL;
    golgen_universe_extent(h->u, &x, &y, &w, &hh);
    return Py_BuildValue("(LLLL)", (long long)x, (long long)y, (long long)w,
                         (long long)hh);
}

static PyObject *h_bbox(PyObject *self, PyObject *noargs)
{
    handle *h = (handle *)self;
    int64_t x, y, w, hh;
    (void)noargs;
    if (!idle(h))
        return NULL;
    golgen_universe_bbox(h->u, &x, &y, &w, &hh);
    return Py_BuildValue("(LLLL)", (long long)x, (long long)y, (long long)w,
                         (long long)hh);
}

/* A new (h, w) uint8 array of the window at (x, y), 1 alive. */
static PyObject *h_window(PyObject *self, PyObject *args)
{
    handle *h = (handle *)self;
    long long x, y, w, hh;
    char err[GP_ERRLEN];
    uint8_t probe;
    if (!PyArg_ParseTuple(args, "LLLL:window", &x, &y, &w, &hh) || !idle(h))
        return NULL;
    if (w < 0 || hh < 0) {
        /* golgen's own sentence for a bad size, before numpy allocates */
        int rc = golgen_universe_window(h->u, x, y, w, hh, &probe, err,
                                        sizeof err);
        return gp_raise(rc ? rc : GOLGEN_ERR_INPUT, err);
    }
    npy_intp dims[2] = {(npy_intp)hh, (npy_intp)w};
    PyObject *out = PyArray_SimpleNew(2, dims, NPY_UINT8);
    if (!out)
        return NULL;
    uint8_t *data = PyArray_DATA((PyArrayObject *)out);
    int rc;
    h->busy = 1;
    Py_BEGIN_ALLOW_THREADS
    rc = golgen_universe_window(h->u, x, y, w, hh, data, err, sizeof err);
    Py_END_ALLOW_THREADS
    h->busy = 0;
    if (rc) {
        Py_DECREF(out);
        return gp_raise(rc, err);
    }
    return out;
}

static PyObject *h_write(PyObject *self, PyObject *args)
{
    handle *h = (handle *)self;
    PyObject *path = NULL;
    char err[GP_ERRLEN];
    if (!PyArg_ParseTuple(args, "O&:write", PyUnicode_FSConverter, &path))
        return NULL;
    if (!idle(h)) {
        Py_DECREF(path);
        return NULL;
    }
    int rc = golgen_universe_write(h->u, PyBytes_AS_STRING(path), err,
                                   sizeof err);
    Py_DECREF(path);
    if (rc)
        return gp_raise(rc, err);
    Py_RETURN_NONE;
}

static PyObject *h_write_store(PyObject *self, PyObject *args)
{
    handle *h = (handle *)self;
    PyObject *path = NULL;
    char err[GP_ERRLEN];
    if (!PyArg_ParseTuple(args, "O&:write_store", PyUnicode_FSConverter,
                          &path))
        return NULL;
    if (!idle(h)) {
        Py_DECREF(path);
        return NULL;
    }
    int rc = golgen_universe_write_store(h->u, PyBytes_AS_STRING(path), err,
                                         sizeof err);
    Py_DECREF(path);
    if (rc)
        return gp_raise(rc, err);
    Py_RETURN_NONE;
}

static PyObject *h_write_png(PyObject *self, PyObject *args)
{
    handle *h = (handle *)self;
    PyObject *path = NULL, *win = Py_None;
    long long scale = 0, zoom = 0;
    char err[GP_ERRLEN];
    golgen_picture_opts o = {0};
    golgen_picture_info info;
    if (!PyArg_ParseTuple(args, "O&OLL:write_png", PyUnicode_FSConverter,
                          &path, &win, &scale, &zoom))
        return NULL;
    long long x, y, w, ht;
    if (win != Py_None &&
        !PyArg_ParseTuple(win, "LLLL:window", &x, &y, &w, &ht)) {
        Py_DECREF(path);
        return NULL;
    }
    if (win != Py_None)
        o = (golgen_picture_opts){.window = 1, .x = x, .y = y, .w = w,
                                  .h = ht};
    o.scale = scale;
    o.zoom = zoom;
    if (!idle(h)) {
        Py_DECREF(path);
        return NULL;
    }
    int rc = golgen_universe_write_png(h->u, PyBytes_AS_STRING(path), &o,
                                       &info, err, sizeof err);
    Py_DECREF(path);
    if (rc)
        return gp_raise(rc, err);
    return Py_BuildValue("{s:L,s:L,s:L,s:L,s:L,s:L}", "x", (long long)info.x,
                         "y", (long long)info.y, "w", (long long)info.w, "h",
                         (long long)info.h, "scale", (long long)info.scale,
                         "zoom", (long long)info.zoom);
}

static PyObject *h_format(PyObject *self, PyObject *args)
{
    handle *h = (handle *)self;
    const char *fmt;
    char err[GP_ERRLEN], *text = NULL;
    size_t len = 0;
    if (!PyArg_ParseTuple(args, "s:format", &fmt) || !idle(h))
        return NULL;
    int rc = golgen_universe_format(h->u, fmt, &text, &len, err, sizeof err);
    if (rc)
        return gp_raise(rc, err);
    PyObject *s = PyUnicode_DecodeUTF8(text, (Py_ssize_t)len, "replace");
    golgen_free(text);
    return s;
}

static PyObject *h_generation(PyObject *self, PyObject *noargs)
{
    (void)noargs;
    if (!idle((handle *)self))
        return NULL;
    return PyLong_FromLongLong(
        golgen_universe_generation(((handle *)self)->u));
}

static PyObject *h_population(PyObject *self, PyObject *noargs)
{
    (void)noargs;
    if (!idle((handle *)self))
        return NULL;
    return PyLong_FromLongLong(
        golgen_universe_population(((handle *)self)->u));
}

/* The backend the last run used, and auto's line ("" before a run). */
static PyObject *h_backend(PyObject *self, PyObject *noargs)
{
    handle *h = (handle *)self;
    (void)noargs;
    if (!idle(h))
        return NULL;
    return Py_BuildValue("(ss)", golgen_universe_backend(h->u),
                         golgen_universe_backend_line(h->u));
}

static PyObject *h_rule(PyObject *self, PyObject *noargs)
{
    char text[1024];
    (void)noargs;
    if (!idle((handle *)self))
        return NULL;
    golgen_universe_rule(((handle *)self)->u, text, sizeof text);
    return PyUnicode_FromString(text);
}

static PyMethodDef handle_methods[] = {
    {"run", h_run, METH_VARARGS, "run(gens, backend or None, engine=None)"},
    {"choose_engine", h_choose_engine, METH_VARARGS, "choose_engine(gens, "
     "backend or None) -> 'hashlife', 'tiles' or 'dense'"},
    {"engine", h_engine, METH_NOARGS, "engine() -> the last run's engine"},
    {"extent", h_extent, METH_NOARGS, "extent() -> (x, y, w, h)"},
    {"bbox", h_bbox, METH_NOARGS, "bbox() -> (x, y, w, h), w = h = 0 if empty"},
    {"window", h_window, METH_VARARGS, "window(x, y, w, h) -> uint8 (h, w)"},
    {"write", h_write, METH_VARARGS, "write(path): format by the name"},
    {"write_store", h_write_store, METH_VARARGS, "write_store(path): a "
     "checkpoint (.ggu)"},
    {"write_png", h_write_png, METH_VARARGS, "write_png(path, window or "
     "None, scale, zoom) -> dict: a PNG picture"},
    {"format", h_format, METH_VARARGS, "format(name) -> str: rle, cells, "
     "lif or mc"},
    {"generation", h_generation, METH_NOARGS, "generation() -> int"},
    {"population", h_population, METH_NOARGS, "population() -> int"},
    {"backend", h_backend, METH_NOARGS, "backend() -> (name, line)"},
    {"rule", h_rule, METH_NOARGS, "rule() -> str, canonical"},
    {NULL, NULL, 0, NULL},
};

PyTypeObject gp_handle_type = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "golgen._golgen.Handle",
    .tp_doc = "One libgolgen universe (golgen.Universe holds one).",
    .tp_basicsize = sizeof(handle),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_dealloc = dealloc,
    .tp_methods = handle_methods,
};

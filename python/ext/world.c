/* golgen._golgen.WorldHandle: one golgen_world (include/golgen/world.h),
 * a world of any family golgen serve shows, freed with the object. Steps
 * and window reads release the GIL; as for universes (handle.c), a `busy`
 * flag turns a second thread's call on the same handle into a
 * RuntimeError instead of a race. */
#include "ext.h"

typedef struct {
    PyObject_HEAD
    golgen_world *w;
    int busy;
} world;

static PyTypeObject world_type;

static PyObject *wrap(golgen_world *w)
{
    world *h = PyObject_New(world, &world_type);
    if (!h) {
        golgen_world_free(w);
        return NULL;
    }
    h->w = w;
    h->busy = 0;
    return (PyObject *)h;
}

static void dealloc(PyObject *self)
{
    golgen_world_free(((world *)self)->w);
    PyObject_Free(self);
}

static int idle(world *h)
{
    return gp_idle(h->busy, "world", "step");
}

/* world_read(path, rule=None) -> handle: a pattern file (RLE3: 3D). */
PyObject *gp_world_read(PyObject *self, PyObject *args)
{
    PyObject *path = NULL;
    const char *rule = NULL;
    golgen_world *w;
    char err[GP_ERRLEN];
    (void)self;
    if (!PyArg_ParseTuple(args, "O&|z:world_read", PyUnicode_FSConverter,
                          &path, &rule))
        return NULL;
    golgen_world_load_opts o = {.rule = rule};
    int rc;
    Py_BEGIN_ALLOW_THREADS
    rc = golgen_world_read(PyBytes_AS_STRING(path), &o, &w, err, sizeof err);
    Py_END_ALLOW_THREADS
    Py_DECREF(path);
    return rc ? gp_raise(rc, err) : wrap(w);
}

/* world_parse(text, rule=None) -> handle: pattern text. */
PyObject *gp_world_parse(PyObject *self, PyObject *args)
{
    const char *text, *rule = NULL;
    Py_ssize_t len;
    golgen_world *w;
    char err[GP_ERRLEN];
    (void)self;
    if (!PyArg_ParseTuple(args, "s#|z:world_parse", &text, &len, &rule))
        return NULL;
    golgen_world_load_opts o = {.rule = rule};
    int rc = golgen_world_parse(text, (size_t)len, &o, &w, err, sizeof err);
    return rc ? gp_raise(rc, err) : wrap(w);
}

static golgen_world_rule *rule_of(const char *text)
{
    golgen_world_rule *r;
    char err[GP_ERRLEN];
    int rc = golgen_world_rule_parse(text, NULL, &r, err, sizeof err);
    if (rc)
        gp_raise(rc, err);
    return rc ? NULL : r;
}

/* world_soup(rule, width, height, percent, seed) -> handle. */
PyObject *gp_world_soup(PyObject *self, PyObject *args)
{
    const char *text;
    long long wd, ht;
    int percent;
    unsigned long long seed;
    golgen_world *w;
    char err[GP_ERRLEN];
    (void)self;
    if (!PyArg_ParseTuple(args, "sLLiK:world_soup", &text, &wd, &ht,
                          &percent, &seed))
        return NULL;
    golgen_world_rule *r = rule_of(text);
    if (!r)
        return NULL;
    int rc;
    Py_BEGIN_ALLOW_THREADS
    rc = golgen_world_soup(r, wd, ht, percent, seed, &w, err, sizeof err);
    Py_END_ALLOW_THREADS
    golgen_world_rule_free(r);
    return rc ? gp_raise(rc, err) : wrap(w);
}

/* step(n, backend or None): n generations (the stepper stays in the
 * world for the next step on the same backend). */
static PyObject *w_step(PyObject *self, PyObject *args)
{
    world *h = (world *)self;
    long long n;
    const char *backend = NULL;
    char err[GP_ERRLEN];
    if (!PyArg_ParseTuple(args, "L|z:step", &n, &backend) || !idle(h))
        return NULL;
    int rc;
    h->busy = 1;
    Py_BEGIN_ALLOW_THREADS
    rc = golgen_world_run(h->w, n, backend, err, sizeof err);
    Py_END_ALLOW_THREADS
    h->busy = 0;
    if (rc)
        return gp_raise(rc, err);
    Py_RETURN_NONE;
}

/* render(x, y, cols, rows, level, sample) -> (rows, cols) uint8 array:
 * states at level 0, shades of 2^level squares above. */
static PyObject *w_render(PyObject *self, PyObject *args)
{
    world *h = (world *)self;
    long long x, y, sample = 0;
    int cols, rows, level = 0;
    if (!PyArg_ParseTuple(args, "LLii|iL:render", &x, &y, &cols, &rows,
                          &level, &sample) ||
        !idle(h))
        return NULL;
    if (cols < 1 || rows < 1 || (long long)cols * rows > (1LL << 28) ||
        level < 0 || level > 40)
        return gp_raise(GOLGEN_ERR_INPUT, "render: cols and rows at least 1, "
                        "at most 2^28 blocks, level 0 .. 40");
    npy_intp dims[2] = {rows, cols};
    PyObject *out = PyArray_SimpleNew(2, dims, NPY_UINT8);
    if (!out)
        return NULL;
    uint8_t *data = PyArray_DATA((PyArrayObject *)out);
    h->busy = 1;
    Py_BEGIN_ALLOW_THREADS
    golgen_world_render(h->w, x, y, cols, rows, level, sample, data);
    Py_END_ALLOW_THREADS
    h->busy = 0;
    return out;
}

/* set(x, y, state) */
static PyObject *w_set(PyObject *self, PyObject *args)
{
    world *h = (world *)self;
    long long x, y;
    int state;
    char err[GP_ERRLEN];
    if (!PyArg_ParseTuple(args, "LLi:set", &x, &y, &state) || !idle(h))
        return NULL;
    int rc = golgen_world_set(h->w, x, y, state, err, sizeof err);
    if (rc)
        return gp_raise(rc, err);
    Py_RETURN_NONE;
}

static PyObject *w_get(PyObject *self, PyObject *args)
{
    world *h = (world *)self;
    long long x, y;
    if (!PyArg_ParseTuple(args, "LL:get", &x, &y) || !idle(h))
        return NULL;
    return PyLong_FromLong(golgen_world_get(h->w, x, y));
}

/* paste(text, x, y) */
static PyObject *w_paste(PyObject *self, PyObject *args)
{
    world *h = (world *)self;
    const char *text;
    Py_ssize_t len;
    long long x, y;
    char err[GP_ERRLEN];
    if (!PyArg_ParseTuple(args, "s#LL:paste", &text, &len, &x, &y) ||
        !idle(h))
        return NULL;
    int rc = golgen_world_paste(h->w, text, (size_t)len, x, y, err,
                                sizeof err);
    if (rc)
        return gp_raise(rc, err);
    Py_RETURN_NONE;
}

static PyObject *w_clear(PyObject *self, PyObject *noargs)
{
    (void)noargs;
    if (!idle((world *)self))
        return NULL;
    golgen_world_clear(((world *)self)->w);
    Py_RETURN_NONE;
}

/* with_rule(rule) -> a new handle: the same cells under rule. */
static PyObject *w_with_rule(PyObject *self, PyObject *args)
{
    world *h = (world *)self;
    const char *text;
    golgen_world *w;
    char err[GP_ERRLEN];
    if (!PyArg_ParseTuple(args, "s:with_rule", &text) || !idle(h))
        return NULL;
    golgen_world_rule *r = rule_of(text);
    if (!r)
        return NULL;
    int rc = golgen_world_with_rule(h->w, r, 0, &w, err, sizeof err);
    golgen_world_rule_free(r);
    return rc ? gp_raise(rc, err) : wrap(w);
}

/* info() -> dict: what the world holds now. */
static PyObject *w_info(PyObject *self, PyObject *noargs)
{
    world *h = (world *)self;
    (void)noargs;
    if (!idle(h))
        return NULL;
    static const char *const families[] = {
        "two-state", "generations", "table", "ltl", "3d"};
    static const char *const topologies[] = {"plane", "torus", "bounded"};
    char rule[256];
    int64_t ex, ey, ew, eh, bx, by, bw, bh, depth;
    golgen_world_rule_name(h->w, rule, sizeof rule);
    golgen_world_extent(h->w, &ex, &ey, &ew, &eh);
    int any = golgen_world_bbox(h->w, &bx, &by, &bw, &bh);
    int64_t z = golgen_world_z(h->w, &depth);
    int f = golgen_world_family(h->w), t = golgen_world_topology(h->w);
    PyObject *bbox = any ? Py_BuildValue("(LLLL)", (long long)bx,
                                         (long long)by, (long long)bw,
                                         (long long)bh)
                         : Py_NewRef(Py_None);
    if (!bbox)
        return NULL;
    PyObject *zv = !depth ? Py_NewRef(Py_None)
                   : z == GOLGEN_WORLD_Z_SUM ? PyUnicode_FromString("sum")
                                             : PyLong_FromLongLong(z);
    if (!zv) {
        Py_DECREF(bbox);
        return NULL;
    }
    return Py_BuildValue(
        "{s:s,s:s,s:s,s:i,s:L,s:L,s:(LLLL),s:N,s:N,s:L}", "rule", rule,
        "family", families[f], "topology", topologies[t], "states",
        golgen_world_states(h->w), "generation",
        (long long)golgen_world_generation(h->w), "population",
        (long long)golgen_world_population(h->w), "extent", (long long)ex,
        (long long)ey, (long long)ew, (long long)eh, "bbox", bbox, "z", zv,
        "depth", (long long)depth);
}

/* set_z(z or 'sum') */
static PyObject *w_set_z(PyObject *self, PyObject *args)
{
    world *h = (world *)self;
    PyObject *zobj;
    char err[GP_ERRLEN];
    if (!PyArg_ParseTuple(args, "O:set_z", &zobj) || !idle(h))
        return NULL;
    long long z;
    if (PyUnicode_Check(zobj) &&
        !PyUnicode_CompareWithASCIIString(zobj, "sum"))
        z = GOLGEN_WORLD_Z_SUM;
    else if ((z = PyLong_AsLongLong(zobj)) == -1 && PyErr_Occurred())
        return NULL;
    else if (z < 0)
        return gp_raise(GOLGEN_ERR_INPUT, "z is a slice 0 .. depth - 1, or "
                        "'sum' (the projection)");
    int rc = golgen_world_set_z(h->w, z, err, sizeof err);
    if (rc)
        return gp_raise(rc, err);
    Py_RETURN_NONE;
}

/* format('rle' or 'mc') -> str */
static PyObject *w_format(PyObject *self, PyObject *args)
{
    world *h = (world *)self;
    const char *fmt;
    char err[GP_ERRLEN], *text = NULL;
    size_t len = 0;
    if (!PyArg_ParseTuple(args, "s:format", &fmt) || !idle(h))
        return NULL;
    int rc = golgen_world_format(h->w, fmt, &text, &len, err, sizeof err);
    if (rc)
        return gp_raise(rc, err);
    PyObject *s = PyUnicode_DecodeUTF8(text, (Py_ssize_t)len, "replace");
    golgen_free(text);
    return s;
}

/* write(path): the format its name asks for (.png a picture) */
static PyObject *w_write(PyObject *self, PyObject *args)
{
    world *h = (world *)self;
    PyObject *path = NULL;
    char err[GP_ERRLEN];
    if (!PyArg_ParseTuple(args, "O&:write", PyUnicode_FSConverter, &path))
        return NULL;
    if (!idle(h)) {
        Py_DECREF(path);
        return NULL;
    }
    int rc = golgen_world_write(h->w, PyBytes_AS_STRING(path), err,
                                sizeof err);
    Py_DECREF(path);
    if (rc)
        return gp_raise(rc, err);
    Py_RETURN_NONE;
}

static PyMethodDef world_methods[] = {
    {"step", w_step, METH_VARARGS, "step(n, backend=None)"},
    {"render", w_render, METH_VARARGS,
     "render(x, y, cols, rows, level=0, sample=0) -> uint8 array"},
    {"set", w_set, METH_VARARGS, "set(x, y, state)"},
    {"get", w_get, METH_VARARGS, "get(x, y) -> state"},
    {"paste", w_paste, METH_VARARGS, "paste(text, x, y)"},
    {"clear", w_clear, METH_NOARGS, "clear()"},
    {"with_rule", w_with_rule, METH_VARARGS, "with_rule(rule) -> handle"},
    {"info", w_info, METH_NOARGS, "info() -> dict"},
    {"set_z", w_set_z, METH_VARARGS, "set_z(z or 'sum')"},
    {"format", w_format, METH_VARARGS, "format('rle' or 'mc') -> str"},
    {"write", w_write, METH_VARARGS, "write(path)"},
    {NULL, NULL, 0, NULL},
};

static PyTypeObject world_type = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "golgen._golgen.WorldHandle",
    .tp_basicsize = sizeof(world),
    .tp_dealloc = dealloc,
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "one golgen_world (use golgen.World)",
    .tp_methods = world_methods,
};

int gp_add_world(PyObject *module)
{
    return PyType_Ready(&world_type) ||
           PyModule_AddObjectRef(module, "WorldHandle",
                                 (PyObject *)&world_type);
}

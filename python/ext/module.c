/* golgen._golgen: the C half of the golgen Python package, a thin layer
 * over libgolgen (include/golgen.h). The public API (golgen.Universe,
 * numpy conversions, chunked runs) is Python, in python/golgen/; here are
 * the calls that need C: rules, kernels and universe handles. */
#define GP_IMPORT_NUMPY
#include "ext.h"

int gp_rule(PyObject *obj, int allow_none, golgen_rule **rule)
{
    char err[GP_ERRLEN];
    *rule = NULL;
    if (allow_none && obj == Py_None)
        return 0;
    if (!PyUnicode_Check(obj)) {
        PyErr_Format(PyExc_TypeError, "a rule is a str such as "
                     "'B3/S23:T64,64', not %.80s", Py_TYPE(obj)->tp_name);
        return -1;
    }
    const char *text = PyUnicode_AsUTF8(obj);
    if (!text)
        return -1;
    int rc = golgen_rule_parse(text, rule, err, sizeof err);
    if (rc) {
        gp_raise(rc, err);
        return -1;
    }
    return 0;
}

static PyObject *version(PyObject *self, PyObject *noargs)
{
    (void)self, (void)noargs;
    return PyUnicode_FromString(golgen_version());
}

/* Kernel generation may run the solver for an uncached rule (seconds):
 * the GIL is released meanwhile. */
static PyObject *emit(PyObject *self, PyObject *args)
{
    PyObject *rule_obj;
    const char *target;
    golgen_rule *rule;
    char err[GP_ERRLEN], *src = NULL;
    size_t len = 0;
    (void)self;
    if (!PyArg_ParseTuple(args, "Us:emit", &rule_obj, &target) ||
        gp_rule(rule_obj, 0, &rule))
        return NULL;
    int rc;
    Py_BEGIN_ALLOW_THREADS
    rc = golgen_emit(rule, target, &src, &len, err, sizeof err);
    Py_END_ALLOW_THREADS
    golgen_rule_free(rule);
    if (rc)
        return gp_raise(rc, err);
    PyObject *text = PyUnicode_DecodeUTF8(src, (Py_ssize_t)len, "replace");
    golgen_free(src);
    return text;
}

/* What this build has (golgen_0.5): the solver, auto's order, and what
 * each backend's probe says here (golgen.about composes them). */
static PyObject *solver_version(PyObject *self, PyObject *noargs)
{
    char buf[256];
    (void)self, (void)noargs;
    golgen_solver_version(buf, sizeof buf);
    return PyUnicode_FromString(buf);
}

static PyObject *backend_auto_order(PyObject *self, PyObject *noargs)
{
    char buf[1024];
    (void)self, (void)noargs;
    golgen_backend_auto_order("|", buf, sizeof buf);
    return PyUnicode_FromString(buf);
}

static PyObject *backend_probes(PyObject *self, PyObject *noargs)
{
    char buf[8192], err[GP_ERRLEN];
    (void)self, (void)noargs;
    int rc;
    Py_BEGIN_ALLOW_THREADS /* a probe may load a GPU driver */
    rc = golgen_backend_probes(NULL, buf, sizeof buf, err, sizeof err);
    Py_END_ALLOW_THREADS
    if (rc)
        return gp_raise(rc, err);
    return PyUnicode_FromString(buf);
}

/* The constructors (make.c). */
PyObject *gp_empty(PyObject *self, PyObject *args);
PyObject *gp_from_cells(PyObject *self, PyObject *args);
PyObject *gp_from_bits(PyObject *self, PyObject *args);
PyObject *gp_read(PyObject *self, PyObject *args);
PyObject *gp_parse(PyObject *self, PyObject *args);

/* Networks (networks.c). */
PyObject *gp_verify(PyObject *self, PyObject *args, PyObject *kw);
PyObject *gp_synth(PyObject *self, PyObject *args, PyObject *kw);
PyObject *gp_solver_available(PyObject *self, PyObject *args);
PyObject *gp_describe(PyObject *self, PyObject *args);

/* Stores (stores.c). */
PyObject *gp_store_info(PyObject *self, PyObject *args);
PyObject *gp_store_export(PyObject *self, PyObject *args);
PyObject *gp_store_import(PyObject *self, PyObject *args);
PyObject *gp_read_store(PyObject *self, PyObject *args);

/* Runs (runs.c). */
PyObject *gp_run_3d(PyObject *self, PyObject *args, PyObject *kw);
PyObject *gp_read_pattern(PyObject *self, PyObject *args);
PyObject *gp_pattern_info(PyObject *self, PyObject *args);
PyObject *gp_run(PyObject *self, PyObject *args, PyObject *kw);

/* Worlds of every family (world.c). */
PyObject *gp_world_read(PyObject *self, PyObject *args);
PyObject *gp_world_parse(PyObject *self, PyObject *args);
PyObject *gp_world_soup(PyObject *self, PyObject *args);
int gp_add_world(PyObject *module);

static PyMethodDef methods[] = {
    {"version", version, METH_NOARGS, "version() -> str: libgolgen's version"},
    {"emit", emit, METH_VARARGS,
     "emit(rule, target) -> str: the rule's kernel source for target 'c', "
     "'cuda', 'ptx' or 'opencl'"},
    {"empty", gp_empty, METH_VARARGS,
     "empty(rule) -> handle: an empty universe of a bounded rule's grid"},
    {"from_cells", gp_from_cells, METH_VARARGS,
     "from_cells(rule, cells) -> handle: cells a C-contiguous 2D uint8 "
     "array, nonzero alive"},
    {"from_bits", gp_from_bits, METH_VARARGS,
     "from_bits(rule, bits, width) -> handle: bits a C-contiguous 2D uint8 "
     "array of packed rows, least significant bit leftmost"},
    {"read", gp_read, METH_VARARGS,
     "read(path, rule) -> handle: a pattern file; rule None: the file's"},
    {"parse", gp_parse, METH_VARARGS,
     "parse(text, rule) -> handle: pattern text; rule None: the text's"},
    {"verify", (PyCFunction)(void (*)(void))gp_verify,
     METH_VARARGS | METH_KEYWORDS,
     "verify(rule, front=None, lib=None, cache_root=None) -> dict: the "
     "rule's circuit against its exhaustive truth table"},
    {"synth", (PyCFunction)(void (*)(void))gp_synth,
     METH_VARARGS | METH_KEYWORDS,
     "synth(rule, lib=None, front=None, cache_root=None, ...) -> dict: the "
     "fewest gates for the rule's final stage"},
    {"describe", gp_describe, METH_VARARGS,
     "describe(rule, rules_dir=None) -> str: as golgen rule prints it"},
    {"solver_available", gp_solver_available, METH_VARARGS,
     "solver_available(name='any') -> bool: this build has the SAT solver"},
    {"solver_version", solver_version, METH_NOARGS,
     "solver_version() -> str: the SAT solver built in, or 'none'"},
    {"backend_auto_order", backend_auto_order, METH_NOARGS,
     "backend_auto_order() -> str: the backends auto tries, '|'-joined"},
    {"backend_probes", backend_probes, METH_NOARGS,
     "backend_probes() -> str: a line a backend, 'usable' or why not"},
    {"store_info", gp_store_info, METH_VARARGS,
     "store_info(path) -> dict: a store's header"},
    {"store_export", gp_store_export, METH_VARARGS,
     "store_export(path, out, window or None): cells to a pattern file"},
    {"store_import", gp_store_import, METH_VARARGS,
     "store_import(pattern, rule or None, out): a pattern file stored"},
    {"read_store", gp_read_store, METH_VARARGS,
     "read_store(path) -> handle: a universe from a store"},
    {"run_3d", (PyCFunction)(void (*)(void))gp_run_3d,
     METH_VARARGS | METH_KEYWORDS,
     "run_3d(gens, pattern=None, resume=None, rule=None, ...) -> dict: a "
     "3D rule's run, as golgen run"},
    {"world_read", gp_world_read, METH_VARARGS,
     "world_read(path, rule=None) -> world handle: a pattern file of any "
     "family"},
    {"world_parse", gp_world_parse, METH_VARARGS,
     "world_parse(text, rule=None) -> world handle: pattern text"},
    {"world_soup", gp_world_soup, METH_VARARGS,
     "world_soup(rule, width, height, percent, seed) -> world handle"},
    {"read_pattern", gp_read_pattern, METH_VARARGS,
     "read_pattern(path, text, cells) -> capsule: a pattern read once"},
    {"pattern_info", gp_pattern_info, METH_VARARGS,
     "pattern_info(capsule) -> (rule, x, y, w, h, generation, form)"},
    {"run", (PyCFunction)(void (*)(void))gp_run,
     METH_VARARGS | METH_KEYWORDS,
     "run(gens, pattern=None, path=None, resume=None, ...) -> dict: a 2D "
     "rule's run, as golgen run"},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module_def = {
    PyModuleDef_HEAD_INIT, "golgen._golgen",
    "The C layer of golgen over libgolgen; use the golgen package.", -1,
    methods, NULL, NULL, NULL, NULL,
};

PyMODINIT_FUNC PyInit__golgen(void)
{
    import_array();
    PyObject *m = PyModule_Create(&module_def);
    if (!m)
        return NULL;
    if (gp_add_errors(m) || PyType_Ready(&gp_handle_type) ||
        PyModule_AddObjectRef(m, "Handle", (PyObject *)&gp_handle_type) ||
        gp_add_world(m)) {
        Py_DECREF(m);
        return NULL;
    }
    return m;
}

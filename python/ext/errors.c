/* golgen's error codes as Python exceptions: golgen.Error and one subclass
 * per GOLGEN_ERR_* code, each raised with golgen's own sentence. The
 * subclasses also derive from the builtin a Python caller would catch for
 * that kind of failure (ValueError for bad input, RuntimeError for a
 * machine that cannot run a backend). */
#include "ext.h"

static PyObject *error_base, *error_input, *error_env, *error_check;

PyObject *gp_raise(int code, const char *msg)
{
    PyObject *cls = code == GOLGEN_ERR_INPUT ? error_input
                    : code == GOLGEN_ERR_ENV ? error_env
                    : code == GOLGEN_ERR_CHECK ? error_check
                                               : error_base;
    if (msg && *msg)
        PyErr_SetString(cls, msg);
    else
        PyErr_Format(cls, "golgen failed with code %d and no message", code);
    return NULL;
}

/* One class with its `code` attribute, added to the module. */
static PyObject *add(PyObject *module, const char *name, const char *doc,
                     PyObject *bases, int code)
{
    char full[64];
    snprintf(full, sizeof full, "golgen.%s", name);
    PyObject *cls = PyErr_NewExceptionWithDoc(full, doc, bases, NULL);
    Py_XDECREF(bases);
    if (!cls)
        return NULL;
    PyObject *value = PyLong_FromLong(code);
    int bad = !value || PyObject_SetAttrString(cls, "code", value) ||
              PyModule_AddObjectRef(module, name, cls);
    Py_XDECREF(value);
    if (bad) {
        Py_DECREF(cls);
        return NULL;
    }
    return cls; /* the module holds a reference too; this one is ours */
}

int gp_add_errors(PyObject *module)
{
    error_base = add(module, "Error",
                     "Base of every error golgen raises; str(e) is golgen's "
                     "message (what is wrong and the fix).",
                     Py_NewRef(PyExc_Exception), 0);
    if (!error_base)
        return -1;
    error_input = add(module, "InputError",
                      "A bad rule, argument, pattern or file "
                      "(GOLGEN_ERR_INPUT).",
                      PyTuple_Pack(2, error_base, PyExc_ValueError),
                      GOLGEN_ERR_INPUT);
    error_env = add(module, "EnvError",
                    "The backend cannot run on this machine: no GPU, driver, "
                    "compiler or cache directory (GOLGEN_ERR_ENV).",
                    PyTuple_Pack(2, error_base, PyExc_RuntimeError),
                    GOLGEN_ERR_ENV);
    error_check = add(module, "CheckError",
                      "A kernel disagreed with the reference simulator or "
                      "failed its check (GOLGEN_ERR_CHECK).",
                      PyTuple_Pack(2, error_base, PyExc_RuntimeError),
                      GOLGEN_ERR_CHECK);
    return error_input && error_env && error_check ? 0 : -1;
}

int gp_idle(int busy, const char *what, const char *doing)
{
    if (!busy)
        return 1;
    PyErr_Format(PyExc_RuntimeError, "this %s is in use by another thread "
                 "(a %s or window read in flight); share it between "
                 "threads behind a threading.Lock", what, doing);
    return 0;
}

/* The universe constructors: from an empty grid, from numpy arrays (one
 * byte a cell, or packed bit rows) and from pattern files or text. The
 * Python layer converts what users pass into the exact arrays taken here,
 * so these only check and hand over. */
#include "ext.h"

/* A C-contiguous 2D uint8 array, or a TypeError naming what came. */
static PyArrayObject *plane(PyObject *obj, const char *what)
{
    if (!PyArray_Check(obj) || PyArray_NDIM((PyArrayObject *)obj) != 2 ||
        PyArray_TYPE((PyArrayObject *)obj) != NPY_UINT8 ||
        !PyArray_IS_C_CONTIGUOUS((PyArrayObject *)obj)) {
        PyErr_Format(PyExc_TypeError, "%s must be a C-contiguous 2D numpy "
                     "uint8 array (golgen.Universe converts for you)", what);
        return NULL;
    }
    return (PyArrayObject *)obj;
}

/* Wrap the universe or raise golgen's error; frees the rule. */
static PyObject *finish(int rc, golgen_universe *u, golgen_rule *rule,
                        const char *err)
{
    golgen_rule_free(rule);
    if (rc)
        return gp_raise(rc, err);
    PyObject *h = gp_handle_wrap(u);
    if (!h)
        golgen_universe_free(u);
    return h;
}

PyObject *gp_empty(PyObject *self, PyObject *args)
{
    PyObject *rule_obj;
    golgen_rule *rule;
    golgen_universe *u = NULL;
    char err[GP_ERRLEN];
    (void)self;
    if (!PyArg_ParseTuple(args, "O:empty", &rule_obj) ||
        gp_rule(rule_obj, 0, &rule))
        return NULL;
    int rc = golgen_universe_new(rule, &u, err, sizeof err);
    return finish(rc, u, rule, err);
}

PyObject *gp_from_cells(PyObject *self, PyObject *args)
{
    PyObject *rule_obj, *cells_obj;
    golgen_rule *rule;
    golgen_universe *u = NULL;
    char err[GP_ERRLEN];
    (void)self;
    if (!PyArg_ParseTuple(args, "OO:from_cells", &rule_obj, &cells_obj))
        return NULL;
    PyArrayObject *cells = plane(cells_obj, "cells");
    if (!cells || gp_rule(rule_obj, 0, &rule))
        return NULL;
    const uint8_t *data = PyArray_DATA(cells);
    int64_t h = PyArray_DIM(cells, 0), w = PyArray_DIM(cells, 1);
    int rc;
    Py_BEGIN_ALLOW_THREADS
    rc = golgen_universe_from_cells(rule, data, w, h, &u, err, sizeof err);
    Py_END_ALLOW_THREADS
    return finish(rc, u, rule, err);
}

PyObject *gp_from_bits(PyObject *self, PyObject *args)
{
    PyObject *rule_obj, *bits_obj;
    long long width;
    golgen_rule *rule;
    golgen_universe *u = NULL;
    char err[GP_ERRLEN];
    (void)self;
    if (!PyArg_ParseTuple(args, "OOL:from_bits", &rule_obj, &bits_obj,
                          &width))
        return NULL;
    PyArrayObject *bits = plane(bits_obj, "bits");
    if (!bits || gp_rule(rule_obj, 0, &rule))
        return NULL;
    const uint8_t *data = PyArray_DATA(bits);
    int64_t h = PyArray_DIM(bits, 0);
    size_t row_bytes = (size_t)PyArray_DIM(bits, 1);
    int rc;
    Py_BEGIN_ALLOW_THREADS
    rc = golgen_universe_from_bits(rule, data, width, h, row_bytes, &u, err,
                                   sizeof err);
    Py_END_ALLOW_THREADS
    return finish(rc, u, rule, err);
}

PyObject *gp_read(PyObject *self, PyObject *args)
{
    PyObject *path = NULL, *rule_obj;
    golgen_rule *rule;
    golgen_universe *u = NULL;
    char err[GP_ERRLEN];
    (void)self;
    /* str, bytes or os.PathLike, encoded as the file system wants */
    if (!PyArg_ParseTuple(args, "O&O:read", PyUnicode_FSConverter, &path,
                          &rule_obj))
        return NULL;
    if (gp_rule(rule_obj, 1, &rule)) {
        Py_DECREF(path);
        return NULL;
    }
    int rc;
    Py_BEGIN_ALLOW_THREADS
    rc = golgen_universe_read(rule, PyBytes_AS_STRING(path), &u, err,
                              sizeof err);
    Py_END_ALLOW_THREADS
    Py_DECREF(path);
    return finish(rc, u, rule, err);
}

PyObject *gp_parse(PyObject *self, PyObject *args)
{
    const char *text;
    Py_ssize_t len;
    PyObject *rule_obj;
    golgen_rule *rule;
    golgen_universe *u = NULL;
    char err[GP_ERRLEN];
    (void)self;
    if (!PyArg_ParseTuple(args, "s#O:parse", &text, &len, &rule_obj) ||
        gp_rule(rule_obj, 1, &rule))
        return NULL;
    int rc = golgen_universe_parse(rule, text, (size_t)len, &u, err,
                                   sizeof err);
    return finish(rc, u, rule, err);
}

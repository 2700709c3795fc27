/* Stores in C (libgolgen golgen_0.3): golgen.store_info, store_export,
 * store_import, and a universe from a store (Universe.read_store). Paths
 * are str, bytes or os.PathLike, encoded as the file system wants. */
#include "ext.h"

PyObject *gp_store_info(PyObject *self, PyObject *args)
{
    PyObject *path = NULL;
    golgen_store_info *s = NULL;
    char err[GP_ERRLEN];
    (void)self;
    if (!PyArg_ParseTuple(args, "O&:store_info", PyUnicode_FSConverter,
                          &path))
        return NULL;
    int rc = golgen_store_info_read(PyBytes_AS_STRING(path), &s, err,
                                    sizeof err);
    Py_DECREF(path);
    if (rc)
        return gp_raise(rc, err);
    PyObject *d = Py_BuildValue(
        "{s:s,s:s,s:i,s:L,s:L,s:L,s:i,s:L,s:L,s:L,s:L,s:i}", "rule",
        s->rule, "family", s->family,
        "version", s->version, "width", (long long)s->width, "height",
        (long long)s->height, "depth", (long long)s->depth, "planes",
        s->planes, "generation", (long long)s->generation, "x0",
        (long long)s->x0, "y0", (long long)s->y0, "bands",
        (long long)s->bands, "band_rows", s->band_rows);
    golgen_store_info_free(s);
    return d;
}

PyObject *gp_store_export(PyObject *self, PyObject *args)
{
    PyObject *path = NULL, *out = NULL, *win = Py_None;
    int64_t v[4];
    char err[GP_ERRLEN];
    (void)self;
    if (!PyArg_ParseTuple(args, "O&O&O:store_export", PyUnicode_FSConverter,
                          &path, PyUnicode_FSConverter, &out, &win))
        goto fail;
    if (win != Py_None) {
        long long x, y, w, h;
        if (!PyArg_ParseTuple(win, "LLLL:window", &x, &y, &w, &h))
            goto fail;
        v[0] = x, v[1] = y, v[2] = w, v[3] = h;
    }
    int rc;
    Py_BEGIN_ALLOW_THREADS
    rc = golgen_store_export(PyBytes_AS_STRING(path),
                             win == Py_None ? NULL : v,
                             PyBytes_AS_STRING(out), err, sizeof err);
    Py_END_ALLOW_THREADS
    Py_DECREF(path);
    Py_DECREF(out);
    if (rc)
        return gp_raise(rc, err);
    Py_RETURN_NONE;
fail:
    Py_XDECREF(path);
    Py_XDECREF(out);
    return NULL;
}

PyObject *gp_store_import(PyObject *self, PyObject *args)
{
    PyObject *in = NULL, *out = NULL;
    const char *rule = NULL;
    char err[GP_ERRLEN];
    (void)self;
    if (!PyArg_ParseTuple(args, "O&zO&:store_import", PyUnicode_FSConverter,
                          &in, &rule, PyUnicode_FSConverter, &out)) {
        Py_XDECREF(in);
        return NULL;
    }
    int rc;
    Py_BEGIN_ALLOW_THREADS
    rc = golgen_store_import(PyBytes_AS_STRING(in), rule,
                             PyBytes_AS_STRING(out), err, sizeof err);
    Py_END_ALLOW_THREADS
    Py_DECREF(in);
    Py_DECREF(out);
    if (rc)
        return gp_raise(rc, err);
    Py_RETURN_NONE;
}

PyObject *gp_read_store(PyObject *self, PyObject *args)
{
    PyObject *path = NULL;
    golgen_universe *u = NULL;
    char err[GP_ERRLEN];
    (void)self;
    if (!PyArg_ParseTuple(args, "O&:read_store", PyUnicode_FSConverter,
                          &path))
        return NULL;
    int rc;
    Py_BEGIN_ALLOW_THREADS
    rc = golgen_universe_read_store(PyBytes_AS_STRING(path), &u, err,
                                    sizeof err);
    Py_END_ALLOW_THREADS
    Py_DECREF(path);
    if (rc)
        return gp_raise(rc, err);
    PyObject *h = gp_handle_wrap(u);
    if (!h)
        golgen_universe_free(u);
    return h;
}

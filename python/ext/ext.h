/* Shared by the files of the golgen._golgen extension: the numpy C API's
 * one table of function pointers (imported once, in module.c), the
 * exception classes, and the universe handle type. */
#ifndef GP_EXT_H
#define GP_EXT_H

#define PY_SSIZE_T_CLEAN
#include <Python.h>

/* numpy's API table is a static per translation unit unless named: name it
 * so module.c imports it once and the other files share it. */
#define NPY_NO_DEPRECATED_API NPY_1_7_API_VERSION
#define PY_ARRAY_UNIQUE_SYMBOL gp_numpy_api
#ifndef GP_IMPORT_NUMPY
#define NO_IMPORT_ARRAY
#endif
#include <numpy/arrayobject.h>

#include "golgen.h"

/* golgen's messages are one sentence, but auto's backend line lists every
 * backend it passed over with the reason: leave room. */
#define GP_ERRLEN 2048

/* Raise the golgen.Error subclass for a GOLGEN_ERR_* code with golgen's
 * own message; returns NULL so callers can `return gp_raise(...)`. */
PyObject *gp_raise(int code, const char *msg);
/* Create the exception classes on the module (module.c). */
int gp_add_errors(PyObject *module);
/* 1 when a handle is not busy; else 0 with a RuntimeError: libgolgen
 * forbids overlapping calls on one handle (what: "universe", "world";
 * doing: what holds it, "run", "step"). */
int gp_idle(int busy, const char *what, const char *doing);

/* Parse a rule given as str (rule NULL when obj is None and allow_none). */
int gp_rule(PyObject *obj, int allow_none, golgen_rule **rule);

/* The universe handle (handle.c): owns one golgen_universe. */
extern PyTypeObject gp_handle_type;
PyObject *gp_handle_wrap(golgen_universe *u);

#endif

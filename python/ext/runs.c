/* Runs in C (libgolgen golgen_0.6): golgen.run_3d, what `golgen run` does
 * for a 3D rule, from an RLE3 file or a 3D store to RLE3, a store and
 * pictures. Paths are str, bytes or os.PathLike; the run releases the
 * GIL. */
#include "ext.h"

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

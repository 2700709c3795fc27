/* The registry: every backend golgen has, in one array. This is the one
 * place that knows backends by name; adding a backend is a new file
 * runtime/<name>_backend.c with its gg_backend_info and one line in the
 * list of runtime/meson.build. */
#include "backend.h"

#include <stdio.h>
#include <string.h>

/* GG_BACKEND_LIST_X is " X(reference) X(cpu) ...", generated from the
 * list in runtime/meson.build (the registry's one line per backend, which
 * also builds runtime/<name>_backend.c). */
#include "gg_backends.h"

#define X(name) extern const gg_backend_info gg_backend_##name;
GG_BACKEND_LIST_X
#undef X

#define X(name) &gg_backend_##name,
const gg_backend_info *const gg_backends[] = {GG_BACKEND_LIST_X NULL};
#undef X

/* --backend auto's candidates, fastest first (GG_BACKEND_AUTO_X, from the
 * second list in runtime/meson.build, which checks that each is in the
 * first). */
#define X(name) &gg_backend_##name,
const gg_backend_info *const gg_backends_auto[] = {GG_BACKEND_AUTO_X NULL};
#undef X

/* Names of the backends (all, or those with upload_cells) into buf. */
static void names_of(bool generations, const char *sep, char *buf,
                     size_t size)
{
    size_t n = 0;
    buf[0] = 0;
    for (int i = 0; gg_backends[i] && n < size; i++)
        if (!generations || gg_backends[i]->upload_cells)
            n += (size_t)snprintf(buf + n, size - n, "%s%s", n ? sep : "",
                                  gg_backends[i]->name);
}

void gg_backend_names(const char *sep, char *buf, size_t size)
{
    names_of(false, sep, buf, size);
}

void gg_backend_generations_names(const char *sep, char *buf, size_t size)
{
    names_of(true, sep, buf, size);
}

const gg_backend_info *gg_backend_find(const char *name, gg_err *err)
{
    for (int i = 0; gg_backends[i]; i++)
        if (!strcmp(name, gg_backends[i]->name))
            return gg_backends[i];
    char names[256];
    gg_backend_names(", ", names, sizeof names);
    gg_fail(err, "unknown backend '%s'; available: %s", name, names);
    return NULL;
}

const gg_backend_info *gg_backend_accepting(unsigned opt)
{
    for (int i = 0; gg_backends[i]; i++)
        if (gg_backends[i]->options & opt)
            return gg_backends[i];
    return NULL;
}

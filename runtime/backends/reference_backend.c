/* The reference backend: the scalar simulator every kernel is validated
 * against (runtime/reference/reference.h), behind the backend table. */
#include <stdio.h>
#include <stdlib.h>

#include "backend.h"
#include "reference.h"
#include "reference_gen.h"
#include "table_kernel.h"

typedef struct reference_state {
    gg_rule rule;
    gg_grid *grid; /* the uploaded grid, stepped in place */
    gg_gen_cells *cells; /* or the uploaded planes (Generations) */
    gg_topo topo;
} reference_state;

static int reference_probe(const gg_backend_opts *o, gg_err *err)
{
    (void)o;
    (void)err;
    return 0; /* plain C: runs wherever golgen runs */
}

static int reference_open(const gg_rule *rule, const gg_backend_opts *o,
                          void **state, gg_fail_kind *why, gg_err *err)
{
    (void)o;
    *why = GG_FAIL_ENV;
    reference_state *r = gg_alloc(1, sizeof *r, err, "reference backend");
    if (!r)
        return -1;
    r->rule = *rule;
    *state = r;
    return 0;
}

static int reference_upload(void *state, gg_grid *grid, gg_topo topo,
                            gg_err *err)
{
    (void)err;
    reference_state *r = state;
    r->grid = grid;
    r->topo = topo;
    return 0;
}

/* Checked between rows: one generation of a big grid takes seconds here. */
static int64_t reference_step_until(void *state, int64_t gens,
                                    gg_stop_flag *stop, gg_err *err)
{
    reference_state *r = state;
    if (r->cells)
        return gg_reference_gen_run_until(&r->rule, r->topo, r->cells, gens,
                                          stop, err);
    return gg_reference_run_until(&r->rule, r->topo, r->grid, gens, stop,
                                  err);
}

static int reference_step(void *state, int64_t gens, gg_err *err)
{
    return reference_step_until(state, gens, NULL, err) < 0 ? -1 : 0;
}

static int reference_download(void *state, gg_grid *grid, gg_err *err)
{
    (void)grid;
    (void)err;
    ((reference_state *)state)->grid = NULL;
    return 0;
}

static int reference_upload_cells(void *state, gg_gen_cells *cells,
                                  gg_topo topo, gg_err *err)
{
    (void)err;
    reference_state *r = state;
    r->cells = cells;
    r->topo = topo;
    return 0;
}

static int reference_download_cells(void *state, gg_gen_cells *cells,
                                    gg_err *err)
{
    (void)cells;
    (void)err;
    ((reference_state *)state)->cells = NULL;
    return 0;
}

/* Short batches: the scalar simulator is slow, progress stays lively. */
static int64_t reference_max_batch(void *state)
{
    (void)state;
    return 64;
}

static void reference_describe(void *state, gg_backend_desc *d)
{
    (void)state;
    snprintf(d->what, sizeof d->what, "scalar");
}

static void reference_close(void *state) { free(state); }

/* A rule table on the reference is the simulator the table universe
 * holds (runtime/reference/reference_table.h), which polls a stop inside
 * long calls: the kernel has no step of its own. */
static int reference_open_table(const gg_rulefile *rf, const char *name,
                                const gg_backend_opts *o, gg_table_kernel *k,
                                gg_fail_kind *why, gg_err *err)
{
    (void)rf, (void)name, (void)o, (void)why, (void)err;
    snprintf(k->what, sizeof k->what, "reference");
    return 0;
}

const gg_backend_info gg_backend_reference = {
    .name = "reference",
    .open_table = reference_open_table,
    .probe = reference_probe,
    .open = reference_open,
    .upload = reference_upload,
    .step = reference_step,
    .step_until = reference_step_until,
    .download = reference_download,
    .max_batch = reference_max_batch,
    .describe = reference_describe,
    .close = reference_close,
    .upload_cells = reference_upload_cells,
    .download_cells = reference_download_cells,
};

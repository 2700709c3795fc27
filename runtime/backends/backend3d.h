/* 3D totalistic rules (gen/rules/rule3d.h) on the backend table: a backend that
 * runs them has these entry points beside its gg_backend_info
 * (runtime/backends/backend.h), and the registry (backends.c) pairs the
 * two, so a 3D run picks its backend as a 2D one does, through the
 * table's entry (--backend NAME, or auto), never by name. What 3D runs do
 * not take yet (bands, streaming, ranks) is refused by gg_backend_takes.
 *
 * Life of an open 3D backend: open for a rule (its size and topology
 * included); step a grid of that size in place, as often as wanted;
 * close. */
#ifndef GG_BACKEND3D_H
#define GG_BACKEND3D_H

#include <stdbool.h>
#include <stdint.h>

#include "backend.h"
#include "backend_auto.h"
#include "grid3d.h"
#include "rule3d.h"

typedef struct gg_backend3d_info {
    /* Build (or load) and validate for rule; *state is the backend's. */
    int (*open)(const gg_rule3d *rule, const gg_backend_opts *o,
                void **state, gg_fail_kind *why, gg_err *err);
    /* gens generations of g in place, given up once *stop is set (NULL:
     * never) where the backend can (a slow generation); the generations
     * run, -1 on failure. */
    int64_t (*step_until)(void *state, gg_grid3d *g, bool torus,
                          int64_t gens, gg_stop_flag *stop, gg_err *err);
    /* Optional, device backends: one untimed generation, then gens timed
     * by the device (*seconds, transfers excluded). NULL: the host times
     * step_until. */
    int (*timed_step)(void *state, gg_grid3d *g, bool torus, int64_t gens,
                      double *seconds, gg_err *err);
    void (*describe)(void *state, gg_backend_desc *d);
    void (*close)(void *state);
} gg_backend3d_info;

/* The registry: info's 3D entry points, NULL when it runs no 3D rule. */
const gg_backend3d_info *gg_backend3d_of(const gg_backend_info *info);

typedef struct gg_backend3d gg_backend3d;

/* Open info (NULL: auto, the table's auto order less those without 3D
 * entry points; *line then says what it chose) for rule, whose topology
 * (torus or box) every step keeps. */
int gg_backend3d_open(const gg_backend_info *info, const gg_rule3d *rule,
                      const gg_backend_opts *o, gg_backend3d **out,
                      gg_auto_line *line, gg_fail_kind *why, gg_err *err);

/* gens generations of g (the rule's size) in place; fewer after *stop
 * is set (NULL: never): the generations run, -1 on failure. */
int64_t gg_backend3d_step_until(gg_backend3d *b, gg_grid3d *g, int64_t gens,
                                gg_stop_flag *stop, gg_err *err);

/* Bench: one untimed generation, then gens timed ones (the device's
 * clock where the backend has one, else the host's); g ends gens + 1
 * generations on. */
int gg_backend3d_bench(gg_backend3d *b, gg_grid3d *g, int64_t gens,
                       gg_backend_timing *t, gg_err *err);

/* Whether the device timed the bench (no host threads to report). */
bool gg_backend3d_on_device(const gg_backend3d *b);
void gg_backend3d_describe(gg_backend3d *b, gg_backend_desc *d);
const gg_backend_info *gg_backend3d_table(const gg_backend3d *b);
void gg_backend3d_close(gg_backend3d *b);

#endif

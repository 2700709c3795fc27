/* Helpers shared by the golgen subcommands. */
#ifndef GG_CLI_UTIL_H
#define GG_CLI_UTIL_H

#include <stdbool.h>
#include <stdint.h>

#include "backend.h"
#include "cli_args.h" /* the exit statuses */
#include "error.h"
#include "front.h"
#include "pattern.h"

/* Print "golgen <cmd>: <message>" on stderr and return status (nothing
 * for an empty message: another MPI rank said it, cli/run_ranks.h). */
int gg_cli_error(const char *cmd, int status, const gg_err *err);

/* A whole decimal number in [min, max]; fails naming the option. */
int gg_cli_int(const char *option, const char *text, int64_t min, int64_t max,
               int64_t *value, gg_err *err);

/* A duration in seconds: a finite decimal >= 0 and <= max; fails naming
 * the option (0 means "no limit" to the options that take one). */
int gg_cli_seconds(const char *option, const char *text, double max,
                   double *value, gg_err *err);

/* The registry's backend called name (runtime/backends/backend.h), or NULL for
 * auto (name "auto" or NULL: --backend not given); fails listing the
 * known ones. */
int gg_cli_backend(const char *name, const gg_backend_info **backend,
                   gg_err *err);

/* Open backend (NULL: auto, which says its choice on stderr in one line,
 * "golgen: backend auto -> cpu (...)"); on failure *status is the exit
 * status. */
int gg_cli_open_backend(const gg_backend_info *backend, const gg_rule *rule,
                        const gg_backend_opts *o, gg_backend **out,
                        int *status, gg_err *err);

/* "auto|reference|cpu|..." for usage texts. */
void gg_cli_backend_names(char *buf, size_t size);

/* --front's value, or the rule's own front (gen/circuits/front.h) when text is
 * NULL: the row sums for a totalistic rule, the cells for one whose
 * arrangement matters (Hensel, MAP). */
int gg_cli_front(const char *text, const gg_rule *rule, gg_front_kind *front,
                gg_err *err);

/* Pattern p into OUT, its format by OUT's name, or RLE on standard output
 * for "-" (what run writes at its end, for every family). */
int gg_cli_save_pattern(const char *out, const gg_pattern *p, gg_err *err);

/* Whether path names a macrocell file (".mc"): the hash tree writes those
 * from the tree at any size. */
bool gg_cli_named_mc(const char *path);

/* Whether the file begins as RLE3 does ("3D version=..."), whatever its
 * name (a 2D pattern called 3dglider.rle is not one; stdin is not
 * looked at). */
bool gg_cli_file_is_rle3(const char *path);

/* A window x,y,w,h: Golly coordinates of its top-left cell (within
 * Golly's +-2^31) and its sides (1 .. 2^31); errors name `option`. */
int gg_cli_window(const char *option, const char *arg, int64_t *x,
                  int64_t *y, int64_t *w, int64_t *h, gg_err *err);

/* A size in bytes: a number with an optional K, M, G or T (powers of
 * 1024) and B or iB, e.g. 8G, 512MiB, 65536. */
int gg_cli_bytes(const char *option, const char *text, int64_t *bytes,
                 gg_err *err);

/* One stderr line on how a --device-mem run streamed (nothing when the
 * grid fitted). */
void gg_cli_report_streaming(const gg_memory_stepper *m, const char *name);

#endif

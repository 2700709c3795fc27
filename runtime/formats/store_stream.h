/* Out-of-core runs (issue 17 part 2): a bounded universe too large for
 * host memory goes from one store to another band by band, never whole.
 * Each pass of T generations reads every band of rows with a halo of T
 * rows above and below (wrapping on the torus, stopping at the bounded
 * plane's edges) from the input store, steps it with any stepper, and
 * appends its clean interior to the output, whose checksums are computed
 * as the rows go out; the header follows last and the file is renamed
 * into place (runtime/base/atomic_file.h). Wrong values creep into a band from
 * its cut edges one row per generation (runtime/universes/band_stepper.h), so the
 * result is bit-identical to the run in memory, and its store byte-
 * identical to the one gg_store_write makes of that run.
 *
 * Every pass ends with the output committed: a pass is a checkpoint, and
 * the next pass reads the previous one's file through the descriptor it
 * opened, so the output may even be the input. Every input row is hashed
 * as it is read as a band's interior (each row is exactly once per pass)
 * and the pass is thrown away, naming the band, when a checksum fails:
 * the halo rows read before their check are checked before anything
 * built on them is committed. */
#ifndef GG_STORE_STREAM_H
#define GG_STORE_STREAM_H

#include <stdint.h>

#include "error.h"
#include "universe.h"

typedef struct gg_store_stream_opts {
    int64_t gens;       /* generations to run (0: copy, checking) */
    /* Host bytes for a band with its halo and the stepper's working copy
     * of it (a host backend steps beside it): a band is at most half. */
    int64_t host_bytes;
    /* After each pass (done, gens); false stops after that pass, whose
     * store is written. NULL: run to the end. */
    gg_progress_fn progress;
    void *progress_ctx;
} gg_store_stream_opts;

typedef struct gg_store_stream_stats {
    int64_t passes, bands; /* passes written, bands stepped */
    int64_t t, rows;       /* the first pass's generations and band rows */
    int64_t done;          /* generations run (fewer when stopped) */
    int64_t generation;    /* of the output store last written */
    int64_t population;    /* its live cells */
} gg_store_stream_stats;

/* Whether store `in` can be streamed within host_bytes (a bounded
 * universe, a band of at least 3 rows): checked again by
 * gg_store_stream, here for a caller to refuse before it opens a
 * backend. */
int gg_store_stream_check(const char *in, int64_t host_bytes, gg_err *err);

/* Run the universe of store `in` o->gens generations into store `out`
 * through `s`. Bounded universes only (:T or :P; the unbounded plane is
 * refused); fails with err (the output keeps the last pass written, or
 * is untouched if none was) on a damaged input, a band of fewer than 3
 * rows within o->host_bytes, or the stepper's failure. */
int gg_store_stream(const char *in, const char *out, const gg_stepper *s,
                    const gg_store_stream_opts *o, gg_store_stream_stats *st,
                    gg_err *err);

#endif

/* A grid cut into bands of rows held resident at once, one open backend
 * per band: one per GPU of a host, or several on one GPU (issue 17, part
 * 4; issue 20). Each band carries a halo of T rows above and below; the
 * bands advance T generations, then each halo is refreshed from its
 * neighbours' interiors, so a band's interior stays exact (the argument
 * of runtime/universes/band_stepper.h, without moving whole bands between the
 * calls). Bit-identical to stepping the whole grid, on the torus (bands
 * wrap) and on the bounded plane (the first and last bands stop at its
 * edges).
 *
 * Three ways, the best the backends allow:
 * - host backends (which step the grid in place) run one band after the
 *   other on host copies, halos copied on the host: how CI tests the
 *   runner without a GPU;
 * - device bands without band-to-band copies move halos through the
 *   host (rows op; `golgen bench --halos host` asks for this);
 * - device bands with peer_rows are views of the grid's own rows (no
 *   host copies; see view_layout in multi_band.c), copy halos band to
 *   band, and, with the queued ops, run every round behind its halo
 *   copies without the host waiting in between (the CUDA backend: peer
 *   copies and events; OpenCL, on PoCL in CI, does each at once).
 *
 * A grid too short for 3 rows a band uses fewer bands (the first
 * backends). Every band's backend must be open for the same rule. */
#ifndef GG_MULTI_BAND_H
#define GG_MULTI_BAND_H

#include <stdint.h>

#include "backend.h"
#include "universe.h"

typedef struct gg_band_set gg_band_set;

typedef struct gg_multi_band {
    gg_backend *const *b; /* one open backend per band */
    int n;
    int64_t t_max; /* most generations between exchanges; 0: the default */
    bool host_halos; /* halos through the host even where the backends
                        copy rows device to device (bench: to compare) */
    /* what ran (reports): exchanges of halos, and the seconds spent in
     * steps, in exchanges, and moving bands in and out */
    int64_t exchanges;
    double step_seconds, exchange_seconds, transfer_seconds;
    bool peer; /* the exchanges went device to device */
    gg_band_set *set; /* the bands resident now (upload .. download) */
    const gg_grid *held; /* the grid the stepper view holds (hold .. drop) */
} gg_multi_band;

/* The bands kept resident between calls, as one backend keeps one grid:
 * upload cuts grid into bands with halos of T rows and uploads them (the
 * host copies and the plan are kept from the last upload of a grid of the
 * same size and topology); step advances them (exchanging halos every T
 * generations); download writes the interiors back into grid (the size
 * uploaded); release frees the bands (close the backends after it). Bands
 * move in and out on threads of their own (device backends). A grid too
 * short for 3 rows a band uses fewer bands. */
int gg_multi_band_upload(gg_multi_band *m, gg_topo topo, const gg_grid *grid,
                         gg_err *err);
int gg_multi_band_step(gg_multi_band *m, int64_t gens, gg_err *err);
int gg_multi_band_download(gg_multi_band *m, gg_grid *grid, gg_err *err);
void gg_multi_band_release(gg_multi_band *m);

/* Bands that start empty, for a grid that lives on the devices alone
 * (runtime/universes/resident.h): start_empty makes every band all dead
 * there (device bands: the backend's upload_empty, no host copy; host
 * bands: zeroed host copies), put_rows places rows y .. y + h - 1 of the
 * whole grid (h = rows->height, rows of the grid's width) and refreshes
 * the halos, live_rows sets live[i] to 1 where the grid's row y + i holds
 * a live cell (device bands: a kernel there), get_rows brings rows of the
 * grid down into `rows`. Step with gg_multi_band_step; release as ever.
 * can_start_empty says whether m's backends can, for a grid of `height`
 * rows (device bands need the resident ops, and halos band to band when
 * more than one). */
bool gg_multi_band_can_start_empty(const gg_multi_band *m, int64_t height);
int gg_multi_band_start_empty(gg_multi_band *m, gg_topo topo, int64_t width,
                              int64_t height, gg_err *err);
int gg_multi_band_put_rows(gg_multi_band *m, const gg_grid *rows, int64_t y,
                           gg_err *err);
int gg_multi_band_live_rows(gg_multi_band *m, int64_t y, int64_t n,
                            uint8_t *live, gg_err *err);
int gg_multi_band_get_rows(gg_multi_band *m, gg_grid *rows, int64_t y,
                           gg_err *err);

/* The stepper over m's bands (upload, step and download each call, or
 * once for a run that holds its grid); m must outlive it, and
 * gg_multi_band_release frees what it kept. */
gg_stepper gg_multi_band_view(gg_multi_band *m);

#endif

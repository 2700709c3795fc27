/* Grids larger than the device (issue 17; seed 002, section 8): the grid
 * goes through the GPU in bands of rows, each with a halo of T rows above
 * and below, advanced T generations, its clean interior written back (the
 * argument of runtime/universes/band_stepper.h). Unlike that generic wrapper, the
 * transfers overlap the compute: two slots, each a band's pair of device
 * buffers, a stream and pinned staging rows. Band i + 1's upload and
 * generations are queued before the host waits for band i - 1 (the same
 * slot's last), so the device always has a band queued while the host
 * copies results out of staging and rows in, and the copy engines move
 * them. Host rows go into
 * device rows with 2D copies (a device row is the host row one 32-bit
 * ghost word in, runtime/gpu/gpu_layout.h). Staging, not pinning the grid:
 * pinning 64 GiB of grids took 19.8 s on the H100 host, longer than the
 * 1024 generations it served (BENCHMARKS.md). The grid is updated in
 * place (no second grid to allocate and fault in): a band's result goes
 * back only after the next band has read its halo, and the rows the last
 * band wraps to on the torus are kept aside first. Slots and staging stay
 * allocated on the backend for the next call (pinned allocation is slow). */
#include <stdlib.h>
#include <string.h>

#include "band_stepper.h"
#include "cuda_internal.h"
#include "universe.h"

#define SLOTS 2
#define BUFFERS (2 * SLOTS) /* each slot ping-pongs two buffers */

typedef struct slot {
    CUdeviceptr buf[2];
    CUstream stream;
    int64_t height; /* band rows the buffers hold (ghost rows below it
                       must read 0 on the plane: cleared on a change) */
    gg_grid up, down; /* pinned staging rows (bits from cuMemAllocHost) */
    CUevent uploaded;   /* `up` is free again (the last upload is done) */
    CUevent downloaded; /* `down` holds the last band's result */
    int64_t y0, y1;   /* rows of the result waiting in `down` (y0 == y1:
                         none) */
} slot;

/* What stays on the backend between calls (gg_cuda.streamer). */
struct gg_cuda_streamer {
    slot s[SLOTS];
    size_t bytes;    /* one device buffer (a full band) */
    int64_t stride;  /* of the staging rows */
    int64_t rows;    /* staging rows a slot holds */
};

typedef struct streamer {
    gg_cuda *c;
    gg_cuda_streamer *k;
    gg_stream_stats *stats;
    gg_topo topo;
    gg_grid *g;     /* advanced in place */
    gg_grid wrap;   /* rows 0 .. T - 1 as they were (torus) */
    size_t row_bytes;
} streamer;

/* Cells per row as 32-bit words: what a row copy moves. */
static size_t cell_bytes(const gg_grid *g)
{
    return (size_t)((g->width + 31) / 32) * sizeof(uint32_t);
}

int gg_cuda_copy_rows(gg_cuda *c, CUstream s, bool up, CUdeviceptr dev_row,
                      uint64_t *host_row, const gg_grid *host, int64_t rows,
                      gg_err *err)
{
    gg_cu_memcpy2d m;
    memset(&m, 0, sizeof m);
    size_t host_pitch = (size_t)host->stride * sizeof(uint64_t);
    size_t dev_pitch = (size_t)c->geom.ns * sizeof(uint32_t);
    dev_row += sizeof(uint32_t); /* past the ghost word */
    if (up) {
        m.srcMemoryType = GG_CU_MEMORYTYPE_HOST;
        m.srcHost = host_row;
        m.srcPitch = host_pitch;
        m.dstMemoryType = GG_CU_MEMORYTYPE_DEVICE;
        m.dstDevice = dev_row;
        m.dstPitch = dev_pitch;
    } else {
        m.srcMemoryType = GG_CU_MEMORYTYPE_DEVICE;
        m.srcDevice = dev_row;
        m.srcPitch = dev_pitch;
        m.dstMemoryType = GG_CU_MEMORYTYPE_HOST;
        m.dstHost = host_row;
        m.dstPitch = host_pitch;
    }
    m.WidthInBytes = cell_bytes(host);
    m.Height = (size_t)rows;
    return gg_cuda_check(c, c->cu.cuMemcpy2DAsync(&m, s),
                         up ? "row upload" : "row download", err);
}

/* Rows a .. b - 1 of the grid (wrapping on the torus) into rows of dst
 * from `at`, on all cores: the host's memory bandwidth is what feeds the
 * copy engines. Rows past the bottom come from the copy of the top rows
 * kept before the pass wrote them. */
static void gather(const streamer *st, int64_t a, int64_t b, gg_grid *dst)
{
    const gg_grid *g = st->g;
    size_t bytes = (size_t)g->stride * sizeof(uint64_t);
#pragma omp parallel for schedule(static)
    for (int64_t y = a; y < b; y++) {
        int64_t h = g->height;
        const uint64_t *src = y >= h ? gg_grid_row(&st->wrap, y - h)
                                     : gg_grid_row(g, ((y % h) + h) % h);
        memcpy(gg_grid_row(dst, y - a), src, bytes);
    }
}

/* What a slot's last band left in its staging, into the grid (after its
 * stream finished). */
static void flush(streamer *st, slot *sl)
{
    size_t bytes = (size_t)st->g->stride * sizeof(uint64_t);
    int64_t y0 = sl->y0;
#pragma omp parallel for schedule(static)
    for (int64_t y = y0; y < sl->y1; y++)
        memcpy(gg_grid_row(st->g, y), gg_grid_row(&sl->down, y - y0), bytes);
    sl->y0 = sl->y1 = 0;
}

/* Wait for slot sl's last band's download and put its result into the
 * grid. */
static int finish(streamer *st, slot *sl, gg_err *err)
{
    double t0 = gg_batch_clock();
    if (gg_cuda_check(st->c, st->c->cu.cuEventSynchronize(sl->downloaded),
                      "band download", err))
        return -1;
    double t1 = gg_batch_clock();
    flush(st, sl);
    st->stats->wait_seconds += t1 - t0;
    st->stats->copy_seconds += gg_batch_clock() - t1;
    return 0;
}

/* One band on slot sl: stage rows a .. z - 1 once the slot's last upload
 * is done, queue their upload and t generations, and only then wait for
 * the slot's last band and flush it, so the device has this band queued
 * while the host copies; last, queue the download of rows y0 .. y1 - 1
 * (the clean interior) into the staging just flushed. */
static int queue_band(streamer *st, slot *sl, int64_t a, int64_t z,
                      int64_t y0, int64_t y1, int64_t t, gg_err *err)
{
    gg_cuda *c = st->c;
    gg_gpu_geom g;
    double t0 = gg_batch_clock();
    if (gg_cuda_check(c, c->cu.cuEventSynchronize(sl->uploaded),
                      "band upload", err) ||
        gg_cuda_layout(c, st->g->width, z - a, &g, err))
        return -1;
    double t1 = gg_batch_clock();
    gather(st, a, z, &sl->up);
    st->stats->wait_seconds += t1 - t0;
    st->stats->copy_seconds += gg_batch_clock() - t1;
    gg_gpu_geom_plan(&g, c->tune.tmax, c->o.strip, c->resident);
    if (sl->height != z - a) {
        for (int i = 0; i < 2; i++)
            if (gg_cuda_check(c, c->cu.cuMemsetD8Async(sl->buf[i], 0,
                                                       st->k->bytes,
                                                       sl->stream),
                              "band clear", err))
                return -1;
        sl->height = z - a;
    }
    c->buf[0] = sl->buf[0];
    c->buf[1] = sl->buf[1];
    c->cur = 0;
    c->stream = sl->stream;
    c->geom = g;
    c->pbytes = st->k->bytes;
    if (gg_cuda_copy_rows(c, sl->stream, true,
                          sl->buf[0] + gg_gpu_geom_row0(&g),
                          gg_grid_row(&sl->up, 0), &sl->up, z - a, err) ||
        gg_cuda_check(c, c->cu.cuEventRecord(sl->uploaded, sl->stream),
                      "cuEventRecord", err) ||
        gg_cuda_launches(c, st->topo, t, err))
        return -1;
    CUdeviceptr done = c->buf[c->cur] + gg_gpu_geom_row0(&g);
    if (finish(st, sl, err)) /* the slot's last band, and its staging */
        return -1;
    sl->y0 = y0;
    sl->y1 = y1;
    return gg_cuda_copy_rows(c, sl->stream, false,
                             done + (CUdeviceptr)((y0 - a) *
                                                  (int64_t)st->row_bytes),
                             gg_grid_row(&sl->down, 0), &sl->down, y1 - y0,
                             err) ||
                   gg_cuda_check(c, c->cu.cuEventRecord(sl->downloaded,
                                                        sl->stream),
                                 "cuEventRecord", err)
               ? -1
               : 0;
}

/* One pass of p->t generations over every band, alternating slots. A
 * band's result is flushed when its slot comes round again, after the
 * next band read its halo (bands keep at least T rows: best_t). */
static int pass(streamer *st, const gg_band_plan *p, gg_err *err)
{
    int64_t h = st->g->height;
    bool torus = st->topo == GG_TOPO_TORUS;
    if (torus) /* the last band's bottom halo, before band 0 writes it */
        gather(st, 0, p->t < h ? p->t : h, &st->wrap);
    int k = 0;
    for (int64_t y0 = 0; y0 < h; y0 += p->rows, k ^= 1) {
        int64_t y1 = y0 + p->rows < h ? y0 + p->rows : h;
        int64_t a = y0 - p->t, z = y1 + p->t;
        if (!torus) { /* the plane's edges stay edges */
            a = a < 0 ? 0 : a;
            z = z > h ? h : z;
        }
        if (queue_band(st, &st->k->s[k], a, z, y0, y1, p->t, err))
            return -1;
        st->stats->bands++;
    }
    for (int i = 0; i < SLOTS; i++)
        if (finish(st, &st->k->s[i], err))
            return -1;
    gg_gpu_clear_tail(st->g); /* torus ghost cells land past the width */
    st->stats->passes++;
    return 0;
}

/* A grid header over pinned host memory (freed by gg_cuda_stream_free). */
static int staging(gg_cuda *c, const gg_grid *like, int64_t rows, gg_grid *g,
                   gg_err *err)
{
    void *p = NULL;
    g->width = like->width;
    g->height = rows;
    g->stride = like->stride;
    if (gg_cuda_check(c, c->cu.cuMemAllocHost(&p, (size_t)rows *
                                                      (size_t)like->stride *
                                                      sizeof(uint64_t)),
                      "cuMemAllocHost (staging)", err))
        return -1;
    g->bits = p;
    return 0;
}

void gg_cuda_stream_free(gg_cuda *c)
{
    gg_cuda_streamer *k = c->streamer;
    if (!k)
        return;
    for (int i = 0; i < SLOTS; i++) {
        slot *sl = &k->s[i];
        if (sl->stream)
            c->cu.cuStreamSynchronize(sl->stream);
        for (int b = 0; b < 2; b++)
            if (sl->buf[b])
                c->cu.cuMemFree(sl->buf[b]);
        if (sl->stream)
            c->cu.cuStreamDestroy(sl->stream);
        if (sl->uploaded)
            c->cu.cuEventDestroy(sl->uploaded);
        if (sl->downloaded)
            c->cu.cuEventDestroy(sl->downloaded);
        if (sl->up.bits)
            c->cu.cuMemFreeHost(sl->up.bits);
        if (sl->down.bits)
            c->cu.cuMemFreeHost(sl->down.bits);
    }
    free(k);
    c->streamer = NULL;
}

/* The slots for bands of `rows` rows and device buffers of `bytes`: the
 * ones from the last call when they fit, else new ones. */
static int open_slots(gg_cuda *c, const gg_grid *like, int64_t rows,
                      size_t bytes, gg_err *err)
{
    gg_cuda_streamer *k = c->streamer;
    if (k && k->bytes >= bytes && k->stride == like->stride &&
        k->rows >= rows)
        return 0;
    gg_cuda_stream_free(c);
    k = c->streamer = gg_alloc(1, sizeof *k, err, "GPU band slots");
    if (!k)
        return -1;
    k->bytes = bytes;
    k->stride = like->stride;
    k->rows = rows;
    for (int i = 0; i < SLOTS; i++) {
        slot *sl = &k->s[i];
        sl->height = -1;
        if (gg_cuda_check(c, c->cu.cuStreamCreate(&sl->stream,
                                                  GG_CU_STREAM_NON_BLOCKING),
                          "cuStreamCreate", err) ||
            gg_cuda_check(c, c->cu.cuEventCreate(&sl->uploaded,
                                                 GG_CU_EVENT_DISABLE_TIMING),
                          "cuEventCreate", err) ||
            gg_cuda_check(c, c->cu.cuEventCreate(&sl->downloaded,
                                                 GG_CU_EVENT_DISABLE_TIMING),
                          "cuEventCreate", err) ||
            gg_cuda_check(c, c->cu.cuMemAlloc(&sl->buf[0], bytes),
                          "cuMemAlloc (band)", err) ||
            gg_cuda_check(c, c->cu.cuMemAlloc(&sl->buf[1], bytes),
                          "cuMemAlloc (band)", err) ||
            staging(c, like, rows, &sl->up, err) ||
            staging(c, like, rows, &sl->down, err)) {
            gg_cuda_stream_free(c);
            return -1;
        }
    }
    return 0;
}

/* The cost model: cell updates the device does in the time the host and
 * the copy engines move one cell of a band down and back (an H100 does
 * ~4.5e13 updates/s; staging copies and PCIe move ~2e10 bytes/s, 1.6e11
 * cells/s). A pass of T generations over a band of `fit` rows with
 * `fit - 2T` clean ones then takes max(fit T, (2 fit - 2T) RATIO) and
 * yields (fit - 2T) T: T ~ 2 RATIO balances the two; more only grows the
 * halo, fewer leaves the device waiting. A band keeps at least T clean
 * rows (3T <= fit), so a halo reaches into its neighbours only (the
 * in-place pass relies on it). */
#define STREAM_RATIO 280.0

static int64_t best_t(int64_t fit, int64_t gens)
{
    double best = -1;
    int64_t bt = 1;
    for (int64_t t = 1; 3 * t <= fit && t <= gens; t++) {
        double rows = (double)(fit - 2 * t), f = (double)fit;
        double cost = f * (double)t > (f + rows) * STREAM_RATIO
                          ? f * (double)t
                          : (f + rows) * STREAM_RATIO;
        if (rows * (double)t / cost > best) {
            best = rows * (double)t / cost;
            bt = t;
        }
    }
    return bt;
}

/* The band plan within max_bytes for BUFFERS device buffers: T from the
 * cost model (best_t), spread evenly over the passes gens needs; *fit is
 * the rows a band may have. */
static int plan_bands(streamer *st, int64_t gens, int64_t max_bytes,
                      gg_band_plan *p, int64_t *fit, gg_err *err)
{
    gg_gpu_geom g;
    if (gg_cuda_layout(st->c, st->g->width, 1, &g, err))
        return -1;
    st->row_bytes = (size_t)g.ns * sizeof(uint32_t);
    *fit = max_bytes / BUFFERS / (int64_t)st->row_bytes - g.gtop - g.gbottom;
    if (gg_band_plan_for(st->g->width, st->g->height, gens,
                         *fit > 0 ? *fit * st->g->width : 0, p, err))
        return -1;
    int64_t t = best_t(*fit, gens);
    int64_t passes = (gens + t - 1) / t;
    p->t = (gens + passes - 1) / passes;
    p->rows = *fit - 2 * p->t;
    if (p->rows > st->g->height)
        p->rows = st->g->height;
    if (*fit > st->g->height + 2 * p->t)
        *fit = st->g->height + 2 * p->t;
    return 0;
}

/* The plan, the module for a full band (loaded and validated before any
 * stream runs: the last, shorter band keeps it, since the stride is the
 * width's), the slots and the copy of the wrapped rows. */
static int prepare_stream(streamer *st, int64_t gens, int64_t max_bytes,
                          gg_band_plan *p, gg_err *err)
{
    gg_cuda *c = st->c;
    gg_gpu_geom g;
    int64_t fit;
    if (plan_bands(st, gens, max_bytes, p, &fit, err) ||
        gg_cuda_layout(c, st->g->width, fit, &g, err) ||
        gg_cuda_module_for(c, &g, err))
        return -1;
    gg_cuda_free_buffers(c); /* validation's; the slots take the room */
    if (open_slots(c, st->g, fit, gg_gpu_geom_bytes(&g), err))
        return -1;
    st->k = c->streamer;
    return st->topo == GG_TOPO_TORUS
               ? gg_grid_init(&st->wrap, st->g->width, p->t, err)
               : 0;
}

int gg_cuda_stream_step(gg_cuda *c, gg_topo topo, gg_grid *grid,
                        int64_t gens, int64_t max_bytes,
                        gg_stream_stats *stats, gg_err *err)
{
    memset(stats, 0, sizeof *stats);
    gg_gpu_geom whole;
    if (c->np > 1)
        return gg_fail(err, "streaming in bands runs two-state rules only "
                       "so far; drop --device-mem for a Generations rule");
    gg_err ignored; /* a grid past 32-bit indexing fits no device */
    if (!gg_cuda_layout(c, grid->width, grid->height, &whole, &ignored) &&
        2 * (int64_t)gg_gpu_geom_bytes(&whole) <= max_bytes)
        return gg_cuda_step(c, topo, grid, gens, err); /* it fits */
    streamer st = {.c = c, .stats = stats, .topo = topo, .g = grid};
    gg_band_plan p = {0};
    double t0 = gg_batch_clock();
    int bad = prepare_stream(&st, gens, max_bytes, &p, err);
    stats->setup_seconds = gg_batch_clock() - t0;
    stats->t = p.t;
    stats->rows = p.rows;
    while (!bad && gens > 0) {
        if (p.t > gens)
            p.t = gens;
        bad = pass(&st, &p, err);
        gens -= p.t;
    }
    c->buf[0] = c->buf[1] = 0; /* the slots' (the resident path's are
                                  freed) */
    c->stream = NULL;
    gg_grid_free(&st.wrap);
    return bad;
}

/* The CUDA backend's side of bands on several devices (runtime/universes/multi_band.h):
 * halo rows copied from one band's device grid into another's, either
 * at once (peer_rows) or queued behind both bands' work so that a round
 * of steps follows the exchange without the host waiting in between
 * (queue_step, queue_peer_rows, finish). */
#include <stdlib.h>

#include "cuda_internal.h"

/* Once per pair, this context reaches from's device directly (NVLink or
 * PCIe peer to peer) where the pair allows it; where it does not,
 * cuMemcpyPeer still works, staged by the driver. */
static int reach_peer(gg_cuda *to, const gg_cuda *from, gg_err *err)
{
    uint64_t bit = 1ull << ((unsigned)from->dev & 63);
    if (to->ctx == from->ctx || (to->peers_tried & bit))
        return 0;
    to->peers_tried |= bit;
    int can = 0;
    if (gg_cuda_check(to, to->cu.cuDeviceCanAccessPeer(&can, to->dev,
                                                       from->dev),
                      "cuDeviceCanAccessPeer", err))
        return -1;
    CUresult r = can ? to->cu.cuCtxEnablePeerAccess(from->ctx, 0) : 0;
    return r == GG_CUDA_ERROR_PEER_ACCESS_ALREADY_ENABLED
               ? 0
               : gg_cuda_check(to, r, "cuCtxEnablePeerAccess", err);
}

/* Where rows at.. of `to` and src.. of `from` live, and their bytes. */
typedef struct rows_span {
    CUdeviceptr dst, src;
    size_t bytes;
} rows_span;

static int span(const gg_cuda *to, int64_t at, const gg_cuda *from,
                int64_t src, int64_t n, rows_span *sp, gg_err *err)
{
    if (to->geom.ns != from->geom.ns || to->np != from->np)
        return gg_fail(err, "rows between two bands need grids of one "
                       "width (%d and %d words a row)", (int)to->geom.ns,
                       (int)from->geom.ns);
    size_t rb = (size_t)to->geom.ns * sizeof(uint32_t);
    sp->dst = to->buf[to->cur] + gg_gpu_geom_row0(&to->geom) +
              (CUdeviceptr)((size_t)at * rb);
    sp->src = from->buf[from->cur] + gg_gpu_geom_row0(&from->geom) +
              (CUdeviceptr)((size_t)src * rb);
    sp->bytes = (size_t)n * rb;
    return 0;
}

int gg_cuda_table_peer_rows(void *state, int64_t at, void *from_state,
                            int64_t src, int64_t n, gg_err *err)
{
    gg_cuda *to = state, *from = from_state;
    rows_span sp = {0};
    if (span(to, at, from, src, n, &sp, err) ||
        gg_cuda_current(to, err) || reach_peer(to, from, err))
        return -1;
    CUresult r = to->ctx == from->ctx
                     ? to->cu.cuMemcpyDtoD(sp.dst, sp.src, sp.bytes)
                     : to->cu.cuMemcpyPeer(sp.dst, to->ctx, sp.src, from->ctx,
                                           sp.bytes);
    /* done on return: the exchange's time is its own, not the next step's */
    return gg_cuda_check(to, r, "peer row copy", err) ||
                   gg_cuda_check(to, to->cu.cuCtxSynchronize(),
                                 "peer row copy", err)
               ? -1
               : 0;
}

int gg_cuda_table_queue_step(void *state, int64_t gens, gg_err *err)
{
    gg_cuda *c = state;
    return gg_cuda_current(c, err) ||
                   gg_cuda_launches(c, c->topo, gens, err)
               ? -1
               : 0;
}

/* c's event *e, made on first use (c's context current). */
static int event(gg_cuda *c, CUevent *e, gg_err *err)
{
    return *e ? 0
              : gg_cuda_check(c, c->cu.cuEventCreate(
                                     e, GG_CU_EVENT_DISABLE_TIMING),
                              "cuEventCreate", err);
}

/* The copy waits for everything queued on `from` (its rows are final),
 * and `from` writes nothing more until the copy is done (its next steps
 * ping-pong over those rows). A stream waits only for an event's record
 * made before the wait was queued, so one event of each kind a band
 * serves every copy. */
int gg_cuda_table_queue_peer_rows(void *state, int64_t at, void *from_state,
                                  int64_t src, int64_t n, gg_err *err)
{
    gg_cuda *to = state, *from = from_state;
    const gg_cu_api *cu = &to->cu;
    rows_span sp = {0};
    if (span(to, at, from, src, n, &sp, err) ||
        gg_cuda_current(from, err) || event(from, &from->queued_done, err) ||
        gg_cuda_check(from, cu->cuEventRecord(from->queued_done,
                                              from->stream),
                      "cuEventRecord", err) ||
        gg_cuda_current(to, err) || reach_peer(to, from, err) ||
        gg_cuda_check(to, cu->cuStreamWaitEvent(to->stream,
                                                from->queued_done, 0),
                      "cuStreamWaitEvent", err))
        return -1;
    CUresult r = to->ctx == from->ctx
                     ? cu->cuMemcpyDtoDAsync(sp.dst, sp.src, sp.bytes,
                                             to->stream)
                     : cu->cuMemcpyPeerAsync(sp.dst, to->ctx, sp.src,
                                             from->ctx, sp.bytes, to->stream);
    return gg_cuda_check(to, r, "queued peer row copy", err) ||
                   event(to, &to->copy_done, err) ||
                   gg_cuda_check(to, cu->cuEventRecord(to->copy_done,
                                                       to->stream),
                                 "cuEventRecord", err) ||
                   gg_cuda_current(from, err) ||
                   gg_cuda_check(from, cu->cuStreamWaitEvent(
                                           from->stream, to->copy_done, 0),
                                 "cuStreamWaitEvent", err)
               ? -1
               : 0;
}

int gg_cuda_table_finish(void *state, gg_err *err)
{
    gg_cuda *c = state;
    return gg_cuda_current(c, err) ||
                   gg_cuda_check(c, c->cu.cuCtxSynchronize(), "band steps",
                                 err)
               ? -1
               : 0;
}

void gg_cuda_bands_free(gg_cuda *c)
{
    if (!c->ctx || (!c->queued_done && !c->copy_done) ||
        c->cu.cuCtxSetCurrent(c->ctx))
        return;
    if (c->queued_done)
        c->cu.cuEventDestroy(c->queued_done);
    if (c->copy_done)
        c->cu.cuEventDestroy(c->copy_done);
    c->queued_done = c->copy_done = NULL;
}

/* The CUDA backend's side of a grid that lives on the device alone
 * (runtime/universes/resident.h): an all-dead grid made there with no
 * host copy (upload_empty), rows moved between it and a small host grid
 * (rows_at: a pattern placed, the live rows brought down), and which rows
 * hold a live cell (live_rows), found by a kernel so that a 2 GiB grid is
 * read at the device's bandwidth and only its flags come down. */
#include <stdlib.h>

#include "cuda_device.h"
#include "cuda_internal.h"
#include "cuda_resident.h"

/* One warp per row: each lane ORs every 32nd word of the row's cells
 * (words 1 .. nw; the last masked by `tail`, since a torus's ghost cells
 * land past the width), the warp votes, lane 0 writes the row's flag.
 * Hand-written PTX, JIT-compiled by the driver: no NVRTC or ptxas needed,
 * whichever kernel language the backend uses. */
static const char live_ptx[] =
    ".version 7.0\n"
    ".target sm_70\n"
    ".address_size 64\n"
    ".visible .entry gg_live_rows(.param .u64 p_grid, .param .u64 p_flags,\n"
    "    .param .u32 p_rows, .param .u32 p_ns, .param .u32 p_nw,\n"
    "    .param .u32 p_tail)\n"
    "{\n"
    "    .reg .pred %p<4>;\n"
    "    .reg .b32 %r<16>;\n"
    "    .reg .b64 %rd<10>;\n"
    "    ld.param.u64 %rd1, [p_grid];\n"
    "    ld.param.u64 %rd2, [p_flags];\n"
    "    ld.param.u32 %r1, [p_rows];\n"
    "    ld.param.u32 %r2, [p_ns];\n"
    "    ld.param.u32 %r3, [p_nw];\n"
    "    ld.param.u32 %r4, [p_tail];\n"
    "    mov.u32 %r5, %ctaid.x;\n"
    "    mov.u32 %r6, %ntid.x;\n"
    "    mov.u32 %r7, %tid.x;\n"
    "    mad.lo.u32 %r8, %r5, %r6, %r7;\n"
    "    shr.u32 %r9, %r8, 5;\n"
    "    and.b32 %r10, %r8, 31;\n"
    "    setp.ge.u32 %p1, %r9, %r1;\n"
    "    @%p1 bra DONE;\n"
    "    mul.wide.u32 %rd3, %r9, %r2;\n"
    "    shl.b64 %rd3, %rd3, 2;\n"
    "    add.u64 %rd4, %rd1, %rd3;\n"
    "    mov.u32 %r11, 0;\n"
    "    add.u32 %r12, %r10, 1;\n"
    "LOOP:\n"
    "    setp.gt.u32 %p2, %r12, %r3;\n"
    "    @%p2 bra END;\n"
    "    mul.wide.u32 %rd5, %r12, 4;\n"
    "    add.u64 %rd6, %rd4, %rd5;\n"
    "    ld.global.u32 %r13, [%rd6];\n"
    "    setp.eq.u32 %p3, %r12, %r3;\n"
    "    @%p3 and.b32 %r13, %r13, %r4;\n"
    "    or.b32 %r11, %r11, %r13;\n"
    "    add.u32 %r12, %r12, 32;\n"
    "    bra LOOP;\n"
    "END:\n"
    "    setp.ne.u32 %p2, %r11, 0;\n"
    "    vote.sync.any.pred %p3, %p2, 0xffffffff;\n"
    "    setp.ne.u32 %p1, %r10, 0;\n"
    "    @%p1 bra DONE;\n"
    "    selp.u32 %r14, 1, 0, %p3;\n"
    "    cvt.u64.u32 %rd7, %r9;\n"
    "    add.u64 %rd8, %rd2, %rd7;\n"
    "    st.global.u8 [%rd8], %r14;\n"
    "DONE:\n"
    "    ret;\n"
    "}\n";

int gg_cuda_table_upload_empty(void *state, int64_t width, int64_t height,
                               gg_topo topo, gg_err *err)
{
    gg_cuda *c = state;
    if (topo != GG_TOPO_TORUS && topo != GG_TOPO_PLANE)
        return gg_fail(err, "the CUDA backend needs a torus or a plane");
    /* prepare reads only the size; both buffers then start dead */
    gg_grid size = {.width = width, .height = height};
    if (gg_cuda_current(c, err) ||
        gg_cuda_prepare(c, &size, c->o.strip, err))
        return -1;
    c->topo = topo;
    return gg_cuda_check(c, c->cu.cuMemsetD8(c->buf[c->cur], 0,
                                             c->pbytes * (size_t)c->np),
                         "cuMemset", err) ||
                   gg_cuda_check(c, c->cu.cuCtxSynchronize(), "upload", err)
               ? -1
               : 0;
}

int gg_cuda_table_rows_at(void *state, gg_grid *rows, int64_t y, bool up,
                          gg_err *err)
{
    gg_cuda *c = state;
    if (rows->width != c->geom.width || y < 0 ||
        y + rows->height > c->geom.height)
        return gg_fail(err, "rows %lld..%lld of width %lld lie outside the "
                       "resident %lldx%lld grid", (long long)y,
                       (long long)(y + rows->height - 1),
                       (long long)rows->width, (long long)c->geom.width,
                       (long long)c->geom.height);
    if (!rows->height)
        return 0;
    size_t rb = (size_t)c->geom.ns * sizeof(uint32_t);
    CUdeviceptr row = c->buf[c->cur] + gg_gpu_geom_row0(&c->geom) +
                      (CUdeviceptr)((size_t)y * rb);
    if (gg_cuda_current(c, err) ||
        gg_cuda_copy_rows(c, NULL, up, row, rows->bits, rows, rows->height,
                          err) ||
        gg_cuda_check(c, c->cu.cuCtxSynchronize(), "row copy", err))
        return -1;
    if (!up)
        gg_gpu_clear_tail(rows); /* torus ghost cells land there */
    return 0;
}

/* The kernel, loaded for this call: a run asks once, at its end. */
static int live_kernel(gg_cuda *c, CUmodule *mod, CUfunction *f,
                       gg_err *err)
{
    static const char *const names[] = {"gg_live_rows"};
    CUfunction *const fn[] = {f};
    return gg_cu_load_module(&c->cu, mod, live_ptx, "live-rows kernel", names,
                             fn, 1, err);
}

int gg_cuda_table_live_rows(void *state, int64_t y, int64_t n, uint8_t *live,
                            gg_err *err)
{
    gg_cuda *c = state;
    const gg_gpu_geom *g = &c->geom;
    if (y < 0 || n < 0 || y + n > g->height)
        return gg_fail(err, "rows %lld..%lld lie outside the resident grid "
                       "of %lld rows", (long long)y, (long long)(y + n - 1),
                       (long long)g->height);
    if (!n)
        return 0;
    CUmodule mod;
    CUfunction f;
    CUdeviceptr flags = 0;
    if (gg_cuda_current(c, err) || live_kernel(c, &mod, &f, err))
        return -1;
    int bad = gg_cuda_check(c, c->cu.cuMemAlloc(&flags, (size_t)n),
                            "cuMemAlloc", err);
    size_t rb = (size_t)g->ns * sizeof(uint32_t);
    CUdeviceptr grid = c->buf[c->cur] + gg_gpu_geom_row0(g) +
                       (CUdeviceptr)((size_t)y * rb);
    unsigned rows = (unsigned)n, ns = (unsigned)g->ns,
             nw = (unsigned)((g->width + 31) / 32),
             tail = g->width % 32 ? (1u << (g->width % 32)) - 1 : ~0u;
    void *a[] = {&grid, &flags, &rows, &ns, &nw, &tail};
    unsigned per_block = 8; /* rows (warps) a block */
    unsigned blocks = (unsigned)((n + per_block - 1) / per_block);
    bad = bad ||
          gg_cuda_check(c, c->cu.cuLaunchKernel(f, blocks, 1, 1,
                                                per_block * 32, 1, 1, 0,
                                                c->stream, a, NULL),
                        "gg_live_rows launch", err) ||
          gg_cuda_check(c, c->cu.cuCtxSynchronize(), "live rows", err) ||
          gg_cuda_check(c, c->cu.cuMemcpyDtoH(live, flags, (size_t)n),
                        "live rows", err);
    if (flags)
        c->cu.cuMemFree(flags);
    c->cu.cuModuleUnload(mod);
    return bad ? -1 : 0;
}

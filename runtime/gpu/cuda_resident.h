/* The CUDA and PTX backends' ops for a grid that lives on the device
 * alone (runtime/backends/backend.h: upload_empty, rows_at, live_rows;
 * runtime/gpu/cuda_resident.c). */
#ifndef GG_CUDA_RESIDENT_H
#define GG_CUDA_RESIDENT_H

#include <stdbool.h>
#include <stdint.h>

#include "error.h"
#include "grid.h"

int gg_cuda_table_upload_empty(void *state, int64_t width, int64_t height,
                               gg_topo topo, gg_err *err);
int gg_cuda_table_rows_at(void *state, gg_grid *rows, int64_t y, bool up,
                          gg_err *err);
int gg_cuda_table_live_rows(void *state, int64_t y, int64_t n, uint8_t *live,
                            gg_err *err);

#endif

"""Cells in and out: unpacked (one byte a cell) and packed (np.packbits
rows, bit order 'little' by default), placement and windows."""
import numpy as np
import pytest

import golgen
from conftest import GLIDER


@pytest.mark.parametrize("w,h", [(16, 8), (20, 13), (1, 1), (65, 3)])
def test_unpacked_round_trip(soup, w, h):
    grid = soup(h, w)
    u = golgen.Universe(f"B3/S23:T{w},{h}", cells=grid)
    out = u.cells
    assert out.dtype == np.uint8 and out.shape == (h, w)
    np.testing.assert_array_equal(out, grid)
    assert u.population == int(grid.sum())
    assert u.extent == (-(w // 2), -(h // 2), w, h)


@pytest.mark.parametrize("bitorder", ["little", "big"])
@pytest.mark.parametrize("w,h", [(16, 8), (21, 5), (7, 9)])
def test_packed_round_trip(soup, w, h, bitorder):
    grid = soup(h, w)
    bits = np.packbits(grid, axis=1, bitorder=bitorder)
    u = golgen.Universe(f"B3/S23:T{w},{h}", bits=bits, width=w,
                        bitorder=bitorder)
    np.testing.assert_array_equal(u.cells, grid)
    np.testing.assert_array_equal(u.packed(bitorder), bits)
    back = np.unpackbits(u.packed(bitorder), axis=1, count=w,
                         bitorder=bitorder)
    np.testing.assert_array_equal(back, grid)


def test_packed_width_defaults_to_whole_bytes(soup):
    grid = soup(6, 24)
    bits = np.packbits(grid, axis=1, bitorder="little")
    u = golgen.Universe("B3/S23:T24,6", bits=bits)
    np.testing.assert_array_equal(u.cells, grid)


def test_little_is_golgens_order():
    # bit 0 of the first byte is the leftmost cell
    u = golgen.Universe("B3/S23:T8,1", bits=np.array([[0b00000001]],
                                                     dtype=np.uint8))
    np.testing.assert_array_equal(u.cells, [[1, 0, 0, 0, 0, 0, 0, 0]])


def test_bool_and_numbers_in_nonzero_alive():
    grid = np.zeros((6, 6), dtype=bool)
    grid[2, 3] = True
    as_int = grid.astype(np.int64) * 255
    as_float = grid.astype(np.float32) * 0.5
    for cells in (grid, as_int, as_float, grid.tolist()):
        u = golgen.Universe("B3/S23:T6,6", cells=cells)
        np.testing.assert_array_equal(u.cells, grid.astype(np.uint8))


def test_non_contiguous_cells_are_copied():
    big = np.zeros((8, 16), dtype=np.uint8)
    big[::2, ::2] = 1
    view = big[:, ::2]  # every other column: not contiguous
    u = golgen.Universe("B3/S23:T8,8", cells=view)
    np.testing.assert_array_equal(u.cells, view)


def test_small_array_is_centred_as_golly_places_it():
    u = golgen.Universe("B3/S23:T8,8", cells=GLIDER)
    # an 8 x 8 torus spans -4..3; a 3 x 3 pattern's box starts at -1
    assert u.bbox == (-1, -1, 3, 3)
    np.testing.assert_array_equal(u.window(-1, -1, 3, 3), GLIDER)
    np.testing.assert_array_equal(u.cells[3:6, 3:6], GLIDER)


def test_window_outside_reads_zero():
    u = golgen.Universe("B3/S23:T4,4", cells=np.ones((4, 4), np.uint8))
    win = u.window(-3, -2, 6, 1)
    np.testing.assert_array_equal(win, [[0, 1, 1, 1, 1, 0]])
    assert u.window(0, 0, 0, 5).shape == (5, 0)


def test_empty_universe():
    u = golgen.Universe("B3/S23:T10,6")
    assert u.population == 0 and u.bbox is None
    assert u.cells.shape == (6, 10) and not u.cells.any()
    assert u.rule == "B3/S23:T10,6"

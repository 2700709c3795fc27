"""Runs against an independent numpy Life, and backends against each
other."""
import numpy as np
import pytest

import golgen
from conftest import GLIDER, life


def test_glider_on_torus_matches_numpy():
    grid = np.zeros((12, 16), dtype=np.uint8)
    grid[1:4, 2:5] = GLIDER
    u = golgen.Universe("B3/S23:T16,12", cells=grid)
    # 4 * 16 generations: around the torus and past the wrap in both axes
    for step in range(1, 9):
        u.run(8, backend="reference")
        assert u.generation == 8 * step
        np.testing.assert_array_equal(u.cells, life(grid, 8 * step))
    assert u.population == 5
    assert u.backend == "reference"


def test_soup_on_auto_matches_numpy(soup):
    grid = soup(96, 128)
    u = golgen.Universe("B3/S23:T128,96", cells=grid)
    u.run(150)  # backend "auto"
    assert u.backend in ("cpu", "cuda", "ptx", "opencl", "reference")
    assert u.backend_line.startswith("backend auto -> " + u.backend)
    np.testing.assert_array_equal(u.cells, life(grid, 150))


def test_bounded_plane_matches_numpy(soup):
    grid = soup(40, 50)
    u = golgen.Universe("B3/S23:P50,40", cells=grid).run(60, "reference")
    np.testing.assert_array_equal(u.cells, life(grid, 60, torus=False))


@pytest.mark.parametrize("rule", ["B3/S23:T90,70", "B36/S23:P64,48",
                                  "B2n3/S23-q:T60,60"])
def test_reference_and_cpu_agree(soup, rule):
    w, h = (int(v) for v in rule.split(":")[1][1:].split(","))
    grid = soup(h, w)
    ref = golgen.Universe(rule, cells=grid).run(200, "reference")
    cpu = golgen.Universe(rule, cells=grid).run(200, "cpu")
    assert cpu.backend == "cpu"
    assert ref.generation == cpu.generation == 200
    np.testing.assert_array_equal(ref.cells, cpu.cells)
    assert ref.population == cpu.population == int(ref.cells.sum())


def test_unbounded_glider_moves():
    u = golgen.Universe("B3/S23", cells=GLIDER)
    assert u.bbox == (0, 0, 3, 3)
    u.run(40, "reference")
    assert u.bbox == (10, 10, 3, 3)
    x, y, w, h = u.bbox
    np.testing.assert_array_equal(u.window(x, y, w, h), GLIDER)
    # cells covers the grid simulated now, which grew to hold the glider
    ex, ey, ew, eh = u.extent
    assert ex <= x and ey <= y and ex + ew >= x + w and ey + eh >= y + h
    assert u.cells.shape == (eh, ew) and u.cells.sum() == 5


def test_run_zero_opens_the_backend_and_chains():
    u = golgen.Universe("B3/S23:T8,8", cells=GLIDER)
    assert u.backend == "" and u.generation == 0
    assert u.run(0, "reference") is u
    assert u.backend == "reference" and u.generation == 0


def test_run_long_in_chunks_counts_every_generation():
    # more generations than the first chunk (64): the chunks must add up
    grid = np.zeros((10, 10), dtype=np.uint8)
    grid[4, 3:6] = 1  # a blinker: period 2
    u = golgen.Universe("B3/S23:T10,10", cells=grid).run(1001, "reference")
    assert u.generation == 1001
    np.testing.assert_array_equal(u.cells, grid.T)

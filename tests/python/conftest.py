"""Shared by the golgen Python tests: an independent Life step in numpy,
and the glider. The tests run against the installed module (pip install .),
never the checkout's python/ folder."""
import numpy as np
import pytest

GLIDER = np.array([[0, 1, 0],
                   [0, 0, 1],
                   [1, 1, 1]], dtype=np.uint8)


def life_step(a, torus=True):
    """One generation of B3/S23 on a torus (np.roll wraps) or, torus False,
    on a bounded plane (cells beyond the edge are dead)."""
    if not torus:  # a dead frame: the wrap then only meets dead cells
        return life_step(np.pad(a, 1))[1:-1, 1:-1]
    n = sum(np.roll(np.roll(a, dy, 0), dx, 1)
            for dy in (-1, 0, 1) for dx in (-1, 0, 1) if dy or dx)
    return ((n == 3) | ((a == 1) & (n == 2))).astype(np.uint8)


def life(a, gens, torus=True):
    for _ in range(gens):
        a = life_step(a, torus)
    return a


@pytest.fixture
def soup():
    """A reproducible random soup: soup(h, w) -> uint8 array, 0/1."""
    rng = np.random.default_rng(2026)
    return lambda h, w: (rng.random((h, w)) < 0.35).astype(np.uint8)

"""Engines (Universe.run(..., engine=...)): hashlife, tiles, dense and auto
end in the same cells, which an independent numpy Life agrees with; bad
names and combinations are refused by name."""
import numpy as np
import pytest

import golgen
from conftest import life

RPENT = np.array([[0, 1, 1],
                  [1, 1, 0],
                  [0, 1, 0]], dtype=np.uint8)


def trimmed(u):
    """The live cells' box and its cells."""
    box = u.bbox
    return box, u.window(*box)


@pytest.fixture(scope="module")
def rpent_tree():
    """The R-pentomino 3000 generations on: settled at 1103, 116 cells."""
    u = golgen.Universe("B3/S23", cells=RPENT).run(3000, engine="hashlife")
    assert u.engine == "hashlife" and u.generation == 3000
    assert u.population == 116
    return u


@pytest.mark.parametrize("backend,engine", [
    ("cpu", "dense"), ("cpu", "tiles"), ("reference", "hashlife"),
    ("auto", "auto"), (None, None)])
def test_engines_agree_on_the_plane(rpent_tree, backend, engine):
    u = golgen.Universe("B3/S23", cells=RPENT)
    u.run(3000, backend=backend, engine=engine)
    assert u.generation == 3000
    want = "hashlife" if engine in ("auto", None) else engine
    assert u.engine == want
    box, cells = trimmed(u)
    tree_box, tree_cells = trimmed(rpent_tree)
    assert box == tree_box
    np.testing.assert_array_equal(cells, tree_cells)


def test_tiles_and_dense_on_a_torus_agree_with_the_plane(rpent_tree):
    # 2048 wide: the gliders (some 750 cells out) never come round
    tree_box, tree_cells = trimmed(rpent_tree)
    for engine in ("tiles", "dense", "auto"):
        u = golgen.Universe("B3/S23:T2048,2048", cells=RPENT)
        u.run(3000, backend="cpu", engine=engine)
        assert u.engine == ("dense" if engine == "dense" else "tiles")
        (x, y, w, h), cells = trimmed(u)
        # placed centred: the top-left cell at (-1, -1), not (0, 0)
        assert (x + 1, y + 1, w, h) == tree_box
        np.testing.assert_array_equal(cells, tree_cells)


def test_hashlife_matches_numpy_on_the_plane(soup):
    grid = soup(24, 30)
    gens, pad = 120, 130  # nothing reaches the padded edge in 120 gens
    want = life(np.pad(grid, pad), gens, torus=False)
    u = golgen.Universe("B3/S23", cells=grid).run(gens, engine="hashlife")
    assert u.engine == "hashlife"
    got = u.window(-pad, -pad, want.shape[1], want.shape[0])
    np.testing.assert_array_equal(got, want)


def test_tiles_match_numpy_on_a_torus(soup):
    grid = soup(300, 320)
    u = golgen.Universe("B3/S23:T320,300", cells=grid)
    u.run(90, backend="reference", engine="tiles")
    assert u.engine == "tiles" and u.backend == "reference"
    np.testing.assert_array_equal(u.cells, life(grid, 90))


def test_hashlife_in_parts_and_engines_in_turn(rpent_tree):
    u = golgen.Universe("B3/S23", cells=RPENT)
    for n, engine in ((500, "hashlife"), (700, "tiles"), (800, "hashlife"),
                      (1000, "dense")):
        u.run(n, backend="cpu", engine=engine)
        assert u.engine == engine
    assert u.generation == 3000
    assert trimmed(u)[0] == trimmed(rpent_tree)[0]
    np.testing.assert_array_equal(trimmed(u)[1], trimmed(rpent_tree)[1])
    assert "engine dense" in repr(u)


def test_auto_chooses_once_for_the_whole_count(soup):
    # a box of 2^22 cells: dense (tiles on cpu) for fewer than 4x its side,
    # the tree for more; run() asks once, so its chunks do not change it
    u = golgen.Universe("B3/S23", cells=soup(2048, 2048))
    assert u._h.choose_engine(4 * 2048 - 1, "cpu") == "tiles"
    assert u._h.choose_engine(4 * 2048, "cpu") == "hashlife"
    small = golgen.Universe("B3/S23", cells=RPENT)
    assert small._h.choose_engine(1, None) == "hashlife"
    torus = golgen.Universe("B3/S23:T64,64", cells=RPENT)
    assert torus._h.choose_engine(10 ** 6, "reference") == "tiles"
    assert torus.engine == ""
    assert torus.run(0, backend="cpu").engine == "tiles"


def test_unknown_engine_is_refused_by_name():
    u = golgen.Universe("B3/S23", cells=RPENT)
    with pytest.raises(golgen.InputError, match="unknown engine 'quick'"):
        u.run(10, engine="quick")
    assert u.generation == 0 and u.engine == ""


def test_hashlife_refuses_a_bounded_grid():
    u = golgen.Universe("B3/S23:T64,64", cells=RPENT)
    with pytest.raises(golgen.InputError,
                       match="B3/S23:T64,64 is a bounded grid"):
        u.run(10, engine="hashlife")
    assert u.generation == 0


def test_tiles_on_a_device_backend_without_them_is_refused_or_cannot_run():
    u = golgen.Universe("B3/S23:T64,64", cells=RPENT)
    with pytest.raises((golgen.InputError, golgen.EnvError)) as e:
        u.run(1, backend="opencl", engine="tiles")
    if isinstance(e.value, golgen.InputError):
        assert "the opencl backend does not" in str(e.value)
    assert u.generation == 0


def test_a_result_too_large_for_the_grid_leaves_the_universe_as_it_was():
    gun = golgen.Universe.parse(
        "x = 36, y = 9, rule = B3/S23\n24bo$22bobo$12b2o6b2o12b2o$11bo3bo4b"
        "2o12b2o$2o8bo5bo3b2o$2o8bo3bob2o4bobo$10bo5bo7bo$11bo3bo$12b2o!\n")
    with pytest.raises(golgen.EnvError, match="more than the universe's"):
        gun._h.run(2 ** 40, "cpu", "hashlife")  # one call: no chunks
    assert gun.generation == 0 and gun.population == 36

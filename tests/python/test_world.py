"""golgen.World (libgolgen's worlds, golgen_0.8): every family the viewer
shows, loaded, stepped, read as arrays, edited; two-state against the
independent numpy Life, the others against golgen.Universe where it runs
them and against their own known behaviour."""
import numpy as np
import pytest

import golgen
from conftest import GLIDER, life

WIRE = "x = 8, y = 4, rule = WireWorld\n.BA4C$C6.C$.6C$8C!\n"


def glider_rle(rule):
    return f"x = 3, y = 3, rule = {rule}\nbo$2bo$3o!\n"


def test_torus_matches_numpy():
    w = golgen.World.parse(glider_rle("B3/S23:T16,12"))
    assert (w.family, w.topology, w.states) == ("two-state", "torus", 2)
    assert w.extent == (-8, -6, 16, 12)
    start = w.cells.copy()
    np.testing.assert_array_equal(start[5:8, 7:10], GLIDER)  # centred
    for k in range(1, 5):
        w.step(8)
        assert w.generation == 8 * k
        np.testing.assert_array_equal(w.cells, life(start, 8 * k))
    assert w.population == 5


def test_soup_and_backends_agree():
    a = golgen.World.soup("B3/S23:T96,64", 96, 64, percent=40, seed=7)
    b = golgen.World.soup("B3/S23:T96,64", 96, 64, percent=40, seed=7)
    start = a.cells.copy()
    assert abs(int(start.sum()) - 96 * 64 * 0.4) < 300
    a.step(50, backend="reference")
    b.step(50)
    np.testing.assert_array_equal(a.cells, b.cells)
    np.testing.assert_array_equal(a.cells, life(start, 50))


def test_plane_matches_universe():
    w = golgen.World.parse(glider_rle("B3/S23"))
    u = golgen.Universe.parse(glider_rle("B3/S23"))
    w.step(200)
    u.run(200)
    assert w.population == u.population == 5
    x, y, bw, bh = w.bbox
    np.testing.assert_array_equal(w.window(x, y, bw, bh),
                                  u.window(x, y, bw, bh))


def test_families():
    g = golgen.World.parse(glider_rle("23/3/4"))
    assert (g.family, g.states) == ("generations", 4)
    g.step(3)
    assert g.window(*g.bbox).max() >= 2  # dying states drawn as they are

    t = golgen.World.parse(WIRE)
    assert (t.family, t.states, t.topology) == ("table", 4, "plane")
    pop = t.population
    t.step(40)
    assert t.population == pop  # WireWorld keeps its copper

    ltl = golgen.World.soup("R5,C0,M1,S34..58,B34..45,NM:T64,64", 64, 64,
                            45, 9)
    assert ltl.family == "ltl"
    ltl.step(5)
    assert ltl.generation == 5

    flat = golgen.World.soup("B3/S23:T16,16", 16, 16, 40, 2)
    d = flat.with_rule("3D4/4:T16")
    assert (d.family, d.depth, d.z) == ("3d", 16, 8)
    np.testing.assert_array_equal(d.cells, flat.cells)
    d.z = "sum"
    assert d.z == "sum"
    d.z = 3
    assert d.population == flat.population
    d.step(2)
    assert d.generation == 2


def test_edits_and_text(tmp_path):
    w = golgen.World.parse(glider_rle("B3/S23"))
    w[100, -50] = 1
    assert w[100, -50] == 1
    assert w.population == 6
    with pytest.raises(golgen.InputError, match="states 0 .. 1"):
        w[0, 0] = 2
    w.paste("x = 2, y = 1\n2o!", 10, 10)
    assert w[10, 10] == w[11, 10] == 1
    back = golgen.World.parse(w.format("rle"))
    assert back.population == w.population == 8
    w.write(tmp_path / "w.mc")
    assert golgen.World.read(tmp_path / "w.mc").population == 8
    shades = w.render(0, -64, 2, 2, level=6)
    assert shades.shape == (2, 2) and shades.max() > 0
    w.clear()
    assert w.population == 0 and w.bbox is None


def test_refusals():
    with pytest.raises(golgen.InputError, match="Larger than Life"):
        golgen.World.parse(glider_rle("B3/S23"), "R2,C0,M1,S2..3,B3..3,NX")
    with pytest.raises(golgen.InputError):
        golgen.World.parse(glider_rle("B3/S23")).step(1, backend="nope")
    with pytest.raises(golgen.InputError, match="soups are 2D"):
        golgen.World.soup("3D4/4:T8", 8, 8)
    with pytest.raises(TypeError):
        golgen.World("B3/S23")
    # a plane past a world's grid, said in the library's words (not the
    # viewer's), with the way round: 2^34 cells in a 131073-cell square
    far = "x = 131073, y = 131073, rule = B3/S23\no$131071$131072bo!\n"
    with pytest.raises(golgen.InputError,
                       match=r"a world holds an unbounded plane up to 2\^30 "
                             r"cells \(golgen run --gens N"):
        golgen.World.parse(far)

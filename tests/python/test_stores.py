"""Stores from Python (libgolgen golgen_0.3): a checkpoint written part way
and resumed ends where conftest's numpy Life step ends; a pattern stored,
described and exported reads back the same cells."""
import os
import sys

import numpy as np
import pytest

import golgen
from conftest import GLIDER, life

sys.path.insert(0, os.path.join(os.path.dirname(__file__), ".."))
from png_decode import png_decode, png_samples  # noqa: E402  (tests/)


def test_checkpoint_and_resume(tmp_path, soup):
    cells = soup(24, 32)
    u = golgen.Universe("B3/S23:T32,24", cells)
    u.run(13, backend="reference")
    u.write_store(tmp_path / "ck.ggu")
    v = golgen.Universe.read_store(tmp_path / "ck.ggu")
    assert v.generation == 13 and v.rule == "B3/S23:T32,24"
    v.run(19, backend="reference")
    assert v.generation == 32
    assert np.array_equal(v.cells, life(cells, 32))


def test_import_info_export(tmp_path):
    (tmp_path / "g.rle").write_text("x = 3, y = 3, rule = B3/S23\n"
                                    "bo$2bo$3o!\n")
    golgen.store_import(tmp_path / "g.rle", tmp_path / "g.ggu",
                        rule="B3/S23:T16,16")
    info = golgen.store_info(tmp_path / "g.ggu")
    assert (info["rule"], info["width"], info["height"], info["depth"],
            info["planes"], info["generation"]) == ("B3/S23:T16,16", 16, 16,
                                                    0, 1, 0)
    assert (info["x0"], info["y0"]) == (-8, -8)
    assert info["family"] == "two-state"
    golgen.store_export(tmp_path / "g.ggu", tmp_path / "out.rle")
    back = golgen.Universe.read(tmp_path / "out.rle", "B3/S23:T16,16")
    stored = golgen.Universe.read_store(tmp_path / "g.ggu")
    assert np.array_equal(back.cells, stored.cells)
    x, y, w, h = stored.bbox
    assert (w, h) == (3, 3)
    assert np.array_equal(stored.window(x, y, 3, 3), GLIDER)
    golgen.store_export(tmp_path / "g.ggu", tmp_path / "win.rle",
                        window=(x, y, 2, 3))
    part = golgen.Universe.read(tmp_path / "win.rle")
    assert part.population == int(GLIDER[:, :2].sum())


def test_larger_than_life_store(tmp_path):
    """An LtL pattern stored names its family and its states' planes."""
    (tmp_path / "j.rle").write_text("x = 3, y = 1, rule = "
                                    "R2,C3,M1,S3..9,B3..6,NM:T40,30\n"
                                    "ABA!\n")
    golgen.store_import(tmp_path / "j.rle", tmp_path / "j.ggu")
    info = golgen.store_info(tmp_path / "j.ggu")
    assert (info["family"], info["rule"], info["planes"], info["width"],
            info["height"]) == ("Larger than Life",
                                "R2,C3,M1,S3..9,B3..6,NM:T40,30", 2, 40, 30)


def test_errors(tmp_path):
    with pytest.raises(golgen.InputError, match="nowhere"):
        golgen.store_info(tmp_path / "nowhere.ggu")
    with pytest.raises(golgen.InputError):
        golgen.Universe.read_store(tmp_path / "nowhere.ggu")
    (tmp_path / "g.rle").write_text("x = 1, y = 1\no!\n")
    with pytest.raises(golgen.InputError, match="Q"):
        golgen.store_import(tmp_path / "g.rle", tmp_path / "x.ggu",
                            rule="B3/S2Q")


def read_png(path):
    """Width, height and luminance rows of a PNG golgen wrote
    (tests/png_decode.py: greyscale or palette of any bit depth, or 8-bit
    RGB)."""
    w, h, depth, colour, palette, lines = png_decode(path.read_bytes())
    if colour == 2:
        return w, h, [[sum(line[i:i + 3]) // 3 for i in range(0, 3 * w, 3)]
                      for line in lines]
    top = (1 << depth) - 1
    lum = []
    for line in lines:
        values = png_samples(line, w, depth)
        lum.append([sum(palette[v]) // 3 for v in values] if colour == 3
                   else [v * 255 // top for v in values])
    return w, h, lum


def test_png(tmp_path, soup):
    cells = soup(24, 32)
    u = golgen.Universe("B3/S23:T32,24", cells)
    info = u.write_png(tmp_path / "a.png")
    assert info == {"x": -16, "y": -12, "w": 32, "h": 24, "scale": 1,
                    "zoom": 1}
    w, h, lum = read_png(tmp_path / "a.png")
    assert (w, h) == (32, 24)
    assert np.array_equal((np.array(lum) > 127).astype(np.uint8), cells)
    info = u.write_png(tmp_path / "b.png", window=(-16, -12, 8, 4), zoom=3)
    w, h, lum = read_png(tmp_path / "b.png")
    assert (w, h, info["zoom"]) == (24, 12, 3)
    big = (np.array(lum) > 127).astype(np.uint8)
    assert np.array_equal(big[::3, ::3], cells[:4, :8])

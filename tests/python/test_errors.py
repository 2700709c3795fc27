"""Failures raise golgen.Error subclasses by libgolgen's codes, carrying
golgen's own sentence."""
import pathlib
import shutil

import numpy as np
import pytest

import golgen


def test_classes_and_codes():
    assert issubclass(golgen.InputError, golgen.Error)
    assert issubclass(golgen.InputError, ValueError)
    assert issubclass(golgen.EnvError, golgen.Error)
    assert issubclass(golgen.CheckError, golgen.Error)
    assert (golgen.InputError.code, golgen.EnvError.code,
            golgen.CheckError.code) == (-1, -2, -3)


def test_bad_rule_names_the_problem():
    with pytest.raises(golgen.InputError) as e:
        golgen.Universe("B3/S2Q:T8,8")
    assert "Q" in str(e.value) and len(str(e.value)) > 20


def test_unknown_backend_lists_the_known_ones():
    u = golgen.Universe("B3/S23:T8,8")
    with pytest.raises(golgen.InputError, match="reference"):
        u.run(1, backend="warp-drive")
    assert u.generation == 0


def test_negative_generations():
    with pytest.raises(golgen.InputError, match="negative"):
        golgen.Universe("B3/S23:T8,8").run(-1)


def test_missing_file_is_named(tmp_path):
    path = tmp_path / "nowhere.rle"
    with pytest.raises(golgen.InputError, match="nowhere.rle"):
        golgen.Universe.read(path)


def test_bad_pattern_text():
    with pytest.raises(golgen.InputError) as e:
        golgen.Universe.parse("x = 3, y = 3\nbo$2bo$3o")  # no '!'
    assert str(e.value)


def test_unbounded_rule_needs_cells():
    with pytest.raises(golgen.InputError) as e:
        golgen.Universe("B3/S23")
    assert str(e.value)


def test_generations_rule_is_refused_with_the_way_out():
    with pytest.raises(golgen.InputError, match="Generations"):
        golgen.Universe("23/3/3:T8,8", cells=np.ones((2, 2)))


def test_array_shape_and_arguments():
    with pytest.raises(golgen.InputError, match="2D"):
        golgen.Universe("B3/S23:T8,8", cells=np.ones(8))
    with pytest.raises(golgen.InputError, match="not both"):
        golgen.Universe("B3/S23:T8,8", cells=np.ones((2, 2)),
                        bits=np.ones((2, 1), np.uint8))
    with pytest.raises(golgen.InputError, match="bitorder"):
        golgen.Universe("B3/S23:T8,8", bits=np.ones((2, 1), np.uint8),
                        bitorder="middle")
    with pytest.raises(golgen.InputError, match="width 9 needs 2 bytes"):
        golgen.Universe("B3/S23:T8,8", bits=np.ones((2, 1), np.uint8),
                        width=9)
    with pytest.raises(golgen.InputError, match="negative"):
        golgen.Universe("B3/S23:T8,8").window(0, 0, -1, 2)


def test_emit_unknown_target():
    with pytest.raises(golgen.InputError, match="available: c, cuda"):
        golgen.emit("B3/S23", "fortran")


def test_a_gpu_backend_without_a_gpu_is_an_environment_error():
    u = golgen.Universe("B3/S23:T64,64")
    try:
        u.run(1, backend="cuda")
    except golgen.EnvError as e:
        assert "CUDA" in str(e) or "cuda" in str(e)
        return
    pytest.skip("this machine runs CUDA: no environment error to see")


def test_rule_must_be_a_string():
    with pytest.raises(TypeError, match="rule is a str"):
        golgen.Universe(3)


def test_a_damaged_network_cache_is_a_check_error(tmp_path, monkeypatch):
    # A copy of the installed cache with one LUT of Life's network changed:
    # libgolgen verifies every entry it loads and names the file.
    cache = pathlib.Path(golgen.__file__).parent / "generated"
    shutil.copytree(cache, tmp_path / "generated")
    entry = tmp_path / "generated/networks/rowsum/lut3/B3_S23.net"
    text = entry.read_text()
    assert "g5 = lut3 0xa8 C g0 g4" in text
    entry.write_text(text.replace("0xa8 C g0 g4", "0xa9 C g0 g4"))
    monkeypatch.setenv("GOLGEN_GENERATED", str(tmp_path / "generated"))
    with pytest.raises(golgen.CheckError, match="B3_S23.net is rejected"):
        golgen.emit("B3/S23", "c")
    with pytest.raises(golgen.CheckError, match="synth --force"):
        golgen.Universe("B3/S23:T64,64").run(1, backend="cpu")

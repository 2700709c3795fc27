"""Pattern files and text, kernels, the version, and the installed
module's network cache."""
import os
import pathlib
import re
import subprocess
import sys

import numpy as np
import pytest

import golgen
from conftest import GLIDER

ROOT = pathlib.Path(__file__).resolve().parents[2]


@pytest.mark.parametrize("name", ["out.rle", "out.cells", "out.lif",
                                  "out.mc"])
def test_write_and_read_back(tmp_path, soup, name):
    grid = soup(20, 30)
    u = golgen.Universe("B3/S23:T30,20", cells=grid).run(7, "reference")
    path = tmp_path / name
    u.write(path)
    back = golgen.Universe.read(str(path), rule="B3/S23:T30,20")
    # files hold the live cells trimmed: compare the boxes
    x, y, w, h = u.bbox
    bx, by, bw, bh = back.bbox
    assert (bw, bh) == (w, h)
    np.testing.assert_array_equal(back.window(bx, by, bw, bh),
                                  u.window(x, y, w, h))


def test_read_takes_the_files_rule_unless_given(tmp_path):
    path = tmp_path / "g.rle"
    path.write_text("x = 3, y = 3, rule = B36/S23:T16,16\nbo$2bo$3o!\n")
    assert golgen.Universe.read(path).rule == "B36/S23:T16,16"
    assert golgen.Universe.read(path, rule="B3/S23:T8,8").rule == \
        "B3/S23:T8,8"


def test_parse_and_format():
    u = golgen.Universe.parse("x = 3, y = 3\nbo$2bo$3o!", rule="B3/S23:T8,8")
    np.testing.assert_array_equal(u.window(-1, -1, 3, 3), GLIDER)
    assert u.format("cells").splitlines()[-3:] == [".O", "..O", "OOO"]
    assert "3o!" in u.format()


def test_emit_ptx_and_c():
    ptx = golgen.emit("B3/S23", "ptx")
    assert ".entry" in ptx and ".version" in ptx
    c = golgen.emit("B36/S23", "c")
    assert "B36/S23" in c


def test_version_is_the_projects():
    text = (ROOT / "meson.build").read_text()
    want = re.search(r"version\s*:\s*'([^']+)'", text).group(1)
    assert golgen.version() == want == golgen.__version__


def test_installed_not_the_checkout():
    # the tests exercise what pip installed, not python/golgen/ in place
    here = pathlib.Path(golgen.__file__).resolve()
    assert ROOT / "python" not in here.parents


def test_network_cache_is_installed_with_the_module(tmp_path):
    # A fresh interpreter outside the checkout, GOLGEN_GENERATED unset: the
    # module points it at its own copy, and Life's network is there.
    env = {k: v for k, v in os.environ.items() if k != "GOLGEN_GENERATED"}
    code = ("import golgen, os; print(os.environ['GOLGEN_GENERATED']); "
            "print(os.path.dirname(golgen.__file__))")
    out = subprocess.run([sys.executable, "-c", code], cwd=tmp_path, env=env,
                         capture_output=True, text=True, check=True)
    cache, package = out.stdout.split("\n")[:2]
    assert cache == os.path.join(package, "generated")
    assert os.path.isfile(os.path.join(cache, "networks", "rowsum", "lut3",
                                       "B3_S23.net"))


def test_a_set_cache_is_kept(tmp_path):
    env = dict(os.environ, GOLGEN_GENERATED=str(tmp_path))
    code = "import golgen, os; print(os.environ['GOLGEN_GENERATED'])"
    out = subprocess.run([sys.executable, "-c", code], cwd=tmp_path, env=env,
                         capture_output=True, text=True, check=True)
    assert out.stdout.strip() == str(tmp_path)

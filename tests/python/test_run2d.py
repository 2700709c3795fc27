"""A 2D rule's run from Python (libgolgen golgen_0.7): patterns read once
(a macrocell's tree, a sparse RLE's runs, cells), and golgen.run of every
family, whose engines write the same cells; a run and its resumed halves
agree; bad input raises InputError."""
import pytest

import golgen

ACORN = "#CXRLE Pos=-3,-1\nx = 7, y = 3, rule = B3/S23\nbo5b$3bo3b$2o2b3o!\n"
WIRE = "x = 6, y = 3, rule = WireWorld\n.4C$C4.C$.BA2C!\n"
LTL = "x = 5, y = 5, rule = R2,C0,M0,S2..3,B3..3,NM\nbo$2bo$3o$$5o!\n"


def test_patterns(tmp_path):
    (tmp_path / "sparse.rle").write_text(
        "x = 4000, y = 4000, rule = B3/S23\nbo$2bo$3o!\n")
    p = golgen.Pattern(tmp_path / "sparse.rle")
    assert (p.form, p.rule, p.box) == ("runs", "B3/S23", (0, 0, 4000, 4000))
    assert golgen.Pattern(tmp_path / "sparse.rle", cells=True).form == \
        "cells"
    a = golgen.Pattern(text=ACORN)
    assert (a.form, a.box, a.generation) == ("cells", (-3, -1, 7, 3), 0)
    with pytest.raises(golgen.InputError):
        golgen.Pattern(tmp_path / "none.rle")
    with pytest.raises(golgen.InputError):
        golgen.Pattern(text="x = 2, y = 1\n2%!\n")


def test_default_pattern():
    res = golgen.run(1103)
    assert (res["generation"], res["population"]) == (1103, 116)
    assert res["engine"] == "hashlife"
    assert res["summary"].startswith("B3/S23: generation 1103, "
                                     "population 116")
    assert "golgen: engine auto -> hashlife (unbounded plane)" in \
        res["lines"]


@pytest.mark.parametrize("text,rule,gens,family", [
    (ACORN, None, 200, "two-state"),
    (ACORN.replace("B3/S23", "23/3/3"), "/2/3", 30, "generations"),
    (WIRE, None, 20, "table"),
])
def test_engines_agree(tmp_path, text, rule, gens, family):
    (tmp_path / "in.rle").write_text(text)
    outs = []
    for engine in ("dense", "hashlife"):
        out = tmp_path / (engine + ".rle")
        res = golgen.run(gens, tmp_path / "in.rle", rule=rule,
                         backend="reference", engine=engine, out=out)
        assert res["family"] == family
        outs.append(out.read_text())
    assert outs[0] == outs[1]
    # a Pattern runs as its file does
    res = golgen.run(gens, golgen.Pattern(text=text), rule=rule,
                     backend="reference", out=tmp_path / "p.rle")
    assert (tmp_path / "p.rle").read_text() == outs[0]


def test_ltl_and_resume(tmp_path):
    (tmp_path / "in.rle").write_text(LTL)
    rule = "R2,C0,M0,S2..3,B3..3,NM:T32,32"
    whole = golgen.run(20, tmp_path / "in.rle", rule=rule, backend="reference",
                       out=tmp_path / "whole.rle")
    assert whole["family"] == "ltl"
    golgen.run(12, tmp_path / "in.rle", rule=rule, backend="reference",
               store=tmp_path / "half.ggu", checkpoint_every=5)
    rest = golgen.run(8, resume=tmp_path / "half.ggu", backend="reference",
                      out=tmp_path / "rest.rle")
    assert rest["reached"] == 8
    assert (tmp_path / "rest.rle").read_text() == \
        (tmp_path / "whole.rle").read_text()


def test_bad_input(tmp_path):
    with pytest.raises(golgen.InputError, match="or auto"):
        golgen.run(1, backend="nope")
    with pytest.raises(golgen.InputError, match="does not take stores"):
        golgen.run(1, engine="hashlife", store=tmp_path / "s.ggu")
    with pytest.raises(golgen.InputError):
        golgen.run(1, tmp_path / "none.rle")

"""A 3D rule's run from Python (libgolgen golgen_0.6): a run of 6
generations and one of 3 resumed from its store for 3 more end alike, as
`golgen run` of a 3D rule does; bad input raises InputError."""
import pytest

import golgen

SEED = ("3D version=1 size=16 pos=6,6,6 gen=7\n"
        "x=4 y=4 z=4 rule=3D4/4\nobbo$b2o$obo$3o/2obo$bob$o2bo$bo/"
        "b3o$obbo$2o$bobo/o$2obo$b2o$obo!\n")


def test_run_and_resume_agree(tmp_path):
    (tmp_path / "g.rle3").write_text(SEED)
    whole = golgen.run_3d(6, pattern=tmp_path / "g.rle3", rule="3D4/4:T16",
                          backend="reference")
    assert (whole["backend"], whole["generation"], whole["reached"]) == (
        "reference", 13, 6)
    assert whole["population"] > 0
    half = golgen.run_3d(3, pattern=tmp_path / "g.rle3", rule="3D4/4:T16",
                         backend="reference", out=tmp_path / "h.rle3",
                         store=tmp_path / "h.ggu", checkpoint_every=2)
    assert half["generation"] == 10
    assert (tmp_path / "h.rle3").read_text().startswith("3D version=1")
    assert golgen.store_info(tmp_path / "h.ggu")["depth"] == 16
    rest = golgen.run_3d(3, resume=tmp_path / "h.ggu", backend="reference")
    assert (rest["generation"], rest["population"]) == (
        whole["generation"], whole["population"])


def test_bad_input(tmp_path):
    (tmp_path / "g.rle3").write_text(SEED)
    with pytest.raises(golgen.InputError, match="does not fit"):
        golgen.run_3d(1, pattern=tmp_path / "g.rle3", rule="3D4/4:T2")
    with pytest.raises(golgen.InputError, match="or auto"):
        golgen.run_3d(1, pattern=tmp_path / "g.rle3", backend="nope")
    with pytest.raises(golgen.InputError):
        golgen.run_3d(1)  # neither a pattern nor a store

"""golgen.about (libgolgen's golgen_0.5): what this build has, as `golgen
--version` says it."""
import pytest

import golgen


def test_about_names_the_solver_and_backends():
    a = golgen.about()
    assert a["version"] == golgen.version()
    assert a["solver"]
    assert a["auto"][-2:] == ["cpu", "reference"]
    assert a["backends"]["reference"] == "usable"
    assert set(a["auto"]) <= set(a["backends"])


def test_a_bad_environment_is_an_input_error(monkeypatch):
    monkeypatch.setenv("GOLGEN_FALLBACK_WORK", "many")
    with pytest.raises(golgen.InputError, match="GOLGEN_FALLBACK_WORK"):
        golgen.about()

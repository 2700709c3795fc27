"""golgen.verify and golgen.synth (libgolgen's golgen_0.3): the networks
synth returns are read back from their text and evaluated here on every
neighbourhood against the rule's B/S counts, an oracle that shares no
code with golgen; what synth stores, verify and synth find again."""
import itertools

import pytest

import golgen

NEEDS_SOLVER = pytest.mark.skipif(not golgen.solver_available(),
                                  reason="this golgen has no SAT solver")


def evaluate(network, inputs):
    """The network text's output for a dict of input name -> 0/1."""
    value = dict(inputs)
    out = None
    for line in network.splitlines():
        words = line.split()
        if words[0] == "inputs":
            assert words[1:] == list(inputs)
        elif words[0] == "out":
            name = words[1]
            out = (int(name) if name in ("0", "1")
                   else value[name.lstrip("~")] ^ name.startswith("~"))
        else:
            name, _, op, *args = words
            if op == "lut3":
                lut = int(args[0], 16)
                a, b, c = (value[x] for x in args[1:])
                value[name] = lut >> (a << 2 | b << 1 | c) & 1
            elif op == "not":
                value[name] = 1 - value[args[0]]
            else:
                x, y = value[args[0]], value[args[1]]
                value[name] = {"and": x & y, "or": x | y, "xor": x ^ y,
                               "andnot": x & (1 - y)}[op]
    return out


def assert_rule(network, birth, survive):
    """network (front "none": inputs NW N NE W E SW S SE C) is the rule."""
    names = "NW N NE W E SW S SE C".split()
    for bits in itertools.product((0, 1), repeat=9):
        cells = dict(zip(names, bits))
        count = sum(bits[:8])
        want = int(count in (survive if cells["C"] else birth))
        assert evaluate(network, cells) == want, (bits, network)


def test_verify_life():
    r = golgen.verify("B3/S23")
    assert r["passed"] and r["dims"] == 2 and r["rows"] == 512
    assert (r["front"], r["lib"], r["rule"]) == ("rowsum", "lut3", "B3/S23")
    assert r["cached"] and r["proven"] and r["final_gates"]["total"] == 6
    assert sum(r["final_gates"]["kinds"].values()) == 6
    assert r["ops_per_word"] == r["front_per_word"] + 6
    assert r["cache_path"].endswith("rowsum/lut3/B3_S23.net")


def test_verify_families():
    g = golgen.verify("23/3/3")
    assert g["passed"] and g["generations"]["states"] == 3
    h = golgen.verify("B2n3/S23-q", front="none", lib="gate2")
    assert h["passed"] and h["front"] == "none" and h["lib"] == "gate2"
    d = golgen.verify("3D5..7/6")
    assert d["passed"] and d["dims"] == 3 and d["rows"] == 54


def test_verify_errors():
    with pytest.raises(golgen.InputError, match="lut4"):
        golgen.verify("B3/S23", lib="lut4")
    with pytest.raises(golgen.InputError):
        golgen.verify("B3/S2x")


def test_synth_cached_life_agrees_with_verify():
    s = golgen.synth("B3/S23")
    v = golgen.verify("B3/S23")
    assert s["cached"] and s["proven"]
    assert s["gates"] == v["final_gates"]["total"] == s["lower_bound"]
    assert s["ops_per_word"] == sum(s["ops"].values())
    assert s["network"].startswith("inputs sT cT sM cM sB cB C\n")


@NEEDS_SOLVER
def test_synth_stores_and_finds(tmp_path):
    r = golgen.synth("B1/S1", lib="gate2", front="none", cache_root=tmp_path,
                     time_limit=4, resynth_time=0.5, threads=1)
    assert not r["cached"] and r["front"] == "none"
    assert_rule(r["network"], {1}, {1})
    assert r["gates"] == sum(1 for line in r["network"].splitlines()
                             if " = " in line)
    again = golgen.synth("B1/S1", lib="gate2", front="none",
                         cache_root=tmp_path)
    assert again["cached"] and again["network"] == r["network"]
    v = golgen.verify("B1/S1", front="none", lib="gate2",
                      cache_root=tmp_path)
    assert v["passed"] and v["cached"]
    assert v["final_gates"]["total"] == r["gates"]


@NEEDS_SOLVER
def test_synth_not_stored(tmp_path):
    r = golgen.synth("B2/S", front="none", cache_root=tmp_path, store=False,
                     time_limit=3, threads=1)
    assert_rule(r["network"], {2}, set())
    assert not list(tmp_path.rglob("*.net"))


def test_synth_errors():
    with pytest.raises(golgen.InputError, match="B3/S23"):
        golgen.synth("23/3/3")  # Generations: search its two-state rule
    with pytest.raises(golgen.InputError, match="k-min"):
        golgen.synth("B3/S23", k_min=6, k_max=5)
    with pytest.raises(golgen.InputError, match="minisat"):
        golgen.synth("B3/S23", solver="minisat")
    with pytest.raises(TypeError):
        golgen.synth("B3/S23", lib=3)


@NEEDS_SOLVER
def test_synth_ctrl_c_keeps_the_best_network(tmp_path):
    """SIGINT during a search (no time limit) stops it: the best network
    so far comes back, stopped and unproven, and is right."""
    import os
    import signal
    import threading
    timer = threading.Timer(1.5, os.kill, (os.getpid(), signal.SIGINT))
    timer.start()
    try:
        r = golgen.synth("B36/S23", front="none", cache_root=tmp_path,
                         time_limit=0, threads=1, store=False)
    finally:
        timer.cancel()
    assert r["stopped"] and not r["proven"]
    assert_rule(r["network"], {3, 6}, {2, 3})


def test_describe():
    d = golgen.describe("B3/S23")
    # 56 dead cells with 3 of 8 neighbours, 28 + 56 live ones with 2 or 3
    assert "512 rows (centre + 8 neighbours), 140 on\n" in d
    assert d.startswith("rule:           B3/S23\n")
    assert "Larger than Life, range 5" in golgen.describe(
        "R5,C0,M1,S34..58,B34..45,NM")
    with pytest.raises(golgen.InputError, match="nor a rule file"):
        golgen.describe("NoSuchRuleAnywhere")

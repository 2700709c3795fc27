"""A rule's gate networks: what `golgen verify` and `golgen synth` do.

    golgen.verify("B3/S23")["passed"]          # True
    r = golgen.synth("B36/S23", lib="gate2", time_limit=60)
    r["gates"], r["proven"], r["network"]      # the network as text

Both return plain dicts (their keys below); failures raise golgen.Error
subclasses with golgen's sentence. Networks are read from and stored in
the network cache ($GOLGEN_GENERATED/networks, or `cache_root`).
"""
from ._golgen import describe as _describe
from ._golgen import solver_available as _solver_available
from ._golgen import synth as _synth, verify as _verify

__all__ = ["describe", "verify", "synth", "solver_available"]


def describe(rule, rules_dir=None):
    """What golgen understands of a rule string, as `golgen rule` prints
    it: "label: value" lines (rule, transition, kind, neighbourhood,
    topology, birth, survival, truth table, final stage, backends, ...)
    for B/S rules, Generations, Larger than Life, 3D.lua rules and Golly
    rule files (NAME.rule in rules_dir, then /usr/share/golly/Rules)."""
    return _describe(rule, None if rules_dir is None else str(rules_dir))


def verify(rule, front=None, lib=None, cache_root=None):
    """Build the circuit `rule`'s kernel gets (front end and final stage;
    a Generations rule's per-cell stage after it; a 3D rule's stage over
    the neighbour count) and check it on every neighbourhood.

    front: "rowsum", "rowsum-lr", "rowsum+cells" or "none" (None: the
    rule's own); lib: "lut3" (None) or "gate2". Returns a dict: passed,
    dims (2 or 3), rule, neighbours, rows, wrong, first_bad (-1: none),
    source (where the final stage came from), final_gates ({"total": n,
    "kinds": {"lut3": n, ...}}); for 2D rules also front, lib, proven,
    cached, lower_bound, cache_path (None unless cached), search (the
    solver's per-k log), front_gates, front_per_word, rows_shared,
    ops_per_word, shifts_per_word, and for Generations rules
    "generations" (states, planes, proven, alive, next gates); for 3D
    rules count_bits. Raises CheckError when a cached network fails its
    own check."""
    return _verify(rule, front, lib, None if cache_root is None
                   else str(cache_root))


def synth(rule, lib=None, front=None, cache_root=None, time_limit=600.0,
          k_time_limit=0.0, shape_time_limit=0.0, resynth_time=10.0,
          resynth_leaves=6, threads=0, k_min=0, k_max=0, init_rows=0,
          force=False, resume=False, store=True, solver=None,
          progress=False):
    """The fewest gates of `lib` ("lut3" or "gate2") computing `rule`'s
    final stage: the cache's entry when it has one (unless force or
    resume), else an exact SAT search from the best known network, stored
    in the cache unless store is False. time_limit (seconds, 0: none)
    bounds the whole run; a search cut short returns its best network,
    unproven, and caches what was proven; so does Ctrl-C (the result then
    says "stopped": True, and the KeyboardInterrupt is answered by it).
    progress=True prints golgen synth's progress lines on stderr.

    Returns a dict: rule, front, lib, gates, proven, lower_bound,
    output_inverted, cached, exact, stopped, start, seconds, search,
    per_k (a list of {k, status, seconds, conflicts, shapes,
    shapes_total}), ops_per_word and ops ({shifts, front, final, not}),
    left (what a proof still needs: {k, shapes, times_k6, at_least}),
    proof (when part of the next k is shown impossible), network (text:
    "inputs ...", "gK = op args", "out gK"). Raises EnvError without the
    solver (solver_available()), CheckError for a damaged cache entry
    (force=True replaces it)."""
    return _synth(rule, lib, front, None if cache_root is None
                  else str(cache_root), float(time_limit),
                  float(k_time_limit), float(shape_time_limit),
                  float(resynth_time), int(resynth_leaves), int(threads),
                  int(k_min), int(k_max), int(init_rows), bool(force),
                  bool(resume), bool(store), solver, bool(progress))


def solver_available(name="any"):
    """Whether this golgen has the SAT solver `name` ("any", "cms",
    "cadical"): synth needs one unless the cache has the answer."""
    return _solver_available(name)

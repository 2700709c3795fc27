"""golgen: cellular-automaton rules compiled to kernels, from Python.

    import golgen, numpy as np
    u = golgen.Universe("B3/S23:T1024,1024", cells=arr)  # 2D, nonzero alive
    u.run(1000)                                          # backend "auto"
    u.cells                                              # 2D uint8, 0/1
    w = golgen.World.read("loop.rle")    # any family: tables, LtL, 3D...
    w.step(100).window(-8, -8, 16, 16)                   # states, uint8
    golgen.verify("B3/S23")["passed"]                    # True
    golgen.synth("B36/S23")["gates"]                     # fewest LUT3s
    golgen.run(5206, "acorn.rle", out="a.mc")["population"]  # golgen run

Errors are golgen.Error subclasses carrying golgen's own message:
InputError (also a ValueError), EnvError and CheckError (also
RuntimeErrors); each class has the libgolgen code it stands for in `code`.

Network cache: libgolgen reads its verified gate networks from
$GOLGEN_GENERATED. The package carries a copy of the checkout's
generated/networks and, when GOLGEN_GENERATED is unset or empty at import,
sets it to that copy (child processes inherit it), so the module works
after the checkout is gone. Set GOLGEN_GENERATED yourself to use another
cache, e.g. the checkout's generated/ after `golgen synth` added to it.
"""
import os as _os

_CACHE = _os.path.join(_os.path.dirname(__file__), "generated")
if not _os.environ.get("GOLGEN_GENERATED") and _os.path.isdir(_CACHE):
    _os.environ["GOLGEN_GENERATED"] = _CACHE

from ._golgen import CheckError, EnvError, Error, InputError  # noqa: E402
from ._golgen import emit as _emit, version as _version  # noqa: E402
from ._golgen import backend_auto_order as _auto_order  # noqa: E402
from ._golgen import backend_probes as _probes  # noqa: E402
from ._golgen import solver_version as _solver_version  # noqa: E402
from .networks import describe, solver_available, synth, verify  # noqa: E402
from .stores import store_export, store_import, store_info  # noqa: E402
from .runs import Pattern, run, run_3d  # noqa: E402
from .universe import Universe  # noqa: E402
from .world import World  # noqa: E402

__all__ = ["Universe", "World", "emit", "version", "about", "describe",
           "verify", "synth",
           "solver_available", "store_info", "store_export", "store_import",
           "Pattern", "run", "run_3d",
           "Error", "InputError", "EnvError",
           "CheckError"]


def version():
    """libgolgen's version, e.g. '0.1.0'."""
    return _version()


def emit(rule, target):
    """The kernel source of `rule` (str, Golly notation) for target 'c',
    'cuda', 'ptx' or 'opencl', as `golgen --target` prints it."""
    return _emit(rule, target)


def about():
    """What this golgen has, as `golgen --version` says it: a dict of
    "version", "solver" (e.g. 'CryptoMiniSat 5.11.4', or 'none'), "auto"
    (the backends auto tries, fastest first) and "backends" (each
    backend's name -> 'usable' or why it cannot run here). The probes read
    the environment: InputError when a GOLGEN_* variable is bad."""
    backends = {}
    for line in _probes().splitlines():
        name, _, why = line.partition(" ")
        backends[name] = why.strip()
    return {"version": _version(), "solver": _solver_version(),
            "auto": _auto_order().split("|"), "backends": backends}


__version__ = _version()

"""golgen: cellular-automaton rules compiled to kernels, from Python.

    import golgen, numpy as np
    u = golgen.Universe("B3/S23:T1024,1024", cells=arr)  # 2D, nonzero alive
    u.run(1000)                                          # backend "auto"
    u.cells                                              # 2D uint8, 0/1
    golgen.verify("B3/S23")["passed"]                    # True
    golgen.synth("B36/S23")["gates"]                     # fewest LUT3s

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
from .networks import describe, solver_available, synth, verify  # noqa: E402
from .stores import store_export, store_import, store_info  # noqa: E402
from .universe import Universe  # noqa: E402

__all__ = ["Universe", "emit", "version", "describe", "verify", "synth",
           "solver_available", "store_info", "store_export", "store_import",
           "Error", "InputError", "EnvError",
           "CheckError"]


def version():
    """libgolgen's version, e.g. '0.1.0'."""
    return _version()


def emit(rule, target):
    """The kernel source of `rule` (str, Golly notation) for target 'c',
    'cuda', 'ptx' or 'opencl', as `golgen --target` prints it."""
    return _emit(rule, target)


__version__ = _version()

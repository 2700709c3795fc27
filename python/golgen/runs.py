"""Runs of the families a Universe does not hold yet: what `golgen run`
does for a 3D rule (Golly 3D.lua's rules and RLE3 files)."""
import os as _os

from ._golgen import run_3d as _run_3d

__all__ = ["run_3d"]


def _path(p):
    return None if p is None else _os.fspath(p)


def run_3d(gens, pattern=None, resume=None, rule=None, backend=None,
           threads=0, out=None, store=None, checkpoint_every=0, png=None,
           frames=None, frame_every=0):
    """Run an RLE3 `pattern` file (or `resume` a 3D store) for `gens`
    generations under `rule` (None: the file's or the store's; a rule
    without a size takes the pattern's size= torus) on `backend` (None:
    auto), as `golgen run` does, and write the end as RLE3 to `out`, as a
    store to `store` (also every `checkpoint_every` generations) and as a
    PNG to `png`, with `frames` a folder of pictures every `frame_every`
    generations. A dict of "backend", "generation", "population",
    "reached" (generations run) and "seconds"."""
    return _run_3d(int(gens), _path(pattern), _path(resume), rule, backend,
                   int(threads), _path(out), _path(store),
                   int(checkpoint_every), _path(png), _path(frames),
                   int(frame_every))

"""Runs of whole patterns, as `golgen run` does them: `run` for 2D rules
of every family (two-state, Generations, Golly rule tables and trees,
Larger than Life) by every engine, from a `Pattern` read once, a pattern
file or a store; and `run_3d` for 3D rules (Golly 3D.lua's rules and RLE3
files)."""
import os as _os

from ._golgen import pattern_info as _pattern_info
from ._golgen import read_pattern as _read_pattern
from ._golgen import run as _run
from ._golgen import run_3d as _run_3d

__all__ = ["Pattern", "run", "run_3d"]


def _path(p):
    return None if p is None else _os.fspath(p)


class Pattern:
    """A pattern read once, in any format golgen reads (RLE, .cells,
    Life 1.05/1.06, macrocell, MCell; gzipped or not), from the file at
    `path` ("-": standard input) or from `text`. As read (cells=False) a
    macrocell file stays its tree and an RLE whose box is far bigger than
    its text stays its runs, at any size, as the hash tree takes them;
    cells=True reads every pattern as cells. InputError when it is no
    pattern."""

    def __init__(self, path=None, text=None, cells=False):
        if (path is None) == (text is None):
            raise TypeError("Pattern(path=...) or Pattern(text=...)")
        self._capsule = _read_pattern(_path(path), text, bool(cells))
        (self.rule, x, y, w, h, self.generation,
         self.form) = _pattern_info(self._capsule)
        self.box = (x, y, w, h)

    def __repr__(self):
        return "Pattern(rule=%r, box=%r, generation=%d, form=%r)" % (
            self.rule, self.box, self.generation, self.form)


def run(gens, pattern=None, resume=None, rule=None, rules_dir=None,
        backend=None, engine=None, mem=0, tree_leaf=0, out=None, store=None,
        checkpoint_every=0, device_mem=0, devices=None, host_mem=0,
        png=None, frames=None, frame_every=0):
    """Run `pattern` (a Pattern, a pattern file's path, or None: the
    R-pentomino) or `resume` a store for `gens` generations under `rule`
    (None: the pattern's or the store's; any 2D family, or a Golly rule
    file's name, looked for beside the pattern, in `rules_dir`, then in
    Golly's Rules folder) by `engine` ("auto", "dense", "tiles",
    "hashlife") on `backend` (None: auto), as `golgen run` does with the
    same options, and write the end to `out` (its format by its name),
    `store` (also every `checkpoint_every` generations) and `png`, with
    `frames` a folder of pictures every `frame_every` generations. A dict
    of "family", "engine", "backend", "rule", "generation", "population",
    "reached" (generations run), "seconds", "summary" (golgen run's
    closing line) and "lines" (what golgen run says on stderr)."""
    capsule, path = None, None
    if isinstance(pattern, Pattern):
        capsule = pattern._capsule
    else:
        path = _path(pattern)
    res = _run(int(gens), capsule, path, _path(resume), rule,
               _path(rules_dir), backend, engine, int(mem), int(tree_leaf),
               _path(out), _path(store), int(checkpoint_every),
               int(device_mem), devices, int(host_mem), _path(png),
               _path(frames), int(frame_every))
    res["lines"] = res["lines"].splitlines()
    return res


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

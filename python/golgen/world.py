"""golgen.World: a world of any family golgen runs, as `golgen serve`
shows it (libgolgen's include/golgen/world.h): two-state and Generations
rules, Golly rule tables and trees (NAME.rule beside the pattern or in
Golly's Rules folder), Larger than Life, and 3D rules (one z slice shown
at a time). Arrays are indexed [y, x], row 0 on top; coordinates are
Golly's."""
import operator
import os
import time

from . import _golgen

# step() hands libgolgen chunks of generations and returns to Python
# between them, so Ctrl-C stops a long step within about this long.
_CHUNK_SECONDS = 0.5
_FIRST_CHUNK = 64


class World:
    """A world of any family.

    World.read(path, rule=None)   a pattern file (RLE, .cells, Life 1.06,
                                  macrocell, MCell, RLE3 for 3D); rule
                                  None: the file's own, else B3/S23; a
                                  rule file is looked for beside it
    World.parse(text, rule=None)  pattern text
    World.soup(rule, width, height, percent=50, seed=0)
                                  a random torus, state 1 at random

    w.step(n, backend=None)       n generations (None or 'auto': the
                                  fastest backend that runs here)
    w.window(x, y, width, height) states, a uint8 array [y, x]
    w.cells                       the window of the grid held now
    w[x, y], w[x, y] = state      one cell
    w.population, w.generation, w.rule, w.family, w.states, w.bbox,
    w.extent, w.z (3D: the slice shown, or 'sum': the projection)
    w.with_rule(rule)             a new World: the same cells, another rule
    w.render(x, y, cols, rows, level)
                                  shades of 2^level squares (0 none,
                                  1..255 their share of live cells)
    w.paste(text, x, y), w.clear(), w.format('rle'|'mc'), w.write(path)

    One world must not be used from two threads at once.
    """

    __slots__ = ("_h",)

    def __init__(self, handle):
        if type(handle).__name__ != "WorldHandle":
            raise TypeError("make a World with World.read, World.parse or "
                            "World.soup")
        self._h = handle

    @classmethod
    def read(cls, path, rule=None):
        return cls(_golgen.world_read(os.fspath(path), rule))

    @classmethod
    def parse(cls, text, rule=None):
        return cls(_golgen.world_parse(text, rule))

    @classmethod
    def soup(cls, rule, width, height, percent=50, seed=0):
        return cls(_golgen.world_soup(rule, operator.index(width),
                                      operator.index(height),
                                      operator.index(percent),
                                      operator.index(seed)))

    def step(self, generations=1, backend=None):
        """`generations` generations on `backend` (None or 'auto', or a
        name as `golgen run --backend` takes it); the stepper stays open
        for the next step on the same backend. Returns self. Ctrl-C stops
        between chunks of about half a second, at a whole generation."""
        left = operator.index(generations)
        if left < 0:
            self._h.step(left, backend)  # golgen's own refusal
        chunk = _FIRST_CHUNK
        while left > 0:
            n = min(chunk, left)
            t0 = time.monotonic()
            self._h.step(n, backend)
            left -= n
            if time.monotonic() - t0 < _CHUNK_SECONDS:
                chunk *= 2
        return self

    def window(self, x, y, width, height):
        """States of the width x height cells whose top-left cell is
        (x, y), as a uint8 array [y, x] (cells outside the grid 0)."""
        return self._h.render(operator.index(x), operator.index(y),
                              operator.index(width), operator.index(height))

    def render(self, x, y, cols, rows, level=0, sample=0):
        """cols x rows blocks of 2^level cells a side from (x, y): level 0
        the states, above it each block's share of live cells (0 none,
        1..255); sample > 0 reads that many rows of each block."""
        return self._h.render(operator.index(x), operator.index(y),
                              operator.index(cols), operator.index(rows),
                              operator.index(level), operator.index(sample))

    @property
    def cells(self):
        """The grid held now (a bounded grid whole; 3D: the slice)."""
        x, y, w, h = self.extent
        return self.window(x, y, w, h)

    def __getitem__(self, xy):
        x, y = xy
        return self._h.get(operator.index(x), operator.index(y))

    def __setitem__(self, xy, state):
        x, y = xy
        self._h.set(operator.index(x), operator.index(y),
                    operator.index(state))

    def paste(self, text, x, y):
        """Pattern text's live cells laid over the world, its top-left
        cell at (x, y)."""
        self._h.paste(text, operator.index(x), operator.index(y))
        return self

    def clear(self):
        self._h.clear()
        return self

    def with_rule(self, rule):
        return World(self._h.with_rule(rule))

    def format(self, fmt="rle"):
        """The cells as 'rle' (RLE3 for 3D) or 'mc' text."""
        return self._h.format(fmt)

    def write(self, path):
        """A file in the format its name asks for (.png: the picture)."""
        self._h.write(os.fspath(path))

    @property
    def z(self):
        return self._h.info()["z"]

    @z.setter
    def z(self, value):
        self._h.set_z(value)

    def _get(name):
        return property(lambda self: self._h.info()[name])

    rule = _get("rule")
    family = _get("family")  # two-state, generations, table, ltl, 3d
    topology = _get("topology")  # plane, torus, bounded
    states = _get("states")
    generation = _get("generation")
    population = _get("population")
    extent = _get("extent")  # (x, y, width, height) of the grid held
    bbox = _get("bbox")  # the live cells' box, or None
    depth = _get("depth")  # 3D: the grid's depth, else 0
    del _get

    def __repr__(self):
        i = self._h.info()
        return (f"golgen.World({i['rule']!r}, generation {i['generation']}, "
                f"population {i['population']})")

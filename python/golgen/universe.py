"""golgen.Universe: a universe of a two-state rule with numpy arrays in and
out. Arrays are indexed [y, x], row 0 on top, as golgen and Golly draw."""
import operator
import time

import numpy as np

from . import _golgen
from ._golgen import InputError

# run() hands libgolgen chunks of generations and returns to Python between
# them, so Ctrl-C (KeyboardInterrupt) stops a long run within about this
# many seconds, leaving the universe at the generation reached.
_CHUNK_SECONDS = 0.5
_FIRST_CHUNK = 64


def _unpacked(cells):
    """cells as libgolgen takes them: C-contiguous 2D uint8, 1 alive."""
    arr = np.asarray(cells)
    if arr.ndim != 2:
        raise InputError(f"cells must be a 2D array indexed [y, x]; got "
                         f"shape {arr.shape}")
    if arr.dtype.kind not in "biuf":
        raise InputError(f"cells must be bool or numbers (nonzero alive); "
                         f"got dtype {arr.dtype}")
    return np.ascontiguousarray(arr != 0).view(np.uint8)


def _check_bitorder(bitorder):
    if bitorder not in ("little", "big"):
        raise InputError(f"bitorder '{bitorder}' is neither 'little' (bit 0 "
                         f"leftmost, golgen's) nor 'big' (np.packbits' "
                         f"default)")


def _little_bits(bits, bitorder):
    """Packed rows as libgolgen takes them: 2D uint8, bit 0 leftmost."""
    _check_bitorder(bitorder)
    arr = np.asarray(bits)
    if arr.ndim != 2 or arr.dtype != np.uint8:
        raise InputError(f"bits must be a 2D uint8 array of packed rows (as "
                         f"np.packbits(cells, axis=1, bitorder='little') "
                         f"gives); got shape {arr.shape}, dtype {arr.dtype}")
    if bitorder == "big":
        arr = np.packbits(np.unpackbits(arr, axis=1), axis=1,
                          bitorder="little")
    return np.ascontiguousarray(arr)


class Universe:
    """A universe of a two-state rule in Golly's notation.

    Universe(rule)               an empty grid (bounded rules: ':T' torus,
                                 ':P' plane, e.g. 'B3/S23:T1024,1024')
    Universe(rule, cells=arr)    arr 2D (bool or numbers, nonzero alive)
    Universe(rule, bits=b, width=w, bitorder='little')
                                 packed rows, as np.packbits(arr, axis=1,
                                 bitorder='little') gives (bit 0 of byte 0
                                 is the leftmost cell; 'big' for packbits'
                                 default order); width defaults to 8 bits
                                 a byte
    Universe.read(path, rule=None), Universe.parse(text, rule=None)
                                 a pattern file or text (RLE, .cells,
                                 Life 1.05/1.06, macrocell); rule None:
                                 the pattern's own, else B3/S23

    The array is placed as Golly places a pattern without a position:
    centred on a bounded grid (an array of the grid's size fills it
    exactly), with its top-left cell at (0, 0) on the unbounded plane.
    Coordinates are Golly's: a bounded W x H grid's top-left cell is
    (-(W//2), -(H//2)).

    Generations rules are refused (libgolgen runs two-state rules only).
    run() takes an engine: 'auto' (the default), 'dense', 'tiles' or
    'hashlife' (see run).
    One universe must not be used from two threads at once.
    """

    __slots__ = ("_h",)

    def __init__(self, rule, cells=None, *, bits=None, width=None,
                 bitorder="little"):
        if cells is not None and bits is not None:
            raise InputError("give cells or bits, not both")
        if bits is not None:
            packed = _little_bits(bits, bitorder)
            w = packed.shape[1] * 8 if width is None else operator.index(width)
            if w > packed.shape[1] * 8:
                raise InputError(f"width {w} needs {(w + 7) // 8} bytes a "
                                 f"row; bits has {packed.shape[1]} (pack "
                                 f"with np.packbits(cells, axis=1, ...))")
            self._h = _golgen.from_bits(rule, packed, w)
        elif width is not None:
            raise InputError("width goes with bits (packed rows); cells "
                             "carry their own width")
        elif cells is not None:
            self._h = _golgen.from_cells(rule, _unpacked(cells))
        else:
            self._h = _golgen.empty(rule)

    @classmethod
    def _wrap(cls, handle):
        u = cls.__new__(cls)
        u._h = handle
        return u

    @classmethod
    def read(cls, path, rule=None):
        """A universe from a pattern file (str or os.PathLike)."""
        return cls._wrap(_golgen.read(path, rule))

    @classmethod
    def read_store(cls, path):
        """A universe from a store (.ggu: `golgen run --store`, or
        write_store), every band checked: a run goes on from the
        generation stored."""
        return cls._wrap(_golgen.read_store(path))

    @classmethod
    def parse(cls, text, rule=None):
        """A universe from pattern text, e.g. 'x = 3, y = 3\\nbo$2bo$3o!'."""
        return cls._wrap(_golgen.parse(text, rule))

    def run(self, generations, backend="auto", engine="auto"):
        """Run `generations` generations on backend 'auto' (or None: the
        fastest that runs here and passes validation), 'reference', 'cpu',
        'cuda', 'ptx' or 'opencl', by engine:

        'dense'     the whole grid, stepped by the backend;
        'tiles'     the grid's active tiles (256x256; those far from any
                    change sleep), on a host backend ('cpu', 'reference');
        'hashlife'  a hash tree (HashLife) built from the cells, its leaf
                    squares stepped by the backend, the result brought back
                    into `cells`; the unbounded plane only. The tree stays
                    with the universe, memoized futures and all, for the
                    next hashlife run;
        'auto'      (or None) as `golgen run --engine auto`: the tree on
                    the unbounded plane unless the live cells' box has 2^22
                    cells or more and runs fewer than 4x its longer side;
                    else dense, in tiles on a host backend.

        Every engine gives the same cells; `engine` says which one ran.
        The backend stays open for the next run with the same name and
        engine. Returns self. Ctrl-C stops between chunks of about half a
        second, at a whole generation; auto chooses once, for the whole
        count, and runs every chunk by that engine."""
        left = operator.index(generations)
        if engine in ("auto", None) and left > 0:
            engine = self._h.choose_engine(left, backend)
        chunk = _FIRST_CHUNK
        while True:
            n = min(chunk, left) if left > 0 else left  # 0 or <0: as given
            t0 = time.monotonic()
            self._h.run(n, backend, engine)
            left -= n
            if left <= 0:
                return self
            if time.monotonic() - t0 < _CHUNK_SECONDS:
                chunk *= 2

    @property
    def generation(self):
        return self._h.generation()

    @property
    def population(self):
        return self._h.population()

    @property
    def backend(self):
        """The backend the last run used ('' before any run)."""
        return self._h.backend()[0]

    @property
    def engine(self):
        """The engine the last run used: 'dense', 'tiles' or 'hashlife'
        ('' before any run)."""
        return self._h.engine()

    @property
    def backend_line(self):
        """How it was chosen, e.g. 'backend auto -> cpu (ptx, cuda: no CUDA
        driver ...)'; '' before any run."""
        return self._h.backend()[1]

    @property
    def rule(self):
        """The rule, canonical as Golly writes it ('B3/S23:T64,64')."""
        return self._h.rule()

    @property
    def extent(self):
        """(x, y, w, h) of the area `cells` covers: a bounded rule's whole
        grid; on the unbounded plane the grid simulated now (it grows)."""
        return self._h.extent()

    @property
    def bbox(self):
        """(x, y, w, h) of the live cells' bounding box; None when none
        live."""
        x, y, w, h = self._h.bbox()
        return (x, y, w, h) if w else None

    @property
    def cells(self):
        """A new (h, w) uint8 array (0/1) of `extent`: for a bounded rule
        the whole grid, so cells[j, i] is the cell (x0 + i, y0 + j)."""
        return self._h.window(*self._h.extent())

    def packed(self, bitorder="little"):
        """`cells` packed 8 to a byte along rows, as np.packbits(cells,
        axis=1, bitorder=bitorder) gives; 'little' is golgen's order (bit 0
        leftmost), which Universe(rule, bits=...) takes by default."""
        _check_bitorder(bitorder)
        return np.packbits(self.cells, axis=1, bitorder=bitorder)

    def window(self, x, y, w, h):
        """A new (h, w) uint8 array (0/1) of the cells from (x, y) in
        Golly's coordinates; outside the simulated area reads 0."""
        return self._h.window(x, y, w, h)

    def write(self, path):
        """Write a pattern file in the format its name asks for: .rle (and
        other names), .cells, .lif/.life, .mc; atomically."""
        self._h.write(path)

    def write_store(self, path):
        """A checkpoint: the universe as a store (.ggu), its rule,
        generation and position with it; Universe.read_store resumes it."""
        self._h.write_store(path)

    def write_png(self, path, window=None, scale=0, zoom=0):
        """A PNG picture, as `golgen run --png`: the whole grid (or the
        live cells' box on the unbounded plane, or window = (x, y, w, h),
        Golly coordinates), a pixel a cell while it fits 4096 pixels a
        side, else `scale` cells a pixel side (0: the fewest that fit;
        such a pixel shades the share of live cells in its square); zoom:
        pixels a cell side. Returns what it shows: a dict of x, y, w, h,
        scale, zoom."""
        if window is not None:
            window = tuple(int(v) for v in window)
        return self._h.write_png(path, window, int(scale), int(zoom))

    def format(self, fmt="rle"):
        """The pattern as text: 'rle', 'cells', 'lif' or 'mc'."""
        return self._h.format(fmt)

    def __repr__(self):
        backend = self.backend or "none yet"
        engine = f" engine {self.engine}" if self.engine else ""
        return (f"<golgen.Universe {self.rule} generation {self.generation} "
                f"population {self.population} backend {backend}{engine}>")

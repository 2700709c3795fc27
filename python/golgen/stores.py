"""Stores: a universe bit-packed on disk (.ggu) with its rule, generation
and position, and a checksum per band of rows; what `golgen store` does.
Universe.write_store and Universe.read_store checkpoint and resume."""
import os as _os

from ._golgen import store_export as _export, store_import as _import
from ._golgen import store_info as _info

__all__ = ["store_info", "store_export", "store_import"]


def store_info(path):
    """The store's header as a dict: rule, family ("two-state",
    "Generations", "3D", "Larger than Life", "Golly rule table or tree"),
    version, width, height, depth (0: 2D), planes, generation, x0, y0
    (Golly coordinates of cell (0, 0)), bands, band_rows."""
    return _info(path)


def store_export(path, out, window=None):
    """The store's live cells (or those of window = (x, y, w, h), Golly
    coordinates, reading only the bands it covers) into the pattern file
    `out`, its format by the name: .rle, .cells, .lif, .mc."""
    if window is not None:
        window = tuple(int(v) for v in window)
    _export(path, out, window)


def store_import(pattern, out, rule=None):
    """The pattern file placed as `golgen run` places it under `rule`
    (None: the file's, else B3/S23), stored at `out`; two-state,
    Generations and Larger than Life rules, and Golly rule tables whose
    .rule file lies beside the pattern or in Golly's Rules folder."""
    _import(_os.fspath(pattern), rule, out)

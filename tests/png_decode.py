"""A PNG golgen wrote, decoded from the PNG specification with the
standard library alone (zlib), for the tests that check pictures
(tests/topo_outputs.py, tests/python/test_stores.py): greyscale or
palette of any bit depth, or 8-bit RGB; the filters undone."""
import struct
import zlib


def png_decode(data):
    """(width, height, depth, colour type, palette or None, rows): each
    row the bytes of one image line, unfiltered."""
    assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
    pos, idat, palette = 8, b"", None
    while pos < len(data):
        n, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + n]
        if kind == b"IHDR":
            w, h, depth, colour = struct.unpack(">IIBB", body[:10])
        elif kind == b"PLTE":
            palette = [tuple(body[i:i + 3]) for i in range(0, n, 3)]
        elif kind == b"IDAT":
            idat += body
        pos += 12 + n
    raw = zlib.decompress(idat)
    bits = depth * {0: 1, 2: 3, 3: 1}[colour]
    bpp = max(1, bits // 8)  # the filters' byte distance
    stride = (w * bits + 7) // 8
    rows, prev = [], bytearray(stride)
    for r in range(h):
        f = raw[r * (stride + 1)]
        line = bytearray(raw[r * (stride + 1) + 1:(r + 1) * (stride + 1)])
        for i in range(stride):
            a = line[i - bpp] if i >= bpp else 0
            b = prev[i]
            c = prev[i - bpp] if i >= bpp else 0
            p = a + b - c
            pred = [0, a, b, (a + b) // 2,
                    a if abs(p - a) <= abs(p - b) and abs(p - a) <= abs(p - c)
                    else b if abs(p - b) <= abs(p - c) else c][f]
            line[i] = (line[i] + pred) & 255
        rows.append(bytes(line))
        prev = line
    return w, h, depth, colour, palette, rows


def png_samples(line, width, depth):
    """A line's samples of `depth` bits, the first in a byte's high bits."""
    top = (1 << depth) - 1
    return [line[(x * depth) // 8] >> (8 - depth - (x * depth) % 8) & top
            for x in range(width)]

"""A palette PNG golgen drew against the RLE of the same run, for the C
family tests (tests/test_ltl.c, tests/test_family_stores.c):

    python3 png_check.py PNG RLE COLOURS [W H X0 Y0]

the picture's size (W x H cells from X0, Y0; else the RLE's own box),
its palette's length, and every pixel's index against the cell's state
in the RLE (Golly's letters; '.' and 'b' dead). Exits non-zero with the
first difference."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from png_decode import png_decode, png_samples  # noqa: E402


def rle_cells(path):
    """{(x, y): state} of an RLE (positioned by #CXRLE Pos=), and its box
    (width, height, x0, y0)."""
    cells, x0, y0, width, height, text = {}, 0, 0, 0, 0, ""
    for line in open(path):
        if line.startswith("#CXRLE"):
            for tok in line.split():
                if tok.startswith("Pos="):
                    x0, y0 = map(int, tok[4:].split(","))
        elif line.startswith("x"):
            f = dict(a.strip().split(" = ") for a in line.split(", "))
            width, height = int(f["x"]), int(f["y"])
        elif not line.startswith("#"):
            text += line.strip()
    x = y = 0
    count = ""
    for ch in text:
        if ch.isdigit():
            count += ch
            continue
        k, count = int(count) if count else 1, ""
        if ch == "$":
            y, x = y + k, 0
        elif ch == "!":
            break
        elif ch in ".b":
            x += k
        else:
            for j in range(k):
                cells[(x0 + x + j, y0 + y)] = 1 if ch in "oA" else ord(ch) - 64
            x += k
    return cells, (width, height, x0, y0)


def main(argv):
    png, rle, colours = argv[1], argv[2], int(argv[3])
    cells, box = rle_cells(rle)
    W, H, X0, Y0 = map(int, argv[4:8]) if len(argv) > 4 else box
    w, h, depth, colour, palette, rows = png_decode(open(png, "rb").read())
    assert (w, h, colour) == (W, H, 3), (w, h, colour, W, H)
    assert len(palette) == colours, (len(palette), colours)
    seen = set()
    for yy, line in enumerate(rows):
        for xx, v in enumerate(png_samples(line, w, depth)):
            want = cells.get((X0 + xx, Y0 + yy), 0)
            assert v == want, (xx, yy, v, want)
            seen.add(v)
    inside = sum(1 for (cx, cy) in cells
                 if X0 <= cx < X0 + W and Y0 <= cy < Y0 + H)
    assert len(cells) == inside, "live cells outside the picture"
    assert max(seen) == colours - 1 or colours == 2, (seen, colours)


if __name__ == "__main__":
    main(sys.argv)

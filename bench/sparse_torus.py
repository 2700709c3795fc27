#!/usr/bin/env python3
"""A sparse torus for the active-tile benchmarks (issue 38): still lifes,
blinkers, gliders and small random soup patches scattered over an N x N
torus so that about LIVE of its area is live, reproducibly from the seed.

    bench/sparse_torus.py N LIVE SEED OUT.rle [RULE] [GLIDERS] [SOUPS]

LIVE is a fraction (0.01: 1% of the cells alive). Objects, at most one in
an 8x8 block and inset by a cell so that no two touch, are blocks,
beehives and blinkers, except a share GLIDERS of them (default 1/7) that
are gliders and a share SOUPS (default 0.1) that are 6x6 random soup
patches: only those start reactions. Writes RLE whose rule names the
torus (B3/S23:TN,N unless RULE is given and not "-"). Streams block row by
block row, so a 65536^2 torus takes a minute and little memory."""
import random
import sys

SHAPES = {
    "block": ["oo", "oo"],
    "beehive": [".oo.", "o..o", ".oo."],
    "blinker": ["ooo"],
    "glider": [".o.", "..o", "ooo"],
}
CELLS = {"block": 4, "beehive": 6, "blinker": 3, "glider": 5, "soup": 13}


def put(rows, x, shape, dy=1):
    for r, line in enumerate(shape):
        for c, ch in enumerate(line):
            if ch == "o":
                rows[dy + r].append(x + c)


def rle_row(xs):
    xs = sorted(set(xs))
    out, at, i = [], 0, 0
    while i < len(xs):
        j = i
        while j + 1 < len(xs) and xs[j + 1] == xs[j] + 1:
            j += 1
        gap = xs[i] - at
        if gap:
            out.append((str(gap) if gap > 1 else "") + "b")
        k = j - i + 1
        out.append((str(k) if k > 1 else "") + "o")
        at = xs[j] + 1
        i = j + 1
    return "".join(out)


def main():
    n, live, seed, out = int(sys.argv[1]), float(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
    rule = sys.argv[5] if len(sys.argv) > 5 and sys.argv[5] != "-" else f"B3/S23:T{n},{n}"
    gliders = float(sys.argv[6]) if len(sys.argv) > 6 else 1 / 7
    soups = float(sys.argv[7]) if len(sys.argv) > 7 else 0.1
    settled = (CELLS["block"] + CELLS["beehive"] + CELLS["blinker"]) / 3
    mean = soups * CELLS["soup"] + (1 - soups) * (
        gliders * CELLS["glider"] + (1 - gliders) * settled)
    p = min(1.0, live * 64 / mean)  # objects per 8x8 block
    rnd = random.Random(seed)
    blocks = n // 8
    with open(out, "w") as f:
        f.write(f"x = {n}, y = {n}, rule = {rule}\n")
        pending = 0  # empty rows not yet written
        started = False
        line = []
        for by in range(blocks):
            rows = [[] for _ in range(8)]
            for bx in range(blocks):
                if rnd.random() >= p:
                    continue
                x = 8 * bx + 1
                if rnd.random() < soups:
                    for _ in range(15):
                        rows[1 + rnd.randrange(6)].append(x + rnd.randrange(6))
                elif rnd.random() < gliders:
                    put(rows, x, SHAPES["glider"])
                else:
                    put(rows, x, SHAPES[rnd.choice(["block", "beehive", "blinker"])])
            for r in rows:
                if not r:
                    pending += 1
                    continue
                down = pending + 1 if started else pending
                if down:
                    line.append((str(down) if down > 1 else "") + "$")
                pending, started = 0, True
                line.append(rle_row(r))
                if sum(len(s) for s in line) > 4096:
                    f.write("".join(line) + "\n")
                    line = []
        f.write("".join(line) + "!\n")


if __name__ == "__main__":
    main()

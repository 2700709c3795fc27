#!/usr/bin/env python3
"""A sparse torus for the active-tile benchmarks (issue 38): still lifes,
blinkers, gliders and small random soup patches scattered over an N x N
torus until `live` of its area is live, reproducibly from the seed.

    bench/sparse_torus.py N LIVE SEED OUT.rle [RULE]

LIVE is a fraction (0.01: 1% of the cells alive). Writes RLE whose rule
names the torus (B3/S23:TN,N unless RULE is given)."""
import random
import sys

SHAPES = {
    "block": ["oo", "oo"],
    "beehive": [".oo.", "o..o", ".oo."],
    "blinker": ["ooo"],
    "glider": [".o.", "..o", "ooo"],
}


def main():
    n, live, seed, out = int(sys.argv[1]), float(sys.argv[2]), int(sys.argv[3]), sys.argv[4]
    rule = sys.argv[5] if len(sys.argv) > 5 else f"B3/S23:T{n},{n}"
    rnd = random.Random(seed)
    cells = set()
    want = int(live * n * n)
    while len(cells) < want:
        x, y = rnd.randrange(n), rnd.randrange(n)
        kind = rnd.random()
        if kind < 0.9:  # mostly settled objects, some gliders
            shape = SHAPES[rnd.choice(["block", "beehive", "blinker", "block",
                                       "beehive", "blinker", "glider"])]
            for r, row in enumerate(shape):
                for c, ch in enumerate(row):
                    if ch == "o":
                        cells.add(((x + c) % n, (y + r) % n))
        else:  # a 10x10 soup patch: a small methuselah's worth of chaos
            for _ in range(40):
                cells.add(((x + rnd.randrange(10)) % n, (y + rnd.randrange(10)) % n))
    rows = {}
    for x, y in cells:
        rows.setdefault(y, []).append(x)
    with open(out, "w") as f:
        f.write(f"x = {n}, y = {n}, rule = {rule}\n")
        parts, last_y = [], 0
        for y in sorted(rows):
            if y > last_y:
                parts.append((str(y - last_y) if y - last_y > 1 else "") + "$")
            last_y = y
            xs, run, line, at = sorted(rows[y]), [], [], 0
            i = 0
            while i < len(xs):
                j = i
                while j + 1 < len(xs) and xs[j + 1] == xs[j] + 1:
                    j += 1
                gap = xs[i] - at
                if gap:
                    line.append((str(gap) if gap > 1 else "") + "b")
                k = j - i + 1
                line.append((str(k) if k > 1 else "") + "o")
                at = xs[j] + 1
                i = j + 1
            parts.append("".join(line))
        text = "".join(parts) + "!"
        for i in range(0, len(text), 70):
            f.write(text[i:i + 70] + "\n")


if __name__ == "__main__":
    main()

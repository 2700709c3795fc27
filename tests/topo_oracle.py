#!/usr/bin/env python3
"""Golly's grids beyond :T and :P (Klein bottles, cross-surfaces, spheres,
shifted tori, tubes, strips) run by `golgen run` against bgolly: random
soups of several rules, sizes (odd and even, W != H) and generations,
and Golly's bundled Bounded-Grids patterns, compared cell for cell and
state for state (bgolly trims its RLE to the live box and writes no
position, so both sides are compared as trimmed boxes; a soup fills the
grid, so a misplaced join changes the cells, not only their place).

Usage: topo_oracle.py [GOLGEN] [--quick]; skipped (exit 77) without
bgolly. Exit 1 with the first few differences."""
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile

GOLLY = "/usr/share/golly"
PATTERNS = [
    ("Klein-bottle.rle", "RuleLoader"),
    ("cross-surface.rle", "RuleLoader"),
    ("sphere.rle", "RuleLoader"),
    ("torus-with-shift.rle", "RuleLoader"),
    ("pulsars-in-tube.rle", "QuickLife"),
]


def rle_cells(text):
    """The live cells {(x, y): state} of an RLE, and its rule."""
    rule, body = None, []
    for line in text.splitlines():
        if line.startswith("#"):
            continue
        if line.startswith("x"):
            m = re.search(r"rule\s*=\s*(\S+)", line)
            rule = m.group(1) if m else None
            continue
        body.append(line.strip())
    cells, x, y, n, prefix = {}, 0, 0, "", 0
    for c in "".join(body):
        if c.isdigit():
            n += c
            continue
        count = int(n) if n else 1
        n = ""
        if c == "!":
            break
        if c == "$":
            y, x = y + count, 0
        elif c in "p" "qrstuvwxy":
            prefix = (ord(c) - ord("p") + 1) * 24
            n = str(count) if count > 1 else ""
            continue
        else:
            state = (0 if c in "b." else 1 if c == "o" else
                     prefix + ord(c) - ord("A") + 1)
            prefix = 0
            for i in range(count):
                if state:
                    cells[(x + i, y)] = state
            x += count
    return cells, rule


def trimmed(cells):
    if not cells:
        return frozenset()
    x0 = min(x for x, _ in cells)
    y0 = min(y for _, y in cells)
    return frozenset(((x - x0, y - y0), s) for (x, y), s in cells.items())


def bgolly(path, gens, algo, out):
    cmd = ["bgolly", "-q", "-q", "-a", algo, "-m", str(gens), "-o", out]
    if algo == "RuleLoader":
        cmd[5:5] = ["-s", GOLLY + "/Rules/"]
    cmd.append(path)
    subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL,
                   stderr=subprocess.DEVNULL, timeout=120)
    return rle_cells(open(out).read())


def golgen(exe, path, gens, out, extra=()):
    r = subprocess.run([exe, "run", "-g", str(gens), "-o", out, *extra,
                        path], capture_output=True, text=True, timeout=120)
    if r.returncode:
        raise RuntimeError("golgen run %s -g %d: %s" %
                           (path, gens, r.stderr.strip()[-400:]))
    return rle_cells(open(out).read())


def soup(path, rule, w, h, seed, states=2):
    """A random soup filling the grid (the header's box is the grid's)."""
    rnd = random.Random(seed)
    rows = []
    for _ in range(h):
        row = ""
        for _ in range(w):
            v = rnd.random() < 0.4
            s = rnd.randrange(1, states) if v else 0
            row += ("o" if s else "b") if states == 2 else \
                (chr(ord("A") + s - 1) if s else ".")
        rows.append(row)
    with open(path, "w") as f:
        f.write("x = %d, y = %d, rule = %s\n%s!\n" % (w, h, rule,
                                                     "$".join(rows)))


def compare(what, exe, path, gens, algo, tmp, failures, extra=()):
    want, wrule = bgolly(path, gens, algo, os.path.join(tmp, "b.rle"))
    got, grule = golgen(exe, path, gens, os.path.join(tmp, "g.rle"), extra)
    if trimmed(want) != trimmed(got) or (wrule and wrule != grule):
        failures.append("%s gen %d: bgolly %d cells (%s), golgen %d (%s)" %
                        (what, gens, len(want), wrule, len(got), grule))


def soup_cases(quick):
    grids = ["K%d*,%d", "K%d,%d*", "K%d*+1,%d", "K%d,%d*+1", "C%d,%d",
             "T%d+3,%d", "T%d,%d-2", "T%d+5,%d", "T0,%d", "T%d,0", "P%d,0"]
    sizes = [(9, 7), (12, 10), (7, 12), (16, 5)]
    for i, g in enumerate(grids):
        for j, (w, h) in enumerate(sizes[:2] if quick else sizes):
            if g.startswith("T0"):
                yield g % h, w, h
            elif g.endswith(",0"):
                yield g % w, w, h
            else:
                yield g % (w, h), w, h
    for n in ([7, 10] if quick else [5, 7, 10, 13]):
        yield "S%d" % n, n, n


def main():
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    quick = "--quick" in sys.argv
    exe = args[0] if args else os.environ.get("GG_GOLGEN", "golgen")
    if not shutil.which("bgolly"):
        print("bgolly not installed: skipped")
        return 77
    failures = []
    gens = [1, 2, 3, 5, 8, 13, 21, 34, 64] if not quick else [1, 3, 8, 64]
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "soup.rle")
        seed = 1
        rules = [("B3/S23", "QuickLife", 2), ("B36/S23", "QuickLife", 2),
                 ("B2n3/S23-q", "QuickLife", 2), ("23/3/4", "Generations", 4)]
        for grid, w, h in soup_cases(quick):
            for rule, algo, states in rules[::3] if quick else rules:
                seed += 1
                soup(path, "%s:%s" % (rule, grid), w, h, seed, states)
                for g in gens:
                    compare("%s:%s soup %d" % (rule, grid, seed), exe, path,
                            g, algo, tmp, failures)
        table = os.path.join(tmp, "table.rle")
        for grid, w, h in [("K9*,7", 9, 7), ("C8,11", 8, 11), ("S9", 9, 9),
                           ("T10+3,7", 10, 7)]:
            seed += 1
            soup(table, "LifeHistory:" + grid, w, h, seed, 7)
            for g in [1, 5, 34]:
                compare("LifeHistory:%s soup" % grid, exe, table, g,
                        "RuleLoader", tmp, failures)
        pdir = GOLLY + "/Patterns/Life/Bounded-Grids/"
        for name, algo in PATTERNS:
            for g in [1, 10, 100, 1000]:
                compare(name, exe, pdir + name, g, algo, tmp, failures)
    for f in failures[:20]:
        print("DIFFER", f)
    print("%d differences" % len(failures))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())

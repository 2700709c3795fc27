#!/usr/bin/env python3
"""What golgen run writes on Golly's grids beyond :T and :P (Klein
bottles, cross-surfaces, spheres, shifted tori, tubes, strips: the ring
of lib/run_topo.c), besides -o:

- stores: a run cut by checkpoints into --store and continued by
  --resume writes the bytes the uninterrupted run writes, and both are
  bgolly's cells; the store holds the rule with its grid suffix and the
  W x H grid; --rule on --resume must repeat the store's rule;
- pictures: --png is the W x H grid (a tube or strip: its finite side
  whole, the live cells along the other), a pixel's palette index the
  cell's state as bgolly has it, in the palette the :T grid's picture of
  the same rule has; --frames draws every --every generations;
- SIGINT and SIGTERM: the run stops with 130 or 143 and the store holds
  the generation reached; a mid-run checkpoint and that store, resumed,
  give the uninterrupted run's bytes.

Usage: topo_outputs.py [GOLGEN]; bgolly's comparisons are skipped
without it (the rest runs). Exit 1 with the failures."""
import os
import shutil
import signal
import struct
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from png_decode import png_decode, png_samples  # noqa: E402
from topo_oracle import bgolly, rle_cells, soup, trimmed  # noqa: E402

# (rule, grid, bgolly's algorithm, states, W, H): soups of seed 1, live at
# generations 13, 17 and 40 (bgolly's cells, checked not empty)
CASES = [
    ("B3/S23", "K12*,10", "QuickLife", 2, 12, 10),
    ("B36/S23", "C9,11", "QuickLife", 2, 9, 11),
    ("B3/S23", "S10", "QuickLife", 2, 10, 10),
    ("B3/S23", "T11+3,9", "QuickLife", 2, 11, 9),
    ("345/2/4", "K10,9*+1", "Generations", 4, 10, 9),
    ("B3/S23", "T0,10", "QuickLife", 2, 14, 10),
    ("B3/S23", "P12,0", "QuickLife", 2, 12, 14),
    ("LifeHistory", "S9", "RuleLoader", 7, 9, 9),
    ("LifeHistory", "K9*,7", "RuleLoader", 7, 9, 7),
]
SPHERE = "/usr/share/golly/Patterns/Life/Bounded-Grids/sphere.rle"


class Failed(Exception):
    pass


def check(ok, what):
    if not ok:
        raise Failed(what)


def golgen(exe, *args, rc=0):
    r = subprocess.run([exe, "run", *args], capture_output=True, text=True,
                       timeout=300)
    if r.returncode != rc:
        raise Failed("golgen run %s: exit %d, not %d: %s" %
                     (" ".join(args), r.returncode, rc, r.stderr[-400:]))
    return r.stderr


def store_header(path):
    """Width, height, generation and the rule of a store (store.h)."""
    h = open(path, "rb").read(320)
    w, ht, gen = struct.unpack("<qqq", h[16:40])
    return w, ht, gen, h[72:320].split(b"\0")[0].decode()


def png_indices(path):
    """Width, height, palette and each pixel's palette index of a palette
    PNG golgen wrote (any bit depth)."""
    data = open(path, "rb").read()
    check(data[:8] == b"\x89PNG\r\n\x1a\n", "%s is not a PNG" % path)
    w, h, depth, colour, palette, lines = png_decode(data)
    check(colour == 3, "%s: colour type %d, not a palette" % (path, colour))
    return w, h, palette, [png_samples(line, w, depth) for line in lines]


def png_cells(rows):
    return {(x, y): s for y, row in enumerate(rows)
            for x, s in enumerate(row) if s}


def oracle(tmp, path, gens, algo, have_bgolly):
    if not have_bgolly:
        return None
    cells = bgolly(path, gens, algo, os.path.join(tmp, "bg.rle"))[0]
    check(cells, "%s is empty at generation %d: a soup that lives" %
          (path, gens))
    return cells


def check_resume(exe, tmp, case, have_bgolly):
    """Checkpoints, then --resume, against the uninterrupted run and
    bgolly; the store's header; --rule on --resume."""
    rule, grid, algo, states, w, h = case
    text = "%s:%s" % (rule, grid)
    pat, whole = os.path.join(tmp, "in.rle"), os.path.join(tmp, "whole.rle")
    store, cont = os.path.join(tmp, "s.ggu"), os.path.join(tmp, "cont.rle")
    soup(pat, text, w, h, 1, states)
    golgen(exe, "-g", "40", "-o", whole, pat)
    golgen(exe, "-g", "17", "--store", store, "--checkpoint-every", "5", pat)
    sw, sh, sgen, srule = store_header(store)
    check(sgen == 17, "%s: the store is at generation %d, not 17" %
          (text, sgen))
    check((sw == w or grid.startswith("T0")) and
          (sh == h or grid.endswith(",0")),
          "%s: the store holds %d x %d cells, not the %d x %d grid" %
          (text, sw, sh, w, h))
    golgen(exe, "-g", "23", "--resume", store, "-o", cont)
    a, b = open(whole).read(), open(cont).read()
    check(a == b, "%s: 17 + 23 resumed differs from 40 run:\n%s\n%s" %
          (text, a, b))
    want = oracle(tmp, pat, 40, algo, have_bgolly)
    got, got_rule = rle_cells(b)
    check(want is None or trimmed(want) == trimmed(got),
          "%s: 40 generations resumed are not bgolly's cells" % text)
    check(got_rule == srule, "%s: the store's rule %s, -o's %s" %
          (text, srule, got_rule))
    golgen(exe, "-g", "1", "--resume", store, "--rule", srule, "-o", cont)
    err = golgen(exe, "-g", "1", "--resume", store, "--rule",
                 "%s:T%d,%d" % (rule, w, h), "-o", cont, rc=2)
    check("is not the rule of store" in err,
          "%s: --rule of another grid on --resume: %s" % (text, err))


def check_png(exe, tmp, case, have_bgolly):
    """--png against bgolly's cells and the :T picture's palette, and
    --frames."""
    rule, grid, algo, states, w, h = case
    text = "%s:%s" % (rule, grid)
    pat, png = os.path.join(tmp, "in.rle"), os.path.join(tmp, "p.png")
    soup(pat, text, w, h, 1, states)
    golgen(exe, "-g", "13", "--png", png, pat)
    pw, ph, palette, rows = png_indices(png)
    cells = png_cells(rows)
    check(pw == w or grid.startswith("T0"),
          "%s: the picture is %d wide, not %d" % (text, pw, w))
    check(ph == h or grid.endswith(",0"),
          "%s: the picture is %d high, not %d" % (text, ph, h))
    want = oracle(tmp, pat, 13, algo, have_bgolly)
    check(want is None or trimmed(want) == trimmed(cells),
          "%s: the picture's pixels are not bgolly's cells" % text)
    torus = os.path.join(tmp, "t.rle")
    soup(torus, "%s:T%d,%d" % (rule, w, h), w, h, 3, states)
    golgen(exe, "-g", "0", "--png", os.path.join(tmp, "t.png"), torus)
    tpal = png_indices(os.path.join(tmp, "t.png"))[2]
    check(palette == tpal, "%s: palette %s, the torus's %s" %
          (text, palette, tpal))
    frames = os.path.join(tmp, "frames")
    shutil.rmtree(frames, ignore_errors=True)
    golgen(exe, "-g", "13", "--frames", frames, "--every", "5", pat)
    names = sorted(os.listdir(frames))
    check(len(names) == 4, "%s: frames %s (0, 5, 10, 13)" % (text, names))
    last = png_indices(os.path.join(frames, names[-1]))[3]
    check(last == rows, "%s: the last frame is not --png's picture" % text)


def wait_for(path, seconds):
    end = time.time() + seconds
    while not os.path.exists(path) and time.time() < end:
        time.sleep(0.05)
    return os.path.exists(path)


def check_signal(exe, tmp, sig):
    """A long run on Golly's sphere.rle stopped by sig: a mid-run
    checkpoint and the store at the generation reached, each resumed,
    equal the uninterrupted run."""
    store, ck = os.path.join(tmp, "sig.ggu"), os.path.join(tmp, "ck.ggu")
    for f in (store, ck):
        if os.path.exists(f):
            os.remove(f)
    p = subprocess.Popen(["env", "--default-signal", exe, "run", "-g",
                          "1000000000", "--store", store,
                          "--checkpoint-every", "3000", SPHERE],
                         stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    check(wait_for(store, 120), "no checkpoint in 120 s")
    shutil.copy(store, ck)
    p.send_signal(sig)
    _, err = p.communicate(timeout=120)
    want = 128 + sig
    check(p.returncode == want, "%s: exit %d, not %d: %s" %
          (signal.Signals(sig).name, p.returncode, want, err[-300:]))
    for path in (ck, store):
        gen = store_header(path)[2]
        check(gen > 0 and (path == store or gen % 3000 == 0),
              "%s at generation %d" % (path, gen))
        got, whole = os.path.join(tmp, "r.rle"), os.path.join(tmp, "w.rle")
        golgen(exe, "-g", "100", "--resume", path, "-o", got)
        golgen(exe, "-g", str(gen + 100), "-o", whole, SPHERE)
        check(open(got).read() == open(whole).read(),
              "%s: generation %d + 100 resumed differs from the run of %d"
              % (signal.Signals(sig).name, gen, gen + 100))


def check_refusals(exe, tmp):
    pat = os.path.join(tmp, "in.rle")
    soup(pat, "B3/S23:K12*,10", 12, 10, 5)
    for args, words in [(["--engine", "hashlife"], "--engine dense"),
                        (["--devices", "0"], "--devices"),
                        (["--host-mem", "1M"], "--host-mem")]:
        err = golgen(exe, "-g", "1", *args, pat, rc=2)
        check(words in err, "%s: %s" % (args, err))


def main():
    exe = sys.argv[1] if len(sys.argv) > 1 else "golgen"
    have_bgolly = shutil.which("bgolly") is not None
    if not have_bgolly:
        print("bgolly not installed: its comparisons skipped")
    failures = []
    with tempfile.TemporaryDirectory() as tmp:
        checks = [(check_resume, c) for c in CASES] + \
                 [(check_png, c) for c in CASES]
        for fn, case in checks:
            try:
                fn(exe, tmp, case, have_bgolly)
            except Failed as e:
                failures.append("%s %s:%s: %s" % (fn.__name__, case[0],
                                                  case[1], e))
        for sig in (signal.SIGTERM, signal.SIGINT):
            try:
                check_signal(exe, tmp, sig)
            except Failed as e:
                failures.append("check_signal: %s" % e)
        try:
            check_refusals(exe, tmp)
        except Failed as e:
            failures.append("check_refusals: %s" % e)
    for f in failures:
        print("FAIL", f)
    print("%d failures" % len(failures))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())

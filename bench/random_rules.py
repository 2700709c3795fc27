#!/usr/bin/env python3
"""Seeded random isotropic (Hensel) and MAP rules: logic ops per word of
the network each gets, and the first use of such a rule (issue 40).

    bench/random_rules.py [--golgen G] [--seed S] [--n N] [--lib L]
                          [--set iso|map|both] [--list] [--first-use K]

Draws N isotropic rules (every Hensel class of B1..B8 and S0..S8, 102 in
all, on with probability 1/2; B0 never) and N MAP rules (each of the 512
neighbourhoods' next state a coin flip, the empty one's 0: no B0), both
from random.Random(SEED), and runs `golgen verify --rule R --lib L` on
each with an empty kernel cache (GOLGEN_CACHE_DIR: a new temporary folder,
so no kept network from an earlier run counts) and the network cache of
the source tree. verify checks the network on all 512 neighbourhoods; a
rule whose check fails is reported and makes the exit status 1.
Prints one line per rule (logic ops per 64-cell word, where the final stage
came from, seconds and CPU seconds), then the means.

--first-use K times `golgen run --backend cpu` of a 40x24 soup on a 43x28
torus for one generation under the first K rules of each set with both
caches empty (GOLGEN_GENERATED and GOLGEN_CACHE_DIR new empty folders):
the seconds from command to first generation, and what golgen said on
stderr.
--list prints the rules only.
"""
import argparse
import os
import random
import re
import resource
import subprocess
import sys
import tempfile
import time

LETTERS = "ceaiknjqrytwz"
N_LETTERS = [0, 2, 6, 10, 13, 10, 6, 2, 0]
B64 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"


def half(rng, count, letters, allow):
    """One count of B or S: each class on with probability 1/2."""
    if not allow:
        return ""
    if N_LETTERS[count] == 0:
        return str(count) if rng.random() < 0.5 else ""
    on = [c for c in letters[:N_LETTERS[count]] if rng.random() < 0.5]
    if not on:
        return ""
    if len(on) == N_LETTERS[count]:
        return str(count)
    return str(count) + "".join(on)


def iso_rule(rng):
    b = "".join(half(rng, k, LETTERS, k > 0) for k in range(9))
    s = "".join(half(rng, k, LETTERS, True) for k in range(9))
    return "B%s/S%s" % (b, s)


def map_rule(rng):
    """512 bits in Golly's order (bit k of the MAP string: block k), six a
    character, most significant first; block 0 (nothing alive) stays 0."""
    bits = [0] + [rng.randrange(2) for _ in range(511)]
    bits += [0] * 4  # 86 characters hold 516 bits
    return "MAP" + "".join(
        B64[int("".join(map(str, bits[i:i + 6])), 2)]
        for i in range(0, 516, 6))


def rules(seed, n):
    rng = random.Random(seed)
    iso = [iso_rule(rng) for _ in range(n)]
    maps = [map_rule(rng) for _ in range(n)]
    return iso, maps


def child_cpu():
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def verify(golgen, rule, lib, env):
    t0, c0 = time.monotonic(), child_cpu()
    p = subprocess.run([golgen, "verify", "--rule", rule, "--lib", lib],
                       env=env, capture_output=True, text=True)
    wall, cpu = time.monotonic() - t0, child_cpu() - c0
    m = re.search(r"= (\d+) logic ops", p.stdout)
    src = re.search(r"final stage from (.*)", p.stdout)
    ok = p.returncode == 0 and "PASS: all 512" in p.stdout
    return {
        "ops": int(m.group(1)) if m else None,
        "from": src.group(1).strip() if src else "?",
        "ok": ok,
        "wall": wall,
        "cpu": cpu,
        "out": p.stdout + p.stderr,
    }


def soup(path):
    rng = random.Random(1)
    w, h = 40, 24
    rows = ["".join("o" if rng.random() < 0.4 else "b" for _ in range(w))
            for _ in range(h)]
    with open(path, "w") as f:
        f.write("x = %d, y = %d, rule = B3/S23\n%s!\n" % (w, h, "$".join(rows)))


def first_use(golgen, rule, tmp):
    gen = tempfile.mkdtemp(dir=tmp)
    cache = tempfile.mkdtemp(dir=tmp)
    os.mkdir(os.path.join(gen, "networks"))
    env = dict(os.environ, GOLGEN_GENERATED=gen, GOLGEN_CACHE_DIR=cache)
    path = os.path.join(tmp, "soup.rle")
    soup(path)
    t0, c0 = time.monotonic(), child_cpu()
    p = subprocess.run([golgen, "run", "--backend", "cpu", "--rule",
                        rule + ":T43,28", "--gens", "1", "-o",
                        os.path.join(tmp, "out.rle"), path],
                       env=env, capture_output=True, text=True)
    return (time.monotonic() - t0, child_cpu() - c0, p.returncode,
            p.stderr.strip().splitlines())


def main():
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--golgen", default=os.path.join(root, "build", "golgen"))
    ap.add_argument("--seed", type=int, default=40)
    ap.add_argument("--n", type=int, default=20)
    ap.add_argument("--lib", default="lut3")
    ap.add_argument("--set", default="both", choices=["iso", "map", "both"])
    ap.add_argument("--list", action="store_true")
    ap.add_argument("--first-use", type=int, default=0)
    a = ap.parse_args()
    iso, maps = rules(a.seed, a.n)
    sets = [("isotropic", iso), ("MAP", maps)]
    sets = [s for s in sets if a.set == "both" or
            s[0].lower().startswith(a.set)]
    if a.list:
        for name, rs in sets:
            for r in rs:
                print(name, r)
        return 0
    failed = 0
    with tempfile.TemporaryDirectory() as tmp:
        env = dict(os.environ, GOLGEN_CACHE_DIR=os.path.join(tmp, "kept"))
        env.pop("GOLGEN_GENERATED", None)
        for name, rs in sets:
            ops = []
            print("# %s rules, seed %d, lib %s: ops per word, source, "
                  "seconds, cpu seconds" % (name, a.seed, a.lib))
            for i, r in enumerate(rs):
                v = verify(a.golgen, r, a.lib, env)
                if not v["ok"]:
                    failed += 1
                    print("FAIL %s\n%s" % (r, v["out"]), file=sys.stderr)
                ops.append(v["ops"] or 0)
                print("%s %2d %4s %-28s %6.2f %6.2f %s" % (
                    name[:3], i, v["ops"], v["from"][:28], v["wall"],
                    v["cpu"], r), flush=True)
            print("# %s mean %.1f ops per word (min %d, max %d) over %d "
                  "rules" % (name, sum(ops) / len(ops), min(ops), max(ops),
                             len(ops)), flush=True)
        for name, rs in sets:
            for r in rs[:a.first_use]:
                wall, cpu, rc, said = first_use(a.golgen, r, tmp)
                print("first use %s %.2f s (cpu %.2f) rc %d %s" % (
                    name[:3], wall, cpu, rc, r), flush=True)
                for line in said:
                    print("    " + line)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())

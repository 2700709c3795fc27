#!/usr/bin/env python3
"""Every von Neumann neighbourhood of a JvN rule against bgolly -a JvN.

The neighbourhoods (centre and four neighbours, states 0..S-1) are laid
out as plus signs tiling a W x W torus (centres where (x + 2y) % 5 == 0,
each other cell an arm of exactly one centre), W*W/5 of them a board;
bgolly and golgen run each board one generation and the centres are
compared. Needs numpy (build-py/venv has it).

    bench/jvn_neighbourhoods.py RULE STATES [--golgen build/golgen]
                                [--side 2500] [--first 0] [--boards N]

JvN29 29 is 17 boards of 2500 x 2500, Nobili32 32 and Hutton32 32 are 27
(2-30 s of bgolly a board).
"""
import argparse
import os
import re
import subprocess
import tempfile
import time

import numpy as np


def code(s):
    if s == 0:
        return '.'
    p, r = divmod(s - 1, 24)
    return ('' if p == 0 else chr(ord('p') + p - 1)) + chr(ord('A') + r)


CODES = [code(s) for s in range(256)]


def write(grid, path, rule, side):
    with open(path, 'w') as f:
        f.write('x = %d, y = %d, rule = %s:T%d,%d\n' % (side, side, rule,
                                                       side, side))
        lines = []
        for row in grid:
            cut = np.flatnonzero(np.diff(row)) + 1
            starts = np.concatenate(([0], cut))
            ends = np.concatenate((cut, [side]))
            lines.append(''.join((str(b - a) if b - a > 1 else '') +
                                 CODES[row[a]] for a, b in zip(starts, ends)))
        f.write('$\n'.join(lines) + '!\n')


def read(path, side):
    g = np.zeros((side, side), np.uint8)
    text = open(path).read()
    head = [l for l in text.splitlines() if l.startswith('x')][0]
    if not head.startswith('x = %d, y = %d' % (side, side)):
        raise SystemExit('%s: a trimmed box (%s): compare by hand' %
                         (path, head))
    body = ''.join(l for l in text.splitlines()
                   if l and l[0] not in '#x')
    x = y = 0
    prefix = pending = 0
    for m in re.finditer(r'(\d*)([a-zA-Z.$!])', body):
        n = int(m.group(1)) if m.group(1) else 1
        ch = m.group(2)
        if ch == '!':
            break
        if ch == '$':
            y, x = y + n, 0
        elif ch in 'b.':
            x += n
        elif 'p' <= ch <= 'y':
            prefix, pending = (ord(ch) - ord('p') + 1) * 24, n
        else:
            if prefix:
                n = pending
            g[y, x:x + n] = 1 if ch == 'o' else prefix + ord(ch) - 64
            x += n
            prefix = 0
    return g


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('rule')
    ap.add_argument('states', type=int)
    ap.add_argument('--golgen', default=os.path.join(
        os.path.dirname(os.path.abspath(__file__)), '..', 'build', 'golgen'))
    ap.add_argument('--side', type=int, default=2500)
    ap.add_argument('--first', type=int, default=0)
    ap.add_argument('--boards', type=int, default=0)
    a = ap.parse_args()
    side, ns = a.side, a.states
    assert side % 5 == 0
    total, per = ns ** 5, side * side // 5
    ys, xs = np.mgrid[0:side, 0:side]
    cy, cx = np.nonzero((xs + 2 * ys) % 5 == 0)
    boards = a.boards or -(-total // per)
    bad = 0
    with tempfile.TemporaryDirectory() as d:
        inp, bo, go = (os.path.join(d, n) for n in ('in.rle', 'b.rle',
                                                    'g.rle'))
        for k in range(a.first, a.first + boards):
            if k * per >= total:
                break
            t = np.arange(k * per, (k + 1) * per, dtype=np.int64) % total
            c, n, w, e, s = [(t // ns ** i % ns).astype(np.uint8)
                             for i in range(5)]
            g = np.zeros((side, side), np.uint8)
            g[cy, cx] = c
            g[(cy - 1) % side, cx], g[(cy + 1) % side, cx] = n, s
            g[cy, (cx - 1) % side], g[cy, (cx + 1) % side] = w, e
            write(g, inp, a.rule, side)
            t0 = time.time()
            subprocess.run(['bgolly', '-a', 'JvN', '-q', '-q', '-m', '1',
                            '-o', bo, inp], check=True,
                           stdout=subprocess.DEVNULL,
                           stderr=subprocess.DEVNULL)
            t1 = time.time()
            subprocess.run([a.golgen, 'run', '--gens', '1', '-o', go, inp],
                           check=True, stdout=subprocess.DEVNULL,
                           stderr=subprocess.DEVNULL)
            want, got = read(bo, side)[cy, cx], read(go, side)[cy, cx]
            diff = np.flatnonzero(want != got)
            bad += len(diff)
            print('board %d: bgolly %.1f s, golgen %.1f s, %d differ' %
                  (k, t1 - t0, time.time() - t1, len(diff)), flush=True)
            for j in diff[:10]:
                print('  c n w e s = %d %d %d %d %d: bgolly %d, golgen %d'
                      % (c[j], n[j], w[j], e[j], s[j], want[j], got[j]))
    print('%s: %d differ' % (a.rule, bad))
    return 1 if bad else 0


if __name__ == '__main__':
    raise SystemExit(main())

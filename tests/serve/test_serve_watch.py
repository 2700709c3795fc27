#!/usr/bin/env python3
"""golgen serve's frames from inside the cpu kernel's pass (issue 41;
cli/serve/serve_watch.h): pages watch an 8192^2 torus running random
patches on the cpu backend (--fps 1000: a frame every few generations),
each at another zoom: single cells, blocks of 8 cells (inside a word), of
128 (two words, split between the kernel's tiles) and of 256 over the
whole torus shown wrapped (rows sampled: one in two); then an 8100^2 torus
(its last word holds 36 cells) with windows across its seam, of cells, of
2-cell blocks and of 4-cell blocks wrapped. Frames taken
inside a batch (flag 4) must come, and each must equal, byte for byte,
the frame drawn from `golgen run` to its generation: one generation
whole, never a mix of two.

    test_serve_watch.py GOLGEN"""
import bisect
import os
import random
import struct
import subprocess
import sys
import tempfile
import time

from wsclient import Client, start_server

GOLGEN = sys.argv[1]
# (torus side, views): a side that is a multiple of 64, then one that is
# not (its last word holds fewer cells), with windows across its seam
CASES = [(8192, ['view -128 -128 256 256 0',   # cells
                 'view -256 -256 64 64 3',     # 8 cells a block
                 'view -2048 -2048 32 32 7',   # 2 words a block
                 'view 0 0 48 40 8']),         # the torus, wrapped, sampled
         (8100, ['view 3950 -128 256 256 0',   # cells across the seam
                 'view -128 -128 2100 300 1',  # 2 cells a block, the seam
                 'view -50 -142 2030 40 2'])]  # 4-cell blocks, wrapped


def patch_rle(seed=41):
    """Random cells in two squares, at the centre and left of it, as RLE
    at their place."""
    rng = random.Random(seed)
    live = set()
    for x0, y0, w, h in ((-128, -128, 256, 256), (-4050, -128, 64, 256)):
        live |= {(x, y) for y in range(y0, y0 + h) for x in range(x0, x0 + w)
                 if rng.random() < 0.4}
    xs, ys = [x for x, _ in live], [y for _, y in live]
    x0, y0 = min(xs), min(ys)
    lines = []
    for y in range(y0, max(ys) + 1):
        row, run, prev = '', 0, None
        for x in range(x0, max(xs) + 1):
            c = 'o' if (x, y) in live else 'b'
            if c != prev and prev is not None:
                row += (str(run) if run > 1 else '') + prev
                run = 0
            prev, run = c, run + 1
        if prev == 'o':
            row += (str(run) if run > 1 else '') + prev
        lines.append(row)
    return ('#CXRLE Pos=%d,%d\nx = %d, y = %d, rule = B3/S23\n%s!\n' %
            (x0, y0, max(xs) - x0 + 1, max(ys) - y0 + 1, '$'.join(lines)))


def read_rle(text):
    """Live cells of golgen run's RLE: {y: sorted xs}."""
    x0 = y0 = 0
    body = []
    for line in text.splitlines():
        if line.startswith('#CXRLE'):
            for f in line.split()[1:]:
                if f.startswith('Pos='):
                    x0, y0 = map(int, f[4:].split(','))
        elif line.startswith('#') or line.startswith('x'):
            continue
        else:
            body.append(line.strip())
    rows, x, y, n = {}, x0, y0, ''
    for ch in ''.join(body):
        if ch.isdigit():
            n += ch
            continue
        k = int(n or 1)
        n = ''
        if ch == 'o':
            rows.setdefault(y, []).extend(range(x, x + k))
            x += k
        elif ch == 'b':
            x += k
        elif ch == '$':
            y += k
            x = x0
        elif ch == '!':
            break
    return {r: sorted(xs) for r, xs in rows.items()}


def head(data):
    level, cols, rows = struct.unpack_from('<III', data, 4)
    x, y, gen = struct.unpack_from('<qqq', data, 16)
    flags = struct.unpack_from('<I', data, 56)[0]
    ext = struct.unpack_from('<qqqq', data, 64)
    return level, cols, rows, x, y, gen, flags, ext


def sample(cols, rows, level):
    """serve_watch.c's sv_watch_sample: rows a block reads, 0: all."""
    side = 1 << level
    if level < 2 or cols * rows * side * side <= (1 << 26):
        return 0
    s = 1
    while s * 2 < side and cols * rows * side * s * 2 <= (1 << 26):
        s *= 2
    return s


def expected(cells, data):
    """The frame's blocks drawn from the cells golgen run wrote."""
    level, cols, rows, x, y, _, _, (ox, oy, w, h) = head(data)
    side = 1 << level
    s = sample(cols, rows, level)
    every = side // s if s else 1
    lines = side // every
    area = side * lines
    mul = int(254 * 2.0 ** 32 / area)

    def count(gy, gx):  # live cells of grid row gy in [gx, gx + side)
        xs = cells.get(oy + gy, [])
        a, b = ox + gx, ox + gx + side
        return bisect.bisect_left(xs, b) - bisect.bisect_left(xs, a)

    out = bytearray(cols * rows)
    for r in range(rows):
        for c in range(cols):
            gx = (x - ox + c * side) % w
            n = sum(count((y - oy + r * side + every // 2 + j * every) % h,
                          gx) for j in range(lines))
            out[r * cols + c] = n if level == 0 else \
                (n > 0) + min(254, (n * mul) >> 32)
    return bytes(out)


def run_case(tmp, pat, size, views):
    rule = 'B3/S23:T%d,%d' % (size, size)
    proc, url = start_server(GOLGEN, ['--backend', 'cpu', '--fps', '1000',
                                      '--rule', rule, pat])
    try:
        pages = [Client(url, timeout=60) for _ in views]
        for c, v in zip(pages, views):
            c.frame(v)  # each page has its view before the run
        pages[0].send('run')
        got = [[] for _ in views]
        t0 = time.time()
        while time.time() - t0 < 3 or \
                not all(any(h[6] & 4 for h, _ in g) for g in got):
            assert time.time() - t0 < 60, 'no frame taken inside a batch'
            for c, v in zip(pages, views):
                c.send(v)
            for i, c in enumerate(pages):
                while True:
                    op, data = c.recv()
                    if op == 2 and data[:4] == b'GGF1':
                        break
                    assert op != 1 or not data.startswith(b'error'), data
                got[i].append((head(data), data))
        pages[0].send('pause')
        # generations every page has a frame of taken inside a batch
        inside = [{h[5]: d for h, d in g if h[6] & 4} for g in got]
        common = sorted(set.intersection(*(set(i) for i in inside)))
        assert common, 'no generation shown inside a batch on every page'
        for i, g in enumerate(got):  # in order on each page
            gens = [h[5] for h, _ in g]
            assert gens == sorted(gens), (views[i], gens)
        picks = sorted({common[0], common[len(common) // 2], common[-1]})
        for gen in picks:
            out = os.path.join(tmp, 'g%d.rle' % gen)
            subprocess.run([GOLGEN, 'run', '--backend', 'cpu', '--rule', rule,
                            pat, '--gens', str(gen), '-o', out], check=True,
                           capture_output=True)
            with open(out) as f:
                cells = read_rle(f.read())
            for i, v in enumerate(views):
                data = inside[i][gen]
                want = expected(cells, data)
                have = data[224:]
                bad = sum(a != b for a, b in zip(want, have))
                assert bad == 0, '%s on %s at generation %d: %d of %d ' \
                    'blocks differ from golgen run' % (v, rule, gen, bad,
                                                      len(want))
        frames = [sum(1 for h, _ in g if h[6] & 4) for g in got]
        print('serve watch %s: %s frames taken inside batches (of %s), '
              'generations %s checked against golgen run on every view' %
              (rule, frames, [len(g) for g in got], picks))
        for c in pages:
            c.close()
    finally:
        proc.terminate()
        proc.wait(timeout=30)


def main():
    tmp = tempfile.mkdtemp(prefix='golgen-watch-')
    pat = os.path.join(tmp, 'patch.rle')
    with open(pat, 'w') as f:
        f.write(patch_rle())
    for size, views in CASES:
        run_case(tmp, pat, size, views)


main()

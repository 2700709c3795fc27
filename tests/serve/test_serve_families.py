#!/usr/bin/env python3
"""golgen serve draws the families it runs (issue 41): a Generations rule
(Star Wars, 345/2/4: four states) on a torus and on the unbounded plane,
stepped 12 generations, shows each cell's state, equal to `golgen run`'s
multi-state RLE at that generation; a frame of blocks shows a block as
live when any of its cells is in a state other than 0. A rule that does
not parse is refused by name and changes nothing.

    test_serve_families.py GOLGEN"""
import os
import random
import subprocess
import sys
import tempfile
import time

from wsclient import Client, start_server

GOLGEN = sys.argv[1]
RULE = '345/2/4'
STATE = '.ABCDEFGHIJKLMNOPQRSTUVWX'


def patch_rle(rule, seed=7, side=40):
    """Random cells in states 0..3 at (-20, -20), as multi-state RLE."""
    rng = random.Random(seed)
    rows = [''.join(STATE[rng.choice((0, 0, 1, 1, 2, 3))]
                    for _ in range(side)).rstrip('.') for _ in range(side)]
    return ('#CXRLE Pos=%d,%d\nx = %d, y = %d, rule = %s\n%s!\n' %
            (-side // 2, -side // 2, side, side, rule, '$'.join(rows)))


def read_states(text):
    """{(x, y): state} of golgen run's multi-state RLE (#CXRLE Pos)."""
    x0 = y0 = 0
    body = []
    for line in text.splitlines():
        if line.startswith('#CXRLE'):
            for f in line.split()[1:]:
                if f.startswith('Pos='):
                    x0, y0 = map(int, f[4:].split(','))
        elif not line.startswith('#') and not line.startswith('x'):
            body.append(line.strip())
    cells, x, y, n = {}, x0, y0, ''
    for ch in ''.join(body):
        if ch.isdigit():
            n += ch
            continue
        k = int(n or 1)
        n = ''
        if ch == '$':
            y += k
            x = x0
        elif ch == '!':
            break
        elif ch in ('.', 'b'):
            x += k
        else:
            s = 1 if ch == 'o' else STATE.index(ch)
            for i in range(k):
                cells[(x + i, y)] = s
            x += k
    return cells


def frame(c, view):
    c.send(view)
    while True:
        op, data = c.recv()
        if op == 2 and data[:4] == b'GGF1':
            return data
        assert op != 1 or not data.startswith(b'error'), data


def check(tmp, pat, rule):
    proc, url = start_server(GOLGEN, ['--backend', 'cpu', '--rule', rule,
                                      pat])
    try:
        c = Client(url, timeout=60)
        c.send('step 12')
        deadline = time.time() + 60
        while True:
            data = frame(c, 'view -64 -64 128 128 0')
            gen = int.from_bytes(data[32:40], 'little')
            states = int.from_bytes(data[60:64], 'little')
            if gen == 12:
                break
            assert time.time() < deadline, 'the step did not end'
            time.sleep(0.05)
        assert states == 4, states
        out = os.path.join(tmp, 'out.rle')
        subprocess.run([GOLGEN, 'run', '--backend', 'cpu', '--rule', rule,
                        pat, '--gens', '12', '-o', out], check=True,
                       capture_output=True)
        with open(out) as f:
            want = read_states(f.read())
        have = data[224:]
        bad = [(x, y) for y in range(-64, 64) for x in range(-64, 64)
               if have[(y + 64) * 128 + x + 64] != want.get((x, y), 0)]
        assert not bad, '%s: %d cells differ from golgen run, e.g. %s' % (
            rule, len(bad), bad[:5])
        assert len(set(have)) == 4, sorted(set(have))  # all four states
        # blocks of 4 cells: live where any cell is in a state but 0
        blocks = frame(c, 'view -64 -64 32 32 2')[224:]
        for by in range(32):
            for bx in range(32):
                live = any(want.get((-64 + 4 * bx + i, -64 + 4 * by + j), 0)
                           for i in range(4) for j in range(4))
                assert (blocks[by * 32 + bx] != 0) == live, (rule, bx, by)
        c.close()
        return len(want)
    finally:
        proc.terminate()
        proc.wait(timeout=30)


def refusals():
    """A rule that does not parse is refused, naming what is wrong, on the
    command line and over the socket, and the server goes on unchanged
    (the families beyond Generations: test_serve_more_families.py)."""
    out = subprocess.run([GOLGEN, 'serve', '--port', '0', '--rule',
                          'R2,C0,M1,S2..3,B3..3,NX'], capture_output=True,
                         text=True, timeout=30)
    assert out.returncode == 2 and 'Larger than Life' in out.stderr, out
    proc, url = start_server(GOLGEN, ['--backend', 'cpu'])
    try:
        c = Client(url, timeout=60)
        before = frame(c, 'view -8 -8 16 16 0')
        c.send('rule 3D:B5/S45')
        assert '3D' in c.recv_text('error')
        after = frame(c, 'view -8 -8 16 16 0')
        assert after[96:208] == before[96:208]
        assert after[224:] == before[224:]
        c.close()
    finally:
        proc.terminate()
        proc.wait(timeout=30)


def main():
    refusals()
    tmp = tempfile.mkdtemp(prefix='golgen-families-')
    pat = os.path.join(tmp, 'patch.rle')
    with open(pat, 'w') as f:
        f.write(patch_rle(RULE))
    for rule in (RULE + ':T256,256', RULE):
        n = check(tmp, pat, rule)
        print('serve families: %s shown in 4 states, %d cells at generation '
              '12 equal golgen run' % (rule, n))


main()

#!/usr/bin/env python3
"""golgen serve's messages beyond the basics (issue 41), over a raw
socket (tests/serve/wsclient.py): paste a pattern into the running
universe at a position, save as macrocell (read back by golgen run) and
as a picture (the page makes the PNG), make a random soup on a torus
(the same seed gives the same cells, 50 percent is golgen bench's soup
density), a torus view wraps, frames carry the generation reached, a
60 ms step is shown without lag, and a paused view of many blocks is
exact.

    test_serve_features.py GOLGEN"""
import os
import struct
import subprocess
import sys
import tempfile
import time

from wsclient import Client, start_server

GOLGEN = sys.argv[1]
GLIDER = 'x = 3, y = 3, rule = B3/S23\nbo$2bo$3o!\n'


def head(data):
    """gen, pop, flags, states, extent (x, y, w, h), live generation."""
    gen, pop = struct.unpack_from('<qq', data, 32)
    flags, states = struct.unpack_from('<II', data, 56)
    ext = struct.unpack_from('<qqqq', data, 64)
    live = struct.unpack_from('<q', data, 208)[0]
    return gen, pop, flags, states, ext, live


def frame(c, view):
    c.send(view)
    while True:
        op, data = c.recv()
        if op == 2 and data[:4] == b'GGF1':
            return data
        if op == 1 and data.startswith(b'error\n'):
            raise AssertionError(data.decode())


def no_error(c):
    """Nothing refused so far: fit answers, with no error before it."""
    c.send('fit')
    while True:
        op, data = c.recv()
        if op == 1 and data.startswith(b'fit\n'):
            return
        assert not data.startswith(b'error\n'), data.decode()


def main():
    tmp = tempfile.mkdtemp(prefix='golgen-serve-')
    proc, url = start_server(GOLGEN, ['--backend', 'cpu'])
    try:
        c = Client(url)
        _, pop0, _, _, _, _ = head(frame(c, 'view -8 -8 16 16 0'))
        assert pop0 == 5, pop0  # the R-pentomino
        # paste a glider at (100, 50): the pentomino stays, 5 cells more
        c.send('paste 100 50\n' + GLIDER)
        no_error(c)
        data = frame(c, 'view 100 50 3 3 0')
        assert head(data)[1] == 10, head(data)
        assert list(data[224:]) == [0, 1, 0, 0, 0, 1, 1, 1, 1], \
            list(data[224:])
        # a paste far off grows the plane; one with a state the rule
        # lacks is refused and changes nothing
        c.send('paste -3000 2000\n' + GLIDER)
        no_error(c)
        c.send('paste 0 0\nx = 2, y = 1, rule = 23/3/3\nAB!')
        assert 'state 2' in c.recv_text('error')
        assert head(frame(c, 'view -3000 2000 3 3 0'))[1] == 15
        # save as RLE and macrocell: golgen run reads the macrocell back
        # to the same cells
        c.send('save')
        rle = c.recv_text('rle').split('\n', 1)[1]
        c.send('save mc')
        mc = c.recv_text('mc').split('\n', 1)[1]
        assert mc.startswith('[M2]'), mc[:40]
        with open(os.path.join(tmp, 'a.mc'), 'w') as f:
            f.write(mc)
        with open(os.path.join(tmp, 'a.rle'), 'w') as f:
            f.write(rle)
        for name in ('a.mc', 'a.rle'):
            subprocess.run([GOLGEN, 'run', '--gens', '0', '-o',
                            os.path.join(tmp, name + '.out.rle'),
                            os.path.join(tmp, name)], check=True,
                           stderr=subprocess.DEVNULL)
        got = [open(os.path.join(tmp, n + '.out.rle')).read().split('\n')
               for n in ('a.mc', 'a.rle')]
        body = [[ln for ln in g if ln and not ln.startswith('#')]
                for g in got]
        assert body[0] == body[1], body
        # the picture: one pixel a cell of the live box, white ones live
        c.send('save png')
        while True:
            op, data = c.recv()
            if op == 2 and data[:4] == b'GGP1':
                break
        w, h, colours = struct.unpack_from('<III', data, 4)
        pal = data[16:784]
        idx = data[784:]
        assert len(idx) == w * h, (len(idx), w, h)
        white = sum(1 for i in idx if pal[3 * i:3 * i + 3] == b'\xff\xff\xff')
        assert white == 15, white
        # a soup: a torus, about half alive, the same seed the same cells
        c.send('soup 200 120 50 7')
        d = frame(c, 'view -100 -60 200 120 0')
        gen, pop, flags, _, ext, _ = head(d)
        assert flags & 2 and ext == (-100, -60, 200, 120), (flags, ext)
        assert gen == 0 and 0.45 < pop / 24000 < 0.55, (gen, pop)
        cells = d[224:]
        c.send('soup 200 120 50 7')
        assert frame(c, 'view -100 -60 200 120 0')[224:] == cells
        c.send('soup 200 120 50 8')
        assert frame(c, 'view -100 -60 200 120 0')[224:] != cells
        c.send('soup 200 120 0 1')
        assert head(frame(c, 'view -100 -60 8 8 0'))[1] == 0
        c.send('soup 200 120 100 1')
        assert head(frame(c, 'view -100 -60 8 8 0'))[1] == 24000
        c.send('soup 65537 65536 50 1')
        assert '2^32' in c.recv_text('error')
        # the torus wraps: a window one torus width to the right shows the
        # same cells, also zoomed out; a cell set off the torus wraps
        c.send('soup 256 128 30 3')
        a = frame(c, 'view -128 -64 256 128 0')[224:]
        assert frame(c, 'view 128 -64 256 128 0')[224:] == a
        assert frame(c, 'view -384 64 256 128 0')[224:] == a
        z = frame(c, 'view -128 -64 64 32 2')[224:]
        assert frame(c, 'view 128 -64 64 32 2')[224:] == z
        # paused, zoomed-out frames are exact: all alive is shade 255
        # everywhere, one live cell in a block of 256 shows
        c.send('soup 256 128 100 1')
        assert set(frame(c, 'view -128 -64 64 32 2')[224:]) == {255}
        c.send('clear')
        c.send('set 5 7 1')
        z = frame(c, 'view -128 -64 16 8 4')[224:]
        assert sorted(z) == [0] * 127 + [1], sorted(set(z))
        c.send('clear')
        c.send('set 300 0 1')  # wraps to (44, 0)
        d = frame(c, 'view 44 0 1 1 0')
        assert d[224] == 1 and head(d)[1] == 1, head(d)
        # the generation reached comes with each frame; a 60 ms step is
        # shown without lag
        c.send('soup 256 128 30 3')
        c.send('speed 60')
        c.send('run')
        # until 24 generations were shown (about 1.5 s; a loaded machine
        # only takes longer: the deadline is a hang's)
        lags, gens = [], set()
        deadline = time.time() + 120
        while len(gens) < 24:
            assert time.time() < deadline, ('generations shown', len(gens))
            gen, _, _, _, _, live = head(frame(c, 'view -128 -64 64 32 2'))
            lags.append(live - gen)
            gens.add(gen)
            time.sleep(0.02)
        c.send('pause')
        assert max(lags) <= 1, max(lags)
        c.close()
        assert proc.poll() is None
        print('serve features: paste, save mc / png, soup, torus wrap; '
              '60 ms step: %d generations shown, lag at most %d' %
              (len(gens), max(lags)))
    finally:
        proc.terminate()
        rc = proc.wait(timeout=20)
    assert rc == 0, rc


main()

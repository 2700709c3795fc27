#!/usr/bin/env python3
"""golgen serve's rate bar (issue 41), measured headless with wsclient.py:
a SIZE x SIZE torus soup (density 1/2, seed 1: golgen bench's soup) runs on
the cpu backend while a client asks for frames as a page does (the next
one when the last arrived, at most FPS a second) of a fixed 1200 x 800
pixel view, either the whole torus (zoomed out, blocks of 64 cells) or
single cells. Reported per round:

  bench      golgen bench --backend cpu on the same torus (generations/s)
  alone      golgen serve running the soup with no frames asked for
  whole/cells  the same with the client asking for frames: frames/s
             (and how many showed a new generation, how many generations
             apart those were, and the share taken from inside a batch:
             cli/serve/serve_watch.h), generations/s, and the lag of each
             frame (generations the simulation had reached when it was
             sent, minus the one drawn: frames taken inside a batch are
             sent during the next one, so they lag by up to a batch)
  step60     speed 60 ms a step, frames of the whole torus: the most a
             frame lagged (bar: one), frames/s

Generations per CPU second of the whole golgen process are given beside
the wall-clock rates: on a machine shared with other work they say what
the frames cost better than wall time does. Rounds alternate the modes so
that load from other work falls on all of them.

    rate.py GOLGEN [--size 32768] [--seconds 8] [--rounds 2] [--fps 60]
            [--batch-ms MS]"""
import argparse
import os
import re
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from wsclient import Client, start_server  # noqa: E402

TICK = os.sysconf('SC_CLK_TCK')


def cpu_seconds(pid):
    with open('/proc/%d/stat' % pid) as f:
        fields = f.read().rsplit(')', 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / TICK


def header(data):
    gen = int.from_bytes(data[32:40], 'little', signed=True)
    live = int.from_bytes(data[208:216], 'little', signed=True)
    inside = int.from_bytes(data[56:60], 'little') & 4 != 0
    return gen, live, inside


def views(size):
    """The page's requests for a 1200 x 800 canvas: the whole torus (as
    Fit asks for it) and single cells at its centre."""
    zoom = min(1200 / (size + 2), 800 / (size + 2))
    level = 0
    while zoom * 2 ** level < 1:
        level += 1
    block = 2 ** level
    bpx = zoom * block
    cols, rows = int(-(-1200 // bpx)) + 2, int(-(-800 // bpx)) + 2
    x = (-size // 2) // block * block
    whole = 'view %d %d %d %d %d' % (x - block, x - block, cols, rows, level)
    cells = 'view -600 -400 1202 802 0'
    return whole, cells


class Serve:
    def __init__(self, golgen, size, batch_ms):
        args = ['--backend', 'cpu']
        if batch_ms:
            args += ['--batch-ms', str(batch_ms)]
        self.proc, url = start_server(golgen, args)
        self.c = Client(url, timeout=120)
        self.c.send('soup %d %d 50 1' % (size, size))
        self.gen()  # the soup is made when this frame comes

    def gen(self):
        """The generation now (a frame of a few cells)."""
        while True:
            g, _, _ = self.c.frame('view 0 0 4 4 0')
            return g

    def close(self):
        self.c.close()
        self.proc.terminate()
        self.proc.wait(timeout=30)


def run_alone(s, seconds):
    s.c.send('speed 0')
    s.c.send('run')
    time.sleep(1)  # the backend opens, batches settle
    g0, t0, c0 = s.gen(), time.time(), cpu_seconds(s.proc.pid)
    time.sleep(seconds)
    g1, t1, c1 = s.gen(), time.time(), cpu_seconds(s.proc.pid)
    s.c.send('pause')
    return (g1 - g0) / (t1 - t0), (g1 - g0) / (c1 - c0)


def run_frames(s, seconds, view, fps, speed=0):
    s.c.send('speed %d' % speed)
    s.c.send('run')
    time.sleep(1)
    frames, lags, first, last, shown = 0, [], None, None, set()
    inside = 0
    c0 = cpu_seconds(s.proc.pid)
    t0 = time.time()
    next_at = t0
    while time.time() - t0 < seconds:
        now = time.time()
        if now < next_at:
            time.sleep(next_at - now)
        next_at = max(next_at + 1 / fps, time.time())
        s.c.send(view)
        while True:
            op, data = s.c.recv()
            if op == 2:
                break
        gen, live, within = header(data)
        inside += within
        frames += 1
        shown.add(gen)
        lags.append(live - gen)
        first = first or (gen, time.time())
        last = (gen, time.time())
    t1, c1 = time.time(), cpu_seconds(s.proc.pid)
    s.c.send('pause')
    gens = last[0] - first[0]
    return {'fps': frames / (t1 - t0), 'gps': gens / (last[1] - first[1]),
            'new': len(shown) / (t1 - t0),
            'batch': gens / max(1, len(shown) - 1),
            'gpcpu': gens / (c1 - c0), 'lag_max': max(lags),
            'inside': inside / frames,
            'lag_mean': sum(lags) / len(lags), 'frames': frames}


def bench(golgen, size, gens):
    out = subprocess.run([golgen, 'bench', '--backend', 'cpu', '--size',
                          '%dx%d' % (size, size), '--gens', str(gens)],
                         capture_output=True, text=True, check=True)
    text = out.stdout + out.stderr
    m = re.search(r'generations: ([\d.]+) s, .*; ([\d.]+) CPU s', text)
    wall, cpu = float(m.group(1)), float(m.group(2))
    return gens / wall, gens / cpu


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('golgen')
    ap.add_argument('--size', type=int, default=32768)
    ap.add_argument('--seconds', type=float, default=8)
    ap.add_argument('--rounds', type=int, default=2)
    ap.add_argument('--fps', type=float, default=60)
    ap.add_argument('--batch-ms', type=int, default=0,
                    help="golgen serve --batch-ms (0: its default)")
    a = ap.parse_args()
    whole, cells = views(a.size)
    print('torus %d^2, cpu backend, --batch-ms %s; views: whole "%s", cells "%s"; frames '
          'asked at most %g/s' % (a.size, a.batch_ms or 'default', whole, cells, a.fps))
    s = Serve(a.golgen, a.size, a.batch_ms)
    gen_rate = None
    try:
        for r in range(a.rounds):
            if gen_rate is None:
                gen_rate = max(1.0, run_alone(s, 2)[0])
            gb, gbc = bench(a.golgen, a.size,
                            max(10, int(gen_rate * a.seconds)))
            print('round %d bench   %7.1f gen/s  %7.1f gen/CPU-s' %
                  (r + 1, gb, gbc), flush=True)
            ga, gac = run_alone(s, a.seconds)
            print('round %d alone   %7.1f gen/s  %7.1f gen/CPU-s (%3.0f%% '
                  'of bench)' % (r + 1, ga, gac, 100 * gac / gbc), flush=True)
            for name, view in (('whole', whole), ('cells', cells)):
                f = run_frames(s, a.seconds, view, a.fps)
                print('round %d %-7s %7.1f gen/s  %7.1f gen/CPU-s (%3.0f%% '
                      'of bench)  %5.1f frames/s (%4.1f new, %.1f generations '
                      'apart, %3.0f%% taken inside a batch)  lag mean %.2f '
                      'max %d generations' %
                      (r + 1, name, f['gps'], f['gpcpu'],
                       100 * f['gpcpu'] / gbc, f['fps'], f['new'], f['batch'],
                       100 * f['inside'], f['lag_mean'], f['lag_max']),
                      flush=True)
            f = run_frames(s, a.seconds, whole, a.fps, speed=60)
            print('round %d step60  %7.1f gen/s  %5.1f frames/s  lag max %d '
                  'generations (mean %.2f)' % (r + 1, f['gps'], f['fps'],
                                               f['lag_max'], f['lag_mean']),
                  flush=True)
    finally:
        s.close()


main()

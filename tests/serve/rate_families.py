#!/usr/bin/env python3
"""Generations a second golgen serve runs a pattern at, at full speed with
a page asking for frames (BENCHMARKS.md, "golgen serve: other
families"): serve ARGS, run, ask for a frame every 30 ms for SECONDS,
count the generations shown over the last SECONDS - 2.

    rate_families.py GOLGEN SECONDS SERVE-ARGS..."""
import struct
import sys
import time

from wsclient import Client, start_server

GOLGEN, SECONDS = sys.argv[1], float(sys.argv[2])
proc, url = start_server(GOLGEN, sys.argv[3:])
try:
    c = Client(url, timeout=120)
    c.frame('view 0 0 64 64 4')
    c.send('run')
    t0 = time.time()
    g0 = t1 = None
    while time.time() - t0 < SECONDS:
        gen, _, _ = c.frame('view 0 0 64 64 4')
        if g0 is None and time.time() - t0 > 2:
            g0, t1 = gen, time.time()
        time.sleep(0.03)
    c.send('view 0 0 64 64 4')
    while True:
        op, data = c.recv()
        if op == 2:
            break
    info = data[96:208].split(b'\0')[0].decode()
    print('%s: %.0f generations/s over %.0f s (%s)' % (
        ' '.join(sys.argv[3:]), (gen - g0) / (time.time() - t1),
        time.time() - t1, info))
    c.close()
finally:
    proc.terminate()
    proc.wait(timeout=30)

#!/usr/bin/env python3
"""golgen serve's rate bar in a real browser (issue 41): Debian's chromium,
headless, under Playwright, shows a SIZE x SIZE torus soup (golgen bench's:
density 1/2, seed 1) on a 1200 x 800 page, fitted (the whole torus) or at
single cells, running on the cpu backend. Per round: golgen bench on the
same torus, then the page for SECONDS: frames the page drew a second, how
many showed a new generation, and generations per CPU second of golgen
(the page's own CPU is chromium's, not counted) as a share of bench's.

    rate_browser.py GOLGEN [--size 32768] [--seconds 10] [--rounds 2]"""
import argparse
import os
import re
import subprocess
import sys
import time

from playwright.sync_api import sync_playwright

from wsclient import start_server

TICK = os.sysconf('SC_CLK_TCK')


def cpu_seconds(pid):
    with open('/proc/%d/stat' % pid) as f:
        fields = f.read().rsplit(')', 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / TICK


def bench(golgen, size, gens):
    out = subprocess.run([golgen, 'bench', '--backend', 'cpu', '--size',
                          '%dx%d' % (size, size), '--gens', str(gens)],
                         capture_output=True, text=True, check=True)
    m = re.search(r'generations: ([\d.]+) s, .*; ([\d.]+) CPU s',
                  out.stdout + out.stderr)
    return gens / float(m.group(1)), gens / float(m.group(2))


def state(page):
    return page.evaluate('() => [window.golgen.frames, '
                         'window.golgen.newFrames, '
                         'Number(document.getElementById("gen").textContent)]')


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('golgen')
    ap.add_argument('--size', type=int, default=32768)
    ap.add_argument('--seconds', type=float, default=10)
    ap.add_argument('--rounds', type=int, default=2)
    a = ap.parse_args()
    proc, url = start_server(a.golgen, ['--backend', 'cpu'])
    try:
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path='/usr/bin/chromium',
                                        args=['--no-sandbox'])
            page = browser.new_page(viewport={'width': 1200, 'height': 800})
            page.goto(url)
            page.wait_for_function('window.golgen.frames > 0')
            for k, v in (('sw', a.size), ('sh', a.size), ('sd', 50),
                         ('ss', 1)):
                page.fill('#' + k, str(v))
            page.click('#soup')
            page.wait_for_function(
                '() => document.getElementById("pop").textContent > 1000000',
                timeout=120000)
            rate = None
            for r in range(a.rounds):
                for view in ('whole', 'cells'):
                    if view == 'whole':
                        page.click('#fit')
                    else:
                        page.evaluate('window.golgen.setView(0, 0, 1)')
                    gens = max(10, int((rate or 100) * a.seconds))
                    gb, gbc = bench(a.golgen, a.size, gens)
                    page.click('#run')
                    time.sleep(2)
                    f0, n0, g0 = state(page)
                    c0, t0 = cpu_seconds(proc.pid), time.time()
                    time.sleep(a.seconds)
                    f1, n1, g1 = state(page)
                    c1, t1 = cpu_seconds(proc.pid), time.time()
                    page.click('#run')  # pause
                    time.sleep(1)
                    rate = (g1 - g0) / (t1 - t0)
                    print('round %d %-5s bench %6.1f gen/s %6.1f gen/CPU-s | '
                          'page %5.1f frames/s (%5.1f new)  %6.1f gen/s '
                          '%6.1f gen/CPU-s (%3.0f%% of bench)' %
                          (r + 1, view, gb, gbc, (f1 - f0) / (t1 - t0),
                           (n1 - n0) / (t1 - t0), rate, (g1 - g0) / (c1 - c0),
                           100 * (g1 - g0) / (c1 - c0) / gbc), flush=True)
            page.screenshot(path='/tmp/golgen-rate-browser.png')
            browser.close()
    finally:
        proc.terminate()
        proc.wait(timeout=30)


main()

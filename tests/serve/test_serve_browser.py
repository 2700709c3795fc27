#!/usr/bin/env python3
"""golgen serve in a real browser (issue 41): Debian's chromium, headless,
driven by Playwright for Python. Open the page, paste Golly's Gosper
glider gun, run about 100 generations (20 ms a step), pause, read the
generation and population shown, draw a blinker (three clicks), step once,
save the RLE (a download), and check it against golgen run and bgolly
from the same generation with the same three cells added; save the
macrocell (golgen run reads back the same cells) and the PNG; paste a
glider at a click; load a WireWorld pattern (its states drawn in the rule
file's @COLORS) and change to a 3D rule (z+ moves the slice). The
screenshot
and the saved RLE stay in OUTDIR.

    test_serve_browser.py GOLGEN OUTDIR"""
import os
import re
import shutil
import subprocess
import sys
import time

from playwright.sync_api import sync_playwright

from wsclient import start_server

GOLGEN, OUT = sys.argv[1], sys.argv[2]
GUN = '/usr/share/golly/Patterns/Life/Guns/gosper-glider-gun.rle'
FALLBACK_GUN = """#N Gosper glider gun
x = 36, y = 9, rule = B3/S23
24bo$22bobo$12b2o6b2o12b2o$11bo3bo4b2o12b2o$2o8bo5bo3b2o$2o8bo3bob2o4b
obo$10bo5bo7bo$11bo3bo$12b2o!
"""


def rle_cells(text):
    """The live cells of a two-state RLE, in Golly coordinates (#CXRLE
    Pos, else (0, 0) as on the unbounded plane)."""
    x0 = y0 = 0
    body = []
    for line in text.splitlines():
        m = re.match(r'#CXRLE.*Pos=(-?\d+),(-?\d+)', line)
        if m:
            x0, y0 = int(m.group(1)), int(m.group(2))
        elif line.startswith('#') or line.startswith('x'):
            continue
        else:
            body.append(line.strip())
    cells, x, y, n = set(), 0, 0, ''
    for ch in ''.join(body):
        if ch.isdigit():
            n += ch
            continue
        k = int(n) if n else 1
        n = ''
        if ch == 'b':
            x += k
        elif ch == 'o':
            cells.update((x0 + x + i, y0 + y) for i in range(k))
            x += k
        elif ch == '$':
            y += k
            x = 0
        elif ch == '!':
            break
    return cells


def shape(cells):
    x0 = min(x for x, _ in cells)
    y0 = min(y for _, y in cells)
    return {(x - x0, y - y0) for x, y in cells}


def cells_rle(cells):
    """RLE of a cell set, placed by #CXRLE Pos (golgen and bgolly read it)."""
    xs = [c[0] for c in cells]
    ys = [c[1] for c in cells]
    x0, y0 = min(xs), min(ys)
    rows = []
    for y in range(y0, max(ys) + 1):
        rows.append(''.join('o' if (x, y) in cells else 'b'
                            for x in range(x0, max(xs) + 1)).rstrip('b'))
    return ('#CXRLE Pos=%d,%d\nx = %d, y = %d, rule = B3/S23\n%s!\n' %
            (x0, y0, max(xs) - x0 + 1, max(ys) - y0 + 1, '$'.join(rows)))


def run(cmd):
    subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL,
                   stderr=subprocess.PIPE)


def pixel(page, x, y):
    """The canvas's colour at cell (x, y)'s centre."""
    return page.evaluate("""([x, y]) => {
        const [sx, sy] = window.golgen.screenOf(x, y);
        const c = document.getElementById('canvas');
        return Array.from(c.getContext('2d').getImageData(
            Math.floor(sx), Math.floor(sy), 1, 1).data.slice(0, 3)); }""",
                         [x, y])


def other_families(page):
    """A rule table's states in its @COLORS (WireWorld's states 1, 2, 3:
    light blue, white, orange) and a 3D rule's slice moved by z+."""
    page.fill('#paste', 'x = 3, y = 1, rule = WireWorld\nABC!\n')
    page.click('#load')
    page.wait_for_function(
        "document.getElementById('info').textContent.startsWith('WireWorld')")
    page.evaluate('window.golgen.setView(1.5, 0.5, 16)')
    want = [[0, 128, 255], [255, 255, 255], [255, 128, 0]]
    deadline = time.time() + 20
    while [pixel(page, x, 0) for x in range(3)] != want:
        assert time.time() < deadline, [pixel(page, x, 0) for x in range(3)]
        time.sleep(0.1)
    page.fill('#rule', '3D5..7/6:T8')
    page.click('#setrule')
    page.wait_for_function(
        "document.getElementById('info').textContent.endsWith('z=4/8')")
    page.click('#zup')
    page.wait_for_function(
        "document.getElementById('info').textContent.endsWith('z=5/8')")
    return want, '4 -> 5'


def main():
    os.makedirs(OUT, exist_ok=True)
    gun = open(GUN).read() if os.path.exists(GUN) else FALLBACK_GUN
    gun_path = os.path.join(OUT, 'gun.rle')
    open(gun_path, 'w').write(gun)
    proc, url = start_server(GOLGEN, ['--backend', 'cpu'])
    try:
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path='/usr/bin/chromium',
                                        headless=True,
                                        args=['--no-sandbox'])
            page = browser.new_page(viewport={'width': 1200, 'height': 800},
                                    accept_downloads=True)
            page.goto(url)
            page.wait_for_function('window.golgen && window.golgen.frames > 0')
            page.fill('#paste', gun)
            page.click('#load')
            page.wait_for_function(
                "document.getElementById('pop').textContent === '36' && "
                "document.getElementById('gen').textContent === '0'")
            # about 100 generations at 20 ms a step, then pause
            page.evaluate("""() => { const s = document.getElementById('speed');
                s.value = 20; s.dispatchEvent(new Event('input')); }""")
            page.click('#run')
            page.wait_for_function(
                "Number(document.getElementById('gen').textContent) >= 100",
                timeout=60000)
            page.click('#run')  # Pause
            page.wait_for_function('!window.golgen.running()')
            time.sleep(0.3)
            gen = int(page.text_content('#gen'))
            pop = int(page.text_content('#pop'))
            time.sleep(0.3)
            assert gen == int(page.text_content('#gen')), 'still running'
            assert 95 <= gen <= 200, gen
            # golgen run and bgolly at that generation
            at_g = os.path.join(OUT, 'golgen-at-g.rle')
            run([GOLGEN, 'run', '--gens', str(gen), '-o', at_g, gun_path])
            cells = rle_cells(open(at_g).read())
            assert len(cells) == pop, ('population shown', pop,
                                       'golgen run', len(cells))
            # a blinker where nothing lives within 6 cells
            spot = next(s for s in [(-20, -20), (-20, 40), (60, -20),
                                    (-40, 10), (10, -40)]
                        if not any(abs(x - s[0]) < 8 and abs(y - s[1]) < 6
                                   for x, y in cells))
            blinker = [(spot[0] + i, spot[1]) for i in range(3)]
            page.evaluate('([x, y]) => window.golgen.setView(x, y, 12)',
                          list(spot))
            box = page.locator('#canvas').bounding_box()
            for x, y in blinker:
                frames = page.evaluate('window.golgen.frames')
                page.wait_for_function('window.golgen.frames > %d' % (frames + 2))
                sx, sy = page.evaluate('([x, y]) => window.golgen.screenOf(x, y)',
                                       [x, y])
                page.mouse.click(box['x'] + sx, box['y'] + sy)
            page.wait_for_function(
                "Number(document.getElementById('pop').textContent) === %d"
                % (pop + 3))
            page.click('#step')
            page.wait_for_function(
                "document.getElementById('gen').textContent === '%d'"
                % (gen + 1))
            pop1 = int(page.text_content('#pop'))
            with page.expect_download() as dl:
                page.click('#save')
            saved = os.path.join(OUT, 'saved.rle')
            dl.value.save_as(saved)
            # the same universe as macrocell and PNG (made by the page)
            with page.expect_download() as dl:
                page.click('#savemc')
            saved_mc = os.path.join(OUT, 'saved.mc')
            dl.value.save_as(saved_mc)
            with page.expect_download() as dl:
                page.click('#savepng')
            saved_png = os.path.join(OUT, 'saved.png')
            dl.value.save_as(saved_png)
            png = page.evaluate('window.golgen.png')
            # paste a glider into the running universe at a click
            page.fill('#paste', 'x = 3, y = 3, rule = B3/S23\nbo$2bo$3o!\n')
            page.click('#pasteat')
            frames = page.evaluate('window.golgen.frames')
            page.wait_for_function('window.golgen.frames > %d' % (frames + 2))
            sx, sy = page.evaluate('([x, y]) => window.golgen.screenOf(x, y)',
                                   [spot[0], spot[1] + 3])
            page.mouse.click(box['x'] + sx, box['y'] + sy)
            page.wait_for_function(
                "Number(document.getElementById('pop').textContent) === %d"
                % (pop1 + 5))
            page.screenshot(path=os.path.join(OUT, 'serve.png'))
            errors = page.evaluate('window.golgen.errors')
            colours, zs = other_families(page)
            browser.close()
        assert not errors, errors
        text = open(saved).read()
        assert re.search(r'Gen=%d\b' % (gen + 1), text), text[:200]
        got = rle_cells(text)
        # the same edit on a copy, one generation more, by both programs
        edited = os.path.join(OUT, 'edited.rle')
        open(edited, 'w').write(cells_rle(cells | set(blinker)))
        ref = os.path.join(OUT, 'golgen-ref.rle')
        run([GOLGEN, 'run', '--gens', '1', '-o', ref, edited])
        want = rle_cells(open(ref).read())
        assert got == want, 'the page saved %d cells, golgen run %d' % (
            len(got), len(want))
        # the macrocell saved holds the same cells (golgen run reads it)
        mc_rle = os.path.join(OUT, 'saved-mc.rle')
        run([GOLGEN, 'run', '--gens', '0', '-o', mc_rle, saved_mc])
        assert rle_cells(open(mc_rle).read()) == got, 'the .mc differs'
        head = open(saved_png, 'rb').read(24)
        assert head[:8] == b'\x89PNG\r\n\x1a\n', head
        assert (int.from_bytes(head[16:20], 'big'),
                int.from_bytes(head[20:24], 'big')) == (png['width'],
                                                       png['height']), png
        if shutil.which('bgolly'):
            bref = os.path.join(OUT, 'bgolly-ref.rle')
            run(['bgolly', '-a', 'HashLife', '-q', '-q', '-m', '1', '-o', bref,
                 edited])
            # bgolly writes no #CXRLE Pos: compare the shapes, placed
            # at their boxes' corners
            assert shape(got) == shape(rle_cells(open(bref).read())), \
                'bgolly differs'
            also = ' and bgolly'
        else:
            also = ' (no bgolly here)'
        print('browser: gun run to generation %d (population %d shown), a '
              'blinker drawn, one step: the saved RLE (%d cells) equals golgen '
              'run%s, the saved .mc too, a %dx%d PNG; a glider pasted at a '
              'click; screenshot %s; WireWorld drawn in its @COLORS %s, a 3D '
              'slice moved %s' % (gen, pop, len(got), also, png['width'],
                                  png['height'],
                                  os.path.join(OUT, 'serve.png'), colours,
                                  zs))
    finally:
        proc.terminate()
        proc.wait(timeout=20)


main()

#!/usr/bin/env python3
"""golgen serve in a real browser (issue 41): Debian's chromium, headless,
driven by Playwright for Python. Open the page, paste Golly's Gosper
glider gun, run about 100 generations (20 ms a step), pause, read the
generation and population shown, draw a blinker (three clicks), step once,
save the RLE (a download), and check it against golgen run and bgolly
from the same generation with the same three cells added; save the
macrocell (golgen run reads back the same cells) and the PNG; paste a
glider at a click; a second tab shows the same universe; the saved
macrocell dropped on the page loads it again; load a WireWorld pattern (its states drawn in the rule
file's @COLORS, state 2 drawn and erased with the state picker) and change
to a 3D rule (z+ and z- move the slice, Projection shows every z). Every
wait is for a state of the page (a frame, a status, a pixel), none for a
time, so a loaded machine only makes it slower. The screenshot and the
saved RLE stay in OUTDIR.

    test_serve_browser.py GOLGEN OUTDIR"""
import os
import re
import shutil
import subprocess
import sys

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


# the canvas's colour at cell (x, y)'s centre, in the page
PIXEL = """(x, y) => {
    const [sx, sy] = window.golgen.screenOf(x, y);
    const c = document.getElementById('canvas');
    return Array.from(c.getContext('2d').getImageData(
        Math.floor(sx), Math.floor(sy), 1, 1).data.slice(0, 3)); }"""


def wait_pixels(page, want):
    """Until the canvas shows want ({(x, y): [r, g, b]}): waits for the
    page's state, not a time (a loaded machine draws late, never wrong)."""
    cells = [[x, y, rgb] for (x, y), rgb in want.items()]
    page.wait_for_function("""(cells) => { const px = %s;
        return cells.every(([x, y, rgb]) =>
            px(x, y).every((v, i) => v === rgb[i])); }""" % PIXEL, arg=cells)


def wait_info(page, end):
    """Until the status line's rule | backend part ends with end."""
    page.wait_for_function(
        "(e) => document.getElementById('info').textContent.endsWith(e)",
        arg=end)


def load(page, text):
    """Paste text and Load; back once the page has taken the server's
    "fit" (sent after the load, answered in order), so a view set later
    is not moved by it."""
    fits = page.evaluate('window.golgen.fits')
    page.fill('#paste', text)
    page.click('#load')
    page.wait_for_function('(n) => window.golgen.fits > n', arg=fits)


def click_cell(page, x, y):
    """A click on cell (x, y) once the page has drawn frames of the view
    it is on (screenOf is where that view puts the cell)."""
    frames = page.evaluate('window.golgen.frames')
    page.wait_for_function('(n) => window.golgen.frames > n', arg=frames + 2)
    box = page.locator('#canvas').bounding_box()
    sx, sy = page.evaluate('([x, y]) => window.golgen.screenOf(x, y)', [x, y])
    page.mouse.click(box['x'] + sx, box['y'] + sy)


def second_tab(browser, url, page):
    """Another tab on the same server shows the same universe (the first
    tab's generation and population, paused); once it is closed the first
    tab's frames go on."""
    gen, pop = page.text_content('#gen'), page.text_content('#pop')
    tab = browser.new_page()
    tab.set_default_timeout(180000)
    tab.goto(url)
    tab.wait_for_function("""([g, p]) =>
        document.getElementById('gen').textContent === g &&
        document.getElementById('pop').textContent === p""", arg=[gen, pop])
    tab.close()
    frames = page.evaluate('window.golgen.frames')
    page.wait_for_function('(n) => window.golgen.frames > n', arg=frames + 3)
    return gen, pop


def drop_file(page, name, text):
    """A file dropped on the page (a drop event carrying it, as a drag
    from the desktop gives); back once its load's fit is taken."""
    fits = page.evaluate('window.golgen.fits')
    dt = page.evaluate_handle("""([name, text]) => {
        const dt = new DataTransfer();
        dt.items.add(new File([text], name));
        return dt; }""", [name, text])
    page.dispatch_event('#canvas', 'drop', {'dataTransfer': dt})
    page.wait_for_function('(n) => window.golgen.fits > n', arg=fits)


def other_families(page):
    """A rule table's states in its @COLORS (WireWorld's states 1, 2, 3:
    light blue, white, orange); state 2 drawn with the state picker and
    erased by a second click; a 3D rule's slice moved by z+, its
    projection along z shown (the slice's cells in grey: one live cell in
    a column of 8) and left for the slice next to the last by z-."""
    load(page, 'x = 3, y = 1, rule = WireWorld\nABC!\n')
    page.wait_for_function("document.getElementById('info')"
                           ".textContent.startsWith('WireWorld')")
    page.evaluate('window.golgen.setView(1.5, 0.5, 16)')
    blue, white, orange = [0, 128, 255], [255, 255, 255], [255, 128, 0]
    wait_pixels(page, {(0, 0): blue, (1, 0): white, (2, 0): orange})
    page.wait_for_function("!document.getElementById('drawbox').hidden &&"
                           " document.getElementById('drawstate')"
                           ".options.length === 3")
    page.select_option('#drawstate', '2')
    click_cell(page, 1, 2)
    wait_pixels(page, {(1, 2): white})
    click_cell(page, 1, 2)  # the state picked again: erased
    wait_pixels(page, {(1, 2): [48, 48, 48]})  # @COLORS' state 0
    page.fill('#rule', '3D5..7/6:T8')
    page.click('#setrule')
    wait_info(page, 'z=4/8')
    page.click('#zup')
    wait_info(page, 'z=5/8')
    page.click('#zdown')
    # the WireWorld cells are the middle slice's live cells
    wait_pixels(page, {(0, 0): white, (1, 0): white, (2, 0): white})
    page.click('#zsum')
    wait_info(page, 'z=sum/8')
    # one live cell in a column of 8: shade 255 // 8 in the page's greys
    grey = [60 + round(255 // 8 * 195 / 255)] * 3
    wait_pixels(page, {(0, 0): grey, (1, 0): grey, (2, 0): grey,
                       (1, 1): [0, 0, 0]})
    page.click('#zup')
    wait_info(page, 'z=5/8')
    return [blue, white, orange], '4 -> 5 -> 4, the projection, 5'


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
            # every wait is for a state of the page, never a time: on a
            # loaded 2-core machine a state may take long, so the bound
            # on each (Playwright's 30 s) is only a hang's
            page.set_default_timeout(180000)
            page.goto(url)
            page.wait_for_function('window.golgen && window.golgen.frames > 0 '
                                   '&& window.golgen.fits > 0')
            load(page, gun)
            page.wait_for_function(
                "document.getElementById('pop').textContent === '36' && "
                "document.getElementById('gen').textContent === '0'")
            # about 100 generations at 20 ms a step, then pause
            page.evaluate("""() => { const s = document.getElementById('speed');
                s.value = 20; s.dispatchEvent(new Event('input')); }""")
            page.click('#run')
            page.wait_for_function(
                "Number(document.getElementById('gen').textContent) >= 100",
                timeout=180000)
            page.click('#run')  # Pause
            page.wait_for_function('!window.golgen.running()')
            # a frame that says paused was drawn after the pause: its
            # generation and population are the last (exact when paused)
            gen = int(page.text_content('#gen'))
            pop = int(page.text_content('#pop'))
            frames = page.evaluate('window.golgen.frames')
            page.wait_for_function('(n) => window.golgen.frames > n',
                                   arg=frames + 3)
            assert gen == int(page.text_content('#gen')), 'still running'
            # (no upper bound: a loaded machine may take a while to pause)
            assert gen >= 100, gen
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
            for x, y in blinker:
                click_cell(page, x, y)
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
            click_cell(page, spot[0], spot[1] + 3)
            page.wait_for_function(
                "Number(document.getElementById('pop').textContent) === %d"
                % (pop1 + 5))
            page.screenshot(path=os.path.join(OUT, 'serve.png'))
            tab = second_tab(browser, url, page)
            # a macrocell file dropped on the page (golgen run's of the
            # saved universe): the same generation and population
            drop_file(page, 'saved.mc', open(saved_mc).read())
            page.wait_for_function(
                "document.getElementById('pop').textContent === '%d' && "
                "document.getElementById('gen').textContent === '%d'"
                % (pop1, gen + 1))
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
              'click; a second tab showed generation %s, population %s; the .mc '
              'dropped on the page loaded; screenshot %s; WireWorld drawn '
              'in its @COLORS %s, state 2 drawn and erased by the picker, a '
              '3D slice moved %s' % (gen, pop, len(got), also, png['width'],
                                  png['height'], tab[0], tab[1],
                                  os.path.join(OUT, 'serve.png'), colours,
                                  zs))
    finally:
        proc.terminate()
        proc.wait(timeout=20)


main()

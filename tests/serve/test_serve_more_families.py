#!/usr/bin/env python3
"""golgen serve draws the families beyond Generations (issue 41): a Golly
rule table (WireWorld: its .rule file found as golgen run finds it, shown
in its @COLORS) on a torus and on the unbounded plane, Larger than Life
(Bosco, R=5, on the plane; a 4-state rule on a torus) and a 3D rule (a z
slice of a small torus, chosen with "z", and its projection along z,
"z sum"). Each frame, stepped 12
generations, equals `golgen run`'s cells at that generation state for
state, and on the plane also bgolly's (RuleLoader, Larger than Life). A
rule that does not parse is refused and changes nothing.

    test_serve_more_families.py GOLGEN"""
import os
import random
import shutil
import subprocess
import sys
import tempfile
import time

from wsclient import Client, start_server

GOLGEN = sys.argv[1]
RULES = '/usr/share/golly/Rules/'
STATE = '.ABCDEFGHIJKLMNOPQRSTUVWX'
GENS = 12


def patch_rle(rule, weights, seed, side=40):
    """Random states (weights[s] of state s) at (-side/2, -side/2)."""
    rng = random.Random(seed)
    pool = [s for s, k in enumerate(weights) for _ in range(k)]
    rows = [''.join(STATE[rng.choice(pool)] for _ in range(side)).rstrip('.')
            for _ in range(side)]
    return ('#CXRLE Pos=%d,%d\nx = %d, y = %d, rule = %s\n%s!\n' %
            (-side // 2, -side // 2, side, side, rule, '$'.join(rows)))


def read_states(text):
    """{(x, y): state} of multi-state or two-state RLE (#CXRLE Pos)."""
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


def read_rle3(text):
    """{(x, y, z)} of RLE3's live cells (pos= added)."""
    lines = text.splitlines()
    pos = (0, 0, 0)
    for f in lines[0].split():
        if f.startswith('pos='):
            pos = tuple(map(int, f[4:].split(',')))
    body = ''.join(l.strip() for l in lines[1:]
                   if not l.startswith('#') and not l.startswith('x='))
    cells, x, y, z, n = set(), 0, 0, 0, ''
    for ch in body:
        if ch.isdigit():
            n += ch
            continue
        k = int(n or 1)
        n = ''
        if ch == '$':
            y, x = y + k, 0
        elif ch == '/':
            z, y, x = z + k, 0, 0
        elif ch == '!':
            break
        elif ch == 'b':
            x += k
        elif ch == 'o':
            for i in range(k):
                cells.add((pos[0] + x + i, pos[1] + y, pos[2] + z))
            x += k
    return cells


def frame(c, view):
    c.send(view)
    while True:
        op, data = c.recv()
        if op == 2 and data[:4] == b'GGF1':
            return data
        assert op != 1 or not data.startswith(b'error'), data


def stepped(c, view, gens=GENS):
    """Step gens generations; the frame of view at the end."""
    c.send('step %d' % gens)
    deadline = time.time() + 120
    while True:
        data = frame(c, view)
        if int.from_bytes(data[32:40], 'little') == gens:
            return data
        assert time.time() < deadline, 'the step did not end'
        time.sleep(0.05)


def compare(have, want, x0, y0, cols, rows, what):
    bad = [(x, y) for y in range(y0, y0 + rows) for x in range(x0, x0 + cols)
           if have[(y - y0) * cols + x - x0] != want.get((x, y), 0)]
    assert not bad, '%s: %d cells differ, e.g. %s' % (what, len(bad), bad[:5])


def normal(cells):
    """The cells moved so their box's corner is (0, 0)."""
    if not cells:
        return {}
    x0 = min(x for x, _ in cells)
    y0 = min(y for _, y in cells)
    return {(x - x0, y - y0): v for (x, y), v in cells.items()}


def run_out(tmp, args, name='out.rle'):
    out = os.path.join(tmp, name)
    subprocess.run([GOLGEN, 'run', '--gens', str(GENS), '-o', out] + args,
                   check=True, capture_output=True, timeout=300)
    with open(out) as f:
        return f.read()


def bgolly(tmp, pat, algo, search=False):
    out = os.path.join(tmp, 'bgolly.rle')
    args = ['bgolly', '-a', algo, '-m', str(GENS), '-q', '-q', '-o', out]
    if search:
        args[1:1] = ['-s', RULES]
    subprocess.run(args + [pat], check=True, capture_output=True, timeout=120)
    with open(out) as f:
        return read_states(f.read())


def check_2d(tmp, pat, rule, states, oracle=None, span=64):
    """Serve pat under rule, 12 generations: the frame of [-span, span)^2
    equals golgen run's (and oracle's) cells; the number of states and
    every state shown."""
    proc, url = start_server(GOLGEN, ['--rule', rule, pat])
    try:
        c = Client(url, timeout=120)
        view = 'view %d %d %d %d 0' % (-span, -span, 2 * span, 2 * span)
        data = stepped(c, view)
        got = int.from_bytes(data[60:64], 'little')
        assert got == states, (rule, got)
        want = read_states(run_out(tmp, ['--rule', rule, pat]))
        have = data[224:]
        compare(have, want, -span, -span, 2 * span, 2 * span,
                rule + ' vs golgen run')
        if oracle:  # bgolly writes no #CXRLE Pos: its box's corner is
            # the live cells' (the frame holds them all)
            shown = {(i % (2 * span), i // (2 * span)): v
                     for i, v in enumerate(have) if v}
            assert normal(shown) == normal(oracle), rule + ' vs bgolly'

        assert len(set(have)) == states, (rule, sorted(set(have)))
        info = data[96:208].split(b'\0')[0].decode()
        c.close()
        return len(want), info
    finally:
        proc.terminate()
        proc.wait(timeout=30)


def tables(tmp):
    pat = os.path.join(tmp, 'wire.rle')
    with open(pat, 'w') as f:
        f.write(patch_rle('WireWorld', (6, 1, 1, 4), 11))
    oracle = bgolly(tmp, pat, 'RuleLoader', search=True)
    for rule, want, span in (('WireWorld:T40,40', None, 20),
                             ('WireWorld', oracle, 64)):
        n, info = check_2d(tmp, pat, rule, 4, want, span)
        print('serve families: %s (%s) %d cells at generation %d equal '
              'golgen run%s' % (rule, info, n, GENS,
                                ' and bgolly' if want else ''))
    # its @COLORS for the page; on the plane (the hash tree steps it) an
    # edit between steps is taken, and steps after it go on from the tree
    proc, url = start_server(GOLGEN, [pat])
    try:
        c = Client(url, timeout=120)
        c.send('colours')
        text = c.recv_text('colours')
        assert '0 48 48 48\n1 0 128 255\n' in text, text
        stepped(c, 'view -8 -8 16 16 0')
        c.send('set 30 30 3')
        c.send('set 31 30 1')
        c.send('save')
        edited = os.path.join(tmp, 'edited.rle')
        with open(edited, 'w') as f:
            f.write(c.recv_text('rle').split('\n', 1)[1])
        for k in (5, 7):
            c.send('step %d' % k)
            while frame(c, 'view -8 -8 16 16 0')[32] != GENS + 5 + (k == 7) * 7:
                time.sleep(0.05)
        c.send('save')
        have = read_states(c.recv_text('rle').split('\n', 1)[1])
        want = read_states(run_out(tmp, [edited]))
        assert have == want, 'an edit on the tree-stepped plane'
        c.close()
    finally:
        proc.terminate()
        proc.wait(timeout=30)


def ltl(tmp):
    bosco = 'R5,C0,M1,S34..58,B34..45,NM'
    pat = os.path.join(tmp, 'bosco.rle')
    with open(pat, 'w') as f:
        f.write(patch_rle(bosco, (1, 1), 5, side=30))
    oracle = bgolly(tmp, pat, 'Larger than Life')
    n, info = check_2d(tmp, pat, bosco, 2, oracle, span=40)
    print('serve families: %s (%s) %d cells equal golgen run and bgolly'
          % (bosco, info, n))
    multi = 'R2,C4,M1,S3..6,B3..4,NM:T64,64'
    pat = os.path.join(tmp, 'ltl4.rle')
    with open(pat, 'w') as f:
        f.write(patch_rle(multi, (3, 2, 1, 1), 9, side=30))
    n, info = check_2d(tmp, pat, multi, 4, span=32)
    print('serve families: %s (%s) %d cells in 4 states equal golgen run'
          % (multi, info, n))


def three_d(tmp):
    rule, side = '3D5..7/6:T16', 16
    rng = random.Random(3)
    planes = []
    for z in range(8):
        planes.append('$'.join(''.join('o' if rng.random() < 0.35 else 'b'
                                       for _ in range(8)) for _ in range(8)))
    pat = os.path.join(tmp, 'soup.rle3')
    with open(pat, 'w') as f:
        f.write('3D version=1 size=%d pos=4,4,4\nx=8 y=8 z=8 rule=%s\n%s!\n'
                % (side, rule, '/'.join(planes)))
    want = read_rle3(run_out(tmp, [pat], 'out.rle3'))
    assert want, 'the 3D soup died'
    proc, url = start_server(GOLGEN, [pat])
    try:
        c = Client(url, timeout=120)
        view = 'view %d %d %d %d 0' % (-side // 2, -side // 2, side, side)
        data = stepped(c, view)
        pop = int.from_bytes(data[40:48], 'little')
        assert pop == len(want), (pop, len(want))
        for z in range(side):
            c.send('z %d' % z)
            while True:  # the frame drawn after the slice changed
                data = frame(c, view)
                if ('z=%d/' % z).encode() in data[96:208]:
                    break
            have = data[224:]
            slice_ = {(x - side // 2, y - side // 2): 1
                      for (x, y, zz) in want if zz == z}
            compare(have, slice_, -side // 2, -side // 2, side, side,
                    '%s slice z=%d' % (rule, z))
        c.send('z %d' % side)  # past the grid: refused, nothing changes
        assert 'slices are 0 .. 15' in c.recv_text('error')
        projection(c, want, side)
        c.close()
    finally:
        proc.terminate()
        proc.wait(timeout=30)
    print('serve families: %s %d live cells at generation %d, slice by '
          'slice and as the projection along z, equal golgen run'
          % (rule, len(want), GENS))


def projection(c, want, side):
    """z sum: each cell shaded by the live cells of its column of z
    (count * 255 / depth, any at least 1; flag 8: shades), blocks of 2x2
    lit where their columns hold any; drawing on it is refused; z N goes
    back to slice N."""
    half = side // 2
    column = {}
    for (x, y, _) in want:
        column[(x - half, y - half)] = column.get((x - half, y - half), 0) + 1
    shade = {k: max(1, n * 255 // side) for k, n in column.items()}
    c.send('z sum')
    view = 'view %d %d %d %d 0' % (-half, -half, side, side)
    data = frame(c, view)
    while b'z=sum/%d' % side not in data[96:208]:
        data = frame(c, view)
    assert int.from_bytes(data[56:60], 'little') & 8, 'not marked shades'
    compare(data[224:], shade, -half, -half, side, side, 'the projection')
    blocks = frame(c, 'view %d %d %d %d 1' % (-half, -half, half, half))
    lit = {((x + half) // 2, (y + half) // 2) for (x, y) in column}
    got = {(i % half, i // half) for i, v in enumerate(blocks[224:]) if v}
    assert got == lit, 'the projection in 2x2 blocks'
    c.send('set 0 0 1')
    assert 'pick a z slice' in c.recv_text('error')
    after = frame(c, view)
    assert after[224:] == data[224:], 'a cell drawn on the projection'
    c.send('z 3')
    while b'z=3/%d' % side not in data[96:208]:
        data = frame(c, view)
    assert not int.from_bytes(data[56:60], 'little') & 8


def refusals(tmp):
    """Rules that do not parse or name no file: an error, nothing changed;
    the families switched between over the socket."""
    proc, url = start_server(GOLGEN, ['--rule', 'WireWorld:T32,32'])
    try:
        c = Client(url, timeout=120)
        c.send('set 1 1 3')
        before = frame(c, 'view -16 -16 32 32 0')
        for bad, says in (('R5,C0,M1,S34..58,B34..45,NX', 'R5'),
                          ('NoSuchRuleAnywhere', 'rule file'),
                          ('3D5..7/6:T0', '3D')):
            c.send('rule ' + bad)
            assert says in c.recv_text('error'), bad
            after = frame(c, 'view -16 -16 32 32 0')
            assert after[224:] == before[224:] and \
                after[96:208] == before[96:208], bad
        assert before[224 + 17 * 32 + 17] == 3
        # the same cells under an LtL rule, then 3D (the middle slice)
        c.send('rule R1,C4,M0,S2..3,B3..3,NM:T32,32')
        data = frame(c, 'view -16 -16 32 32 0')
        while b'R1,C4' not in data[96:208]:
            data = frame(c, 'view -16 -16 32 32 0')
        assert data[224 + 17 * 32 + 17] == 3
        c.send('rule 3D5..7/6:T32')
        while b'z=16/32' not in data[96:208]:
            data = frame(c, 'view -16 -16 32 32 0')
        assert data[224 + 17 * 32 + 17] == 1
        c.close()
    finally:
        proc.terminate()
        proc.wait(timeout=30)
    print('serve families: bad rules refused, nothing changed; cells kept '
          'across table, LtL and 3D rules')


def refused_on_command_line(tmp, text, message):
    """golgen serve of the pattern text exits 2, saying message."""
    pat = os.path.join(tmp, 'far.rle')
    with open(pat, 'w') as f:
        f.write(text)
    r = subprocess.run([GOLGEN, 'serve', '--port', '0', pat], timeout=60,
                       capture_output=True, text=True)
    assert r.returncode == 2 and message in r.stderr, r


def big_table_plane(tmp):
    """A rule table's plane is held as a grid of at most 2^28 cells (the
    tree steps it a batch at a time): a pattern whose box is past it is
    refused by name, on the command line and over the socket (nothing
    changes), and a cell drawn that far off too, not taken into a grid
    of gigabytes."""
    far = 'x = 131073, y = 131073, rule = WireWorld\nC$131071$131072bC!\n'
    refused_on_command_line(tmp, far, 'up to 2^28 cells')
    proc, url = start_server(GOLGEN, ['--rule', 'WireWorld'])
    try:
        c = Client(url, timeout=120)
        c.send('set 0 0 3')
        before = frame(c, 'view -8 -8 16 16 0')
        c.send('load\n' + far)
        assert 'up to 2^28 cells' in c.recv_text('error')
        c.send('set 20000 20000 1')
        assert 'at most 2^28' in c.recv_text('error')
        after = frame(c, 'view -8 -8 16 16 0')
        assert after[224:] == before[224:] and after[32:48] == before[32:48]
        assert before[224 + 8 * 16 + 8] == 3
        c.close()
    finally:
        proc.terminate()
        proc.wait(timeout=30)
    print('serve families: a rule table\'s plane past 2^28 cells refused '
          '(a 131073^2 box, a cell 20000 cells off), nothing changed')


def big_plane(tmp):
    """Life and Generations planes are held as grids of at most 2^30
    cells: a pattern whose box is 2^34 cells is refused by name on the
    command line and over the socket, where before it loaded and its
    first step asked for 8.6 GB."""
    for rule in ('B3/S23', '/2/3'):
        far = ('x = 131073, y = 131073, rule = %s\no$131071$131072bo!\n'
               % rule)
        refused_on_command_line(tmp, far, 'up to 2^30 cells')
        proc, url = start_server(GOLGEN, ['--rule', rule])
        try:
            c = Client(url, timeout=120)
            c.send('load\n' + far)
            assert 'up to 2^30 cells' in c.recv_text('error')
            c.close()
        finally:
            proc.terminate()
            proc.wait(timeout=30)
    print('serve families: Life and Generations planes past 2^30 cells '
          'refused (a 131073^2 box)')


def main():
    tmp = tempfile.mkdtemp(prefix='golgen-more-families-')
    try:
        refusals(tmp)
        big_table_plane(tmp)
        big_plane(tmp)
        tables(tmp)
        ltl(tmp)
        three_d(tmp)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


main()

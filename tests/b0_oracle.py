#!/usr/bin/env python3
"""B0 rules on Golly's unbounded plane: golgen run against bgolly.

Golly emulates a B0 rule on its plane by storing complemented cells
(every generation with S<max>, odd generations without) and bgolly writes
what it stores; golgen run must write the same cells (lib/run_b0.c). Random
soups under random B0 rules of every two-state family (totalistic Moore,
von Neumann and hexagonal, with and without S<max>; Hensel; MAP), by
engine auto (the hash tree: the conjugate rule for rules with S<max>,
both rules by parity without), in parts through the tree's macrocell
checkpoints of an odd count (so a part starts from an odd generation),
and dense, a random number of generations each, cell for cell against `bgolly -a QuickLife` (its HashLife refuses B0 without S<max>). bgolly's RLE carries
no position, so the cells are compared up to where the box starts; the
box's size and every cell must agree.

    tests/b0_oracle.py GOLGEN [--cases N]      (exit 77: no bgolly)
"""
import base64
import os
import random
import shutil
import subprocess
import sys
import tempfile


def rle_cells(path):
    """The live cells of a two-state RLE file, moved to start at (0, 0)."""
    lines = [l for l in open(path) if not l.startswith('#')]
    body = ''.join(l.strip() for l in lines[1:])
    cells, x, y, num = set(), 0, 0, ''
    for ch in body:
        if ch.isdigit():
            num += ch
            continue
        k = int(num) if num else 1
        num = ''
        if ch in 'b.':
            x += k
        elif ch == '$':
            y, x = y + k, 0
        elif ch == '!':
            break
        else:
            cells.update((x + i, y) for i in range(k))
            x += k
    if not cells:
        return cells
    x0 = min(c[0] for c in cells)
    y0 = min(c[1] for c in cells)
    return {(a - x0, b - y0) for a, b in cells}


def totalistic(rng, suffix, smax):
    top = {'': 8, 'V': 4, 'H': 6}[suffix]
    b = [0] + [n for n in range(1, top + 1) if rng.random() < 0.4]
    s = [n for n in range(top) if rng.random() < 0.4] + ([top] if smax else [])
    return 'B%s/S%s%s' % (''.join(map(str, b)), ''.join(map(str, s)), suffix)


def hensel(rng, smax):
    letters = {1: 'ce', 2: 'cekain', 3: 'cekainyqjr'}
    def part(counts):
        out = ''
        for n in counts:
            out += str(n)
            if n in letters and rng.random() < 0.5:
                out += ''.join(rng.sample(letters[n], rng.randint(1, 2)))
        return out
    b = [0] + sorted(rng.sample(range(1, 8), rng.randint(0, 3)))
    s = sorted(rng.sample(range(0, 8), rng.randint(0, 3)))
    return 'B%s/S%s' % (part(b), part(s) + ('8' if smax else ''))


def map_rule(rng, smax):
    bits = [rng.random() < 0.5 for _ in range(512)]
    bits[0], bits[511] = True, smax  # B0; S<max> (the full block)
    raw = bytes(int(''.join('1' if v else '0' for v in bits[i:i + 8]), 2)
                for i in range(0, 512, 8))
    return 'MAP' + base64.b64encode(raw).decode().rstrip('=')


def rules(rng, n):
    fixed = ['B0123478/S01234678', 'B013568/S01', 'B0/S8', 'B0/S']
    out = list(fixed)
    while len(out) < n:
        kind = rng.randrange(5)
        smax = rng.random() < 0.5
        if kind < 3:
            out.append(totalistic(rng, ['', 'V', 'H'][kind], smax))
        elif kind == 3:
            out.append(hensel(rng, smax))
        else:
            out.append(map_rule(rng, smax))
    return out


def parity_parts(golgen, rng, work):
    """Rules without S<max> in the tree, a generation a part (checkpoints
    every 1 into OUT.mc) on 4 x 4 leaves: one-generation steps from both
    parities in one process, where squares recur, so a result of one
    parity's rule reused for the other's shows (it did, before the tree
    forgot them: hl_step.c's single_parity). Failures counted."""
    failed = 0
    for rule in ('B013568/S01', 'B01/S1', 'B02/S013'):
        rows = '$'.join(''.join(rng.choice('bo') for _ in range(40))
                        for _ in range(40))
        src, mc, mine, theirs = (os.path.join(work, 'p' + t) for t in
                                 ('.rle', '.mc', 'g.rle', 'b.rle'))
        with open(src, 'w') as f:
            f.write('x = 40, y = 40, rule = %s\n%s!\n' % (rule, rows))
        ok = subprocess.run([golgen, 'run', src, '--gens', '40',
                             '--tree-leaf', '4', '--checkpoint-every', '1',
                             '-o', mc], capture_output=True).returncode == 0
        ok = ok and subprocess.run([golgen, 'run', mc, '--gens', '0', '-o',
                                    mine], capture_output=True).returncode == 0
        subprocess.run(['bgolly', '-a', 'QuickLife', '-m', '40', '-o', theirs,
                        src], capture_output=True, check=True)
        if not ok or rle_cells(mine) != rle_cells(theirs):
            print('%s, 40 generations a generation a part on 4 x 4 leaves: '
                  'golgen and bgolly differ' % rule)
            failed += 1
    print('b0_oracle: %d of 3 rules a generation a part identical'
          % (3 - failed))
    return failed


def main():
    golgen = sys.argv[1]
    n = int(sys.argv[sys.argv.index('--cases') + 1]) \
        if '--cases' in sys.argv else 24
    if not shutil.which('bgolly'):
        print('b0_oracle: no bgolly; skipped')
        return 77
    rng = random.Random(0xB0B0)
    work = tempfile.mkdtemp(prefix='gg_b0_')
    failed = 0
    try:
        for i, rule in enumerate(rules(rng, n)):
            w, h = rng.randint(1, 24), rng.randint(1, 24)
            rows = '$'.join(''.join(rng.choice('bo') for _ in range(w))
                            for _ in range(h))
            src = os.path.join(work, 'in%d.rle' % i)
            with open(src, 'w') as f:
                f.write('x = %d, y = %d, rule = %s\n%s!\n' % (w, h, rule, rows))
            gens = rng.randint(1, 80)
            mine, theirs = (os.path.join(work, '%s%d.rle' % (t, i))
                            for t in ('g', 'b'))
            # auto: the tree (the conjugate with S<max>, both rules by
            # parity without); every third case the dense engine, and every
            # third the tree in parts of an odd count, then the checkpoint
            # (OUT.mc) written out as cells
            engine = ['--engine', 'dense'] if i % 3 == 2 else []
            out = mine
            if i % 3 == 1:
                out = os.path.join(work, 'g%d.mc' % i)
                engine = ['--checkpoint-every', str(rng.randrange(1, 12, 2))]
            run = subprocess.run([golgen, 'run', src, '--gens', str(gens),
                                  '-o', out] + engine, capture_output=True,
                                 text=True)
            if not run.returncode and out != mine:
                run = subprocess.run([golgen, 'run', out, '--gens', '0',
                                      '-o', mine], capture_output=True,
                                     text=True)
            tree = i % 3 != 2 and 'hashlife' not in run.stderr
            subprocess.run(['bgolly', '-a', 'QuickLife', '-m', str(gens),
                            '-o', theirs, src], capture_output=True,
                           check=True)
            if run.returncode:
                print('case %d %s: golgen run failed: %s' %
                      (i, rule, run.stderr.strip()))
                failed += 1
            elif tree:
                print('case %d %s: not run in the hash tree: %s' %
                      (i, rule, run.stderr.strip()))
                failed += 1
            elif rle_cells(mine) != rle_cells(theirs):
                print('case %d %s, %d generations: golgen and bgolly differ'
                      % (i, rule, gens))
                failed += 1
        print('b0_oracle: %d B0 rules on the plane, %d identical to bgolly'
              % (n, n - failed))
        failed += parity_parts(golgen, rng, work)
    finally:
        shutil.rmtree(work)
    return 1 if failed else 0


if __name__ == '__main__':
    sys.exit(main())

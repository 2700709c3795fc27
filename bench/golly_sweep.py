#!/usr/bin/env python3
"""Golly's bundled patterns, golgen against bgolly (issues 38 and 39).

For every pattern under Golly's Patterns folder (.rle, .mc, .mcl, .lif,
.cells, and the .gz of those; .zip, .py and .lua are skipped) this finds
its rule, picks bgolly's algorithm as Golly would (HashLife for two-state
B/S rules and macrocells, Generations, RuleLoader with Golly's Rules folder
for @TABLE/@TREE rules, JvN for JvN29/Nobili32/Hutton32, "Larger than
Life"), runs bgolly and `golgen run` for N generations, each under a
timeout, and compares the two results cell for cell and state for state.

bgolly writes its RLE trimmed and without a position, so both results are
compared as sets of (x, y, state) after moving each live box to (0, 0), as
tests/test_golly_patterns.c and tests/test_oracle.c do. Macrocell inputs
are written as macrocells by both (golgen writes bgolly's bytes): equal
text is identical; otherwise both trees are expanded and compared as above
when their population allows. A .gz input is decompressed into a scratch
file and both programs read that (golgen refuses gzip; the row says so).

Times are wall seconds from process start to exit (file written), of the
same run, one process at a time (--jobs N runs N patterns at once; times
are then worse); --clock cpu times the CPU seconds (user + system) of
each process instead, which a machine shared with other work leaves
nearly alone (a niced sweep's wall times there are mostly waiting).
Python 3 standard library only.

    bench/golly_sweep.py [--gens 1000] [--timeout 60] [--only SUBSTR]
                         [--jobs 1] [--golgen PATH] [--bgolly PATH]
                         [--patterns DIR] [--rules DIR] [--csv OUT.csv]
                         [--md OUT.md] [--quicklife] [--keep DIR]
                         [--mem-limit GIB] [--clock wall|cpu]
"""
import argparse
import concurrent.futures as cf
import csv
import gzip
import os
import re
import resource
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time

HERE = os.path.dirname(os.path.abspath(__file__))
SKIP_EXT = ('.zip', '.py', '.lua')
READ_EXT = ('.rle', '.mc', '.mcl', '.lif', '.cells')
JVN_RULES = {'jvn29', 'nobili32', 'hutton32'}
ALGOS = ['QuickLife', 'HashLife', 'Generations', 'JvN', 'RuleLoader',
         'Larger than Life']


# ---------------------------------------------------------------- reading

def read_text(path):
    with open(path, 'rb') as f:
        data = f.read()
    if data[:2] == b'\x1f\x8b':
        data = gzip.decompress(data)
    return data.decode('latin-1')


def base_ext(path):
    p = path[:-3] if path.endswith('.gz') else path
    return os.path.splitext(p)[1].lower()


def start_generation(text, ext):
    """The generation a macrocell starts at (its #G line; 0 if none):
    bgolly's -m is the generation to reach, golgen's --gens a count."""
    if ext != '.mc':
        return 0
    for line in text.splitlines():
        if line.startswith('#G') and line[2:].strip().isdigit():
            return int(line[2:].strip())
        if line and line[0] not in '#[':
            break
    return 0


def find_rule(text, ext):
    """The rule a pattern file names (Golly's default B3/S23 if none)."""
    if ext == '.mcl':
        game = ''
        rule = ''
        for line in text.splitlines():
            line = line.rstrip('\r')
            if line.startswith('#GAME'):
                game = line[5:].strip()
            elif line.startswith('#RULE'):
                rule += line[5:].strip()
        return rule or 'B3/S23', game
    if ext == '.mc':
        for line in text.splitlines():
            if line.startswith('#R'):
                return line[2:].strip(), ''
            if line and line[0] not in '#[':
                break
        return 'B3/S23', ''
    if ext == '.lif':
        for line in text.splitlines()[:50]:
            if line.startswith('#R'):
                return line[2:].strip(), ''
        return 'B3/S23', ''
    if ext == '.rle':
        for line in text.splitlines():
            s = line.strip()
            if not s or s.startswith('#'):
                continue
            m = re.search(r'rule\s*=\s*([^\s]+)', s)
            return (m.group(1) if m else 'B3/S23'), ''
    return 'B3/S23', ''


def classify(rule, game, rules_dir):
    """(family, bgolly algorithm, bounded, B0) of a rule string."""
    base, _, topo = rule.partition(':')
    bounded = bool(topo)
    low = base.lower()
    if game == 'Rules table':
        return 'table (MCell)', 'RuleLoader', bounded, False
    if game == 'Larger than Life' or re.match(r'^r\d+,', low) or \
            re.match(r'^r\d+,c\d+', low):
        return 'LtL', 'Larger than Life', bounded, False
    if os.path.exists(os.path.join(rules_dir, base + '.rule')):
        return 'table', 'RuleLoader', bounded, False
    if low in JVN_RULES:
        return 'JvN', 'JvN', bounded, False
    if game == 'Generations' or re.match(r'^[0-8]*/[0-8]*/\d+$', low) or \
            re.match(r'^b[0-8a-z-]*/s[0-8a-z-]*/c?\d+[vh]?$', low) or \
            re.match(r'^s[0-8]*/b[0-8]*/c?\d+$', low):
        fam = 'Generations'
        b0 = False
        return fam, 'Generations', bounded, b0
    if low.startswith('map'):
        return 'MAP', 'HashLife', bounded, False
    if re.match(r'^w\d+$', low):
        return 'Wolfram', 'HashLife', bounded, False
    m = re.match(r'^b([0-8a-z-]*)(?:[/_]s([0-8a-z-]*?))?([vh]?)$', low) or \
        re.match(r'^s?([0-8]*)/b?([0-8]*)([vh]?)$', low)
    if m:
        nb = m.group(3)
        digits_b = (m.group(1) if low.startswith('b') else m.group(2)) or ''
        b0 = digits_b.startswith('0')
        digits_s = (m.group(2) if low.startswith('b') else m.group(1)) or ''
        top = {'v': '4', 'h': '6'}.get(nb, '8')
        # bgolly's HashLife refuses B0 without S<max>; QuickLife runs it
        algo = 'QuickLife' if b0 and top not in digits_s else 'HashLife'
        if nb == 'v':
            return 'V', algo, bounded, b0
        if nb == 'h':
            return 'H', algo, bounded, b0
        if re.search(r'[a-z]', ((m.group(1) or '') + (m.group(2) or '')
                                ).replace('-', '')):
            return 'Hensel', algo, bounded, b0
        return 'Life-like', algo, bounded, b0
    return 'other', None, bounded, False


# ---------------------------------------------------------------- outputs

def parse_rle(path):
    """{(x, y): state} of an RLE file (two-state or multi-state)."""
    cells = {}
    with open(path, 'r', encoding='latin-1') as f:
        text = f.read()
    body = []
    header_seen = False
    for line in text.splitlines():
        s = line.strip()
        if not header_seen:
            if not s or s.startswith('#'):
                continue
            if s.startswith('x') and '=' in s:
                header_seen = True
                continue
            header_seen = True
        body.append(s)
    data = ''.join(body)
    x = y = 0
    n = 0
    prefix = 0
    for ch in data:
        if ch.isdigit():
            n = n * 10 + ord(ch) - 48
            continue
        count = n if n else 1
        n = 0
        if ch == '!':
            break
        if ch == '$':
            y += count
            x = 0
            prefix = 0
        elif ch in 'b.':
            x += count
            prefix = 0
        elif 'p' <= ch <= 'y':
            prefix = (ord(ch) - ord('p') + 1) * 24
            n = count if count > 1 else 0
            continue
        elif 'A' <= ch <= 'X':
            st = prefix + ord(ch) - ord('A') + 1
            for i in range(count):
                cells[(x + i, y)] = st
            x += count
            prefix = 0
        elif ch in ' \t\r\n':
            n = count if count > 1 else 0
        else:  # 'o' and any other letter of a two-state RLE
            for i in range(count):
                cells[(x + i, y)] = 1
            x += count
            prefix = 0
    return cells


def parse_mc(path):
    """(population, expand()) of a macrocell file; expand gives cells."""
    with open(path, 'r', encoding='latin-1') as f:
        lines = [l.rstrip('\r\n') for l in f]
    nodes = [None]  # 1-based; entry: ('leaf', cells) or (level, a, b, c, d)
    pops = [0]
    for line in lines:
        if not line or line[0] == '[' or line[0] == '#':
            continue
        if line[0] in '.*$':
            cells = []
            x = y = 0
            for ch in line:
                if ch == '.':
                    x += 1
                elif ch == '*':
                    cells.append((x, y))
                    x += 1
                elif ch == '$':
                    y += 1
                    x = 0
            nodes.append(('leaf', cells))
            pops.append(len(cells))
            continue
        parts = line.split()
        lev = int(parts[0])
        kids = [int(p) for p in parts[1:5]]
        nodes.append((lev,) + tuple(kids))
        if lev == 1:
            pops.append(sum(1 for k in kids if k))
        else:
            pops.append(sum(pops[k] for k in kids))
    root = len(nodes) - 1

    def expand():
        out = {}
        stack = [(root, 0, 0)]
        while stack:
            i, ox, oy = stack.pop()
            if i == 0 or pops[i] == 0:
                continue
            nd = nodes[i]
            if nd[0] == 'leaf':
                for (x, y) in nd[1]:
                    out[(ox + x, oy + y)] = 1
                continue
            lev = nd[0]
            if lev == 1:
                for k, (dx, dy) in zip(nd[1:], ((0, 0), (1, 0), (0, 1),
                                                (1, 1))):
                    if k:
                        out[(ox + dx, oy + dy)] = k
                continue
            h = 1 << (lev - 1)
            for k, (dx, dy) in zip(nd[1:], ((0, 0), (h, 0), (0, h),
                                            (h, h))):
                if k:
                    stack.append((k, ox + dx, oy + dy))
        return out
    return pops[root], expand


def mc_body(path):
    with open(path, 'r', encoding='latin-1') as f:
        return [l.rstrip('\r\n') for l in f
                if not l.startswith('#') and not l.startswith('[')]


def normalise(cells):
    if not cells:
        return frozenset()
    x0 = min(x for x, _ in cells)
    y0 = min(y for _, y in cells)
    return frozenset((x - x0, y - y0, s) for (x, y), s in cells.items())


# ---------------------------------------------------------------- running

MEM_LIMIT = [0]
CLOCK = ['wall']


def limit_memory():
    if MEM_LIMIT[0]:
        resource.setrlimit(resource.RLIMIT_AS, (MEM_LIMIT[0], MEM_LIMIT[0]))


def kill_group(pid, fired):
    fired.set()
    try:
        os.killpg(pid, signal.SIGKILL)
    except ProcessLookupError:
        pass


def timed(cmd, timeout, cwd):
    """(returncode or 'timeout', seconds, stdout+stderr text); seconds of
    the wall or of the process's CPU (CLOCK)."""
    t0 = time.monotonic()
    p = subprocess.Popen(cmd, cwd=cwd, stdout=subprocess.PIPE,
                         stderr=subprocess.STDOUT, start_new_session=True,
                         preexec_fn=limit_memory)
    fired = threading.Event()
    timer = threading.Timer(timeout, kill_group, (p.pid, fired))
    timer.start()
    out = p.stdout.read()
    # reaped here (not by Popen) for the child's own CPU times
    _, status, usage = os.wait4(p.pid, 0)
    timer.cancel()
    p.returncode = os.waitstatus_to_exitcode(status)
    p.stdout.close()
    rc = 'timeout' if fired.is_set() else p.returncode
    dt = time.monotonic() - t0
    if CLOCK[0] == 'cpu':
        dt = usage.ru_utime + usage.ru_stime
    return rc, dt, out.decode('latin-1', 'replace')


def bgolly_cmd(args, algo, inp, out, gens):
    cmd = [args.bgolly, '-a', algo, '-q', '-q', '-m', str(gens), '-o', out]
    if algo == 'RuleLoader':
        cmd += ['-s', args.rules.rstrip('/') + '/']
    return cmd + [inp]


def run_one(args, path, work):
    rel = os.path.relpath(path, args.patterns)
    row = dict(pattern=rel, family='', rule='', bounded='', algorithm='',
               result='', detail='', bgolly_s='', golgen_s='', ratio='',
               engine='', backend='', cells='')
    ext = base_ext(path)
    try:
        text = read_text(path)
    except Exception as e:  # noqa: BLE001
        row.update(result='unreadable', detail=str(e)[:80])
        return row
    rule, game = find_rule(text, ext)
    fam, algo, bounded, b0 = classify(rule, game, args.rules)
    row.update(rule=rule, family=fam, bounded='yes' if bounded else '')
    os.makedirs(work, exist_ok=True)
    inp = path
    if path.endswith('.gz'):
        inp = os.path.join(work, os.path.basename(path)[:-3])
        with open(inp, 'w', encoding='latin-1') as f:
            f.write(text)
        row['detail'] = 'gunzipped for both; '
    if ext == '.mc' and algo in ('QuickLife', 'HashLife'):
        algo = 'HashLife'
    out_ext = '.mc' if ext == '.mc' else '.rle'
    bout = os.path.join(work, 'bgolly' + out_ext)
    gout = os.path.join(work, 'golgen' + out_ext)
    tries = [algo] if algo else []
    tries += [a for a in ALGOS if a not in tries and a != 'QuickLife']
    brc = bdt = None
    bmsg = ''
    used = None
    start = start_generation(text, ext)
    if start:
        row['detail'] += 'from generation %d; ' % start
    for a in tries:
        if os.path.exists(bout):
            os.unlink(bout)
        brc, bdt, bmsg = timed(bgolly_cmd(args, a, inp, bout,
                                          start + args.gens),
                               args.timeout, work)
        if brc == 'timeout':
            used = a
            break
        if brc == 0 and os.path.exists(bout):
            used = a
            break
        if a == algo and 'rule' not in bmsg.lower() and \
                'algo' not in bmsg.lower():
            used = a
            break
    row['algorithm'] = used or (algo or '?')
    if used and used != algo:
        row['detail'] += 'Golly takes it in %s; ' % used
    if args.quicklife and used == 'HashLife' and ext != '.mc' and \
            brc == 0:
        qout = os.path.join(work, 'quick' + out_ext)
        qrc, qdt, _ = timed(bgolly_cmd(args, 'QuickLife', inp, qout,
                                       start + args.gens), args.timeout,
                            work)
        if qrc == 0 and qdt < bdt:
            row['detail'] += 'QuickLife %.3f s faster; ' % qdt
            bdt = qdt
            row['algorithm'] = 'HashLife/QuickLife'
    grc, gdt, gmsg = timed([args.golgen, 'run', '--gens', str(args.gens),
                            '-o', gout] + args.golgen_args + [inp],
                           args.timeout, work)
    m = re.search(r'engine (\S+) -> (\S+)', gmsg)
    if m:
        row['engine'] = m.group(2)
    elif grc == 0:
        row['engine'] = 'dense'  # bounded grids and tables say nothing
    m = re.search(r'backend (\S+) -> (\S+)', gmsg)
    if m:
        row['backend'] = m.group(2)
    row['bgolly_s'] = '%.3f' % bdt if bdt is not None else ''
    row['golgen_s'] = '%.3f' % gdt
    bok = brc == 0 and os.path.exists(bout)
    gok = grc == 0 and os.path.exists(gout)
    if brc == 'timeout':
        row['bgolly_s'] = '>%d' % args.timeout
    if grc == 'timeout':
        row['golgen_s'] = '>%d' % args.timeout
    if brc == 'timeout' and grc == 'timeout':
        row['result'] = 'timeout (both)'
        return row
    if grc == 'timeout':
        row['result'] = 'timeout (golgen)'
        return row
    if not gok:
        last = [l for l in gmsg.strip().splitlines()
                if l.strip() and not l.startswith('golgen: engine') and
                not l.startswith('golgen: backend')]
        reason = last[-1] if last else 'exit %s' % grc
        reason = reason.replace('golgen run: ', '')
        if isinstance(grc, int) and grc < 0 or grc in (134, 136, 139):
            row['result'] = 'golgen-crash'
            reason = 'signal %s: %s' % (-grc if grc < 0 else grc, reason)
        elif grc == 1:
            row['result'] = 'golgen-failed'
        else:
            row['result'] = 'golgen-refused'
        row['detail'] += reason[:160]
        return row
    if brc == 'timeout':
        row['result'] = 'timeout (bgolly)'
        return row
    if not bok:
        last = [l for l in bmsg.strip().splitlines() if l.strip() and
                not l.startswith('This is bgolly') and not l.startswith('- ')]
        row['result'] = 'bgolly-failed'
        row['detail'] += (last[-1] if last else 'exit %s' % brc)[:160]
        return row
    row['ratio'] = '%.2f' % (gdt / bdt) if bdt > 0 else ''
    try:
        if out_ext == '.mc':
            if mc_body(bout) == mc_body(gout):
                row['result'] = 'identical'
                row['detail'] += 'macrocell text equal'
                return row
            bp, bexp = parse_mc(bout)
            gp, gexp = parse_mc(gout)
            row['cells'] = str(bp)
            if bp != gp:
                row['result'] = 'differs'
                row['detail'] += 'population bgolly %d golgen %d' % (bp, gp)
                return row
            if bp > args.max_expand:
                row['result'] = 'identical?'
                row['detail'] += ('macrocell text differs, population %d '
                                  'equal; too big to expand' % bp)
                return row
            a, b = normalise(bexp()), normalise(gexp())
        else:
            a, b = normalise(parse_rle(bout)), normalise(parse_rle(gout))
            row['cells'] = str(len(a))
    except Exception as e:  # noqa: BLE001
        row['result'] = 'compare-error'
        row['detail'] += str(e)[:120]
        return row
    if b0:
        row['detail'] += 'B0 rule (Golly stores the complement); '
    if a == b:
        row['result'] = 'identical'
    else:
        row['result'] = 'differs'
        row['detail'] += 'bgolly %d cells, golgen %d, %d in one only' % (
            len(a), len(b), len(a ^ b))
    return row


def collect(args):
    files, skipped = [], []
    for d, _, names in os.walk(args.patterns):
        for n in names:
            p = os.path.join(d, n)
            low = n.lower()
            stem = low[:-3] if low.endswith('.gz') else low
            if stem.endswith(READ_EXT):
                files.append(p)
            else:
                skipped.append(p)
    files.sort()
    skipped.sort()
    if args.only:
        files = [f for f in files if args.only in f]
        skipped = [f for f in skipped if args.only in f]
    return files, skipped


FIELDS = ['pattern', 'family', 'rule', 'bounded', 'algorithm', 'result',
          'engine', 'backend', 'bgolly_s', 'golgen_s', 'ratio', 'cells',
          'detail']


def summary(rows, skipped, args):
    out = []
    out.append('%d files: %d run, %d skipped (%s)' % (
        len(rows) + len(skipped), len(rows), len(skipped),
        ', '.join(sorted({os.path.splitext(s)[1] or s for s in skipped}))))
    results = sorted({r['result'] for r in rows})
    fams = sorted({r['family'] for r in rows})
    out.append('')
    out.append('| family | ' + ' | '.join(results) + ' | total |')
    out.append('|---' * (len(results) + 2) + '|')
    for f in fams + ['all']:
        rs = [r for r in rows if f == 'all' or r['family'] == f]
        cnt = [sum(1 for r in rs if r['result'] == x) for x in results]
        out.append('| %s | ' % f + ' | '.join(str(c) for c in cnt) +
                   ' | %d |' % len(rs))
    both = [r for r in rows if r['ratio']]
    ratios = sorted(float(r['ratio']) for r in both)
    if ratios:
        worst = max(both, key=lambda r: float(r['ratio']))
        best = min(both, key=lambda r: float(r['ratio']))
        faster = sum(1 for x in ratios if x <= 1.0)
        out.append('')
        out.append('golgen / bgolly ' + CLOCK[0] + ' time where both ran '
                   '(%d patterns): '
                   'median %.2fx, worst %.2fx (%s), best %.2fx (%s); golgen '
                   'no slower on %d' % (
                       len(ratios), statistics.median(ratios),
                       float(worst['ratio']), worst['pattern'],
                       float(best['ratio']), best['pattern'], faster))
        for f in fams:
            rf = sorted(float(r['ratio']) for r in both if r['family'] == f)
            if rf:
                out.append('  %s: %d, median %.2fx, worst %.2fx, no slower '
                           'on %d' % (f, len(rf), statistics.median(rf),
                                      rf[-1], sum(1 for x in rf if x <= 1)))
    return '\n'.join(out)


def markdown(rows):
    cols = ['pattern', 'family', 'rule', 'algorithm', 'result', 'engine',
            'bgolly_s', 'golgen_s', 'ratio', 'detail']
    out = ['| ' + ' | '.join(cols) + ' |', '|---' * len(cols) + '|']
    for r in rows:
        out.append('| ' + ' | '.join(str(r[c]).replace('|', '\\|')
                                     for c in cols) + ' |')
    return '\n'.join(out)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('--gens', type=int, default=1000)
    ap.add_argument('--timeout', type=float, default=60)
    ap.add_argument('--only', default='')
    ap.add_argument('--jobs', type=int, default=1)
    ap.add_argument('--golgen', default=os.path.join(HERE, '..', 'build',
                                                      'golgen'))
    ap.add_argument('--golgen-arg', dest='golgen_args', action='append',
                    default=[], help='extra golgen run argument '
                    '(e.g. --golgen-arg=--engine=dense)')
    ap.add_argument('--bgolly', default='bgolly')
    ap.add_argument('--patterns', default='/usr/share/golly/Patterns')
    ap.add_argument('--rules', default='/usr/share/golly/Rules')
    ap.add_argument('--csv', default='')
    ap.add_argument('--md', default='')
    ap.add_argument('--quicklife', action='store_true',
                    help='also time bgolly QuickLife, keep the faster')
    ap.add_argument('--max-expand', type=int, default=3_000_000)
    ap.add_argument('--keep', default='', help='keep outputs under DIR')
    ap.add_argument('--mem-limit', type=float, default=12,
                    help='address-space limit of each run in GiB (0: none); '
                    'a shared machine must not meet the OOM killer')
    ap.add_argument('--clock', choices=('wall', 'cpu'), default='wall',
                    help='time the wall (default) or each process\'s CPU '
                    '(user + system: for a machine shared with other work)')
    args = ap.parse_args()
    CLOCK[0] = args.clock
    MEM_LIMIT[0] = int(args.mem_limit * (1 << 30))
    files, skipped = collect(args)
    root = args.keep or tempfile.mkdtemp(prefix='golly_sweep.')
    rows = [None] * len(files)

    def job(i):
        work = os.path.join(root, '%03d' % i)
        r = run_one(args, files[i], work)
        if not args.keep:
            shutil.rmtree(work, ignore_errors=True)
        return i, r

    w = None
    if args.csv:
        fcsv = open(args.csv, 'w', newline='')
        w = csv.DictWriter(fcsv, FIELDS)
        w.writeheader()
    with cf.ThreadPoolExecutor(max_workers=max(1, args.jobs)) as ex:
        for i, r in ex.map(job, range(len(files))):
            rows[i] = r
            print('%-60s %-12s %-18s %-8s %8s %8s %7s %s' % (
                r['pattern'][:60], r['family'], r['result'],
                r['engine'], r['bgolly_s'], r['golgen_s'], r['ratio'],
                r['detail'][:90]), flush=True)
            if w:
                w.writerow(r)
                fcsv.flush()
    if w:
        fcsv.close()
    if not args.keep:
        shutil.rmtree(root, ignore_errors=True)
    s = summary(rows, skipped, args)
    print()
    print(s)
    if args.md:
        with open(args.md, 'w') as f:
            f.write(s + '\n\n' + markdown(rows) + '\n')


if __name__ == '__main__':
    main()

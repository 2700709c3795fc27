#!/usr/bin/env python3
"""Median function and file length (lines) of golgen's product code."""
import re, statistics, sys, pathlib
root = pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else '.')
dirs = ['gen', 'sat', 'runtime', 'cli']
files = [p for d in dirs for p in sorted((root / d).glob('*.[ch]'))]
flen, fun = [], []
for p in files:
    lines = p.read_text().splitlines()
    flen.append(len(lines))
    if p.suffix != '.c':
        continue
    start = None
    for i, l in enumerate(lines):
        if l == '{' and i > 0 and '(' in ''.join(lines[max(0, i - 4):i]):
            j = i - 1
            while j > 0 and lines[j - 1].strip() and not lines[j - 1].rstrip().endswith((';', '}', '*/')) and not lines[j-1].startswith('#'):
                j -= 1
            start = j
        elif l == '}' and start is not None:
            fun.append(i - start + 1)
            start = None
        elif l.startswith('}') and start is not None and l.endswith(';'):
            start = None
print(f"files {len(files)}: median {statistics.median(flen)} lines, mean {statistics.mean(flen):.0f}, max {max(flen)}")
print(f"functions {len(fun)}: median {statistics.median(fun)} lines, mean {statistics.mean(fun):.1f}, max {max(fun)}, over 60: {sum(f > 60 for f in fun)}")

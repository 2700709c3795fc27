#!/usr/bin/env python3
"""The instruction mix of a GPU kernel's steady loop, per word-generation.

Reads `cuobjdump -sass` (or `nvdisasm`) text of one cubin, finds the
function's innermost loop with the most LOP3 (the interior copy's steady
turn: the T levels of TURN ticks, one word per lane), and prints its
opcodes grouped by the pipe that runs them on sm_90, divided by the
word-generations one pass computes (T x TURN x WPL). Issue 19's accounting
of Life on the H100 (BENCHMARKS.md) reads these numbers.

    cuobjdump -sass k.cubin | bench/sass_loop.py --function gg_step_16 \\
        --levels 16 --ticks 6
"""
import argparse
import collections
import re
import sys

# Which pipe an opcode goes to on sm_90 (the ALU pipe is the one Life's
# kernel saturates: LOP3 and the funnel shifts). Unknown opcodes count as
# "other".
PIPES = {
    "alu": {"LOP3", "SHF", "ISETP", "IADD3", "LEA", "PLOP3", "SEL", "PRMT",
            "MOV", "FLO", "POPC", "IABS", "IMNMX", "VIMNMX", "BMSK", "SGXT",
            "P2R", "R2P", "LOP", "SHL", "SHR"},
    "fma": {"IMAD", "IMUL", "FFMA", "FMUL", "FADD", "IDP"},
    "mio": {"SHFL", "LDS", "STS", "LDSM", "S2R", "CS2R", "BAR", "CCTL",
            "MEMBAR", "ERRBAR"},
    "mem": {"LDG", "STG", "LD", "ST", "LDL", "STL", "LDC", "ULDC"},
    "branch": {"BRA", "EXIT", "BSYNC", "BSSY", "WARPSYNC", "CALL", "RET",
               "NOP", "YIELD"},
}

INSN = re.compile(r"/\*([0-9a-f]{4,})\*/\s+(@!?U?P[0-7T]\s+)?([A-Z][A-Z0-9_]*)"
                  r"([.A-Z0-9_]*)\s*([^;]*);")


def functions(text):
    """{name: [(address, opcode, modifiers, operands)]}"""
    out, name = {}, None
    for line in text.splitlines():
        m = re.search(r"Function : (\S+)", line)
        if m:
            name = m.group(1)
            out[name] = []
            continue
        m = INSN.search(line)
        if m and name:
            out[name].append((int(m.group(1), 16), m.group(3), m.group(4),
                              m.group(5)))
    return out


def loops(insns):
    """(start, end) index pairs of every backward branch's body."""
    index = {a: i for i, (a, _, _, _) in enumerate(insns)}
    found = []
    for i, (addr, op, _, args) in enumerate(insns):
        if op != "BRA":
            continue
        m = re.search(r"0x([0-9a-f]+)", args)
        if m and int(m.group(1), 16) <= addr and int(m.group(1), 16) in index:
            found.append((index[int(m.group(1), 16)], i))
    return found


def steady_loop(insns):
    """The innermost loop holding the most LOP3. A shuffle that ptxas cannot
    prove convergent gets an out-of-line slow path after the function's
    EXIT that branches back into the code; those backward branches span an
    EXIT, so they are no loops of the kernel."""
    best, best_n = None, -1
    all_loops = [(s, e) for s, e in loops(insns)
                 if not any(op == "EXIT" for _, op, _, _ in insns[s:e + 1])]
    for s, e in all_loops:
        inner = any(s <= s2 and e2 <= e and (s2, e2) != (s, e)
                    for s2, e2 in all_loops)
        n = sum(1 for _, op, _, _ in insns[s:e + 1] if op == "LOP3")
        if not inner and n > best_n:
            best, best_n = (s, e), n
    return best


def pipe_of(op):
    for pipe, ops in PIPES.items():
        if op in ops:
            return pipe
    return "other"


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--function", default="gg_step_16")
    ap.add_argument("--levels", type=int, default=16, help="T")
    ap.add_argument("--ticks", type=int, default=6, help="ticks per turn")
    ap.add_argument("--wpl", type=int, default=1, help="words per lane")
    ap.add_argument("file", nargs="?", help="SASS text (default stdin)")
    a = ap.parse_args()
    if min(a.levels, a.ticks, a.wpl) < 1:
        sys.exit("sass_loop: --levels, --ticks and --wpl must be at least 1")
    text = open(a.file).read() if a.file else sys.stdin.read()
    fns = functions(text)
    if a.function not in fns:
        sys.exit("sass_loop: no function %s (have: %s)" %
                 (a.function, " ".join(sorted(fns)) or "none"))
    insns = fns[a.function]
    span = steady_loop(insns)
    if not span:
        sys.exit("sass_loop: %s has no loop" % a.function)
    body = insns[span[0]:span[1] + 1]
    wg = a.levels * a.ticks * a.wpl
    ops = collections.Counter(op for _, op, _, _ in body)
    pipes = collections.Counter()
    for op, n in ops.items():
        pipes[pipe_of(op)] += n
    print("%s steady loop: %d instructions at 0x%x..0x%x, %d word-generations"
          " a pass (T %d x %d ticks x %d words)" %
          (a.function, len(body), body[0][0], body[-1][0], wg, a.levels,
           a.ticks, a.wpl))
    print("per 48 word-generations (Life's network needs 480 ALU: 8 LOP3 + 2"
          " SHF a word):")
    print("  all %.1f" % (len(body) * 48.0 / wg))
    for pipe, n in pipes.most_common():
        mix = ", ".join("%s %.1f" % (op, ops[op] * 48.0 / wg)
                        for op, _ in ops.most_common() if pipe_of(op) == pipe)
        print("  %-6s %6.1f  (%s)" % (pipe, n * 48.0 / wg, mix))


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""Run golgen's emitted PTX without a GPU: a warp-level interpreter of the
instructions gen/emit_ptx*.c write, driven the way runtime/gpu/cuda_step.c
drives the kernel (device layout of runtime/gpu/gpu_layout.c, torus ghost
cells and rows, launches of 2^e generations, state planes p_ps words
apart), checked cell for cell against a plain Generations stepper here.

Why: the PTX target writes every instruction itself, and the only GPU is
a remote one that a session borrows for minutes; this finds wrong
addresses, rings and plane stages on the dev machine. It is slow (pure
Python, no dependencies): small grids, few generations.

    ptx_sim.py KERNEL.ptx RULE [--size WxH] [--topo T|P] [--gens N]
               [--strip S] [--seed K]

RULE: B3/S23, 23/3/3 (S/B/C), /2/3, B2/S/C3; a trailing V or H picks the
von Neumann or hexagonal neighbourhood. Exit 0 when the kernel's cells
equal the reference's, 1 when they differ (the first difference named),
2 on bad usage or a kernel the interpreter cannot run."""

import argparse
import random
import re
import sys

M32 = 0xFFFFFFFF
M64 = (1 << 64) - 1
LANES = range(32)


class SimError(Exception):
    pass


def s32(x):
    x &= M32
    return x - (1 << 32) if x & 0x80000000 else x


# ---- the module ----

def parse_entries(text):
    """{name: (params, body lines, maxntid)} of every .entry."""
    entries = {}
    for m in re.finditer(r"\.entry\s+(\w+)\s*\(([^)]*)\)(.*?)\n\{(.*?)\n\}",
                         text, re.S):
        name, params, attrs, body = m.groups()
        pnames = re.findall(r"\.param\s+\.\w+\s+(\w+)", params)
        nt = re.search(r"\.maxntid\s+(\d+)", attrs)
        entries[name] = (pnames, body.split("\n"),
                         int(nt.group(1)) if nt else 128)
    return entries


def lop3_fn(imm):
    terms = []
    for m in range(8):
        if imm >> m & 1:
            terms.append("(%sa&%sb&%sc)" % ("" if m & 4 else "~",
                                            "" if m & 2 else "~",
                                            "" if m & 1 else "~"))
    body = "|".join(terms) if terms else "0"
    return eval("lambda a,b,c:(%s)&%d" % (body, M32))


CMP = {
    "lt": lambda a, b: a < b, "le": lambda a, b: a <= b,
    "gt": lambda a, b: a > b, "ge": lambda a, b: a >= b,
    "eq": lambda a, b: a == b, "ne": lambda a, b: a != b,
}


class Registers(dict):
    """name -> list of 32 lane values. A register read before any write
    holds garbage, as on the GPU (the edge copy's queue moves some before
    their first load): random words, so a result that depends on them
    shows."""

    def __missing__(self, name):
        rnd = random.Random(name)
        v = [rnd.getrandbits(32) for _ in LANES]
        self[name] = v
        return v


class Warp:
    def __init__(self, mem, params, ctaid, ntid, warp):
        self.r = Registers()
        self.mem = mem
        self.params = params
        self.r["%tid.x"] = [warp * 32 + i for i in LANES]
        self.r["%ctaid.x"] = [ctaid] * 32
        self.r["%ntid.x"] = [ntid] * 32


class Memory:
    """Global buffers: base address -> bytearray (reads and writes outside
    them fail: the kernel must stay inside the runtime's buffers)."""

    def __init__(self):
        self.regions = []

    def add(self, base, data):
        self.regions.append((base, data))

    def find(self, addr, size):
        for base, data in self.regions:
            if base <= addr and addr + size <= base + len(data):
                return data, addr - base
        raise SimError("access of %d bytes at 0x%x outside every buffer"
                       % (size, addr))

    def load32(self, addr):
        if addr & 3:
            raise SimError("misaligned 32-bit load at 0x%x" % addr)
        data, off = self.find(addr, 4)
        return int.from_bytes(data[off:off + 4], "little")

    def store(self, addr, size, v):
        if addr & (size - 1):
            raise SimError("misaligned %d-byte store at 0x%x" % (size, addr))
        data, off = self.find(addr, size)
        data[off:off + size] = (v & ((1 << (8 * size)) - 1)).to_bytes(
            size, "little")


def split_ops(s):
    return [o.strip() for o in s.split(",")] if s.strip() else []


def compile_body(lines):
    """Instructions as closures f(warp) -> next pc or None; labels."""
    code, labels, fixups = [], {}, []
    for raw in lines:
        line = raw.split("//")[0].strip()
        if not line or line.startswith(".") or line in ("{", "}"):
            continue
        m = re.match(r"^(\w+):$", line)
        if m:
            labels[m.group(1)] = len(code)
            continue
        if not line.endswith(";"):
            raise SimError("cannot read line: %s" % raw)
        line = line[:-1].strip()
        pred = None
        m = re.match(r"^@(!?)(%\w+)\s+(.*)$", line)
        if m:
            pred = (m.group(1) == "!", m.group(2))
            line = m.group(3)
        parts = line.split(None, 1)
        op, ops = parts[0], split_ops(parts[1]) if len(parts) > 1 else []
        code.append(compile_instr(op, ops, pred, len(code), fixups, line))
    for pc, label in fixups:
        if label not in labels:
            raise SimError("branch to unknown label %s" % label)
    return code, labels


def compile_instr(op, ops, pred, pc, fixups, text):
    """One instruction as a closure over the warp."""

    def src(o):
        neg = o.startswith("!")
        if neg:
            o = o[1:]
        if o.startswith("%"):
            if neg:
                return lambda w: [not v for v in w.r[o]]
            return lambda w: w.r[o]
        v = int(o, 0)
        const = [v] * 32
        return lambda w: const

    def active(w):
        if pred is None:
            return None
        p = w.r[pred[1]]
        return [not v for v in p] if pred[0] else p

    def write(d, fn, mask):
        """Lane-wise d = fn(lanes), predicated."""
        def run(w):
            new = fn(w)
            a = active(w)
            if a is None:
                w.r[d] = new
            else:
                old = w.r[d]
                w.r[d] = [n if act else o for n, o, act in zip(new, old, a)]
        return run

    def lanes2(f, a, b):
        return lambda w: [f(x, y) for x, y in zip(a(w), b(w))]

    def lanes3(f, a, b, c):
        return lambda w: [f(x, y, z) for x, y, z in zip(a(w), b(w), c(w))]

    def addr_of(o):
        m = re.match(r"^\[(%\w+)(?:\+(-?\d+))?\]$", o)
        if m:
            reg, off = m.group(1), int(m.group(2) or 0)
            return lambda w: [v + off for v in w.r[reg]]
        m = re.match(r"^\[(\w+)\]$", o)
        if m:
            return m.group(1)
        raise SimError("cannot read address %s" % o)

    base = op.split(".")[0]
    if op in ("mov.b32", "mov.u32"):
        a = src(ops[1])
        return write(ops[0], lambda w: [v & M32 for v in a(w)], pred)
    if op == "not.b32":
        a = src(ops[1])
        return write(ops[0], lambda w: [~v & M32 for v in a(w)], pred)
    if op in ("and.b32", "or.b32", "xor.b32"):
        f = {"and": lambda x, y: x & y, "or": lambda x, y: x | y,
             "xor": lambda x, y: x ^ y}[base]
        return write(ops[0], lanes2(f, src(ops[1]), src(ops[2])), pred)
    if op == "lop3.b32":
        f = lop3_fn(int(ops[4], 0))
        return write(ops[0], lanes3(f, src(ops[1]), src(ops[2]),
                                    src(ops[3])), pred)
    if op in ("add.s32", "add.u32"):
        return write(ops[0], lanes2(lambda x, y: (x + y) & M32, src(ops[1]),
                                    src(ops[2])), pred)
    if op == "sub.s32":
        return write(ops[0], lanes2(lambda x, y: (x - y) & M32, src(ops[1]),
                                    src(ops[2])), pred)
    if op == "add.s64":
        return write(ops[0], lanes2(lambda x, y: (x + y) & M64, src(ops[1]),
                                    src(ops[2])), pred)
    if op == "neg.s32":
        a = src(ops[1])
        return write(ops[0], lambda w: [-v & M32 for v in a(w)], pred)
    if op in ("min.s32", "max.s32"):
        g = min if base == "min" else max
        return write(ops[0], lanes2(lambda x, y: g(s32(x), s32(y)) & M32,
                                    src(ops[1]), src(ops[2])), pred)
    if op == "rem.s32":
        def rem(x, y):
            x, y = s32(x), s32(y)
            if y == 0:
                raise SimError("rem by 0")
            r = abs(x) % abs(y)
            return (-r if x < 0 else r) & M32
        return write(ops[0], lanes2(rem, src(ops[1]), src(ops[2])), pred)
    if op == "div.u32":
        def div(x, y):
            if y == 0:
                raise SimError("div by 0")
            return x // y
        return write(ops[0], lanes2(div, src(ops[1]), src(ops[2])), pred)
    if op in ("mul.lo.u32", "mul.lo.s32"):
        return write(ops[0], lanes2(lambda x, y: (x * y) & M32, src(ops[1]),
                                    src(ops[2])), pred)
    if op == "mul.hi.u32":
        return write(ops[0], lanes2(lambda x, y: (x * y) >> 32, src(ops[1]),
                                    src(ops[2])), pred)
    if op in ("mad.lo.u32", "mad.lo.s32"):
        return write(ops[0], lanes3(lambda x, y, z: (x * y + z) & M32,
                                    src(ops[1]), src(ops[2]), src(ops[3])),
                     pred)
    if op == "mad.hi.u32":
        return write(ops[0], lanes3(lambda x, y, z: ((x * y >> 32) + z) & M32,
                                    src(ops[1]), src(ops[2]), src(ops[3])),
                     pred)
    if op == "mul.wide.s32":
        return write(ops[0], lanes2(lambda x, y: (s32(x) * s32(y)) & M64,
                                    src(ops[1]), src(ops[2])), pred)
    if op == "mul.wide.u32":
        return write(ops[0], lanes2(lambda x, y: (x & M32) * (y & M32),
                                    src(ops[1]), src(ops[2])), pred)
    if op == "mad.wide.s32":
        return write(ops[0], lanes3(
            lambda x, y, z: (s32(x) * s32(y) + z) & M64, src(ops[1]),
            src(ops[2]), src(ops[3])), pred)
    if op == "shl.b32":
        return write(ops[0], lanes2(
            lambda x, y: (x << y) & M32 if y < 32 else 0, src(ops[1]),
            src(ops[2])), pred)
    if op in ("shr.u32", "shr.b32"):
        return write(ops[0], lanes2(lambda x, y: x >> y if y < 32 else 0,
                                    src(ops[1]), src(ops[2])), pred)
    if op == "shl.b64":
        return write(ops[0], lanes2(
            lambda x, y: (x << y) & M64 if y < 64 else 0, src(ops[1]),
            src(ops[2])), pred)
    if op == "shf.l.wrap.b32":
        def shfl_(a, b, n):
            n &= 31
            return ((b << n) | (a >> (32 - n))) & M32 if n else b
        return write(ops[0], lanes3(shfl_, src(ops[1]), src(ops[2]),
                                    src(ops[3])), pred)
    if op == "shf.r.wrap.b32":
        def shfr_(a, b, n):
            n &= 31
            return ((a >> n) | (b << (32 - n))) & M32 if n else a
        return write(ops[0], lanes3(shfr_, src(ops[1]), src(ops[2]),
                                    src(ops[3])), pred)
    if op in ("shfl.sync.up.b32", "shfl.sync.down.b32"):
        a, b, c = src(ops[1]), src(ops[2]), src(ops[3])
        up = ".up." in op

        def shuffle(w):
            av, bv, cv = a(w), b(w), c(w)
            out = []
            for lane in LANES:
                clamp = cv[lane] & 31
                if up:
                    j = lane - bv[lane]
                    ok = j >= clamp  # segment start 0
                else:
                    j = lane + bv[lane]
                    ok = j <= clamp
                out.append(av[j] if ok else av[lane])
            return out
        return write(ops[0], shuffle, pred)
    m = re.match(r"^setp\.(lt|le|gt|ge|eq|ne)(?:\.(and|or))?\.([su]32)$", op)
    if m:
        cmp, bop, ty = CMP[m.group(1)], m.group(2), m.group(3)
        a, b = src(ops[1]), src(ops[2])
        conv = s32 if ty == "s32" else (lambda v: v & M32)
        c = src(ops[3]) if bop else None

        def setp(w):
            r = [cmp(conv(x), conv(y)) for x, y in zip(a(w), b(w))]
            if bop == "and":
                r = [x and bool(y) for x, y in zip(r, c(w))]
            elif bop == "or":
                r = [x or bool(y) for x, y in zip(r, c(w))]
            return r
        return write(ops[0], setp, pred)
    if op == "and.pred":
        return write(ops[0], lanes2(lambda x, y: bool(x and y), src(ops[1]),
                                    src(ops[2])), pred)
    if op == "selp.b32":
        return write(ops[0], lanes3(lambda x, y, p: x & M32 if p else y & M32,
                                    src(ops[1]), src(ops[2]), src(ops[3])),
                     pred)
    if op == "cvt.u16.u32":
        a = src(ops[1])
        return write(ops[0], lambda w: [v & 0xFFFF for v in a(w)], pred)
    if op == "cvta.to.global.u64":
        a = src(ops[1])
        return write(ops[0], lambda w: list(a(w)), pred)
    if op in ("ld.param.u32", "ld.param.u64"):
        name = addr_of(ops[1])
        return write(ops[0], lambda w: [w.params[name]] * 32, pred)
    if op == "ld.global.nc.u32":
        ad = addr_of(ops[1])

        def load(w):
            a = active(w)
            old = w.r[ops[0]]
            return [w.mem.load32(x) if a is None or a[i] else old[i]
                    for i, x in enumerate(ad(w))]
        return write(ops[0], load, None)
    if op in ("st.global.u32", "st.global.u16"):
        ad, v = addr_of(ops[0]), src(ops[1])
        size = 4 if op.endswith("32") else 2

        def st(w):
            a = active(w)
            for i, (x, y) in enumerate(zip(ad(w), v(w))):
                if a is None or a[i]:
                    w.mem.store(x, size, y)
        return st
    if op.startswith("prefetch."):
        return lambda w: None
    if op == "bra":
        label = ops[0]
        fixups.append((pc, label))

        def bra(w):
            a = active(w)
            if a is None:
                return label
            if all(a):
                return label
            if any(a):
                raise SimError("divergent branch to %s" % label)
            return None
        return bra
    if op == "ret":
        return lambda w: "__RET__"
    if op == "trap":
        def trap(w):
            a = active(w)
            if a is None or any(a):
                raise SimError("trap")
        return trap
    raise SimError("instruction %s is not simulated: %s" % (op, text))


class Kernel:
    def __init__(self, pnames, lines, maxntid):
        self.pnames = pnames
        self.code, self.labels = compile_body(lines)
        self.ntid = maxntid

    def launch(self, mem, args, blocks):
        params = dict(zip(self.pnames, args))
        code, labels = self.code, self.labels
        for blk in range(blocks):
            for warp in range(self.ntid // 32):
                w = Warp(mem, params, blk, self.ntid, warp)
                pc, n = 0, len(code)
                while pc < n:
                    nxt = code[pc](w)
                    if nxt is None:
                        pc += 1
                    elif nxt == "__RET__":
                        break
                    else:
                        pc = labels[nxt]


# ---- the runtime's side (runtime/gpu/gpu_layout.c, runtime/gpu/cuda_step.c) --

GHOST_TOP, GHOST_BOTTOM = 16, 40


class Geom:
    def __init__(self, width, height, strip):
        self.width, self.height = width, height
        self.nwi = (width + 31) // 32 + 2
        self.nx = (self.nwi - 2) // 31 + 1
        self.ns = max(self.nx * 31 + 1, self.nwi)
        self.gtop, self.gbottom = GHOST_TOP, GHOST_BOTTOM
        self.strip = min(strip if strip > 0 else height, height)
        self.ny = (height + self.strip - 1) // self.strip
        self.ntasks = self.ny * self.nx
        self.rows = self.gtop + height + self.gbottom
        self.pwords = self.ns * self.rows  # words of one plane

    def word_index(self, y, k):  # device row y (may be a ghost row), word k
        return (self.gtop + y) * self.ns + k


def pack(geom, states, planes):
    """Host cells (list of rows of states) -> words of every plane."""
    buf = [0] * (geom.pwords * planes)
    for p in range(planes):
        for y in range(geom.height):
            for x in range(geom.width):
                if states[y][x] >> p & 1:
                    k = x + 32
                    buf[p * geom.pwords + geom.word_index(y, k >> 5)] |= \
                        1 << (k & 31)
    return buf


def unpack(geom, buf, planes):
    out = [[0] * geom.width for _ in range(geom.height)]
    for p in range(planes):
        for y in range(geom.height):
            for x in range(geom.width):
                k = x + 32
                v = buf[p * geom.pwords + geom.word_index(y, k >> 5)]
                if v >> (k & 31) & 1:
                    out[y][x] |= 1 << p
    return out


def torus_ghosts(geom, buf, planes):
    """gg_ghost (ghost cells of every row) then the ghost rows (the wrap),
    plane by plane, as the runtime does before every torus launch."""
    w, h, nwi = geom.width, geom.height, geom.nwi
    for p in range(planes):
        base = p * geom.pwords

        def cell(row, x):
            k = x + 32
            return buf[row + (k >> 5)] >> (k & 31) & 1
        for y in range(h):
            row = base + geom.word_index(y, 0)
            if w % 32 == 0:
                buf[row] = buf[row + nwi - 2]
                buf[row + nwi - 1] = buf[row + 1]
                continue
            left = tail = right = 0
            for i in range(32):
                left |= cell(row, ((i - 32) % w + w) % w) << i
            used = w & 31
            for i in range(used, 32):
                tail |= cell(row, (i - used) % w) << i
            for i in range(32):
                right |= cell(row, (32 - used + i) % w) << i
            buf[row] = left
            buf[row + nwi - 2] = (buf[row + nwi - 2] & ((1 << used) - 1)) \
                | tail
            buf[row + nwi - 1] = right
        for y in list(range(-geom.gtop, 0)) + list(range(h, h + geom.gbottom)):
            src = base + geom.word_index(y % h, 0)
            dst = base + geom.word_index(y, 0)
            buf[dst:dst + geom.ns] = buf[src:src + geom.ns]


def to_bytes(words):
    return bytearray(b"".join(v.to_bytes(4, "little") for v in words))


def from_bytes(data):
    return [int.from_bytes(data[i:i + 4], "little")
            for i in range(0, len(data), 4)]


def run_kernel(entries, geom, states, planes, torus, gens):
    kernels = {}
    tmax = max(int(n.split("_")[-1]) for n in entries
               if n.startswith("gg_step_"))
    bufs = [pack(geom, states, planes), [0] * (geom.pwords * planes)]
    cur = 0
    row0 = geom.gtop * geom.ns * 4
    bases = [1 << 36, 2 << 36]
    while gens > 0:
        e = tmax
        while e > gens:
            e //= 2
        name = "gg_step_%d" % e
        if name not in kernels:
            pn, lines, nt = entries[name]
            kernels[name] = Kernel(pn, lines, nt)
        k = kernels[name]
        if torus:
            torus_ghosts(geom, bufs[cur], planes)
        mem = Memory()
        data = [to_bytes(bufs[0]), to_bytes(bufs[1])]
        pbytes = geom.pwords * 4
        for b in range(2):  # one region per plane: no read strays into
            for p in range(planes):  # the next plane unnoticed
                mem.add(bases[b] + p * pbytes,
                        memoryview(data[b])[p * pbytes:(p + 1) * pbytes])
        wpb = k.ntid // 32
        args = [bases[cur] + row0, bases[cur ^ 1] + row0, geom.height,
                geom.ns, geom.nwi, geom.width, 0 if torus else 1, geom.strip,
                geom.nx, geom.ntasks, geom.pwords]
        k.launch(mem, args, (geom.ntasks + wpb - 1) // wpb)
        bufs = [from_bytes(data[0]), from_bytes(data[1])]
        cur ^= 1
        gens -= e
    return unpack(geom, bufs[cur], planes)


# ---- the reference ----

NBHD = {
    "M": [(-1, -1), (0, -1), (1, -1), (-1, 0), (1, 0), (-1, 1), (0, 1),
          (1, 1)],
    "V": [(0, -1), (-1, 0), (1, 0), (0, 1)],
    "H": [(-1, -1), (0, -1), (-1, 0), (1, 0), (0, 1), (1, 1)],
}


def parse_rule(text):
    """(birth set, survival set, states, neighbourhood)."""
    nb = "M"
    if text[-1] in "VH":
        nb, text = text[-1], text[:-1]
    m = re.match(r"^B(\d*)/S(\d*)(?:/C(\d+))?$", text)
    if m:
        return (set(map(int, m.group(1))), set(map(int, m.group(2))),
                int(m.group(3) or 2), nb)
    m = re.match(r"^(\d*)/(\d*)/(\d+)$", text)
    if m:  # S/B/C
        return (set(map(int, m.group(2))), set(map(int, m.group(1))),
                int(m.group(3)), nb)
    raise SimError("cannot read rule %s" % text)


def ref_step(cells, birth, survive, states, nb, torus):
    h, w = len(cells), len(cells[0])
    out = [[0] * w for _ in range(h)]
    for y in range(h):
        for x in range(w):
            n = 0
            for dx, dy in NBHD[nb]:
                xx, yy = x + dx, y + dy
                if torus:
                    xx, yy = xx % w, yy % h
                elif not (0 <= xx < w and 0 <= yy < h):
                    continue
                n += cells[yy][xx] == 1
            s = cells[y][x]
            if s == 0:
                out[y][x] = 1 if n in birth else 0
            elif s == 1:
                out[y][x] = 1 if n in survive else (2 % states if states > 2
                                                    else 0)
            else:
                out[y][x] = s + 1 if s + 1 < states else 0
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("ptx")
    ap.add_argument("rule")
    ap.add_argument("--size", default="70x41")
    ap.add_argument("--topo", default="T", choices=["T", "P"])
    ap.add_argument("--gens", type=int, default=19)
    ap.add_argument("--strip", type=int, default=0)
    ap.add_argument("--seed", type=int, default=1)
    a = ap.parse_args()
    try:
        birth, survive, states, nb = parse_rule(a.rule)
        width, height = map(int, a.size.split("x"))
        planes = max(1, (states - 1).bit_length())
        rnd = random.Random(a.seed)
        cells = [[0 if rnd.random() < 0.5 else 1 if rnd.random() < 0.5 or
                  states < 3 else rnd.randrange(2, states)
                  for _ in range(width)] for _ in range(height)]
        with open(a.ptx) as f:
            entries = parse_entries(f.read())
        if not entries:
            raise SimError("no .entry in %s" % a.ptx)
        geom = Geom(width, height, a.strip)
        got = run_kernel(entries, geom, cells, planes, a.topo == "T", a.gens)
    except (SimError, OSError, ValueError) as e:
        print("ptx_sim: %s" % e, file=sys.stderr)
        return 2
    want = cells
    for _ in range(a.gens):
        want = ref_step(want, birth, survive, states, nb, a.topo == "T")
    for y in range(height):
        for x in range(width):
            if got[y][x] != want[y][x]:
                print("ptx_sim: %s %s %s, %d gens, strip %d: cell (%d,%d) is "
                      "%d, the reference says %d" % (
                          a.rule, a.size, a.topo, a.gens, geom.strip, x, y,
                          got[y][x], want[y][x]), file=sys.stderr)
                return 1
    print("ptx_sim: %s %s %s, %d gens, strip %d, %d tasks: equal" % (
        a.rule, a.size, a.topo, a.gens, geom.strip, geom.ntasks))
    return 0


if __name__ == "__main__":
    sys.exit(main())

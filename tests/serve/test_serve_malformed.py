#!/usr/bin/env python3
"""golgen serve keeps serving through 1,000 malformed WebSocket messages
(tests/serve/wsclient.py; issue 41): every bad command gets an error
message and changes nothing, broken frames close only their own socket,
and afterwards the page and a new socket still work and the universe is
the one it was. Also: a token is required when --address is given.

    test_serve_malformed.py GOLGEN"""
import random
import struct
import time
import sys
import urllib.request
import urllib.error

from wsclient import Client, start_server

GOLGEN = sys.argv[1]

GOOD = ['view 0 0 8 8 0', 'step 1', 'speed 10', 'set 1 1 1', 'rule B3/S23',
        'save', 'fit', 'pause', 'save mc', 'soup 8 8 50 1',
        # Golly reads :T0,0 as the unbounded plane (bgolly 3.3 does)
        'rule B3/S23:T0,0']
BAD_FIXED = [
    '', ' ', 'view', 'view 0 0 8 8', 'view 0 0 8 8 0 0', 'view a b c d e',
    'view 0 0 0 8 0', 'view 0 0 4097 8 0', 'view 0 0 4096 4096 0',
    'view 0 0 8 8 41', 'view 0 0 8 8 -1', 'view 9223372036854775807 0 8 8 0',
    'view 99999999999999999999 0 8 8 0', 'view  0 0 8 8 0', 'view 0 0 8 8 0 ',
    'step 0', 'step -1', 'step 1099511627777', 'step', 'speed 1001',
    'speed -5', 'set 0 0 256', 'set 0 0 2', 'set 0 0', 'rule', 'rule B9/S',
    'rule B3/S23:T0,68', 'rule Bx/S', 'rule ' + 'B' * 300, 'rule 3D4/4:T0',
    'rule R5,C0,M1,S34..58,B34..45,NX', 'rule NoSuchRuleFile',
    'rule ../../etc/passwd', 'z', 'z -1', 'z 16777216', 'z 3', 'z 1 2',
    'colours 1',
    'load', 'load\n', 'load\nthis is not a pattern', 'load\nx = 3, y = 3\nzzz!',
    'load\nx = 99999999999, y = 9\n!', 'run now', 'pause 1', 'save me',
    'fit 1', 'clear please', 'VIEW 0 0 8 8 0', 'view\t0 0 8 8 0',
    'set 4611686018427387904 0 1', 'set 4000000000 4000000000 1',
    'view 0 0 8 8 0\nextra', '\n', 'rule B3/S23\nB36/S23', '\x00', 'é',
    'load\n' + 'x' * (1 << 20), 'load\n' + 'o' * (2 << 20),
    'rule B3/S23:T64,64 extra', 'rule B3/S23:T2000000000,2000000000',
    'load\nx = 3, y = 1, rule = B3/S23:T100000,100000\n3o!',
    # save, paste and soup
    'save gif', 'save mc png', 'save MC', 'save  mc', 'soup', 'soup 8 8 50',
    'soup 0 8 50 1', 'soup 8 0 50 1', 'soup 8 8 101 1', 'soup 8 8 -1 1',
    'soup 8 8 50 -1', 'soup 8 8 50 1 1', 'soup 4294967297 1 50 1',
    'soup 65537 65537 50 1', 'soup 8 8 50 99999999999999999999',
    'soup 8 8 50 1\n', 'paste', 'paste 0 0', 'paste 0 0\n', 'paste 0\no!',
    'paste a b\no!', 'paste 0 0 0\no!', 'paste 0 0\nnot a pattern',
    'paste 0 0\nx = 2, y = 1, rule = 23/3/3\nAB!',
    'paste 4611686018427387904 0\no!',
    'paste 4000000000 4000000000\nx = 1, y = 1\no!',
    'paste 0 0\n#Life 1.06\n-2000000000 -2000000000\n2000000000 2000000000',
    'paste 0 0\n' + 'o' * (2 << 20),
    'paste 0 0\nx = 5000, y = 4000\n' + '5000o$' * 3999 + '5000o!',
]


def bad_messages(rng):
    out = list(BAD_FIXED)
    words = ['view', 'step', 'set', 'rule', 'speed', 'load', 'x',
             '-', '--1', '1e9', '0x10', '+1', '', 'soup', 'paste', 'mc']
    while len(out) < 1000:
        r = rng.random()
        if r < 0.4:  # bytes
            out.append(bytes(rng.randrange(256) for _ in
                             range(rng.randrange(1, 40))).decode('latin-1'))
        elif r < 0.8:  # wrong words
            out.append(' '.join(rng.choice(words) for _ in
                                range(rng.randrange(1, 8))))
        else:  # a good command damaged (so that it must be refused)
            g = rng.choice(GOOD)
            how = rng.randrange(3)
            digits = [i for i, ch in enumerate(g) if ch.isdigit()]
            if how == 0:
                out.append(g + ' x')
            elif how == 1 and ' ' in g:
                out.append(g.replace(' ', '  ', 1))
            elif digits:
                i = rng.choice(digits)
                out.append(g[:i] + rng.choice('x\t') + g[i + 1:])
            else:
                out.append(g + '\n')
    return out


def main():
    rng = random.Random(41)
    proc, url = start_server(GOLGEN, [])
    try:
        c = Client(url)
        gen0, pop0, cells0 = c.frame()
        errors = 0
        msgs = bad_messages(rng)
        for m in msgs:
            c.send(m)
        # every message answered by an error, then the frame asked last
        c.send('view -8 -8 16 16 0')
        while True:
            op, data = c.recv()
            if op == 2:
                break
            assert data.startswith(b'error\n'), data[:80]
            errors += 1
        assert errors == len(msgs), (errors, len(msgs))
        assert struct.unpack_from('<qq', data, 32) == (gen0, pop0)
        assert data[224:] == cells0
        c.close()
        # a second client counts errors one by one for a sample
        c = Client(url)
        one = 0
        for m in msgs[:300]:
            c.send(m)
            text = None
            c.send('fit')
            while True:
                t = c.recv_text()
                if t.startswith('fit\n'):
                    break
                text = t
            if text is not None:
                assert text.startswith('error\n'), text
                one += 1
        gen2, pop2, cells2 = c.frame()
        assert (gen2, pop2, cells2) == (gen0, pop0, cells0), \
            'malformed messages changed the universe: %r' % ((gen0, pop0),
                                                          (gen2, pop2))
        c.close()
        # broken frames: binary, bad opcodes, unmasked, reserved bits
        for kind in range(6):
            c = Client(url)
            try:
                if kind == 0:
                    c.raw(2, b'\x00\x01binary')
                elif kind == 1:
                    c.raw(3, b'reserved opcode')
                elif kind == 2:
                    c.raw(1, b'view 0 0 8 8 0', mask=False)
                elif kind == 3:
                    c.raw(1, b'view 0 0 8 8 0', rsv=4)
                elif kind == 4:
                    c.raw(1, b'\xff\xfe not utf-8')
                else:
                    c.raw(1, b'view 0 0 8 8 0', fin=False)
                    c.raw(9, b'ping in between')
                    c.raw(0, b'0 0 0')  # continuation: "view ... 00 0 0"
                c.send('fit')
                c.recv_text('fit')
            except (ConnectionError, OSError):
                pass  # the server may close a broken socket
            c.close()
        # still serving: the page, and a fresh socket sees the same universe
        page = urllib.request.urlopen(url, timeout=10).read()
        assert b'golgen serve' in page
        c = Client(url)
        assert c.frame() == (gen0, pop0, cells0)
        c.send('step 3')
        deadline = time.time() + 120  # a hang's bound, not a timing
        while True:
            g, _, _ = c.frame()
            if g == gen0 + 3:
                break
            assert time.time() < deadline, g
            time.sleep(0.05)
        c.close()
        assert proc.poll() is None, 'golgen serve exited'
        print('golgen serve: %d malformed messages, %d of the first 300 '
              'answered by an error one by one; still serving' %
              (len(msgs), one))
    finally:
        proc.terminate()
        rc = proc.wait(timeout=20)
    assert rc == 0, 'golgen serve exited %d after SIGTERM' % rc
    # another address: a token is required
    proc, url = start_server(GOLGEN, ['--address', '127.0.0.2'])
    try:
        assert '?token=' in url, url
        bare = url.split('?')[0]
        try:
            urllib.request.urlopen(bare, timeout=10)
            raise AssertionError('the page was served without the token')
        except urllib.error.HTTPError as e:
            assert e.code == 404
        try:
            Client(bare)
            raise AssertionError('a socket opened without the token')
        except ConnectionError:
            pass
        assert b'golgen serve' in urllib.request.urlopen(url, timeout=10).read()
        Client(url).close()
    finally:
        proc.terminate()
        proc.wait(timeout=20)
    print('token: refused without it, served with it')


main()

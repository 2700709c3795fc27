"""A small WebSocket client on the standard library alone (RFC 6455),
for the tests of golgen serve: start the server, connect, send text or
any raw frame (the malformed ones too), read messages."""
import base64
import os
import re
import socket
import struct
import subprocess
import time


def start_server(golgen, args, timeout=30):
    """golgen serve ARGS on a free port: (process, base URL)."""
    proc = subprocess.Popen([golgen, 'serve', '--port', '0'] + args,
                            stderr=subprocess.PIPE, text=True)
    deadline = time.time() + timeout
    while time.time() < deadline:
        line = proc.stderr.readline()
        if not line:
            if proc.poll() is not None:
                raise RuntimeError('golgen serve exited %s' % proc.returncode)
            continue
        m = re.search(r'(http://\S+)', line)
        if m:
            return proc, m.group(1)
    proc.kill()
    raise RuntimeError('golgen serve printed no URL')


class Client:
    def __init__(self, url, protocol='golgen', timeout=20):
        m = re.match(r'http://([^:/]+):(\d+)(/[^?]*)?(\?.*)?$', url)
        host, port = m.group(1), int(m.group(2))
        query = m.group(4) or ''
        self.sock = socket.create_connection((host, port), timeout=timeout)
        key = base64.b64encode(os.urandom(16)).decode()
        req = ('GET /ws%s HTTP/1.1\r\nHost: %s:%d\r\nUpgrade: websocket\r\n'
               'Connection: Upgrade\r\nSec-WebSocket-Key: %s\r\n'
               'Sec-WebSocket-Version: 13\r\n' % (query, host, port, key))
        if protocol:
            req += 'Sec-WebSocket-Protocol: %s\r\n' % protocol
        self.sock.sendall((req + '\r\n').encode())
        head = b''
        while b'\r\n\r\n' not in head:
            chunk = self.sock.recv(4096)
            if not chunk:
                raise ConnectionError('closed during the handshake')
            head += chunk
        status = head.split(b'\r\n', 1)[0]
        if b' 101 ' not in status:
            raise ConnectionError('handshake refused: %r' % status)
        self.buf = head.split(b'\r\n\r\n', 1)[1]

    def raw(self, opcode, payload, fin=True, mask=True, rsv=0):
        """One frame as given (masked as a client must, unless mask=False)."""
        b0 = (0x80 if fin else 0) | (rsv << 4) | opcode
        n = len(payload)
        mbit = 0x80 if mask else 0
        if n < 126:
            hdr = struct.pack('!BB', b0, mbit | n)
        elif n < 65536:
            hdr = struct.pack('!BBH', b0, mbit | 126, n)
        else:
            hdr = struct.pack('!BBQ', b0, mbit | 127, n)
        if mask:
            key = os.urandom(4)
            payload = bytes(c ^ key[i % 4] for i, c in enumerate(payload)) \
                if n < 4096 else _mask(payload, key)
            hdr += key
        self.sock.sendall(hdr + payload)

    def send(self, text):
        self.raw(1, text.encode() if isinstance(text, str) else text)

    def _read(self, n):
        while len(self.buf) < n:
            chunk = self.sock.recv(1 << 16)
            if not chunk:
                raise ConnectionError('closed')
            self.buf += chunk
        out, self.buf = self.buf[:n], self.buf[n:]
        return out

    def recv(self):
        """(opcode, payload) of the next whole message (pings answered)."""
        data, first = b'', None
        while True:
            b0, b1 = self._read(2)
            n = b1 & 0x7f
            if n == 126:
                n = struct.unpack('!H', self._read(2))[0]
            elif n == 127:
                n = struct.unpack('!Q', self._read(8))[0]
            payload = self._read(n)
            op = b0 & 0x0f
            if op == 9:
                self.raw(10, payload)
                continue
            if op == 8:
                raise ConnectionError('server closed the socket')
            if first is None:
                first = op
            data += payload
            if b0 & 0x80:
                return first, data

    def recv_text(self, kind=None, limit=200):
        """The next text message (of that kind: "error", "rle"...),
        skipping frames."""
        for _ in range(limit):
            op, data = self.recv()
            if op == 1:
                text = data.decode()
                if kind is None or text.split('\n', 1)[0] == kind:
                    return text
        raise AssertionError('no %s message' % (kind or 'text'))

    def frame(self, view='view -8 -8 16 16 0'):
        """Ask for a frame and return (generation, population, blocks)."""
        self.send(view)
        for _ in range(200):
            op, data = self.recv()
            if op == 2:
                gen, pop = struct.unpack_from('<qq', data, 32)
                return gen, pop, data[224:]
        raise AssertionError('no frame')

    def close(self):
        try:
            self.raw(8, b'')
        except OSError:
            pass
        self.sock.close()


def _mask(payload, key):
    k = (key * (len(payload) // 4 + 1))[:len(payload)]
    return (int.from_bytes(payload, 'little') ^
            int.from_bytes(k, 'little')).to_bytes(len(payload), 'little')

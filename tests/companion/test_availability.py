"""The server stays up for the table while someone on the Wi-Fi holds connections open
(issue 67, major 1). The real production server (`companion serve`: gunicorn, the budget's
worker, 40 threads) on 127.0.0.1; the "Wi-Fi" is other loopback addresses (127.0.0.2, ...),
each an address of its own, as a phone's or a laptop's would be. Bounded: 300 slow
connections for at most ~20 s."""
from __future__ import annotations

import base64
import contextlib
import json
import os
import re
import socket
import struct
import threading
import time
from urllib.parse import urlparse

import pytest

from tests.companion.test_restart import ServeProcess, claim

SLOW = 300  # connections sending half a request, a header line every 2 s
ATTACKER = "127.0.0.2"  # one laptop: half of them
MANY = [f"127.0.1.{i}" for i in range(1, 31)]  # thirty more addresses: the other half


def connect(port: int, source: str, timeout: float = 5.0) -> socket.socket:
    return socket.create_connection(("127.0.0.1", port), timeout=timeout,
                                    source_address=(source, 0))


def get(port: int, source: str, path: str, timeout: float = 5.0) -> tuple[int, bytes]:
    """One GET from ``source``: its status and body (HTTP/1.0: the server closes)."""
    with connect(port, source, timeout) as sock:
        sock.sendall(f"GET {path} HTTP/1.0\r\nHost: table\r\n\r\n".encode())
        data = b""
        while chunk := sock.recv(65536):
            data += chunk
    head, _, body = data.partition(b"\r\n\r\n")
    return int(head.split()[1]), body


def closed_by_server(sock: socket.socket) -> bool:
    """The server closed ``sock`` (what it sent before, a 503, read and dropped)."""
    sock.setblocking(False)
    try:
        while sock.recv(65536):
            pass
    except BlockingIOError:
        return False
    except OSError:  # reset
        return True
    return True


class RawSocketIO:
    """A Socket.IO client over a raw WebSocket from a chosen source address (what a phone
    does: the handshake with its cookies, then Socket.IO's CONNECT with its auth)."""

    def __init__(self, port: int, source: str, cookie: str = "", timeout: float = 5.0,
                 lang: str = "en"):
        self.sock = connect(port, source, timeout)
        key = base64.b64encode(os.urandom(16)).decode()
        extra = f"Accept-Language: {lang}\r\n" + (f"Cookie: {cookie}\r\n" if cookie else "")
        self.sock.sendall((f"GET /socket.io/?EIO=4&transport=websocket HTTP/1.1\r\n"
                           f"Host: 127.0.0.1:{port}\r\nUpgrade: websocket\r\n"
                           f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\n"
                           f"Sec-WebSocket-Version: 13\r\n{extra}\r\n").encode())
        self.buffer = b""
        while b"\r\n\r\n" not in self.buffer:
            chunk = self.sock.recv(4096)
            if not chunk:
                break
            self.buffer += chunk
        self.head, _, self.buffer = self.buffer.partition(b"\r\n\r\n")
        self.status = int(self.head.split()[1]) if self.head else 0

    def frame(self) -> str:
        while True:
            if len(self.buffer) >= 2:
                size, at = self.buffer[1] & 0x7F, 2
                if size == 126:
                    size, at = struct.unpack(">H", self.buffer[2:4])[0], 4
                elif size == 127:
                    size, at = struct.unpack(">Q", self.buffer[2:10])[0], 10
                if len(self.buffer) >= at + size:
                    text, self.buffer = self.buffer[at:at + size], self.buffer[at + size:]
                    return text.decode()
            chunk = self.sock.recv(65536)
            if not chunk:
                raise ConnectionError("closed")
            self.buffer += chunk

    def send(self, text: str) -> None:
        data, mask = text.encode(), os.urandom(4)
        size = len(data)
        head = bytes([0x81]) + (bytes([0x80 | size]) if size < 126
                                else bytes([0x80 | 126]) + struct.pack(">H", size))
        self.sock.sendall(head + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(data)))

    def join(self, auth: dict) -> str:
        """Socket.IO's CONNECT: the first answer, "40..." (in) or "44..." (refused)."""
        assert self.frame().startswith("0")  # Engine.IO's open packet
        self.send("40" + json.dumps(auth))
        while not (answer := self.frame()).startswith(("40", "44")):
            pass
        return answer

    def close(self):
        self.sock.close()


class Slowloris:
    """``SLOW`` connections, each sending half a request and then a header line every 2 s."""

    def __init__(self, port: int):
        self.socks: list[socket.socket] = []
        sources = [ATTACKER] * (SLOW // 2) + [MANY[i % len(MANY)] for i in range(SLOW // 2)]
        for source in sources:
            with contextlib.suppress(OSError):
                sock = connect(port, source)
                sock.sendall(b"GET /healthz HTTP/1.1\r\nHost: table\r\n")
                self.socks.append(sock)
        self.stop = threading.Event()
        self.thread = threading.Thread(target=self.feed, daemon=True)
        self.thread.start()

    def feed(self):
        while not self.stop.wait(2.0):
            for sock in self.socks:
                with contextlib.suppress(OSError):
                    sock.send(b"X-Slow: 1\r\n")

    def close(self):
        self.stop.set()
        self.thread.join(5)
        for sock in self.socks:
            sock.close()


@pytest.fixture(scope="module")
def served(tmp_path_factory):
    server = ServeProcess(tmp_path_factory.mktemp("availability") / "data")
    yield server
    server.kill()


@pytest.mark.heavy
def test_300_slow_connections_leave_the_table_its_way_in(served):
    """Planted fault: with gunicorn's own gthread worker (serve.py's worker_class back to
    "gthread"), the half-sent requests hold every thread and /healthz times out."""
    port = served.port
    join = served.joins["N"]
    game_id = urlparse(join).path.split("/")[2]
    token = claim(join, port)
    attack = Slowloris(port)
    try:
        time.sleep(1.0)  # every slow connection has sent its first bytes
        status, body = get(port, "127.0.0.3", "/healthz")  # a phone of the table
        assert status == 200 and json.loads(body)["ok"]
        assert get(port, "127.0.0.1", "/healthz")[0] == 200  # the machine itself
        # the seat's phone back from sleep: its socket, with its cookie, from its address
        seat = RawSocketIO(port, "127.0.0.4", f"tc_seat_{game_id}={token}")
        assert seat.status == 101
        assert seat.join({"role": "seat", "game": game_id}).startswith("40")
        seat.close()
        # the laptop itself got at most its share of connections: the rest were refused
        status, _ = get(port, ATTACKER, "/healthz")
        assert status == 503
        time.sleep(11.0)  # past the head deadline: every slow connection is closed
        open_ones = sum(not closed_by_server(sock) for sock in attack.socks)
        assert open_ones == 0
    finally:
        attack.close()


def test_viewers_are_limited_per_address_and_the_table_s_screens_are_not(served):
    """A viewer needs no token: one address gets four sockets without one, the fifth is
    refused with the translated 503; the seat's phone on the same address still gets in.
    Planted fault: `Budget` not installed (app.py) -> the fifth viewer socket is a 101."""
    port = served.port
    join = served.joins["E"]
    game_id = urlparse(join).path.split("/")[2]
    token = claim(join, port)
    viewers = []
    try:
        for _ in range(4):
            viewer = RawSocketIO(port, "127.0.0.5", lang="de")
            assert viewer.status == 101
            assert viewer.join({"role": "viewer", "game": game_id}).startswith("40")
            viewers.append(viewer)
        fifth = RawSocketIO(port, "127.0.0.5", lang="de")
        assert fifth.status == 503
        size = int(re.search(rb"(?i)content-length: (\d+)", fifth.head).group(1))
        while len(fifth.buffer) < size:
            fifth.buffer += fifth.sock.recv(65536)
        fifth.close()
        refusal = json.loads(fifth.buffer)
        assert refusal["code"] == "server_busy" and refusal["message"].startswith("Der Server")
        seat = RawSocketIO(port, "127.0.0.5", f"tc_seat_{game_id}={token}")
        assert seat.status == 101
        assert seat.join({"role": "seat", "game": game_id}).startswith("40")
        seat.close()
    finally:
        for viewer in viewers:
            viewer.close()

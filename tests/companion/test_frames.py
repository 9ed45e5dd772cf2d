"""Issue 21: malformed websocket frames are counted and logged in one line each, rate-limited,
never as library tracebacks. A raw websocket client (hand-made frames over a TCP socket)
against the real server (`companion serve`, gunicorn)."""
from __future__ import annotations

import base64
import json
import os
import socket
import struct
import time
import urllib.request

from tests.waiting import PATIENCE, wait_for
from tests.web.conftest import running_server

GARBAGE = [b"", b"x", b"\xff", b"4", b"40garbage", b"42", b"42[", b"42[1,2]", b'42["act"',
           b"4x", b"41", b"43[]", b"45-[]", b'451-["act",{"_placeholder":true,"num":0}]',
           b"4" + b"[" * 5000, b'40{"role":[]}', b'40"x"', b"\xff\xfe", b"9", b"2probe"]


def frame(payload: bytes, opcode: int) -> bytes:
    """One masked client frame (RFC 6455)."""
    mask = os.urandom(4)
    n = len(payload)
    head = bytes([0x80 | opcode])
    if n < 126:
        head += bytes([0x80 | n])
    elif n < 65536:
        head += bytes([0x80 | 126]) + struct.pack(">H", n)
    else:
        head += bytes([0x80 | 127]) + struct.pack(">Q", n)
    return head + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(payload))


def raw_websocket(base: str) -> socket.socket:
    host, port = base.removeprefix("http://").split(":")
    sock = socket.create_connection((host, int(port)), timeout=PATIENCE)
    key = base64.b64encode(os.urandom(16)).decode()
    sock.sendall((f"GET /socket.io/?EIO=4&transport=websocket HTTP/1.1\r\nHost: {host}\r\n"
                  "Upgrade: websocket\r\nConnection: Upgrade\r\n"
                  f"Sec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n").encode())
    answer = b""
    while b"\r\n\r\n" not in answer:
        answer += sock.recv(4096)
    assert answer.startswith(b"HTTP/1.1 101"), answer[:200]
    return sock


def test_garbage_frames_are_one_line_each_and_rate_limited(tmp_path):
    log_path = tmp_path / "server.log"
    sent = 0
    with running_server(tmp_path / "data", log_path, "--no-hardware") as base:
        for payload in GARBAGE:
            for opcode in (1, 2):  # as text and as binary
                sock = raw_websocket(base)
                try:
                    sock.sendall(frame(b"40", 1))  # a Socket.IO connect first (refused)
                    sock.sendall(frame(payload, opcode))
                    sent += 1
                    time.sleep(0.02)
                finally:
                    sock.close()
        def health():
            return json.load(urllib.request.urlopen(base + "/healthz", timeout=PATIENCE))

        # the server counts the frames as it gets to them
        wait_for(lambda: health()["malformed_frames"] > 10, what="malformed frames counted")
        assert health()["ok"]
    log = log_path.read_text()
    assert "Traceback" not in log, log[-3000:]
    lines = [line for line in log.splitlines() if "malformed" in line]
    assert 1 <= len(lines) <= 10, lines  # rate-limited: at most 10 a minute
    assert all(len(line) < 300 for line in lines)
    assert sent == 2 * len(GARBAGE)


def test_the_frame_log_counts_every_frame_and_logs_a_few(caplog):
    from companion.server.frames import FrameLog

    frames = FrameLog(per_minute=3)
    for i in range(20):
        frames.note("Engine.IO", ValueError(f"bad {i}\nsecond line"), "10.0.0.9")
    assert frames.count == 20
    lines = [r.getMessage() for r in caplog.records if r.name == "companion.server.frames"]
    assert len(lines) == 3 and all("\n" not in line for line in lines)
    assert "10.0.0.9" in lines[0] and "ValueError: bad 0 second line" in lines[0]


def _raised(call):
    try:
        call()
    except Exception:
        import sys
        return sys.exc_info()
    raise AssertionError("nothing raised")


class _Bug:
    """A decoder of ours with a bug: python-socketio calls it, it fails, once in our own
    code, once in a library it calls."""

    @staticmethod
    def loads(text):
        if text == "[1]":
            return {}["handler bug"]
        from socketio.packet import Packet
        return Packet(encoded_packet="x")


def test_only_the_libraries_own_packet_errors_are_taken_for_frames():
    """A bad packet decoded by python-socketio (through our JSON decoder) is a malformed frame;
    an error of our own code called by the library, even one raised inside a library it
    called in turn, keeps its traceback."""
    from socketio.packet import Packet

    from companion.server.frames import from_a_frame
    from companion.server.packet import JsonPacket

    class Buggy(Packet):
        json = _Bug

    assert from_a_frame(_raised(lambda: JsonPacket(encoded_packet="2[")))
    assert from_a_frame(_raised(lambda: Packet(encoded_packet="x")))
    assert not from_a_frame(_raised(lambda: Buggy(encoded_packet="2[1]")))
    assert not from_a_frame(_raised(lambda: Buggy(encoded_packet="2[2]")))
    assert not from_a_frame(_raised(lambda: {}["handler bug"]))
    assert not from_a_frame(None) and not from_a_frame((None, None, None))


def _filtered(name: str, *records) -> int:
    """Log each exc_info of ``records`` as an error on logger ``name`` through a fresh
    `MalformedFrames` filter; returns the frames its `FrameLog` counted."""
    import logging

    from companion.server.frames import FrameLog, MalformedFrames

    frames = FrameLog()
    only = MalformedFrames()
    only.frames = frames
    logger = logging.getLogger(name)
    logger.addFilter(only)
    try:
        for exc_info in records:
            logger.error("as the library logs it", exc_info=exc_info)
    finally:
        logger.removeFilter(only)
    return frames.count


def test_the_filter_keeps_a_handler_bug_and_counts_a_frame(caplog):
    from socketio.packet import Packet

    class Buggy(Packet):
        json = _Bug

    count = _filtered("engineio.server.test", _raised(lambda: Packet(encoded_packet="x")),
                      _raised(lambda: Buggy(encoded_packet="2[1]")))
    kept = [r for r in caplog.records if r.name == "engineio.server.test"]
    assert count == 1 and len(kept) == 1 and "handler bug" in str(kept[0].exc_info[1])


def test_a_client_gone_mid_send_is_not_a_malformed_frame(caplog):
    """python-engineio's websocket driver raises a bare OSError when the socket closed under a
    send (stop 86's CI log: "malformed Engine.IO frame: OSError:" while a phone page loaded):
    the client left; no frame of its was bad. Neither counted nor warned of."""
    import logging

    import simple_websocket
    from engineio.async_drivers._websocket_wsgi import SimpleWebSocketWSGI
    from socketio.packet import Packet

    class Closed:
        def send(self, message):
            raise simple_websocket.ConnectionClosed()

    driver = SimpleWebSocketWSGI.__new__(SimpleWebSocketWSGI)
    driver.ws = Closed()
    gone = _raised(lambda: driver.send("3probe"))
    assert type(gone[1]) is OSError  # the library's own translation, as in the log
    count = _filtered("gunicorn.error.test", gone, _raised(lambda: Packet(encoded_packet="x")))
    assert count == 1  # only the bad packet
    assert not [r for r in caplog.records if r.name == "gunicorn.error.test"]
    warned = [r.getMessage() for r in caplog.records
              if r.name == "companion.server.frames" and r.levelno >= logging.WARNING]
    assert len(warned) == 1 and "OSError" not in warned[0]

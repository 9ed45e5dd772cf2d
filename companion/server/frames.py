"""Malformed Socket.IO / Engine.IO frames: counted and logged in one line each, rate-limited.

The socket libraries log a full traceback for a frame they cannot decode (an empty packet, a
packet type that is not a digit, an event without a name, a binary frame nobody announced):
anyone on the Wi-Fi could fill the Pi's log with them. Here such a frame is one short log line
(at most ``PER_MINUTE`` a minute, then a count of the ones not logged), and the connection that
sent it is closed (Socket.IO level) or the frame is dropped (Engine.IO level).

Two doors, both through the libraries' own extension points where there is one:
- Socket.IO: the Engine.IO ``message`` handler is registered again around Socket.IO's own
  (as python-socketio's admin instrumentation does), so an error in a packet is caught.
- Engine.IO: its websocket loop decodes a frame outside any error handling, so the packet
  class its socket module uses decodes a bad frame as a no-op packet after noting it.
"""
from __future__ import annotations

import logging
import time
from types import SimpleNamespace

from companion.server import locks

log = logging.getLogger("companion.server.frames")
PER_MINUTE = 10  # log lines a minute; the rest are only counted


class FrameLog:
    """The count of malformed frames, and the rate-limited one-line log of them."""

    def __init__(self, per_minute: int = PER_MINUTE) -> None:
        self.count = 0
        self.per_minute = per_minute
        self._window = time.monotonic()
        self._logged = 0
        self._silent = 0
        self._lock = locks.lock("frame log")

    def note(self, where: str, exc: BaseException, client: str = "") -> None:
        with self._lock:
            self.count += 1
            now = time.monotonic()
            if now - self._window >= 60:
                if self._silent:
                    log.warning("%d more malformed socket frames in the last minute "
                                "(not logged one by one)", self._silent)
                self._window, self._logged, self._silent = now, 0, 0
            if self._logged >= self.per_minute:
                self._silent += 1
                return
            self._logged += 1
        detail = str(exc).replace("\n", " ")[:100]
        log.warning("malformed %s frame%s: %s: %s (%d so far)", where,
                    f" from {client}" if client else "", type(exc).__name__, detail, self.count)


def guard(sio, frames: FrameLog) -> None:
    """Catch what Socket.IO raises on a malformed packet of ``sio`` (a socketio.Server)."""
    inner = sio._handle_eio_message

    def message(eio_sid, data):
        try:
            return inner(eio_sid, data)
        except Exception as exc:  # a packet our handlers never saw: theirs catch their own
            environ = sio.environ.get(eio_sid) or {}
            frames.note("Socket.IO", exc, environ.get("REMOTE_ADDR", ""))
            sio.eio.disconnect(eio_sid)

    sio.eio.on("message", message)
    _guard_engineio(frames)


_installed: list[FrameLog] = []


def _guard_engineio(frames: FrameLog) -> None:
    """Engine.IO's socket module decodes every websocket frame with ``packet.Packet``: give
    it a packet class that turns a frame it cannot decode into a no-op (once per process)."""
    import engineio.packet
    import engineio.socket

    _installed[:] = [frames]  # the newest app's log (tests make several apps)
    if getattr(engineio.socket.packet, "guarded", False):
        return

    class SafePacket(engineio.packet.Packet):
        def decode(self, encoded_packet):
            try:
                return super().decode(encoded_packet)
            except Exception as exc:  # a malformed frame from a client: counted and logged
                # (note() warns, rate-limited), then read as a no-op, never a crash
                for each in _installed:
                    each.note("Engine.IO", exc)
                self.packet_type, self.data, self.binary = engineio.packet.NOOP, None, False

    names = {k: v for k, v in vars(engineio.packet).items() if not k.startswith("__")}
    engineio.socket.packet = SimpleNamespace(**{**names, "Packet": SafePacket,
                                                "guarded": True})

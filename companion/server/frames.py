"""Malformed Socket.IO / Engine.IO frames: counted and logged in one line each, rate-limited.

The socket libraries log a full traceback for a frame they cannot decode (an empty packet, a
packet type that is not a digit, an event without a name, a binary frame nobody announced):
anyone on the Wi-Fi could fill the Pi's log with them. Here such a frame is one short log line
(at most ``PER_MINUTE`` a minute, then a count of the ones not logged).

Only supported doors (issue 65: no private name of the libraries read or written, nothing of
theirs replaced): the tracebacks reach the log through the ``logging`` module, so a filter on
the loggers they are written to takes each record whose exception came out of the libraries'
own packet handling and writes it as one counted line instead:
- ``engineio.server``: python-engineio calls the ``message`` handler (python-socketio's
  dispatch) inside ``try`` and logs "message handler error" with the exception; a bad
  Socket.IO packet raises there. The connection stays open (the client's own problem).
- ``gunicorn.error``: Engine.IO's websocket loop decodes a frame outside any ``try``, so a bad
  Engine.IO frame ends the request with gunicorn's "Error handling request"; gunicorn closes
  that connection, and the connection's writer ends at the ping timeout.
An exception whose innermost frame is in our own code (a handler's bug) keeps its traceback.
A connection closed under the libraries (an ``OSError``: a phone that left mid-upgrade) is not
a malformed frame: it is neither counted nor warned of (one debug line), so ``/healthz``'s
``malformed_frames`` counts only frames that were bad.
tests/companion/test_frames.py sends each malformed frame over a real socket to the real
server, and tests/companion/test_library_privates.py checks no project code reaches into the
libraries' private names.
"""
from __future__ import annotations

import logging
import sysconfig
import time
from pathlib import Path

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


# The libraries whose own packet handling a malformed frame fails in: an exception raised
# inside them (innermost frame) by a frame from a client is the client's fault, not a bug of ours.
LIBRARIES = ("engineio", "socketio", "flask_socketio", "simple_websocket", "wsproto")
# Where the libraries log an exception from a frame (see the module docstring).
LOGGERS = ("engineio.server", "socketio.server", "gunicorn.error")


def _package_of(filename: str) -> str:
    """The top-level package a source file belongs to under site-packages ('' elsewhere)."""
    parts = Path(filename).parts
    for i, part in enumerate(parts[:-1]):
        if part in ("site-packages", "dist-packages"):
            return parts[i + 1].removesuffix(".py")
    return ""


def from_a_frame(exc_info) -> bool:
    """The exception was raised inside the socket libraries' own handling of a packet (or our
    JSON decoder, which python-socketio calls to decode one), not in a handler of ours. From
    the first frame of the libraries inwards, the innermost frame outside Python's standard
    library (json, for one) must be theirs or the decoder's, and none may be our own code but
    the decoder: a handler of ours that failed, even inside a library it called, keeps its
    traceback."""
    if not exc_info or not isinstance(exc_info[1], Exception) or exc_info[2] is None:
        return False
    inside, innermost = False, ""
    tb = exc_info[2]
    while tb is not None:
        name = tb.tb_frame.f_code.co_filename
        package = _package_of(name)
        inside = inside or package in LIBRARIES
        if inside and not package and name.startswith(_PROJECT) and name != _JSON_CODEC:
            return False
        if inside and not name.startswith(_STDLIB):
            innermost = name
        tb = tb.tb_next
    return innermost == _JSON_CODEC or _package_of(innermost) in LIBRARIES


_JSON_CODEC = str(Path(__file__).with_name("json_codec.py"))
_STDLIB = sysconfig.get_paths()["stdlib"]
_PROJECT = str(Path(__file__).resolve().parents[2]) + "/"  # companion/, tests/ (not .venv/)


class MalformedFrames(logging.Filter):
    """Turns a library's traceback for a malformed frame into one counted line."""

    def __init__(self) -> None:
        super().__init__()
        self.frames: FrameLog | None = None  # the newest app's (tests build several apps)

    def filter(self, record: logging.LogRecord) -> bool:
        if self.frames is None or not from_a_frame(record.exc_info):
            return True
        exc = record.exc_info[1]
        if isinstance(exc, OSError):
            # python-engineio turns a websocket closed under a send into a bare OSError (a
            # phone that left during the upgrade): the client is gone, its frames were fine
            log.debug("socket closed by the client while the server wrote to it: %r", exc)
            return False
        where = "Engine.IO" if record.name.startswith("gunicorn") else "Socket.IO"
        self.frames.note(where, exc)
        return False


_filter = MalformedFrames()


def guard(frames: FrameLog) -> None:
    """Route the libraries' malformed-frame tracebacks to ``frames`` (once per process)."""
    _filter.frames = frames
    for name in LOGGERS:
        logger = logging.getLogger(name)
        if _filter not in logger.filters:
            logger.addFilter(_filter)

"""What the server spends per Socket.IO message beside our own work, cut where it is safe.

Measured on the real server (bench/latency.py's table under py-spy, docs/server.md
"Transport"): besides the engine, the commit and the views, each action paid for a new thread
for its one incoming event, a Flask session opened from the cookie for that event, and (with
a browser) zlib on every frame. Three settings here, applied by companion/app.py:

- ``SOCKETIO_OPTIONS``: ``async_handlers=False``: python-socketio runs each event in the
  connection's own reader thread instead of starting a thread per event (~60 us each here,
  more on a Pi). A connection's events were already read one after another; now they are also
  handled in order. No handler waits on its own connection, and the server never uses
  ``call()`` (which needs async handlers).
- `SocketSession`: Flask-SocketIO opens a request context for every event, and Flask opens
  the cookie session in it (cookie parse, HMAC check: ~70 us with a phone's session cookie).
  No socket handler reads ``flask.session`` (they prove identities with the seat, table and
  host tokens), so a socket event gets an empty session; pages and forms get theirs as before.
- `NoDeflate`: browsers offer WebSocket permessage-deflate and simple-websocket accepts it
  whenever offered: zlib on every frame (bench/ws_deflate.py: ~7x the CPU of a plain frame,
  ~46 us more a frame here, ~1.2 ms per action on a Pi for 5 recipients) and ~260 kB of zlib
  state kept per connection (1.3 MB a table, 65 MB for fifty), to shrink a patch that
  already fits one Wi-Fi packet (median ~1.4 kB). Declining an offered extension is ordinary
  WebSocket (RFC 6455 section 9.1): the browser then sends and expects plain frames. Pages,
  scripts and JSON over HTTP stay compressed (Flask-Compress).
"""
from __future__ import annotations

from flask.sessions import SecureCookieSessionInterface

SOCKET_PATH = "/socket.io"
SOCKETIO_OPTIONS = {"async_handlers": False}


class SocketSession(SecureCookieSessionInterface):
    """The cookie session for pages; an empty one for Socket.IO events (nobody reads it)."""

    def open_session(self, app, request):
        if request.environ.get("PATH_INFO", "").startswith(SOCKET_PATH):
            return self.session_class()
        return super().open_session(app, request)


class NoDeflate:
    """WSGI middleware: the WebSocket handshake reaches simple-websocket without the
    client's extension offer, so no frame is compressed."""

    def __init__(self, wsgi_app) -> None:
        self.wsgi_app = wsgi_app

    def __call__(self, environ, start_response):
        environ.pop("HTTP_SEC_WEBSOCKET_EXTENSIONS", None)
        return self.wsgi_app(environ, start_response)

"""Fixtures: a fresh app on a temp data dir (flaskr style), a live server on port 0."""
from __future__ import annotations

import re
import socket
import threading

import pytest
import socketio
from werkzeug.serving import WSGIRequestHandler, make_server

from companion import context
from companion.app import create_app
from companion.game import games
from companion.game.patches import Replica
from tests.waiting import PATIENCE, wait_for

PLAYERS = {"A": "Ann", "B": "Bob", "C": "Cid"}


def make_app(tmp_path, **config):
    """The toy plug-in alone, found as the server finds every game: by its entry point."""
    base = {"DATA_DIR": str(tmp_path / "data"), "TESTING": True,
            "GAMES": {"toy": (games.module_of("toy"), None)}, "SNAPSHOT_EVERY": 3}
    base.update(config)
    return create_app(base)


@pytest.fixture
def app(tmp_path):
    app = make_app(tmp_path)
    yield app
    context.of(app).service.store.close()


@pytest.fixture
def client(app):
    return app.test_client()


@pytest.fixture
def games_app(tmp_path):
    """The app as served, with every installed game (World Without End, Pillars,
    Monasterium and the toy plug-in) and the default settings."""
    app = create_app({"DATA_DIR": str(tmp_path / "data"), "TESTING": True})
    yield app
    context.of(app).service.store.close()


@pytest.fixture
def games_in_context(games_app):
    """`games_app` inside its app context: translations are looked up as the server does."""
    with games_app.app_context():
        yield games_app


def csrf(client) -> str:
    """The session's CSRF token, as a page would embed it."""
    page = client.get("/new")
    match = re.search(r'name="csrf_token" value="([^"]+)"', page.get_data(as_text=True))
    if match:
        return match.group(1)
    with client.session_transaction() as session:
        return session["csrf"]


def create_game(client, pin="2468", players=None) -> str:
    token = csrf(client)
    form = {"csrf_token": token, "game": "toy", "host_pin": pin}
    for seat, name in (players or PLAYERS).items():
        form[f"name_{seat}"] = name
    response = client.post("/games", data=form)
    assert response.status_code == 303, response.get_data(as_text=True)[:500]
    return response.headers["Location"].rsplit("/", 1)[-1]


class _Handler(WSGIRequestHandler):
    """HTTP/1.0: the connection closes after a WebSocket ends, as under gunicorn (with
    keep-alive werkzeug would read the client's close frame as a new request)."""

    protocol_version = "HTTP/1.0"

    def setup(self):
        super().setup()
        # as gunicorn does: no Nagle delay between a view and the ack that follows it
        self.connection.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)

    def log_request(self, *args, **kwargs):
        pass


class LiveServer:
    """The app served over a real socket (werkzeug threaded server, real WebSockets)."""

    def __init__(self, app):
        self.app = app
        self.server = make_server("127.0.0.1", 0, app, threaded=True, request_handler=_Handler)
        self.url = f"http://127.0.0.1:{self.server.server_port}"
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()

    def stop(self):
        self.server.shutdown()
        self.thread.join(5)


@pytest.fixture
def live(app):
    server = LiveServer(app)
    yield server
    server.stop()


@pytest.fixture
def games_live(games_app):
    """`games_app` and a live server on it: ``(app, server)``."""
    server = LiveServer(games_app)
    yield games_app, server
    server.stop()


class Spy:
    """A real Socket.IO client that records every message it receives."""

    def __init__(self, url: str, auth: dict, headers: dict | None = None):
        self.messages: list[tuple[str, object]] = []
        self.views: list[dict] = []
        self.got_view = threading.Event()
        self._replica = Replica(self.views.append)
        # browsers validate UTF-8 natively; websocket-client's pure-Python check is slow
        self.sio = socketio.Client(reconnection=False,
                                   websocket_extra_options={"skip_utf8_validation": True})
        self.sio.on("*", self._any)
        self.sio.connect(url, auth=auth, headers=headers or {}, transports=["websocket"],
                         wait_timeout=PATIENCE)

    def _any(self, event, data=None):
        """Every message kept; views kept whole, patches applied in order as the page does."""
        self.messages.append((event, data))
        if event == "view":
            self._replica.view(data)
            self.got_view.set()
        elif event == "patch":
            self._replica.patch(data)

    def wait_version(self, version: int, timeout: float = PATIENCE) -> dict:
        return wait_for(lambda: self.views and self.views[-1]["version"] >= version
                        and self.views[-1], timeout,
                        what=f"a view of version {version} (last {self.views[-1:]})")

    def wait_for(self, predicate, timeout: float = PATIENCE, since: int = 0) -> dict:
        """The first view from the ``since``-th on for which ``predicate(view)`` holds."""
        return wait_for(lambda: next((v for v in list(self.views)[since:] if predicate(v)),
                                     None), timeout, what="such a view")

    def call(self, event, data):
        return self.sio.call(event, data, timeout=PATIENCE)

    def close(self):
        if self.sio.connected:
            self.sio.disconnect()


# the judgements `faces_judged_once` keeps: (card px, each face's id, shape and digest) ->
# what `FaceBook._check` found, shared by the modules that use it in one test process
_JUDGED: dict[tuple, tuple] = {}


@pytest.fixture(scope="module")
def faces_judged_once():
    """`FaceBook.too_alike`'s judgement (seconds a book: every taught face brought down,
    blurred, noised and named again) made once per test process for each set of pictures
    and card width, and kept for every book of the same pictures: the tests that make a
    fresh `FaceReader` on one taught folder judged the same 44 faces anew each (about 11 s
    each under load, 2026-11-27). A book with other pictures (a face taught, a mirrored one)
    is judged anew; what is judged, and how, is unchanged. Only for modules that plant no
    fault in the judgement itself (a planted fault there would be hidden by what was kept)."""
    import hashlib

    from hardware.camera.card_faces import FaceBook

    real = FaceBook._check

    def check_once(book, card_px):
        key = (card_px, tuple((i, book.pictures[i].shape, hashlib.blake2b(
            book.pictures[i].tobytes(), digest_size=16).digest()) for i in book.ids))
        if key not in _JUDGED:
            _JUDGED[key] = real(book, card_px)
        pairs, turns = _JUDGED[key]
        return list(pairs), set(turns)

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(FaceBook, "_check", check_once)
        yield _JUDGED

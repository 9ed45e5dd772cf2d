"""The threads' contract (docs/server.md, "Threads and locks") under load: the camera
thread deciding on observations, the host toggling `set_acting`, MJPEG previews read,
sockets connecting and disconnecting while views are pushed, all at once on a real server.
It ends with no error logged and nothing kept for a closed socket."""
from __future__ import annotations

import logging
import threading

from companion import context
from companion.server.settings import resolve
from companion.wiring import camera as wiring
from tests.companion.conftest import Spy
from tests.waiting import PATIENCE, wait_for

PLAYERS = [{"seat": s, "name": n} for s, n in (("N", "Ann"), ("E", "Bob"), ("S", "Cid"))]
ROUNDS = 40  # of each kind of work, at least, before the threads stop


class Worker(threading.Thread):
    """Repeats ``step`` until stopped; counts its rounds and keeps what it raised."""

    def __init__(self, name: str, step, stop: threading.Event) -> None:
        super().__init__(name=name, daemon=True)
        self.step, self.stop, self.rounds, self.errors = step, stop, 0, []

    def run(self) -> None:
        while not self.stop.is_set():
            try:
                self.step()
            except Exception as exc:  # noqa: BLE001 - every failure is reported by the test
                self.errors.append(repr(exc))
            self.rounds += 1


def test_camera_sockets_and_previews_at_once_log_no_error_and_leave_nothing(games_live,
                                                                            caplog):
    app, server = games_live
    caplog.set_level(logging.WARNING)
    service = context.of(app).service
    game = service.create("wwe", {"players": PLAYERS}, "2468")
    token = service.access.claim_seat(game.id, "N", service.store.join_codes(game.id)["N"])
    host_token = service.access.new_host_token(game.id)
    settings = resolve({"DATA_DIR": app.config["DATA_DIR"],
                        "CAMERA_SOURCE": "synthetic"})
    camera = wiring.start(settings, service, context.of(app).hardware.changed)
    connections = context.of(app).connections
    stop = threading.Event()
    acting = iter(range(10**9))
    chunks = {"mjpeg 1": 0, "mjpeg 2": 0}
    steady = Spy(server.url, {"role": "seat", "game": game.id, "token": token})

    def toggle_acting():
        camera.set_acting(next(acting) % 2 == 0)
        camera.status()

    def read_mjpeg(name):
        def step():
            for _chunk in camera.mjpeg(fps=200, stop=stop):
                chunks[name] += 1
        return step

    def connect_and_leave(auth):
        def step():
            Spy(server.url, auth).close()
        return step

    def push_views():
        service.set_paused(game.id, True)
        service.set_paused(game.id, False)

    workers = [Worker("acting", toggle_acting, stop),
               *(Worker(name, read_mjpeg(name), stop) for name in chunks),
               Worker("seat phone", connect_and_leave(
                   {"role": "seat", "game": game.id, "token": token}), stop),
               Worker("host page", connect_and_leave(
                   {"role": "host", "game": game.id, "host_token": host_token}), stop),
               Worker("viewer", connect_and_leave({"role": "viewer", "game": game.id}), stop),
               Worker("push", push_views, stop)]
    try:
        for worker in workers:
            worker.start()
        frames = camera.camera.stats
        wait_for(lambda: all(w.rounds >= ROUNDS for w in workers if w.name not in chunks)
                 and min(chunks.values()) >= ROUNDS and frames()["frames"] >= ROUNDS,
                 timeout=10 * PATIENCE, what="every kind of work done often enough")
    finally:
        stop.set()
        for worker in workers:
            worker.join(PATIENCE)
        camera.stop()
    # the phone that stayed connected through it all, patched a hundred times, holds the
    # view a phone of the same seat connecting now gets whole
    newcomer = Spy(server.url, {"role": "seat", "game": game.id, "token": token})
    try:
        fresh = wait_for(lambda: newcomer.views and newcomer.views[-1], what="a whole view")
        wait_for(lambda: {**steady.views[-1], "n": 0} == {**fresh, "n": 0},
                 what="the steady phone's view equal to a fresh one")
    finally:
        newcomer.close()
        steady.close()

    assert [e for w in workers for e in w.errors] == []
    assert [r.getMessage() for r in caplog.records if r.levelno >= logging.ERROR] == []
    assert not [r for r in caplog.records if r.exc_info]
    # every closed socket is forgotten, with all that was kept about it
    wait_for(lambda: connections.entries()["clients"] == 0, what="every socket gone")
    assert connections.orphans() == set()
    assert connections.entries() == {"clients": 0, "sent": 0, "previewed": 0, "booked": 0}


def test_only_the_sender_thread_builds_and_sends_views(games_live, monkeypatch):
    """The camera acts in the game (the synthetic table's event card, read by the real
    recognizer) and a phone acts over its socket: every view is built and sent by the one
    sender thread, none by the camera's, the capture's or the socket's (issue 44)."""
    from companion.game import sender, views

    app, server = games_live
    parts = context.of(app)
    service = parts.service
    game = service.create("wwe", {"players": PLAYERS}, "2468")
    token = service.access.claim_seat(game.id, "N", service.store.join_codes(game.id)["N"])
    built, sent = set(), set()
    build = views.build

    def building(*args, **kwargs):
        built.add(threading.current_thread().name)
        return build(*args, **kwargs)

    def sending(event, message, to=None):
        sent.add(threading.current_thread().name)
        return emit(event, message, to=to)

    monkeypatch.setattr(views, "build", building)
    emit = parts.views.emit
    monkeypatch.setattr(parts.views, "emit", sending)
    phone = Spy(server.url, {"role": "seat", "game": game.id, "token": token})
    camera = wiring.start(resolve({"DATA_DIR": app.config["DATA_DIR"],
                                   "CAMERA_SOURCE": "synthetic"}), service,
                          parts.hardware.changed)
    try:
        camera.set_acting(True)
        wait_for(lambda: service.get(game.id).version >= 1, timeout=6 * PATIENCE,
                 what="the camera recording the event card")
        version = service.get(game.id).version
        phone.wait_version(version)
        assert any(a.get("by") == "table" for _, a, _ in service.get(game.id).log)
        phone.call("set_lang", {"lang": "pl"})  # a socket handler's push, whole
        phone.call("resync", {})
    finally:
        camera.stop()
        phone.close()
    assert built == {sender.THREAD_NAME} and sent == {sender.THREAD_NAME}, (built, sent)

"""The walk from a camera observation to the phones (issue 65): one card seen on a running
server, traced with ``sys.setprofile`` on the two threads it crosses (the camera's, here
the caller's, and the view sender's) until the phone has its new view.

A *room* is a module of companion/; a *stay* is entering a room from another one (a call
into a function of another module; reading a property of an object handed in is not one);
a *climb* is entering a room of a later part than the
caller's in the layer order of companion/__init__.py (``LAYERS``: a part may call only
the parts before it; a callback handed down and called from below is a climb too).
`walk_figures` is what tests/companion/test_walk.py asserts and what the issue's report
quotes (``python -m tests.companion.walk`` prints them).
"""
from __future__ import annotations

import json
import sys
import threading
from pathlib import Path

import companion
from companion import context
from companion.app import create_app
from companion.game import sender as sender_module
from companion.wiring import camera as camera_wiring
from hardware.camera.source_base import FrameSource
from hardware.camera.tracker import Appeared
from hardware.tags.format import card_payload, parse

ROOT = Path(companion.__file__).resolve().parent
LAYER = {part: i for i, parts in enumerate(companion.LAYERS) for part in parts}
PLAYERS = [{"seat": s, "name": n} for s, n in (("N", "Ann"), ("E", "Bob"), ("S", "Cid"))]


def room_of(filename: str) -> str | None:
    """'game/service.py' for a file of companion/, else None."""
    try:
        return Path(filename).resolve().relative_to(ROOT).as_posix()
    except ValueError:
        return None


def layer_of(room: str) -> int:
    part = room.split("/")[0].removesuffix(".py")
    return LAYER[part]


def _a_property(frame) -> bool:
    """Reading a property of an object handed down (``live.status``, ``kind.info``) is
    reading a value, not entering its room: the table's guidance is pure functions over the
    game objects it is handed (companion/__init__.py)."""
    owner = frame.f_locals.get("self")
    return owner is not None and isinstance(
        getattr(type(owner), frame.f_code.co_name, None), property)


class Tracer:
    """Records every call from one room into another on the threads it watches."""

    def __init__(self, threads: set[str]) -> None:
        self.threads, self.steps = threads, []
        self._lock = threading.Lock()

    def __call__(self, frame, event, _arg):
        if event != "call" or threading.current_thread().name not in self.threads:
            return
        room = room_of(frame.f_code.co_filename)
        if room is None or _a_property(frame):
            return
        caller = frame.f_back
        while caller is not None and room_of(caller.f_code.co_filename) is None:
            caller = caller.f_back  # through the libraries' frames to the room that called
        source = room_of(caller.f_code.co_filename) if caller is not None else None
        if source != room:
            with self._lock:
                self.steps.append((source, room, frame.f_code.co_name))


def walk_figures(data_dir: Path, live_server_cls, spy_cls) -> dict:
    """The figures of one card seen (an event card on the council of World Without End)
    on a server with one phone connected, from `CameraWiring.on_observation` to the phone
    holding the view of the action it caused."""
    idle, sender_module.IDLE_S = sender_module.IDLE_S, 0.05  # the sender's thread ends soon
    app = create_app({"DATA_DIR": str(data_dir), "TESTING": True})
    server = live_server_cls(app)
    service = context.of(app).service
    access = getattr(service, "access", service)  # the same walk on the code before the split
    phone = None
    try:
        game = service.create("wwe", {"players": PLAYERS}, "2468")
        token = access.claim_seat(game.id, "N", service.store.join_codes(game.id)["N"])
        phone = spy_cls(server.url, {"role": "seat", "game": game.id, "lang": "en",
                                     "token": token})
        phone.wait_version(0)
        views = context.of(app).views
        for _ in range(200):  # the sender's thread of the connect gone: the next starts traced
            if views._thread is None:
                break
            threading.Event().wait(0.02)
        event = next(e["id"] for e in game.kind.catalog["event_cards"] if e["chapter"] == 1)
        payload = card_payload("wwe", "E", event)
        camera = camera_wiring.CameraWiring(service, lambda: None, FrameSource(), None, 1.0)
        tracer = Tracer({threading.current_thread().name, sender_module.THREAD_NAME})
        threading.setprofile(tracer)
        sys.setprofile(tracer)
        try:
            camera.on_observation(Appeared(payload, parse(payload), "council", 0, (0.0, 0.0),
                                           0.0, 1.0))
            got = phone.wait_version(1)
        finally:
            sys.setprofile(None)
            threading.setprofile(None)
    finally:
        sender_module.IDLE_S = idle
        if phone is not None:
            phone.close()
        server.stop()
        service.store.close()
    steps = tracer.steps
    climbs = [(a, b, name) for a, b, name in steps
              if a is not None and layer_of(b) > layer_of(a)]
    return {"acted": got["view"].get("version", 1), "stays": len(steps),
            "rooms": len({b for _, b, _ in steps}), "climbs": len(climbs),
            "climbed": sorted({f"{a} -> {b} ({name})" for a, b, name in climbs}),
            "rooms_entered": sorted({b for _, b, _ in steps})}


if __name__ == "__main__":  # the figures, for the report
    import tempfile

    from tests.companion.conftest import LiveServer, Spy

    with tempfile.TemporaryDirectory() as tmp:
        print(json.dumps(walk_figures(Path(tmp) / "data", LiveServer, Spy), indent=1))

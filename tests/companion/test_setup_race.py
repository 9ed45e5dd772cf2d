"""A camera tick and a tap on the guided setup at the same moment: both are kept (issue 44).

The setup progress is the game service's, read, changed and written under the game's lock
(`GameService.setup_progress`). Here the real camera (rendered frames of the board marker,
read by the real recognizer) ticks the marker's step when the TV asks for the setup
(GET setup.json), while the host taps "done" on the first step (POST). The store is real;
around it this test makes the worst interleaving happen wherever the code lets it: the tick
reads the progress first, and writes it only after the tap's request has finished. Before
the progress had one owner, the tick then wrote back what it had read, and the tap was lost.
"""
from __future__ import annotations

import json
import threading

import cv2
import pytest

from companion import context
from companion.app import create_app
from companion.game.service import GameService
from companion.table import table_guide
from tests.companion.conftest import csrf
from tests.waiting import PATIENCE, wait_for

PLAYERS = [{"seat": "N", "name": "Ann"}, {"seat": "E", "name": "Bob"}]
ROUNDS = 3
MEETING = 1.0  # seconds a step waits for the other before going on alone


def marker_frames(folder) -> None:
    """The board marker on the table, as the camera sees it (rendered, then read for real)."""
    from hardware.synthetic.scene import Camera, Placement
    from hardware.synthetic.video import MARKER_AT
    from hardware.tags.format import BOARD_MARKER

    camera = Camera.create(3)
    marker = Placement(BOARD_MARKER, *MARKER_AT, 0.0, marker=True)
    folder.mkdir()
    for i in range(12):
        image, _ = camera.render([marker], seed=i)
        cv2.imwrite(str(folder / f"{i:03d}.jpg"), image)


class WorstOrder:
    """Wraps the real store's setup progress: the thread named "camera tick" reads, then
    lets the tap start; its write waits until the tap's request is over. Each wait gives up
    after `MEETING` seconds: a lock that keeps the two apart only makes them slower."""

    def __init__(self, store) -> None:
        self.store = store
        self.read, self.write = store.setup_progress, store.save_setup_progress
        self.tick_read, self.tap_done = threading.Event(), threading.Event()
        store.setup_progress, store.save_setup_progress = self._read, self._write

    def _read(self, game_id):
        found = self.read(game_id)
        if threading.current_thread().name == "camera tick":
            self.tick_read.set()
        return found

    def _write(self, game_id, progress):
        if threading.current_thread().name == "camera tick":
            self.tap_done.wait(MEETING)
        return self.write(game_id, progress)

    def again(self) -> None:
        self.tick_read.clear()
        self.tap_done.clear()

    def undo(self) -> None:
        self.store.setup_progress, self.store.save_setup_progress = self.read, self.write


@pytest.fixture(scope="module")
def table(tmp_path_factory):
    """An app whose real camera sees the board marker, and a new game it serves."""
    tmp_path = tmp_path_factory.mktemp("setup-race")
    frames = tmp_path / "frames"
    marker_frames(frames)
    app = create_app({"DATA_DIR": str(tmp_path / "data"), "TESTING": True,
                      "CAMERA_SOURCE": f"folder:{frames}", "DICE_PORT": "/dev/nonexistent"})
    parts = context.of(app)
    live = parts.service.create("wwe", {"players": PLAYERS}, "2468")
    parts.hardware.start()
    try:
        camera = parts.hardware.camera
        wait_for(lambda: (seen := camera.snapshot()).marker_seen and seen.game == live.id
                 and seen.calibration_source != "none", timeout=3 * PATIENCE,
                 what="the camera sees the board marker for the game")
        yield app, parts, live
    finally:
        parts.hardware.stop()
        parts.service.store.close()


def race(app, parts, live) -> list[dict]:
    """`ROUNDS` times from a fresh start: the TV's GET setup.json (the camera's tick of
    the marker's step) and the host's tap "done" on the first step, in the worst order;
    each round's steps done afterwards, {step: by whom}."""
    tv, host = app.test_client(), app.test_client()
    host.set_cookie(f"tc_host_{live.id}", parts.service.access.new_host_token(live.id))
    token = csrf(host)

    def tap(body) -> dict:
        response = host.post(f"/games/{live.id}/setup", data=json.dumps(body),
                             headers={"Content-Type": "application/json",
                                      "X-CSRF-Token": token})
        assert response.status_code == 200, response.get_data(as_text=True)
        return response.get_json()

    order = WorstOrder(parts.service.store)
    rounds = []
    try:
        for _ in range(ROUNDS):
            assert not any(s["done"] for s in tap({"op": "restart"})["steps"])
            order.again()
            ticked: dict = {}

            def tick(into=ticked):
                into["state"] = tv.get(f"/games/{live.id}/setup.json").get_json()

            camera_tick = threading.Thread(target=tick, name="camera tick")
            camera_tick.start()
            assert order.tick_read.wait(PATIENCE), "the tick never read"
            tap({"op": "done"})
            order.tap_done.set()
            camera_tick.join(PATIENCE)
            assert ticked["state"]["camera"] == "here"
            rounds.append({s["id"]: s["done"] for s in tv.get(
                f"/games/{live.id}/setup.json").get_json()["steps"] if s["done"]})
    finally:
        order.undo()
    return rounds


def test_a_camera_tick_and_a_tap_at_the_same_moment_are_both_kept(table):
    for done in race(*table):
        assert done.get("board") == "host"  # the tap
        assert done.get("camera") == "camera"  # and the tick (the marker's step)


def test_the_race_loses_the_tap_when_the_progress_is_changed_without_the_games_lock(
        table, monkeypatch):
    """The safety net shown to fail: planted, the setup progress read, changed and written
    without the game's lock, as GET setup.json did before (4015fc6): the tick writes back
    what it read, and the tap is lost."""

    def unlocked(self, game_id, change=None):  # PLANTED: no `with live.lock`
        live = self.get(game_id)
        progress = table_guide.load_progress(self.store, live.id)
        changed = change(progress) if change is not None else None
        if changed is not None:
            self.store.save_setup_progress(live.id, changed)
            progress = changed
        return progress

    monkeypatch.setattr(GameService, "setup_progress", unlocked)
    rounds = race(*table)
    assert all(done.get("camera") == "camera" for done in rounds)
    assert not any(done.get("board") == "host" for done in rounds), rounds  # the tap lost

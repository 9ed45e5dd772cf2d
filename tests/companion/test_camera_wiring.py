"""Camera -> game: the rules on their own, then a video file as the camera of a running server
whose phones (real Socket.IO clients) receive the reveal, the preview and the incomes."""
import gc
import json
import weakref
from pathlib import Path
from types import SimpleNamespace

import pytest

from companion import context
from companion.app import create_app
from companion.server.settings import resolve
from companion.wiring import camera as wiring
from companion.wiring.camera import CameraRules, GameFacts, Preview, card_index
from engine.api import Act, Propose, Refused, Select, Warn
from engine.wwe import GAME
from hardware.camera.sources import FrameSource
from hardware.camera.tracker import Appeared, MovedZone, Removed, Turned, UnknownCode
from hardware.synthetic.video import Script, demo_script, write_video
from hardware.tags.format import card_payload, parse
from tests.companion.conftest import LiveServer, Spy
from tests.waiting import PATIENCE, wait_for

EVENT = card_payload("wwe", "E", "because_the_works")
GRAIN = card_payload("wwe", "A", "grain")
PLAYERS = [{"seat": s, "name": n, "colour": c} for s, n, c in
           [("N", "Ann", "red"), ("E", "Bob", "blue"), ("S", "Cid", "green"),
            ("W", "Dee", "yellow")]]


class Game:
    """A real World Without End state and the camera's `Table` of it."""

    def __init__(self):
        from companion.box.catalog import load_catalog

        catalog = load_catalog("wwe")
        self.index = card_index(GAME.info, catalog)
        self.state = GAME.setup(catalog, {"players": PLAYERS, "seed": 3})

    def table(self) -> GameFacts:
        prompts = GAME.prompts(self.state)
        head = (prompts[0].kind, prompts[0].seat) if prompts else None
        state = self.state
        return GameFacts("wwe", {"E": "event", "A": "action"}, self.index, head,
                         lambda seen: GAME.info.bindings.sighting(state, seen))

    def apply(self, action):
        self.state = GAME.apply(self.state, action)[0]

    def to(self, kind):
        """Random legal actions (seeded) until ``kind`` is asked for."""
        import random

        rnd = random.Random(7)
        for _ in range(400):
            if GAME.prompts(self.state)[0].kind == kind:
                return self
            self.apply(GAME.random_action(self.state, rnd))
        raise AssertionError(kind)


def appeared(payload, zone, rotation=0):
    return Appeared(payload, parse(payload), zone, rotation, (0.0, 0.0), 0.0, 1.0)


def reveal(game):
    game.apply({"type": "reveal_event", "by": "table", "card": "because_the_works"})
    return game.to("orient_event")


def test_event_on_the_council_is_revealed_by_the_table():
    game = Game()
    assert CameraRules().observe(appeared(EVENT, "council"), game.table(), 0.0) == [
        Act({"type": "reveal_event", "by": "table", "card": "because_the_works"})]


def test_event_elsewhere_or_unexpected():
    game = Game()
    rules = CameraRules()
    assert rules.observe(appeared(EVENT, "seat:N"), game.table(), 0.0) == []
    reveal(game)
    other = card_payload("wwe", "E", "storm_clouds")
    game.index[("E", parse(other).code)] = "storm_clouds"
    assert rules.observe(appeared(other, "council"), game.table(), 0.0)[0] == \
        Warn("camera_event_not_expected", {"card": "storm_clouds"})


def test_cards_of_another_game_and_unknown_codes_are_not_applied(caplog):
    game = Game()
    rules = CameraRules()
    pillars = card_payload("pote", "E", "because_the_works")
    assert rules.observe(appeared(pillars, "council"), game.table(), 0.0) == [
        Warn("camera_other_game", {"game": "pote", "code": parse(pillars).code})]
    missing = card_payload("wwe", "E", "not_in_catalog")
    foreign_kind = card_payload("wwe", "Q", "because_the_works")
    with caplog.at_level("INFO"):
        assert rules.observe(appeared(missing, "council"), game.table(), 0.0) == []
        assert rules.observe(appeared(foreign_kind, "council"), game.table(), 0.0) == []
        assert rules.observe(UnknownCode("WIFI:S:cafe;;", "tag_not_ours", 0.0),
                             game.table(), 0) == []
    assert "not_in_catalog" not in caplog.text  # the code is logged, not a guessed id
    assert "WIFI:S:cafe" in caplog.text


def turn(seat, rotation):
    return {"type": "orient_event", "by": seat, "rotation": rotation}


def test_rotation_is_previewed_then_committed_when_stable():
    game = Game()
    rules = CameraRules(commit_s=2.0)
    rules.observe(appeared(EVENT, "council", 0), game.table(), 0.0)
    reveal(game)
    seat = GAME.prompts(game.state)[0].seat
    assert rules.tick(game.table(), 0.1) == [Preview(turn(seat, 0))]
    turned = Turned(EVENT, parse(EVENT), "council", 1, 0, 0.0, 1.0)
    assert rules.observe(turned, game.table(), 1.5) == [Preview(turn(seat, 1))]
    assert rules.tick(game.table(), 3.0) == []  # only 1.5 s stable
    assert rules.tick(game.table(), 3.5) == [Act(turn(seat, 1))]
    assert rules.tick(game.table(), 9.0) == []  # sent once
    game.apply(turn(seat, 1))
    assert rules.tick(game.table(), 9.5) == []  # the game no longer asks


def test_stable_time_counts_from_when_the_turn_is_asked_for():
    rules = CameraRules(commit_s=2.0)
    ask = {"now": False}

    def meaning(seen):
        return [Propose(turn("N", seen.rotation))] if ask["now"] else []

    def table():
        return GameFacts("wwe", {"E": "event"}, {("E", parse(EVENT).code): "because_the_works"},
                         ("orient_event" if ask["now"] else "choose_target", "N"), meaning)

    rules.observe(appeared(EVENT, "council", 3), table(), 0.0)
    # other prompts first (e.g. a target to choose): the card lies still meanwhile
    assert rules.tick(table(), 5.0) == []
    ask["now"] = True
    assert rules.tick(table(), 6.0) == [Preview(turn("N", 3))]
    assert rules.tick(table(), 7.9) == []
    assert rules.tick(table(), 8.0) == [Act(turn("N", 3))]


def test_lifting_the_card_cancels_the_pending_orientation():
    game = Game()
    rules = CameraRules(commit_s=1.0)
    rules.observe(appeared(EVENT, "council", 2), game.table(), 0.0)
    reveal(game)
    rules.observe(Removed(EVENT, parse(EVENT), "council", 2, 0.5, 0.5), game.table(), 0.5)
    assert rules.tick(game.table(), 5.0) == []


def test_action_card_in_a_seat_zone_is_preselected():
    game = Game()
    rules = CameraRules()
    t = game.table()
    assert rules.observe(appeared(GRAIN, "seat:S"), t, 0) == [Select("S", "grain")]
    moved = MovedZone(GRAIN, parse(GRAIN), "seat:W", "seat:S", 0, 1.0, 1.0)
    assert rules.observe(moved, t, 1) == [Select("S", None), Select("W", "grain")]
    gone = Removed(GRAIN, parse(GRAIN), "seat:W", 0, 2.0, 0.5)
    assert rules.observe(gone, t, 2) == [Select("W", None)]
    assert rules.observe(appeared(GRAIN, None), t, 3) == []


def test_a_still_table_s_tick_asks_the_game_again_only_once_something_changed():
    # issue 71: the tick runs on every frame (30 a second); while the cards at rest and the
    # game's state (its facts) stay as they were, its answers are the last tick's
    game = Game()
    asked = []
    t = game.table()
    facts = GameFacts(t.namespace, t.kinds, t.cards, t.prompt,
                      lambda seen: asked.append(seen.change) or t.meaning(seen))
    rules = CameraRules()
    rules.observe(appeared(GRAIN, "seat:S"), facts, 0)
    for now in range(1, 31):
        assert rules.tick(facts, now) == [Select("S", "grain")]
    assert asked == ["appeared", "still"]
    rules.observe(MovedZone(GRAIN, parse(GRAIN), "seat:W", "seat:S", 0, 1.0, 1.0), facts, 31)
    assert rules.tick(facts, 32) == rules.tick(facts, 33) == [Select("W", "grain")]
    assert asked[2:] == ["removed", "moved", "still"]
    later = GameFacts(t.namespace, t.kinds, t.cards, t.prompt,
                      lambda seen: asked.append("new state") or t.meaning(seen))
    assert rules.tick(later, 34) == rules.tick(later, 35) == [Select("W", "grain")]
    assert asked[5:] == ["new state"]


# ---- on a running server ---------------------------------------------------------------
def wait(predicate):
    """The camera's own pace on a loaded machine: a longer bound than the usual one."""
    return wait_for(predicate, timeout=2 * PATIENCE, what="the camera")


@pytest.fixture
def server(tmp_path):
    data = tmp_path / "data"
    data.mkdir()
    (data / "config.json").write_text(json.dumps({"camera": {"orient_commit_s": 1.5}}))
    app = create_app({"DATA_DIR": str(data), "TESTING": True})
    live = LiveServer(app)
    yield app, live
    live.stop()
    context.of(app).service.store.close()


def first_starred_event(catalog):
    return next(e["id"] for e in catalog["event_cards"]
                if e["chapter"] == 1 and e.get("starred"))


def test_a_look_that_asks_about_a_card_announces_it():
    """Issue 71 (session 89): a look that names nothing but asks about a card (or no
    longer) announces the change, so the TV asks "Which card is this?" at once (it waited
    for the hardware's tick, which now reads every `SAFETY_S` with no host page). Planted
    fault caught: `_faces_seen` returning on an empty look without comparing
    ``asked_changes``: nothing announced."""
    calls = []

    class Faces:
        asked_changes = 0

        def look(self, *_args):
            self.asked_changes += 1  # a card asked about, none named
            return []

    handle = SimpleNamespace(
        faces=Faces(), _changed=lambda: calls.append("changed"),
        camera=SimpleNamespace(recognizer=SimpleNamespace(calibration=None, zones=None),
                               capture=SimpleNamespace(source=None)))
    live, frame = SimpleNamespace(kind=SimpleNamespace(name="wwe")), SimpleNamespace(image=None)
    wiring.CameraWiring._faces_seen(handle, live, frame, None)
    assert calls == ["changed"]
    handle.faces.look = lambda *_args: []  # nothing asked, nothing named: a still table
    wiring.CameraWiring._faces_seen(handle, live, frame, None)
    assert calls == ["changed"]


def test_video_camera_on_a_running_server_gives_the_phones_the_incomes(server, tmp_path):
    app, live_server = server
    service = context.of(app).service
    game = service.create("wwe", {"players": PLAYERS}, "2468")
    event = first_starred_event(game.kind.catalog)
    script = demo_script(card_payload("wwe", "E", event), GRAIN)
    # laid at rotation 0 for 0.3 s, turned a quarter over 0.3 s, then left turned for 2.3 s
    # (commit after 1.5 s stable), the action card moved from S's to W's zone meanwhile
    f = script.frames
    script = Script(f[:25] + f[40:50] + [f[79]] * 70 + f[80:], [])
    video = write_video(tmp_path / "table.avi", script)
    phones = {}
    for seat in ("N", "E"):
        token = service.access.claim_seat(game.id, seat, service.store.join_codes(game.id)[seat])
        phones[seat] = Spy(live_server.url, {"role": "seat", "game": game.id, "lang": "en",
                                             "token": token})
    table_display = Spy(live_server.url, {"role": "table", "game": game.id, "lang": "en",
                                          "table_token": service.access.new_table_token(game.id)})
    manager = context.of(app).hardware
    settings = resolve({"DATA_DIR": app.config["DATA_DIR"],
                        "CAMERA_SOURCE": str(video)})
    handle = wiring.start(settings, service, manager.changed)
    try:
        # reveal_event, then orient_event
        final = {seat: phone.wait_version(2, timeout=2 * PATIENCE)
                 for seat, phone in phones.items()}
        wait(lambda: "W" in handle.status()["selected"])
        status = handle.status()
        preview = handle.preview_jpeg()
        chunk = next(handle.mjpeg())
        wait(lambda: handle.snapshot().marker_seen)
        saved = handle.save_calibration()
    finally:
        handle.stop()
        for phone in phones.values():
            phone.close()
        table_display.close()

    actions = list({seq: a for seq, a, _ in service.get(game.id).log}.values())
    assert actions == [{"type": "reveal_event", "card": event, "by": "table"},
                       {"type": "orient_event", "rotation": 1, "by": "N"}]  # turned a quarter
    # the phone got exactly what the engine gives seat N after the same two actions
    state = GAME.setup(game.kind.catalog, game.row["setup"])
    state, _ = GAME.apply(state, {"type": "reveal_event", "by": "table", "card": event})
    state, _ = GAME.apply(state, {"type": "orient_event", "by": "N", "rotation": 1})
    start = GAME.setup(game.kind.catalog, game.row["setup"])
    for seat in ("N", "E"):
        want, before = GAME.seat_view(state, seat), GAME.seat_view(start, seat)
        got = final[seat]["view"]
        assert got["private"]["resources"] == want["private"]["resources"]
        assert {s: v["vp"] for s, v in got["seats"].items()} == {
            s: v["vp"] for s, v in want["seats"].items()}
        assert (got["private"]["resources"], got["seats"][seat]["vp"]) != (
            before["private"]["resources"], before["seats"][seat]["vp"])  # an income arrived
        assert got["rotation"] == 1 and got["event"]["id"] == event
    # while it was being turned, the table display previewed rotation 1 before the commit
    previews = [v["preview"] for v in table_display.views if v.get("preview")]
    assert any(p["rotation"] == 1 for p in previews)
    # the action card moved from S's zone to W's: W's phone may pre-select it
    assert status["selected"] == {"W": "grain"}
    assert status["state"] == "ok" and status["calibration"] == "marker"
    assert status["warnings"] == []
    # the host preview: the latest frame with overlays, as JPEG and as an MJPEG part
    import cv2
    import numpy as np
    assert cv2.imdecode(np.frombuffer(preview, np.uint8), cv2.IMREAD_COLOR).shape == (720, 1280, 3)
    assert chunk.startswith(b"--frame\r\nContent-Type: image/jpeg")
    # the calibration wizard's save step keeps north in config.json, other settings intact
    config = json.loads((Path(app.config["DATA_DIR"]) / "config.json").read_text())
    assert config["camera"]["calibration"] == saved
    assert config["camera"]["orient_commit_s"] == 1.5


def test_the_camera_lets_go_of_the_frame_its_last_snapshot_held(server, tmp_path):
    # a snapshot is made only when asked for (a view, the preview): the frame it holds must
    # not stay in the server's memory once newer frames came (issue 71: after the host's
    # camera page closed, its last frame was held beside the newest, 0.9-2.7 MB)
    app, _live = server
    service = context.of(app).service
    service.create("wwe", {"players": PLAYERS}, "2468")
    still = demo_script(EVENT, GRAIN).frames[0]  # the board marker and an action card
    video = write_video(tmp_path / "still.avi", Script([still] * 150, []))
    settings = resolve({"DATA_DIR": app.config["DATA_DIR"], "CAMERA_SOURCE": str(video)})
    handle = wiring.start(settings, service, context.of(app).hardware.changed)
    try:
        wait(lambda: handle.snapshot().frame is not None)
        held = weakref.ref(handle.snapshot().frame)
        seen = handle.camera.recognizer.seen
        wait(lambda: handle.camera.recognizer.seen >= seen + 3)  # newer frames published
        gc.collect()
        assert held() is None
        assert handle.snapshot().frame.seq > 0  # the newest one is there when asked for
    finally:
        handle.stop()


def test_card_the_engine_refuses_is_a_warning_not_an_action(server, tmp_path):
    app, _ = server
    service = context.of(app).service
    game = service.create("wwe", {"players": PLAYERS}, "2468")
    chapter_two = next(e["id"] for e in game.kind.catalog["event_cards"] if e["chapter"] == 2)
    changed = []
    handle = wiring.CameraWiring(service, lambda: changed.append(1), FrameSource(), None, 1.0)
    payload = card_payload("wwe", "E", chapter_two)
    handle.on_observation(appeared(payload, "council"))
    assert service.get(game.id).version == 0
    with pytest.raises(Refused):
        handle.save_calibration()  # no frame with the marker yet
    warning = handle.status()["warnings"][0]
    assert warning["code"] == "wrong_chapter"
    assert warning["template"] == game.kind.reasons["wrong_chapter"]
    assert warning["params"]["card"] == chapter_two
    assert changed


def test_an_action_card_lying_still_is_selected_once_and_again_once_moved(server, monkeypatch):
    # issue 71: every frame's tick asks the game about every card at rest (30 a second);
    # the action card lying still in a seat's zone is pre-selected once, with no plan made
    # on the frames after; moved to another zone, it is pre-selected there, once
    app, _ = server
    service = context.of(app).service
    service.create("wwe", {"players": PLAYERS}, "2468")
    changed = []
    handle = wiring.CameraWiring(service, lambda: changed.append(1), FrameSource(), None, 1.0)
    plans = []
    plan = wiring.camera_plan.plan
    monkeypatch.setattr(wiring.camera_plan, "plan",
                        lambda decisions, *rest: plans.append(list(decisions)) or
                        plan(decisions, *rest))
    live = service.access.current()
    handle.on_observation(appeared(GRAIN, "seat:S"))
    for _ in range(30):
        handle._tick(live)
    assert handle.status()["selected"] == {"S": "grain"}
    assert plans == [[Select("S", "grain")]] and len(changed) == 1
    handle.on_observation(MovedZone(GRAIN, parse(GRAIN), "seat:W", "seat:S", 0, 1.0, 1.0))
    for _ in range(30):
        handle._tick(live)
    assert handle.status()["selected"] == {"W": "grain"}
    assert plans[1:] == [[Select("S", None), Select("W", "grain")]] and len(changed) == 2
    handle.set_acting(False)  # the host's switch clears the pre-selections ...
    handle.set_acting(True)
    handle._tick(live)  # ... and the card still lying there is pre-selected anew
    assert handle.status()["selected"] == {"W": "grain"} and len(plans) == 3


def test_make_run_simulates_a_camera_only_when_none_is_attached(monkeypatch, tmp_path):
    """`make run` sets COMPANION_CAMERA_SIMULATE=auto: the synthetic table stands in only
    where no camera is attached (which a test cannot plug in: its presence is patched)."""
    def source_spec(configured, **environ):
        (tmp_path / "config.json").write_text(json.dumps({"camera": {"source": configured}}))
        return wiring.source_spec(resolve({"DATA_DIR": str(tmp_path)}, environ))

    assert source_spec(None) is None
    assert source_spec("/dev/video2") == "/dev/video2"
    auto = {"COMPANION_CAMERA_SIMULATE": "auto"}
    monkeypatch.setattr(wiring, "camera_attached", lambda: False)
    assert source_spec(None, **auto) == "synthetic"
    assert source_spec("auto", **auto) == "synthetic"
    assert source_spec("/dev/video2", **auto) == "/dev/video2"
    monkeypatch.setattr(wiring, "camera_attached", lambda: True)
    assert source_spec(None, **auto) == "auto"
    assert source_spec(None, **auto, COMPANION_CAMERA="folder:/x") == "folder:/x"


def test_cards_on_the_table_before_the_game_are_placed_once_and_a_restart_changes_nothing(
        server, tmp_path):
    """The camera starts on a real-looking table with the event card already on the council
    and an action card in seat S's area; the game is opened later. The cards are told to
    the game once (revealed, pre-selected) without being moved; the server restarting with
    them still there neither reveals the card again nor removes anything."""
    from companion.box.catalog import load_catalog
    from hardware.synthetic.conditions import video_style
    from hardware.synthetic.scene import Placement
    from hardware.synthetic.video import MARKER_AT, board_to_table
    from hardware.tags.format import BOARD_MARKER

    app, _ = server
    service = context.of(app).service
    event = first_starred_event(load_catalog("wwe"))
    lying = [Placement(BOARD_MARKER, *MARKER_AT, 0.0, marker=True),
             Placement(card_payload("wwe", "E", event), *board_to_table(0, 60), 2.0),
             Placement(GRAIN, *board_to_table(130, 130), 180.0)]
    video = write_video(tmp_path / "table.avi", Script([lying] * 45, []), 5, video_style(5))
    settings = resolve({"DATA_DIR": app.config["DATA_DIR"],
                        "CAMERA_SOURCE": str(video)})
    manager = context.of(app).hardware
    handle = wiring.start(settings, service, manager.changed)
    try:
        wait(lambda: len(handle.camera.recognizer.tracker.confirmed()) == 2)
        game = service.create("wwe", {"players": PLAYERS}, "2468")
        wait(lambda: service.get(game.id).version >= 1
             and handle.status()["selected"] == {"S": "grain"})
    finally:
        handle.stop()
    revealed = {"type": "reveal_event", "card": event, "by": "table"}
    assert list({s: a for s, a, _ in service.get(game.id).log}.values())[0] == revealed
    # the server restarts; the cards still lie there
    handle = wiring.start(settings, service, manager.changed)
    try:
        wait(lambda: len(handle.camera.recognizer.tracker.confirmed()) == 2
             and handle.status()["selected"] == {"S": "grain"})
        seen = handle.camera.frames_processed
        wait(lambda: handle.camera.frames_processed >= seen + 45)  # the video once more
        status = handle.status()
    finally:
        handle.stop()
    actions = list({s: a for s, a, _ in service.get(game.id).log}.values())
    assert actions.count(revealed) == 1
    assert status["selected"] == {"S": "grain"} and status["warnings"] == []

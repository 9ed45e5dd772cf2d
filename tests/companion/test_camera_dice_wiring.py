"""The camera's dice handed on as a serial reader's (companion/wiring/dice.py,
companion/wiring/camera_dice.py): Monasterium's roll read from trays rendered by the generator
(hardware/synthetic/dice_tray.py) through the real reader, on a real server with real
Socket.IO clients; the host's choice of source kept on disk and said on every screen; a die
the camera could not read asked of the rolling player only."""
from __future__ import annotations

import json
import threading
from dataclasses import replace

import numpy as np
import pytest

from companion import context
from companion.server.settings import DiceSettings
from companion.wiring import camera_dice
from companion.wiring import dice as wiring
from engine.monasterium import GAME as MONASTERIUM
from hardware.camera.calibration import Calibration
from hardware.camera.capture import Frame
from hardware.camera.source_base import FrameSource
from hardware.dice.observations import Roll
from hardware.synthetic import dice_tray
from tests.companion.conftest import Spy
from tests.waiting import wait_for

PLAYERS = [{"seat": "N", "name": "Anna"}, {"seat": "E", "name": "Bruno"}]


class RunningCamera:
    """Stands in for the camera service's handle: what `attach_camera` uses of it (the
    frames themselves are rendered and read for real)."""

    def __init__(self) -> None:
        self.frame_listeners: list = []
        self.every_frame: list = []  # () -> True: the camera service looks at every frame

    def listen(self, on_frame, wants_every_frame=None, draw=None) -> None:
        self.frame_listeners.append(on_frame)
        if wants_every_frame is not None:
            self.every_frame.append(wants_every_frame)

    def wants_every_frame(self) -> bool:
        return any(wants() for wants in self.every_frame)

    def status(self) -> dict:
        return {"state": "ok", "detail": ""}

    def show(self, image) -> None:
        for listener in self.frame_listeners:
            listener(Frame(image, 0, 0.0), Calibration.identity(), None)


def throw_frames(colours: list[str], faces: list[int], seed: int = 3) -> list:
    """An empty tray, a hand over it, then these dice settled (frames as the camera sees)."""
    style = dice_tray.TrayStyle()
    rng = np.random.default_rng(seed)
    laid = dice_tray.layout(rng, len(colours), 40.0, style.width, style.height, style.margin,
                            cocked=0.0, touching=0.0)
    final = [replace(d, colour=c, face=f) for d, c, f in zip(laid, colours, faces, strict=True)]
    frames = [dice_tray.render([], seed, style), dice_tray.render([], seed, style, hand=True,
                                                                  frame=1)]
    return frames + [dice_tray.render(final, seed, style, frame=k) for k in range(2, 8)]


def test_roles_by_colour_come_from_the_catalog():
    from companion.box.catalog import load_catalog

    catalog = load_catalog("monasterium")
    declared = MONASTERIUM.info.bindings.dice
    roles = wiring.colour_roles(declared, catalog, ["white1", "white2", "blue1", "red1",
                                                    "purple1", "tax"])
    assert roles == {"white1": "neutral", "white2": "neutral", "blue1": "personal_N",
                     "red1": "personal_E"}
    catalog["board"]["dice_colours"]["N"] = "purple"  # the owner's box: the data decides
    assert wiring.colour_roles(declared, catalog, ["blue1", "purple1"]) == {
        "purple1": "personal_N"}


def test_the_tray_is_read_only_inside_its_zone(tmp_path):
    config = tmp_path / "config.json"
    assert camera_dice.load_tray(config) is None
    camera_dice.save_tray(config, (10.0, 20.0, 250.0, 200.0))
    assert camera_dice.load_tray(config) == (10.0, 20.0, 250.0, 200.0)
    assert camera_dice.parse_tray([0, 0, 5, 5]) is None  # too small to be a tray
    assert camera_dice.tray_box((10, 20, 250, 200), Calibration.identity(), 640, 480) == (
        10, 20, 250, 200)
    assert camera_dice.tray_box((700, 20, 900, 200), Calibration.identity(), 640, 480) is None

    # dice outside the tray are not read: the zone holds only felt
    rolls = []
    reader = camera_dice.CameraDice(config, rolls.append, lambda: True, lambda: True)
    camera_dice.save_tray(config, (500.0, 0.0, 640.0, 360.0))
    reader.reset()
    for image in throw_frames(["white", "white"], [3, 5]):
        wide = np.zeros((360, 640, 3), np.uint8)
        wide[:, 500:640] = dice_tray.render([], 1)[:, :140]  # the empty felt
        wide[:, :480] = image
        reader.on_frame(Frame(wide, 0, 0.0), Calibration.identity())
    assert rolls == [] and reader.box == (500, 0, 640, 360)


def test_the_owners_taught_dice_are_read_outside_the_trays_lock(tmp_path, monkeypatch):
    """The owner's catalog and pictures (a slow SD card on a Pi) are read without the lock
    the host's pages need: the tray is answered meanwhile. A catalog change that overtakes
    the read is not lost: the next frame reads again, and the one after reads nothing."""
    from companion.box import taught_dice

    started, release, reads = threading.Event(), threading.Event(), []

    def slow_read(game, data_dir):
        reads.append(game)
        started.set()
        release.wait(10)
        return []

    monkeypatch.setattr(taught_dice, "taught_for", slow_read)
    config = tmp_path / "config.json"
    camera_dice.save_tray(config, (0.0, 0.0, 200.0, 200.0))
    reader = camera_dice.CameraDice(config, lambda roll: None, lambda: True, lambda: True,
                                    game=lambda: "wwe", data_dir=tmp_path)
    image = np.zeros((360, 640, 3), np.uint8)
    camera = threading.Thread(target=reader.feed, args=(image, Calibration.identity()))
    camera.start()
    try:
        assert started.wait(10)
        answered = []
        host = threading.Thread(target=lambda: answered.append(reader.tray_mm()), daemon=True)
        host.start()
        host.join(5)
        assert answered == [(0.0, 0.0, 200.0, 200.0)]  # not held up by the read
        reader.catalog_changed("wwe")  # the deck page took a face while the read ran
    finally:
        release.set()
        camera.join(10)
    started.clear()
    reader.feed(image, Calibration.identity())
    assert reads == ["wwe", "wwe"]  # the overtaken read was not kept
    reader.feed(image, Calibration.identity())
    assert reads == ["wwe", "wwe"]


def test_the_taught_dice_are_read_once_per_change_and_never_holding_the_tray_lock(
        tmp_path, monkeypatch):
    """A game's taught dice are its catalog and pictures on disk: read when the game at the
    table changes or its catalog changes, never per frame nor at a tray's reset, and never
    while holding the lock the camera thread takes on every frame (a host page's status
    would make the camera wait on the disk, issue 71)."""
    from companion.box import taught_dice

    config = tmp_path / "config.json"
    camera_dice.save_tray(config, (0.0, 0.0, 640.0, 360.0))
    table = ["monasterium"]
    reader = camera_dice.CameraDice(config, lambda roll: None, lambda: True, lambda: True,
                                    game=lambda: table[0], data_dir=tmp_path)
    reads = []
    monkeypatch.setattr(taught_dice, "taught_for", lambda game, data_dir: reads.append(
        (game, reader._lock.locked())) or [])
    frame = Frame(dice_tray.render([], 1), 0, 0.0)
    for _ in range(5):
        reader.on_frame(frame, Calibration.identity())
        reader.status()
    assert reads == [("monasterium", False)]
    reader.catalog_changed("monasterium")  # a die taught on the deck page
    reader.on_frame(frame, Calibration.identity())
    table[0] = "wwe"  # another game at the table
    reader.status()
    reader.on_frame(frame, Calibration.identity())
    reader.reset()  # the tray set again on the host page: the catalog is as it was
    assert reads == [("monasterium", False), ("monasterium", False), ("wwe", False)]


def host_spy(url, service, game_id, lang="en") -> Spy:
    return Spy(url, {"role": "host", "game": game_id, "lang": lang,
                     "host_token": service.access.new_host_token(game_id)})


def seat_spy(url, service, game_id, seat, lang="en") -> Spy:
    token = service.access.claim_seat(game_id, seat, service.store.join_codes(game_id)[seat])
    return Spy(url, {"role": "seat", "game": game_id, "lang": lang, "token": token})


def roll_device(view) -> dict:
    step = next(s for s in view["steps"] if s["kind"] == "roll")
    return step["devices"][0]


@pytest.mark.heavy
def test_a_camera_roll_is_handed_on_as_a_serial_one(games_live):
    app, server = games_live
    service = context.of(app).service
    mon = service.create("monasterium", {"players": PLAYERS, "seed": 1}, "2468")
    manager = context.of(app).hardware
    data = app.config["DATA_DIR"]
    handle = wiring.DiceWiring(service, manager.changed, DiceSettings(port="/nonexistent"),
                               data)
    camera = RunningCamera()
    wiring.attach_camera(handle, service, camera)
    camera_dice.save_tray(handle.config_path, (0.0, 0.0, 480.0, 360.0))
    handle.camera.reset()
    manager.dice = handle
    spies = []
    try:
        host = host_spy(server.url, service, mon.id)
        anna = seat_spy(server.url, service, mon.id, "N")
        bruno_de = seat_spy(server.url, service, mon.id, "E", lang="de")
        spies += [host, anna, bruno_de]
        seen = anna.wait_for(lambda v: v["hardware"]["dice"]["source"] == "serial")
        assert "dice reader" in roll_device(seen)["text"]
        camera.show(throw_frames(["blue"], [6])[0])
        assert not camera.wants_every_frame()  # the serial reader's roll: a still table

        # the camera is chosen: kept on disk, and every screen says so
        assert host.call("host", {"op": "dice_source", "source": "camera"})["ok"]
        saved = json.loads((handle.config_path).read_text())
        assert saved["dice"]["source"] == "camera"
        again = wiring.DiceWiring(service, manager.changed, DiceSettings(port="/nonexistent"),
                                  data)  # the server restarted: the choice is kept
        assert again.source == "camera"
        seen = anna.wait_for(lambda v: v["hardware"]["dice"]["source"] == "camera")
        assert roll_device(seen) == dict(roll_device(seen), present=True, text=(
            "The camera reads the dice once they lie still in the tray."))
        german = bruno_de.wait_for(lambda v: v["hardware"]["dice"]["source"] == "camera")
        assert roll_device(german)["text"] not in ("", roll_device(seen)["text"])
        refused = host.call("host", {"op": "dice_source", "source": "wishes"})
        assert refused["ok"] is False and refused["code"] == "dice_bad_source"

        # a serial roll is not the chosen source now: ignored
        assert handle.apply_roll(Roll(1, {"neutral-1": 4}, False, 0.0)) is None
        assert mon.version == 0 and handle.status()["rolls_ignored"] == 1

        # Anna rolls her blue die and five white ones in the tray: read, and played;
        # while the tray is read the camera looks at every frame (no still-table stride:
        # the settler counts still frames)
        faces = [6, 1, 2, 3, 4, 5]
        frames = throw_frames(["blue", *["white"] * 5], faces)
        camera.show(frames[0])
        assert camera.wants_every_frame()
        for image in frames[1:]:
            camera.show(image)
        applied = wait_for(lambda: handle.status()["last_applied"], what="the roll applied")
        assert mon.version == 1 and applied["type"] == "roll"
        state = mon.state
        assert state["dice"]["N1"]["face"] == 6
        assert sorted(state["dice"][d]["face"] for d in ("n1", "n2", "n3", "n4", "n5")) == [
            1, 2, 3, 4, 5]
    finally:
        for spy in spies:
            spy.close()


def monasterium_on_camera(app):
    """A Monasterium game (Anna N, Bruno E) whose dice the camera reads, as the server wires
    them: ``(service, game, dice wiring)``."""
    service = context.of(app).service
    mon = service.create("monasterium", {"players": PLAYERS, "seed": 1}, "2468")
    manager = context.of(app).hardware
    handle = wiring.DiceWiring(service, manager.changed, DiceSettings(port="/nonexistent"),
                               app.config["DATA_DIR"])
    manager.dice = handle
    handle.choose("camera")
    return service, mon, handle


def test_an_unreadable_die_is_asked_of_the_rolling_player_only(games_live):
    app, server = games_live
    service, mon, handle = monasterium_on_camera(app)
    spies = []
    try:
        anna = seat_spy(server.url, service, mon.id, "N")
        bruno = seat_spy(server.url, service, mon.id, "E")
        spies += [anna, bruno]
        roll = Roll(1, {"blue1": 2, "white1": 1, "white2": 1, "white3": 6, "white4": 3}, False,
                    0.0, ("white5",), {"white5": (0.8, 0.2)})
        assert handle.apply_roll(roll, "camera") is None and mon.version == 0
        handle.changed()
        seen = anna.wait_for(lambda v: v["hardware"]["dice"]["pending"])
        (missing,) = seen["hardware"]["dice"]["pending"]["missing"]
        assert seen["hardware"]["dice"]["pending"]["who"] == "N"
        assert missing == {"die": "white5", "colour": "white", "role": "neutral",
                           "faces": [1, 2, 3, 4, 5, 6], "place": [0.8, 0.2], "face": None,
                           "untaught": False, "name": None}

        # not Bruno's roll; not a die that waits; not a face of the die: nothing changes
        for spy, data, code in ((bruno, {"die": "white5", "face": 4}, "dice_not_your_roll"),
                                (anna, {"die": "white1", "face": 4}, "dice_not_waiting"),
                                (anna, {"die": "white5", "face": 7}, "dice_bad_face"),
                                (anna, {"die": "white5", "face": "4"}, "dice_bad_face")):
            answer = spy.call("dice_face", data)
            assert (answer["ok"], answer["code"]) == (False, code), answer
            assert answer["message"]
        assert mon.version == 0 and handle.status()["pending"] is not None

        # Anna enters that die only: the whole roll is played
        assert anna.call("dice_face", {"die": "white5", "face": 4})["ok"]
        view = anna.wait_version(1)
        assert view["hardware"]["dice"]["pending"] is None
        assert mon.state["dice"]["N1"]["face"] == 2
        assert sorted(mon.state["dice"][d]["face"] for d in ("n1", "n2", "n3", "n4", "n5")) \
            == [1, 1, 3, 4, 6]
    finally:
        for spy in spies:
            spy.close()


class FullResolution(FrameSource):
    """A frame source as the Pi's (hardware/camera/rpicam.py): grey frames for the stickers,
    and the tray cut in colour from a stream twice as sharp (``sharp_crop``)."""

    def __init__(self) -> None:
        self.sharp = None
        self.asked: list = []

    def sharp_crop(self, box, size):
        self.asked.append((box, size))
        x0, y0, x1, y1 = (2 * v for v in box)
        return self.sharp[y0:y1, x0:x1]


@pytest.mark.heavy
def test_the_reader_gets_the_trays_crop_from_the_source(tmp_path):
    """The wiring hands the reader the tray's crop: from the source's full-resolution stream
    when it offers one (colour, sharper), else from the grey frame itself."""
    import cv2

    config = tmp_path / "config.json"
    camera_dice.save_tray(config, (100.0, 50.0, 340.0, 230.0))  # half the 480x360 tray
    colours, faces = ["blue", "red", "white", "white"], [5, 2, 6, 1]
    source = FullResolution()
    for through in (source, None):
        rolls = []
        reader = camera_dice.CameraDice(config, rolls.append, lambda: True, lambda: True)
        for image in throw_frames(colours, faces, seed=7):
            sharp = np.zeros((720, 1280, 3), np.uint8)
            sharp[100:460, 200:680] = image
            source.sharp = sharp
            grey = cv2.cvtColor(cv2.resize(sharp, (640, 360), interpolation=cv2.INTER_AREA),
                                cv2.COLOR_BGR2GRAY)
            reader.on_frame(Frame(grey, 0, 0.0), Calibration.identity(), through)
        (roll,) = rolls
        assert all(0 <= x <= 1 and 0 <= y <= 1 for x, y in roll.places.values())
        if through is source:
            assert source.asked[0] == ((100, 50, 340, 230), (640, 360))
            assert sorted(roll.faces.values()) == sorted(faces) and not roll.unreadable
            assert {d[:-1] for d in roll.faces} == {"blue", "red", "white"}
        else:  # the grey frame at half the size: no colours, and no face guessed
            ids = [*roll.faces, *roll.unreadable]
            assert sorted(ids) == [f"grey{k}" for k in range(1, len(ids) + 1)]
            assert all(faces.count(v) for v in roll.faces.values())


def test_a_waiting_roll_ends_when_the_game_moves_on(games_live):
    """The roll entered otherwise (the host's "Let the app roll") while the camera's roll
    waits for a die: the phones stop asking, and a late answer changes nothing."""
    app, server = games_live
    service = context.of(app).service
    mon = service.create("monasterium", {"players": PLAYERS, "seed": 1}, "2468")
    manager = context.of(app).hardware
    handle = wiring.DiceWiring(service, manager.changed,
                               DiceSettings(port="/nonexistent", default_source="camera"),
                               app.config["DATA_DIR"])
    manager.dice = handle
    spies = []
    try:
        anna = seat_spy(server.url, service, mon.id, "N")
        host = host_spy(server.url, service, mon.id)
        spies += [anna, host]
        roll = Roll(1, {"blue1": 2, "white1": 1, "white2": 1, "white3": 6}, False, 0.0,
                    ("white4", "white5"))
        handle.apply_roll(roll, "camera")
        handle.changed()
        seen = anna.wait_for(lambda v: v["hardware"]["dice"]["pending"])
        assert [m["die"] for m in seen["hardware"]["dice"]["pending"]["missing"]] == [
            "white4", "white5"]
        assert anna.call("dice_face", {"die": "white4", "face": 3})["ok"]  # one of two
        seen = anna.wait_for(lambda v: (v["hardware"]["dice"]["pending"] or {}).get(
            "missing", [{}])[0].get("face") == 3)
        assert mon.version == 0

        assert host.call("host", {"op": "table_step", "kind": "roll"})["ok"]
        view = anna.wait_for(lambda v: v["version"] == 1 and not v["hardware"]["dice"]["pending"])
        assert view["hardware"]["dice"]["source"] == "camera"
        late = anna.call("dice_face", {"die": "white5", "face": 4})
        assert (late["ok"], late["code"]) == (False, "dice_not_waiting")
        assert mon.version == 1 and handle.status()["pending"] is None
    finally:
        for spy in spies:
            spy.close()


def test_a_camera_die_named_after_a_taught_role_plays_it():
    """The camera names a die read by its taught pictures after its role (``tax``, a second
    ``tax2``); the role's faces are listed once each, whatever the catalog repeats."""
    from engine.pillars import GAME as PILLARS
    from engine.wwe import GAME as WWE

    declared = WWE.info.bindings.dice
    assert wiring.taught_die_roles(declared, ["tax", "tax2", "tax1", "taxes", "white1"]) == {
        "tax": "tax", "tax2": "tax"}
    assert wiring.taught_die_roles(MONASTERIUM.info.bindings.dice, ["neutral", "white1"]) == {}
    (pillars_tax,) = PILLARS.info.bindings.dice
    assert pillars_tax.faces == (2, 3, 3, 4, 4, 5)
    assert wiring.role_faces(pillars_tax, None) == [2, 3, 4, 5]


def test_the_camera_says_when_it_can_give_none_of_a_games_dice_a_role():
    """No screen promises a camera reading that cannot come: a game whose dice the camera
    cannot tell (no colour in the catalog, none mapped by the owner) or must be taught."""
    from types import SimpleNamespace

    from companion.box.catalog import load_catalog
    from engine.pillars import GAME as PILLARS
    from engine.wwe import GAME as WWE

    def live(name, game):
        return SimpleNamespace(kind=SimpleNamespace(name=name, module=game,
                                                    catalog=load_catalog(name)))

    pillars, wwe, mon = live("pillars", PILLARS), live("wwe", WWE), live("monasterium",
                                                                          MONASTERIUM)
    assert wiring.camera_cannot_read(pillars, [], {}) == "unmapped"
    assert wiring.camera_cannot_read(pillars, [], {"roles": {"pillars": {"white1": "tax"}}}) \
        is None  # the owner's mapping gives the camera's white die the tax die's role
    assert wiring.camera_cannot_read(pillars, [], {"roles": {"wwe": {"white1": "tax"}}}) == \
        "unmapped"
    assert wiring.camera_cannot_read(wwe, [], {}) == "untaught"
    assert wiring.camera_cannot_read(wwe, ["tax"], {}) is None
    assert wiring.camera_cannot_read(mon, [], {}) is None  # its dice have colours
    assert wiring.camera_cannot_read(None, [], {}) is None

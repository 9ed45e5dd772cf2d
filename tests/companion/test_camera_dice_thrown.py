"""The camera's dice reader told by the game how many dice its roll has
(companion/wiring/dice.py `dice_thrown`, through `attach_camera` into `CameraDice` and the
settler: hardware knows no game, only the number): the reader reads no further than that
many, and a tray showing more is not taken as the roll (issue 64 part B)."""
from __future__ import annotations

from types import SimpleNamespace

import pytest

from companion import context
from companion.game import hardware_texts
from companion.server.settings import DiceSettings
from companion.wiring import camera_dice
from companion.wiring import dice as wiring
from engine.api import Bindings, DieRole
from hardware.camera import dice_faces
from hardware.camera.calibration import Calibration
from hardware.camera.capture import Frame
from tests.companion.test_camera_dice_wiring import PLAYERS, RunningCamera, throw_frames
from tests.waiting import wait_for


def live_of(bindings: Bindings, state=None):
    return SimpleNamespace(kind=SimpleNamespace(module=SimpleNamespace(
        info=SimpleNamespace(bindings=bindings)), catalog={}), state=state)


def test_the_dice_thrown_are_the_games_owed_dice_when_it_says():
    owed = Bindings(dice=(DieRole("neutral", "Neutral die", count=10),),
                    owed_dice=lambda catalog, state: ["neutral"] * state["owed"])
    assert wiring.dice_thrown(live_of(owed, {"owed": 4})) == 4
    assert wiring.dice_thrown(live_of(owed, {"owed": 0})) is None  # owes none: not told
    assert wiring.dice_thrown(live_of(owed)) is None  # no game state yet
    assert wiring.dice_thrown(None) is None
    # a game that does not say (World Without End, Pillars, the toy plug-in): not told,
    # whatever its roles may carry (a tax die is thrown beside an ordinary one)
    counted = Bindings(dice=(DieRole("tax", "Tax die"), DieRole("gem", "Gem", count=2)))
    assert wiring.dice_thrown(live_of(counted, {})) is None


@pytest.fixture
def monasterium_camera(games_app, monkeypatch):
    """A Monasterium game whose dice the camera reads, wired as the server wires it, and
    what each roll's reading was told (``thrown``)."""
    told = []
    real = dice_faces.read_tray

    def reader(image, die_px=None, taught=(), thrown=None):
        told.append(thrown)
        return real(image, die_px, taught, thrown=thrown)

    monkeypatch.setattr(dice_faces, "read_tray", reader)  # the settler imports it per roll
    service = context.of(games_app).service
    mon = service.create("monasterium", {"players": PLAYERS, "seed": 1}, "2468")
    manager = context.of(games_app).hardware
    handle = wiring.DiceWiring(service, manager.changed, DiceSettings(port="/nonexistent"),
                               games_app.config["DATA_DIR"])
    wiring.attach_camera(handle, service, RunningCamera())
    camera_dice.save_tray(handle.config_path, (0.0, 0.0, 480.0, 360.0))
    handle.camera.reset()
    manager.dice = handle
    handle.choose("camera")
    return mon, handle, told


def show(handle, frames) -> None:
    for image in frames:
        handle.camera.on_frame(Frame(image, 0, 0.0), Calibration.identity(), None)


def test_the_camera_reads_as_many_dice_as_the_game_owes(monasterium_camera):
    mon, handle, told = monasterium_camera
    owed = mon.kind.module.info.bindings.owed_dice(mon.kind.catalog, mon.state)
    assert len(owed) == 6  # Anna's blue die and five neutral ones
    show(handle, throw_frames(["blue", *["white"] * 5], [6, 1, 2, 3, 4, 5]))
    applied = wait_for(lambda: handle.status()["last_applied"], what="the roll applied")
    assert applied["type"] == "roll" and mon.version == 1
    assert told == [6]


def test_a_tray_with_more_dice_than_the_game_owes_is_not_its_roll(monasterium_camera,
                                                                 games_app):
    mon, handle, told = monasterium_camera
    tells = []
    real_tell = handle.camera.too_many
    handle.camera.too_many = lambda seen, thrown: (tells.append((seen, thrown)),
                                                   real_tell(seen, thrown))
    # a seventh die in the tray (one left from before): no roll taken, read once
    frames = throw_frames(["blue", *["white"] * 6], [6, 1, 2, 3, 4, 5, 6])
    show(handle, [*frames, *[frames[-1]] * 12])  # it lies still on: told once, not per frame
    assert told == [6] and handle.status()["last_applied"] is None and mon.version == 0
    assert handle.camera.settler.too_many
    assert handle.camera.status()["dice_seen"] == 7
    # the screens say why nothing was recorded, in each reader's language
    assert tells == [(7, 6)]
    warning = handle.status()["warning"]
    assert warning == {"code": "dice_too_many", "params": {"seen": 7, "thrown": 6},
                       "game": mon.id}
    with games_app.app_context():
        polish = hardware_texts.translated({"dice": handle.status()}, "pl")["dice"]
    assert polish["warning"]["message"] == (
        "Kamera widzi na tacy 7 kostek, a ten rzut ma 6: wyjmij kostki, których nie rzucano.")
    # taken out, the dice thrown again: the roll, and the warning gone
    show(handle, throw_frames(["blue", *["white"] * 5], [6, 1, 2, 3, 4, 5], seed=5))
    applied = wait_for(lambda: handle.status()["last_applied"], what="the roll applied")
    assert applied["type"] == "roll" and mon.version == 1 and told == [6, 6]
    assert handle.status()["warning"] is None and tells == [(7, 6)]

"""A game whose camera reads some dice while one die must still be taught (companion/wiring/
dice.py `camera_untaught`): the dice status names that die instead of saying "ok", every
screen's roll step says in its language that it is entered by hand, and the TV's manual
entry stays (`TC.cameraRolls` is true only in the "ok" state). A test-only game declared
through the interface: the toy plug-in with a pip die the owner mapped to the camera's
white die and a taught die."""
from __future__ import annotations

import dataclasses
from types import SimpleNamespace

import pytest

from companion.server.settings import DiceSettings
from companion.table.table_steps import TEXTS
from companion.wiring import camera_dice, hardware_manager
from companion.wiring import dice as wiring
from engine.api import DieRole, TableStep
from hardware import config_file
from tests.companion import toygame
from tests.companion.conftest import LiveServer, make_app
from tests.companion.test_camera_dice_wiring import RunningCamera, roll_device, seat_spy

LANGS = ("en", "it", "pl", "es", "de")


def roll_steps(state: dict) -> list:
    return [] if state["over"] else [TableStep("roll", "Roll the dice.", confirms=("dice",))]


def mixed_game():
    """The toy game with a pip die (given to the camera's white die by the owner) and a gem
    die the camera reads only once taught."""
    game = SimpleNamespace(**vars(toygame.GAME))
    bindings = dataclasses.replace(
        toygame.INFO.bindings, table_steps=roll_steps,
        dice=(DieRole("d6", "Pot die"), DieRole("gem", "Gem die", (1, 2, 3), taught=True)))
    game.info = dataclasses.replace(toygame.INFO, bindings=bindings)
    return game


def map_dice(app, roles: dict) -> None:
    """The owner's dice page: camera die ids given roles (config.json ``dice.roles``)."""
    def change(data: dict) -> None:
        data["dice"] = dict(data.get("dice") or {}, roles={"toy": roles})

    config_file.update(app.config["DATA_DIR"] + "/config.json", change)


@pytest.fixture
def mixed(tmp_path):
    app = make_app(tmp_path, GAMES={"toy": (mixed_game(), None)})
    server = LiveServer(app)
    service = app.extensions["companion"]
    live = service.create("toy", {"players": [{"seat": "A", "name": "Ann"},
                                              {"seat": "B", "name": "Bob"}]}, "2468")
    yield app, server, service, live, wire_camera(app)
    server.stop()
    service.store.close()


def wire_camera(app):
    """The dice wiring as the server runs it, the camera the dice source, its tray set."""
    service = app.extensions["companion"]
    manager = app.extensions["companion.hardware"]
    handle = wiring.DiceWiring(service, manager.changed, DiceSettings(port="/nonexistent"),
                               app.config["DATA_DIR"])
    wiring.attach_camera(handle, service, RunningCamera())
    camera_dice.save_tray(handle.config_path, (0.0, 0.0, 480.0, 360.0))
    manager.handles["dice"] = handle
    handle.choose("camera")
    return handle


def devices(app, live) -> dict:
    """The roll step's dice device on the table display, per language (its view as built
    for the TV: the hardware status as the game at the table shows it)."""
    from companion.game import views

    hardware = hardware_manager.status_for(app, live)
    with app.app_context():
        return {lang: roll_device(views.build(live, "table", None, lang, hardware=hardware))
                for lang in LANGS}


def test_a_die_still_to_be_taught_is_named_and_entered_by_hand(mixed):
    app, server, service, live, handle = mixed
    # nothing the camera can read: the whole roll by hand, as before
    assert handle.status()["state"] == "untaught"
    map_dice(app, {"white1": "d6"})  # the pip die is the camera's white die
    status = handle.status()
    assert status["state"] == "untaught_some", status  # not "ok": the gem die is not read
    assert status["untaught"] == ["gem"] and "gem" in status["detail"]

    shown = devices(app, live)
    assert shown["en"] == {"device": "dice", "present": False, "elsewhere": False,
                           "text": "The camera reads the other dice, but has not learnt Gem "
                                   "die yet (the host's deck page): enter it by hand."}
    texts = [d["text"] for d in shown.values()]
    assert len(set(texts)) == len(LANGS)  # a sentence of its own in every language
    assert all("Gem die" in text for text in texts), texts
    assert TEXTS["dice_camera_on"] not in texts
    # a phone over a real socket sees the same state and the die by name
    spy = seat_spy(server.url, service, live.id, "A", "de")
    try:
        handle.changed()
        seen = spy.wait_for(lambda v: v["hardware"]["dice"].get("state") == "untaught_some")
        assert seen["hardware"]["dice"]["untaught"] == ["gem"]
        assert roll_device(seen)["text"] == shown["de"]["text"]
        assert "Gem die" in shown["de"]["text"] and "Kamera" in shown["de"]["text"]
    finally:
        spy.close()

    # the owner gives the gem die a camera die too: the camera reads every die now
    map_dice(app, {"white1": "d6", "coin1": "gem"})
    status = handle.status()
    assert status["state"] == "ok" and status["untaught"] == []
    assert devices(app, live)["en"]["present"] is True


def test_camera_untaught_lists_only_the_dice_not_taught_nor_mapped():
    game = mixed_game()
    live = SimpleNamespace(kind=SimpleNamespace(name="toy", module=game, catalog={}))

    def ids(*args) -> list[str]:
        return [role.id for role in wiring.camera_untaught(*args)]

    assert ids(live, [], {}) == ["gem"]
    assert ids(live, ["gem"], {}) == []  # taught on the deck page
    assert ids(live, [], {"roles": {"toy": {"coin1": "gem"}}}) == []  # mapped by the owner
    assert ids(live, [], {"roles": {"other": {"coin1": "gem"}}}) == ["gem"]
    assert ids(None, [], {}) == []

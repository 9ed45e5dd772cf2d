"""A game whose camera reads some dice while one die must still be taught (companion/wiring/
dice.py `camera_untaught`): the dice status names that die instead of saying "ok", every
screen's roll step says in its language that the rolling player's phone asks for it, and the
camera's roll is one roll: held until the rolling player enters the untaught die on their
phone (socket ``dice_face``; any other seat refused in its language), then recorded once. The
TV keeps its own entry of the roll (`TC.cameraRolls` is true only in the "ok" state or while
a camera roll waits); used instead, it ends the camera's wait, so the two never both count.
A test-only game declared through the interface: the toy plug-in with a pip die the owner
mapped to the camera's white die and a taught die, both in one roll, one roll owed."""
from __future__ import annotations

import dataclasses
from types import SimpleNamespace

import pytest

from companion import context
from companion.server import i18n
from companion.server.settings import DiceSettings
from companion.table.table_steps import TEXTS
from companion.wiring import camera_dice
from companion.wiring import dice as wiring
from engine.api import Act, DieRole, Refused, TableStep, Warn
from engine.shapes import action, ints
from hardware import config_file
from hardware.camera.calibration import Calibration
from hardware.camera.capture import Frame
from tests.companion import toygame
from tests.companion.conftest import LiveServer, Spy, make_app
from tests.companion.test_camera_dice_wiring import (
    RunningCamera,
    roll_device,
    seat_spy,
    throw_frames,
)

LANGS = ("en", "it", "pl", "es", "de")
PLAYERS = [{"seat": "A", "name": "Ann"}, {"seat": "B", "name": "Bob"}]


def roll_steps(state: dict, by_hand: str = "") -> list:
    """One roll owed, by the player whose turn it is, until it is recorded."""
    if state["over"] or "gem" in state:
        return []
    return [TableStep("roll", "{who} rolls the dice.", who=state["active"], confirms=("dice",),
                      by_hand=by_hand)]


def roll_both(state: dict, dice) -> list:
    """The pot die and the gem die are one roll: both faces, or the roll does not match."""
    faces = {d.role: d.face for d in dice}
    if state["over"] or "gem" in state or not faces:
        return []
    if faces.keys() != {"d6", "gem"}:
        return [Warn("roll_does_not_match", {"need": 2, "got": len(dice)})]
    return [Act({"type": "roll", "by": "table", "value": faces["d6"], "gem": faces["gem"]})]


def apply(state: dict, act: dict):
    """The toy game's rules, the gem die's face kept with the roll; one roll only."""
    if act.get("type") != "roll":
        return toygame.apply(state, act)
    if "gem" in state:
        raise Refused("rolled_already")
    new, events = toygame.apply(state, {k: v for k, v in act.items() if k != "gem"})
    return dict(new, gem=act.get("gem")), events


def mixed_game(by_hand: str = ""):
    """The toy game with a pip die (given to the camera's white die by the owner) and a gem
    die the camera reads only once taught, thrown together; ``by_hand``: the TV's words
    for its own entry of the roll."""
    game = SimpleNamespace(**vars(toygame.GAME))
    bindings = dataclasses.replace(
        toygame.INFO.bindings, roll=roll_both,
        table_steps=lambda state: roll_steps(state, by_hand),
        dice=(DieRole("d6", "Pot die"), DieRole("gem", "Gem die", (1, 2, 3), taught=True)))
    texts = dataclasses.replace(toygame.INFO.texts, reasons={
        **toygame.REASONS, "rolled_already": "The dice were rolled already."})
    shapes = dict(toygame.INFO.action_shapes,
                  roll=action({"value": ints(0, 99)}, {"gem": ints(1, 3)}))
    game.info = dataclasses.replace(toygame.INFO, bindings=bindings, texts=texts,
                                    action_shapes=shapes)
    game.apply = apply
    return game


def map_dice(app, roles: dict) -> None:
    """The owner's dice page: camera die ids given roles (config.json ``dice.roles``), then
    the hardware's status pushed down to the views, as the page's `save` does."""
    def change(data: dict) -> None:
        data["dice"] = dict(data.get("dice") or {}, roles={"toy": roles})

    config_file.update(app.config["DATA_DIR"] + "/config.json", change)
    context.of(app).hardware.changed()


@pytest.fixture
def mixed(tmp_path):
    app = make_app(tmp_path, GAMES={"toy": (mixed_game(), None)})
    server = LiveServer(app)
    service = context.of(app).service
    live = service.create("toy", {"players": PLAYERS}, "2468")
    yield app, server, service, live, wire_camera(app)
    server.stop()
    service.store.close()


def wire_camera(app):
    """The dice wiring as the server runs it, the camera the dice source, its tray set."""
    service = context.of(app).service
    manager = context.of(app).hardware
    handle = wiring.DiceWiring(service, manager.changed, DiceSettings(port="/nonexistent"),
                               app.config["DATA_DIR"])
    wiring.attach_camera(handle, service, RunningCamera())
    camera_dice.save_tray(handle.config_path, (0.0, 0.0, 480.0, 360.0))
    manager.dice = handle
    handle.choose("camera")
    return handle


def throw(handle, faces: list[int]) -> None:
    """White dice showing ``faces`` thrown in the tray: the frames as the camera sees them,
    read by the real reader (the gem die, not taught, is nothing the camera can read)."""
    for image in throw_frames(["white"] * len(faces), faces):
        handle.camera.on_frame(Frame(image, 0, 0.0), Calibration.identity(), None)


def devices(app, live) -> dict:
    """The roll step's dice device on the table display, per language (its view as built
    for the TV: the hardware status as the game at the table shows it)."""
    from companion.game import views

    hardware = context.of(app).hardware.report.for_game(live)
    with app.app_context():
        return {lang: roll_device(views.build(live, "table", None, lang, hardware=hardware))
                for lang in LANGS}


def test_a_die_still_to_be_taught_is_named_and_asked_of_the_roller(mixed):
    app, server, service, live, handle = mixed
    # nothing the camera can read: the whole roll by hand, as before; a throw asks nothing
    assert handle.status()["state"] == "untaught"
    throw(handle, [4])
    assert handle.status()["pending"] is None and live.version == 0
    map_dice(app, {"white1": "d6"})  # the pip die is the camera's white die
    status = handle.status()
    assert status["state"] == "untaught_some", status  # not "ok": the gem die is not read
    assert status["untaught"] == ["gem"] and "gem" in status["detail"]

    shown = devices(app, live)
    assert shown["en"] == {"device": "dice", "present": True, "elsewhere": False,
                           "text": "The camera reads the other dice once they lie still in the "
                                   "tray; it has not learnt Gem die yet (the host's deck page), "
                                   "so the phone of whoever rolls asks for it."}
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


def answer(spy: Spy, die: str, face) -> tuple:
    reply = spy.call("dice_face", {"die": die, "face": face})
    return reply["ok"], reply.get("code"), reply.get("message")


def rolled(view: dict) -> int:
    """How many rolls the log shows (the roll recorded once: one entry)."""
    return sum(entry["type"] == "rolled" for entry in view["log"])


@pytest.mark.heavy
def test_the_camera_roll_waits_for_the_untaught_die_from_the_roller_only(mixed):
    """Ann throws: the camera reads the pip die, the roll waits for the gem die, which only
    Ann's phone asks for; Bob (Polish) is refused in Polish; Ann's face completes the roll,
    recorded once with both dice; the TV's own entry afterwards is the game's to refuse."""
    app, server, service, live, handle = mixed
    map_dice(app, {"white1": "d6"})
    spies = {"A": seat_spy(server.url, service, live.id, "A", "en"),
             "B": seat_spy(server.url, service, live.id, "B", "pl"),
             "tv": Spy(server.url, {"role": "table", "game": live.id, "lang": "it",
                                    "table_token": service.access.new_table_token(live.id)})}
    try:
        throw(handle, [4])
        status = handle.status()
        assert live.version == 0 and status["last_applied"] is None  # held, not played
        pending = status["pending"]
        assert pending["who"] == "A" and pending["read"] == 1
        assert pending["missing"] == [{"die": "gem", "colour": None, "role": "gem",
                                       "faces": [1, 2, 3], "place": [], "face": None,
                                       "untaught": True, "name": "Gem die"}]
        # every screen hears of it; the die by its role's name
        views = {who: spy.wait_for(lambda v: v["hardware"]["dice"]["pending"])
                 for who, spy in spies.items()}
        assert all(v["hardware"]["dice"]["pending"]["who"] == "A" for v in views.values())
        assert views["A"]["hardware"]["dice"]["pending"]["missing"][0]["name"] == "Gem die"

        # Bob's phone is not asked: refused in his language, nothing changes
        ok, code, message = answer(spies["B"], "gem", 2)
        assert (ok, code) == (False, "dice_not_your_roll")
        with app.app_context():
            english, polish = (i18n.text(lang, "Only the player who rolled enters these dice.")
                               for lang in ("en", "pl"))
        assert message == polish and polish != english
        # not a face of the gem die; not a die that waits
        assert answer(spies["A"], "gem", 6)[:2] == (False, "dice_bad_face")
        assert answer(spies["A"], "white1", 4)[:2] == (False, "dice_not_waiting")
        assert live.version == 0 and handle.status()["pending"] is not None

        # Ann enters the gem die: the whole roll goes to the game, once
        assert answer(spies["A"], "gem", 3)[0] is True
        view = spies["A"].wait_version(1)
        assert live.state["pot"] == 4 and live.state["gem"] == 3
        status = handle.status()
        assert status["pending"] is None and status["warning"] is None
        assert status["last_applied"]["value"] == 4 and status["last_applied"]["gem"] == 3
        assert rolled(view) == 1
        assert answer(spies["A"], "gem", 1)[:2] == (False, "dice_not_waiting")
        # the TV's entry of the same roll now: the game refuses a second roll
        reply = spies["tv"].call("act", {"action": {"type": "roll", "value": 5, "gem": 1}})
        assert (reply["ok"], reply["code"]) == (False, "rolled_already") and live.version == 1
        throw(handle, [6])  # no roll owed: the camera does not read the tray
        assert live.version == 1 and handle.status()["pending"] is None
        assert rolled(spies["B"].wait_version(1)) == 1 and live.state["pot"] == 4
    finally:
        for spy in spies.values():
            spy.close()


def test_the_tvs_entry_instead_ends_the_cameras_wait(mixed):
    """The roll entered on the TV while the camera's roll waits for the gem die: the phone
    stops asking, Ann's late answer changes nothing, the roll is the TV's, recorded once."""
    app, server, service, live, handle = mixed
    map_dice(app, {"white1": "d6"})
    spies = {"A": seat_spy(server.url, service, live.id, "A", "en"),
             "tv": Spy(server.url, {"role": "table", "game": live.id, "lang": "en",
                                    "table_token": service.access.new_table_token(live.id)})}
    try:
        throw(handle, [2])
        spies["A"].wait_for(lambda v: v["hardware"]["dice"]["pending"])
        assert spies["tv"].call("act", {"action": {"type": "roll", "value": 5, "gem": 1}})["ok"]
        view = spies["A"].wait_for(lambda v: v["version"] == 1
                                   and not v["hardware"]["dice"]["pending"])
        assert answer(spies["A"], "gem", 2)[:2] == (False, "dice_not_waiting")
        assert live.version == 1 and live.state["pot"] == 5 and live.state["gem"] == 1
        assert handle.status()["pending"] is None and rolled(view) == 1
    finally:
        for spy in spies.values():
            spy.close()


def test_the_dice_a_roll_owes_that_the_camera_has_not_learnt():
    """`untaught_owed`: the game's `owed_dice` says how many of each die a roll owes now
    (none of a role it does not list); without it, one of each untaught die."""
    game = mixed_game()
    live = SimpleNamespace(kind=SimpleNamespace(name="toy", module=game, catalog={}),
                           state={})
    gem = game.info.bindings.dice[1]
    assert wiring.untaught_owed(live, [gem], ["d6"]) == {"gem": gem}
    assert wiring.untaught_owed(live, [], ["d6"]) == {}

    def owing(*roles):
        game.info = dataclasses.replace(game.info, bindings=dataclasses.replace(
            game.info.bindings, owed_dice=lambda catalog, state: list(roles)))

    owing("d6", "gem", "gem")
    assert wiring.untaught_owed(live, [gem], ["d6"]) == {"gem": gem, "gem2": gem}
    assert wiring.untaught_owed(live, [gem], ["d6", "gem"]) == {"gem": gem}
    owing("d6")  # this roll owes no gem die: nothing to ask
    assert wiring.untaught_owed(live, [gem], ["d6"]) == {}


def test_a_waiting_untaught_die_is_named_in_each_recipients_language(games_in_context):
    """The name of a die the camera has not learnt (its role's English msgid in the dice
    status) reaches each recipient in their language, from the game's own domain; the
    status itself is left as it was."""
    from companion.game import hardware_texts

    waiting = {"game": "g1", "who": "A", "missing": [
        {"die": "tax", "role": "tax", "untaught": True, "name": "Tax die"},
        {"die": "white5", "role": "neutral", "untaught": False, "name": None}]}
    status = {"dice": {"state": "untaught_some", "pending": waiting}}
    names = {lang: [die["name"] for die in hardware_texts.translated(
        status, lang, game="wwe")["dice"]["pending"]["missing"]] for lang in ("en", "it", "de")}
    assert names == {"en": ["Tax die", None], "it": ["Dado delle Tasse", None],
                     "de": ["Steuerwürfel", None]}
    assert waiting["missing"][0]["name"] == "Tax die"

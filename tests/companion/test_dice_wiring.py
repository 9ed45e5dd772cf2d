"""Dice rolls into game actions (companion/wiring/dice.py) with the tax die of World Without End:
the pure mapping, agreement with the engine, and a real server fed by the emulator over a pty."""
import json
import random

import pytest

from companion import context
from companion.box.catalog import load_catalog
from companion.server.settings import DiceSettings, resolve
from companion.wiring import dice as wiring
from engine.api import Act, Refused, Warn
from engine.wwe import GAME
from hardware.dice.observations import Roll
from tests.hardware.dice.support import wait_for

ROLES = {"tax": "tax"}


def roll(**faces):
    return Roll(1, faces, False, 0.0)


def tax_state():
    return play_to_tax(new_state(), lambda s, a: GAME.apply(s, a)[0])


def outcomes(state, r, roles=ROLES):
    return wiring.roll_outcomes(GAME, state, r, roles)


def test_tax_die_becomes_roll_tax_when_asked():
    assert outcomes(tax_state(), roll(tax=4)) == [
        Act({"type": "roll_tax", "by": "table", "value": 4})]


def test_value_outside_the_faces_is_a_warning_not_an_action():
    faces = sorted(set(load_catalog("wwe")["game"]["tax_die"]["faces"]))
    assert outcomes(tax_state(), roll(tax=6)) == [
        Warn("bad_die_value", {"value": 6, "faces": faces})]


def test_rolls_nobody_asked_for_are_ignored():
    assert outcomes(new_state(), roll(tax=4)) == []  # the game asks for an event card
    assert outcomes(tax_state(), roll(red=4)) == []  # a die with no role


def test_roles_come_from_config_json(tmp_path):
    assert wiring.roles_for({}, "wwe", GAME.info.bindings.dice) == {"tax": "tax"}
    (tmp_path / "config.json").write_text(json.dumps(
        {"camera": {}, "dice": {"port": "auto", "roles": {"wwe": {"white": "tax"}}}}))
    settings = wiring.load_settings(tmp_path)
    roles = wiring.roles_for(settings, "wwe", GAME.info.bindings.dice)
    assert roles == {"white": "tax"}
    (action,) = outcomes(tax_state(), roll(white=3, tax=5), roles)
    assert action.action["value"] == 3
    assert resolve({"DATA_DIR": str(tmp_path)}, {}).dice.port is None  # "auto"
    (tmp_path / "config.json").write_text("{not json")
    assert wiring.load_settings(tmp_path) == {}


def test_emulate_mode_defaults_off(tmp_path):
    def emulate(dice: dict, environ: dict, **app_config) -> str:
        (tmp_path / "config.json").write_text(json.dumps({"dice": dice}))
        return resolve(dict(app_config, DATA_DIR=str(tmp_path)), environ).dice.emulate

    assert emulate({}, {}) == "off"
    assert emulate({"emulate": "auto"}, {}) == "auto"
    on = {"COMPANION_DICE_EMULATE": "1"}
    assert emulate({"emulate": False}, on) == "on"
    assert emulate({}, on, DICE_EMULATE=False) == "off"


def play_to_tax(state, act):
    """Random legal actions until the tax roll is due (seeded: always the same game)."""
    rnd = random.Random(1)
    for _ in range(500):
        if any(p.kind == "roll_tax" for p in GAME.prompts(state)):
            return state
        state = act(state, GAME.random_action(state, rnd))
    raise AssertionError("no tax roll within 500 actions")


def play_live_to_tax(service, live) -> None:
    """`play_to_tax` through the real service, each action by its seat or the table."""
    from companion.game.service import Identity

    def act(state, action):
        by = action["by"]
        service.act(Identity("table", live.id) if by == "table"
                    else Identity("seat", live.id, seat=by), action)
        return live.state

    play_to_tax(live.state, act)


def new_state():
    players = [{"seat": s, "name": s} for s in "NESW"]
    return GAME.setup(load_catalog("wwe"), {"players": players, "seed": 5})


def test_the_engine_agrees_with_the_wiring():
    state = tax_state()
    for value in range(0, 8):
        (outcome,) = outcomes(state, roll(tax=value))
        if isinstance(outcome, Act):
            _, events = GAME.apply(state, outcome.action)
            assert {"type": "tax_rolled", "value": value} in events
        else:
            with pytest.raises(Refused) as refused:
                GAME.apply(state, {"type": "roll_tax", "by": "table", "value": value})
            assert refused.value.code == outcome.code == "bad_die_value"


def test_emulated_rolls_reach_a_real_game(tmp_path):
    from companion.app import create_app

    app = create_app({"DATA_DIR": str(tmp_path / "data"), "TESTING": True})
    service = context.of(app).service
    players = [{"seat": s, "name": s} for s in "NESW"]
    live = service.create("wwe", {"players": players, "seed": 5}, "2468")
    changes = []
    handle = wiring.DiceWiring(service, lambda: changes.append(1),
                               DiceSettings(emulate="on", emulator_http_port=0), tmp_path / "data")
    handle.start()
    try:
        emu = handle.emulator
        wait_for(lambda: handle.status()["state"] == "ok", what="emulated reader connected")
        assert handle.status()["emulator"]["port"] == emu.port

        version = live.version
        emu.roll({"tax": 4})  # no tax is due yet: ignored
        wait_for(lambda: handle.status()["rolls_seen"] == 1, what="first roll handled")
        assert live.version == version and handle.status()["last_applied"] is None
        play_live_to_tax(service, live)
        version = live.version
        emu.roll({"tax": 6})  # a face the tax die does not have: warned, nothing changes
        wait_for(lambda: handle.status()["rolls_seen"] == 2, what="second roll handled")
        assert handle.status()["warning"]["code"] == "bad_die_value"
        assert live.version == version

        emu.roll({"tax": 3})
        # rolls_seen counts a roll once its outcome is recorded, after the game moved on
        wait_for(lambda: handle.status()["rolls_seen"] == 3, what="third roll handled")
        assert live.version == version + 1
        assert {"type": "roll_tax", "by": "table", "value": 3} in [a for _, a, _ in live.log]
        assert handle.status()["warning"] is None
        assert handle.status()["last_applied"]["value"] == 3
        assert changes
        # acknowledged means on disk
        assert any(a["action"]["type"] == "roll_tax" for a in service.store.actions(live.id))
    finally:
        handle.stop()
        service.store.close()

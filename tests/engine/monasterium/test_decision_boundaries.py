"""The menus of a pending decision at their boundaries (issue 51): a completed row's extra
novice with a place left to send it and with none (then forfeiting is the only way on), under
both readings of `extra_novice_forfeit_only_if_stuck`; the last road space's die offered as
one take and one decline, each once."""
from __future__ import annotations

import json

import pytest

from engine.monasterium import GAME
from engine.monasterium.choices import choices
from engine.monasterium.moves import extra_sends
from tests.engine.monasterium.helpers import new_game


def extra_novice_owed(full: bool, forfeit_only_if_stuck: bool):
    s = new_game(2, extra_novice_forfeit_only_if_stuck=forfeit_only_if_stuck)
    s["players"]["N"]["extras"] = ["I"]
    s["pending"] = [{"seat": "N", "kind": "extra_novice", "row": "I"}]
    if full:  # every building, cloister and chapel place taken: nowhere to send it
        for m in s["mon"].values():
            for k, who in m["buildings"].items():
                m["buildings"][k] = who if who == "#" else "E"
            for k in m["cloister"]:
                m["cloister"][k] = "E"
            m["chapel"] = ["E"] * 4
    return s


def keys(menu) -> list[str]:
    return [json.dumps(c.action, sort_keys=True) for c in menu]


@pytest.mark.parametrize("only_if_stuck", [True, False])
def test_an_extra_novice_with_nowhere_to_go_is_forfeited(only_if_stuck):
    s = extra_novice_owed(full=True, forfeit_only_if_stuck=only_if_stuck)
    assert extra_sends(s, "N", "I") == []
    menu = choices(s, "N")
    assert [c.action for c in menu] == [{"type": "extra_novice", "by": "N", "forfeit": True}]
    after, ev = GAME.apply(s, menu[0].action)
    assert after["pending"] == [] and after["players"]["N"]["extras"] == []
    assert {"type": "extra_forfeit", "seat": "N", "row": "I"} in ev


@pytest.mark.parametrize("only_if_stuck", [True, False])
def test_an_extra_novice_with_places_left_is_offered_them(only_if_stuck):
    s = extra_novice_owed(full=False, forfeit_only_if_stuck=only_if_stuck)
    sends = extra_sends(s, "N", "I")
    assert sends
    menu = choices(s, "N")
    forfeits = [c for c in menu if c.action.get("forfeit")]
    # the forfeit only where the option allows it with a send possible
    assert len(forfeits) == (0 if only_if_stuck else 1)
    assert len(menu) == len(sends) + len(forfeits) == len(set(keys(menu)))
    for c in menu:
        GAME.apply(s, c.action)  # each one carried out


def test_the_road_ends_die_is_offered_once_taken_and_once_declined():
    s = new_game(2)
    s["pending"] = [{"seat": "N", "kind": "extra_die"}]
    menu = choices(s, "N")
    assert [(c.action, c.effect) for c in menu] == [
        ({"type": "extra_die", "by": "N", "take": True}, {}),
        ({"type": "extra_die", "by": "N", "take": False}, {"prestige": 5})]
    _after, ev = GAME.apply(s, menu[1].action)
    assert [e["amount"] for e in ev if e["type"] == "gain" and e["item"] == "prestige"] == [5]


@pytest.mark.parametrize("left", [1, 0])
def test_a_monasterys_last_glass_tile_is_taken_and_then_none(left):
    from engine.monasterium.effects import glass

    s = new_game(2)
    s["mon"]["A"]["glass"] = left
    window = json.dumps(s["players"]["N"]["window"])
    ev: list = []
    assert glass(s, "N", "A", 0, "row", ev) is (left == 1)
    if left:
        assert s["mon"]["A"]["glass"] == 0 and s["players"]["N"]["window"][0][0] == "A"
        assert ev[0] == {"type": "glass", "seat": "N", "monastery": "A", "row": 0, "column": 0}
    else:  # none left: nothing built, nothing gained
        assert ev == [] and json.dumps(s["players"]["N"]["window"]) == window

"""The shipped games pass the same plug-in contract kit an outside plug-in runs
(engine/contract.py), and the kit does catch a game that breaks the contract."""
from __future__ import annotations

import copy
from types import SimpleNamespace

import pytest

from companion.box.catalog import load_catalog
from companion.game.reasons import SERVER_REASONS
from engine.contract import check_game

GAMES = ("wwe", "pillars", "monasterium")


@pytest.mark.parametrize("name", GAMES)
def test_the_shipped_game_keeps_the_plugin_contract(name):
    from companion.game.games import module_of

    problems = check_game(module_of(name), load_catalog(name), app_reasons=SERVER_REASONS,
                          games=1, most_actions=250)
    assert problems == []


def broken_toy(**changes):
    from tc_toygame import GAME

    return SimpleNamespace(**{**vars(GAME), **changes})


def test_the_kit_catches_a_rules_version_without_its_migration():
    import dataclasses

    from tc_toygame import GAME

    raised = broken_toy(info=dataclasses.replace(GAME.info, rules_version=2))
    problems = check_game(raised, load_catalog("toy"), games=1)
    assert any("rules_version 2 needs one migration per step" in p for p in problems)


def test_the_kit_catches_a_game_that_changes_the_state_in_place():
    from tc_toygame import GAME

    def apply_in_place(state, action):
        new, events = GAME.apply(state, action)
        state["n"] = state.get("n", 0) + 1
        return new, events

    problems = check_game(broken_toy(apply=apply_in_place), load_catalog("toy"), games=1)
    assert any("changed the state it was given" in p for p in problems)


def test_the_kit_catches_a_view_leaking_another_seats_hand():
    from tc_toygame import GAME

    def leaky_seat_view(state, seat):
        other = next(s for s in state["seats"] if s != seat)
        return {**GAME.seat_view(state, seat), "hand": list(state["hands"][other])}

    toy = broken_toy(seat_view=leaky_seat_view)
    problems = check_game(toy, load_catalog("toy"), games=1, unique_ids=True)
    assert any("which only" in p for p in problems), problems


def test_the_kit_catches_a_crash_on_an_odd_value():
    from tc_toygame import GAME

    def fragile_apply(state, action):
        if any(v in ("", "no_such_id") for v in action.values()):
            raise KeyError(action)
        return GAME.apply(state, action)

    with pytest.raises(KeyError):  # a crash is not a refusal: it fails the test as it is
        check_game(broken_toy(apply=fragile_apply), load_catalog("toy"), games=2)


def test_the_kit_catches_an_event_without_text():
    from tc_toygame import GAME

    texts = copy.copy(GAME.info.texts)
    object.__setattr__(texts, "events", {})
    info = copy.copy(GAME.info)
    object.__setattr__(info, "texts", texts)
    problems = check_game(broken_toy(info=info), load_catalog("toy"), games=1)
    assert any("has no text in Texts.events" in p for p in problems)


def test_the_kit_catches_an_event_lacking_a_field_its_text_names():
    """An event's template that names a field the event does not carry would reach the log
    as a literal "{field}" (issue 32: "now {after}")."""
    from tc_toygame import GAME

    texts = copy.copy(GAME.info.texts)
    object.__setattr__(texts, "events", {
        kind: text.rstrip(".") + " ({grown})." for kind, text in GAME.info.texts.events.items()})
    info = copy.copy(GAME.info)
    object.__setattr__(info, "texts", texts)
    problems = check_game(broken_toy(info=info), load_catalog("toy"), games=1)
    assert any("lacks ['grown'], which its text names" in p for p in problems), problems[:3]
    assert check_game(GAME, load_catalog("toy"), games=1) == []

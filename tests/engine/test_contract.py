"""The shipped games pass the same plug-in contract kit an outside plug-in runs
(engine/contract, `companion contract <id>`: their translations included), and the kit's
parts do what they say. The kit failing broken plug-ins: tests/engine/test_contract_zoo.py."""
from __future__ import annotations

import dataclasses
from types import SimpleNamespace

import pytest

from companion.box.catalog import load_catalog
from engine.api import secret_paths
from engine.contract import check_game

GAMES = ("wwe", "pillars", "monasterium")


@pytest.mark.slow
@pytest.mark.parametrize("name", GAMES)
def test_the_shipped_game_keeps_the_plugin_contract(name):
    from companion.commands.contract import check_module
    from companion.game.games import module_of

    assert check_module(module_of(name), load_catalog(name), games=1) == []


def broken_toy(**changes):
    from tc_toygame import GAME

    return SimpleNamespace(**{**vars(GAME), **changes})


def test_the_kit_catches_a_rules_version_without_its_migration():
    from tc_toygame import GAME

    raised = broken_toy(info=dataclasses.replace(GAME.info, rules_version=3))
    problems = check_game(raised, load_catalog("toy"), games=1)
    assert any("rules_version 3 needs one migration per step" in p for p in problems)


def test_the_kit_catches_a_game_that_changes_the_state_in_place():
    from tc_toygame import GAME

    def apply_in_place(state, action):
        new, events = GAME.apply(state, action)
        state["n"] = state.get("n", 0) + 1
        return new, events

    problems = check_game(broken_toy(apply=apply_in_place), load_catalog("toy"), games=1)
    assert any("changed the state it was given" in p for p in problems)


def test_the_kit_sees_a_hand_shown_to_another_seat_and_names_the_secret():
    """The toy's hands are ids of their own; a view naming another seat's hand changes when
    that hand does, and the report names whose secret and where it shows."""
    from tc_toygame import GAME

    def leaky_seat_view(state, seat):
        other = next(s for s in state["seats"] if s != seat)
        return {**GAME.seat_view(state, seat), "their_hand": list(state["hands"][other])}

    problems = check_game(broken_toy(seat_view=leaky_seat_view), load_catalog("toy"), games=1)
    assert any("view.their_hand" in p and "secret hands." in p for p in problems), problems


def test_a_secret_path_helper_names_each_seats_place_and_nobodys():
    secrets = secret_paths("hands.{seat}", "seed", "players.{seat}.res")
    state = {"hands": {"A": [1], "B": [2]}, "seed": 5, "players": {"A": {"res": {}}}}
    assert secrets(state) == {"A": [("hands", "A"), ("players", "A", "res")],
                              "B": [("hands", "B")], None: [("seed",)]}
    # a place the state lacks is still named, so the kit can say it is missing
    assert secrets({"seed": 1}) == {None: [("hands", "{seat}"), ("seed",),
                                           ("players", "{seat}")]}


def test_the_kit_reports_a_crash_on_a_probe_instead_of_stopping():
    from tc_toygame import GAME

    def fragile_apply(state, action):
        if action.get("type") == "roll" and action.get("value") == 0:
            raise KeyError("no face 0")
        return GAME.apply(state, action)

    problems = check_game(broken_toy(apply=fragile_apply), load_catalog("toy"), games=1)
    assert any("raised KeyError" in p for p in problems), problems


def test_the_kit_asks_a_game_that_cites_rules_for_a_rule_behind_each_text():
    """A game with `Texts.rules` (docs/rules-cited.md) cites one for every refusal, event and
    prompt: the phones' "Why?". The toy citing its prompt only is told of the rest."""
    from tc_toygame import GAME

    rule = {"ref": {"*": "App"}, "text": "A seat plays one card in turn."}
    texts = dataclasses.replace(GAME.info.texts, rules={"turns": rule},
                                cites={"prompts": {"play": "turns"}})
    problems = check_game(broken_toy(info=dataclasses.replace(GAME.info, texts=texts)),
                          load_catalog("toy"), games=1)
    assert any("event 'played' cites no rule" in p for p in problems), problems
    assert any("refusal 'not_your_turn' cites no rule" in p for p in problems), problems
    assert not any("prompt 'play' cites no rule" in p for p in problems)


def test_the_kit_catches_a_catalog_number_without_a_range():
    """Planted fault: the toy's coin points lose their maximum; the kit names the path."""
    import copy

    from tc_toygame import CARDS_SCHEMA, GAME

    from engine.api import CatalogPart

    schema = copy.deepcopy(CARDS_SCHEMA)
    del schema["items"]["properties"]["points"]["maximum"]
    open_ended = dataclasses.replace(GAME.info, parts=(CatalogPart(
        "cards", schema, title="Coins", stickers="coin"),))
    problems = check_game(broken_toy(info=open_ended), load_catalog("toy"), games=1)
    assert any("cards[].points is a number without a minimum and a maximum" in p
               for p in problems), problems
    assert not any("without a minimum" in p
                   for p in check_game(GAME, load_catalog("toy"), games=1))


def test_a_game_without_cards_leaves_out_parts_stickers_and_bindings():
    """docs/engine.md, "The declarations": a dice game the app rolls declares no catalog
    parts, stickers or bindings (issue 68: they once had no defaults)."""
    from engine.api import Bindings, GameInfo, SeatInfo, Texts

    info = GameInfo(id="pig", names={"en": "Pig"}, seats=(SeatInfo("A", "Seat A", "blue"),),
                    min_players=1, max_players=1, options=(), texts=Texts(), catalog="pig",
                    web="pig.web")
    assert (info.parts, info.stickers, info.bindings) == ((), (), Bindings())
    with pytest.raises(TypeError):  # the web folder stays required, by name
        GameInfo("pig", {"en": "Pig"}, (), 1, 1, (), Texts(), "pig")


def test_the_kits_own_probes_give_a_neutral_reason():
    """A reason field of a probe is the kit's neutral words, never a word taken from the
    game's views ("assassin"), which an event repeating the reason would seem to show."""
    import random

    from engine.contract.probes import NEUTRAL_REASON, Values
    from engine.shapes import TEXT, action, ints

    values = Values(random.Random(1))
    values.learn({"role": "assassin", "cards": ["assassin", "duke"]})
    shape = action({"delta": ints(-1, 1)}, {"reason": TEXT})
    made = [values.make(shape) for _ in range(40)]
    assert {m["reason"] for m in made if "reason" in m} == {NEUTRAL_REASON}

"""The choices that World Without End answers without trying each one on a copy of the
state say exactly what trying it says (engine/wwe/choices.py, `unperformed`)."""
from __future__ import annotations

import random

import pytest

from engine.wwe import GAME, choices
from engine.wwe.steps import head


@pytest.mark.parametrize("seed,options", [
    (3, {}),
    (5, {"random_discards": "app", "first_game": True}),
    (8, {"random_discards": "table", "plague_values": "app"}),
])
def test_a_card_played_for_nothing_says_what_its_own_trial_says(catalog, seed, options):
    rnd = random.Random(seed)
    s = GAME.setup(catalog, {"players": [{"seat": x} for x in "NESW"], "seed": seed,
                             "options": options})
    checked = 0
    while not s["over"]:
        h = head(s)
        if h["kind"] == "play_card":
            for choice in GAME.choices(s, h["seat"]):
                action = choice.action
                if action["type"] == "play_card" and action["perform"] is False:
                    extra = {"discard_options": choice.effect["discard_options"]}
                    alone = choices.trial(s, action, h["seat"], extra)
                    assert choice.to_json() == alone.to_json()
                    assert list(choice.effect) == list(alone.effect)
                    checked += 1
        s, _ = GAME.apply(s, GAME.random_action(s, rnd))
    assert checked > 300


@pytest.mark.parametrize("seed,options", [(2, {}), (6, {"random_discards": "table"})])
def test_the_choices_of_every_asker_at_once_are_each_askers_own(catalog, seed, options):
    """`choices_of` (the server's one call per state) says what `choices` says per asker,
    the table's options included (they come from the seat's trials)."""
    rnd = random.Random(seed)
    seats = list("NESW")
    s = GAME.setup(catalog, {"players": [{"seat": x} for x in seats], "seed": seed,
                             "options": options})
    kinds = set()
    while not s["over"]:
        together = GAME.choices_of(s, [*seats, "table"])
        assert list(together) == [*seats, "table"]
        for asker, found in together.items():
            alone = GAME.choices(s, asker)
            assert [c.to_json() for c in found] == [c.to_json() for c in alone]
            assert [list(c.action) for c in found] == [list(c.action) for c in alone]
        if together["table"]:
            kinds.add(head(s)["kind"])
        s, _ = GAME.apply(s, GAME.random_action(s, rnd))
    assert {"reveal_event", "roll_tax", "reveal_plague"} <= kinds

"""The choices that World Without End answers without trying each one on a copy of the
state say exactly what trying it says (engine/wwe/choices.py, `unperformed`)."""
from __future__ import annotations

import random

import pytest

from engine.wwe import GAME
from engine.wwe import choices as C
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
                    alone = C.trial(s, action, h["seat"], extra)
                    assert choice.to_json() == alone.to_json()
                    assert list(choice.effect) == list(alone.effect)
                    checked += 1
        s, _ = GAME.apply(s, GAME.random_action(s, rnd))
    assert checked > 300

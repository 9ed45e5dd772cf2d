"""`Bindings.zone_cards` of World Without End (issue 32 point 9): the cards the game has
taken on the council space, so the setup's "first event card" step is ticked only by a card
the game revealed, never by one the camera sees and the game refused."""
from __future__ import annotations

import pytest

from engine.api import Refused
from engine.wwe import GAME
from engine.wwe.bindings import COUNCIL, zone_cards
from engine.wwe.info import INFO
from tests.engine.wwe_helpers import act, at, head, new_game, passive, plain, run_until


def test_the_council_holds_the_cards_the_game_revealed(catalog):
    plain(catalog)
    assert INFO.bindings.zone_cards is zone_cards
    s = new_game(catalog, seats=("N", "S"))
    assert zone_cards(s) == {COUNCIL: []}
    with pytest.raises(Refused):  # a chapter II card in chapter I: the game does not take it
        GAME.apply(s, {"type": "reveal_event", "by": "table", "card": "king_edward_iii"})
    assert zone_cards(s) == {COUNCIL: []}
    first = passive(s)["card"]
    s = act(s, type="reveal_event", by="table", card=first)
    assert zone_cards(s) == {COUNCIL: [first]}
    # round 2: round 1's immediate card still lies there, beside the new one
    s = run_until(s, at("reveal_event", round_=2))
    second = passive(s)["card"]
    s = act(s, type="reveal_event", by="table", card=second)
    assert zone_cards(s) == {COUNCIL: [first, second]}
    # the chapter's end clears the council (E3): chapter II starts with nothing there
    s = run_until(s, at("reveal_event", chapter=2))
    assert head(s)["kind"] == "reveal_event" and zone_cards(s) == {COUNCIL: []}

"""Each played card in the public view says the round of the chapter it was played in, so
the TV shows this round's card beside each player, never last round's (issue 69 #4: round
2's player cards still said "played: …" of round 1 until the player played again)."""
from __future__ import annotations

from engine.wwe import GAME
from tests.engine.wwe_helpers import at, new_game, run_until


def _played(state, seat):
    return [(c["card"], c["round"]) for c in GAME.public_view(state)["seats"][seat]["played"]]


def test_each_played_card_carries_its_round(catalog):
    s = new_game(catalog, seats=("N", "S"))
    s = run_until(s, at("reveal_event", chapter=1, round_=2))
    first = _played(s, "N")
    assert len(first) == 1 and first[0][1] == 1
    assert GAME.public_view(s)["round"] == 2  # round 2: no card of it yet
    s = run_until(s, at("reveal_event", chapter=1, round_=3))
    assert [r for _c, r in _played(s, "N")] == [1, 2]
    assert [r for _c, r in _played(s, "S")] == [1, 2]


def test_the_view_gives_where_the_vp_lines_start(catalog):
    """The VP chart starts at the game's first VP (8 each in the shipped game) and goes
    through each round's end (issue 69 #3: round 2 showed only round 2)."""
    s = new_game(catalog, seats=("N", "S"))
    view = GAME.public_view(s)
    assert view["vp_start"] == 8 == s["players"]["N"]["vp"]
    s = run_until(s, at("reveal_event", chapter=1, round_=2))
    assert len(GAME.public_view(s)["vp_history"]) == 1

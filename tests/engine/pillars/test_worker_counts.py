"""The workers each view shows as the table has them in phase I (issue 69, point 2): free,
placed on material cards and at the mill, changing with each take and pass (the TV once
said "Workers: 12 · at the mill: 0" all phase long)."""
from __future__ import annotations

from engine.pillars import GAME
from tests.engine.pillars.helpers import act, by, layout, new_game


def _workers(s, seat):
    return {k: GAME.public_view(s)["players"][seat]["workers"][k]
            for k in ("total", "free", "placed", "mill")}


def test_free_placed_and_mill_follow_the_draft():
    s = new_game(2)
    s, _ = layout(s, privileges=["gold_8", "vp_2"])
    assert _workers(s, "N") == {"total": 12, "free": 12, "placed": 0, "mill": 0}
    s, _ = act(s, by("N", "take_material", card="stone_3"))
    assert _workers(s, "N") == {"total": 12, "free": 4, "placed": 8, "mill": 0}
    s, _ = act(s, by("E", "pass"))
    # E passed: its free workers are the mill's now, though the phase goes on
    assert _workers(s, "E") == {"total": 12, "free": 0, "placed": 0, "mill": 12}
    assert s["phase"] == "draft"
    s, _ = act(s, by("N", "pass"))
    assert s["phase"] != "draft"
    assert _workers(s, "N") == {"total": 12, "free": 0, "placed": 8, "mill": 4}
    assert _workers(s, "E") == {"total": 12, "free": 0, "placed": 0, "mill": 12}


def test_the_seat_view_shows_the_same_counts():
    s = new_game(2)
    s, _ = layout(s, privileges=["gold_8", "vp_2"])
    s, _ = act(s, by("N", "take_material", card="stone_3"))
    mine = GAME.seat_view(s, "N")["mine"]["workers"]
    assert (mine["free"], mine["placed"], mine["mill"]) == (4, 8, 0)

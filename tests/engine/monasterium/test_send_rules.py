"""Two send rules the brute-force comparison of offered and legal decisions found broken
(test_offered_brute.py): an extra novice goes only as a completed row's bonus (§6.7,
M-A21), and a common hall's glass tile is built at once, lost only when the window cannot
take it (§8, M-A19)."""
from __future__ import annotations

import random

import pytest

from engine.api import Refused
from engine.monasterium import effects
from engine.monasterium.choices import choices, whose_turn
from tests.engine.monasterium.helpers import GAME, new_game


def first_position(want):
    """The first position of random games whose owed decision has a choice ``want`` likes."""
    for n, seed in ((2, 4), (3, 9), (4, 2), (2, 1)):
        rnd = random.Random(seed)
        s = new_game(n, seed=seed)
        while not GAME.is_over(s):
            for c in choices(s, whose_turn(s)):
                if want(s, c.action):
                    return s, c.action
            s, _ = GAME.apply(s, GAME.random_action(s, rnd))
    raise AssertionError("no such position")


def hall_send(s, a):
    return a["type"] == "use" and "novice" in a and a.get("bonus") in ("row", "column")


def test_a_die_cannot_send_an_extra_novice():
    s, use = first_position(lambda s, a: a["type"] == "use" and "novice" in a
                            and a["novice"].split(":")[0] in ("I", "II"))
    seat = use["by"]
    assert s["players"][seat]["extras"]  # the seat still holds its extra novices
    row = use["novice"].split(":")[0]
    with pytest.raises(Refused) as refused:
        GAME.apply(s, dict(use, novice=f"extra:{row}"))
    assert refused.value.code == "no_novice"
    GAME.apply(s, use)  # the same send with a novice of the row is legal


@pytest.mark.parametrize("cell", [{}, {"row": -1, "bonus": "row"}, {"row": 3, "bonus": "row"},
                                  {"row": True, "bonus": "row"}, {"row": 0, "bonus": "up"}])
def test_a_common_hall_send_names_a_cell_for_its_tile_when_the_window_takes_one(cell):
    s, use = first_position(hall_send)
    base = {k: v for k, v in use.items() if k not in ("row", "bonus")}
    with pytest.raises(Refused) as refused:
        GAME.apply(s, {**base, **cell})
    assert refused.value.code == "bad_field"
    after, ev = GAME.apply(s, use)
    assert any(e["type"] == "glass" for e in ev)


def test_a_common_hall_tile_is_lost_only_when_the_window_cannot_take_it():
    s, use = first_position(hall_send)
    seat, m = use["by"], use["monastery"]
    full = [[f"X{r}{c}" for c in range(3)] for r in range(3)]  # no cell left
    s["players"][seat]["window"] = full
    assert not effects.glass_options(s, seat, [m])
    base = {k: v for k, v in use.items() if k not in ("row", "bonus")}
    after, ev = GAME.apply(s, base)
    assert any(e["type"] == "glass_lost" for e in ev)
    assert after["mon"][m]["glass"] == s["mon"][m]["glass"]  # the tile stays there

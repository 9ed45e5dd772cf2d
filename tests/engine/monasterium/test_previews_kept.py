"""What a phone shows beside a choice is what the choice then does (issue 51).

At positions of random legal games every choice offered to the seat owing a decision is
carried out with `GAME.apply`: the dice a face places, the column and actions a take gives,
the resources a use costs and brings, the prestige it scores, the steps a messenger walks,
a send's building reward, the tile it turns yellow and the space it opens, the prestige of
declining the last road space's die, a bonus's resource."""
from __future__ import annotations

import random

import pytest

from engine.monasterium import GAME, state
from engine.monasterium.choices import choices, whose_turn
from tests.engine.monasterium.helpers import new_game
from tests.engine.random_play import every_kth_position

RES = tuple(state.RES)


def res_change(before, after, seat) -> dict:
    b, a = before["players"][seat]["res"], after["players"][seat]["res"]
    return {k: a[k] - b[k] for k in RES if a[k] != b[k]}


def check(s, seat, choice, seen: set) -> None:
    a = choice.action
    new, ev = GAME.apply(s, a)
    kind = a["type"]
    if kind == "place":
        hand = [d for d in state.hand(s, seat) if s["dice"][d]["face"] == a["face"]]
        assert choice.effect == {"dice": len(hand)}
        assert all(new["dice"][d]["at"] == "space" for d in hand)
        seen.add("place")
    elif kind == "take":
        if a["space"] != 6:
            assert choice.effect == {"column": state.column_of(a["space"]),
                                     "actions": len(a["dice"])}
            if new["turn"] is not None:
                assert new["turn"]["col"] == choice.effect["column"]
                assert len(new["turn"]["dice"]) == len(a["dice"])
            seen.add("take")
        elif new["turn"] is not None:  # space 6: the joker takes the column named
            assert new["turn"]["col"] == a["column"], a
            seen.add("take6")
    elif kind == "extra_die" and not a["take"]:
        p0, p1 = s["players"][seat]["prestige"], new["players"][seat]["prestige"]
        assert p1 - p0 >= choice.effect["prestige"] == 5
        seen.add("decline_die")
    elif kind == "bonus" and a["choice"] in ("influence", "rosary", "soup"):
        assert res_change(s, new, seat).get(a["choice"], 0) >= 1 == choice.effect[a["choice"]]
        seen.add("bonus")
    elif kind == "use":
        k = choice.effect.get("kind")
        # what the use itself pays and brings (its events' `why`), not what it sets off
        # (a completed window row's or column's bonus, a mission, a yellow tile's dice)
        paid = booked(ev, seat, "paid", ("send", "swap"))
        got = booked(ev, seat, "gain", ("action", "building", "swap"))
        assert paid == {x: n for x, n in choice.cost.items() if n}, (a, paid, choice.cost)
        items = {x: n for x, n in choice.effect.items() if x in (*RES, "prestige") and n}
        assert got == items, (a, got, choice.effect)
        if k == "messenger":
            walked = [e["steps"] for e in ev if e.get("type") == "messenger"
                      and e["seat"] == seat]
            assert walked == [choice.effect["steps"]], (a, walked)
        if k == "send":
            if "yellow" in choice.effect:
                assert choice.effect["yellow"] in new["players"][seat]["yellow"], a
            if "opens" in choice.effect:
                row, col = choice.effect["opens"].split(":")
                assert state.alt_open(new, seat, row, col), (a, choice.effect)
        seen.add(k)


def booked(ev, seat, kind, whys) -> dict:
    out: dict = {}
    for e in ev:
        if e["type"] == kind and e.get("seat") == seat and e.get("why") in whys:
            out[e["item"]] = out.get(e["item"], 0) + e["amount"]
    return out


@pytest.mark.parametrize("n,seed", [(2, 4), (3, 9), (4, 2)])
def test_every_preview_is_what_the_choice_does(n, seed):
    seen: set = set()
    for s in every_kth_position(GAME, new_game(n, seed=seed), random.Random(seed), 3):
        seat = whose_turn(s)
        for choice in choices(s, seat):
            if choice.action["type"] != "reroll":
                check(s, seat, choice, seen)
    assert seen >= {"place", "take", "gain", "send"}, seen

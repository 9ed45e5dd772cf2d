"""The sends offered (`moves.sends`) are exactly the plain enumeration: every novice x
monastery x free place that `effects.send_refusal` accepts, in the same order, each common
hall with its glass tiles. The fast path asks whether a place takes a novice once per row
(`effects.place_refusal`), so positions with several novices of a row are the point. And
the dice a seat may take (`choices._takes`, one pass over the dice) are `state.takeable`'s."""
from __future__ import annotations

import random

import pytest

from engine.monasterium import choices, effects, moves, state
from tests.engine.monasterium.helpers import GAME, new_game


def plain_sends(s, seat, discount=0, novices=None) -> list:
    p = s["players"][seat]
    if novices is None:
        novices = [f"{r}:{c}" for r in state.ROWS for c in p["novices"][r]]
    out = []
    for nov in novices:
        row = nov.split(":")[0]
        for m, mon in s["mon"].items():
            if not effects.access(s, seat, m):
                continue
            dests = []
            if row in ("I", "II", "extra"):
                dests += [b for b, who in mon["buildings"].items() if who is None]
            if row in ("III", "extra"):
                dests.append("chapel")
            if row in ("IV", "extra"):
                dests += [c for c, who in mon["cloister"].items() if who is None]
            for dest in dests:
                if effects.send_refusal(s, seat, nov, m, dest, discount) is not None:
                    continue
                base = {"novice": nov, "monastery": m, "to": dest}
                if s["cat"]["buildings"].get(dest, {}).get("type") == "hall":
                    tiles = moves.glass_params(s, seat, [m])
                    out += [dict(base, **t) for t in tiles] or [base]
                else:
                    out.append(base)
    return out


@pytest.mark.parametrize("n,seed", [(2, 3), (3, 11), (4, 5)])
def test_sends_are_the_plain_enumeration(n, seed):
    s = new_game(n, seed=seed)
    rnd = random.Random(seed)
    offered = taken = 0
    while not GAME.is_over(s):
        if rnd.random() < 0.3:
            for seat in s["seats"]:
                for discount in (0, 1, 2):
                    got = moves.sends(s, seat, discount)
                    assert got == plain_sends(s, seat, discount)
                    offered += len(got)
                takes = [c.action for c in choices._takes(s, seat)]
                assert [(a["space"], a["dice"]) for a in takes] == plain_takes(s, seat)
                taken += len(takes)
                extra = [f"extra:{r}" for r in state.ROWS] + ["I:zz", "bad"]
                assert moves.sends(s, seat, novices=extra) == plain_sends(s, seat,
                                                                          novices=extra)
        s, _ = GAME.apply(s, GAME.random_action(s, rnd))
    assert offered > 50 and taken > 50  # (the comparisons said something)


def plain_takes(s, seat) -> list:
    out = []
    for space in range(1, 7):
        can = state.takeable(s, seat, space)
        ordered = ([d for d in can if s["dice"][d]["owner"] == seat] +
                   [d for d in can if s["dice"][d]["owner"] is None])
        for k in range(1, min(1 if space == 6 else 3, len(ordered)) + 1):
            out += [(space, ordered[:k])] * (len(state.COLUMNS) if space == 6 else 1)
    return out

"""The phone offers every legal decision, and nothing illegal (issue 34).

At positions of random legal games, the decision owed is compared with a brute force: every
action of a domain wider than the rules allow (every face, space, set of dice on a space,
column, resource, novice x monastery x place, glass tile) is tried with `GAME.apply`. The
outcomes (the states after) of those carried out must be exactly the outcomes of the choices
offered: an action may name parameters its effect does not read (a `use` of a column that
gains a rosary, with a novice named), so outcomes are compared, not parameter sets. A
reroll is offered once, with all the seat's dice: the phone lets the player pick which (any
non-empty subset is legal, checked here)."""
from __future__ import annotations

import json
import random
from itertools import combinations

import pytest

from engine.api import Refused
from engine.monasterium import GAME, state
from engine.monasterium.choices import choices, whose_turn
from tests.engine.monasterium.helpers import new_game
from tests.engine.random_play import every_kth_position

SIMPLE_BONUS = ("influence", "rosary", "soup", "soup_tool", "tool_book", "none")


def _tiles(s) -> list[dict]:
    return [{"monastery": m, "row": row, "bonus": b} for m in s["mon"] for row in range(-1, 5)
            for b in ("row", "column")]


def _sends(s, seat) -> list[dict]:
    p = s["players"][seat]  # the seat's novices, its extra novices and one it does not have
    novices = [f"{r}:{c}" for r in state.ROWS for c in p["novices"][r]] + \
        [f"extra:{r}" for r in state.ROWS] + ["I:Z"]
    out = []
    for m, mon in s["mon"].items():
        for dest in [*mon["buildings"], "chapel", *mon["cloister"]]:
            for nov in novices:
                base = {"novice": nov, "monastery": m, "to": dest}
                out.append(base)
                if s["cat"]["buildings"].get(dest, {}).get("type") == "hall":
                    out += [dict(base, **t) for t in _tiles(s) if t["monastery"] == m]
    return out


def _params(s, seat) -> list[dict]:
    """Every parameter set a `use` could carry."""
    out = [{}]
    out += [{"item": i} for i in state.RES]
    out += [{"from": a, "to": b} for a in state.RES for b in state.RES if a != b]
    out += _tiles(s)
    out += _sends(s, seat)
    return out


def domain(s, seat) -> list[dict]:
    if seat == "table":
        return [{"type": "roll", "by": "table"}]
    a: list[dict] = [{"type": "place", "face": f} for f in range(0, 8)]
    a += [{"type": "lose", "die": d} for d in s["dice"]]
    for space in range(1, 7):
        here = sorted(d for d, x in s["dice"].items() if x["at"] == "space" and x["face"] == space)
        for k in range(1, min(4, len(here)) + 1):
            for dice in combinations(here, k):
                if space == 6:
                    a += [{"type": "take", "space": 6, "dice": list(dice), "column": c}
                          for c in state.COLUMNS]
                else:
                    a.append({"type": "take", "space": space, "dice": list(dice)})
    a += [{"type": "extra_die", "take": t} for t in (True, False)]
    a += [{"type": "bonus", "choice": c} for c in SIMPLE_BONUS]
    a += [{"type": "bonus", "choice": "tile", **t} for t in _tiles(s)]
    a += [{"type": "extra_novice", "forfeit": True}]
    pend = s["pending"][0] if s["pending"] else None
    if pend and pend["kind"] == "extra_novice":
        a += [{"type": "extra_novice", **x} for x in _sends(s, seat)]
    if s["turn"] is not None or (pend and pend["kind"] == "extra_action"):
        die = None if pend else s["turn"]["dice"][0]
        cols = list(state.COLUMNS) if die is None else [None]
        params_all = _params(s, seat)
        for act in ("std", "I", "II", "III", "IV"):  # IV: no such action
            for col in cols:
                for params in params_all if act != "IV" else [{}]:
                    use = {"type": "use", "die": die, "act": act, **params}
                    if col:
                        use["column"] = col
                    a.append(use)
    return [{**x, "by": seat} for x in a]


def outcome(s, action) -> str:
    """The state after ``action``, with neutral dice told apart only by where they lie and
    their face: taking neutral die n6 or n4 from the same space is the same move."""
    after, _events = GAME.apply(s, action)
    out = {k: v for k, v in after.items() if k not in ("cat", "dice", "turn")}

    def name(d):
        return d if after["dice"][d]["owner"] else "neutral"

    out["dice"] = sorted(json.dumps([name(d), x["at"], x["face"], x["owner"] and x["holder"]])
                         for d, x in after["dice"].items())
    if after["turn"] is not None:
        out["turn"] = {**after["turn"], "dice": [name(d) for d in after["turn"]["dice"]]}
    return json.dumps(out, sort_keys=True)


def legal(s, seat) -> set[str]:
    out = set()
    for action in domain(s, seat):
        try:
            out.add(outcome(s, action))
        except Refused:
            continue
    return out


def positions(n: int, seed: int, every: int):
    return every_kth_position(GAME, new_game(n, seed=seed), random.Random(seed), every)


@pytest.mark.parametrize("n,seed", [(2, 4), (3, 9), (4, 2)])
def test_every_legal_decision_is_offered_and_nothing_else(n, seed):
    kinds = set()
    for s in positions(n, seed, every=9):
        seat = whose_turn(s)
        menu = choices(s, seat)
        rerolls = [c.action for c in menu if c.action["type"] == "reroll"]
        offered = {outcome(s, c.action) for c in menu if c.action["type"] != "reroll"}
        found = legal(s, seat)
        assert offered == found, (s["phase"], seat, len(offered - found), len(found - offered))
        for r in rerolls:  # any non-empty subset of the seat's dice may be rerolled
            for k in (1, len(r["dice"])):
                GAME.apply(s, dict(r, dice=r["dice"][:k]))
        kinds |= {c.action["type"] for c in menu}
    assert {"place", "take", "use", "roll"} <= kinds  # the positions reached each decision

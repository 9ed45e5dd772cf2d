"""What a phone shows beside a choice is what the choice then does (issue 51), and the table
is offered every legal step at its boundaries.

At positions of random legal games every seat's offered choices are carried out with
`GAME.apply`: the cost shown leaves the seat's holdings, the effect shown arrives, the build
VP a market choice forecasts is the best build VP the seat then has, and a build gives the
VP and leaves the gold it showed. The table's offers at every step of those games are
compared with every table action of the catalog tried with `apply`; the games walk each
round's preparation down to exactly one craftsman left for Shiring and for the supply, and
to none."""
from __future__ import annotations

import copy
import json
import random

import pytest

from engine.api import Refused
from engine.pillars import GAME, state
from engine.pillars.advisor import best_allocation
from engine.pillars.choices import choices, random_action
from engine.pillars.flow import prep_missing
from engine.pillars.options import OPTIONS
from engine.pillars.prompts import prompts
from tests.engine.pillars.helpers import new_game
from tests.engine.random_play import every_kth_position

GAMES = [(2, 3), (3, 11), (4, 5), (4, 29)]


def positions(n: int, seed: int, every: int = 1):
    rnd = random.Random(seed)
    options = {name: rnd.choice(allowed) for name, (_d, allowed, *_r) in OPTIONS.items()}
    return every_kth_position(GAME, new_game(n, seed=seed, options=options), rnd, every)


def holdings(s, seat) -> dict:
    p = s["players"][seat]
    return {**p["cubes"], "gold": p["gold"], "vp": p["vp"]}


def moved(before: dict, after: dict) -> dict:
    return {k: after[k] - before[k] for k in before if after[k] != before[k]}


def shown_change(choice) -> dict:
    """The change to the seat's holdings a choice's cost and effect say (items only)."""
    items = set(state.CUBES) | {"gold", "vp"}
    out: dict = {}
    for k, n in choice.cost.items():
        if k in items:
            out[k] = out.get(k, 0) - n
    for k, n in choice.effect.items():
        if k in items and k != "vp":
            out[k] = out.get(k, 0) + n
    return {k: n for k, n in out.items() if n}


def check_preview(s, seat, choice, seen: set) -> None:
    a = choice.action
    kind = a["type"]
    new, _ev = GAME.apply(s, a)
    before, after = holdings(s, seat), holdings(new, seat)
    if kind == "build":
        # the VP gained and the gold left, and the cubes (and gold) used leave
        assert after["vp"] - before["vp"] == choice.effect["vp"], a
        assert after["gold"] == choice.effect["gold"], a
        for cube in state.CUBES:
            assert before[cube] - after[cube] == choice.cost.get(cube, 0), a
        seen.add("build")
        return
    if kind in ("buy", "sell", "leave_market"):
        # the forecast: the best build the seat has once the trade is done
        assert best_allocation(new, seat)["vp"] == choice.effect["build_vp"], a
        seen.add(kind)
    if kind == "bishop_choice" and a["choice"] == "cube":
        # (the round then runs on: the bishop's gain is the one from the bishop)
        gains = [(e["item"], e["amount"]) for e in _ev if e["type"] == "gain"
                 and e.get("seat") == seat and e.get("source") == "bishop"]
        assert gains == list(choice.effect.items()), (a, gains)
        seen.add(kind)
    if kind in ("buy", "sell", "take_craftsman"):
        # paid and received at once
        assert moved(before, after) == shown_change(choice), (a, choice.cost, choice.effect)
        seen.add(kind)
    if kind == "place":
        # the space taken, at the location shown, for the gold shown
        assert new["spaces"].get(a["space"]) == seat, a
        assert a["space"] in state.spaces_of(s, choice.effect["location"]), a
        # (the gold due: a seat short of it pays what it has and VP for the rest, where
        # placement_needs_gold is off)
        due = [e["due"] for e in _ev if e["type"] == "paid" and e["seat"] == seat]
        assert sum(due) == choice.cost.get("gold", 0), (a, due)
        assert before["gold"] - after["gold"] == min(before["gold"], sum(due)), a
        seen.add(kind)
    if kind == "discard_craftsman":
        assert choice.effect["removed"] == a["card"]
        assert a["card"] not in new["players"][seat]["craftsmen"], a
        seen.add(kind)
    if kind == "refuse_draw":
        assert new["arch"]["bag"][choice.effect["back_to_bag"]] \
            == s["arch"]["bag"][choice.effect["back_to_bag"]] + 1, a
        seen.add(kind)
    if kind == "use_exemption":
        assert after["gold"] - before["gold"] == choice.effect["gold"], a
        seen.add(kind)
    if kind == "take_material":
        took = new["players"][seat]
        card = s["cat"]["materials"][a["card"]]
        assert state.workers_free(s, seat) - state.workers_free(new, seat) \
            == choice.cost["workers"] == card["workers"], a
        assert a["card"] in took["materials"], a
        assert choice.effect[card["cube"]] == card["yield"], a
        # the workers left for the mill: those still free after this card
        assert choice.effect["mill"] == state.workers_free(new, seat), a
        seen.add(kind)
    if kind == "pass" and s["phase"] == "draft":
        assert choice.effect["mill"] == state.workers_free(s, seat), a


@pytest.mark.parametrize("n,seed", GAMES)
def test_every_preview_is_what_the_choice_does(n, seed):
    seen: set = set()
    for s in positions(n, seed, every=3):
        for seat in s["seats"]:
            for choice in choices(s, seat):
                if choice.refused is None:
                    check_preview(s, seat, choice, seen)
                elif choice.action["type"] in ("buy", "sell", "take_material",
                                               "take_craftsman"):
                    # a refused trade or card: the reason shown is the one it gets
                    with pytest.raises(Refused) as e:
                        GAME.apply(s, choice.action)
                    assert e.value.to_json() == choice.refused, choice.action
                    seen.add("refused")
    assert seen >= {"build", "buy", "sell", "leave_market", "take_craftsman",
                    "take_material", "refused", "place"}, seen


def _key(action) -> str:
    return json.dumps(action, sort_keys=True)


def table_domain(s) -> list[dict]:
    """Every table step of the catalog, legal or not."""
    cat = s["cat"]
    crafts = sorted({c for cards in cat["craftsmen_by_round"].values() for c in cards})
    out = [{"type": "deal"}]
    out += [{"type": "reveal_privilege", "card": c} for c in cat["deck_privileges"]]
    out += [{"type": "reveal_craftsman", "card": c, "to": to} for c in crafts
            for to in ("shiring", "supply")]
    out += [{"type": "reveal_material", "card": c} for c in cat["materials"]]
    out += [{"type": "draw_architect", "seat": x} for x in s["seats"]]
    out += [{"type": "reveal_event", "card": c} for c in cat["events"]]
    out += [{"type": "roll_tax", "face": f} for f in range(0, 8)]
    return [{**a, "by": "table"} for a in out]


def legal_table(s) -> set[str]:
    out = set()
    for a in table_domain(s):
        try:
            GAME.apply(s, a)
        except Refused:
            continue
        out.add(_key(a))
    return out


@pytest.mark.parametrize("n,seed", [(2, 3), (4, 5)])
def test_the_table_is_offered_every_legal_step_down_to_the_last(n, seed):
    seen: set = set()
    for s in positions(n, seed):
        offered = {_key(c.action) for c in choices(s, "table") if c.refused is None}
        if not offered and s["phase"] != "prep":
            continue
        # (the table may reveal its cards in any order: apply takes a craftsman while the
        # privileges are still owed; the menu offers the step owed now, all of its values)
        types = {json.loads(k)["type"] for k in offered}
        legal = {k for k in legal_table(s) if json.loads(k)["type"] in types}
        assert offered == legal, (s["phase"], offered ^ legal)
        if s["phase"] == "prep" and s["pending"] is None:
            m = prep_missing(s)
            for where in ("shiring", "supply_craftsman"):
                seen.add((where, min(m[where], 2)))
    # each place for a craftsman met with two or more, exactly one and none still to fill
    assert seen >= {(w, k) for w in ("shiring", "supply_craftsman") for k in (0, 1, 2)}, seen


def at_market(seed: int = 3):
    """The first market decision of a random game, as a copy free to arrange."""
    for s in positions(2, seed):
        if s["phase"] == "market" and s["pending"] is None:
            return copy.deepcopy(s)
    raise AssertionError("no market decision")


def test_buying_the_one_cube_a_craftsman_still_needs_forecasts_its_vp():
    # The glassblower (3) turns 1 metal + 1 sand into 4 VP, once a round. A seat with that
    # craftsman alone, 1 metal and no sand: no build now (0 VP); one sand bought makes 4 VP,
    # a second one nothing more; a stone nothing at all.
    s = at_market()
    seat = s["active"]
    p = s["players"][seat]
    p["craftsmen"] = ["glassblower_3"]
    p["cubes"] = {c: 0 for c in p["cubes"]} | {"metal": 1}
    p["gold"] = 12
    s["market"].update(sand=2, stone=2)
    menu = {(c.action["type"], c.action.get("cube"), c.action.get("amount")): c
            for c in choices(s, seat) if c.refused is None}
    assert menu["leave_market", None, None].effect["build_vp"] == 0
    assert menu["buy", "sand", 1].effect["build_vp"] == 4
    assert menu["buy", "sand", 2].effect["build_vp"] == 4
    assert menu["buy", "stone", 1].effect["build_vp"] == 0
    for key in (("buy", "sand", 1), ("buy", "stone", 1)):
        new, _ = GAME.apply(s, menu[key].action)
        assert best_allocation(new, seat)["vp"] == menu[key].effect["build_vp"]


def test_a_random_action_answers_either_of_two_prompts():
    """`random_action` (property tests, the bench) plays the second of two decisions owed at
    once now and then (the start player's refusal beside the drawn seat's placement), so
    random games walk both."""
    for s in positions(3, 11):
        ps = prompts(s)
        if len(ps) == 2 and ps[0].seat != ps[1].seat:
            break
    else:
        raise AssertionError("no position with two decisions owed")
    by = {random_action(s, random.Random(i))["by"] for i in range(200)}
    assert by == {ps[0].seat, ps[1].seat}

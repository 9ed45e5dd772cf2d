"""The host's corrections move exactly what they say, and the app's chance draws offer exactly
the cards still in the game (issue 34: mutants of these rules went unnoticed)."""
from __future__ import annotations

import pytest

from engine.api import Refused
from engine.pillars import GAME, rules
from tests.engine.pillars.helpers import act, new_game, t

HOST = {"type": "adjust", "by": "host", "seat": "N"}


def _held(s, item):
    p = s["players"]["N"]
    return p[item] if item in ("gold", "vp") else p["cubes"][item]


@pytest.mark.parametrize("item", ["gold", "vp", "wood", "metal"])
@pytest.mark.parametrize("delta", [1, 2, -1, rules.ADJUST_MAX])
def test_the_host_form_moves_an_item_by_exactly_its_delta(item, delta):
    """The shared host page sends `item` + `delta`: the seat's count moves by `delta`, the
    supply (cubes) by its opposite, and the event says the same number."""
    s = new_game(2)
    if item in rules.CUBES:
        s["players"]["N"]["cubes"][item] = 2  # the supply keeps at least ADJUST_MAX + 1
    if item == "gold":
        s["players"]["N"]["gold"] = 10
    before = _held(s, item)
    sites = dict(s["sites"])
    after, events = act(s, {**HOST, "item": item, "delta": delta})
    assert _held(after, item) == before + delta
    if item in rules.CUBES:
        assert after["sites"][item] == sites[item] - delta
    assert [(e["item"], e["delta"]) for e in events if e["type"] == "adjusted"] == [
        (item, delta)]


def test_the_host_form_adds_to_a_named_field_of_the_same_item():
    """`gold: 2` and `item: gold, delta: 3` in one action: 5 in all, one event."""
    s = new_game(2)
    gold = s["players"]["N"]["gold"]
    after, events = act(s, {**HOST, "gold": 2, "item": "gold", "delta": 3})
    assert after["players"]["N"]["gold"] == gold + 5
    assert [e["delta"] for e in events if e["type"] == "adjusted"] == [5]


@pytest.mark.parametrize("delta", [0, rules.ADJUST_MAX + 1, -rules.ADJUST_MAX - 1, "1", None])
def test_a_host_form_delta_out_of_range_is_refused_and_changes_nothing(delta):
    s = new_game(2)
    with pytest.raises(Refused) as r:
        GAME.apply(s, {**HOST, "item": "gold", "delta": delta})
    assert r.value.code in ("adjust_out_of_range", "bad_field")
    assert s == new_game(2)


@pytest.mark.parametrize("start,goal,ok", [(5, 0, True), ("cap-3", "cap", True),
                                           (0, -1, False), ("cap-3", "cap+1", False)])
def test_the_host_may_set_gold_to_nothing_or_to_the_cap_and_no_further(start, goal, ok):
    # corrected down to exactly 0 or up to exactly the gold cap; one past either is refused
    s = new_game(2)
    cap = rules.board(s)["gold_cap"]
    start, goal = ({"cap-3": cap - 3, "cap": cap, "cap+1": cap + 1}.get(x, x)
                   for x in (start, goal))
    s["players"]["N"]["gold"] = start
    action = {**HOST, "item": "gold", "delta": goal - start}
    if ok:
        after, _ = act(s, action)
        assert after["players"]["N"]["gold"] == goal
    else:
        with pytest.raises(Refused) as r:
            GAME.apply(s, action)
        assert r.value.code == "adjust_out_of_range"


def _limit(s):
    return len(s["cat"]["deck_privileges"]) - rules.board(s)["privileges_removed"]


def test_the_deal_offers_only_privileges_left_in_the_game():
    """§5: `privileges_removed` cards of the deck are out of the game; once the rest have
    been seen, the app offers no privilege (it deals the craftsmen next)."""
    s = new_game(2)
    deck = s["cat"]["deck_privileges"]
    limit = _limit(s)
    assert 0 < limit < len(deck)
    s["seen"]["privileges"] = list(deck[:limit - 1])
    assert rules.deal_options(s) == [("reveal_privilege", list(deck[limit - 1:]))]
    s["seen"]["privileges"] = list(deck[:limit])
    kinds = [kind for kind, _values in rules.deal_options(s)]
    assert kinds == ["reveal_craftsman"]
    after, events = act(s, t("deal"))
    assert after["seen"]["privileges"] == list(deck[:limit]) and not after["kingsbridge"]
    assert [e["action"] for e in events if e["type"] == "dealt"] == ["reveal_craftsman"]
    with pytest.raises(Refused) as r:
        GAME.apply(s, t("reveal_privilege", card=deck[limit]))
    assert r.value.code == "deck_empty"


def test_the_table_is_offered_every_privilege_still_in_the_deck():
    s = new_game(2)
    deck = s["cat"]["deck_privileges"]
    s["seen"]["privileges"] = list(deck[:3])
    offered = {c.action["card"] for c in GAME.choices(s, "table")
               if c.action["type"] == "reveal_privilege" and c.refused is None}
    assert offered == set(deck[3:])


@pytest.mark.parametrize("delta,key", [(2, "gold+host"), (-3, "gold-host")])
def test_a_correction_is_booked_in_the_round_ledger_with_its_sign(delta, key):
    s = new_game(2)
    s["players"]["N"]["gold"] = 10
    after, _ = act(s, {**HOST, "item": "gold", "delta": delta})
    assert after["ledger"]["N"] == {key: abs(delta)}


def test_the_start_player_is_set_in_round_one_before_the_draft_only():
    s = new_game(2)
    assert s["round"] == 1 and s["phase"] == "prep"
    after, _ = act(s, {"type": "set_start_player", "by": "host", "seat": "E"})
    assert after["start"] == "E"
    for late in (dict(s, round=2), dict(s, round=0)):
        with pytest.raises(Refused) as e:
            GAME.apply(late, {"type": "set_start_player", "by": "host", "seat": "E"})
        assert e.value.code == "start_player_fixed"

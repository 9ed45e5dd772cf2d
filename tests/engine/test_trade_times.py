"""Trade offers taken several times at once (`times`, e.g. "up to 2 wool for 3 gold each")."""
from __future__ import annotations

from engine.wwe import GAME
from engine.wwe.catalog import validate
from tests.engine.wwe_helpers import (
    act,
    at,
    head,
    new_game,
    plain,
    refused,
    res,
    run_until,
    set_res,
)

OFFER = {"type": "trade", "give": {"wool": 1}, "get": {"gold": 3}, "times": 2}


def _offer(catalog, permanent=False, effect=OFFER):
    plain(catalog)
    card = next(c for c in catalog["event_cards"] if c["id"] == "demo_wool_trader")
    card["effects"], card["permanent"] = [dict(effect)], permanent
    return new_game(catalog, seats=("N", "E", "S"))


def test_immediate_trade_count_within_times_and_holdings(catalog):
    s = _offer(catalog)
    for seat in ("N", "E", "S"):
        set_res(s, seat, "wool", 2)
    s = act(s, type="reveal_event", by="table", card="demo_wool_trader")
    counts = [c.action.get("count") for c in GAME.choices(s, "N") if c.action["accept"]]
    assert counts == [1, 2]
    gold = res(s, "N")["gold"]
    r = refused(s, type="answer_trade", by="N", accept=True, count=3)
    assert (r.code, r.params) == ("too_many_trades", {"count": 3, "max": 2})
    assert refused(s, type="answer_trade", by="N", accept=True, count=0).code == "too_many_trades"
    assert refused(s, type="answer_trade", by="N", accept=True, count="2").code == "bad_params"
    assert refused(s, type="answer_trade", by="N", accept=True, count=True).code == "bad_params"
    s = act(s, type="answer_trade", by="N", accept=True, count=2)
    assert res(s, "N")["wool"] == 0 and res(s, "N")["gold"] == gold + 6
    # E holds only 1 wool: two trades are unaffordable, one is fine (count defaults to 1)
    set_res(s, "E", "wool", 1)
    r = refused(s, type="answer_trade", by="E", accept=True, count=2)
    assert (r.code, r.params) == ("cannot_afford", {"item": "wool", "need": 2, "have": 1})
    refusals = [c.refused for c in GAME.choices(s, "E") if c.action.get("count") == 2]
    assert refusals[0]["code"] == "cannot_afford"
    s = act(s, type="answer_trade", by="E", accept=True)
    assert res(s, "E")["wool"] == 0
    s = act(s, type="answer_trade", by="S", accept=False, count=5)  # count ignored on "no"
    assert res(s, "S")["wool"] == 2 and head(s)["kind"] == "orient_event"


def test_short_supply_refuses_the_count(catalog):
    s = _offer(catalog, effect={"type": "trade", "give": {"gold": 1}, "get": {"stone": 10},
                                "times": 3})
    set_res(s, "N", "gold", 3)
    assert s["supply"]["stone"] == 25
    s = act(s, type="reveal_event", by="table", card="demo_wool_trader")
    assert refused(s, type="answer_trade", by="N", accept=True,
                   count=3).code == "out_of_supply"
    s = act(s, type="answer_trade", by="N", accept=True, count=2)
    assert res(s, "N")["stone"] == 20 and s["supply"]["stone"] == 5


def test_permanent_trade_times_once_per_round(catalog):
    s = _offer(catalog, permanent=True)
    set_res(s, "N", "wool", 3)
    s = act(s, type="reveal_event", by="table", card="demo_wool_trader")
    s = run_until(s, at("play_card"))
    assert head(s)["seat"] == "N"
    counts = [c.action.get("count") for c in GAME.choices(s, "N")
              if c.action["type"] == "answer_trade"]
    assert counts == [1, 2]
    assert refused(s, type="answer_trade", by="N", card="demo_wool_trader", accept=True,
                   count=3).code == "too_many_trades"
    s = act(s, type="answer_trade", by="N", card="demo_wool_trader", accept=True, count=2)
    assert res(s, "N")["wool"] == 1
    assert refused(s, type="answer_trade", by="N", card="demo_wool_trader", accept=True,
                   count=1).code == "no_trade_offer"


def test_validator_checks_times(catalog):
    card = next(c for c in catalog["event_cards"] if c["id"] == "demo_wool_trader")
    for bad in (0, 11, "2", True):
        card["effects"] = [dict(OFFER, times=bad)]
        found = {(p["entry"], p["field"], p["code"]) for p in validate(catalog)}
        assert any(f[0] == "demo_wool_trader" and f[1] == "effects[0].times" for f in found), bad
    card["effects"] = [dict(OFFER)]
    assert not [p for p in validate(catalog) if p["entry"] == "demo_wool_trader"]

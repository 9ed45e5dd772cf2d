"""Every worked example of the rules reference §13 (P-EX1…P-EX11, P-D1…P-D14) as a test."""
from __future__ import annotations

import pytest

from engine.api import Refused
from engine.pillars import GAME, flow, resolution, state
from engine.pillars.advisor import best_allocation, outcome
from tests.engine.pillars.helpers import act, by, layout, new_game, position, t


def to_architects(n=4, **kw):
    """A game in round 1 Phase II: cards laid out, everybody passed the draft."""
    s = new_game(n, **kw)
    s, _ = layout(s, privileges=["gold_8", "vp_2"])
    for seat in state.order_from(s, s["start"]):
        s, _ = act(s, by(seat, "pass"))
    assert s["phase"] == "architects"
    return s


def at_build(s, seat, craftsmen, cubes, gold=10):
    s = position(s, "build", active=seat, queue=[seat], pending=None)
    p = s["players"][seat]
    p["craftsmen"] = list(craftsmen)
    for c in state.CUBES:
        s["sites"][c] += p["cubes"][c] - cubes.get(c, 0)
        p["cubes"][c] = cubes.get(c, 0)
    p["gold"] = gold
    return s


# ---- 13.1 examples given in the source ------------------------------------------------------

def test_p_ex1_starting_gold_four_players():
    s = new_game(4, start="N")
    assert [s["players"][x]["gold"] for x in "NESW"] == [20, 21, 22, 23]
    assert all(p["vp"] == 2 for p in s["players"].values())
    assert GAME.public_view(s)["start"] == "N"
    s2 = new_game(4, start="S")
    assert [s2["players"][x]["gold"] for x in "SWNE"] == [20, 21, 22, 23]


def test_p_ex2_passing_on_the_cost_wheel():
    s = to_architects()
    assert state.draw_cost(s) == 7
    gold = s["players"]["E"]["gold"]
    s, ev = act(s, t("draw_architect", seat="E"), by("E", "pass_architect"))
    assert state.draw_cost(s) == 6
    assert s["arch"]["wheel"] == ["E"]
    assert s["players"]["E"]["gold"] == gold
    assert {"type": "architect_passed", "seat": "E", "cost": 7} in ev


def test_p_ex3_order_of_deferred_placements():
    s = to_architects(2)
    g = {x: s["players"][x]["gold"] for x in "NE"}
    s, _ = act(s, t("draw_architect", seat="N"), by("N", "pass_architect"),
               t("draw_architect", seat="E"), by("E", "pass_architect"),
               t("draw_architect", seat="N"), by("N", "pass_architect"),
               t("draw_architect", seat="E"), by("E", "place", space="prior1"),
               t("draw_architect", seat="N"), by("N", "place", space="castle1"),
               t("draw_architect", seat="E"), by("E", "place", space="market1"))
    assert s["phase"] == "deferred"
    assert s["players"]["N"]["gold"] == g["N"] - 3
    assert s["players"]["E"]["gold"] == g["E"] - 4 - 2
    order = []
    for space in ("prior2", "market2", "court1"):
        order.append(s["active"])
        s, _ = act(s, by(s["active"], "place", space=space))
    assert order == ["N", "E", "N"]
    assert s["players"]["N"]["gold"] == g["N"] - 3  # free
    assert s["phase"] == "event"


def test_p_ex4_cost_sequence_four_players():
    s = to_architects(4)
    costs = []
    seats = ["N", "E", "S", "W"] * 3
    for i, seat in enumerate(seats):
        s, _ = act(s, t("draw_architect", seat=seat))
        costs.append(state.draw_cost(s))
        marker = s["arch"]["marker"]
        if costs[-1] and i % 2 == 0:
            s, _ = act(s, by(seat, "pass_architect"))
        else:
            s, _ = act(s, by(seat, "place", space=state.free_spaces(s, seat)[0]))
        assert s["arch"]["marker"] == marker + 1
    assert costs == [7, 6, 5, 4, 3, 2, 1, 0, 0, 0, 0, 0]


def market_position():
    s = new_game(2)
    s = position(s, "market", active="N", market_open=["N", "E"], market_turn=0,
                 market_spaces=["market1", "market2"],
                 spaces={"market1": "N", "market2": "E"}, queue=[])
    green, red = s["players"]["N"], s["players"]["E"]
    green["gold"], green["cubes"]["metal"] = 7, 1
    red["gold"], red["cubes"]["stone"] = 2, 1
    s["sites"]["metal"] -= 1
    s["sites"]["stone"] -= 1
    s["market"] = {"wood": 4, "stone": 4, "sand": 4}
    return s


def test_p_ex5_market_trading():
    s = market_position()
    quarry, metal_pool = s["sites"]["stone"], s["sites"]["metal"]
    s, _ = act(s, by("N", "buy", cube="wood", amount=2))
    assert s["players"]["N"]["gold"] == 1 and s["market"]["wood"] == 2
    s, _ = act(s, by("E", "sell", cube="stone", amount=1))
    assert s["players"]["E"]["gold"] == 6 and s["sites"]["stone"] == quarry + 1
    assert s["market"]["stone"] == 4
    s, _ = act(s, by("N", "sell", cube="metal", amount=1))
    assert s["players"]["N"]["gold"] == 6 and s["sites"]["metal"] == metal_pool + 1
    s, _ = act(s, by("E", "buy", cube="wood", amount=2))
    assert s["players"]["E"]["gold"] == 0 and s["market"]["wood"] == 0
    s, _ = act(s, by("N", "buy", cube="sand", amount=3))
    assert s["players"]["N"]["gold"] == 0 and s["market"]["sand"] == 1
    for seat in "NE":
        r = resolution.market_refusal(s, seat, "sell", "wood", 1)
        assert r is not None and r.code == "sell_after_buy"
    with pytest.raises(Refused) as e:
        GAME.apply(s, by("E", "sell", cube="wood", amount=1))
    assert e.value.code == "sell_after_buy"
    s, _ = act(s, by("E", "leave_market"))
    assert s["active"] == "N"
    s, _ = act(s, by("N", "leave_market"))
    assert s["phase"] == "build"
    g, r = s["players"]["N"], s["players"]["E"]
    assert (g["gold"], g["cubes"]["wood"], g["cubes"]["sand"], g["cubes"]["metal"]) == (0, 2, 3, 0)
    assert (r["gold"], r["cubes"]["wood"], r["cubes"]["stone"]) == (0, 2, 0)
    assert s["market"] == {"stone": 4, "wood": 0, "sand": 1}


def test_p_ex6_conversion_at_the_cathedral():
    crafts = ["potter_1", "mortar_mixer_blue", "stone_carver_blue", "structural_engineer_1",
              "toolmaker_1"]
    s = at_build(new_game(2), "N", crafts, {"sand": 5, "stone": 3, "metal": 1}, gold=10)
    uses = {"potter_1": 1, "mortar_mixer_blue": 1, "stone_carver_blue": 1,
            "structural_engineer_1": 1, "toolmaker_1": 1}
    assert best_allocation(s, "N")["vp"] == 5
    vp0 = s["players"]["N"]["vp"]
    s, _ = act(s, by("N", "build", uses=uses))
    p = s["players"]["N"]
    assert p["vp"] == vp0 + 5 and p["gold"] == 12
    assert p["cubes"] == {"wood": 0, "stone": 1, "sand": 0, "metal": 1}


def test_p_ex7_carpenter_capacity():
    s = at_build(new_game(2), "N", ["carpenter_blue"], {"wood": 10})
    with pytest.raises(Refused) as e:
        GAME.apply(s, by("N", "build", uses={"carpenter_blue": 5}))
    assert e.value.code == "over_capacity"
    assert best_allocation(s, "N")["vp"] == 4
    s, _ = act(s, by("N", "build", uses={"carpenter_blue": 4}))
    assert s["players"]["N"]["cubes"]["wood"] == 2
    assert s["players"]["N"]["vp"] == 2 + 4


def test_p_ex8_stone_craftsmen_compared():
    s = at_build(new_game(2), "N", ["stone_carver_blue", "mason_1", "sculptor_2",
                                    "mortar_mixer_blue"], {"stone": 4})
    assert outcome(s, "N", {"stone_carver_blue": 1})[::2] == (1, {"stone": 2})
    assert outcome(s, "N", {"mason_1": 1})[::2] == (1, {"stone": 1})
    assert outcome(s, "N", {"sculptor_2": 1})[::2] == (2, {"stone": 1})


def test_p_ex9_goldsmith():
    s = at_build(new_game(2), "N", ["goldsmith_3"], {}, gold=12)
    s, _ = act(s, by("N", "build", uses={"goldsmith_3": 4}))
    assert s["players"]["N"]["gold"] == 0 and s["players"]["N"]["vp"] == 6


def test_p_ex10_master_carpenter():
    s = at_build(new_game(2), "N", ["master_carpenter_2"], {"wood": 3}, gold=25)
    with pytest.raises(Refused):
        GAME.apply(s, by("N", "build", uses={"master_carpenter_2": 3}))
    s, ev = act(s, by("N", "build", uses={"master_carpenter_2": 2}))
    assert s["players"]["N"]["gold"] == 30 and s["players"]["N"]["cubes"]["wood"] == 1
    assert {"type": "gold_lost_cap", "seat": "N", "amount": 3} in ev


def test_p_ex11_toolmaker_then_consumption():
    s = at_build(new_game(2), "N", ["toolmaker_1", "bell_founder_3"], {"metal": 1}, gold=5)
    s, _ = act(s, by("N", "build", uses={"toolmaker_1": 1, "bell_founder_3": 1}))
    p = s["players"]["N"]
    assert p["gold"] == 7 and p["vp"] == 2 + 5 and p["cubes"]["metal"] == 0


# ---- 13.2 derived cases -----------------------------------------------------------------------

def at_tax(gold, seat="N", court=None):
    s = new_game(2)
    s = position(s, "tax", spaces={"court1": court} if court else {}, queue=[])
    s["players"][seat]["gold"] = gold
    return s


@pytest.mark.parametrize("name,face,gold,gold_after,vp_lost", [
    ("P-D1 tax shortfall", 5, 2, 0, 1),
    ("P-D2 tax shortfall, no gold", 4, 0, 0, 2),
    ("P-D3 odd unpaid amount", 3, 2, 0, 0),
])
def test_p_d1_d3_tax_shortfall(name, face, gold, gold_after, vp_lost):
    s = at_tax(gold)
    s, _ = act(s, t("roll_tax", face=face))
    assert s["players"]["N"]["gold"] == gold_after
    assert s["players"]["N"]["vp"] == 2 - vp_lost


def test_p_d1_court_architect_pays_no_tax():
    s = at_tax(2, court="N")
    s, ev = act(s, t("roll_tax", face=5))
    assert s["players"]["N"]["gold"] == 2 and s["players"]["N"]["vp"] == 2
    assert s["players"]["N"]["cubes"]["metal"] == 1


def at_event(gold, bishop=None):
    s = new_game(2)
    s = position(s, "event", spaces={"bishop1": bishop} if bishop else {})
    s["players"]["N"]["gold"] = gold
    return s


def test_p_d4_four_gold_event():
    s = at_event(1)
    s, _ = act(s, t("reveal_event", card="pay_4_gold"))
    assert s["players"]["N"]["gold"] == 0 and s["players"]["N"]["vp"] == 1


def test_p_d5_bishop_protection():
    s = at_event(1, bishop="N")
    s, _ = act(s, t("reveal_event", card="pay_4_gold"))
    assert s["phase"] == "bishop" and GAME.prompts(s)[0].kind == "bishop_choice"
    prot, _ = act(s, by("N", "bishop_choice", choice="protect"))
    assert prot["players"]["N"]["gold"] == 1 and prot["players"]["N"]["vp"] == 2
    assert sum(prot["players"]["N"]["cubes"].values()) == 0
    cube, _ = act(s, by("N", "bishop_choice", choice="cube", cube="sand"))
    assert cube["players"]["N"]["gold"] == 0 and cube["players"]["N"]["vp"] == 1
    assert cube["players"]["N"]["cubes"]["sand"] == 1 and cube["market"]["sand"] == 3


def test_p_d6_gold_cap_at_the_mill():
    s = at_event(27)
    s["players"]["N"]["mill"] = 5
    s, ev = act(s, t("reveal_event", card="gift_vp_1"))
    assert s["players"]["N"]["gold"] == 30
    assert {"type": "gold_lost_cap", "seat": "N", "amount": 2} in ev


def test_p_d7_cap_on_a_sale():
    s = market_position()
    s["players"]["N"]["gold"] = 28
    s, ev = act(s, by("N", "sell", cube="metal", amount=1))
    assert s["players"]["N"]["gold"] == 30
    assert {"type": "gold_lost_cap", "seat": "N", "amount": 3} in ev


def test_p_d8_storage_limit():
    s = at_build(new_game(2), "N", [], {"wood": 4, "stone": 2, "metal": 1})
    s, _ = act(s, by("N", "build", uses={}))
    assert s["phase"] == "store" and GAME.prompts(s)[0].params["excess"] == 2
    with pytest.raises(Refused) as e:
        GAME.apply(s, by("N", "return_cubes", cubes={"wood": 1}))
    assert e.value.code == "return_exactly"
    wood_site = s["sites"]["wood"]
    # a form that names a cube with 0 (the phone's counters start at 0) returns none of it
    zero, _ = act(s, by("N", "return_cubes", cubes={"wood": 1, "stone": 0, "metal": 1}))
    assert zero["players"]["N"]["cubes"]["stone"] == 2
    with pytest.raises(Refused):
        GAME.apply(s, by("N", "return_cubes", cubes={"wood": 3, "stone": -1}))
    s, _ = act(s, by("N", "return_cubes", cubes={"wood": 1, "metal": 1}))
    assert state.storage_count(s, "N") == 5 and s["sites"]["wood"] == wood_site + 1


def test_p_d9_craftsman_limit_at_shiring():
    s = new_game(2)
    s = position(s, "steps10", shiring=["mason_1", "potter_1"], spaces={"shiring1": "N"})
    s["players"]["N"]["craftsmen"] += ["sculptor_2", "goldsmith_3"]
    flow.advance(s, [])
    assert s["pending"] == {"kind": "discard_craftsman", "seat": "N"}
    assert len(s["players"]["N"]["craftsmen"]) == 6
    assert GAME.prompts(s)[0].kind == "discard_craftsman"
    s, _ = act(s, by("N", "discard_craftsman", card="mason_1"))
    assert "mason_1" not in s["players"]["N"]["craftsmen"] and "mason_1" in s["removed"]
    assert "potter_1" in s["removed"]  # unoccupied Shiring space


def test_p_d10_worker_requirement():
    s = new_game(2)
    s, _ = layout(s, privileges=["gold_8", "vp_2"])
    s, _ = act(s, by("N", "take_material", card="stone_3"), by("E", "pass"))
    assert state.workers_free(s, "N") == 4  # 12 units, 8 at the quarry
    with pytest.raises(Refused) as e:
        GAME.apply(s, by("N", "take_material", card="stone_2"))
    assert e.value.code == "not_enough_workers"
    s, _ = act(s, by("N", "pass"))
    assert s["players"]["N"]["mill"] == 4


def test_p_d11_cost_sequence_three_and_two_players():
    for n, want in ((3, [7, 6, 5, 4, 3, 2, 1, 0, 0]), (2, [7, 6, 5, 4, 3, 2])):
        s = to_architects(n)
        costs = []
        for seat in s["seats"] * 3:
            s, _ = act(s, t("draw_architect", seat=seat))
            costs.append(state.draw_cost(s))
            s, _ = act(s, by(seat, "place", space=state.free_spaces(s, seat)[0])
                       if costs[-1] == 0 or s["players"][seat]["gold"] < costs[-1]
                       else by(seat, "pass_architect"))
        assert costs == want
        if n == 2:
            assert state.draw_cost(s) == 0


def _finish_build(s):
    while s["phase"] == "build":
        s, _ = act(s, by(s["active"], "build", uses={}))
    return s


@pytest.mark.parametrize("cathedral,want", [(None, "S"), ("W", "W")])
def test_p_d12_start_player_change(cathedral, want):
    s = new_game(4, start="E")
    s = position(s, "build", active="E", queue=["E", "S", "W", "N"],
                 spaces={"cathedral1": cathedral} if cathedral else {})
    s = _finish_build(s)
    assert s["round"] == 2 and s["start"] == want


def test_p_d13_prior():
    s = at_event(10)
    s["spaces"] = {"prior1": "N", "prior2": "E"}
    s, _ = act(s, t("reveal_event", card="gift_gold_3"))
    assert s["players"]["N"]["vp"] == 4 and s["players"]["E"]["vp"] == 3


def test_p_d14_missing_craftsmen():
    s = market_position()
    s["players"]["N"]["craftsmen"] = ["mortar_mixer_blue"]
    s["players"]["N"]["cubes"]["stone"] = 1
    s["sites"]["stone"] -= 1
    for a, code in ((by("N", "sell", cube="stone", amount=1), "needs_craftsman"),
                    (by("N", "buy", cube="wood", amount=1), "needs_craftsman")):
        with pytest.raises(Refused) as e:
            GAME.apply(s, a)
        assert e.value.code == code
    b = at_build(new_game(2), "N", ["mason_1"], {"stone": 3})
    assert best_allocation(b, "N")["vp"] == 0
    with pytest.raises(Refused) as e:
        GAME.apply(b, by("N", "build", uses={"mason_1": 1}))
    assert e.value.code == "needs_craftsman"

"""Every worked example of the rules reference (monasterium.md §13: M-EX1…M-EX8 from the
source, M-D1…M-D12 derived), named after it."""
from __future__ import annotations

import json

import pytest

from engine.api import Refused
from engine.monasterium.scoring import breakdown
from tests.engine.monasterium.helpers import (
    GAME,
    act_phase,
    apply,
    building,
    new_game,
    res,
    road_to,
)


def test_m_ex1_placing_every_die_showing_the_number():
    s = new_game(4)
    assert sorted(x for x in s["dice"] if s["dice"][x]["holder"] == "N") == ["N1", "n1", "n2"]
    s, _ = apply(s, type="roll", by="table", faces={"n1": 1, "n2": 2, "N1": 2})
    s, ev = apply(s, type="place", by="N", face=2)
    assert {d: x["at"] for d, x in s["dice"].items() if x["holder"] == "N"} == \
        {"n1": "hand", "n2": "space", "N1": "space"}
    assert s["dice"]["n2"]["face"] == 2 and s["dice"]["N1"]["face"] == 2
    assert ev[0] == {"type": "dice_placed", "seat": "N", "space": 2, "count": 2}
    assert s["active"] == "E"  # then clockwise; the 1 is rolled again on N's next turn
    with pytest.raises(Refused) as no:
        apply(s, type="place", by="E", face=2)
    assert no.value.code == "roll_first"


def test_m_ex2_personal_dice_first_and_never_another_players():
    s = act_phase(new_game(4), "E", {"n1": 5, "n2": 5, "n3": 5, "N1": 5, "E1": 5})
    with pytest.raises(Refused) as first:
        apply(s, type="take", by="E", space=5, dice=["n1", "n2", "n3"])
    assert first.value.code == "personal_first"
    s, _ = apply(s, type="take", by="E", space=5, dice=["E1", "n1", "n2"])
    assert s["turn"] == {"dice": ["E1", "n1", "n2"], "col": "E"}  # column E: 3 actions
    t = act_phase(new_game(4), "S", {"n3": 5, "N1": 5})
    with pytest.raises(Refused) as other:
        apply(t, type="take", by="S", space=5, dice=["N1"])
    assert other.value.code == "not_your_die"
    t, _ = apply(t, type="take", by="S", space=5, dice=["n3"])
    assert t["turn"]["dice"] == ["n3"]


def test_m_ex3_access_by_messenger_or_chapel():
    from engine.monasterium.effects import access

    s = new_game(2)
    p = s["players"]["N"]
    p["road"] = 8  # the demo road: space 8 connects D and E
    assert access(s, "N", "D") and access(s, "N", "E") and not access(s, "N", "A")
    s["mon"]["A"]["chapel"].append("N")
    assert access(s, "N", "A")
    s = act_phase(s, "N", {"n1": 1})
    s, _ = apply(s, type="take", by="N", space=1, dice=["n1"])
    lay = building(s, "A", "lay")
    with pytest.raises(Refused) as chapel:
        apply(s, type="use", by="N", die="n1", act="std", novice="I:E", monastery="A",
              to="chapel")
    assert chapel.value.code == "wrong_row"
    before = dict(res(s, "N"))
    s, _ = apply(s, type="use", by="N", die="n1", act="std", novice="I:E", monastery="A",
                 to=lay)
    assert res(s, "N")["influence"] == before["influence"] - 1
    assert res(s, "N")["soup"] == before["soup"] - 2


def test_m_ex4_row_two_once_per_turn():
    s = act_phase(new_game(2), "N", {"n1": 5, "n2": 5, "n3": 5})
    s["players"]["N"]["novices"]["II"].remove("E")  # "+3 prestige" is open
    s, _ = apply(s, type="take", by="N", space=5, dice=["n1", "n2", "n3"])
    s, _ = apply(s, type="use", by="N", die="n1", act="II")
    assert s["players"]["N"]["prestige"] == 3
    with pytest.raises(Refused) as once:
        apply(s, type="use", by="N", die="n2", act="II")
    assert once.value.code == "once_per_turn"
    menu = GAME.choices(s, "N")
    assert {c.action["act"] for c in menu} == {"std"}  # the others go to other actions
    assert s["players"]["N"]["once"] == ["II:E"]


def test_m_ex5_the_ninth_tile_completes_a_row_and_column_three():
    from engine.monasterium.effects import glass

    s = new_game(2)
    w = s["players"]["N"]["window"]
    w[0] = ["A", "B", "C"]
    w[1] = ["B", "C", "A"]
    w[2] = ["C", "A", None]
    ev: list = []
    assert glass(s, "N", "D", 2, "column", ev)
    p = s["players"]["N"]
    assert p["res"]["book"] == 1  # column 3's bonus
    assert p["prestige"] == 9  # +5 row, +4 column 3


def test_m_ex6_and_d12_cloister_scoring():
    s = new_game(2)
    mon = s["mon"]["A"]
    mon["chapel"] = ["N", "N", "N"]
    for c in list(mon["cloister"])[:3]:
        mon["cloister"][c] = "N"
    assert breakdown(s)["N"]["cloisters"] == 18
    mon["chapel"] = []
    assert breakdown(s)["N"]["cloisters"] == 0  # M-D12: no chapel novice there
    mon["chapel"] = ["N"]
    mon["cloister"][list(mon["cloister"])[2]] = None
    assert breakdown(s)["N"]["cloisters"] == 4


@pytest.mark.parametrize("n,rounds", [(2, 6), (3, 9), (4, 12)])
def test_m_ex7_rounds_and_chalice(n, rounds):
    import random

    s = new_game(n, seed=3)
    rnd = random.Random(3)
    firsts = [s["first"]]
    while not s["over"]:
        s, ev = GAME.apply(s, GAME.random_action(s, rnd))
        firsts += [e["first"] for e in ev if e["type"] == "round_started"]
    assert len(firsts) == rounds
    for year in range(3):  # every player holds the chalice once a year
        assert sorted(firsts[year * n:(year + 1) * n]) == sorted(s["seats"])


@pytest.mark.parametrize("n,neutral,glass", [(2, 5, 4), (3, 3, 6), (4, 2, 8)])
def test_m_ex8_dice_glass_and_chapel_by_player_count(n, neutral, glass):
    s = new_game(n)
    for seat in s["seats"]:
        mine = [d for d, x in s["dice"].items() if x["holder"] == seat]
        assert sum(d.startswith("n") for d in mine) == neutral and f"{seat}1" in mine
    assert {m["glass"] for m in s["mon"].values()} == {glass}
    from engine.monasterium.effects import send_refusal

    s["mon"]["A"]["chapel"] = ["E"] * (2 * n)
    s["players"]["N"]["road"] = road_to(s, "A")
    assert send_refusal(s, "N", "III:A", "A", "chapel").code == "chapel_full"


def test_m_d1_chapel_set_and_d2_resources_and_d3_majority_tie():
    s = new_game(3)
    s["mon"]["A"]["chapel"] = ["N", "N"]
    s["mon"]["B"]["chapel"] = ["N"]
    s["mon"]["D"]["chapel"] = ["N"]
    s["players"]["N"]["res"] = {"tool": 3, "book": 2, "influence": 3, "soup": 2, "rosary": 2}
    got = breakdown(s)["N"]
    assert got["chapels"] == 6 and got["resources"] == 10
    t = new_game(3)
    mon = t["mon"]["C"]
    free = [b for b, who in mon["buildings"].items() if who is None]
    for b, who in zip(free, ["N", "N", "E", "E"], strict=False):
        mon["buildings"][b] = who
    mon["chapel"] = ["N", "E", "S", "S"]
    scores = breakdown(t)
    assert scores["N"]["majorities"] == 5 and scores["E"]["majorities"] == 5
    assert scores["S"]["majorities"] == 0


def test_m_d4_building_costs_and_the_discounted_send():
    s = act_phase(new_game(2), "N", {"n1": 1, "n2": 3})
    s["players"]["N"]["road"] = road_to(s, "B")
    s["players"]["N"]["res"].update(influence=3, tool=6, soup=2)
    s, _ = apply(s, type="take", by="N", space=1, dice=["n1"])
    s, _ = apply(s, type="use", by="N", die="n1", act="std", novice="II:C", monastery="B",
                 to=building(s, "B", "workshop"))
    p = s["players"]["N"]
    assert (p["res"]["influence"], p["res"]["tool"], p["res"]["book"], p["prestige"]) == \
        (2, 3, 1, 2)
    # row II column C is now open: "send paying 1 Influence less" (on N's next turn)
    assert s["active"] == "E"
    s["active"] = "N"
    s, _ = apply(s, type="take", by="N", space=3, dice=["n2"])
    s, _ = apply(s, type="use", by="N", die="n2", act="II", novice="II:A", monastery="B",
                 to=building(s, "B", "workshop"))
    assert s["players"]["N"]["res"]["influence"] == 2 and s["players"]["N"]["res"]["tool"] == 0


def test_m_d5_chapel_and_d6_cloister_cost_sequences():
    from engine.monasterium.effects import send_cost

    s = new_game(2)
    p = s["players"]["N"]
    chapel, discounted, cloister = [], [], []
    for k in range(5):
        p["chapel_sent"] = p["cloister_sent"] = k
        chapel.append(send_cost(s, "N", "III", "chapel", 0)["influence"])
        discounted.append(send_cost(s, "N", "III", "chapel", 1)["influence"])
        cloister.append(send_cost(s, "N", "IV", "A.cl1", 0)["rosary"])
    assert chapel == [1, 2, 3, 3, 3] and discounted == [0, 1, 2, 2, 2]
    assert cloister == [1, 2, 3, 3, 3]


def test_m_d7_a_tile_turning_yellow_scores_the_dice_on_it():
    s = act_phase(new_game(2), "N", {"n1": 1, "n2": 1, "n3": 1})
    s["players"]["N"]["road"] = road_to(s, "A")
    lay = building(s, "A", "lay")
    s["mon"]["A"]["buildings"][lay] = "N"
    cl = s["cat"]["buildings"][lay]["cloister"][0]
    s, _ = apply(s, type="take", by="N", space=1, dice=["n1", "n2", "n3"])
    s, ev = apply(s, type="use", by="N", die="n1", act="std", novice="IV:A", monastery="A",
                  to=cl)
    p = s["players"]["N"]
    assert p["yellow"] == ["A"] and p["prestige"] == 2  # the 2 dice still on the tile
    assert res(s, "N")["rosary"] == 0
    s, _ = apply(s, type="use", by="N", die="n2", act="std", novice="I:B", monastery="A",
                 to=building(s, "A", "lay"))
    assert s["players"]["N"]["prestige"] == 3  # the lay building's +1 only: no second point


def test_m_d8_the_last_road_space_gives_a_die_or_five_prestige():
    s = act_phase(new_game(2), "N", {"n1": 5})
    last = s["cat"]["road_length"]
    s["players"]["N"]["road"] = last - 1
    s, _ = apply(s, type="take", by="N", space=5, dice=["n1"])
    s, _ = apply(s, type="use", by="N", die="n1", act="std")
    assert s["pending"] == [{"seat": "N", "kind": "extra_die"}]
    s, _ = apply(s, type="extra_die", by="N", take=True)
    assert s["pending"][0]["kind"] == "roll_extra" and s["players"]["N"]["personal"] == 2
    s, _ = apply(s, type="roll", by="table", faces={"N2": 4})
    assert s["dice"]["N2"] == {"owner": "N", "holder": "N", "at": "space", "face": 4}
    t = act_phase(new_game(2), "N", {"n1": 5})
    t["players"]["N"]["road"], t["players"]["N"]["personal"] = last - 1, 3
    t, _ = apply(t, type="take", by="N", space=5, dice=["n1"])
    t, ev = apply(t, type="use", by="N", die="n1", act="std")
    assert {"type": "gain", "seat": "N", "item": "prestige", "amount": 5, "why": "road"} in ev
    assert not t["pending"]


def test_m_d9_the_messenger_loops_and_collects_every_bonus_it_passes():
    from engine.monasterium.effects import move

    s = new_game(2)
    length = s["cat"]["road_length"]
    s["cat"] = dict(s["cat"], road={**s["cat"]["road"],
                                    "2": dict(s["cat"]["road"]["2"], bonus="R2")})
    s["players"]["N"]["road"] = length - 1
    move(s, "N", 3, [])
    assert s["players"]["N"]["road"] == 2
    assert [p["kind"] for p in s["pending"]] == ["extra_die", "road_bonus"]


def test_m_d10_window_legality():
    from engine.monasterium.effects import glass_options, window_cell

    s = new_game(2)
    s["players"]["N"]["window"][0] = ["A", "B", None]
    assert window_cell(s, "N", "C", 0) == 2
    assert window_cell(s, "N", "A", 1) is None and window_cell(s, "N", "A", 2) is None
    assert window_cell(s, "N", "A", 0) is None
    assert ("A", 0) not in glass_options(s, "N", ["A"]) and not glass_options(s, "N", ["A"])


def test_m_d11_taking_limits():
    s = act_phase(new_game(2), "N", {"n1": 3, "n2": 3, "n3": 3, "n4": 3})
    with pytest.raises(Refused) as many:
        apply(s, type="take", by="N", space=3, dice=["n1", "n2", "n3", "n4"])
    assert many.value.code == "too_many_dice"
    for k in (1, 2, 3):
        apply(s, type="take", by="N", space=3, dice=[f"n{i}" for i in range(1, k + 1)])
    j = act_phase(new_game(2), "N", {"n1": 6, "n2": 6, "n3": 6})
    with pytest.raises(Refused):
        apply(j, type="take", by="N", space=6, dice=["n1", "n2"], column="B")
    j, _ = apply(j, type="take", by="N", space=6, dice=["n1"], column="B")
    assert j["turn"]["col"] == "B"
    p = act_phase(new_game(2), "N", {"N1": 2, "n1": 2, "n2": 2})
    with pytest.raises(Refused):
        apply(p, type="take", by="N", space=2, dice=["n1"])
    apply(p, type="take", by="N", space=2, dice=["N1"])


@pytest.mark.parametrize("dice, why", [
    (["N1", "E1"], "another seat's die"),
    (["n1", "n1"], "the same die twice"),
    (["N1", "n1", "zz"], "no such die"),
    ([], "no dice"),
])
def test_a_reroll_names_each_of_the_seats_own_dice_once(dice, why):
    """The once-a-round reroll takes only dice in the seat's hand, each once: anything else
    is refused and changes nothing."""
    s = new_game(4, seed=1)
    s, _ = apply(s, type="roll", by="table", faces={"N1": 1, "n1": 2, "n2": 6})
    before = json.dumps(s, sort_keys=True)
    with pytest.raises(Refused) as r:
        apply(s, type="reroll", by="N", dice=dice)
    assert r.value.code == "bad_field", why
    assert json.dumps(s, sort_keys=True) == before
    s, _ = apply(s, type="reroll", by="N", dice=["n1", "N1"])
    assert s["place"]["reroll"] == ["N1", "n1"]

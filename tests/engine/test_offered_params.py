"""The phone offers every legal way to play a card, and nothing illegal (issue 34).

On small random positions, the carried-out variants among a seat's choices are compared
with a brute-force enumeration: every parameter set from a domain wider than the rules allow
is applied with `GAME.apply`, and those that are carried out (not refused, no "card simply
does nothing") must be exactly the ones offered as carried out."""
from __future__ import annotations

import copy
from itertools import combinations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as hs

from engine.api import Refused
from engine.wwe import GAME
from engine.wwe.cards import card_param_options
from tests.engine.wwe_helpers import at, head, new_game, plain, run_until, set_res

BRUTE = {
    "building_project": lambda s: [{"project": pid, "stone": a, "wood": b}
                                   for pid in s["projects"] for a in range(4)
                                   for b in range(4)],
    "sell_wool_cloth": lambda s: [{"wool": w, "cloth": c} for w in range(5) for c in range(3)],
    "building_material": lambda s: [{"item": i} for i in ("stone", "wood", "grain")],
    "weaver": lambda s: [{"wool": w} for w in range(4)],
    "donation": lambda s: [{"project": pid} for pid in s["projects"]],
    "build_house": lambda s: [{"site": site} for site in s["sites"]],
}


@pytest.fixture(scope="module")
def start(shipped_catalog):
    """Chapter I, round 1, North to play, with every action card in hand."""
    s = run_until(new_game(plain(copy.deepcopy(shipped_catalog)), seats=("N", "S")),
                  at("play_card"))
    assert head(s)["seat"] == "N" and set(BRUTE) <= set(s["players"]["N"]["hand"])
    return s


def _key(card, params):
    return card, tuple(sorted(params.items()))


def offered(s) -> set:
    return {_key(c.action["card"], c.action["params"]) for c in GAME.choices(s, "N")
            if c.action["type"] == "play_card" and c.action.get("perform")
            and c.refused is None and "no_effect" not in c.effect
            and c.action["card"] in BRUTE}


def legal(s) -> set:
    out = set()
    for card, domain in BRUTE.items():
        discard = "favor" if card != "favor" else "grain"
        for params in domain(s):
            action = {"type": "play_card", "by": "N", "card": card, "discard": discard,
                      "params": params, "perform": True}
            try:
                _after, events = GAME.apply(s, action)
            except Refused:
                continue
            if not any(e["type"] == "card_no_effect" for e in events):
                out.add(_key(card, params))
    return out


position = hs.fixed_dictionaries({
    "res": hs.fixed_dictionaries({item: hs.integers(0, top) for item, top in (
        ("stone", 3), ("wood", 3), ("wool", 3), ("cloth", 2), ("gold", 4), ("grain", 2))}),
    "bridge": hs.tuples(hs.integers(0, 3), hs.integers(0, 2)),
    "supply_empty": hs.sets(hs.sampled_from(["stone", "wood", "cloth"])),
    "cloth_closed": hs.booleans(),
    "sell_any_wool": hs.booleans(),
})


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow,
                                                                 HealthCheck.function_scoped_fixture])
@given(p=position)
def test_every_legal_way_to_play_a_card_is_offered_and_nothing_else(start, p):
    s = copy.deepcopy(start)
    for item, n in p["res"].items():
        set_res(s, "N", item, n)
    s["projects"]["bridge"]["stone"], s["projects"]["bridge"]["wood"] = p["bridge"]
    for item in p["supply_empty"]:
        s["supply"][item] = 0
    s["covers"]["market"] = ["cloth"] if p["cloth_closed"] else []
    s["options"]["sell_any_wool"] = p["sell_any_wool"]
    assert offered(s) == legal(s)


def test_building_project_offers_each_way_to_pay_one_or_two_materials(start):
    """R4.3 #4: 1 or 2 materials in any mix of stone and wood; each mix is its own choice."""
    s = copy.deepcopy(start)
    set_res(s, "N", "stone", 2)
    set_res(s, "N", "wood", 2)
    mixes = {(dict(k[1])["stone"], dict(k[1])["wood"]) for k in offered(s)
             if k[0] == "building_project"}
    assert mixes == {(1, 0), (0, 1), (2, 0), (1, 1), (0, 2)}


@pytest.mark.parametrize("sick", [0, 1, 2, 4])
def test_medicine_offers_help_and_each_cure_of_one_to_three_sick_locations(start, sick):
    """R4.3 Medicine: help, or cure 1 to 3 sick locations: every such set is offered once,
    and no cure of nothing."""
    s = copy.deepcopy(start)
    s["plague"] = {str(loc): {"state": "sick" if loc <= sick else "healthy", "value": 1}
                   for loc in range(1, 6)}
    sick_locs = list(range(1, sick + 1))
    cures = [tuple(o["locations"]) for o in card_param_options(s, "N", "medicine")
             if o["mode"] == "cure"]
    expect = [c for n in range(1, min(3, sick) + 1) for c in combinations(sick_locs, n)]
    assert sorted(cures) == sorted(expect)
    assert {"mode": "help"} in card_param_options(s, "N", "medicine")


@pytest.mark.parametrize("cloth_max", [1, 2])
def test_selling_offers_cloth_up_to_the_catalogs_limit(start, cloth_max):
    """The limit of cloth per sale is the catalog's `market.cloth_max` (R4.3: 1)."""
    s = copy.deepcopy(start)
    s["cat"]["game"]["market"]["cloth_max"] = cloth_max
    set_res(s, "N", "wool", 1)
    set_res(s, "N", "cloth", 3)
    cloth = {o["cloth"] for o in card_param_options(s, "N", "sell_wool_cloth")}
    assert cloth == set(range(cloth_max + 1))


@pytest.mark.parametrize("left,ok", [(0, False), (1, True), (2, True)])
def test_building_material_takes_the_last_one_of_the_supply(start, left, ok):
    from engine.wwe.cards import material_refusal
    s = copy.deepcopy(start)
    s["supply"]["stone"] = left
    refusal = material_refusal(s, "N", {"item": "stone"})
    assert (refusal is None) is ok
    if not ok:
        assert refusal.code == "out_of_supply"


@pytest.mark.parametrize("held,ok", [(0, False), (1, True)])
def test_the_weaver_weaves_one_wool_when_the_phone_names_none(start, held, ok):
    """R4.3 Weaver: 1 or 2 wool; a play that names no amount weaves 1."""
    from engine.wwe.cards import weaver_refusal
    s = copy.deepcopy(start)
    set_res(s, "N", "wool", held)
    refusal = weaver_refusal(s, "N", {})
    assert (refusal is None) is ok
    if not ok:
        assert (refusal.code, refusal.params["need"]) == ("cannot_afford", 1)


@pytest.mark.parametrize("short", [0, 1])
def test_selling_wool_and_cloth_needs_the_gold_of_both_in_the_supply(start, short):
    from engine.wwe import effects
    from engine.wwe.cards import sell_refusal
    s = copy.deepcopy(start)
    set_res(s, "N", "wool", 1)
    set_res(s, "N", "cloth", 1)
    s["covers"]["market"] = []
    s["supply"]["gold"] = effects.price(s, "wool") + effects.price(s, "cloth") - short
    refusal = sell_refusal(s, "N", {"wool": 1, "cloth": 1})
    assert (refusal is None) is (short == 0)
    if short:
        assert refusal.code == "out_of_supply"


def test_more_than_one_wool_is_refused_with_its_limit_unless_any_wool_sells(start):
    from engine.wwe.cards import sell_refusal
    s = copy.deepcopy(start)
    set_res(s, "N", "wool", 3)
    s["options"]["sell_any_wool"] = False
    refusal = sell_refusal(s, "N", {"wool": 2, "cloth": 0})
    assert (refusal.code, refusal.params) == ("wool_max", {"max": 1})
    s["options"]["sell_any_wool"] = True
    assert sell_refusal(s, "N", {"wool": 2, "cloth": 0}) is None

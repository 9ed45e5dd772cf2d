"""The 12 action cards (§4.3) with their limits."""
from __future__ import annotations

import pytest

from engine.wwe import GAME
from tests.engine.wwe_helpers import (
    act,
    at,
    new_game,
    no_effect,
    plain,
    refused,
    res,
    run_until,
    set_res,
    vp,
)


@pytest.fixture
def s(catalog):
    """Chapter I, round 1, North to play; cloth opened so both goods can be sold."""
    plain(catalog)
    state = run_until(new_game(catalog, seats=("N", "S")), at("play_card"))
    state["covers"]["market"] = []
    return state


def play(state, card, discard="favor", **params):
    return act(state, type="play_card", by="N", card=card, discard=discard, params=params)


def test_grain_piety_material(s):
    assert res(play(s, "grain"), "N")["grain"] == res(s, "N")["grain"] + 1
    assert res(play(s, "piety"), "N")["piety"] == res(s, "N")["piety"] + 1
    after = play(s, "building_material", item="wood")
    assert res(after, "N")["wood"] == res(s, "N")["wood"] + 1
    assert after["supply"]["wood"] == s["supply"]["wood"] - 1
    s["supply"]["stone"] = 0
    r = refused(s, type="play_card", by="N", card="building_material", discard="favor",
                params={"item": "stone"})
    assert r.code == "out_of_supply"   # R4.3 #3: the Forest has wood, take that instead
    s["supply"]["wood"] = 0            # both empty: the card simply does nothing (R4.1.2)
    _s, reason = no_effect(s, type="play_card", by="N", card="building_material",
                           discard="favor", params={"item": "stone"})
    assert reason == "out_of_supply"


def test_building_project_limits(s):
    set_res(s, "N", "stone", 3)
    set_res(s, "N", "wood", 3)
    r = refused(s, type="play_card", by="N", card="building_project", discard="favor",
                params={"project": "bridge", "stone": 2, "wood": 1})
    assert r.code == "materials_one_or_two"
    spec = s["cat"]["projects"]["bridge"]
    s["projects"]["bridge"]["wood"] = spec["wood"]
    r = refused(s, type="play_card", by="N", card="building_project", discard="favor",
                params={"project": "bridge", "stone": 0, "wood": 1})
    assert r.code == "no_space_on_project"
    after = play(s, "building_project", project="bridge", stone=2, wood=0)
    assert vp(after, "N") == vp(s, "N") + 6
    assert after["supply"]["stone"] == s["supply"]["stone"]   # material is on the project


def test_sell_any_wool_at_most_one_cloth(s):
    """A-1: any number of wool at 2 gold, at most 1 cloth at 4 gold."""
    set_res(s, "N", "wool", 3)
    set_res(s, "N", "cloth", 2)
    gold = res(s, "N")["gold"]
    r = refused(s, type="play_card", by="N", card="sell_wool_cloth", discard="favor",
                params={"wool": 0, "cloth": 2})
    assert r.code == "cloth_max"
    after = play(s, "sell_wool_cloth", wool=3, cloth=1)
    assert res(after, "N")["gold"] == gold + 10
    assert res(after, "N")["wool"] == 0 and res(after, "N")["cloth"] == 1
    assert after["supply"]["wool"] == s["supply"]["wool"] + 3
    assert refused(s, type="play_card", by="N", card="sell_wool_cloth", discard="favor",
                   params={"wool": 0, "cloth": 0}).code == "nothing_to_sell"


def test_build_house_and_rent(s):
    sites = s["cat"]["sites"]
    wood_sites = [sid for sid, sp in sites.items() if sp["material"] == "wood"]
    set_res(s, "N", "wood", 4)
    set_res(s, "N", "gold", 4)
    after = play(s, "build_house", site=wood_sites[0])
    assert after["sites"][wood_sites[0]] == "N"
    assert res(after, "N")["wood"] == 3 and res(after, "N")["gold"] == 3
    # rent from at most 2 own houses; an empty Field gives nothing (§6.8)
    houses = list(sites)[:3]
    for i, sid in enumerate(houses):
        sites[sid]["rent"] = {"item": ["grain", "gold", "piety"][i], "amount": 1}
        s["sites"][sid] = "N"
    s["players"]["N"]["houses"] = houses
    r = refused(s, type="play_card", by="N", card="rent", discard="favor",
                params={"sites": houses})
    assert r.code == "rent_one_or_two"
    s["supply"]["grain"] = 0
    gold = res(s, "N")["gold"]
    after = play(s, "rent", sites=houses[:2])
    assert res(after, "N")["grain"] == res(s, "N")["grain"] and res(after, "N")["gold"] == gold + 1
    assert vp(after, "N") == vp(s, "N")
    r = refused(s, type="play_card", by="N", card="rent", discard="favor",
                params={"sites": [next(x for x in sites if x not in houses)]})
    assert r.code == "not_your_house"


def test_build_house_limits(s):
    sites = list(s["cat"]["sites"])
    set_res(s, "N", "stone", 2)
    set_res(s, "N", "wood", 2)
    s["sites"][sites[0]] = "S"
    s["players"]["S"]["houses"] = [sites[0]]
    r = refused(s, type="play_card", by="N", card="build_house", discard="favor",
                params={"site": sites[0]})
    assert r.code == "site_taken"
    s["players"]["N"]["houses"] = sites[1:5]
    for sid in sites[1:5]:
        s["sites"][sid] = "N"
    _s, reason = no_effect(s, type="play_card", by="N", card="build_house", discard="favor",
                           params={"site": sites[6]})
    assert reason == "no_house_left"   # no house anywhere: R4.1.2, the card does nothing


def test_donation_rules(s):
    gold = res(s, "N")["gold"]
    after = play(s, "donation", project="bridge")
    assert res(after, "N")["gold"] == gold - 1 and after["players"]["N"]["seals"] == ["bridge"]
    s["players"]["N"]["seals"] = ["bridge"]
    s["projects"]["bridge"]["seals"] = ["N"]
    # the Bridge is the only project: no way to donate, so the card does nothing (R4.1.2)
    assert no_effect(s, type="play_card", by="N", card="donation", discard="favor",
                     params={"project": "bridge"})[1] == "already_donated"
    s["projects"]["fulling_mill"] = dict(s["projects"]["bridge"], seals=[])
    r = refused(s, type="play_card", by="N", card="donation", discard="favor",
                params={"project": "bridge"})
    assert r.code == "already_donated"   # the Fulling Mill is possible: choose again
    s["projects"]["lady_chapel"] = dict(s["projects"]["bridge"], seals=[])
    s["players"]["N"]["seals"] = ["bridge", "fulling_mill"]
    assert no_effect(s, type="play_card", by="N", card="donation", discard="favor",
                     params={"project": "lady_chapel"})[1] == "no_seal_left"


def test_weaver(s):
    set_res(s, "N", "wool", 2)
    after = play(s, "weaver", wool=2)
    assert res(after, "N")["cloth"] == 2 and res(after, "N")["wool"] == 0
    r = refused(s, type="play_card", by="N", card="weaver", discard="favor",
                params={"wool": 3})
    assert r.code == "bad_params"
    # a play naming no amount weaves 1 (R4.3): 1 wool out, 1 cloth in, and the log says 1
    after, ev = GAME.apply(s, {"type": "play_card", "by": "N", "card": "weaver",
                               "discard": "favor", "params": {}})
    assert (res(after, "N")["wool"], res(after, "N")["cloth"]) == \
        (res(s, "N")["wool"] - 1, res(s, "N")["cloth"] + 1)
    assert [e["amount"] for e in ev if e["type"] == "woven"] == [1]


def test_medicine_help_and_no_cure_before_chapter_3(s):
    after = play(s, "medicine", mode="help")
    assert res(after, "N")["gold"] == res(s, "N")["gold"] + 1 and vp(after, "N") == vp(s, "N") + 1
    r = refused(s, type="play_card", by="N", card="medicine", discard="favor",
                params={"mode": "cure", "locations": [1]})
    assert r.code == "no_cure_before_chapter_3"


def test_favor_card_moves_one(s):
    cycle = s["cat"]["game"]["favor_track"]["cycle"]
    after = play(s, "favor", discard="grain")
    assert after["favor"]["index"] == (s["favor"]["index"] + 1) % len(cycle)


def test_privilege(s):
    """A-9: nothing to repeat in round 1; later it repeats the latest own face-up card, and a
    repeated Building Project may go to another project (§4.4)."""
    s_after, reason = no_effect(s, type="play_card", by="N", card="privilege", discard="favor")
    assert reason == "privilege_nothing"   # R4.3 #6: nothing to repeat, played for nothing
    set_res(s, "N", "stone", 2)
    s["projects"]["fulling_mill"] = dict(s["projects"]["bridge"], seals=[])
    s = play(s, "building_project", discard="grain", project="bridge", stone=1, wood=0)
    s = run_until(s, lambda x: x["queue"][0]["kind"] == "play_card"
                  and x["queue"][0]["seat"] == "N" and x["round"] == 2)
    v = vp(s, "N")
    after = play(s, "privilege", discard="piety", project="fulling_mill", stone=1, wood=0)
    assert after["projects"]["fulling_mill"]["stone"] == s["projects"]["fulling_mill"]["stone"] + 1
    assert vp(after, "N") == v + 3
    assert after["players"]["N"]["played"][-1] == "privilege"


def test_perform_false_plays_without_effect(s):
    after = act(s, type="play_card", by="N", card="grain", discard="favor", perform=False)
    assert res(after, "N") == res(s, "N") and after["players"]["N"]["performed"] == [False]


def test_play_choices_preview(s):
    """choices carry cost and effect of the deciding seat only, refused ones with reasons."""
    choices = GAME.choices(s, "N")
    grain = next(c for c in choices if c.action["card"] == "grain" and c.action["perform"])
    assert grain.effect["grain"] == 1 and grain.refused is None
    assert set(grain.effect["discard_options"]) == set(s["players"]["N"]["hand"]) - {"grain"}
    donation = next(c for c in choices if c.action["card"] == "donation"
                    and c.action["params"].get("project") == "bridge")
    assert donation.cost == {"gold": 1}


@pytest.mark.parametrize("wool, cloth", [(1, 0), (0, 1), (1, 1), (2, 1)])
def test_sell_wool_and_cloth_in_any_mix(s, wool, cloth):
    """R4.3: the card sells wool, cloth or both (1 of each is something to sell)."""
    s["options"]["sell_any_wool"] = True
    set_res(s, "N", "wool", 2)
    set_res(s, "N", "cloth", 1)
    gold = res(s, "N")["gold"]
    after = play(s, "sell_wool_cloth", wool=wool, cloth=cloth)
    assert res(after, "N")["gold"] == gold + 2 * wool + 4 * cloth
    assert (res(after, "N")["wool"], res(after, "N")["cloth"]) == (2 - wool, 1 - cloth)


@pytest.mark.parametrize("bad", [-1, True, 1.0])
def test_card_amounts_that_are_no_whole_count_are_refused_naming_the_field(s, bad):
    """A card's amount is a whole count of 0 or more (`cards._int`): a negative one, a
    boolean or a float is refused naming its field and changes nothing. Without the check
    `True` sold one wool and -1 passed on to the market (mutants, issue 51)."""
    set_res(s, "N", "wool", 3)
    for card, params, field in (("sell_wool_cloth", {"wool": bad, "cloth": 0}, "wool"),
                                ("building_project", {"project": next(iter(s["projects"])),
                                                      "stone": 0, "wood": bad}, "wood"),
                                ("weaver", {"wool": bad}, "wool")):
        r = refused(s, type="play_card", by="N", card=card, discard="favor", params=params)
        assert (r.code, r.params) == ("bad_params", {"field": field}), card


def test_only_sick_residents_are_cured(catalog):
    """R7.5: Medicine cures sick residents only. A face-down (hidden) or removed token, or a
    place with no token, is refused `not_sick` naming that place, whatever else is sick, and
    the cure of the sick ones alone goes through (mutants, issue 51: a check that let a
    hidden token count its value)."""
    plain(catalog)
    s = run_until(new_game(catalog, seats=("N", "S")), at("play_card", chapter=3))
    seat = s["queue"][0]["seat"]
    if "medicine" not in s["players"][seat]["hand"]:
        s["players"][seat]["hand"].append("medicine")
    places = sorted(s["plague"], key=int)
    s["plague"][places[0]] = {"state": "sick", "value": 1}
    s["plague"][places[1]] = {"state": "hidden", "value": 1}
    s["plague"][places[2]] = {"state": "removed", "value": 1}
    set_res(s, seat, "mk", 5)
    cure = {"type": "play_card", "by": seat, "card": "medicine"}
    for other in places[1:3]:
        r = refused(s, **cure, params={"mode": "cure", "locations": [int(places[0]), int(other)]})
        assert (r.code, r.params) == ("not_sick", {"location": other})
    after = act(s, **cure, params={"mode": "cure", "locations": [int(places[0])]})
    assert after["plague"][places[0]]["state"] == "removed"
    assert [after["plague"][p]["state"] for p in places[1:3]] == ["hidden", "removed"]

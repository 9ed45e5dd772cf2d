"""Every worked example of world-without-end.md Appendix A (1-15), one test each."""
from __future__ import annotations

from engine.wwe import GAME
from tests.engine.wwe_helpers import (
    act,
    at,
    discard_for,
    head,
    new_game,
    plain,
    refused,
    res,
    run_until,
    set_res,
    vp,
)


def card(catalog, cid):
    return next(c for c in catalog["event_cards"] if c["id"] == cid)


def test_a01_income_by_orientation(catalog):
    """A-1 (IT:97, PL:129, ES:78): red 1 stone, green 1 grain, yellow 1 gold, blue 1 VP."""
    plain(catalog)
    c = card(catalog, "demo_feast")
    c["corners"] = ["stone", "grain", "gold1", "vp"]
    players = [("N", "red"), ("E", "green"), ("S", "yellow"), ("W", "blue")]
    s = GAME.setup(catalog, {"players": [{"seat": a, "name": b, "colour": b}
                                         for a, b in players], "seed": 1})
    s = act(s, type="reveal_event", by="table", card="demo_feast")
    before = {seat: (dict(res(s, seat)), vp(s, seat)) for seat in "NESW"}
    values = catalog["game"]["council"]["side_values"]
    # a rotation with favor value 0, so only the income changes anything
    rotation = next(r for r in range(4) if values[(c["arrow"] + r) % 4] == 0)
    s = act(s, type="orient_event", by="N", rotation=rotation)
    got = {}
    for seat in "NESW":
        r0, v0 = before[seat]
        diff = {i: res(s, seat)[i] - r0[i] for i in r0 if res(s, seat)[i] != r0[i]}
        if vp(s, seat) != v0:
            diff["vp"] = vp(s, seat) - v0
        got[seat] = diff
    # position k faces seat (k + rotation) % 4; read back which colour got what
    colour = dict(players)
    by_colour = {colour[seat]: g for seat, g in got.items()}
    expect = {}
    for k, item in enumerate(["stone", "grain", "gold", "vp"]):
        seat = "NESW"[(k + rotation) % 4]
        expect[colour[seat]] = {item: 1}
    assert by_colour == expect


def test_a01_income_named_colours(catalog):
    """A-1 literally: rotation 0 with red N, green E, yellow S, blue W."""
    plain(catalog)
    card(catalog, "demo_feast")["corners"] = ["stone", "grain", "gold1", "vp"]
    card(catalog, "demo_feast")["arrow"] = 0  # side value 0 faces N at rotation 0
    s = GAME.setup(catalog, {"players": [{"seat": "N", "colour": "red"},
                                         {"seat": "E", "colour": "green"},
                                         {"seat": "S", "colour": "yellow"},
                                         {"seat": "W", "colour": "blue"}], "seed": 1})
    s = act(s, type="reveal_event", by="table", card="demo_feast")
    s = act(s, type="orient_event", by="N", rotation=0)
    assert res(s, "N")["stone"] == 1        # red
    assert res(s, "E")["grain"] == 1        # green
    assert res(s, "S")["gold"] == 3         # yellow: 2 at start + 1
    assert vp(s, "W") == 9                  # blue


def test_a02_favor_moves_by_arrow_value(catalog):
    """A-2 (IT:111, PL:141, ES:86): arrow on 2 -> 2 spaces; the active player's favor."""
    plain(catalog)
    s = new_game(catalog, seats=("N", "S"))
    s = act(s, type="reveal_event", by="table", card="demo_feast")
    c = s["cat"]["events"]["demo_feast"]
    rotation = next(r for r in range(4)
                    if s["cat"]["game"]["council"]["side_values"][(c["arrow"] + r) % 4] == 2)
    cycle = s["cat"]["game"]["favor_track"]["cycle"]
    assert cycle[s["favor"]["index"]] == "outlaws"
    piety = res(s, "N")["piety"]
    s = act(s, type="orient_event", by="N", rotation=rotation)
    assert cycle[s["favor"]["index"]] == "prior"        # outlaws -> queen -> prior
    own_corner = c["corners"][(0 - rotation) % 4]   # the corner facing N
    assert res(s, "N")["piety"] == piety + 1 + (1 if own_corner == "piety" else 0)


def play_to_actions(s, rotation=None):
    """Reveal the next card and orient it with favor 0; now the active seat plays."""
    return run_until(s, at("play_card"))


def test_a03_building_project_six_vp(catalog):
    """A-3 (IT:250, PL:282): 1 stone + 1 wood on one project = +6 VP."""
    plain(catalog)
    s = play_to_actions(new_game(catalog, seats=("N", "S")))
    set_res(s, "N", "stone", 1)
    set_res(s, "N", "wood", 1)
    v = vp(s, "N")
    s = act(s, type="play_card", by="N", card="building_project", discard="grain",
            params={"project": "bridge", "stone": 1, "wood": 1})
    assert vp(s, "N") == v + 6
    assert s["projects"]["bridge"]["stone"] == 1 and s["projects"]["bridge"]["wood"] == 1
    assert res(s, "N")["stone"] == 0 and res(s, "N")["wood"] == 0


def test_a04_donors_rewarded_on_completion(catalog):
    """A-4 (IT:267, PL:299): red and green donors each get 1 VP + 1 cloth, seals back."""
    plain(catalog)
    proj = next(p for p in catalog["projects"] if p["id"] == "bridge")
    proj["donor_reward"] = {"vp": 1, "items": {"cloth": 1}}
    s = play_to_actions(new_game(catalog, seats=("N", "E", "S")))  # N red, E green
    s = act(s, type="play_card", by="N", card="donation", discard="grain",
            params={"project": "bridge"})
    s = act(s, type="play_card", by="E", card="donation", discard="grain",
            params={"project": "bridge"})
    assert s["projects"]["bridge"]["seals"] == ["N", "E"]
    # fill the bridge up to one missing stone, then S places it
    spec = s["cat"]["projects"]["bridge"]
    s["projects"]["bridge"]["stone"] = spec["stone"] - 1
    s["projects"]["bridge"]["wood"] = spec["wood"]
    set_res(s, "S", "stone", 1)
    vn, ve = vp(s, "N"), vp(s, "E")
    s = act(s, type="play_card", by="S", card="building_project", discard="grain",
            params={"project": "bridge", "stone": 1, "wood": 0})
    assert s["projects"]["bridge"]["complete"]
    assert vp(s, "N") == vn + 1 and vp(s, "E") == ve + 1
    assert res(s, "N")["cloth"] == 1 and res(s, "E")["cloth"] == 1
    assert s["players"]["N"]["seals"] == [] and s["players"]["E"]["seals"] == []
    assert s["projects"]["bridge"]["seals"] == []


def to_chapter_3_with_plague(catalog, **setup):
    plain(catalog)
    s = new_game(catalog, seats=("N", "S"), **setup)
    return run_until(s, at("reveal_event", chapter=3, round_=1))


def test_a05_plague_house_9_cure(catalog):
    """A-5 (IT:279-282, PL:317-334): house 9 shows 3; 3 MK cures: +2 VP, free house, MK kept."""
    s = to_chapter_3_with_plague(catalog)
    ch3 = next(c for c in s["cat"]["events"].values() if c["chapter"] == 3)
    s["cat"]["events"][ch3["id"]]["plague"] = 9
    s = act(s, type="reveal_event", by="table", card=ch3["id"])
    assert head(s)["kind"] == "reveal_plague" and head(s)["location"] == 9
    s = act(s, type="reveal_plague", by="table", value=3)
    assert s["plague"]["9"] == {"state": "sick", "value": 3}
    s = run_until(s, at("play_card"))
    active = s["active"]
    set_res(s, active, "mk", 3)
    gold, v = res(s, active)["gold"], vp(s, active)
    other = discard_for(s, active, "medicine")
    s = act(s, type="play_card", by=active, card="medicine", discard=other,
            params={"mode": "cure", "locations": [9]})
    assert vp(s, active) == v + 2
    assert s["plague"]["9"]["state"] == "removed"
    assert res(s, active)["mk"] == 3
    assert head(s)["kind"] == "place_free_house"
    site = next(iter(s["sites"]))
    s = act(s, type="place_free_house", by=active, site=site)
    assert s["sites"][site] == active and res(s, active)["gold"] == gold
    shown = GAME.public_view(s)["plague"]["9"]
    assert (shown["state"], shown["value"]) == ("removed", 3)


def test_a06_chapter4_doubled_shortfall(catalog):
    """A-6 (IT:221, PL:251): after chapter IV, missing 1 grain + 2 gold costs 8 VP."""
    plain(catalog)
    s = new_game(catalog, seats=("N", "S"))
    s = run_until(s, at("roll_tax", chapter=4))
    for seat in ("N", "S"):
        set_res(s, seat, "piety", 2)
        set_res(s, seat, "grain", 1)
        set_res(s, seat, "gold", 0)
        set_res(s, seat, "loyalty", 0)
        s["players"][seat]["vp"] = 20
    s = act(s, type="roll_tax", by="table", value=2)
    assert vp(s, "N") == 12 and vp(s, "S") == 12
    assert s["over"]


def to_chapter_end(catalog, seats=("N", "S")):
    plain(catalog)
    s = new_game(catalog, seats=seats)
    return run_until(s, at("roll_tax", chapter=1))


def test_a07_loyalty_protection_two(catalog):
    """A-7 (IT:231, PL:263): missing 2 grain + 1 piety: -7 VP; 2 loyalty cancel both."""
    s = to_chapter_end(catalog)
    set_res(s, "N", "grain", 0)
    set_res(s, "N", "piety", 1)
    set_res(s, "N", "gold", 5)
    set_res(s, "N", "loyalty", 2)
    s["players"]["N"]["vp"] = 20
    s = act(s, type="roll_tax", by="table", value=2)
    assert vp(s, "N") == 13
    assert s["players"]["N"]["punish"] == ["penance", "begging"]
    assert any(p.seat == "N" and p.kind == "choose_protection" for p in GAME.prompts(s))
    r = refused(s, type="choose_protection", by="N", cancel=["royal_court"])
    assert r.code == "cannot_cancel"
    s = act(s, type="choose_protection", by="N", cancel=["penance", "begging"])
    assert s["players"]["N"]["punish"] == [] and res(s, "N")["loyalty"] == 0
    assert vp(s, "N") == 13


def test_a07_loyalty_protection_one_player_choice(catalog):
    """A-7: paying 1 loyalty cancels one of the two, chosen by the player."""
    s = to_chapter_end(catalog)
    set_res(s, "N", "grain", 0)
    set_res(s, "N", "piety", 1)
    set_res(s, "N", "gold", 5)
    set_res(s, "N", "loyalty", 1)
    s = act(s, type="roll_tax", by="table", value=2)
    r = refused(s, type="choose_protection", by="N", cancel=["penance", "begging"])
    assert r.code == "cannot_afford"
    s = act(s, type="choose_protection", by="N", cancel=["begging"])
    # next chapter, round 1: Penance discards at random, begging was cancelled
    assert head(s)["kind"] == "reveal_event" and s["chapter"] == 2
    assert len(s["players"]["N"]["discards"]) == 1 and len(s["players"]["N"]["hand"]) == 11
    assert s["round_flags"]["N"] == {"penance": True}


def test_a08_chapter_end_three_players_tax_4(catalog):
    """A-8: A with 1 piety, 3 grain, 2 gold, tax 4: -5 VP, Penance + Royal Court; 1 loyalty
    cancels one and the 5 VP are still lost."""
    s = to_chapter_end(catalog, seats=("N", "E", "S"))
    set_res(s, "N", "piety", 1)
    set_res(s, "N", "grain", 3)
    set_res(s, "N", "gold", 2)
    set_res(s, "N", "loyalty", 1)
    s["players"]["N"]["vp"] = 20
    for seat in ("E", "S"):
        set_res(s, seat, "loyalty", 0)
    s = act(s, type="roll_tax", by="table", value=4)
    assert res(s, "N")["piety"] == 0 and res(s, "N")["grain"] == 1 and res(s, "N")["gold"] == 0
    assert vp(s, "N") == 15
    assert s["players"]["N"]["punish"] == ["penance", "royal_court"]
    s = act(s, type="choose_protection", by="N", cancel=["royal_court"])
    assert s["chapter"] == 2 and vp(s, "N") == 15
    assert s["round_flags"]["N"] == {"penance": True}
    assert GAME.public_view(s)["seats"]["N"]["round_flags"] == ["penance"]


def test_a09_multi_cure_sum_rule(catalog):
    """A-9: sick at 2 (value 2) and 5 (value 4): 6 MK cures both (+4 VP), keeps 6 MK;
    5 MK can cure only one."""
    s = to_chapter_3_with_plague(catalog)
    s = run_until(s, at("play_card"))
    s["plague"]["2"] = {"state": "sick", "value": 2}
    s["plague"]["5"] = {"state": "sick", "value": 4}
    a = s["active"]
    other = discard_for(s, a, "medicine")
    set_res(s, a, "mk", 5)
    r = refused(s, type="play_card", by=a, card="medicine", discard=other,
                params={"mode": "cure", "locations": [2, 5]})
    assert r.code == "not_enough_mk" and r.params == {"need": 6, "have": 5}
    one = act(s, type="play_card", by=a, card="medicine", discard=other,
              params={"mode": "cure", "locations": [5]})
    assert one["plague"]["5"]["state"] == "removed"
    set_res(s, a, "mk", 6)
    v = vp(s, a)
    rewards = 0
    for loc in ("2", "5"):
        rewards += (s["cat"]["plague"][loc].get("reward") or {}).get("vp", 0)
    both = act(s, type="play_card", by=a, card="medicine", discard=other,
               params={"mode": "cure", "locations": [2, 5]})
    assert vp(both, a) == v + 4 + rewards
    assert res(both, a)["mk"] == 6
    assert both["plague"]["2"]["state"] == both["plague"]["5"]["state"] == "removed"


def test_a10_favor_skips_covered_space(catalog):
    """A-10: marker on Prior, Guild covered, arrow 2 -> Prioress, Merchants: +1 wool."""
    plain(catalog)
    s = new_game(catalog, seats=("N", "S"))
    s = act(s, type="reveal_event", by="table", card="demo_feast")
    cycle = s["cat"]["game"]["favor_track"]["cycle"]
    s["favor"]["index"] = cycle.index("prior")
    s["covers"]["favor"] = ["guild"]
    c = s["cat"]["events"]["demo_feast"]
    rotation = next(r for r in range(4)
                    if s["cat"]["game"]["council"]["side_values"][(c["arrow"] + r) % 4] == 2)
    wool = res(s, "N")["wool"]
    corner_wool = 1 if c["corners"][(0 - rotation) % 4] == "wool" else 0
    s2 = act(s, type="orient_event", by="N", rotation=rotation)
    assert cycle[s2["favor"]["index"]] == "merchants"
    assert res(s2, "N")["wool"] == wool + 1 + corner_wool
    s["supply"]["wool"] = 0  # supply empty: nothing, and no substitute VP (R3.5.6)
    s3 = act(s, type="orient_event", by="N", rotation=rotation)
    assert res(s3, "N")["wool"] == wool


def test_a11_outlaws_needs_gold(catalog):
    """A-11: with 0 gold no orientation may end on Outlaws; value 0 is always allowed."""
    plain(catalog)
    s = new_game(catalog, seats=("N", "S"))
    s = act(s, type="reveal_event", by="table", card="demo_feast")
    cycle = s["cat"]["game"]["favor_track"]["cycle"]
    s["favor"]["index"] = cycle.index("bishop")   # the next space is Outlaws
    set_res(s, "N", "gold", 0)
    c = s["cat"]["events"]["demo_feast"]
    values = s["cat"]["game"]["council"]["side_values"]
    one = next(r for r in range(4) if values[(c["arrow"] + r) % 4] == 1)
    zero = next(r for r in range(4) if values[(c["arrow"] + r) % 4] == 0)
    r = refused(s, type="orient_event", by="N", rotation=one)
    assert r.code == "outlaws_no_gold"
    choice = next(ch for ch in GAME.choices(s, "N") if ch.action["rotation"] == one)
    assert choice.refused["code"] == "outlaws_no_gold"
    act(s, type="orient_event", by="N", rotation=zero)
    set_res(s, "N", "gold", 1)
    s2 = act(s, type="orient_event", by="N", rotation=one)
    assert cycle[s2["favor"]["index"]] == "outlaws"
    corner_gold = {"gold1": 1, "gold2": 2}.get(c["corners"][(0 - one) % 4], 0)
    assert res(s2, "N")["gold"] == corner_gold


def test_a12_tower_spire_tie(catalog):
    """A-12: loyalty A 3, B 3, C 1: metal placed, A and B +1 VP each, C nothing."""
    plain(catalog)
    s = new_game(catalog, seats=("N", "E", "S"))
    s = run_until(s, at("play_card", chapter=3))
    for seat, n in (("N", 3), ("E", 3), ("S", 1)):
        set_res(s, seat, "loyalty", n)
    tower = s["projects"]["tower"]
    tower["stone"], tower["wood"] = 6, 1
    a = s["active"]
    set_res(s, a, "wood", 1)
    before = {seat: vp(s, seat) for seat in "NES"}
    other = discard_for(s, a, "building_project")
    s = act(s, type="play_card", by=a, card="building_project", discard=other,
            params={"project": "tower", "stone": 0, "wood": 1})
    assert s["projects"]["tower"]["complete"] and s["supply"]["metal"] == 0
    gain = {seat: vp(s, seat) - before[seat] for seat in "NES"}
    gain[a] -= 3  # the builder's 3 VP for the material
    assert gain == {"N": 1, "E": 1, "S": 0}


def test_a13_final_score_half_points(catalog):
    """A-13: 41 VP, 3 stone, 2 wood, 7 gold -> 49.5, beating 49 without a tie-break."""
    plain(catalog)
    s = new_game(catalog, seats=("N", "S"))
    s = run_until(s, at("roll_tax", chapter=4))
    for seat in ("N", "S"):
        set_res(s, seat, "piety", 2)
        set_res(s, seat, "grain", 2)
        set_res(s, seat, "loyalty", 0)
        set_res(s, seat, "stone", 0)
        set_res(s, seat, "wood", 0)
    set_res(s, "N", "gold", 9)     # 2 go to the tax
    set_res(s, "N", "stone", 3)
    set_res(s, "N", "wood", 2)
    s["players"]["N"]["vp"] = 41
    set_res(s, "S", "gold", 2)
    s["players"]["S"]["vp"] = 49
    set_res(s, "S", "piety", 5)    # tie-breaks would favour S; they must not matter
    s = act(s, type="roll_tax", by="table", value=2)
    scores = GAME.scores(s)
    assert scores[0]["seat"] == "N" and scores[0]["vp"] == 49.5 and scores[0]["rank"] == 1
    assert scores[1]["seat"] == "S" and scores[1]["vp"] == 49 and scores[1]["rank"] == 2


def test_a14_vp_floor(catalog):
    """A-14: on 2 VP, losing 6 ends on 0; a later gain counts from 0."""
    s = new_game(catalog, seats=("N", "S"))
    s["players"]["N"]["vp"] = 2
    s = act(s, type="adjust", by="host", seat="N", item="vp", delta=-6, reason="test")
    assert vp(s, "N") == 0
    s = act(s, type="adjust", by="host", seat="N", item="vp", delta=1, reason="test")
    assert vp(s, "N") == 1


def test_a15_same_rent_restriction(catalog):
    """A-15: a house on a site renting 1 grain forbids another site renting 1 grain."""
    plain(catalog)
    sites = catalog["building_sites"]
    sites[0]["rent"] = {"item": "grain", "amount": 1}
    sites[1]["rent"] = {"item": "grain", "amount": 1}
    sites[2]["rent"] = {"item": "piety", "amount": 1}
    s = play_to_actions(new_game(catalog, seats=("N", "S")))
    s["sites"][sites[0]["id"]] = "N"
    s["players"]["N"]["houses"] = [sites[0]["id"]]
    for m in ("stone", "wood"):
        set_res(s, "N", m, 2)
    r = refused(s, type="play_card", by="N", card="build_house", discard="grain",
                params={"site": sites[1]["id"]})
    assert r.code == "same_rent"
    s = act(s, type="play_card", by="N", card="build_house", discard="grain",
            params={"site": sites[2]["id"]})
    assert s["sites"][sites[2]["id"]] == "N"

"""Rule options: documented, validated, and each switch changes behaviour as described."""
from __future__ import annotations

import pathlib

import pytest

from engine.api import Refused
from engine.wwe import GAME
from engine.wwe.options import OPTIONS
from tests.engine.wwe_helpers import (
    act,
    at,
    complete_hospital,
    discard_for,
    head,
    new_game,
    no_effect,
    plain,
    refused,
    res,
    run_until,
    set_res,
    vp,
)

DOC = pathlib.Path(__file__).resolve().parents[2] / "docs" / "options.md"


def test_docs_list_every_option_with_default():
    text = DOC.read_text()
    for name, (default, _values, ref, _desc) in OPTIONS.items():
        row = next((line for line in text.splitlines() if line.startswith(f"| `{name}` |")),
                   None)
        assert row, name
        if isinstance(default, bool):
            shown = str(default).lower()
        elif isinstance(default, str):
            shown = f'"{default}"'
        else:
            shown = repr(default)
        assert f"`{shown}`" in row.split("|")[2], (name, row)
        assert ref.split(",")[0] in row


def test_unknown_or_bad_option_refused(catalog):
    with pytest.raises(Refused) as info:
        new_game(catalog, options={"house_rules": True})
    assert info.value.code == "unknown_option"
    with pytest.raises(Refused) as info:
        new_game(catalog, options={"income_partial": "maybe"})
    assert info.value.code == "bad_option_value"


def _orient_with_value(s, value):
    c = s["cat"]["events"][s["event"]]
    values = s["cat"]["game"]["council"]["side_values"]
    return next(r for r in range(4) if values[(c["arrow"] + r) % 4] == value)


def _gold_corners(catalog, corners):
    """The demo feast card with these corners (arrow on the first), 30 gold in the game."""
    plain(catalog)
    catalog["game"]["supplies"]["gold"]["size"] = 30
    feast = next(c for c in catalog["event_cards"] if c["id"] == "demo_feast")
    feast["corners"] = corners
    feast["arrow"] = 0


def test_income_partial_direct(catalog):
    """A-25 on the seat that faces the 2-gold corner, both settings."""
    _gold_corners(catalog, ["gold2", "vp", "vp", "vp"])
    for partial, gold_gain, vp_gain in ((True, 1, 1), (False, 0, 1)):
        s = new_game(catalog, seats=("N", "S"), options={"income_partial": partial})
        s = act(s, type="reveal_event", by="table", card="demo_feast")
        s["supply"]["gold"] = 1
        gold, v = res(s, "N")["gold"], vp(s, "N")
        s = act(s, type="orient_event", by="N", rotation=0)
        assert (res(s, "N")["gold"] - gold, vp(s, "N") - v) == (gold_gain, vp_gain)
        assert s["supply"]["gold"] == 1 - gold_gain


def test_favor_wrap(catalog):
    """A-2: after Bishop the catalog cycle passes Outlaws; bishop_to_queen goes to Queen."""
    plain(catalog)
    for wrap, landing in (("catalog", "outlaws"), ("bishop_to_queen", "queen")):
        s = new_game(catalog, seats=("N", "S"), options={"favor_wrap": wrap})
        s = act(s, type="reveal_event", by="table", card="demo_feast")
        cycle = s["cat"]["game"]["favor_track"]["cycle"]
        s["favor"]["index"] = cycle.index("bishop")
        s = act(s, type="orient_event", by="N", rotation=_orient_with_value(s, 1))
        assert cycle[s["favor"]["index"]] == landing


def test_extra_start_pass_at_chapter_end(catalog):
    """A-8: one pass per round (default) or an extra pass at the chapter end."""
    plain(catalog)
    starts = {}
    for extra in (False, True):
        s = new_game(catalog, seats=("N", "E", "S"),
                     options={"extra_start_pass_at_chapter_end": extra})
        s = run_until(s, at("roll_tax"))
        roller = s["active"]
        s = run_until(s, at("reveal_event", chapter=2))
        starts[extra] = (roller, s["active"])
    assert starts[False] == ("S", "N")      # rounds 1-6: N E S N E S; round 6's S rolls
    assert starts[True] == ("N", "E")


def test_privilege_repeats_unperformed(catalog):
    """A-9: Privilege may (default) or may not repeat a card played without effect."""
    plain(catalog)
    for allowed in (True, False):
        s = new_game(catalog, seats=("N", "S"),
                     options={"privilege_repeats_unperformed": allowed})
        s = run_until(s, at("play_card"))
        s = act(s, type="play_card", by="N", card="grain", discard="rent", perform=False)
        s = run_until(s, lambda x: head(x)["kind"] == "play_card" and head(x)["seat"] == "N")
        grain = res(s, "N")["grain"]
        action = {"type": "play_card", "by": "N", "card": "privilege", "discard": "donation"}
        if allowed:
            assert res(act(s, **action), "N")["grain"] == grain + 1
        else:  # R4.1.2: Privilege is played and simply does nothing
            s2, reason = no_effect(s, **action)
            assert reason == "privilege_unperformed" and res(s2, "N")["grain"] == grain


def test_donor_extra_all_or_nothing(catalog):
    """A-20: supply short for some donors: nobody gets the extra item (default) or in turn."""
    plain(catalog)
    bridge = next(p for p in catalog["projects"] if p["id"] == "bridge")
    bridge["donor_reward"] = {"vp": 1, "items": {"cloth": 1}}
    for all_or_nothing, expect in ((True, (0, 0)), (False, (1, 0))):
        s = new_game(catalog, seats=("N", "E", "S"),
                     options={"donor_extra_all_or_nothing": all_or_nothing})
        s = run_until(s, at("play_card"))
        s = act(s, type="play_card", by="N", card="donation", discard="grain",
                params={"project": "bridge"})
        s = act(s, type="play_card", by="E", card="donation", discard="grain",
                params={"project": "bridge"})
        s["supply"]["cloth"] = 1
        spec = s["cat"]["projects"]["bridge"]
        s["projects"]["bridge"]["stone"] = spec["stone"] - 1
        s["projects"]["bridge"]["wood"] = spec["wood"]
        set_res(s, "S", "stone", 1)
        vn = vp(s, "N")
        s = act(s, type="play_card", by="S", card="building_project", discard="grain",
                params={"project": "bridge", "stone": 1, "wood": 0})
        assert (res(s, "N")["cloth"], res(s, "E")["cloth"]) == expect
        assert vp(s, "N") == vn + 1   # the VP part is always given


@pytest.mark.parametrize("all_or_nothing", [True, False])
@pytest.mark.parametrize("supply", [0, 1, 2, 3])
def test_donor_extra_at_the_supply_boundary(catalog, all_or_nothing, supply):
    """A-20, R6.5.3, with two donors owed 1 cloth each: a supply of exactly 2 is enough for
    both; 1 is short (nobody, or the first donor clockwise from the active player)."""
    plain(catalog)
    bridge = next(p for p in catalog["projects"] if p["id"] == "bridge")
    bridge["donor_reward"] = {"vp": 1, "items": {"cloth": 1}}
    s = new_game(catalog, seats=("N", "E", "S"),
                 options={"donor_extra_all_or_nothing": all_or_nothing})
    s = run_until(s, at("play_card"))
    for seat in ("N", "E"):
        s = act(s, type="play_card", by=seat, card="donation", discard="grain",
                params={"project": "bridge"})
    s["supply"]["cloth"] = supply
    spec = s["cat"]["projects"]["bridge"]
    s["projects"]["bridge"]["stone"] = spec["stone"] - 1
    s["projects"]["bridge"]["wood"] = spec["wood"]
    set_res(s, "S", "stone", 1)
    cloth = {seat: res(s, seat)["cloth"] for seat in ("N", "E")}
    s = act(s, type="play_card", by="S", card="building_project", discard="grain",
            params={"project": "bridge", "stone": 1, "wood": 0})
    got = tuple(res(s, seat)["cloth"] - cloth[seat] for seat in ("N", "E"))
    if supply >= 2:
        expect = (1, 1)
    elif all_or_nothing or supply == 0:
        expect = (0, 0)
    else:  # in turn from the active player (S): N before E
        expect = (1, 0)
    assert got == expect
    assert s["supply"]["cloth"] == supply - sum(got)


def test_spire_tie_at_zero(catalog):
    """A-22: nobody has loyalty: everyone ties with 1 VP (default) or nobody scores."""
    plain(catalog)
    for tie_at_zero, gain in ((True, 1), (False, 0)):
        s = new_game(catalog, seats=("N", "S"), options={"spire_tie_at_zero": tie_at_zero})
        s = run_until(s, at("play_card", chapter=3))
        for seat in ("N", "S"):
            set_res(s, seat, "loyalty", 0)
        s["projects"]["tower"]["stone"], s["projects"]["tower"]["wood"] = 6, 1
        a = s["active"]
        other = "N" if a == "S" else "S"
        set_res(s, a, "wood", 1)
        v = vp(s, other)
        s = act(s, type="play_card", by=a, card="building_project",
                discard=discard_for(s, a, "building_project"),
                params={"project": "tower", "stone": 0, "wood": 1})
        assert s["projects"]["tower"]["complete"] and vp(s, other) - v == gain


def test_favor_card_outlaws_needs_gold(catalog):
    """A-26: the Favor card onto Outlaws without gold does nothing (default: played, the
    marker does not move, R4.1.2) or lands."""
    plain(catalog)
    for needs, ok in ((True, False), (False, True)):
        s = new_game(catalog, seats=("N", "S"), options={"favor_card_outlaws_needs_gold": needs})
        s = run_until(s, at("play_card", chapter=2))
        a = s["active"]
        cycle = s["cat"]["game"]["favor_track"]["cycle"]
        s["favor"]["index"] = cycle.index("bishop")
        set_res(s, a, "gold", 0)
        action = {"type": "play_card", "by": a, "card": "favor",
                  "discard": discard_for(s, a, "favor")}
        if ok:
            s2, _ = GAME.apply(s, action)
            assert cycle[s2["favor"]["index"]] == "outlaws"
        else:
            s2, reason = no_effect(s, **action)
            assert reason == "outlaws_no_gold" and cycle[s2["favor"]["index"]] == "bishop"


def test_partial_duty_payment(catalog):
    """A-19: hand in what you have (default) or nothing of a duty you cannot meet."""
    plain(catalog)
    for partial, piety_left in ((True, 0), (False, 1)):
        s = new_game(catalog, seats=("N", "S"), options={"partial_duty_payment": partial})
        s = run_until(s, at("roll_tax"))
        set_res(s, "N", "piety", 1)
        set_res(s, "N", "grain", 2)
        set_res(s, "N", "gold", 5)
        set_res(s, "N", "loyalty", 0)
        s["players"]["N"]["vp"] = 20
        s = act(s, type="roll_tax", by="table", value=2)
        expected_loss = 3 if partial else 6
        assert res(s, "N")["piety"] == piety_left and vp(s, "N") == 20 - expected_loss


def test_chapter4_loyalty_against_doubling(catalog):
    """A-18: 1 loyalty per failed duty type removes that type's doubling."""
    plain(catalog)
    s = new_game(catalog, seats=("N", "S"))
    s = run_until(s, at("roll_tax", chapter=4))
    set_res(s, "N", "piety", 2)
    set_res(s, "N", "grain", 1)
    set_res(s, "N", "gold", 0)
    set_res(s, "N", "loyalty", 1)
    s["players"]["N"]["vp"] = 20
    s = act(s, type="roll_tax", by="table", value=2)
    assert head(s)["kind"] == "choose_protection" and "N" in head(s)["seats"]
    s = act(s, type="choose_protection", by="N", cancel=["gold"])
    # grain doubled 1*4, gold normal 2*1
    assert vp(s, "N") == 14
    if not s["over"]:
        s = run_until(s, lambda x: x["over"])
    assert vp(s, "N") == 14 and res(s, "N")["loyalty"] == 0


def test_chapter4_end_steps(catalog):
    """A-29: after chapter IV project progress runs (default) or not."""
    plain(catalog)
    bridge = next(p for p in catalog["projects"] if p["id"] == "bridge")
    bridge["stone"], bridge["wood"] = 20, 10   # never completes in this game
    for run, gain in ((True, 1), (False, 0)):
        s = new_game(catalog, seats=("N", "S"), options={"chapter4_end_steps": run})
        s = run_until(s, at("play_card", chapter=4, round_=6))
        before = s["projects"]["bridge"]["stone"] + s["projects"]["bridge"]["wood"]
        s = run_until(s, at("roll_tax", chapter=4))
        after = s["projects"]["bridge"]["stone"] + s["projects"]["bridge"]["wood"]
        assert after - before == gain


def test_plague_values_app(catalog):
    """R7.1: app mode shuffles the catalog's tokens with the seeded generator."""
    plain(catalog)
    s = new_game(catalog, seats=("N", "S"), options={"plague_values": "app"})
    s = run_until(s, at("reveal_event", chapter=3))
    values = sorted(t["value"] for t in s["plague"].values())
    assert values == sorted(catalog["plague"]["tokens"])
    assert all(t["state"] == "hidden" for t in s["plague"].values())
    assert all(v["value"] is None for v in GAME.public_view(s)["plague"].values())
    s2 = run_until(new_game(catalog, seats=("N", "S"), options={"plague_values": "app"}),
                   at("reveal_event", chapter=3))
    assert s2["plague"] == s["plague"]    # same seed, same layout


def test_sell_any_wool(catalog):
    """A-1: any number of wool (default) or, read literally from PL, at most 1."""
    plain(catalog)
    for any_wool in (True, False):
        s = new_game(catalog, seats=("N", "S"), options={"sell_any_wool": any_wool})
        s = run_until(s, at("play_card"))
        set_res(s, "N", "wool", 3)
        action = {"type": "play_card", "by": "N", "card": "sell_wool_cloth", "discard": "grain",
                  "params": {"wool": 3, "cloth": 0}}
        try:
            s2, _ = GAME.apply(s, action)
        except Refused as r:
            assert not any_wool and r.code == "wool_max"
        else:
            assert any_wool and res(s2, "N")["wool"] == 0


def test_free_house_same_rent(catalog):
    """A-28: the free house obeys the same-rent rule (default) or not."""
    plain(catalog)
    sites = catalog["building_sites"]
    for site in sites:
        site["rent"] = {"item": "gold", "amount": 1}
    for same_rent, ok in ((True, False), (False, True)):
        s = new_game(catalog, seats=("N", "S"), options={"free_house_same_rent": same_rent})
        s = run_until(s, at("play_card", chapter=3))
        for tok in s["plague"].values():
            tok["state"] = "hidden"
        s["plague"]["9"] = {"state": "sick", "value": 1}
        a = s["active"]
        s["sites"][sites[0]["id"]] = a
        s["players"][a]["houses"] = [sites[0]["id"]]
        set_res(s, a, "mk", 1)
        s = act(s, type="play_card", by=a, card="medicine",
                discard=discard_for(s, a, "medicine"),
                params={"mode": "cure", "locations": [9]})
        assert (head(s) or {}).get("kind") == ("place_free_house" if ok else "play_card")


def test_hospital_cures_per_donor(catalog):
    """A-21: one resident per Hospital donor (default) or as many as the MK sum covers."""
    plain(catalog)
    for mode, cured in (("one", 1), ("sum", 2)):
        s = new_game(catalog, seats=("N", "S"), options={"hospital_cures_per_donor": mode})
        s = run_until(s, at("play_card", chapter=3))
        for tok in s["plague"].values():
            tok["state"] = "hidden"
        s["plague"]["2"] = {"state": "sick", "value": 1}
        s["plague"]["3"] = {"state": "sick", "value": 1}
        s, a = complete_hospital(s)
        action = {"type": "cure", "by": a, "locations": [2, 3]}
        try:
            s, _ = GAME.apply(s, action)
        except Refused as r:
            assert mode == "one" and r.code == "too_many_cures"
            s = act(s, type="cure", by=a, location=2)
        removed = sum(t["state"] == "removed" for t in s["plague"].values())
        assert removed == cured


def test_random_discards_table(catalog):
    """A-11/A-14: with random_discards "table" the drawn Penance card is recorded by the
    table, and a random face-down discard is the recorded play_card discard."""
    plain(catalog)
    s = new_game(catalog, seats=("N", "S"), options={"random_discards": "table"})
    s = run_until(s, at("roll_tax"))
    for seat in ("N", "S"):
        set_res(s, seat, "piety", 2)
        set_res(s, seat, "grain", 2)
        set_res(s, seat, "gold", 5)
        set_res(s, seat, "loyalty", 0)
    set_res(s, "N", "piety", 0)
    s = act(s, type="roll_tax", by="table", value=2)
    assert head(s)["kind"] == "record_discard" and head(s)["seat"] == "N"
    assert refused(s, type="record_discard", by="S", card="rent").code == "not_your_turn"
    s = act(s, type="record_discard", by="table", card="rent")
    assert s["players"]["N"]["discards"] == ["rent"] and head(s)["kind"] == "reveal_event"
    # an immediate random_discard event: the player records the drawn card as the discard
    card = next(c for c in s["cat"]["events"].values() if c["chapter"] == 2)
    s["cat"]["events"][card["id"]]["effects"] = [{"type": "random_discard", "who": "all"}]
    s = act(s, type="reveal_event", by="table", card=card["id"])
    s = run_until(s, lambda x: head(x)["kind"] == "play_card" and head(x)["seat"] == "S")
    s = act(s, type="play_card", by="S", card="grain", discard="favor", perform=False)
    assert s["players"]["S"]["discards"] == ["favor"]


def test_permanent_third_acts(catalog):
    """A-24: the round a 3rd permanent event appears, it acts with the 2 in the slots
    (default); off: it waits until it lies in a slot."""
    plain(catalog)
    perms = ["demo_feast", "demo_flood", "demo_bishops_visit"]
    for cid, price in zip(perms, (1, 3, 5), strict=True):
        c = next(x for x in catalog["event_cards"] if x["id"] == cid)
        c["permanent"] = True
        c["effects"] = [{"type": "price", "item": "wool", "price": price}]
    for third_acts, price in ((True, 5), (False, 3)):
        s = new_game(catalog, seats=("N", "S"), options={"permanent_third_acts": third_acts})
        for cid in perms:
            s = act(s, type="reveal_event", by="table", card=cid)
            s = run_until(s, at("play_card"))
            if cid != perms[-1]:
                s = run_until(s, at("reveal_event"))
        assert GAME.public_view(s)["market"]["prices"]["wool"] == price


def test_covered_projects_no_progress(catalog):
    """E1 best reading: covered projects get no chapter-end material (default)."""
    plain(catalog)
    for skip, gain in ((True, 0), (False, 1)):
        s = new_game(catalog, seats=("N", "S"),
                     options={"covered_projects_no_progress": skip})
        s = run_until(s, at("play_card", round_=6))
        s["covers"]["project"] = ["bridge"]
        s = run_until(s, at("roll_tax"))
        assert s["projects"]["bridge"]["stone"] == gain


def test_chapter4_loyalty_off_means_doubled(catalog):
    """A-18 off: loyalty cannot remove the doubling; nobody is asked."""
    plain(catalog)
    s = new_game(catalog, seats=("N", "S"), options={"chapter4_loyalty_per_type": False})
    s = run_until(s, at("roll_tax", chapter=4))
    for seat in ("N", "S"):
        set_res(s, seat, "piety", 2)
        set_res(s, seat, "grain", 1)
        set_res(s, seat, "gold", 0)
        set_res(s, seat, "loyalty", 3)
        s["players"][seat]["vp"] = 20
    s = act(s, type="roll_tax", by="table", value=2)
    assert s["over"] and vp(s, "N") == 12 and res(s, "N")["loyalty"] == 3


def _final_tie(catalog, shared):
    plain(catalog)
    s = new_game(catalog, seats=("N", "S"), options={"shared_victory": shared})
    s = run_until(s, at("roll_tax", chapter=4))
    for seat in ("N", "S"):
        for item, n in (("piety", 3), ("grain", 2), ("gold", 2), ("loyalty", 1), ("mk", 2),
                        ("stone", 0), ("wood", 0)):
            set_res(s, seat, item, n)
        s["players"][seat]["vp"] = 30
    return act(s, type="roll_tax", by="table", value=2)


def test_tiebreak_and_shared_victory(catalog):
    """R8.3/A-34: piety > loyalty > MK decide a tie; beyond that a shared victory."""
    s = _final_tie(catalog, True)
    assert [r["rank"] for r in GAME.scores(s)] == [1, 1]
    s = _final_tie(catalog, False)
    assert [r["rank"] for r in GAME.scores(s)] == [1, 2]
    plain(catalog)
    s = new_game(catalog, seats=("N", "S"))
    s = run_until(s, at("roll_tax", chapter=4))
    for seat, mk in (("N", 1), ("S", 2)):
        for item, n in (("piety", 3), ("grain", 2), ("gold", 2), ("loyalty", 1), ("mk", mk),
                        ("stone", 0), ("wood", 0)):
            set_res(s, seat, item, n)
        s["players"][seat]["vp"] = 30
    s = act(s, type="roll_tax", by="table", value=2)
    scores = GAME.scores(s)
    assert [(r["seat"], r["rank"]) for r in scores] == [("S", 1), ("N", 2)]
    assert scores[0]["tiebreak"] == [1, 1, 2]


def test_a_full_corner_gives_its_items_with_either_income_setting(catalog):
    """A-25 decides only a short supply: with enough gold both settings give the corner."""
    _gold_corners(catalog, ["gold2", "vp", "vp", "vp"])
    for partial in (True, False):
        s = new_game(catalog, seats=("N", "S"), options={"income_partial": partial})
        s = act(s, type="reveal_event", by="table", card="demo_feast")
        s["supply"]["gold"] = 5
        gold, v = res(s, "N")["gold"], vp(s, "N")
        s = act(s, type="orient_event", by="N", rotation=0)
        assert (res(s, "N")["gold"] - gold, vp(s, "N") - v) == (2, 0), partial


def test_the_orientation_preview_is_the_income_the_table_then_gets(catalog):
    """The phone shows each rotation's income before the tap (`income_preview`): it must be
    what orienting the card that way gives, full or short supply, both A-25 settings."""
    from engine.wwe.actions import income_preview
    _gold_corners(catalog, ["gold2", "vp", "gold1", "vp"])
    for partial in (True, False):
        for supply in (5, 1, 0):
            s = new_game(catalog, seats=("N", "S"), options={"income_partial": partial})
            s = act(s, type="reveal_event", by="table", card="demo_feast")
            s["supply"]["gold"] = supply
            for rotation in range(4):
                shown = income_preview(s, "demo_feast", rotation)
                after = act(s, type="orient_event", by="N", rotation=rotation)
                for seat in ("N", "S"):
                    got = {"gold": res(after, seat)["gold"] - res(s, seat)["gold"],
                           "vp": vp(after, seat) - vp(s, seat)}
                    want = {"gold": 0, "vp": 0, **shown.get(seat, {})}
                    assert got == want, (partial, supply, rotation, seat)

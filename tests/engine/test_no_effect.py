"""R4.1.2 "a card whose action cannot be carried out simply does nothing" and R3.3.3's
Outlaws check at the favor step (rules: shared/rules/world-without-end.md)."""
from __future__ import annotations

from engine.wwe import GAME
from engine.wwe.texts import EVENT_TEXTS
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
)


def _at_play(catalog):
    plain(catalog)
    return run_until(new_game(catalog, seats=("N", "S")), at("play_card"))


def test_grain_with_empty_field_is_played_without_effect(catalog):
    """R4.1.2, R4.3 #1: "Field empty -> nothing"; no VP substitute either."""
    s = _at_play(catalog)
    s["supply"]["grain"] = 0
    vp = s["players"]["N"]["vp"]
    after, events = GAME.apply(s, {"type": "play_card", "by": "N", "card": "grain",
                                   "discard": "piety", "perform": True})
    note = next(e for e in events if e["type"] == "card_no_effect")
    assert note == {"type": "card_no_effect", "seat": "N", "card": "grain",
                    "reason": "out_of_supply",
                    "why": {"code": "out_of_supply", "params": {"item": "grain"}}}
    assert EVENT_TEXTS["card_no_effect"].format(**note)
    assert res(after, "N")["grain"] == 0 and after["players"]["N"]["vp"] == vp
    assert after["players"]["N"]["discards"] == ["piety"]   # the discard still happens
    assert after["queue"][0]["seat"] == "S"                 # and the round goes on


def test_privilege_in_round_one_does_nothing(catalog):
    """R4.3 #6 and A-9: Privilege "does nothing in the first round of a chapter"."""
    s = _at_play(catalog)
    after, reason = no_effect(s, type="play_card", by="N", card="privilege", discard="grain")
    assert reason == "privilege_nothing"
    assert after["players"]["N"]["res"] == s["players"]["N"]["res"]


def test_bad_input_is_still_refused(catalog):
    """Only a card that cannot be carried out does nothing; wrong input stays refused."""
    s = _at_play(catalog)
    s["supply"]["stone"] = s["supply"]["wood"] = 0
    assert refused(s, type="play_card", by="N", card="building_material", discard="grain",
                   params={"item": "gems"}).code == "bad_params"
    # Rent without its sites is bad input, even though North has no house to rent from
    assert refused(s, type="play_card", by="N", card="rent", discard="grain").code == \
        "bad_params"
    s["players"]["N"]["hand"].remove("weaver")
    assert refused(s, type="play_card", by="N", card="weaver",
                   discard="grain").code == "card_not_in_hand"


def test_choices_offer_the_no_effect_play(catalog):
    """The phone shows the card as playable, marked as doing nothing, with the reason."""
    s = _at_play(catalog)
    s["supply"]["grain"] = 0
    grain = [c for c in GAME.choices(s, "N")
             if c.action["card"] == "grain" and c.action.get("perform")]
    assert grain and all(c.refused is None for c in grain)
    assert grain[0].effect["no_effect"]["code"] == "out_of_supply"


def _outlaws_game(catalog, check):
    """demo_feast, rotation 1: favor value 1 (Bishop -> Outlaws) and North's corner gives
    1 gold (corner 3 faces North at rotation 1); North holds no gold before income."""
    plain(catalog)
    feast = next(c for c in catalog["event_cards"] if c["id"] == "demo_feast")
    feast.update(arrow=0, corners=["mk", "vp", "grain", "gold1"])
    catalog["game"]["council"]["side_values"] = [0, 1, 2, 3]
    s = new_game(catalog, seats=("N", "S"), options={"outlaws_check": check})
    s = act(s, type="reveal_event", by="table", card="demo_feast")
    s["favor"]["index"] = s["cat"]["game"]["favor_track"]["cycle"].index("bishop")
    set_res(s, "N", "gold", 0)
    return s


def test_outlaws_checked_at_the_favor_step_after_income(catalog):
    """R3.3.3 with R3.5.1: the gold is paid at step 4, "after all income is collected", so
    this card's gold corner pays the Outlaws (default outlaws_check: after_income)."""
    s = _outlaws_game(catalog, "after_income")
    after = act(s, type="orient_event", by="N", rotation=1)
    cycle = after["cat"]["game"]["favor_track"]["cycle"]
    assert cycle[after["favor"]["index"]] == "outlaws"
    assert res(after, "N")["gold"] == 0          # got 1 as income, paid 1 to the Outlaws
    choice = next(c for c in GAME.choices(s, "N") if c.action["rotation"] == 1)
    assert choice.refused is None


def test_outlaws_still_illegal_without_gold_after_income(catalog):
    s = _outlaws_game(catalog, "after_income")
    feast = s["cat"]["events"]["demo_feast"]
    s["cat"] = {**s["cat"], "events": {**s["cat"]["events"],
                                       "demo_feast": {**feast, "corners": ["mk", "vp",
                                                                           "grain", "wool"]}}}
    r = refused(s, type="orient_event", by="N", rotation=1)
    assert r.code == "outlaws_no_gold"


def test_outlaws_before_income_option(catalog):
    """outlaws_check: before_income judges with the gold held when the card is oriented."""
    s = _outlaws_game(catalog, "before_income")
    assert refused(s, type="orient_event", by="N", rotation=1).code == "outlaws_no_gold"


def _idle_code(state, seat, card):
    """The reason the seat's phone gives for ``card`` doing nothing now (its choice)."""
    return next(c.effect["no_effect"]["code"] for c in GAME.choices(state, seat)
                if c.action.get("card") == card and c.action.get("perform")
                and "no_effect" in c.effect)


def test_a_card_that_does_nothing_says_the_seats_own_lack(catalog):
    """Issue 46 #11: Rent with no house says so (not "collect from 1 or 2 of your houses");
    Sell wool & cloth with neither says so, and with no wool while the cloth space is
    covered says both (not only "the cloth space is covered")."""
    s = _at_play(catalog)
    player = s["players"]["N"]
    player["hand"] = ["rent", "sell_wool_cloth", "grain", "piety"]
    player["houses"] = []
    set_res(s, "N", "wool", 0)
    set_res(s, "N", "cloth", 0)
    assert _idle_code(s, "N", "rent") == "no_house_for_rent"
    assert _idle_code(s, "N", "sell_wool_cloth") == "no_wool_or_cloth"
    set_res(s, "N", "cloth", 1)
    s["covers"]["market"] = ["cloth"]
    assert _idle_code(s, "N", "sell_wool_cloth") == "no_wool_cloth_covered"
    _after, why = no_effect(s, type="play_card", by="N", card="rent", discard="grain",
                            perform=True, params={"sites": []})
    assert why == "no_house_for_rent"  # the log says the same

"""A-7: permanent events change later income (`income_modifier`) and later event cards
(`event_modifier`), from step 5 of their round (R3.2.5) to the chapter end, up to three at
once (A-24)."""
from __future__ import annotations

from engine.wwe import GAME
from engine.wwe.catalog import validate
from tests.engine.wwe_helpers import (
    act_ev,
    at,
    head,
    new_game,
    plain,
    res,
    run_until,
    set_res,
    vp,
    zero_rotation,
)


def _card(catalog, cid):
    return next(c for c in catalog["event_cards"] if c["id"] == cid)


def _setup(catalog, cards):
    """``cards``: {card id: (permanent, effects)} on an otherwise effect-free deck."""
    plain(catalog)
    for cid, (permanent, effects) in cards.items():
        _card(catalog, cid)["permanent"] = permanent
        _card(catalog, cid)["effects"] = effects
    return catalog


def _round(s, card):
    """Reveal ``card`` and orient it with favor 0; returns the state and the income events."""
    s, _ = act_ev(s, type="reveal_event", by="table", card=card)
    s = run_until(s, at("orient_event"))
    s, ev = act_ev(s, type="orient_event", by=head(s)["seat"], rotation=zero_rotation(s))
    return s, ev


def _income(ev, seat):
    """What the seat got in step 3: {item: n} with VP under "vp"."""
    out = {}
    for e in ev:
        if e.get("seat") != seat:
            continue
        if e["type"] in ("income", "gain"):
            out[e["item"]] = out.get(e["item"], 0) + e["amount"]
        elif e["type"] == "vp":
            out["vp"] = out.get("vp", 0) + e["delta"]
    return out


def _next_reveal(s):
    return run_until(s, at("reveal_event"))


ALL_VP = {"type": "income_modifier", "who": "all", "item": "any", "replacement": "vp"}


def test_income_modifier_from_next_round_to_chapter_end(catalog):
    """A blue card's rules change from step 5 of its round (R3.2.5): its own round's income is
    as printed; every later round of the chapter is changed; the next chapter is not."""
    cat = _setup(catalog, {"demo_feast": (True, [ALL_VP])})
    s = new_game(cat, seats=("N", "S"))
    s, ev = _round(s, "demo_feast")
    assert not [e for e in ev if e["type"] == "income_modified"]
    assert head(s)["kind"] == "play_card" and "demo_feast" in GAME.public_view(s)["in_force"]
    s = _next_reveal(s)
    s, _ = act_ev(s, type="reveal_event", by="table", card="demo_flood")
    s = run_until(s, at("orient_event"))
    # the orientation preview already shows the changed income (1 VP for everybody)
    for choice in GAME.choices(s, s["active"]):
        assert choice.effect["income"] == {"N": {"vp": 1}, "S": {"vp": 1}}
    before = {seat: dict(res(s, seat)) for seat in ("N", "S")}
    s, ev = act_ev(s, type="orient_event", by=s["active"], rotation=zero_rotation(s))
    assert {e["seat"] for e in ev if e["type"] == "income_modified"} == {"N", "S"}
    for seat in ("N", "S"):
        assert _income(ev, seat) == {"vp": 1}
        assert res(s, seat) == before[seat]
    # rounds 3-6 of chapter I still changed; chapter II: the card has left the board
    s = run_until(s, at("reveal_event", chapter=2))
    assert s["slots"] == [] and GAME.public_view(s)["in_force"] == []
    s, _ = _round(s, "king_edward_iii")   # round 1 (may be a Begging round)
    s = _next_reveal(s)
    s, ev = _round(s, "with_godwyns_help")
    assert not [e for e in ev if e["type"] == "income_modified"]
    assert any(e["type"] == "income" for e in ev)


def test_income_bonus_for_one_item_and_who(catalog):
    """A bonus on one printed item, for the active player at the reveal only; an immediate
    card's modifier acts in its own round's step 3."""
    bonus = {"type": "income_modifier", "who": "active", "item": "any", "bonus": {"gold": 1}}
    cat = _setup(catalog, {"demo_feast": (False, [bonus])})
    s = new_game(cat, seats=("N", "S"))
    assert s["active"] == "N"
    s, ev = _round(s, "demo_feast")
    n, south = _income(ev, "N"), _income(ev, "S")
    # N's corner income plus 1 gold; S only the printed corner
    assert sum(n.values()) == sum(south.values()) + 1
    assert n.get("gold", 0) >= 1
    s = _next_reveal(s)
    s, ev = _round(s, "demo_flood")  # round 2: the immediate card's modifier is gone
    assert sum(_income(ev, "N").values()) == sum(_income(ev, "S").values())


def test_replacement_none_and_chaining(catalog):
    """A replacement of "none" takes the corner away; replacements chain by arrival."""
    cat = _setup(catalog, {
        "demo_feast": (True, [{"type": "income_modifier", "who": "all", "item": "any",
                               "replacement": "wool"}]),
        "demo_flood": (True, [{"type": "income_modifier", "who": "all", "item": "wool",
                               "replacement": "none"}]),
    })
    s = new_game(cat, seats=("N", "S"))
    s, _ = _round(s, "demo_feast")
    s = _next_reveal(s)
    s, ev = _round(s, "demo_flood")   # only demo_feast acts: everything becomes wool
    assert _income(ev, "N") == {"wool": 1} and _income(ev, "S") == {"wool": 1}
    s = _next_reveal(s)
    wool = res(s, "N")["wool"], res(s, "S")["wool"]
    s, ev = _round(s, "demo_bishops_visit")  # both act: any -> wool -> nothing
    assert _income(ev, "N") == {} and _income(ev, "S") == {}
    assert (res(s, "N")["wool"], res(s, "S")["wool"]) == wool
    assert [e["replacement"] for e in ev if e["type"] == "income_modified"] == ["none"] * 2


def test_three_income_modifiers_a24(catalog):
    """A-24: in the round a 3rd blue card appears, 3 act in step 5; in step 3 only the 2 in
    the slots act (R3.2.5). The oldest leaves at the end of that round."""
    plus = {"type": "income_modifier", "who": "all", "item": "any", "bonus": {"vp": 1}}
    perms = ["demo_feast", "demo_flood", "demo_bishops_visit"]
    cat = _setup(catalog, {cid: (True, [plus]) for cid in perms})
    s = new_game(cat, seats=("N", "S"))
    extra = []
    for cid in perms:
        s, ev = _round(s, cid)
        extra.append(_income(ev, "N").get("vp", 0) - (1 if _corner_vp(s, ev, "N") else 0))
        s = run_until(s, at("play_card"))
        assert GAME.public_view(s)["in_force"] == perms[:perms.index(cid) + 1]
        s = _next_reveal(s)
    assert extra == [0, 1, 2]
    assert s["slots"] == perms[1:]
    s, ev = _round(s, "ralph_fitzgerald")
    assert _income(ev, "N").get("vp", 0) - (1 if _corner_vp(s, ev, "N") else 0) == 2


def _corner_vp(s, ev, seat):
    """Whether the printed corner facing ``seat`` was the VP corner."""
    card = s["cat"]["events"][s["event"]]
    from engine.wwe import state as st
    for k, corner in enumerate(card["corners"]):
        if st.seat_of_rotation(s, k, s["rotation"]) == seat:
            return corner == "vp"
    return False


SPARE_LOSS = {"type": "event_modifier", "effect": "lose", "who": "all", "disabled": True}
LOSE_GOLD = {"type": "lose", "who": "all", "items": {"gold": 1}}


def test_event_modifier_spares_later_events_until_chapter_end(catalog):
    cat = _setup(catalog, {
        "demo_feast": (True, [SPARE_LOSS]),
        "demo_flood": (False, [LOSE_GOLD, {"type": "gain", "who": "all",
                                           "items": {"loyalty": 1}}]),
        "demo_stone_delivery": (False, [LOSE_GOLD]),
    })
    s = new_game(cat, seats=("N", "S"))
    s, _ = _round(s, "demo_feast")
    s = _next_reveal(s)
    gold = res(s, "N")["gold"], res(s, "S")["gold"]
    loyalty = res(s, "N")["loyalty"]
    s, ev = act_ev(s, type="reveal_event", by="table", card="demo_flood")
    assert (res(s, "N")["gold"], res(s, "S")["gold"]) == gold        # spared
    assert res(s, "N")["loyalty"] == loyalty + 1                      # gains still happen
    assert sorted(e["seat"] for e in ev if e["type"] == "event_spared") == ["N", "S"]
    s = run_until(s, at("reveal_event", chapter=2))
    set_res(s, "N", "gold", 2)
    s, ev = act_ev(s, type="reveal_event", by="table", card="demo_stone_delivery")
    assert res(s, "N")["gold"] == 1 and not [e for e in ev if e["type"] == "event_spared"]


def test_event_modifier_three_at_once_a24(catalog):
    """The oldest card's modifier still spares players from the 3rd blue card's one-shot
    effect in that round's step 5 (A-24); after it leaves, losses hit again."""
    cat = _setup(catalog, {
        "demo_feast": (True, [SPARE_LOSS]),
        "demo_flood": (True, []),
        "demo_bishops_visit": (True, [LOSE_GOLD]),
        "demo_royal_tithe": (False, [LOSE_GOLD]),
    })
    s = new_game(cat, seats=("N", "S"))
    for cid in ("demo_feast", "demo_flood"):
        s, _ = _round(s, cid)
        s = _next_reveal(s)
    for seat in ("N", "S"):
        set_res(s, seat, "gold", 3)
    s, _ = _round(s, "demo_bishops_visit")   # its lose runs as step 5 begins
    assert head(s)["kind"] == "play_card"
    assert GAME.public_view(s)["in_force"] == ["demo_feast", "demo_flood", "demo_bishops_visit"]
    assert res(s, "N")["gold"] == 3 + _income_gold(s, "N")
    s = _next_reveal(s)
    assert s["slots"] == ["demo_flood", "demo_bishops_visit"]
    gold = res(s, "S")["gold"]
    s, _ = act_ev(s, type="reveal_event", by="table", card="demo_royal_tithe")
    assert res(s, "S")["gold"] == gold - 1


def _income_gold(s, seat):
    card = s["cat"]["events"][s["event"]]
    from engine.wwe import state as st
    for k, corner in enumerate(card["corners"]):
        if st.seat_of_rotation(s, k, s["rotation"]) == seat and corner.startswith("gold"):
            return int(corner[4:] or 1)
    return 0


def test_begging_gets_no_modified_income(catalog):
    cat = _setup(catalog, {"demo_feast": (False, [
        {"type": "income_modifier", "who": "all", "item": "any", "bonus": {"vp": 2}}])})
    s = new_game(cat, seats=("N", "S"))
    s["round_flags"]["S"]["begging"] = True
    before = vp(s, "S")
    s, ev = _round(s, "demo_feast")
    assert vp(s, "S") == before and _income(ev, "S") == {}


def _problems(cat):
    return {(p["entry"], p["field"], p["code"]) for p in validate(cat)}


def test_validator_for_modifiers(catalog):
    _card(catalog, "demo_feast")["effects"] = [
        {"type": "income_modifier", "who": "all", "item": "gold3"},
        {"type": "income_modifier", "who": "all", "item": "any", "replacement": "metal"},
        {"type": "event_modifier", "effect": "price", "who": "all", "disabled": False},
    ]
    found = _problems(catalog)
    assert ("demo_feast", "effects[0].item", "bad_value") in found
    assert ("demo_feast", "effects[0]", "empty_modifier") in found
    assert ("demo_feast", "effects[1].replacement", "bad_value") in found
    assert ("demo_feast", "effects[2].effect", "bad_value") in found
    assert ("demo_feast", "effects[2].disabled", "bad_value") in found
    assert ("demo_feast", "effects[2].type", "permanent_only") in found  # demo_feast is beige
    _card(catalog, "demo_feast")["permanent"] = True
    _card(catalog, "demo_feast")["effects"] = [SPARE_LOSS, {
        "type": "income_modifier", "who": "others", "item": "wool", "replacement": "none",
        "bonus": {"vp": 1}}]
    assert not [p for p in validate(catalog) if p["entry"] == "demo_feast"]


def test_shipped_demo_cards_use_the_modifiers(shipped_catalog):
    kinds = {e["type"]: c["id"] for c in shipped_catalog["event_cards"] for e in c["effects"]}
    assert kinds["income_modifier"] == "demo_wood_merchant"
    assert kinds["event_modifier"] == "demo_earl_absent"


def test_a_modifier_changes_only_the_corner_it_names(catalog):
    """`modified_income` (issue 34: `or` turned into `and` went unnoticed): a modifier of
    wool leaves a grain corner alone, `any` changes every corner, and a corner already taken
    away ("none") stays away, bonus included."""
    from engine.wwe.effects import modified_income

    s = new_game(_setup(catalog, {}), seats=("N", "S"))
    wool_vp = {"who": "all", "item": "wool", "replacement": "vp", "bonus": {"gold": 1}}
    any_wool = {"who": "all", "item": "any", "replacement": "wool"}
    assert modified_income(s, "N", "grain", [wool_vp]) == ("grain", {})
    assert modified_income(s, "N", "wool", [wool_vp]) == ("vp", {"gold": 1})
    assert modified_income(s, "N", "grain", [any_wool, wool_vp]) == ("vp", {"gold": 1})
    assert modified_income(s, "N", None, [any_wool, wool_vp]) == (None, {})

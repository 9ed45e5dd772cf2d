"""Every class of illegal action is refused with its code, and the state stays unchanged.

`refused()` (wwe_helpers) compares the JSON of the state before and after each attempt.
"""
from __future__ import annotations

import pathlib
import re

import pytest

from engine.wwe import GAME
from engine.wwe.reasons import REASONS
from engine.wwe.texts import EVENT_TEXTS
from tests.engine.wwe_helpers import (
    act,
    at,
    english,
    new_game,
    no_effect,
    plain,
    refused,
    run_until,
    set_res,
)


@pytest.fixture
def at_orient(catalog):
    plain(catalog)
    s = new_game(catalog, seats=("N", "E", "S"))
    return act(s, type="reveal_event", by="table", card="demo_feast")


@pytest.fixture
def at_play(at_orient):
    return run_until(at_orient, at("play_card"))


def test_wrong_seat(at_orient, at_play):
    assert refused(at_orient, type="orient_event", by="E", rotation=0).code == "not_your_turn"
    r = refused(at_play, type="play_card", by="S", card="grain", discard="piety")
    assert r.code == "not_your_turn" and r.params == {"seat": "N"}
    assert refused(at_play, type="play_card", by="Q", card="grain").code == "unknown_seat"


def test_wrong_phase(at_orient, at_play):
    r = refused(at_orient, type="play_card", by="N", card="grain", discard="piety")
    assert r.code == "wrong_phase" and r.params == {"expected": "orient_event", "got": "play_card"}
    assert refused(at_play, type="roll_tax", by="table", value=3).code == "wrong_phase"
    assert refused(at_play, type="reveal_event", by="table",
                   card="demo_flood").code == "wrong_phase"
    assert refused(at_play, type="answer_trade", by="N", accept=True).code == "no_trade_offer"


def test_unaffordable(at_play):
    """Asking for what you cannot pay is refused while another way exists; with no way at
    all the card is played and does nothing (R4.1.2)."""
    no_stone = {"project": "bridge", "stone": 1, "wood": 0}
    assert no_effect(at_play, type="play_card", by="N", card="building_project",
                     discard="grain", params=no_stone)[1] == "cannot_afford"
    set_res(at_play, "N", "wood", 1)
    r = refused(at_play, type="play_card", by="N", card="building_project", discard="grain",
                params=no_stone)
    assert r.code == "cannot_afford" and r.params["item"] == "stone"
    r = refused(at_play, type="play_card", by="N", card="weaver", discard="grain",
                params={"wool": 2})
    assert r.code == "cannot_afford"
    site = next(sid for sid, spec in at_play["cat"]["sites"].items()
                if spec["material"] == "stone")   # N holds wood, not stone
    r = refused(at_play, type="play_card", by="N", card="build_house", discard="grain",
                params={"site": site})
    assert r.code == "cannot_afford"


def test_out_of_supply(at_play):
    """R4.1.2 / R4.3 #1: Grain with an empty Field is played and simply does nothing."""
    s = at_play
    s["supply"]["grain"] = 0
    s1, reason = no_effect(s, type="play_card", by="N", card="grain", discard="piety")
    assert reason == "out_of_supply" and s1["players"]["N"]["res"]["grain"] == 0
    # R4.1.2: the card may still be played without effect
    s2 = act(s, type="play_card", by="N", card="grain", discard="piety", perform=False)
    assert s2["players"]["N"]["played"] == ["grain"]


def test_against_the_catalog(at_orient, at_play):
    assert refused(at_orient, type="orient_event", by="N", rotation=4).code == "bad_params"
    r = refused(at_play, type="play_card", by="N", card="donation", discard="grain",
                params={"project": "cathedral"})
    assert r.code == "unknown_project"
    r = refused(at_play, type="play_card", by="N", card="donation", discard="grain",
                params={"project": "hospital"})
    assert r.code == "project_not_on_board"
    r = refused(at_play, type="play_card", by="N", card="build_house", discard="grain",
                params={"site": "site_99"})
    assert r.code in ("unknown_site", "cannot_afford")
    r = refused(at_play, type="play_card", by="N", card="sell_wool_cloth", discard="grain",
                params={"wool": 0, "cloth": 1})
    assert r.code == "market_closed"  # S16: cloth space covered in chapter I


def test_against_the_catalog_reveal(catalog):
    s = new_game(catalog, seats=("N", "S"))
    assert refused(s, type="reveal_event", by="table", card="nope").code == "unknown_card"
    r = refused(s, type="reveal_event", by="table", card="king_edward_iii")
    assert r.code == "wrong_chapter"
    s2 = act(s, type="reveal_event", by="table", card="demo_feast")
    s2 = run_until(s2, at("reveal_event", round_=2))
    r = refused(s2, type="reveal_event", by="table", card="demo_feast")
    assert r.code == "card_already_used"


def test_tax_die_value_outside_faces(catalog):
    plain(catalog)
    s = run_until(new_game(catalog, seats=("N", "S")), at("roll_tax"))
    r = refused(s, type="roll_tax", by="table", value=6)
    assert r.code == "bad_die_value" and r.params["faces"] == [2, 3, 4, 5]
    assert refused(s, type="roll_tax", by="table", value="4").code == "bad_params"


def test_unknown_action(at_play):
    r = refused(at_play, type="teleport", by="N")
    assert r.code == "unknown_action" and r.params == {"type": "teleport"}


def test_malformed(at_play):
    from engine.api import Refused
    for bad in (None, [], "play", {"by": "N"}, {"type": 5, "by": "N"}):
        with pytest.raises(Refused) as info:
            GAME.apply(at_play, bad)
        assert info.value.code == "malformed_action"
    r = refused(at_play, type="play_card", by="N", card="grain", discard="piety", perform="yes")
    assert r.code == "malformed_action"
    r = refused(at_play, type="play_card", by="N", card="grain", discard="piety", params=[1])
    assert r.code == "malformed_action"
    r = refused(at_play, type="play_card", by="N", card="sell_wool_cloth", discard="grain",
                params={"wool": -1})
    assert r.code == "bad_params"


def test_discard_rules(at_play):
    assert refused(at_play, type="play_card", by="N", card="grain").code == "discard_required"
    r = refused(at_play, type="play_card", by="N", card="grain", discard="grain")
    assert r.code == "discard_same_card"
    r = refused(at_play, type="play_card", by="N", card="grain", discard="joker")
    assert r.code == "card_not_in_hand"
    r = refused(at_play, type="play_card", by="N", card="joker", discard="grain")
    assert r.code == "card_not_in_hand"


def test_first_game_no_discard(catalog):
    plain(catalog)
    s = run_until(new_game(catalog, seats=("N", "S"), first_game=True), at("play_card"))
    r = refused(s, type="play_card", by="N", card="grain", discard="piety")
    assert r.code == "no_discard_allowed"
    r = refused(s, type="play_card", by="N", card="favor", discard=None)
    assert r.code == "card_not_in_hand"   # unstarred cards are set aside in chapter I


def test_host_only_and_adjust_checks(at_play):
    assert refused(at_play, type="adjust", by="N", seat="N", item="vp",
                   delta=3).code == "host_only"
    assert refused(at_play, type="adjust", by="host", seat="N", item="gems",
                   delta=3).code == "unknown_item"
    r = refused(at_play, type="adjust", by="host", seat="N", item="gold", delta=-9)
    assert r.code == "correction_below_zero"
    set_res(at_play, "N", "grain", 0)
    r = refused(at_play, type="adjust", by="host", seat="N", item="grain", delta=11)
    assert r.code == "out_of_supply"


def test_choices_show_refusals_with_reasons(at_play):
    choices = GAME.choices(at_play, "N")
    codes = {c.refused["code"] for c in choices if c.refused}
    assert {"cannot_afford", "market_closed"} <= codes
    assert all(c.refused["code"] in REASONS for c in choices if c.refused)
    assert GAME.choices(at_play, "E") == []


def test_every_refusal_code_has_a_reason():
    """Scan the engine for Refused("code" and check every code is in REASONS."""
    root = pathlib.Path(__file__).resolve().parents[2] / "engine" / "wwe"
    codes = set()
    for path in root.rglob("*.py"):
        if path.name == "catalog.py":  # the catalog validator reports problems, not refusals
            continue
        codes |= set(re.findall(r'Refused\(\s*"([a-z0-9_]+)"', path.read_text()))
    assert codes, "scan found nothing"
    assert sorted(codes - set(REASONS)) == []
    for code, template in REASONS.items():
        forms = template[:2] if isinstance(template, tuple) else (template,)  # a plural pair
        assert re.fullmatch(r"[a-z0-9_]+", code) and all(form.strip() for form in forms)


def test_every_event_type_has_a_text(catalog):
    """Every event type the engine emits (scanned) has an EVENT_TEXTS template."""
    root = pathlib.Path(__file__).resolve().parents[2] / "engine" / "wwe"
    types = set()
    for path in root.glob("*.py"):
        if path.name == "schemas.py":  # JSON Schema "type"s, not events
            continue
        types |= set(re.findall(r'\{"type": "([a-z_]+)"', path.read_text()))
    types -= {"array", "boolean", "integer", "null", "number", "object", "string"}  # schemas
    action_types = {"reveal_event", "reveal_plague", "orient_event", "play_card",
                    "answer_trade", "roll_tax", "choose_protection", "choose_target",
                    "resolve_manual", "cure", "place_free_house", "return_houses",
                    "record_discard", "correct"}
    assert sorted(types - action_types - set(EVENT_TEXTS)) == []


def test_event_templates_fill_from_their_events(catalog):
    """Every event emitted in random games formats its EVENT_TEXTS template without a
    missing placeholder; every refusal seen formats its REASONS template."""
    import random

    seen = set()
    for seed in range(2):
        rnd = random.Random(seed)
        s = GAME.setup(catalog, {"players": [{"seat": x} for x in "NESW"[:2 + seed]],
                                 "seed": seed})
        while (action := GAME.random_action(s, rnd)) is not None:
            s, events = GAME.apply(s, action)
            for e in events:
                english(EVENT_TEXTS[e["type"]], e)
                seen.add(e["type"])
            for choice in GAME.choices(s, s["active"])[:20]:
                if choice.refused:
                    english(REASONS[choice.refused["code"]], choice.refused["params"])
    assert {"event_revealed", "card_played", "tax_rolled", "game_over"} <= seen


@pytest.mark.parametrize("have", [0, 1, 3])
def test_host_may_take_away_exactly_what_a_seat_holds_and_not_one_more(at_play, have):
    """A correction down to 0 is legal (issue 34: `<` turned into `<=` went unnoticed)."""
    set_res(at_play, "N", "wool", have)
    r = refused(at_play, type="adjust", by="host", seat="N", item="wool", delta=-(have + 1))
    assert r.code == "correction_below_zero"
    if have:
        after = act(at_play, type="adjust", by="host", seat="N", item="wool", delta=-have)
        assert after["players"]["N"]["res"]["wool"] == 0


def test_a_host_correction_moves_at_most_the_limit_at_once(at_play):
    from engine.wwe.actions import MAX_CORRECTION
    for delta in (MAX_CORRECTION + 1, -MAX_CORRECTION - 1):
        r = refused(at_play, type="adjust", by="host", seat="N", item="vp", delta=delta)
        assert r.code == "bad_params"
    after = act(at_play, type="adjust", by="host", seat="N", item="vp", delta=MAX_CORRECTION)
    assert after["players"]["N"]["vp"] == at_play["players"]["N"]["vp"] + MAX_CORRECTION
    back = act(after, type="adjust", by="host", seat="N", item="vp", delta=-MAX_CORRECTION)
    assert back["players"]["N"]["vp"] == at_play["players"]["N"]["vp"]


@pytest.mark.parametrize("held,vp", [(0, 0), (1, 2), (2, 2)])
def test_the_queens_favor_needs_one_loyalty(at_play, held, vp):
    """R3.5: the Queen's space gives 2 VP to a seat holding at least 1 loyalty."""
    from engine.wwe.cards import favor_preview
    set_res(at_play, "N", "loyalty", held)
    from engine.wwe.cards import favor_cycle, space_kind
    space = next(sp for sp in favor_cycle(at_play) if space_kind(sp) == "queen")
    assert favor_preview(at_play, "N", space) == {"vp": vp}


@pytest.mark.parametrize("held,vp", [(0, 0), (1, 2), (2, 2)])
def test_the_prioress_favor_needs_one_medical_knowledge(at_play, held, vp):
    """R3.5: the Prioress's space gives 2 VP to a seat holding at least 1 MK."""
    from engine.wwe.cards import favor_cycle, favor_preview, space_kind
    set_res(at_play, "N", "mk", held)
    space = next(sp for sp in favor_cycle(at_play) if space_kind(sp) == "prioress")
    assert favor_preview(at_play, "N", space) == {"vp": vp}


@pytest.mark.parametrize("seat", ["Z", 5, None, ["N"]])
def test_a_host_correction_names_a_seat_of_the_game(at_play, seat):
    r = refused(at_play, type="adjust", by="host", seat=seat, item="vp", delta=1)
    assert r.code == "unknown_seat"

"""The chapter end in the order of §5.2 (E1-E9), punishments in round 1, game end."""
from __future__ import annotations

import pytest

from engine.api import Refused
from engine.wwe import GAME
from tests.engine.wwe_helpers import (
    act,
    act_ev,
    at,
    head,
    new_game,
    passive,
    plain,
    refused,
    res,
    run_until,
    set_res,
    vp,
)


def _game(catalog, **kw):
    plain(catalog)
    return new_game(catalog, seats=("N", "E", "S"), **kw)


def test_sequence_e1_to_e9(catalog):
    """E1 progress (stone first) -> E2 covers off (cloth opens) -> E3 events cleared -> E4
    duties with one roll -> E6 start player -> E7 all 12 cards -> E9 round 1 of chapter II."""
    s = run_until(_game(catalog), at("play_card", round_=6))
    s["covers"]["favor"] = ["guild"]
    assert s["council"]  # the immediate cards of rounds 1-5 lie on the Council space
    s = run_until(s, lambda x: head(x)["kind"] != "play_card")
    assert head(s)["kind"] == "roll_tax" and head(s)["seat"] == "S"   # round 6's active rolls
    assert s["projects"]["bridge"]["stone"] == 1 and s["projects"]["bridge"]["wood"] == 0
    assert s["covers"] == {"favor": [], "market": [], "project": []}
    assert s["council"] == [] and s["slots"] == []
    s, events = act_ev(s, type="roll_tax", by="table", value=3)
    types = [e["type"] for e in events]
    assert types.index("tax_rolled") < types.index("duties_paid") < types.index("start_player")
    assert types.index("start_player") < types.index("chapter_started")
    assert s["chapter"] == 2 and s["round"] == 1 and s["active"] == "N"
    assert all(len(p["hand"]) + len(p["discards"]) == 12 for p in s["players"].values())
    assert s["tax"] is None


def test_stone_first_then_wood_and_covered_skipped(catalog):
    """E1: stone while a stone space is open, else wood; covered projects get nothing."""
    s = run_until(_game(catalog), at("play_card", round_=6))
    spec = s["cat"]["projects"]["bridge"]
    s["projects"]["bridge"]["stone"] = spec["stone"]      # only wood spaces left
    s["projects"]["fulling_mill"] = {"stone": 0, "wood": 0, "substitutes": 0, "spire": None,
                                     "seals": [], "complete": False}
    s["covers"]["project"] = ["fulling_mill"]
    s = run_until(s, at("roll_tax"))
    assert s["projects"]["bridge"]["wood"] == 1
    assert s["projects"]["fulling_mill"]["stone"] == 0


def test_progress_completes_project_and_rewards_donors(catalog):
    """A-23: a completion by chapter-end progress rewards donors and returns seals."""
    s = run_until(_game(catalog), at("play_card", round_=6))
    spec = s["cat"]["projects"]["bridge"]
    s["projects"]["bridge"].update(stone=spec["stone"] - 1, wood=spec["wood"], seals=["E"])
    s["players"]["E"]["seals"] = ["bridge"]
    v = vp(s, "E")
    s = run_until(s, at("roll_tax"))
    assert s["projects"]["bridge"]["complete"]
    reward = spec["donor_reward"]
    assert vp(s, "E") == v + reward.get("vp", 0) and s["players"]["E"]["seals"] == []


def test_tower_and_plague_enter_after_chapter_2(catalog):
    """E8: after chapter II the Tower and the 11 face-down plague tokens come in."""
    s = run_until(_game(catalog), at("roll_tax", chapter=2))
    assert "tower" not in s["projects"] and s["plague"] == {}
    s = run_until(s, at("reveal_event", chapter=3))
    assert "tower" in s["projects"]
    assert len(s["plague"]) == 11 and all(t["state"] == "hidden" for t in s["plague"].values())


def test_first_game_switches_to_twelve_cards(catalog):
    """E7: after chapter I of a first game everyone has all 12 cards."""
    s = run_until(_game(catalog, first_game=True), at("roll_tax"))
    assert all(len(p["hand"]) == 0 and len(p["played"]) == 6 and p["discards"] == []
               for p in s["players"].values())
    s = run_until(s, at("reveal_event", chapter=2))
    assert all(len(p["hand"]) + len(p["discards"]) == 12 for p in s["players"].values())


def test_twelve_card_mode_six_played_six_discarded(catalog):
    """R4.2: in 12-card mode a chapter ends with 6 played and 6 face down per player."""
    s = run_until(_game(catalog), at("roll_tax"))
    for p in s["players"].values():
        assert len(p["played"]) == 6 and len(p["discards"]) == 6 and p["hand"] == []


def _duty_ready(s, seat, piety=2, grain=2, gold=9, loyalty=0):
    set_res(s, seat, "piety", piety)
    set_res(s, seat, "grain", grain)
    set_res(s, seat, "gold", gold)
    set_res(s, seat, "loyalty", loyalty)


def test_begging_no_income_in_round_1(catalog):
    """§5.5 Begging (grain shortfall): no income at all in round 1 of the next chapter."""
    s = run_until(_game(catalog), at("roll_tax"))
    for seat in ("N", "E", "S"):
        _duty_ready(s, seat)
    set_res(s, "E", "grain", 0)
    s = act(s, type="roll_tax", by="table", value=2)
    assert s["round_flags"]["E"] == {"begging": True}
    s = act(s, **passive(s))                              # reveal
    before = (dict(res(s, "E")), vp(s, "E"))
    s, events = act_ev(s, **passive(s))                   # orient
    assert (res(s, "E"), vp(s, "E")) == before
    assert {"type": "income_lost", "seat": "E", "reason": "begging"} in events


def royal_court_play(catalog):
    """N, short of the tax at chapter I's end (tax die 2), owes its round 1 play of chapter
    II under the Royal Court (§5.5); E and S paid all."""
    s = run_until(_game(catalog), at("roll_tax"))
    for seat in ("N", "E", "S"):
        _duty_ready(s, seat)
    set_res(s, "N", "gold", 1)
    s = act(s, type="roll_tax", by="table", value=2)
    return run_until(s, lambda x: head(x)["kind"] == "play_card" and head(x)["seat"] == "N")


def test_royal_court_round_1_action_not_performed(catalog):
    """§5.5 Royal Court (tax shortfall): round 1 card played and discarded, not performed."""
    s = royal_court_play(catalog)
    grain = res(s, "N")["grain"]
    s, events = act_ev(s, type="play_card", by="N", card="grain", discard="piety")
    assert res(s, "N")["grain"] == grain
    assert s["players"]["N"]["discards"] == ["piety"]
    assert any(e["type"] == "card_played" and e["lost"] == "royal_court" for e in events)
    s = run_until(s, lambda x: head(x)["kind"] == "play_card" and head(x)["seat"] == "N"
                  and x["round"] == 2)
    s = act(s, type="play_card", by="N", card="building_material", discard="rent",
            params={"item": "wood"})
    assert res(s, "N")["wood"] == 1                       # round 2 acts normally


def test_penance_random_discard_is_seeded_and_private(catalog):
    """§5.5 / A-11 Penance: at the start of round 1 a random hand card goes face down; the
    card is shown only to its owner; the same seed gives the same card."""
    s = run_until(_game(catalog), at("roll_tax"))
    for seat in ("N", "E", "S"):
        _duty_ready(s, seat)
    set_res(s, "S", "piety", 0)
    s1, events = act_ev(s, type="roll_tax", by="table", value=2)
    s2, _ = act_ev(s, type="roll_tax", by="table", value=2)
    assert len(s1["players"]["S"]["discards"]) == 1
    assert s1["players"]["S"]["discards"] == s2["players"]["S"]["discards"]
    private = [e for e in events if e["type"] == "penance_card"]
    assert private and private[0]["private"] == "S"
    assert "discards" not in str(GAME.public_view(s1)["seats"]["S"].keys())
    assert GAME.seat_view(s1, "S")["private"]["discards"] == s1["players"]["S"]["discards"]
    # round 1: S plays without a face-down discard
    s1 = run_until(s1, lambda x: head(x)["kind"] == "play_card" and head(x)["seat"] == "S")
    card = s1["players"]["S"]["hand"][0]
    s1 = act(s1, type="play_card", by="S", card=card, discard=None, perform=False)
    assert len(s1["players"]["S"]["discards"]) == 1


def test_game_end_final_scores(catalog):
    """§8: after chapter IV the game is over; no punishments are set."""
    s = run_until(_game(catalog), at("roll_tax", chapter=4))
    s = act(s, type="roll_tax", by="table", value=5)
    s = run_until(s, lambda x: x["over"])
    assert all(p["punish"] == [] for p in s["players"].values())
    assert GAME.prompts(s) == [] and GAME.choices(s, "N") == []
    scores = GAME.scores(s)
    assert [r["rank"] for r in scores] == sorted(r["rank"] for r in scores)
    assert all(r["final"] for r in scores)
    with pytest.raises(Refused) as info:
        GAME.apply(s, {"type": "play_card", "by": "N", "card": "grain"})
    assert info.value.code == "game_over"


def test_several_seats_owe_protection_at_once(catalog):
    """§5.6: every punished seat with loyalty chooses at the same time, in any order."""
    s = run_until(_game(catalog), at("roll_tax"))
    for seat in ("N", "E", "S"):
        _duty_ready(s, seat, loyalty=1)
    set_res(s, "N", "grain", 0)
    set_res(s, "S", "piety", 0)
    s = act(s, type="roll_tax", by="table", value=2)
    prompts = GAME.prompts(s)
    assert sorted((p.seat, p.kind) for p in prompts) == [("N", "choose_protection"),
                                                         ("S", "choose_protection")]
    assert GAME.choices(s, "E") == []
    assert {tuple(c.action["cancel"]) for c in GAME.choices(s, "S")} == {(), ("penance",)}
    s = act(s, type="choose_protection", by="S", cancel=[])
    assert [p.seat for p in GAME.prompts(s)] == ["N"]
    r = refused(s, type="choose_protection", by="S", cancel=[])
    assert r.code == "no_decision_owed"
    s = act(s, type="choose_protection", by="N", cancel=["begging"])
    assert s["chapter"] == 2
    assert s["round_flags"]["N"] == {} and s["round_flags"]["S"] == {"penance": True}


def test_set_start_player_override(catalog):
    """A-8: the table may say who holds the start-player token before a reveal."""
    s = _game(catalog)
    s = act(s, type="set_start_player", by="host", seat="S")
    assert s["active"] == "S" and head(s)["seat"] == "S"
    assert refused(s, type="set_start_player", by="N", seat="E").code == "host_only"


def test_first_game_uses_starred_events_only(catalog):
    """S10 first game: only the starred event cards of each chapter."""
    s = _game(catalog, first_game=True)
    unstarred = next(c["id"] for c in catalog["event_cards"]
                     if c["chapter"] == 1 and not c["starred"])
    r = refused(s, type="reveal_event", by="table", card=unstarred)
    assert r.code == "event_not_starred"


def test_the_game_over_event_gives_final_points_with_halves(catalog):
    """§8: 1 VP per stone and wood, ½ VP per gold: the event carries points, not the
    half-points the state keeps."""
    from engine.wwe import flow
    from tests.engine.wwe_helpers import new_game, set_res
    s = new_game(catalog, seats=("N", "S"))
    s["players"]["N"]["vp"], s["players"]["S"]["vp"] = 10, 4
    for seat, (stone, wood, gold) in {"N": (1, 2, 3), "S": (0, 0, 4)}.items():
        set_res(s, seat, "stone", stone)
        set_res(s, seat, "wood", wood)
        set_res(s, seat, "gold", gold)
    ev = []
    flow.finish(s, ev)
    assert ev[-1] == {"type": "game_over", "final": {"N": 14.5, "S": 6.0}}
    assert s["final"] == {"N": 29, "S": 12}


def test_duties_line_says_what_was_handed_in_and_missing(catalog):
    """Issue 32 point 7: the duties line names what was handed in and what was missing (no
    "paid the duties" when some was missing), and its VP per missing unit add up to the VP
    lost (§5.4: piety 3, grain 2, gold 1)."""
    s = run_until(_game(catalog), at("roll_tax"))
    for seat in ("N", "E", "S"):
        _duty_ready(s, seat)
    _duty_ready(s, "N", piety=0, grain=1, gold=0)
    s["players"]["N"]["vp"] = 20
    s, events = act_ev(s, type="roll_tax", by="table", value=2)
    lines = {e["seat"]: e for e in events if e["type"] == "duties_paid"}
    anna = lines["N"]
    assert anna["handed"] == {"grain": 1}
    assert anna["missing"] == {"piety": 2, "grain": 1, "gold": 2}
    assert anna["vp_per"] == {"piety": 3, "grain": 2, "gold": 1}
    lost = next(e for e in events if e["type"] == "vp" and e["seat"] == "N")
    assert lost["delta"] == -sum(n * anna["vp_per"][k] for k, n in anna["missing"].items())
    assert lost["delta"] == -10 and s["players"]["N"]["vp"] == 10
    assert lines["E"]["handed"] == {"piety": 2, "grain": 2, "gold": 2}
    assert lines["E"]["missing"] == "nothing"

"""Event cards: immediate vs permanent, the two slots, and the effect vocabulary."""
from __future__ import annotations

from engine.wwe import GAME
from tests.engine.wwe_helpers import (
    act,
    act_ev,
    at,
    discard_for,
    head,
    new_game,
    no_effect,
    passive,
    plain,
    refused,
    res,
    run_until,
    set_res,
    vp,
)


def _card(catalog, cid):
    return next(c for c in catalog["event_cards"] if c["id"] == cid)


def _with_effects(catalog, cid, effects, permanent=False):
    plain(catalog)
    c = _card(catalog, cid)
    c["effects"] = effects
    c["permanent"] = permanent
    return catalog


def test_trade_offered_clockwise_once_each(catalog):
    """R3.2.4/R3.2.6 (IT:39): each player in turn from the active player may trade 1 wool
    for 3 gold, once."""
    _with_effects(catalog, "demo_wool_trader", [{"type": "trade", "give": {"wool": 1},
                                                 "get": {"gold": 3}}])
    s = new_game(catalog, seats=("N", "E", "S"))
    s = act(s, type="reveal_event", by="table", card="demo_wool_trader")
    assert [head(s)["kind"], head(s)["seat"]] == ["answer_trade", "N"]
    assert [p.seat for p in GAME.prompts(s)] == ["N"]
    s = act(s, type="answer_trade", by="N", accept=True)
    assert res(s, "N")["wool"] == 0 and res(s, "N")["gold"] == 5
    assert refused(s, type="answer_trade", by="S", accept=True).code == "not_your_turn"
    s = act(s, type="answer_trade", by="E", accept=False)
    set_res(s, "S", "wool", 0)
    assert refused(s, type="answer_trade", by="S", accept=True).code == "cannot_afford"
    s = act(s, type="answer_trade", by="S", accept=False)
    assert head(s)["kind"] == "orient_event"
    assert res(s, "E")["wool"] == 1


def test_permanent_trade_once_per_round(catalog):
    """R3.2.6: a permanent event's trade can be used once per round per player."""
    _with_effects(catalog, "demo_wool_trader", [{"type": "trade", "give": {"gold": 1},
                                                 "get": {"wood": 1}}], permanent=True)
    s = new_game(catalog, seats=("N", "S"))
    s = act(s, type="reveal_event", by="table", card="demo_wool_trader")
    s = run_until(s, at("play_card"))
    choice = [c for c in GAME.choices(s, "N") if c.action["type"] == "answer_trade"]
    assert choice and choice[0].cost == {"gold": 1} and choice[0].effect["wood"] == 1
    # only the card in force trades, and only its own trade (index 0)
    assert refused(s, type="answer_trade", by="N", card="demo_feast",
                   accept=True).code == "no_trade_offer"
    assert refused(s, type="answer_trade", by="N", card="demo_wool_trader", index=1,
                   accept=True).code == "no_trade_offer"
    s = act(s, type="answer_trade", by="N", card="demo_wool_trader", accept=True)
    assert res(s, "N")["wood"] == 1
    r = refused(s, type="answer_trade", by="N", card="demo_wool_trader", accept=True)
    assert r.code == "no_trade_offer"
    s = run_until(s, lambda x: x["round"] == 2 and head(x)["kind"] == "play_card"
                  and head(x)["seat"] == "N")
    s = act(s, type="answer_trade", by="N", card="demo_wool_trader", accept=True)
    assert res(s, "N")["wood"] == 2


def test_permanent_slots_and_three_acting(catalog):
    """R3.7.1/A-24: slots keep 2 by arrival; in the round a 3rd appears all 3 act, then the
    oldest leaves."""
    plain(catalog)
    perms = ["demo_feast", "demo_flood", "demo_bishops_visit"]
    for cid, price in zip(perms, (1, 3, 5), strict=True):
        c = _card(catalog, cid)
        c["permanent"] = True
        c["effects"] = [{"type": "price", "item": "wool", "price": price}]
    s = new_game(catalog, seats=("N", "S"))
    for i, cid in enumerate(perms):
        s = act(s, type="reveal_event", by="table", card=cid)
        s = run_until(s, at("play_card"))
        assert GAME.public_view(s)["market"]["prices"]["wool"] == (1, 3, 5)[i]
        assert GAME.public_view(s)["in_force"] == perms[max(0, i - 2) if i < 2 else 0:i + 1]
        s = run_until(s, at("reveal_event"))
    assert s["slots"] == ["demo_flood", "demo_bishops_visit"]


def test_immediate_effects_gain_lose_mk_never_lost(catalog):
    """gain/lose with who; R7.8: MK cannot be lost; a player without the items loses
    nothing (Ralph Fitzgerald)."""
    _with_effects(catalog, "demo_feast", [
        {"type": "gain", "who": "others", "items": {"loyalty": 1}},
        {"type": "lose", "who": "all", "items": {"wool": 1, "mk": 1, "vp": 10}},
    ])
    s = new_game(catalog, seats=("N", "E"))
    set_res(s, "N", "mk", 2)
    set_res(s, "E", "wool", 0)
    s = act(s, type="reveal_event", by="table", card="demo_feast")
    assert res(s, "E")["loyalty"] == 1 and res(s, "N")["loyalty"] == 0
    assert res(s, "N")["mk"] == 2 and res(s, "N")["wool"] == 0 and res(s, "E")["wool"] == 0
    assert vp(s, "N") == 0 and vp(s, "E") == 0   # 8 - 10, floored at 0


def test_introduce_project_and_cover_all_others(catalog):
    """'With Godwyn's help…': the Prior's House comes in; all other projects are covered,
    cannot take donations, and get no chapter-end material."""
    plain(catalog)
    _card(catalog, "demo_feast")["effects"] = [
        {"type": "introduce_project", "project": "prior_house"},
        {"type": "cover", "target": "project", "ids": "all_other_projects"}]
    s = new_game(catalog, seats=("N", "S"))
    s = act(s, type="reveal_event", by="table", card="demo_feast")
    assert "prior_house" in s["projects"] and s["covers"]["project"] == ["bridge"]
    s = run_until(s, at("play_card"))
    r = refused(s, type="play_card", by="N", card="donation", discard="grain",
                params={"project": "bridge"})
    assert r.code == "project_covered"
    s = act(s, type="play_card", by="N", card="donation", discard="grain",
            params={"project": "prior_house"})
    s = run_until(s, at("roll_tax"))
    assert s["projects"]["bridge"]["stone"] == 0 and s["projects"]["prior_house"]["stone"] == 1


def test_cover_favor_space_and_tile_limit(catalog):
    """R3.2.7: cover tiles on favor spaces (skipped by the marker), at most 5 tiles."""
    plain(catalog)
    _card(catalog, "demo_feast")["effects"] = [
        {"type": "cover", "target": "favor",
         "ids": ["queen", "prior", "guild", "prioress", "merchants"]}]
    s = new_game(catalog, seats=("N", "S"))
    s, events = act_ev(s, type="reveal_event", by="table", card="demo_feast")
    assert s["covers"]["favor"] == ["queen", "prior", "guild", "prioress"]  # cloth uses 1
    assert any(e["type"] == "no_cover_tile" and e["id"] == "merchants" for e in events)


def test_open_market_and_price(catalog):
    """An event opens the cloth space in chapter I; a price effect changes wool's price."""
    plain(catalog)
    _card(catalog, "demo_feast")["effects"] = [{"type": "open_market", "space": "cloth"},
                                               {"type": "price", "item": "wool", "price": 1}]
    s = new_game(catalog, seats=("N", "S"))
    s = act(s, type="reveal_event", by="table", card="demo_feast")
    s = run_until(s, at("play_card"))
    set_res(s, "N", "cloth", 1)
    set_res(s, "N", "wool", 2)
    gold = res(s, "N")["gold"]
    s = act(s, type="play_card", by="N", card="sell_wool_cloth", discard="grain",
            params={"wool": 2, "cloth": 1})
    assert res(s, "N")["gold"] == gold + 2 * 1 + 4


def test_card_modifier_bonus_and_disabled(catalog):
    plain(catalog)
    _card(catalog, "demo_feast")["permanent"] = True
    _card(catalog, "demo_feast")["effects"] = [
        {"type": "card_modifier", "card": "grain", "bonus": {"vp": 1}},
        {"type": "card_modifier", "card": "piety", "disabled": True}]
    s = new_game(catalog, seats=("N", "S"))
    s = act(s, type="reveal_event", by="table", card="demo_feast")
    s = run_until(s, at("play_card"))
    # R4.1.4: an event forbids the action: the card is played and does nothing
    assert no_effect(s, type="play_card", by="N", card="piety", discard="grain")[1] == \
        "card_disabled"
    v = vp(s, "N")
    s = act(s, type="play_card", by="N", card="grain", discard="piety")
    assert vp(s, "N") == v + 1 and res(s, "N")["grain"] == 1


def test_lose_action_after_the_accusation(catalog):
    """'After the accusation…': 1 face up + 1 face down, neither carried out."""
    _with_effects(catalog, "after_the_accusation",
                  [{"type": "lose_action", "who": "active"}])
    s = new_game(catalog, seats=("N", "S"))
    s = act(s, type="reveal_event", by="table", card="after_the_accusation")
    s = run_until(s, at("play_card"))
    grain = {seat: res(s, seat)["grain"] for seat in ("N", "S")}
    s, events = act_ev(s, type="play_card", by="N", card="grain", discard="piety")
    assert res(s, "N")["grain"] == grain["N"] and s["players"]["N"]["performed"] == [False]
    s = act(s, type="play_card", by="S", card="grain", discard="piety")
    assert res(s, "S")["grain"] == grain["S"] + 1


def taxed_before_king_edward(catalog):
    """Chapter I ends (tax die 2) with N short of the tax (the Royal Court) and S paying all;
    chapter II's first event card is still to come, King Edward III's war in the catalog."""
    plain(catalog)
    _card(catalog, "king_edward_iii")["effects"] = [
        {"type": "lose_action", "who": "all", "royal_court_exempt_if_first": True}]
    s = new_game(catalog, seats=("N", "S"))
    s = run_until(s, at("roll_tax"))
    for seat in ("N", "S"):
        set_res(s, seat, "piety", 2)
        set_res(s, seat, "grain", 2)
        set_res(s, seat, "loyalty", 0)
    set_res(s, "N", "gold", 0)
    set_res(s, "S", "gold", 5)
    return act(s, type="roll_tax", by="table", value=2)


def test_king_edward_royal_court_exception(catalog):
    """§5.5 King Edward III as chapter II's first event: a Royal Court player loses only the
    one action; others lose this round's action."""
    s = taxed_before_king_edward(catalog)
    assert s["round_flags"]["N"] == {"royal_court": True}
    assert s["chapter"] == 2 and s["revealed"]["2"] == []
    taxed = s
    s, events = act_ev(s, type="reveal_event", by="table", card="king_edward_iii")
    # only the Royal Court seat is exempt: the other loses this round's action
    assert [e["seat"] for e in events if e["type"] == "royal_court_exempt"] == ["N"]
    assert not s["round_flags"]["N"].get("lose_action") and s["round_flags"]["S"]["lose_action"]
    s = run_until(s, at("play_card"))
    s = run_until(s, lambda x: head(x)["kind"] != "play_card")
    assert s["players"]["N"]["performed"] == [False] and s["players"]["S"]["performed"] == [False]

    # not chapter II's first event: nobody is exempt
    taxed["revealed"]["2"] = ["demo_feast"]
    s, events = act_ev(taxed, type="reveal_event", by="table", card="king_edward_iii")
    assert not [e for e in events if e["type"] == "royal_court_exempt"]
    assert s["round_flags"]["N"]["lose_action"] and s["round_flags"]["S"]["lose_action"]


def test_random_discard_during_the_plague(catalog):
    """'During the plague…': the face-down discard is drawn at random (seeded), privately."""
    _with_effects(catalog, "demo_feast", [{"type": "random_discard", "who": "all"}])
    s = new_game(catalog, seats=("N", "S"))
    s = act(s, type="reveal_event", by="table", card="demo_feast")
    s = run_until(s, at("play_card"))
    assert refused(s, type="play_card", by="N", card="grain",
                   discard="piety").code == "no_discard_allowed"
    s, events = act_ev(s, type="play_card", by="N", card="grain", discard=None)
    assert len(s["players"]["N"]["discards"]) == 1
    private = [e for e in events if e["type"] == "card_discarded"]
    assert private[0]["private"] == "N"


def test_return_houses_one_per_player(catalog):
    """'In Kingsbridge…' (A-13): each player picks one own house; the site is free again."""
    _with_effects(catalog, "demo_feast", [{"type": "return_houses", "scope": "one_per_player"}])
    s = new_game(catalog, seats=("N", "S"))
    sites = list(s["sites"])
    s["sites"][sites[0]] = "N"
    s["sites"][sites[1]] = "N"
    s["players"]["N"]["houses"] = [sites[0], sites[1]]
    s = act(s, type="reveal_event", by="table", card="demo_feast")
    assert head(s)["kind"] == "return_houses" and head(s)["seat"] == "N"
    assert refused(s, type="return_houses", by="N", sites=[sites[2]]).code == "not_your_house"
    s = act(s, type="return_houses", by="N", sites=[sites[1]])
    assert s["players"]["N"]["houses"] == [sites[0]] and s["sites"][sites[1]] is None
    assert head(s)["kind"] == "orient_event"


def test_manual_effect_with_adjust(catalog):
    """`manual`: the text is shown, the table enters changes with adjust, then resolves."""
    s = new_game(catalog, seats=("N", "S"))
    s = act(s, type="reveal_event", by="table", card="demo_flood")
    prompt = GAME.prompts(s)[0]
    assert prompt.kind == "resolve_manual" and prompt.seat == "table"
    assert "floods" in prompt.params["text"]["en"]
    s = act(s, type="adjust", by="host", seat="S", item="vp", delta=-1, reason="flood")
    s = act(s, type="resolve_manual", by="table")
    assert vp(s, "S") == 7 and head(s)["kind"] == "orient_event"


def test_a_manual_effect_shows_its_own_text_else_the_cards(catalog):
    """`manual`: the table is shown the effect's own text where the catalog gives one (a
    card may carry a known effect and a manual one), else the card's text (mutants, issue
    51: the two swapped went unnoticed)."""
    own = {"en": "Each player returns one wool."}
    card_text = _card(catalog, "demo_feast")["text"]
    for effects, shown in (([{"type": "manual", "text": own}], own),
                           ([{"type": "manual"}], card_text)):
        _with_effects(catalog, "demo_feast", effects)
        s = new_game(catalog, seats=("N", "S"))
        s = act(s, type="reveal_event", by="table", card="demo_feast")
        prompt = GAME.prompts(s)[0]
        assert prompt.kind == "resolve_manual" and prompt.params["text"] == shown


def test_choose_target(catalog):
    _with_effects(catalog, "demo_feast", [{"type": "gain", "who": "chosen",
                                           "items": {"vp": 3}}])
    s = new_game(catalog, seats=("N", "S"))
    s = act(s, type="reveal_event", by="table", card="demo_feast")
    assert head(s)["kind"] == "choose_target" and head(s)["seat"] == "N"
    for junk in ("Z", 5, None):
        assert refused(s, type="choose_target", by="N", seat=junk).code == "unknown_seat"
    s = act(s, type="choose_target", by="N", seat="S")
    assert vp(s, "S") == 11


def test_complete_tower_merthin(catalog):
    """'Merthin fulfilled his dream': the Tower is completed (substitutes when the supply is
    short), the spire goes by loyalty, Tower donors get 2 VP and their seals."""
    plain(catalog)
    _card(catalog, "merthin_fulfilled_his_dream")["effects"] = [{"type": "complete_tower"}]
    s = new_game(catalog, seats=("N", "S"))
    s = run_until(s, at("reveal_event", chapter=4))
    set_res(s, "N", "loyalty", 2)
    set_res(s, "S", "loyalty", 1)
    s["projects"]["tower"]["seals"] = ["S"]
    s["players"]["S"]["seals"] = ["tower"]
    s["supply"]["wood"] = 0
    wood_on_tower = s["projects"]["tower"]["wood"]
    vn, vs = vp(s, "N"), vp(s, "S")
    s = act(s, type="reveal_event", by="table", card="merthin_fulfilled_his_dream")
    s = act(s, type="reveal_plague", by="table", value=2)
    tower = s["projects"]["tower"]
    assert tower["complete"] and tower["spire"] == "N"
    assert tower["wood"] == 2 and tower["substitutes"] == 2 - wood_on_tower
    assert vp(s, "N") == vn + 3 and vp(s, "S") == vs + 2 and s["players"]["S"]["seals"] == []


def test_plague_no_reinfection_and_public_values(catalog):
    """R7.2/R7.3/A-27: a revealed number flips its token once; a sick or cured location is
    not infected again; only face-up values are public."""
    plain(catalog)
    for c in catalog["event_cards"]:
        if c["chapter"] == 3:
            c["plague"] = 4
    s = new_game(catalog, seats=("N", "S"), options={"plague_values": "app"})
    s = run_until(s, at("reveal_event", chapter=3))
    hidden = s["plague"]["4"]["value"]
    s, events = act_ev(s, **passive(s))
    assert s["plague"]["4"] == {"state": "sick", "value": hidden}
    view = GAME.public_view(s)["plague"]
    assert view["4"]["value"] == hidden and view["5"]["value"] is None
    s = run_until(s, at("reveal_event", round_=2))
    s, events = act_ev(s, **passive(s))
    assert {"type": "no_reinfection", "location": 4} in events


def test_hospital_donors_cure_on_completion(catalog):
    """R6.5.6/A-21: Hospital donors, from the active player, may each cure one resident."""
    plain(catalog)
    s = new_game(catalog, seats=("N", "S"))
    s = run_until(s, at("play_card", chapter=3))
    for tok in s["plague"].values():
        tok["state"] = "hidden"
    s["plague"]["2"] = {"state": "sick", "value": 1}
    s["projects"]["hospital"] = {"stone": 0, "wood": 0, "substitutes": 0, "spire": None,
                                 "seals": ["N", "S"], "complete": False}
    for seat in ("N", "S"):
        s["players"][seat]["seals"] = ["hospital"]
        set_res(s, seat, "mk", 1)
    spec = s["cat"]["projects"]["hospital"]
    s["projects"]["hospital"].update(stone=spec["stone"] - 1, wood=spec["wood"])
    a = s["active"]
    set_res(s, a, "stone", 1)
    s = act(s, type="play_card", by=a, card="building_project",
            discard=discard_for(s, a, "building_project"),
            params={"project": "hospital", "stone": 1, "wood": 0})
    assert head(s)["kind"] == "cure" and head(s)["seat"] == a
    v = vp(s, a)
    s = act(s, type="cure", by=a, location=2)
    reward = (s["cat"]["plague"]["2"].get("reward") or {}).get("vp", 0)
    assert vp(s, a) == v + 2 + reward and s["plague"]["2"]["state"] == "removed"
    assert head(s)["kind"] != "cure"   # nobody left to cure for the other donor


def test_reveal_plague_values_checked_against_tokens_left(catalog):
    """R7.1: with the owner's (non-demo) token set, a value no face-down token can show is
    refused; with the demo set any of its values is accepted."""
    plain(catalog)
    catalog["plague"]["tokens"] = [1, 1, 2, 2, 2, 3, 3, 3, 4, 4, 5]
    catalog["plague"]["tokens_demo"] = False
    for c in catalog["event_cards"]:
        if c["chapter"] == 3:
            c["plague"] = 7
    s = new_game(catalog, seats=("N", "S"))
    s = run_until(s, at("reveal_event", chapter=3))
    s["plague"]["1"] = {"state": "removed", "value": 5}
    s = act(s, type="reveal_event", by="table", card=s["revealed"]["3"][0]
            if s["revealed"]["3"] else passive(s)["card"])
    r = refused(s, type="reveal_plague", by="table", value=5)
    assert r.code == "bad_plague_value" and r.params["allowed"] == [1, 2, 3, 4]
    assert refused(s, type="reveal_plague", by="table", value=9).code == "bad_plague_value"
    s = act(s, type="reveal_plague", by="table", value=4)
    assert s["plague"]["7"] == {"state": "sick", "value": 4}


def test_an_effect_the_app_does_not_know_is_left_to_the_table(catalog):
    """An owner's catalog may name an effect kind the rules code does not know: the table
    reads its text and resolves it by hand (issue 34: `not in` turned into `in` went
    unnoticed)."""
    _with_effects(catalog, "demo_feast", [{"type": "eclipse", "text": {"en": "Dark."}}])
    s = new_game(catalog, seats=("N", "S"))
    s = act(s, type="reveal_event", by="table", card="demo_feast")
    assert head(s)["kind"] == "resolve_manual"


def test_a_permanent_rule_change_asks_the_table_nothing_when_revealed(catalog):
    """A permanent (blue) card's known kinds act later (R3.2.5): no manual step at the
    reveal."""
    _with_effects(catalog, "demo_feast", [{"type": "price", "item": "wool", "price": 3},
                                          {"type": "lose_action", "who": "all"}],
                  permanent=True)
    s = new_game(catalog, seats=("N", "S"))
    s = act(s, type="reveal_event", by="table", card="demo_feast")
    assert head(s)["kind"] != "resolve_manual"


def test_the_table_returns_any_houses_when_the_card_says_so(catalog):
    """scope "any": the table picks the houses; its step is never skipped as a seat's
    would be when the seat has no house."""
    _with_effects(catalog, "demo_feast", [{"type": "return_houses", "scope": "any"}])
    s = new_game(catalog, seats=("N", "S"))
    site = next(iter(s["sites"]))
    s["sites"][site] = "N"
    s["players"]["N"]["houses"] = [site]
    s = act(s, type="reveal_event", by="table", card="demo_feast")
    assert head(s)["kind"] == "return_houses" and head(s)["seat"] == "table"


def test_a_catalog_without_plague_tokens_accepts_the_printed_values(catalog):
    """No token values in the catalog (an owner's file that leaves them out): a flipped
    token may show 1 to 5, the printed plague tokens' values."""
    from engine.wwe.actions import plague_values_left
    s = new_game(catalog, seats=("N", "S"))
    s["cat"]["plague_tokens"] = []
    assert plague_values_left(s) == [1, 2, 3, 4, 5]

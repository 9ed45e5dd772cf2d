"""Issue 32 point 4: a seat whose action this round is lost is told so before it plays.

R4.1.4 (IT «Regole aggiuntive», PL «Pozostałe zasady»): a player who loses an action still
lays a card face up (and one face down with 12 cards) and the face-up card is not carried
out. What loses it (shared/rules/world-without-end.md §4.5): the Royal Court (§5.5, round 1
of the next chapter), "King Edward III goes to war against France" (§9 #5, with the Royal
Court exception of §5.5), "After the accusation…" (§9 #3, the affected player) and any
event card whose `lose_action` is in force. Penance, Begging and "During the plague…"
take no action (a random discard, the income): their seats play as usual.

The engine's choices say it: one choice per card (the card given up), each with the reason
(`no_effect`: `action_lost_royal_court` or `action_lost_event` naming the card), no variant
that claims to carry anything out; the play's log says the action was lost and why."""
from __future__ import annotations

from engine.wwe import GAME
from tests.engine.test_chapter_end import _duty_ready, _game, royal_court_play
from tests.engine.test_events import _card, _with_effects, taxed_before_king_edward
from tests.engine.wwe_helpers import act, act_ev, at, head, new_game, plain, res, run_until, set_res


def plays(s, seat):
    return [c for c in GAME.choices(s, seat) if c.action["type"] == "play_card"]


def assert_only_give_up(s, seat, why):
    """Every play offered gives up a card (each card once), says ``why``, performs nothing."""
    offered = plays(s, seat)
    hand = s["players"][seat]["hand"]
    assert sorted(c.action["card"] for c in offered) == sorted(hand)
    for c in offered:
        assert c.refused is None
        assert c.action["perform"] is False and c.action["params"] == {}
        assert c.effect["no_effect"] == why, c.effect
        assert not c.cost and set(c.effect) == {"discard_options", "no_effect"}


def test_royal_court_round_1_offers_only_the_card_to_give_up(catalog):
    """§5.5 Royal Court: round 1 of chapter II, the seat is told before it plays."""
    s = royal_court_play(catalog)
    assert (s["chapter"], s["round"]) == (2, 1)
    assert_only_give_up(s, "N", {"code": "action_lost_royal_court", "params": {}})
    choice = plays(s, "N")[0]
    grain = res(s, "N")["grain"]
    s, events = act_ev(s, **{**choice.action, "discard": choice.effect["discard_options"][0]})
    lost = [e for e in events if e["type"] == "action_lost"]
    assert lost == [{"type": "action_lost", "seat": "N", "card": choice.action["card"],
                     "cause": "royal_court",
                     "why": {"code": "action_lost_royal_court", "params": {}}}]
    assert res(s, "N")["grain"] == grain and s["players"]["N"]["performed"] == [False]
    # round 2: the punishment is over, the cards are carried out again
    s = run_until(s, lambda x: head(x)["kind"] == "play_card" and head(x)["seat"] == "N"
                  and x["round"] == 2)
    assert any(c.action["perform"] and c.refused is None and "no_effect" not in c.effect
               for c in plays(s, "N"))


def _king_edward(catalog):
    s = taxed_before_king_edward(catalog)  # N goes to the Royal Court
    return act(s, type="reveal_event", by="table", card="king_edward_iii")


def test_king_edward_says_which_card_takes_the_action(catalog):
    """§9 #5: S loses the action to the event card (named); N, at the Royal Court, is spared
    the card as chapter II's first event and loses the action to the Royal Court alone."""
    s = run_until(_king_edward(catalog), at("play_card"))
    event = {"code": "action_lost_event", "params": {"card": "king_edward_iii"}}
    court = {"code": "action_lost_royal_court", "params": {}}
    for _ in range(2):
        seat = head(s)["seat"]
        assert_only_give_up(s, seat, court if seat == "N" else event)
        choice = plays(s, seat)[-1]
        s, events = act_ev(s, **{**choice.action,
                                 "discard": choice.effect["discard_options"][0]})
        cause = next(e["cause"] for e in events if e["type"] == "action_lost")
        assert cause == ("royal_court" if seat == "N" else "king_edward_iii")


def test_after_the_accusation_hits_the_active_player_only(catalog):
    """§9 #3 (the catalog: the active player): the active seat gives up a card; the other
    plays as usual."""
    effects = list(_card(catalog, "after_the_accusation")["effects"])  # the catalog's own
    assert effects == [{"type": "lose_action", "who": "active",
                        "royal_court_exempt_if_first": False}]
    plain(catalog)
    card = _card(catalog, "after_the_accusation")
    card.update(effects=effects, chapter=1)  # revealed here in chapter I
    s = new_game(catalog, seats=("N", "S"))
    active = s["active"]
    s = act(s, type="reveal_event", by="table", card="after_the_accusation")
    s = run_until(s, at("play_card"))
    assert head(s)["seat"] == active
    assert_only_give_up(s, active, {"code": "action_lost_event",
                                    "params": {"card": "after_the_accusation"}})
    choice = plays(s, active)[0]
    s = act(s, **{**choice.action, "discard": (choice.effect["discard_options"] or [None])[0]})
    other = head(s)["seat"]
    assert other != active
    assert all("no_effect" not in c.effect or c.effect["no_effect"]["code"] != "action_lost_event"
               for c in plays(s, other))
    assert any(c.action["perform"] and c.refused is None for c in plays(s, other))


def test_a_permanent_lose_action_names_its_card_while_in_force(catalog):
    """A permanent card's `lose_action` (the catalog's vocabulary, §9) holds while it is in
    force: the reason names that card, in a later round too."""
    _with_effects(catalog, "demo_feast", [{"type": "lose_action", "who": "all"}],
                  permanent=True)
    s = new_game(catalog, seats=("N", "S"))
    s = act(s, type="reveal_event", by="table", card="demo_feast")
    s = run_until(s, at("play_card", round_=2))
    seat = head(s)["seat"]
    assert_only_give_up(s, seat, {"code": "action_lost_event",
                                  "params": {"card": "demo_feast"}})


def test_penance_and_begging_take_no_action(catalog):
    """Penance (a random discard), Begging (no income): round 1's cards are carried out."""
    s = run_until(_game(catalog), at("roll_tax"))
    for seat in ("N", "E", "S"):
        _duty_ready(s, seat, gold=9)
    set_res(s, "N", "piety", 0)
    set_res(s, "E", "grain", 0)
    s = act(s, type="roll_tax", by="table", value=2)
    s = run_until(s, at("play_card", chapter=2, round_=1))
    for _ in range(3):
        seat = head(s)["seat"]
        offered = plays(s, seat)
        assert not any(c.effect.get("no_effect", {}).get("code", "").startswith("action_lost")
                       for c in offered)
        assert any(c.action["perform"] and c.refused is None and "no_effect" not in c.effect
                   for c in offered)
        choice = next(c for c in offered if c.action["perform"] is False and c.refused is None)
        s = act(s, **{**choice.action,
                      "discard": (choice.effect["discard_options"] or [None])[0]})


def test_the_public_view_names_every_lost_action_and_its_cause(catalog):
    """The table's view says, for every seat whose action this round is lost, what takes
    it: King Edward III's war for S, the Royal Court for N (spared the war, §5.5). Before
    the card is revealed only N's action is lost (the Royal Court, round 1)."""
    s = taxed_before_king_edward(catalog)
    assert GAME.public_view(s)["lost_actions"] == {"N": {"cause": "royal_court", "card": None}}
    s = run_until(_king_edward(catalog), at("play_card"))
    assert GAME.public_view(s)["lost_actions"] == {
        "N": {"cause": "royal_court", "card": None},
        "S": {"cause": "event", "card": "king_edward_iii"}}


def test_a_permanent_lose_action_is_in_the_public_view_while_in_force(catalog):
    """A permanent card's `lose_action` sets no round flag: the view names the card for
    every seat it hits, in a later round too (a plain game: no seat loses anything)."""
    plain_view = GAME.public_view(run_until(new_game(plain(catalog), seats=("N", "S")),
                                            at("play_card")))
    assert plain_view["lost_actions"] == {}
    _with_effects(catalog, "demo_feast", [{"type": "lose_action", "who": "all"}],
                  permanent=True)
    s = act(new_game(catalog, seats=("N", "S")), type="reveal_event", by="table",
            card="demo_feast")
    s = run_until(s, at("play_card", round_=2))
    view = GAME.public_view(s)
    assert view["in_force"] == ["demo_feast"]
    assert all(not f for f in view["seats"]["N"]["round_flags"])
    assert view["lost_actions"] == {seat: {"cause": "event", "card": "demo_feast"}
                                    for seat in ("N", "S")}

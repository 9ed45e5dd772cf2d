"""Rule edges a sampled mutant changed with no test noticing (issue 34): C missions count
what they name, a take names dice on its space, a reroll comes once a round in the placing
phase, a monastery without tiles offers none, the road's last space by its option."""
from __future__ import annotations

import pytest

from engine.api import Refused
from engine.monasterium import effects, missions
from engine.monasterium.choices import choices
from tests.engine.monasterium.helpers import CAT, GAME, act_phase, new_game


def _mission(cond):
    return next(m for m in CAT["missions"] if m.get("condition") == cond)


def _own(s, seat, kind, n):
    """``seat`` holds ``n`` buildings of ``kind`` (and nothing else)."""
    got = 0
    for mon in s["mon"].values():
        for b in mon["buildings"]:
            mon["buildings"][b] = None
            if got < n and s["cat"]["buildings"][b]["type"] == kind:
                mon["buildings"][b] = seat
                got += 1
    assert got == n


@pytest.mark.parametrize("kind,n,done", [("hall", 3, True), ("hall", 2, False),
                                         ("lay", 3, False), ("workshop", 4, False)])
def test_three_common_halls_and_only_halls_complete_c2(kind, n, done):
    s = new_game(2)
    _own(s, "N", kind, n)
    assert missions.done(s, "N", _mission("halls_3")) is done


def test_each_c_mission_reads_its_own_condition():
    s = new_game(2)
    _own(s, "N", "hall", 3)  # three halls: C2 only
    assert [c for c in ("sent_12", "halls_3", "cloisters_6", "window_5", "dice_3")
            if missions.done(s, "N", _mission(c))] == ["halls_3"]


def test_a_take_names_only_dice_on_that_space():
    s = act_phase(new_game(2), "N", {"n1": 2, "n2": 3, "N1": 2})
    for dice in (["n2"], ["n1", "n2"], ["nX"]):
        with pytest.raises(Refused) as r:
            GAME.apply(s, {"type": "take", "by": "N", "space": 2, "dice": dice})
        assert r.value.code == "bad_field"
    GAME.apply(s, {"type": "take", "by": "N", "space": 2, "dice": ["N1", "n1"]})


def _placing(n=2, seed=1):
    s = new_game(n, seed=seed)
    return s, s["active"]


def test_a_reroll_needs_the_placing_phase_the_active_seat_and_a_roll():
    s, seat = _placing()
    other = next(x for x in s["seats"] if x != seat)
    mine = [d for d, x in s["dice"].items() if x["holder"] == seat and x["at"] == "hand"]
    reroll = {"type": "reroll", "by": seat, "dice": mine[:1]}
    with pytest.raises(Refused):  # not rolled yet
        GAME.apply(s, reroll)
    s, _ = GAME.apply(s, {"type": "roll", "by": "table"})
    with pytest.raises(Refused):  # not this seat's turn
        theirs = [d for d, x in s["dice"].items() if x["holder"] == other]
        GAME.apply(s, {"type": "reroll", "by": other, "dice": theirs[:1]})
    GAME.apply(s, reroll)
    act = act_phase(s, seat, {"n1": 2})
    with pytest.raises(Refused):  # the action phase
        GAME.apply(act, reroll)


def test_the_reroll_comes_back_every_round():
    import random
    s, seat = _placing()
    s, _ = GAME.apply(s, {"type": "roll", "by": "table"})
    mine = [d for d, x in s["dice"].items() if x["holder"] == seat and x["at"] == "hand"]
    s, _ = GAME.apply(s, {"type": "reroll", "by": seat, "dice": mine})
    assert s["players"][seat]["reroll_used"]
    rnd = random.Random(3)
    start = (s["year"], s["round"])
    while (s["year"], s["round"]) == start:
        s, _ = GAME.apply(s, GAME.random_action(s, rnd))
    assert not any(p["reroll_used"] for p in s["players"].values())


def test_a_monastery_without_tiles_offers_none():
    s = new_game(2)
    m = next(iter(s["mon"]))
    assert effects.glass_options(s, "N", [m])
    s["mon"][m]["glass"] = 0
    assert effects.glass_options(s, "N", [m]) == []


def _own_cloisters(s, seat, n):
    got = 0
    for mon in s["mon"].values():
        for c in mon["cloister"]:
            mon["cloister"][c] = seat if got < n else None
            got += 1


@pytest.mark.parametrize("n,done", [(5, False), (6, True), (7, True)])
def test_six_cloister_novices_complete_c3(n, done):
    s = new_game(2)
    _own_cloisters(s, "N", n)
    assert missions.done(s, "N", _mission("cloisters_6")) is done


@pytest.mark.parametrize("space", ["2", True, 2.0, 0, 7, None])
def test_a_take_names_a_space_one_to_six(space):
    s = act_phase(new_game(2), "N", {"n1": 1, "n2": 2})
    with pytest.raises(Refused) as r:
        GAME.apply(s, {"type": "take", "by": "N", "space": space, "dice": ["n1"]})
    assert r.value.code == "bad_field"


def test_a_swap_is_offered_with_a_single_one_of_what_is_given():
    from engine.monasterium import moves
    s = new_game(2)
    col = next(c for c, e in s["cat"]["actions"]["I"].items() if e["kind"] == "swap")
    give, take = s["cat"]["actions"]["I"][col]["pairs"][0]
    s["players"]["N"]["novices"]["I"].remove(col)  # the row I novice has gone: I is open
    for item in s["players"]["N"]["res"]:
        s["players"]["N"]["res"][item] = 0
    s["players"]["N"]["res"][give] = 1
    s["turn"] = {"col": col, "dice": ["n1"]}
    swaps = [(u["from"], u["to"]) for u in moves.die_uses(s, "N", "n1")
             if u["act"] == "I" and "from" in u]
    assert swaps == [(give, take)]


@pytest.mark.parametrize("owned,takes", [(1, True), (2, True), (3, False)])
def test_the_last_road_space_gives_a_die_until_three_then_prestige(owned, takes):
    """R5 / M-D8: the next personal die while the player has fewer than 3, else +5."""
    s = new_game(2)
    s["players"]["N"]["personal"] = owned
    s["missions"] = []  # (a third die would complete C5 and add its prestige)
    s["pending"] = [{"seat": "N", "kind": "extra_die"}]
    prestige = s["players"]["N"]["prestige"]
    after, _ = GAME.apply(s, {"type": "extra_die", "by": "N", "take": True})
    assert after["players"]["N"]["personal"] == owned + takes
    assert after["players"]["N"]["prestige"] == prestige + (0 if takes else 5)


@pytest.mark.parametrize("cond,setup,done", [
    ("dice_3", lambda p: p.update(personal=3), True),
    ("dice_3", lambda p: p.update(personal=2), False),
    ("window_5", lambda p: p.update(window=[["A", "B", "C"], ["D", "E", None],
                                            [None, None, None]]), True),
    ("window_5", lambda p: p.update(window=[["A", "B", "C"], ["D", "A", None],
                                            [None, None, None]]), False),
])
def test_the_other_c_missions_at_their_thresholds(cond, setup, done):
    s = new_game(2)
    setup(s["players"]["N"])
    assert missions.done(s, "N", _mission(cond)) is done
    others = {"sent_12", "halls_3", "cloisters_6", "window_5", "dice_3"} - {cond}
    assert not any(missions.done(s, "N", _mission(c)) for c in others)


def test_a_take_needs_the_action_phase_the_active_seat_and_no_turn_under_way():
    s = act_phase(new_game(2), "N", {"n1": 2, "n2": 2})
    take = {"type": "take", "by": "N", "space": 2, "dice": ["n1"]}
    for wrong in (dict(s, phase="place"), dict(s, active="E"),
                  dict(s, turn={"col": "B", "dice": ["n2"]})):
        with pytest.raises(Refused) as r:
            GAME.apply(wrong, take)
        assert r.value.code == "not_your_turn"
    GAME.apply(s, take)


@pytest.mark.parametrize("n,seed", [(2, 1), (3, 2), (4, 3)])
def test_a_seat_is_skipped_only_while_others_still_take_dice(n, seed):
    """M-A9: a seat with no die to take is passed over while dice remain; when none is left
    the round simply ends, nobody is "skipped" on the way (the log would say so)."""
    import random
    rnd = random.Random(seed)
    s = new_game(n, seed=seed)
    skipped = 0
    while not GAME.is_over(s):
        s, events = GAME.apply(s, GAME.random_action(s, rnd))
        kinds = [e["type"] for e in events]
        if "skipped" in kinds:
            skipped += 1
            assert not {"round_ended", "round_started", "game_over"} & set(kinds), kinds
    assert skipped  # the games did pass a seat over


@pytest.mark.parametrize("passing,start,steps,gets", [
    (False, 10, 2, True),    # stops on the last space
    (False, 10, 3, False),   # passes it
    (True, 10, 3, True),     # passes it, M-A13's default reading
    (True, 8, 3, False),     # does not reach it
])
def test_the_last_road_space_gives_its_die_when_reached_or_passed_by_option(
        passing, start, steps, gets):
    s = new_game(2, new_die_when_passing=passing)
    p = s["players"]["N"]
    p["road"], p["personal"] = start, 1
    s["pending"] = []
    ev = []
    effects.move(s, "N", steps, ev)
    assert any(x["kind"] == "extra_die" for x in s["pending"]) is gets


def test_a_die_is_used_in_the_action_phase_by_the_active_seat_only():
    s = act_phase(new_game(2), "N", {"n1": 2})
    s, _ = GAME.apply(s, {"type": "take", "by": "N", "space": 2, "dice": ["n1"]})
    use = next(c.action for c in choices(s, "N") if c.action["type"] == "use")
    for wrong, action in ((dict(s, phase="place"), use), (s, dict(use, by="E"))):
        with pytest.raises(Refused) as r:
            GAME.apply(wrong, action)
        assert r.value.code == "not_your_turn"
    GAME.apply(s, use)


@pytest.mark.parametrize("sent,done", [(11, False), (12, True)])
def test_twelve_novices_sent_complete_c1(sent, done):
    s = new_game(2)
    s["players"]["N"]["sent"] = sent
    assert missions.done(s, "N", _mission("sent_12")) is done


ADJUST = {"type": "adjust", "by": "host", "seat": "N"}


@pytest.mark.parametrize("item", ["book", "prestige"])
def test_a_host_correction_may_take_a_count_to_zero_and_move_it_by_twenty(item):
    s = new_game(2)
    p = s["players"]["N"]
    if item == "prestige":
        p["prestige"] = 20
    else:
        p["res"][item] = 20
    down, _ = GAME.apply(s, {**ADJUST, "item": item, "delta": -20})
    held = down["players"]["N"]["prestige"] if item == "prestige" \
        else down["players"]["N"]["res"][item]
    assert held == 0
    GAME.apply(s, {**ADJUST, "item": item, "delta": 20})
    for delta in (-21, 21):
        with pytest.raises(Refused):
            GAME.apply(s, {**ADJUST, "item": item, "delta": delta})
    with pytest.raises(Refused):  # below zero
        GAME.apply(down, {**ADJUST, "item": item, "delta": -1})


@pytest.mark.parametrize("bad", [{"item": "gold", "delta": 1}, {"item": "book", "delta": True},
                                 {"item": "book", "delta": 1.0}, {"item": "book", "delta": "1"},
                                 {"item": None, "delta": 1}])
def test_a_host_correction_names_a_resource_or_prestige_and_a_whole_number(bad):
    s = new_game(2)
    s["players"]["N"]["res"]["book"] = 3
    with pytest.raises(Refused) as r:
        GAME.apply(s, {**ADJUST, **bad})
    assert r.value.code == "bad_field"

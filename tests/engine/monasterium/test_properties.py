"""Random legal games of Monasterium for 2, 3 and 4 players: they end after 3 years, the
state stays JSON, `apply` never changes its input, a replay gives the same game, every
decision has a legal choice, illegal actions change nothing; and the dice reader's rolls."""
from __future__ import annotations

import json
import random

import pytest

from engine.api import DieFace, Refused
from engine.monasterium import bindings
from tests.engine.monasterium.helpers import GAME, new_game


def strip(s):
    return {k: v for k, v in s.items() if k != "cat"}


def play(n, seed):
    s = new_game(n, seed=seed)
    rnd = random.Random(seed)
    actions, states = [], [s]
    while not GAME.is_over(s):
        a = GAME.random_action(s, rnd)
        before = json.dumps(strip(s), sort_keys=True)
        s, _ = GAME.apply(s, a)
        assert json.dumps(strip(states[-1]), sort_keys=True) == before  # input unchanged
        actions.append(a)
        states.append(s)
        assert len(actions) < 3000
    return s, actions, states


@pytest.mark.parametrize("n", [2, 3, 4])
@pytest.mark.parametrize("seed", [0, 7])
def test_random_games_end_replay_and_stay_json(n, seed):
    s, actions, states = play(n, seed)
    assert s["over"] and s["year"] == 3 and s["final"]
    assert json.loads(json.dumps(strip(s))) == strip(s)
    r = new_game(n, seed=seed)
    for a in actions:
        r, _ = GAME.apply(r, json.loads(json.dumps(a)))
    assert strip(r) == strip(s)
    rows = GAME.scores(s)
    assert [x["vp"] for x in rows] == sorted((x["vp"] for x in rows), reverse=True)
    assert any(x["winner"] for x in rows)
    for st in states[::37]:
        for p in GAME.prompts(st):
            assert GAME.choices(st, p.seat), (p.kind, st["phase"])
        for seat in st["seats"]:
            v = GAME.seat_view(st, seat)
            assert json.loads(json.dumps(v)) == v and "seed" not in v and "cat" not in v


def test_illegal_actions_change_nothing():
    s, _, states = play(3, 2)
    rnd = random.Random(5)
    bad = [{"type": "take", "by": "N", "space": 9, "dice": ["n1"]},
           {"type": "use", "by": "E", "die": "zz", "act": "std"},
           {"type": "place", "by": "S", "face": 7}, {"type": "roll", "by": "host"},
           {"type": "nope", "by": "N"}, "not an action", {"type": "reroll", "by": "N"},
           {"type": "lose", "by": "N", "die": None}, {"type": "bonus", "by": "E"}]
    for st in rnd.sample(states, 30):
        before = json.dumps(strip(st), sort_keys=True)
        for a in bad:
            with pytest.raises(Refused):
                GAME.apply(st, a)
        assert json.dumps(strip(st), sort_keys=True) == before


def test_a_die_is_lost_only_when_no_action_is_possible():
    from tests.engine.monasterium.helpers import act_phase, apply

    s = act_phase(new_game(2), "N", {"n1": 1})
    s, _ = apply(s, type="take", by="N", space=1, dice=["n1"])
    with pytest.raises(Refused) as possible:
        apply(s, type="lose", by="N", die="n1")  # a novice can be sent
    assert possible.value.code == "action_possible"
    s["players"]["N"]["res"] = {k: 0 for k in s["players"]["N"]["res"]}
    assert [c.action["type"] for c in GAME.choices(s, "N")] == ["lose"]
    s, ev = apply(s, type="lose", by="N", die="n1")
    assert ev[0]["type"] == "die_lost"


def test_the_dice_reader_rolls_a_players_dice_by_role():
    s = new_game(2)
    mine = sorted(d for d, x in s["dice"].items() if x["holder"] == "N")
    dice = [DieFace("neutral", f) for f in (1, 2, 3, 4, 5)] + [DieFace("personal_N", 6)]
    [act] = bindings.roll(s, dice)
    assert sorted(act.action["faces"]) == mine and act.action["faces"]["N1"] == 6
    s2, _ = GAME.apply(s, act.action)
    assert s2["place"]["rolled"]
    [warn] = bindings.roll(s, dice[:2])
    assert warn.code == "roll_does_not_match"


def test_the_rolling_player_may_enter_their_roll_but_nobody_else():
    s = new_game(2)
    faces = {d: 3 for d, x in s["dice"].items() if x["holder"] == "N"}
    with pytest.raises(Refused):
        GAME.apply(s, {"type": "roll", "by": "E", "faces": faces})
    s2, _ = GAME.apply(s, {"type": "roll", "by": "N", "faces": faces})
    assert s2["place"]["rolled"]


@pytest.mark.parametrize("n", [2, 3, 4])
def test_invariants_hold_at_every_step(n):
    """Novices conserved (24 a player: on the board + sent + forfeited), one novice a building,
    chapels within capacity, windows legal, missions at most once, at most 3 dice a take
    (1 from space 6) with personal dice first, personal dice at most 3."""
    s = new_game(n, seed=11)
    rnd = random.Random(11)
    forfeited = dict.fromkeys(s["seats"], 0)
    while not s["over"]:
        a = GAME.random_action(s, rnd)
        before = s
        s, ev = GAME.apply(s, a)
        if a["type"] == "take":
            assert len(a["dice"]) <= (1 if a["space"] == 6 else 3)
            mine_left = [d for d, x in s["dice"].items() if x["at"] == "space"
                         and x["face"] == a["space"] and x["owner"] == a["by"]]
            assert not mine_left or all(before["dice"][d]["owner"] == a["by"] for d in a["dice"])
        for seat, p in s["players"].items():
            placed = sum(who == seat for m in s["mon"].values()
                         for who in list(m["buildings"].values()) + list(m["cloister"].values()))
            placed += sum(m["chapel"].count(seat) for m in s["mon"].values())
            on_board = sum(len(v) for v in p["novices"].values()) + len(p["extras"])
            forfeited[seat] += sum(e["type"] == "extra_forfeit" and e["seat"] == seat for e in ev)
            assert placed == p["sent"] and on_board + p["sent"] + forfeited[seat] == 24
            assert 1 <= p["personal"] <= 3
            w = p["window"]
            for r in range(3):
                row = [c for c in w[r] if c]
                assert len(row) == len(set(row)) and w[r][:len(row)] == row  # from the left
            for c in range(3):
                col = [w[r][c] for r in range(3) if w[r][c]]
                assert len(col) == len(set(col))
        for m in s["mon"].values():
            assert len(m["chapel"]) <= 2 * n and m["glass"] >= 0
        claims = [e for e in ev if e["type"] == "mission"]
        for e in claims:
            assert e["mission"] not in before["players"][e["seat"]]["claimed"]


def test_host_corrections_of_the_board_are_recorded_and_checked():
    from engine.monasterium.corrections import corrections

    s = new_game(3, seed=4)
    listed = {(c["part"], c["key"]) for c in corrections(s)}
    assert ("messenger", "N") in listed and ("glass", "A") in listed
    assert ("space", "A.lay2") not in listed  # blocked in a 3-player game
    s2, ev = GAME.apply(s, {"type": "correct", "by": "host", "part": "messenger", "key": "E",
                            "value": 7, "reason": "knocked over"})
    assert s2["players"]["E"]["road"] == 7 and s["players"]["E"]["road"] == 1
    assert ev == [{"type": "corrected", "part": "messenger", "key": "E", "before": 1,
                   "after": 7, "reason": "knocked over"}]
    s3, _ = GAME.apply(s2, {"type": "correct", "by": "host", "part": "space", "key": "B.work1",
                            "value": "S", "reason": "a novice was placed by hand"})
    assert s3["mon"]["B"]["buildings"]["B.work1"] == "S" and \
        s2["mon"]["B"]["buildings"]["B.work1"] is None
    for bad in ({"part": "messenger", "key": "E", "value": 99, "reason": "x"},
                {"part": "glass", "key": "Z", "value": 1, "reason": "x"},
                {"part": "chapel", "key": "A", "value": ["N"] * 9, "reason": "x"},
                {"part": "die", "key": "n1", "value": True, "reason": "x"},
                {"part": "messenger", "key": "E", "value": 3, "reason": ""}):
        with pytest.raises(Refused):
            GAME.apply(s, {"type": "correct", "by": "host", **bad})
    with pytest.raises(Refused):
        GAME.apply(s, {"type": "correct", "by": "N", "part": "messenger", "key": "N",
                       "value": 3, "reason": "x"})


def test_a_refused_correction_names_the_field_that_is_wrong():
    """The host's form marks the field the refusal names: an unknown part, a key the part
    does not have (a blocked space, another game's seat), a value outside the schema."""
    s = new_game(3, seed=4)
    for bad, field in (({"part": "tower", "key": "E", "value": 3}, "part"),
                       ({"part": None, "key": "E", "value": 3}, "part"),
                       ({"part": "messenger", "key": "W", "value": 3}, "key"),
                       ({"part": "space", "key": "A.lay2", "value": "N"}, "key"),
                       ({"part": "glass", "key": "Z", "value": 1}, "key"),
                       ({"part": "messenger", "key": "E", "value": 99}, "value")):
        with pytest.raises(Refused) as r:
            GAME.apply(s, {"type": "correct", "by": "host", "reason": "x", **bad})
        assert (r.value.code, r.value.params) == ("bad_field", {"field": field}), bad

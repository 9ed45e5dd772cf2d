"""Monasterium's options (M-A readings): the docs list exactly the code's table, every
reading M-A1…M-A22 is an option or says why not, and each option changes play as it says."""
from __future__ import annotations

import re
from pathlib import Path

import pytest

from engine.api import Refused
from engine.monasterium.effects import move, send_cost
from engine.monasterium.options import NOT_OPTIONS, OPTIONS
from engine.monasterium.scoring import breakdown
from tests.engine.monasterium.helpers import act_phase, apply, building, new_game, road_to

DOC = Path(__file__).resolve().parents[3] / "docs" / "monasterium-options.md"


def test_every_reading_is_an_option_or_says_why_not_and_the_docs_agree():
    ids = {f"M-A{n}" for n in range(1, 23)}
    covered = set(NOT_OPTIONS)
    for _, (_, _, rule, _) in OPTIONS.items():
        covered |= set(re.findall(r"M-A\d+", rule))
    assert covered == ids
    text = DOC.read_text()
    for key, (default, _, rule, _) in OPTIONS.items():
        assert f"| `{key}` | `{default!r}` |" in text and rule in text
    for key in NOT_OPTIONS:
        assert f"| {key} |" in text


def test_unknown_or_bad_options_are_refused():
    with pytest.raises(Refused):
        new_game(2, nope=True)
    with pytest.raises(Refused):
        new_game(2, chapel_cost="per_year")


def test_chapel_cost_per_chapel():
    s = new_game(2, chapel_cost="per_chapel")
    s["players"]["N"]["chapel_sent"] = 2
    s["mon"]["B"]["chapel"] = ["N"]
    assert send_cost(s, "N", "III", "chapel", 0, "A")["influence"] == 1
    assert send_cost(s, "N", "III", "chapel", 0, "B")["influence"] == 2
    t = new_game(2)
    t["players"]["N"]["chapel_sent"] = 2
    assert send_cost(t, "N", "III", "chapel", 0, "A")["influence"] == 3


@pytest.mark.parametrize("twice,points", [(False, 2), (True, 3)])
def test_yellow_dice_scoring_once_or_twice(twice, points):
    s = act_phase(new_game(2, yellow_scores_twice=twice), "N", {"n1": 1, "n2": 1})
    s["players"]["N"]["road"] = road_to(s, "A")
    lay = building(s, "A", "lay")
    s["mon"]["A"]["buildings"][lay] = "N"
    s, _ = apply(s, type="take", by="N", space=1, dice=["n1", "n2"])
    s, _ = apply(s, type="use", by="N", die="n1", act="std", novice="IV:A", monastery="A",
                 to=s["cat"]["buildings"][lay]["cloister"][0])
    assert s["players"]["N"]["prestige"] == 1  # the die still on the tile
    s, _ = apply(s, type="use", by="N", die="n2", act="std", novice="I:B", monastery="A",
                 to=building(s, "A", "lay"))
    assert s["players"]["N"]["prestige"] == points  # +1 lay building (+1 again if twice)


@pytest.mark.parametrize("scores,points", [(True, 1), (False, 0)])
def test_a_joker_on_a_yellow_column(scores, points):
    s = act_phase(new_game(2, joker_on_yellow_scores=scores), "N", {"n1": 6})
    s["players"]["N"]["yellow"] = ["B"]
    s, _ = apply(s, type="take", by="N", space=6, dice=["n1"], column="B")
    assert s["players"]["N"]["prestige"] == points


def test_the_extra_action_and_the_once_per_turn_limit():
    for limits in (True, False):
        s = act_phase(new_game(2, extra_action_once_limits=limits), "N", {"n1": 5, "n2": 5})
        s["players"]["N"]["novices"]["II"].remove("E")
        s, _ = apply(s, type="take", by="N", space=5, dice=["n1", "n2"])
        s, _ = apply(s, type="use", by="N", die="n1", act="II")
        s["pending"] = [{"seat": "N", "kind": "extra_action"}]
        if limits:
            with pytest.raises(Refused):
                apply(s, type="use", by="N", die=None, column="E", act="II")
        else:
            s, _ = apply(s, type="use", by="N", die=None, column="E", act="II")
            assert s["players"]["N"]["prestige"] == 6


def test_majority_with_nobody_there():
    assert breakdown(new_game(2))["N"]["majorities"] == 0
    assert breakdown(new_game(2, majority_needs_novice=False))["N"]["majorities"] == 25


@pytest.mark.parametrize("passing,pending", [(True, ["extra_die"]), (False, [])])
def test_the_new_die_when_passing_the_last_space(passing, pending):
    s = new_game(2, new_die_when_passing=passing)
    s["players"]["N"]["road"] = s["cat"]["road_length"] - 1
    move(s, "N", 2, [])
    assert [p["kind"] for p in s["pending"]] == pending


def test_an_extra_novice_and_the_cost_counters():
    for counts in (False, True):
        s = act_phase(new_game(2, extra_novice_counts_cost=counts), "N", {"n1": 1})
        s["players"]["N"]["road"] = road_to(s, "A")
        s["pending"] = [{"seat": "N", "kind": "extra_novice", "row": "I"}]
        s, _ = apply(s, type="extra_novice", by="N", monastery="A", to="chapel")
        assert s["players"]["N"]["chapel_sent"] == (1 if counts else 0)
        assert s["mon"]["A"]["chapel"] == ["N"]

"""The step-13 conversion advisor against a brute force written from the rules
(`advisor_brute.py`): on generated holdings and craftsman sets (shipped craftsmen and made-up
ones: a one-use 1-VP conversion, gold-only ones), with the gold cap on or off, the advisor's
best allocation must be legal, make the VP and gold it says, be the best, and be the first
best in the order it promises (craftsmen as held, most uses first: the phones show that
plan); the market's VP-only search (`most_vp`) and `best_with` must give the same best VP for
other holdings. The edge cases are explicit examples: capacity-1 conversions, a best of
exactly 1 VP, ties, nothing to gain.

Planted faults (`test_planted_faults_fail_the_check`): the check run on a copy of advisor.py
with one rule broken must fail on those examples. The issue's second mutant (`best = [0]`
-> `[1]` in `most_vp`) is equivalent, not planted: `most_vp` searches only craftsmen that
can be used at least once for at least 1 VP, so whenever it searches at all the best is at
least 1, and starting from 1 finds the same best (bench/mutants_equivalent.json)."""
from __future__ import annotations

import copy
import types
from pathlib import Path

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from engine.pillars import GAME, advisor
from tests.engine.pillars.advisor_brute import brute_best, legal, score
from tests.engine.pillars.helpers import new_game
from tests.engine.pillars.test_examples import at_build

MADE_UP = {  # conversions the shipped deck lacks, to reach the search's other branches
    "one_shot": {"capacity": 1, "input": {"wood": 1}, "output": {"vp": 1}},
    "payer": {"capacity": 3, "input": {"gold": 2, "sand": 1}, "output": {}},
    "banker": {"capacity": 2, "input": {"wood": 1}, "output": {"gold": 3}},
    "idle": {"capacity": 2, "input": {"stone": 1}, "output": {"vp": 0}},
}
BASE = new_game(2)
for _cid, _rule in MADE_UP.items():
    BASE["cat"]["craftsmen"][_cid] = {"id": _cid, "type": _cid, "round": 1, "cost": 0, **_rule}
CRAFTSMEN = sorted(BASE["cat"]["craftsmen"])
CAP = BASE["cat"]["board"]["gold_cap"]
CUBES = ("wood", "stone", "sand", "metal")


def state_of(case: dict) -> dict:
    s = at_build(BASE, "N", case["held"], case["cubes"], gold=case["gold"])
    s["options"] = {**s["options"], "gold_cap_all_gains": case["capped"]}
    return s


def case(held, gold=10, capped=False, trade=None, **cubes):
    """An explicit example: ``trade`` is other holdings ({holding: change}) for the market's
    VP-only search."""
    return {"held": list(held), "cubes": {c: cubes.get(c, 0) for c in CUBES}, "gold": gold,
            "capped": capped, "trade": trade or {}}


@st.composite
def cases(draw):
    return {"held": draw(st.lists(st.sampled_from(CRAFTSMEN), max_size=5, unique=True)),
            "cubes": {"wood": draw(st.integers(0, 8)), "stone": draw(st.integers(0, 8)),
                      "sand": draw(st.integers(0, 8)), "metal": draw(st.integers(0, 3))},
            "gold": draw(st.integers(0, CAP + 9)), "capped": draw(st.booleans()),
            "trade": draw(st.dictionaries(st.sampled_from((*CUBES, "gold")),
                                          st.integers(-4, 6), max_size=2))}


def check(c: dict, adv: types.ModuleType = advisor) -> None:
    """The advisor module ``adv`` against the brute force on one case."""
    s = state_of(c)
    crafts, held = s["cat"]["craftsmen"], c["held"]
    have = {**c["cubes"], "gold": c["gold"]}
    cap = CAP if c["capped"] else None
    want = brute_best(s, "N")
    got = adv.best_allocation(s, "N")
    plan = got["uses"]
    assert legal(crafts, held, have, plan) and adv.check_allocation(s, "N", plan) is None
    assert score(crafts, have, plan, cap) == (got["vp"], got["gold"])  # it makes what it says
    assert (got["vp"], got["gold"]) == (want["vp"], want["gold"])  # and that is the best
    assert plan == want["first"]  # the first best in the promised order (ties)
    assert got["used"] == {k: n for k in CUBES
                           if (n := sum(crafts[x]["input"].get(k, 0) * u for x, u in plan.items()))}
    assert adv.most_vp(s, "N")(have) == want["vp"]
    other = {k: max(0, have[k] + c["trade"].get(k, 0)) for k in have}
    want_other = brute_best(s, "N", other)
    assert adv.most_vp(s, "N")(other) == want_other["vp"]
    vp, gold, uses = adv.best_with(s, "N", other)
    assert (vp, gold, uses) == (want_other["vp"], want_other["gold"], want_other["first"])


EXAMPLES = [
    # capacity-1 conversions: the Mortar mixer once, alone and beside others
    case(["mortar_mixer_blue"], sand=3),
    case(["carpenter_blue", "mortar_mixer_red"], sand=5, wood=1),
    case(["bell_founder_3", "sculptor_2", "potter_1"], metal=1, stone=2, sand=2),
    case(["one_shot", "idle"], wood=4, stone=1, trade={"wood": -3}),
    # a best of exactly 1 VP
    case(["structural_engineer_1"]),
    case(["carpenter_blue"], wood=3, trade={"wood": -1}),
    case(["goldsmith_3", "banker"], gold=3, trade={"gold": 2}),
    case(["mason_1", "mortar_mixer_blue"], stone=1, sand=2, trade={"sand": 1}),
    # ties: the first craftsman held gets the cubes
    case(["sculptor_2", "sculptor_3"], stone=1),
    case(["carpenter_red", "carpenter_blue", "one_shot"], wood=2),
    case(["potter_2", "potter_4", "glassblower_3"], sand=2, metal=0, trade={"metal": 1}),
    # nothing to gain
    case([]),
    case(["carpenter_blue"], wood=1),
    case(["mason_6"], stone=5),  # no Mortar mixer
    case(["toolmaker_1", "bell_founder_5"], metal=0, trade={"metal": 1}),
    # gold: the cap, uses that only cost gold, gold that buys VP
    case(["payer"], gold=CAP + 5, capped=True, sand=3),
    case(["payer", "banker"], gold=CAP - 1, capped=True, sand=2, wood=2),
    case(["goldsmith_5", "master_carpenter_2", "toolmaker_6"], gold=14, wood=2, metal=1),
    # the largest: five craftsmen of the largest capacities, rich holdings
    case(["mason_6", "goldsmith_5", "sculptor_6", "potter_4", "mortar_mixer_blue"],
         gold=CAP, wood=8, stone=8, sand=8, metal=3),
]


def check_menu(c: dict) -> None:
    """The phone's step-13 menu: the best first, then building nothing (when the best builds
    something), then one use of each craftsman that can be used once (unless that is the
    best); every allocation offered is legal and shows the VP and gold it makes."""
    s = state_of(c)
    crafts, held = s["cat"]["craftsmen"], c["held"]
    have = {**c["cubes"], "gold": c["gold"]}
    cap = CAP if c["capped"] else None
    menu = [ch for ch in GAME.choices(s, "N") if ch.action["type"] == "build"]
    plans = [ch.action["uses"] for ch in menu]
    for ch in menu:
        assert ch.refused is None and legal(crafts, held, have, ch.action["uses"])
        assert (ch.effect["vp"], ch.effect["gold"]) == score(crafts, have, ch.action["uses"], cap)
    want = brute_best(s, "N")
    assert plans[0] == want["first"] and menu[0].effect["best"]
    once = [{x: 1} for x in held if legal(crafts, held, have, {x: 1})]
    assert plans[1:] == ([{}] if plans[0] else []) + [u for u in once if u != plans[0]]


def _examples(test):
    for c in reversed(EXAMPLES):
        test = example(c=c)(test)
    return test


@settings(max_examples=100, deadline=None, derandomize=True, database=None,
          suppress_health_check=[HealthCheck.too_slow])
@_examples
@given(c=cases())
def test_advisor_equals_brute_force(c):
    check(c)
    check_menu(c)


PLANTED = [
    # the first mutant: a craftsman usable exactly once drops out of the market's search
    ("            if most > 0 and all(", "            if most > 1 and all("),
    # a craftsman usable exactly once drops out of the advisor
    ("        if cap <= 0:  #", "        if cap <= 1:  #"),
    # of equal allocations the last is kept, not the first (ties)
    ("(vp == best[0] and gold > best[1])", "(vp == best[0] and gold >= best[1])"),
    # the gold an allocation makes is not capped (the plan then says more than it makes)
    ("            if cap is not None and gold > cap:\n                gold = cap\n", ""),
    # the last craftsman searched uses one fewer than it can
    ("    if dvp > 0 or dgold >= 0:\n        return most\n",
     "    if dvp > 0 or dgold >= 0:\n        return max(0, most - 1)\n"),
]


def planted(old: str, new: str) -> types.ModuleType:
    """A copy of engine/pillars/advisor.py with ``old`` replaced by ``new`` (once)."""
    path = Path(advisor.__file__)
    source = path.read_text()
    assert source.count(old) == 1, old
    mod = types.ModuleType("planted_advisor")
    exec(compile(source.replace(old, new), str(path), "exec"), mod.__dict__)  # noqa: S102
    return mod


@pytest.mark.parametrize(("old", "new"), PLANTED)
def test_planted_faults_fail_the_check(old, new):
    adv = planted(old, new)
    failed = 0
    for c in EXAMPLES:
        try:
            check(copy.deepcopy(c), adv)
        except AssertionError:
            failed += 1
    assert failed, f"the brute-force check missed the planted fault {new!r}"

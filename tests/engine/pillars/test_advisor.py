"""The step-13 conversion advisor against brute force on random positions (same optimum),
and its speed on the worst positions."""
from __future__ import annotations

import itertools
import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.pillars import GAME
from engine.pillars.advisor import best_allocation, check_allocation, outcome, useful
from engine.pillars.choices import build_vp_after
from tests.engine.pillars.helpers import new_game
from tests.engine.pillars.test_examples import at_build

BASE = new_game(2)
ALL = sorted(BASE["cat"]["craftsmen"])


def brute(s, seat):
    crafts = s["players"][seat]["craftsmen"]
    caps = [range(s["cat"]["craftsmen"][c]["capacity"] + 1) for c in crafts]
    best = (-1, -1)
    for combo in itertools.product(*caps):
        uses = dict(zip(crafts, combo, strict=True))
        if check_allocation(s, seat, uses) is None:
            vp, gold, _ = outcome(s, seat, uses)
            best = max(best, (vp, gold))
    return best


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10 ** 6))
def test_advisor_matches_brute_force(seed):
    rnd = random.Random(seed)
    crafts = rnd.sample(ALL, rnd.randint(1, 5))
    cubes = {c: rnd.randint(0, 8) for c in ("wood", "stone", "sand")}
    cubes["metal"] = rnd.randint(0, 3)
    s = at_build(BASE, "N", crafts, cubes, gold=rnd.randint(0, 30))
    best = best_allocation(s, "N")
    assert check_allocation(s, "N", best["uses"]) is None
    assert (best["vp"], best["gold"]) == brute(s, "N")


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10 ** 6))
def test_holdings_beyond_what_the_craftsmen_use_change_no_best_vp(seed):
    """The market previews search once for holdings equal up to `useful` (memo of
    `build_vp_after`): each answer equals a search of its own."""
    rnd = random.Random(seed)
    crafts = rnd.sample(ALL, rnd.randint(1, 5))
    cubes = {c: rnd.randint(0, 8) for c in ("wood", "stone", "sand")}
    cubes["metal"] = rnd.randint(0, 3)
    s = at_build(BASE, "N", crafts, cubes, gold=rnd.randint(0, 30))
    bound = useful(s, "N")
    assert all(v >= 0 for v in bound.values())
    memo: dict = {}
    asked = [(cube, n, gold) for cube in ("wood", "stone", "sand", "metal")
             for n in range(0, 9) for gold in (0, -rnd.randint(0, 5), rnd.randint(0, 9))
             if cubes[cube] + n >= 0 and s["players"]["N"]["gold"] + gold >= 0]
    for cube, n, gold in asked:
        assert build_vp_after(s, "N", cube, n, gold, memo) == build_vp_after(s, "N", cube, n,
                                                                             gold)
    assert len(memo) - 1 < len(asked)


def test_build_choices_offer_the_best_and_previews_compare():
    s = at_build(BASE, "N", ["carpenter_blue", "sculptor_2", "mason_1", "mortar_mixer_blue",
                             "potter_1"], {"wood": 8, "stone": 3, "sand": 5})
    first = GAME.choices(s, "N")[0]
    assert first.effect["best"] and first.effect["vp"] == best_allocation(s, "N")["vp"]
    p = GAME.preview(s, {"type": "build", "by": "N", "uses": {"carpenter_blue": 1}})
    assert p["vp"] == 1 and p["best_vp"] == first.effect["vp"]
    assert GAME.preview(s, {"type": "build", "by": "N", "uses": {"carpenter_blue": 9}}) is None


def test_advisor_on_rich_positions_offers_the_optimum_first():
    """A rich position (five craftsmen, many cubes): the first choice is the exact optimum.
    How fast choices are is measured by bench/pillars_engine.py, not asserted here."""
    s = at_build(BASE, "N", ["mason_6", "goldsmith_5", "sculptor_6", "potter_4",
                             "mortar_mixer_blue"], {"wood": 9, "stone": 12, "sand": 12,
                                                    "metal": 3}, gold=30)
    first = GAME.choices(s, "N")[0]
    assert first.effect["best"] and first.effect["vp"] == best_allocation(s, "N")["vp"]


def test_market_choices_preview_the_build_vp():
    from tests.engine.pillars.test_examples import market_position

    s = market_position()
    s["players"]["N"]["cubes"]["sand"] = 1
    s["sites"]["sand"] -= 1
    s["players"]["N"]["gold"] = 7
    ch = {(c.action["type"], c.action.get("cube"), c.action.get("amount")): c
          for c in GAME.choices(s, "N")}
    assert ch[("buy", "sand", 2)].effect["build_vp"] == 1  # 3 sand: Mortar mixer
    assert ch[("leave_market", None, None)].effect["build_vp"] == 0
    assert ch[("sell", "metal", 1)].effect["gold"] == 5


def test_seat_view_forecast():
    from tests.engine.pillars.helpers import act, by, layout

    s = new_game(2)
    s, _ = layout(s, privileges=["gold_8", "vp_2"])
    s, _ = act(s, by("N", "take_material", card="wood_4"))
    f = GAME.seat_view(s, "N")["forecast"]
    assert f["cubes"] == {"wood": 4} and f["mill_gold"] == 7

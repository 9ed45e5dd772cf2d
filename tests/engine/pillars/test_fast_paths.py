"""The advisor's and the placements' fast paths give exactly what the plain definitions give:
the exhaustive search that tries every allocation in order (the advisor before it carried
sums and cut branches), the market's VP-only previews, and `state.space_refusal` per space.
Exactly: the same allocation (the first with the most VP, then gold), not only the same VP,
because the phones show it. Random positions, random craftsmen (with made-up ones that cost
gold and bring none, or bring gold only) and both gold-cap options."""
from __future__ import annotations

import copy
import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.pillars import GAME, state
from engine.pillars.advisor import best_allocation, best_with, most_vp, outcome, usable
from engine.pillars.choices import build_vp_after
from tests.engine.pillars.helpers import new_game
from tests.engine.pillars.test_examples import at_build

BASE = new_game(2)
SEEDS = st.integers(0, 10 ** 6)
FAST = settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def plain_best(s, seat) -> dict:
    """Every feasible allocation, craftsmen in the order held and most uses first; the first
    with the most (VP, gold after) is kept, each scored by `outcome`."""
    items = usable(s, seat)
    have = {**s["players"][seat]["cubes"], "gold": s["players"][seat]["gold"]}
    best = [(-1, -1), {}]
    cur: dict = {}

    def rec(i):
        if i == len(items):
            vp, gold, _ = outcome(s, seat, cur)
            if (vp, gold) > best[0]:
                best[0], best[1] = (vp, gold), {k: v for k, v in cur.items() if v}
            return
        cid, c, cap = items[i]
        m = cap
        for k, v in c["input"].items():
            if v > 0:
                m = min(m, have[k] // v)
        for n in range(m, -1, -1):
            for k, v in c["input"].items():
                have[k] -= v * n
            cur[cid] = n
            rec(i + 1)
            for k, v in c["input"].items():
                have[k] += v * n
        cur.pop(cid, None)

    rec(0)
    vp, gold, used = outcome(s, seat, best[1])
    return {"uses": best[1], "vp": vp, "gold": gold, "used": used}


def position(rnd, over_cap=False):
    """A build position: 1-5 craftsmen (shipped ones and made-up gold ones), random holdings,
    gold near the cap, either gold-cap option. ``over_cap``: more gold than the cap takes, the
    cap on, and a made-up craftsman last."""
    s = copy.deepcopy(BASE)
    crafts = s["cat"]["craftsmen"]
    made_up = {"payer": {"input": {"gold": 2, "sand": 1}, "output": {}},
               "banker": {"input": {"wood": 1}, "output": {"gold": 3}},
               "fair": {"input": {"gold": 1}, "output": {"gold": 1}},
               "idle": {"input": {"stone": 1}, "output": {"vp": 0}}}
    for cid, rule in made_up.items():
        crafts[cid] = {"id": cid, "type": cid, "round": 1, "cost": 0, "capacity": rnd.randint(1, 4),
                       **rule}
    held = rnd.sample(sorted(crafts), rnd.randint(1, 5))
    if over_cap or rnd.random() < 0.5:  # one made-up craftsman last: the search's closed-form step
        held = [c for c in held if c not in made_up][:4] + [rnd.choice(sorted(made_up))]
    cubes = {c: rnd.randint(0, 8) for c in ("wood", "stone", "sand")}
    cubes["metal"] = rnd.randint(0, 3)
    cap = s["cat"]["board"]["gold_cap"]
    gold = rnd.randint(0, cap) if rnd.random() < 0.5 else cap + rnd.randint(-3, 9)
    if over_cap:
        gold = cap + rnd.randint(1, 9)
        cubes["sand"] = max(cubes["sand"], 1)
    s = at_build(s, "N", held, cubes, gold=gold)
    s["options"] = {**s["options"], "gold_cap_all_gains": over_cap or rnd.random() < 0.5}
    return s


@FAST
@given(seed=SEEDS)
def test_advisor_gives_the_plain_search_allocation(seed):
    s = position(random.Random(seed))
    assert best_allocation(s, "N") == plain_best(s, "N")


@FAST
@given(seed=SEEDS)
def test_advisor_over_the_gold_cap_gives_the_plain_search_allocation(seed):
    """Uses that only cost gold are free while the cap would take that gold anyway: the
    plain search keeps the first of the equal ones (the most such uses)."""
    s = position(random.Random(seed), over_cap=True)
    assert best_allocation(s, "N") == plain_best(s, "N")


@FAST
@given(seed=SEEDS)
def test_market_previews_give_the_best_vp_of_the_changed_holdings(seed):
    """`build_vp_after` (memo or not) and `most_vp` against the advisor on the position
    after the trade, as the market previews were first defined."""
    rnd = random.Random(seed)
    s = position(rnd)
    p = s["players"]["N"]
    vp_of = most_vp(s, "N")
    memo: dict = {}
    for _ in range(12):
        cube = rnd.choice(state.CUBES)
        n = rnd.randint(-p["cubes"][cube], 6)
        gold = rnd.randint(-p["gold"], 9)
        after = copy.deepcopy(s)
        q = after["players"]["N"]
        q["cubes"][cube] += n
        q["gold"] += gold
        want = plain_best(after, "N")["vp"]
        have = {**q["cubes"], "gold": q["gold"]}
        assert vp_of(have) == want == best_with(s, "N", have)[0]
        assert build_vp_after(s, "N", cube, n, gold, memo) == want
        assert build_vp_after(s, "N", cube, n, gold) == want


def plain_spaces(s, seat, cost) -> list:
    """The placements as `state.space_refusal` answers each space (taken ones left out)."""
    out = []
    gold = s["players"][seat]["gold"]
    for loc in s["cat"]["locations"]:
        for sp in state.spaces_of(s, loc):
            r = state.space_refusal(s, seat, sp)
            if r is None and cost > gold and s["options"]["placement_needs_gold"]:
                r = ("cannot_afford", {"item": "gold", "need": cost, "have": gold})
            elif r is not None:
                r = (r.code, r.params)
            if r is None or r[0] != "space_taken":
                out.append((sp, r))
    return out


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=SEEDS)
def test_placements_match_space_refusal(seed):
    rnd = random.Random(seed)
    options = {"spaces_any_order": rnd.random() < 0.5,
               "same_player_two_spaces": rnd.random() < 0.5,
               "placement_needs_gold": rnd.random() < 0.5}
    s = new_game(rnd.randint(2, 4), seed=seed, options=options)
    seen = 0
    for _ in range(400):
        if GAME.is_over(s) or seen >= 6:
            break
        if s["phase"] in ("architects", "deferred") and (s["arch"]["drawn"] or
                                                         s["phase"] == "deferred"):
            seat = s["arch"]["drawn"] if s["phase"] == "architects" else s["active"]
            cost = state.draw_cost(s) if s["phase"] == "architects" else 0
            shown = [(c.action["space"], (c.refused["code"], c.refused["params"])
                      if c.refused else None)
                     for c in GAME.choices(s, seat) if c.action["type"] == "place"]
            assert shown == plain_spaces(s, seat, cost)
            seen += 1
        s, _ = GAME.apply(s, GAME.random_action(s, rnd))
    assert seen  # (every game places architects in its first round)


def test_location_ids_are_no_prefix_of_one_another():
    """What the placements' fast path relies on (a space of `spaces_of(loc)` is at loc)."""
    locs = list(BASE["cat"]["locations"])
    assert all(a == b or not a.startswith(b) for a in locs for b in locs)

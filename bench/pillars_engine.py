"""Benchmark of The Pillars of the Earth engine: full replay of a 4-player game and choices.

Builds a whole 4-player game from seeded random legal actions, then measures
- replay: setup + every action of the record, REPLAYS times (target <= 30 ms);
- choices: `choices` of every seat owing a decision (and the table) at every position of
  several games, the conversion advisor included (target p95 <= 50 ms);
- advisor worst case: `best_allocation` and the market's `most_vp` on the slowest of
  ADVISOR_SETS five-craftsman sets at the largest holding tests/engine/pillars/
  test_advisor_brute.py generates, against the brute force of that test on the same position
  (the same-run baseline: the ratio should stay far below 1).
Prints median and spread, and ends with ONE line: a JSON object of the figures.
"""
from __future__ import annotations

import gc
import json
import random
import statistics
import sys
import time
from pathlib import Path

sys.path[0] = str(Path(__file__).resolve().parents[1])

from engine.pillars import GAME  # noqa: E402
from engine.pillars.advisor import best_allocation, most_vp  # noqa: E402
from engine.pillars.catalog import load_shipped  # noqa: E402
from tests.engine.pillars.advisor_brute import brute_best  # noqa: E402

REPLAYS = 30
ADVISOR_SETS = 200  # five-craftsman sets tried for the slowest (seeded)
ADVISOR_RUNS = 15  # timed runs on the slowest
LARGEST = {"wood": 8, "stone": 8, "sand": 8, "metal": 3}  # the property test's largest holding


def build(catalog, seed):
    setup = {"players": [{"seat": s, "name": s} for s in "NESW"], "seed": seed}
    s = GAME.setup(catalog, setup)
    rnd = random.Random(seed)
    actions, states = [], [s]
    while not GAME.is_over(s):
        a = GAME.random_action(s, rnd)
        s, _ = GAME.apply(s, a)
        actions.append(a)
        states.append(s)
    return setup, actions, states


def pct(values, p):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(p / 100 * (len(ordered) - 1))))]


def ms(fn, runs):
    out = []
    for _ in range(runs):
        t0 = time.perf_counter()
        fn()
        out.append((time.perf_counter() - t0) * 1000)
    return out


def advisor_worst(catalog) -> dict:
    """The advisor on the slowest seeded five-craftsman set at the largest holding (gold at
    the cap plus 9, the cap on every gain), median and spread of ADVISOR_RUNS runs."""
    s = GAME.setup(catalog, {"players": [{"seat": x, "name": x} for x in "NE"], "seed": 1})
    s["options"] = {**s["options"], "gold_cap_all_gains": True}
    p = s["players"]["N"]
    p["cubes"] = dict(LARGEST)
    p["gold"] = s["cat"]["board"]["gold_cap"] + 9
    have = {**p["cubes"], "gold": p["gold"]}
    rnd = random.Random(70)
    every = sorted(s["cat"]["craftsmen"])
    slowest, worst = None, -1.0
    for _ in range(ADVISOR_SETS):
        p["craftsmen"] = rnd.sample(every, 5)
        t = min(ms(lambda: best_allocation(s, "N"), 3))
        if t > worst:
            slowest, worst = list(p["craftsmen"]), t
    p["craftsmen"] = slowest
    gc.disable()
    best = ms(lambda: best_allocation(s, "N"), ADVISOR_RUNS)
    vp = ms(lambda: most_vp(s, "N")(have), ADVISOR_RUNS)
    brute = ms(lambda: brute_best(s, "N"), 3)
    gc.enable()
    assert best_allocation(s, "N")["vp"] == brute_best(s, "N")["vp"] == most_vp(s, "N")(have)
    return {"advisor_set": slowest,
            "advisor_ms_median": round(statistics.median(best), 3),
            "advisor_ms_min": round(min(best), 3), "advisor_ms_max": round(max(best), 3),
            "most_vp_ms_median": round(statistics.median(vp), 3),
            "brute_ms_median": round(statistics.median(brute), 2),
            "advisor_vs_brute": round(statistics.median(best) / statistics.median(brute), 4)}


def main() -> None:
    catalog = load_shipped()
    setup, actions, states = build(catalog, 7)
    replay_ms = []
    gc.disable()
    for _ in range(REPLAYS):
        t0 = time.perf_counter()
        s = GAME.setup(catalog, setup)
        for a in actions:
            s, _ = GAME.apply(s, a)
        replay_ms.append((time.perf_counter() - t0) * 1000)
    gc.enable()
    assert s["players"] == states[-1]["players"]
    choice_ms = []
    for seed in (7, 8, 9):
        _, _, sts = build(catalog, seed)
        for st in sts:
            seats = {p.seat for p in GAME.prompts(st)} | {"table"}
            for seat in seats:
                t0 = time.perf_counter()
                GAME.choices(st, seat)
                choice_ms.append((time.perf_counter() - t0) * 1000)
    figures = {
        "actions": len(actions),
        "replay_ms_median": round(statistics.median(replay_ms), 2),
        "replay_ms_min": round(min(replay_ms), 2), "replay_ms_max": round(max(replay_ms), 2),
        "choices_positions": len(choice_ms),
        "choices_ms_median": round(statistics.median(choice_ms), 3),
        "choices_ms_p95": round(pct(choice_ms, 95), 3),
        "choices_ms_max": round(max(choice_ms), 3),
        **advisor_worst(catalog),
    }
    print(f"replay of a 4-player game ({len(actions)} actions): median "
          f"{figures['replay_ms_median']} ms (min {figures['replay_ms_min']}, max "
          f"{figures['replay_ms_max']}); target <= 30 ms")
    print(f"choices over {len(choice_ms)} positions: median {figures['choices_ms_median']} ms, "
          f"p95 {figures['choices_ms_p95']} ms, max {figures['choices_ms_max']} ms; "
          f"target p95 <= 50 ms")
    print(f"advisor, slowest of {ADVISOR_SETS} five-craftsman sets at the largest holding "
          f"({', '.join(figures['advisor_set'])}): median {figures['advisor_ms_median']} ms "
          f"(min {figures['advisor_ms_min']}, max {figures['advisor_ms_max']}); most_vp "
          f"{figures['most_vp_ms_median']} ms; brute force {figures['brute_ms_median']} ms "
          f"(ratio {figures['advisor_vs_brute']})")
    print(json.dumps(figures))


if __name__ == "__main__":
    main()

"""Benchmark of The Pillars of the Earth engine: full replay of a 4-player game and choices.

Builds a whole 4-player game from seeded random legal actions, then measures
- replay: setup + every action of the record, REPLAYS times (target <= 30 ms);
- choices: `choices` of every seat owing a decision (and the table) at every position of
  several games, the conversion advisor included (target p95 <= 50 ms).
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
from engine.pillars.catalog import load_shipped  # noqa: E402

REPLAYS = 30


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
    }
    print(f"replay of a 4-player game ({len(actions)} actions): median "
          f"{figures['replay_ms_median']} ms (min {figures['replay_ms_min']}, max "
          f"{figures['replay_ms_max']}); target <= 30 ms")
    print(f"choices over {len(choice_ms)} positions: median {figures['choices_ms_median']} ms, "
          f"p95 {figures['choices_ms_p95']} ms, max {figures['choices_ms_max']} ms; "
          f"target p95 <= 50 ms")
    print(json.dumps(figures))


if __name__ == "__main__":
    main()

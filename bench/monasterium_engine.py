"""Benchmark of the Monasterium engine: replay of a 4-player game, and `choices` at every
position of several 4-player games (issue 15: choices <= 50 ms p95 for any position).

    .venv/bin/python bench/monasterium_engine.py [--games 4]

The baseline in the same process is `public_view` of the same positions (the ratio says how
much dearer the menu is than drawing the board). Prints median and spread, then ONE line:
a JSON object of the figures.
"""
from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from pathlib import Path

sys.path[0] = str(Path(__file__).resolve().parents[1])

from engine.monasterium import GAME  # noqa: E402
from engine.monasterium.choices import whose_turn  # noqa: E402

DATA = Path(__file__).resolve().parents[1] / "engine" / "monasterium" / "data"
CAT = {p: json.loads((DATA / f"{p}.json").read_text()) for p in ("board", "actions", "missions")}


def game(seed: int):
    s = GAME.setup(CAT, {"players": [{"seat": x} for x in "NESW"], "seed": seed})
    rnd = random.Random(seed)
    states, actions = [s], []
    while not GAME.is_over(s):
        a = GAME.random_action(s, rnd)
        s, _ = GAME.apply(s, a)
        states.append(s)
        actions.append(a)
    return states, actions


def ms(f) -> float:
    t = time.perf_counter()
    f()
    return (time.perf_counter() - t) * 1000


def pct(xs, p):
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(p * len(xs)))]


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--games", type=int, default=4)
    args = ap.parse_args()
    choice_ms, view_ms, sizes = [], [], []
    replay_ms = []
    for seed in range(args.games):
        states, actions = game(seed)

        def replay(actions=actions, seed=seed):
            s = GAME.setup(CAT, {"players": [{"seat": x} for x in "NESW"], "seed": seed})
            for a in actions:
                s, _ = GAME.apply(s, a)
        replay_ms.append(ms(replay))
        for s in states:
            seat = whose_turn(s)
            if seat is None:
                continue
            got: list = []
            choice_ms.append(ms(lambda s=s, seat=seat, got=got: got.append(GAME.choices(s, seat))))
            sizes.append(len(got[0]))
            view_ms.append(ms(lambda s=s: GAME.public_view(s)))
    out = {
        "positions": len(choice_ms),
        "choices_median_ms": round(statistics.median(choice_ms), 3),
        "choices_p95_ms": round(pct(choice_ms, 0.95), 3),
        "choices_max_ms": round(max(choice_ms), 3),
        "choices_max_count": max(sizes),
        "view_median_ms": round(statistics.median(view_ms), 3),
        "choices_over_view": round(statistics.median(choice_ms) / statistics.median(view_ms), 2),
        "replay_median_ms": round(statistics.median(replay_ms), 1),
        "replay_spread_ms": [round(min(replay_ms), 1), round(max(replay_ms), 1)],
        "actions_per_game": len(actions),
    }
    print(f"choices: median {out['choices_median_ms']} ms, p95 {out['choices_p95_ms']} ms, "
          f"max {out['choices_max_ms']} ms ({out['choices_max_count']} choices at most) over "
          f"{out['positions']} positions; public_view median {out['view_median_ms']} ms")
    print(f"replay of a 4-player game ({out['actions_per_game']} actions): median "
          f"{out['replay_median_ms']} ms, spread {out['replay_spread_ms']}")
    print(json.dumps(out))


if __name__ == "__main__":
    main()

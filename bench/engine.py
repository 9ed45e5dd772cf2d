"""Benchmark of the World Without End engine: full replay of a 4-player record and `apply`.

Builds a whole 4-player game (12-card mode, seeded random legal actions), then measures
- replay: `engine.record.replay` of the full record (setup + every action), N times;
- apply: each action applied to its recorded predecessor state, per action, several passes;
- baseline in the same process: a JSON round trip of the game position (the state without
  its read-only catalog part), per action, to compare the machine's speed.
Targets (issue 2 §5): replay <= 30 ms, apply p50 <= 200 us.
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

# This file is named engine.py: keep its folder off the path so `engine` is the package.
sys.path[0] = str(Path(__file__).resolve().parents[1])

from companion.box.catalog import load_catalog  # noqa: E402
from engine import record as records  # noqa: E402
from engine.wwe import GAME  # noqa: E402

REPLAYS = 50
APPLY_PASSES = 5


def build_record(catalog: dict, seed: int = 7) -> tuple[dict, list[dict]]:
    """A finished 4-player game from random legal actions; returns the record and states."""
    setup = {"players": [{"seat": s, "name": f"Player {s}", "colour": c}
                         for s, c in zip("NESW", ["blue", "red", "green", "yellow"],
                                         strict=True)],
             "seed": seed}
    state = GAME.setup(catalog, setup)
    rnd = random.Random(seed)
    actions, states = [], [state]
    while not state["over"]:
        action = GAME.random_action(state, rnd)
        state, _ = GAME.apply(state, action)
        actions.append(action)
        states.append(state)
    return records.build("wwe", setup, actions), states


def pct(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(p / 100 * (len(ordered) - 1))))]


def main() -> None:
    catalog = load_catalog("wwe")
    record, states = build_record(catalog)
    n_actions = len(record["actions"])

    positions = [{k: v for k, v in s.items() if k != "cat"} for s in states[:-1]]
    replay_ms, base_ms = [], []
    for _ in range(REPLAYS):  # replay and baseline interleaved, so load hits both alike
        gc.collect()
        t = time.perf_counter()
        final, _ = records.replay(GAME, catalog, record)
        replay_ms.append((time.perf_counter() - t) * 1e3)
        t = time.perf_counter()
        for position in positions:
            json.loads(json.dumps(position))
        base_ms.append((time.perf_counter() - t) * 1e3)
    assert final == states[-1], "replay did not reproduce the game"

    apply_us, base_us = [], []
    for _ in range(APPLY_PASSES):
        for before, action in zip(states, record["actions"], strict=False):
            t = time.perf_counter_ns()
            GAME.apply(before, action)
            apply_us.append((time.perf_counter_ns() - t) / 1e3)
            position = {k: v for k, v in before.items() if k != "cat"}
            t = time.perf_counter_ns()
            json.loads(json.dumps(position))
            base_us.append((time.perf_counter_ns() - t) / 1e3)

    # what the server stores per snapshot: the position only (the catalog is pinned once per
    # game, issue 9), against the whole state with its catalog part
    snapshot_bytes = [len(json.dumps(p, separators=(",", ":"))) for p in positions]
    state_bytes = [len(json.dumps(s, separators=(",", ":"))) for s in states[:-1]]
    figures = {
        "actions": n_actions,
        "snapshot_bytes_median": int(statistics.median(snapshot_bytes)),
        "snapshot_bytes_max": max(snapshot_bytes),
        "state_with_catalog_bytes_median": int(statistics.median(state_bytes)),
        "replay_ms": round(statistics.median(replay_ms), 3),
        "replay_ms_min": round(min(replay_ms), 3),
        "replay_ms_p90": round(pct(replay_ms, 90), 3),
        "replay_ms_max": round(max(replay_ms), 3),
        "replay_ms_stdev": round(statistics.stdev(replay_ms), 3),
        "baseline_positions_ms": round(statistics.median(base_ms), 3),
        "replay_to_baseline_ratio": round(statistics.median(replay_ms)
                                          / statistics.median(base_ms), 2),
        "apply_us_p50": round(pct(apply_us, 50), 1),
        "apply_us_p90": round(pct(apply_us, 90), 1),
        "apply_us_max": round(max(apply_us), 1),
        "baseline_json_roundtrip_us_p50": round(pct(base_us, 50), 1),
        "baseline_json_roundtrip_us_p90": round(pct(base_us, 90), 1),
        "apply_to_baseline_ratio_p50": round(pct(apply_us, 50) / pct(base_us, 50), 2),
        "target_replay_ms": 30,
        "target_apply_us_p50": 200,
    }
    print(f"record: 4 players, {n_actions} actions, {REPLAYS} replays, "
          f"{APPLY_PASSES} apply passes")
    print(f"replay: median {figures['replay_ms']} ms (min {figures['replay_ms_min']}, "
          f"p90 {figures['replay_ms_p90']}, max {figures['replay_ms_max']}, "
          f"stdev {figures['replay_ms_stdev']}); target <= 30")
    print(f"baseline JSON round trip of all {n_actions} positions: median "
          f"{figures['baseline_positions_ms']} ms; replay/baseline "
          f"{figures['replay_to_baseline_ratio']}")
    print(f"apply:  p50 {figures['apply_us_p50']} us, p90 {figures['apply_us_p90']} us; "
          f"target p50 <= 200")
    print(f"baseline JSON round trip of the position: p50 "
          f"{figures['baseline_json_roundtrip_us_p50']} us, p90 "
          f"{figures['baseline_json_roundtrip_us_p90']} us; apply/baseline "
          f"{figures['apply_to_baseline_ratio_p50']}")
    print(f"snapshot (position only): median {figures['snapshot_bytes_median']} bytes, max "
          f"{figures['snapshot_bytes_max']}; the state with its catalog part: median "
          f"{figures['state_with_catalog_bytes_median']} bytes")
    print(json.dumps(figures))


if __name__ == "__main__":
    main()

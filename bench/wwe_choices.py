"""World Without End's legal moves per state, as the server asks for them: CPU time of
`choices_of(state, seats + ["table"])` (time.process_time) over the states of seeded random
games (the same games as bench/engine_digest.py), median and p90 overall and per head kind.

Baseline in the same process: another copy of the repository (``--baseline DIR``, e.g. main's
copy: ``git archive main | tar -x -C ../main-x``), imported apart (its own
`engine` package in sys.modules while it runs) and timed on the same states, alternating
with this copy's, so the machine's load hits both alike. Its choices must equal this copy's
on every state (the bench stops otherwise). A Raspberry Pi 4 core is about 5x slower: the
Pi column is x5.

Usage: .venv/bin/python bench/wwe_choices.py [--baseline DIR] [--seeds 10] [--repeat 4]
JSON last line: {"states", "ms_median", "ms_p90", "play_card_ms_median", "play_card_ms_p90",
"base_ms_median", "base_ms_p90", "base_play_card_ms_median", "base_play_card_ms_p90",
"ratio_median", "ratio_p90", "pi_ms_median", "pi_ms_p90"}
"""
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[0] = str(ROOT)
import argparse  # noqa: E402
import importlib  # noqa: E402
import json  # noqa: E402
import random  # noqa: E402
import statistics  # noqa: E402
import time  # noqa: E402

from bench.engine_digest import seeded_setup  # noqa: E402
from companion.box.catalog import load_catalog  # noqa: E402
from engine.api import random_move  # noqa: E402
from engine.wwe import GAME  # noqa: E402
from engine.wwe.steps import head  # noqa: E402

PI = 5  # a Raspberry Pi 4 core against this machine's


def _engine_modules() -> dict:
    return {name: m for name, m in sys.modules.items()
            if name == "engine" or name.startswith("engine.")}


class Copy:
    """One copy of the engine: its own modules, put into sys.modules while it runs (a rule
    may import a module at call time)."""

    def __init__(self, modules: dict):
        self.modules = modules
        self.game = modules["engine.wwe"].GAME

    def __enter__(self):
        for name in _engine_modules():
            del sys.modules[name]
        sys.modules.update(self.modules)
        return self.game

    def __exit__(self, *exc):
        return False


def load_baseline(root: Path) -> Copy:
    """Import the engine of the repository copy at ``root`` apart from this one's."""
    ours = _engine_modules()
    for name in ours:
        del sys.modules[name]
    sys.path.insert(0, str(root))
    try:
        importlib.import_module("engine.wwe")
        theirs = _engine_modules()
        if not str(theirs["engine"].__file__).startswith(str(root)):
            raise SystemExit(f"the baseline's engine was not found under {root}")
    finally:
        sys.path.remove(str(root))
        for name in _engine_modules():
            del sys.modules[name]
        sys.modules.update(ours)
    return Copy(theirs)


def states(seeds: int, actions: int = 400) -> list[tuple[dict, list[str]]]:
    """Every state of ``seeds`` seeded random games, as bench/engine_digest.py plays them."""
    catalog = load_catalog("wwe")
    out = []
    for seed in range(1, seeds + 1):
        rnd = random.Random(seed)
        seats, setup = seeded_setup(GAME.info, seed, rnd)
        s = GAME.setup(catalog, setup)
        for _ in range(actions):
            out.append((s, seats))
            action = random_move(GAME, s, rnd)
            if action is None:
                break
            s, _ = GAME.apply(s, action)
    return out


def timed(game, s: dict, askers: list[str]) -> tuple[float, dict]:
    t = time.process_time()
    found = game.choices_of(s, askers)
    return (time.process_time() - t) * 1e3, found


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(len(ordered) * q))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--baseline", type=Path, default=None)
    parser.add_argument("--seeds", type=int, default=10)
    parser.add_argument("--repeat", type=int, default=4)
    args = parser.parse_args()
    ours = Copy(_engine_modules())
    base = load_baseline(args.baseline.resolve()) if args.baseline else None
    rows = []  # (kind, our ms, baseline ms or None): each the median of --repeat runs
    for s, seats in states(args.seeds):
        askers = [*seats, "table"]
        h = head(s)
        kind = h["kind"] if h and not s["over"] else "none"
        mine, theirs = [], []
        for i in range(args.repeat):
            # alternate which copy goes first (the second finds the state warm in the cache)
            for copy in ((ours, base) if i % 2 == 0 else (base, ours)):
                if copy is None:
                    continue
                with copy as game:
                    ms, found = timed(game, s, askers)
                (mine if copy is ours else theirs).append(ms)
                if copy is ours:
                    got = {a: [c.to_json() for c in cs] for a, cs in found.items()}
                else:
                    expected = {a: [c.to_json() for c in cs] for a, cs in found.items()}
            if base is not None and got != expected:
                raise SystemExit(f"choices differ from the baseline's ({kind})")
        rows.append((kind, statistics.median(mine),
                     statistics.median(theirs) if theirs else None))
    with ours:
        pass  # this copy's modules back in place

    def figures(pick) -> tuple[float, float]:
        values = [pick(r) for r in rows]
        return statistics.median(values), pct(values, 0.9)

    out = {"states": len(rows)}
    print(f"{len(rows)} states of {args.seeds} seeded games, choices_of(state, seats + table), "
          f"median of {args.repeat} runs per state, CPU ms (Pi x{PI})")
    print(f"{'head kind':18} {'states':>6} {'median':>8} {'p90':>8}"
          + (f" {'base med':>9} {'base p90':>9}" if base else ""))
    kinds = sorted({r[0] for r in rows}, key=lambda k: -sum(r[1] for r in rows if r[0] == k))
    for kind in [None, *kinds]:
        sub = [r for r in rows if kind is None or r[0] == kind]
        mine = [r[1] for r in sub]
        line = (f"{kind or 'all':18} {len(sub):6d} {statistics.median(mine):8.3f} "
                f"{pct(mine, 0.9):8.3f}")
        if base:
            theirs = [r[2] for r in sub]
            line += f" {statistics.median(theirs):9.3f} {pct(theirs, 0.9):9.3f}"
        print(line)
    out["ms_median"], out["ms_p90"] = (round(x, 4) for x in figures(lambda r: r[1]))
    play = [r for r in rows if r[0] == "play_card"]
    out["play_card_ms_median"] = round(statistics.median([r[1] for r in play]), 4)
    out["play_card_ms_p90"] = round(pct([r[1] for r in play], 0.9), 4)
    if base:
        out["base_ms_median"], out["base_ms_p90"] = (round(x, 4) for x in figures(
            lambda r: r[2]))
        out["base_play_card_ms_median"] = round(statistics.median([r[2] for r in play]), 4)
        out["base_play_card_ms_p90"] = round(pct([r[2] for r in play], 0.9), 4)
        out["ratio_median"] = round(out["ms_median"] / out["base_ms_median"], 3)
        out["ratio_p90"] = round(out["ms_p90"] / out["base_ms_p90"], 3)
        print(f"this copy / baseline: median {out['ratio_median']}, p90 {out['ratio_p90']} "
              "(the baseline's choices equal this copy's on every state)")
    out["pi_ms_median"] = round(out["ms_median"] * PI, 3)
    out["pi_ms_p90"] = round(out["ms_p90"] * PI, 3)
    print(f"Pi estimate (x{PI}): median {out['pi_ms_median']} ms, p90 {out['pi_ms_p90']} ms")
    print(json.dumps(out))


if __name__ == "__main__":
    main()

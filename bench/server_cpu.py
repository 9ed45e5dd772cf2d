"""Server work per action, in one process, for every installed game: the engine and the
SQLite commit (`GameService.act`), every recipient's view (4 seats + the table display,
`views.build`), and what goes on the wire (a patch of what changed, JSON), as CPU time
(time.process_time), over a seeded random game played by the game's own random player
(``module.random_action``, else a random allowed choice of whoever is prompted).

Beside it, in the same run and on the same states: the engine's ``apply`` alone (the
baseline the ratio is against) and the same views built without the shared per-state
values (`companion.shared.Fresh`: what every view cost before they were shared).
A Raspberry Pi 4 core is about 5x slower than this machine's: the Pi column is x5.

Usage: .venv/bin/python bench/server_cpu.py [--games wwe,pillars] [--actions 150] [--profile]
JSON last line: {"games": {"<id>": {"cpu_ms_median", "cpu_ms_p90", "bytes_per_recipient",
"apply_ms_median", "ratio_to_apply", "act_ms_median", "engine_ms_median", "engine_ms_p90",
"uncached_ms_median", "actions"}}}
(act: the engine and the SQLite commit with its fsync; the rest is views and patches; engine:
of the views' time, what the game's choices, views and prompts took, i.e. the values derived
from the state; the rest of the views' time is the app's translating, assembling and diffing)
"""
import sys
from pathlib import Path

sys.path[0] = str(Path(__file__).resolve().parents[1])
import argparse  # noqa: E402
import cProfile  # noqa: E402
import json  # noqa: E402
import pstats  # noqa: E402
import random  # noqa: E402
import statistics  # noqa: E402
import tempfile  # noqa: E402
import time  # noqa: E402

from companion import games, patches, views  # noqa: E402
from companion.app import create_app  # noqa: E402
from companion.service import Identity  # noqa: E402
from companion.shared import Fresh  # noqa: E402
from engine.api import random_move  # noqa: E402

PI = 5  # a Raspberry Pi 4 core against this machine's


def identity(live, by: str) -> Identity:
    if by in live.seats:
        return Identity("seat", live.id, by)
    return Identity("host" if by == "host" else "table", live.id)


def pct(values: list, q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(len(ordered) * q))]


# What the views ask of the engine (the values derived from a state), timed apart
ENGINE_CALLS = ("choices", "choices_of", "public_view", "private_view", "seat_view", "prompts")


def engine_clock(module, spent: list) -> dict:
    """Times ``module``'s view-side calls into ``spent[0]``; returns what to put back."""
    saved = {}
    for name in ENGINE_CALLS:
        f = getattr(module, name, None)
        if f is None:
            continue
        saved[name] = module.__dict__.get(name, _ABSENT) if hasattr(module, "__dict__") else f

        def timed(*a, _f=f, **k):
            t = time.process_time()
            try:
                return _f(*a, **k)
            finally:
                spent[0] += time.process_time() - t
        setattr(module, name, timed)
    return saved


def engine_restore(module, saved: dict) -> None:
    for name, f in saved.items():
        if f is _ABSENT:
            delattr(module, name)
        else:
            setattr(module, name, f)


_ABSENT = object()


def run(game: str, actions: int, seed: int, profile=None) -> dict:
    app = create_app({"DATA_DIR": tempfile.mkdtemp(), "TESTING": True, "HARDWARE": False})
    svc = app.extensions["companion"]
    module = games.module_of(game)
    info = module.info
    seats = [s.id for s in info.seats][:min(4, info.max_players)]
    players = [{"seat": s, "name": f"Player {s}"} for s in seats]
    live = svc.create(game, {"players": players, "seed": seed}, "1234")
    rnd = random.Random(seed)
    keys = [("seat", s) for s in seats] + [("table", None)]
    cpu, act, base, fresh, sizes, engine = [], [], [], [], [], []
    prev = None
    spent = [0.0]
    saved = engine_clock(module, spent)
    with app.test_request_context():
        for r, s in keys:  # translations loaded, as in a running server
            views.build(live, r, s, "en")
        for _ in range(actions):
            action = random_move(module, live.state, rnd)
            if action is None:
                break
            t = time.process_time()
            module.apply(live.state, action)  # the baseline: the rules alone
            base.append((time.process_time() - t) * 1000)
            if profile:
                profile.enable()
            t = time.process_time()
            svc.act(identity(live, action.get("by", "")), action)
            acted = time.process_time()
            spent[0] = 0.0
            built = [views.build(live, r, s, "en") for r, s in keys]
            engine.append(spent[0] * 1000)
            memo: dict = {}
            msgs = ([patches.diff(p, b, memo=memo) for p, b in zip(prev, built, strict=True)]
                    if prev else built)
            data = [json.dumps(m) for m in msgs]  # what goes on the wire
            cpu.append((time.process_time() - t) * 1000)
            act.append((acted - t) * 1000)
            if profile:
                profile.disable()
            t = time.process_time()
            unshared = Fresh(live)
            for r, s in keys:
                views.build(live, r, s, "en", shared=unshared)
            fresh.append((time.process_time() - t) * 1000)
            sizes.append(statistics.median(len(d) for d in data))
            prev = built
    engine_restore(module, saved)
    return {"cpu_ms_median": round(statistics.median(cpu), 3),
            "cpu_ms_p10": round(pct(cpu, .1), 3),
            "cpu_ms_p90": round(pct(cpu, .9), 3),
            "bytes_per_recipient": int(statistics.median(sizes)),
            "apply_ms_median": round(statistics.median(base), 3),
            "ratio_to_apply": round(statistics.median(cpu) / max(statistics.median(base),
                                                                   1e-6), 1),
            "uncached_ms_median": round(statistics.median(fresh), 3),
            "act_ms_median": round(statistics.median(act), 3),
            "engine_ms_median": round(statistics.median(engine), 3),
            "engine_ms_p90": round(pct(engine, .9), 3),
            "actions": len(cpu)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", default=",".join(games.known()))
    parser.add_argument("--actions", type=int, default=150)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--sort", default="cumulative", help="the profile's order")
    parser.add_argument("--profile", action="store_true",
                        help="print where the measured time goes (cProfile), per game")
    args = parser.parse_args()
    out = {}
    print(f"{'game':14} {'median ms':>10} {'p10-p90 ms':>13} {'Pi x5 med/p90':>14} "
          f"{'apply ms':>9} {'ratio':>6} {'act ms':>7} {'engine med/p90':>15} "
          f"{'unshared views ms':>18} {'bytes/recip':>11}")
    for game in args.games.split(","):
        profile = cProfile.Profile(time.process_time) if args.profile else None
        r = out[game] = run(game, args.actions, args.seed, profile)
        if profile:
            pstats.Stats(profile).sort_stats(args.sort).print_stats(30)
        print(f"{game:14} {r['cpu_ms_median']:10.2f} "
              f"{r['cpu_ms_p10']:6.2f}-{r['cpu_ms_p90']:<6.2f} "
              f"{r['cpu_ms_median'] * PI:6.1f}/{r['cpu_ms_p90'] * PI:<7.1f} "
              f"{r['apply_ms_median']:9.3f} {r['ratio_to_apply']:6.1f} {r['act_ms_median']:7.3f} "
              f"{r['engine_ms_median']:7.3f}/{r['engine_ms_p90']:<7.3f} "
              f"{r['uncached_ms_median']:18.2f} {r['bytes_per_recipient']:11d}")
    print(json.dumps({"games": out}))


if __name__ == "__main__":
    main()

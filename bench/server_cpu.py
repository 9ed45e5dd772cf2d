"""Server work per action, in one process, for every installed game: the engine and the
SQLite commit (`GameService.act`), every recipient's view (4 seats + the table display,
`views.build`), and what goes on the wire (a patch of what changed, as the Socket.IO packet
the server emits: companion/server/json_codec.py's JSON), as CPU time (time.process_time), over
a seeded random game played by the game's own random player (``module.random_action``, else a random
allowed choice of whoever is prompted).

The measured pass does only what a server does, action after action: the actions are chosen
before it (on the engine alone) and the baselines are timed after it, in a second app over
the same actions and states, so their work (the unshared views make and drop ~3 ms of objects
each) never pollutes the caches, allocator and garbage collector of the measured pass. The
baselines: the engine's ``apply`` alone (the ratio is against it) and the same views built
without the shared per-state values (`companion.game.shared.Fresh`: what every view cost before
they were shared). A Raspberry Pi 4 core is about 5x slower than this machine's: the Pi
column is x5. bytes_per_recipient: the median over actions of the median recipient's packet,
UTF-8 bytes as the WebSocket frame carries them (0 for a recipient sent nothing).

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
import gc  # noqa: E402
import json  # noqa: E402
import pstats  # noqa: E402
import random  # noqa: E402
import statistics  # noqa: E402
import tempfile  # noqa: E402
import time  # noqa: E402

from socketio.packet import EVENT  # noqa: E402

from companion import context  # noqa: E402
from companion.app import create_app  # noqa: E402
from companion.game import games, patches, views  # noqa: E402
from companion.game.sender import PATCH_OPS  # noqa: E402
from companion.game.service import Identity  # noqa: E402
from companion.game.shared import Fresh  # noqa: E402
from companion.server.packet import JsonPacket  # noqa: E402
from engine.api import random_move  # noqa: E402

PI = 5  # a Raspberry Pi 4 core against this machine's


def identity(live, by: str) -> Identity:
    if by in live.seats:
        return Identity("seat", live.id, by)
    return Identity("host" if by == "host" else "table", live.id)


def messages(prev: list | None, built: list, n: int) -> list:
    """What the sender (companion/game/sender.py) sends each recipient: its whole view
    first, then a patch of what changed (nothing when nothing did, the whole view again when
    much did)."""
    if prev is None:
        return [("view", dict(b, n=n)) for b in built]
    memo: dict = {}  # the shared parts of the views, compared once
    out = []
    for p, b in zip(prev, built, strict=True):
        ops = patches.diff(p, b, memo=memo)
        if ops:
            out.append(("patch", {"base": n - 1, "n": n, "ops": ops}) if len(ops) <= PATCH_OPS
                       else ("view", dict(b, n=n)))
    return out


def packet(message: tuple) -> str:
    """The Socket.IO packet the server emits for ``message`` (json_codec's JSON)."""
    return JsonPacket(EVENT, data=list(message), namespace="/").encode()


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
    """The game played three times over the same seeded actions, in one process: first the
    actions are chosen (the engine alone, untimed); then the measured pass does only what the
    server does for each (act, views, patches, packets); then, in a second app, the baselines
    (``apply`` alone, the unshared views) on the same states, so their garbage and cache misses
    never land in the measured pass."""
    module = games.module_of(game)
    info = module.info
    seats = [s.id for s in info.seats][:min(4, info.max_players)]
    players = [{"seat": s, "name": f"Player {s}"} for s in seats]
    keys = [("seat", s) for s in seats] + [("table", None)]

    def table():
        app = create_app({"DATA_DIR": tempfile.mkdtemp(), "TESTING": True, "HARDWARE": False})
        svc = context.of(app).service
        return app, svc, svc.create(game, {"players": players, "seed": seed}, "1234")

    app, svc, live = table()
    rnd = random.Random(seed)
    played, state = [], live.state  # the actions, chosen on the engine alone (apply is pure)
    while len(played) < actions:
        action = random_move(module, state, rnd)
        if action is None:
            break
        played.append(action)
        state, _ = module.apply(state, action)
    cpu, act, base, fresh, sizes, engine = [], [], [], [], [], []
    prev, n = None, 0
    spent = [0.0]
    gc.collect()
    saved = engine_clock(module, spent)
    with app.test_request_context():
        for r, s in keys:  # translations loaded, as in a running server
            views.build(live, r, s, "en")
        for action in played:  # the measured pass: what the server does, and only that
            if profile:
                profile.enable()
            t = time.process_time()
            svc.act(identity(live, action.get("by", "")), action)
            acted = time.process_time()
            spent[0] = 0.0
            built = [views.build(live, r, s, "en") for r, s in keys]
            engine.append(spent[0] * 1000)
            data = [packet(m) for m in messages(prev, built, n)]  # what goes on the wire
            cpu.append((time.process_time() - t) * 1000)
            act.append((acted - t) * 1000)
            if profile:
                profile.disable()
            sent = [len(d.encode()) + 1 for d in data]  # UTF-8, with Engine.IO's type
            sizes.append(statistics.median(sent + [0] * (len(keys) - len(sent))))
            prev, n = built, n + 1
    engine_restore(module, saved)
    if live.state != state:
        raise SystemExit(f"{game}: the measured pass did not play the chosen game")
    app, svc, live = table()  # the baselines, on the same states
    rnd = random.Random(seed)
    gc.collect()
    with app.test_request_context():
        for r, s in keys:
            views.build(live, r, s, "en")
        for action in played:
            # chosen again as in the first pass (the same action): apply is timed, as it
            # always was, on a state the engine has just read
            if random_move(module, live.state, rnd) != action:
                raise SystemExit(f"{game}: the baselines' pass did not play the chosen game")
            t = time.process_time()
            module.apply(live.state, action)  # the baseline: the rules alone
            base.append((time.process_time() - t) * 1000)
            svc.act(identity(live, action.get("by", "")), action)
            t = time.process_time()
            unshared = Fresh(live)
            for r, s in keys:
                views.build(live, r, s, "en", shared=unshared)
            fresh.append((time.process_time() - t) * 1000)
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

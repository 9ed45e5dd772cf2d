"""A digest of everything each installed game's engine says over seeded random games: the
events of every action, and after every action the prompts, every seat's and the table's
choices, the public view, every seat's view and private view.

A speed change in an engine must not change what it says: run this before and after (the
same arguments) and compare the digests. Each game plays ``--seeds`` games with its options
drawn at random (the seed decides), by its own random player (`engine.api.random_move`).
Also prints the CPU time the outputs took (time.process_time), per game.

Usage: .venv/bin/python bench/engine_digest.py [--games wwe,pillars] [--seeds 10] [--actions 400]
JSON last line: {"games": {"<id>": {"digest", "states", "cpu_s"}}}
"""
import sys
from pathlib import Path

sys.path[0] = str(Path(__file__).resolve().parents[1])
import argparse  # noqa: E402
import hashlib  # noqa: E402
import json  # noqa: E402
import random  # noqa: E402
import time  # noqa: E402

from companion.box.catalog import load_catalog  # noqa: E402
from companion.game import games  # noqa: E402
from engine.api import random_move  # noqa: E402


def outputs(module, state, seats: list[str]) -> list:
    """What the app asks of one state (the same calls as companion/game/views.py)."""
    out = [[p.to_json() for p in module.prompts(state)],
           module.public_view(state)]
    private = getattr(module, "private_view", None)
    for seat in [*seats, "table"]:
        out.append([c.to_json() for c in module.choices(state, seat)])
        if seat != "table":
            out.append(module.seat_view(state, seat))
            if private is not None:
                out.append(private(state, seat))
    return out


def seeded_setup(info, seed: int, rnd: random.Random) -> tuple[list[str], dict]:
    """The seats and the setup of seeded game ``seed``: its player count and options drawn
    from ``rnd`` (bench/wwe_choices.py plays the same games)."""
    count = rnd.choice(range(max(2, info.min_players), min(4, info.max_players) + 1))
    seats = [s.id for s in info.seats][:count]
    options = {o.id: rnd.choice(o.choices) for o in info.options}
    return seats, {"players": [{"seat": s, "name": f"Player {s}"} for s in seats],
                   "seed": seed, "options": options}


def play(game: str, seed: int, actions: int, h) -> tuple[int, float]:
    module = games.module_of(game)
    rnd = random.Random(seed)
    seats, setup = seeded_setup(module.info, seed, rnd)
    state = module.setup(load_catalog(game), setup)
    cpu = 0.0
    states = 0
    for _ in range(actions):
        t = time.process_time()
        said = outputs(module, state, seats)
        cpu += time.process_time() - t
        h.update(json.dumps(said, sort_keys=True, default=repr).encode())
        states += 1
        action = random_move(module, state, rnd)
        if action is None:
            break
        state, events = module.apply(state, action)
        h.update(json.dumps([action, events], sort_keys=True, default=repr).encode())
    return states, cpu


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", default=",".join(games.known()))
    parser.add_argument("--seeds", type=int, default=10)
    parser.add_argument("--actions", type=int, default=400)
    args = parser.parse_args()
    out = {}
    for game in args.games.split(","):
        h = hashlib.sha256()
        states, cpu = 0, 0.0
        for seed in range(1, args.seeds + 1):
            n, c = play(game, seed, args.actions, h)
            states += n
            cpu += c
        out[game] = {"digest": h.hexdigest()[:16], "states": states, "cpu_s": round(cpu, 2)}
        print(f"{game:14} {out[game]['digest']}  {states:5d} states  outputs {cpu:6.2f} s CPU "
              f"({cpu * 1000 / max(states, 1):.2f} ms/state)", flush=True)
    print(json.dumps({"games": out}))


if __name__ == "__main__":
    main()

"""What each action puts on the wire, by part of the view, for every installed game: which
keys of the patches weigh most (to find what is sent although it did not change).

Plays the same seeded random game as bench/server_cpu.py (4 seats + the table display, in
one language), diffs each recipient's view against its previous one as the server does
(`companion.game.patches.diff`) and, for the median recipient of each action (the figure
`bytes_per_recipient` of server_cpu.py), splits its patch's JSON bytes by the first two
keys of each operation's path. Beside it: the `rules` message (every rule once per socket
and language) and a whole view (what a phone gets when it connects). Bytes, not time: the
figures are deterministic, one run is enough.

Usage: .venv/bin/python bench/patch_bytes.py [--games wwe,pillars] [--lang pl] [--top 10]
JSON last line: {"games": {"<id>": {"bytes_per_recipient", "by_key": {"log": n, ...},
"rules_bytes", "whole_view_bytes"}}} (by_key: mean bytes per action of the median recipient)
"""
import sys
from pathlib import Path

sys.path[0] = str(Path(__file__).resolve().parents[1])
import argparse  # noqa: E402
import collections  # noqa: E402
import json  # noqa: E402
import random  # noqa: E402
import statistics  # noqa: E402
import tempfile  # noqa: E402

from bench.server_cpu import identity  # noqa: E402
from companion import context  # noqa: E402
from companion.app import create_app  # noqa: E402
from companion.game import games, patches, views  # noqa: E402
from companion.table import citations  # noqa: E402
from engine.api import random_move  # noqa: E402


def key_of(path: list, depth: int) -> str:
    return "/".join(str(p) for p in path[:depth]) or "<whole>"


def run(game: str, actions: int, seed: int, lang: str) -> dict:
    app = create_app({"DATA_DIR": tempfile.mkdtemp(), "TESTING": True, "HARDWARE": False})
    svc = context.of(app).service
    module = games.module_of(game)
    seats = [s.id for s in module.info.seats][:min(4, module.info.max_players)]
    live = svc.create(game, {"players": [{"seat": s, "name": f"Player {s}"} for s in seats],
                             "seed": seed}, "1234")
    rnd = random.Random(seed)
    keys = [("seat", s) for s in seats] + [("table", None)]
    sizes, top, deep = [], collections.Counter(), collections.Counter()
    prev = None
    with app.test_request_context():
        for _ in range(actions):
            action = random_move(module, live.state, rnd)
            if action is None:
                break
            svc.act(identity(live, action.get("by", "")), action)
            built = [views.build(live, r, s, lang) for r, s in keys]
            if prev:
                rows = sorted(((len(json.dumps(ops)), ops) for ops in (
                    patches.diff(p, b) for p, b in zip(prev, built, strict=True))),
                              key=lambda row: row[0])
                size, ops = rows[len(rows) // 2]
                sizes.append(size)
                for op in ops:
                    top[key_of(op[1], 1)] += len(json.dumps(op))
                    deep[key_of(op[1], 2)] += len(json.dumps(op))
            prev = built
        whole = len(json.dumps(views.build(live, "seat", seats[0], lang)))
        book = len(json.dumps(citations.book(live.kind, lang)))
    n = max(len(sizes), 1)
    return {"bytes_per_recipient": int(statistics.median(sizes)) if sizes else 0,
            "by_key": {k: v // n for k, v in top.most_common()},
            "by_key2": {k: v // n for k, v in deep.most_common()},
            "rules_bytes": book,
            "whole_view_bytes": whole, "actions": len(sizes)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", default=",".join(games.known()))
    parser.add_argument("--actions", type=int, default=150)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--lang", default="en")
    parser.add_argument("--top", type=int, default=10)
    args = parser.parse_args()
    out = {}
    for game in args.games.split(","):
        r = run(game, args.actions, args.seed, args.lang)
        print(f"{game} ({args.lang}): {r['bytes_per_recipient']:,} bytes per recipient per "
              f"action (median); once per socket: rules {r['rules_bytes']:,}, whole view "
              f"{r['whole_view_bytes']:,}")
        for k, v in list(r.pop("by_key2").items())[:args.top]:
            print(f"  {k:32} {v:6,}")
        out[game] = r
    print(json.dumps({"games": out}))


if __name__ == "__main__":
    main()

"""Record the golden games with the code of an earlier commit (issue 48).

Run from a checkout of that commit, this file copied beside it::

    git worktree add /tmp/old <commit>
    PYTHONPATH=/tmp/old .venv/bin/python tests/golden/record_games.py /tmp/old OUT

It plays each game through that commit's own GameService on a real SQLite file
(``OUT/companion.sqlite3.gz``: corrections, undo, snapshots every 100 actions) and writes one
``OUT/<name>.json`` per game: the record the app exported then, the commit, and the state,
public view and scores it reached then. tests/golden/test_golden.py replays them on today's
code. Nothing here is imported by the tests.
"""
from __future__ import annotations

import gzip
import json
import random
import shutil
import sqlite3
import subprocess
import sys
from pathlib import Path

CORRECTED = {"wwe": "vp", "pillars": "vp", "monasterium": "prestige"}
# name: game, seats, form's start seat (None: none given), seed, actions (None: to the end)
CASES = [
    ("monasterium-3-S-40", "monasterium", "NES", "S", 7, 40),
    ("monasterium-2", "monasterium", "NS", None, 11, 60),
    ("monasterium-4-E-end", "monasterium", "NESW", "E", 5, None),
    ("pillars-2-S", "pillars", "NS", "S", 3, 80),
    ("pillars-4-end", "pillars", "NESW", "W", 9, None),
    ("wwe-2", "wwe", "NS", None, 4, 70),
    ("wwe-4-end", "wwe", "NESW", "E", 8, None),
]


def play(service, identity_of, game_id, module, rnd, count):
    """Random legal actions (the game's own ``random_action``), a host correction every
    17th action and an undo every 23rd; ``count`` None plays to the end."""
    from engine.api import Refused

    done = 0
    while count is None or done < count:
        live = service.get(game_id)
        if module.is_over(live.state):
            break
        action = module.random_action(live.state, rnd)
        if action is None:
            break
        done += 1
        if done % 17 == 0:
            seat = rnd.choice(live.seats)
            service.act(identity_of("host"), {"type": "adjust", "seat": seat,
                                              "item": CORRECTED[live.kind.name], "delta": 1,
                                              "reason": "miscounted"})
        try:
            service.act(identity_of(action["by"]), action)
        except Refused as exc:  # a random action the service refuses: left out, as at a table
            print("refused", exc, file=sys.stderr)
            continue
        if done % 23 == 0:
            service.undo(game_id, 1)


def main(old: Path, out: Path) -> None:
    try:  # the package layout of the commit (companion/ was split into subpackages)
        from companion.box.catalog import load_kind
        from companion.game.service import GameService, Identity
        from companion.game.store import Store
    except ImportError:
        from companion.catalog import load_kind
        from companion.service import GameService, Identity
        from companion.store import Store

    commit = subprocess.run(["git", "-C", str(old), "rev-parse", "HEAD"], capture_output=True,
                            text=True, check=True).stdout.strip()
    out.mkdir(parents=True, exist_ok=True)
    service = GameService(Store(out / "companion.sqlite3"), lambda n: load_kind(n, None),
                          snapshot_every=100)
    for name, game, seats, start, seed, count in CASES:
        setup = {"players": [{"seat": s, "name": f"P{s}"} for s in seats], "seed": seed,
                 "options": {}}
        if start:
            setup["start_seat"] = start
        live = service.create(game, setup, "1234")
        gid = live.id

        def identity_of(by, gid=gid):
            return Identity(by, gid) if by in ("host", "table") else Identity("seat", gid, by)

        play(service, identity_of, gid, live.kind.module, random.Random(seed), count)
        live = service.get(gid)
        module = live.kind.module
        state = {k: v for k, v in live.state.items() if k != "cat"}
        golden = {"commit": commit, "game_id": gid, "record": service.record(gid),
                  "state": state,
                  "scores": module.scores(live.state), "over": module.is_over(live.state)}
        (out / f"{name}.json").write_text(json.dumps(golden, indent=1, sort_keys=True) + "\n")
        print(name, gid, len(golden["record"]["actions"]), "actions, over:", golden["over"])
    service.store.close()
    db = sqlite3.connect(out / "companion.sqlite3")
    db.execute("VACUUM")
    db.close()
    with open(out / "companion.sqlite3", "rb") as raw, \
            gzip.GzipFile(out / "companion.sqlite3.gz", "wb", mtime=0) as packed:
        shutil.copyfileobj(raw, packed)
    (out / "companion.sqlite3").unlink()


if __name__ == "__main__":
    main(Path(sys.argv[1]), Path(sys.argv[2]))

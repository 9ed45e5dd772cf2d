"""Server work per action, in one process (so other load on the machine hardly moves it):
act (engine + SQLite commit), every recipient's view (4 seats + the table display) and what
goes on the wire (a patch of what changed, JSON), as CPU time (time.process_time), over a
seeded random 4-player World Without End game. Prints one JSON line.
Usage: .venv/bin/python bench/server_cpu.py"""
import sys
from pathlib import Path

sys.path[0] = str(Path(__file__).resolve().parents[1])
import json  # noqa: E402
import random  # noqa: E402
import statistics  # noqa: E402
import tempfile  # noqa: E402
import time  # noqa: E402

from companion import patches, views  # noqa: E402
from companion.app import create_app  # noqa: E402
from companion.service import Identity  # noqa: E402
from engine.wwe import GAME  # noqa: E402

app = create_app({"DATA_DIR": tempfile.mkdtemp(), "TESTING": True})
svc = app.extensions["companion"]
live = svc.create("wwe", {"players": [{"seat": s, "name": s} for s in "NESW"], "seed": 1}, "1234")
rnd = random.Random(1)
keys = [("seat", s) for s in "NESW"] + [("table", None)]
cpu, sizes = [], []
prev = None
with app.test_request_context():
    for _i in range(150):
        a = GAME.random_action(live.state, rnd)
        if a is None:
            break
        seat = a["by"] in "NESW"
        who = Identity("seat", live.id, a["by"]) if seat else Identity("table", live.id)
        t = time.process_time()
        svc.act(who, a)
        built = [views.build(live, r, s, "en") for r, s in keys]
        msgs = [patches.diff(p, b) for p, b in zip(prev, built, strict=False)] if prev else built
        data = [json.dumps(m) for m in msgs]  # what goes on the wire
        cpu.append((time.process_time() - t) * 1000)
        sizes.append(statistics.median(len(d) for d in data))
        prev = built
print(json.dumps({"cpu_ms_per_action_median": round(statistics.median(cpu), 2),
                  "cpu_ms_p90": round(sorted(cpu)[int(len(cpu) * .9)], 2),
                  "bytes_per_recipient_median": int(statistics.median(sizes)),
                  "actions": len(cpu)}))

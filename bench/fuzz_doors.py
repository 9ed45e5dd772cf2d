"""Fuzzed socket messages against every game (issue 21): how many tracebacks does the server log?

The app runs in this process behind a real werkzeug server on a free port; real Socket.IO
clients (four seats, the paired table display, the host) send ``--messages`` messages per game:
legal actions of the running game with one field replaced by junk (tests/companion/fuzz.py),
the same as previews, host ops with junk fields, and messages that are not objects at all. The
game moves on by a legal move every few messages, and a new game starts when one ends. Every
log record carrying a traceback is counted, and every `internal_error` answer.

Prints per game the answers by code, then ONE last line: a JSON object (per game: messages,
tracebacks, internal_errors, accepted, refused; tracebacks_total; target 0).
Usage: .venv/bin/python bench/fuzz_doors.py [--messages 10000] [--games wwe pillars monasterium]
"""
from __future__ import annotations

import argparse
import collections
import json
import logging
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from companion.app import create_app  # noqa: E402
from tests.companion.conftest import LiveServer, Spy  # noqa: E402
from tests.companion.fuzz import JUNK, advance, legal_actions, mutate  # noqa: E402

SEATS = ("N", "E", "S", "W")


class Tracebacks(logging.Handler):
    """Counts the log records that carry a traceback, from any logger and thread."""

    def __init__(self) -> None:
        super().__init__(logging.DEBUG)
        self.records: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        if record.exc_info or "Traceback" in record.getMessage():
            self.records.append(f"{record.name}: {record.getMessage()[:200]}")


def new_table(service, server, name: str) -> tuple:
    live = service.create(name, {"players": [{"seat": s, "name": s} for s in SEATS]}, "2468")
    codes = service.store.join_codes(live.id)
    spies = {seat: Spy(server.url, {"role": "seat", "game": live.id,
                                    "token": service.claim_seat(live.id, seat, codes[seat])})
             for seat in SEATS}
    spies["table"] = Spy(server.url, {"role": "table", "game": live.id,
                                      "table_token": service.new_table_token(live.id)})
    spies["host"] = Spy(server.url, {"role": "host", "game": live.id,
                                     "host_token": service.new_host_token(live.id)})
    return live, spies


def host_junk(rnd: random.Random) -> dict:
    message = {"op": rnd.choice(["undo", "adjust", "new_join_code", "correct",
                                 "correct_preview", "pause", "resume", "launch", 7])}
    for key in rnd.sample(["count", "seat", "item", "delta", "reason", "action", "x"],
                          rnd.randrange(1, 4)):
        message[key] = rnd.choice(JUNK)
    return message


def fuzz(service, server, name: str, messages: int, rnd: random.Random) -> dict:
    live, spies = new_table(service, server, name)
    codes: collections.Counter = collections.Counter()
    cpu: list[float] = []
    sent = 0
    try:
        while sent < messages:
            if sent % 8 == 0 and not advance(service, live, rnd):
                for spy in spies.values():
                    spy.close()
                live, spies = new_table(service, server, name)
            actions = legal_actions(live.kind.module, live.state, rnd)
            roll = rnd.random()
            before = live.version
            start = time.process_time()
            if roll < 0.7 and actions:
                action = mutate(rnd.choice(actions), rnd)
                sender = spies.get(action["by"], spies["host"])
                ack = sender.call("act", {"action": action})
            elif roll < 0.8 and actions:
                action = mutate(rnd.choice(actions), rnd)
                ack = spies.get(action["by"], spies["N"]).call("preview", {"action": action})
            elif roll < 0.95:
                ack = spies["host"].call("host", host_junk(rnd))
                if ack.get("ok") and live.status == "paused":
                    spies["host"].call("host", {"op": "resume"})
            else:
                event = rnd.choice(["act", "preview", "host", "set_lang", "resync"])
                ack = spies[rnd.choice(list(spies))].call(event, rnd.choice(JUNK))
            cpu.append(time.process_time() - start)
            sent += 1
            code = "ok" if ack.get("ok") else ack.get("code", "?")
            codes[code] += 1
            if code != "ok" and live.version != before:
                codes["changed_on_refusal"] += 1
    finally:
        for spy in spies.values():
            spy.close()
    return {"codes": codes, "cpu_ms": [c * 1000 for c in cpu]}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--messages", type=int, default=10_000)
    parser.add_argument("--games", nargs="+", default=["wwe", "pillars", "monasterium"])
    parser.add_argument("--seed", type=int, default=21)
    args = parser.parse_args()
    catcher = Tracebacks()
    logging.getLogger().addHandler(catcher)
    logging.getLogger().setLevel(logging.WARNING)
    out: dict = {}
    with tempfile.TemporaryDirectory() as tmp:
        app = create_app({"DATA_DIR": str(Path(tmp) / "data"), "TESTING": True})
        server = LiveServer(app)
        service = app.extensions["companion"]
        try:
            for name in args.games:
                seen = len(catcher.records)
                result = fuzz(service, server, name, args.messages, random.Random(args.seed))
                codes, cpu = result["codes"], result["cpu_ms"]
                tracebacks = len(catcher.records) - seen
                print(f"{name}: {args.messages} messages, {tracebacks} tracebacks, "
                      f"{codes['internal_error']} internal errors, {codes['ok']} accepted")
                print("  answers: " + ", ".join(f"{c} {n}" for c, n in codes.most_common()))
                print(f"  client CPU per message: median {statistics.median(cpu):.2f} ms, "
                      f"p90 {statistics.quantiles(cpu, n=10)[-1]:.2f} ms")
                for record in catcher.records[seen:seen + 5]:
                    print("  traceback:", record)
                out[name] = {"messages": args.messages, "tracebacks": tracebacks,
                             "internal_errors": codes["internal_error"],
                             "accepted": codes["ok"],
                             "refused": args.messages - codes["ok"],
                             "bad_action": codes["bad_action"],
                             "changed_on_refusal": codes["changed_on_refusal"]}
        finally:
            server.stop()
            service.store.close()
    print(json.dumps({"fuzz": out, "tracebacks_total": sum(g["tracebacks"] for g in out.values()),
                      "target_tracebacks": 0}))


if __name__ == "__main__":
    main()

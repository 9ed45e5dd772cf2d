"""Fuzzed socket messages, host forms and exports against every game (issues 21, 45): how many
tracebacks does the server log?

The app runs in this process behind a real werkzeug server on a free port; real Socket.IO
clients (four seats, the paired table display, the host) send ``--messages`` messages per game:
legal actions of the running game with one field replaced by junk (tests/companion/fuzz.py),
the same as previews, host ops with junk fields, and messages that are not objects at all. The
game moves on by a legal move every few messages, and a new game starts when one ends.

Then ``--requests`` HTTP requests (a real HTTP client holding the host's cookie and the
session's CSRF token) to the host's forms and the exports (issue 45): the dice tray, the
camera's switch, the dice roles, the login, the new-game form, the guided setup, the deck's
check, save and import, a taught die's face, a card's face (taken, uploaded, forgotten), the
host PIN, the pairing, a camera's unknown card, a record import, each with numbers that are
not numbers (``nan``, ``inf``, ``1e309``, 5,000 digits, negative ones; in JSON bodies
``NaN``, ``Infinity`` and the like) or plain junk; and the CSV, BG Stats and record exports
of finished games, a die picture with a face of hundreds of digits. Every answer's status is
counted (a 5xx is an internal error, but the translated 503 "no camera runs").

And config.json, the door an owner edits by hand: every 50th request writes one whose camera
section (tray, zones, markers, calibration) holds such numbers (as numbers, as text, as
``NaN`` literals), then reads it as the server and `companion doctor` do (the settings, the
recogniser the camera starts with, the dice tray) and asks the camera pages.

Every log record carrying a traceback is counted, and every `internal_error` answer.
Prints per game the answers by code, then ONE last line: a JSON object (per game: messages,
tracebacks, internal_errors, accepted, refused; ``forms``: requests, statuses, server_errors (5xx
but 503), tracebacks, config_files; tracebacks_total; target 0).
Usage: .venv/bin/python bench/fuzz_doors.py [--messages 10000] [--requests 3000]
       [--games wwe pillars monasterium]
"""
from __future__ import annotations

import argparse
import collections
import io
import json
import logging
import random
import re
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from companion import context
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
                                    "token": service.access.claim_seat(live.id, seat, codes[seat])})
             for seat in SEATS}
    spies["table"] = Spy(server.url, {"role": "table", "game": live.id,
                                      "table_token": service.access.new_table_token(live.id)})
    spies["host"] = Spy(server.url, {"role": "host", "game": live.id,
                                     "host_token": service.access.new_host_token(live.id)})
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


# numbers that are not numbers, as a form field holds them (issue 45)
NUMBERS = ("nan", "NaN", "-nan", "inf", "-inf", "Infinity", "-Infinity", "1e309", "-1e309",
           "9" * 5000, "-" + "9" * 5000, "1" * 300, "-1", "-0", "-0.0", "-1e-400", "-999999",
           "0x10", "1_000", "\u0661\u0662", "", " ", "3", "12.5", "60,5", "1e3")
# the same in a JSON body (raw JSON text: Python's json module reads NaN and 1e309)
JSON_NUMBERS = ("NaN", "Infinity", "-Infinity", "1e309", "-1e309", "9" * 5000, "-1", "-0",
                "1e-400", "1" * 40, "3.5", "3", '"3"', "null", "[]")


def raw_json(template: str, *numbers: str) -> dict:
    """A JSON body (requests' keyword args) with each ``@`` of ``template`` replaced by one of
    ``numbers`` as raw JSON text (NaN, 1e309: what a JSON encoder would never write)."""
    for value in numbers:
        template = template.replace("@", value, 1)
    return {"data": template, "headers": {"Content-Type": "application/json"}}


def number(rnd: random.Random) -> str:
    return rnd.choice(NUMBERS)


def form_requests(game: str, done: str, rnd: random.Random) -> tuple[str, str, dict]:
    """One request to a host's form or an export: (method, path, requests' keyword args);
    the CSRF token is added by the caller."""
    num, jnum = number(rnd), rnd.choice(JSON_NUMBERS)
    junk = rnd.choice([num, json.dumps(rnd.choice(JUNK), default=str)[:300]])
    host = f"/host/{game}"
    choices = [
        ("POST", f"{host}/camera/tray", {"data": {k: rnd.choice([num, number(rnd), "10"])
                                                  for k in ("x0", "y0", "x1", "y1")}}),
        ("POST", f"{host}/camera/acting", {"data": {"on": junk}}),
        ("POST", f"{host}/camera/calibrate", {"data": {"marker_mm": num}}),
        ("POST", f"{host}/dice/roles", {"data": {"die": [num, "tax"], "role": ["tax", junk]}}),
        ("POST", f"{host}/login", {"data": {"pin": num}}),
        ("POST", "/games", {"data": {"game": rnd.choice(["wwe", "pillars", "monasterium"]),
                                     "host_pin": num, "name_N": "Ann", "name_E": junk,
                                     "option_" + rnd.choice(["variant", "seed", "x"]): num,
                                     "start_seat": rnd.choice(["N", "random", num])}}),
        ("POST", f"/games/{game}/setup", raw_json('{"op": "goto", "step": @}', jnum)),
        ("POST", f"{host}/deck/" + rnd.choice(["check", "save"]) + "?game=pillars",
         raw_json('{"part": "board", "entry": {"start_gold": @, "start_vp": @}}', jnum,
                  rnd.choice(JSON_NUMBERS))),
        ("POST", f"{host}/deck/import?game=pillars",
         raw_json('{"game": "pillars", "files": {"board.json": {"start_gold": @}}}', jnum)),
        ("POST", f"{host}/deck/die_face" + rnd.choice(["", "/forget"]),
         raw_json('{"role": "tax", "face": @, "game": "wwe"}', jnum)),
        ("GET", f"{host}/history/{rnd.choice([done, num[:80], 'x'])}"
         + rnd.choice([".csv", ".bgsplay", "/record.json"]), {}),
        ("GET", f"{host}/deck/die/wwe/tax/{rnd.choice([num, '3', '1' * 300])}.png", {}),
        ("GET", f"{host}/history?lang={num[:40]}", {}),
        ("GET", f"/games/{game}/setup.json?lang={num[:40]}", {}),
        ("POST", f"{host}/pin", {"data": {"pin": num}}),
        ("POST", f"{host}/pin", raw_json('{"pin": @}', jnum)),
        ("POST", f"{host}/pair-here", {"data": {"x": junk}}),
        ("POST", f"{host}/deck/card_face" + rnd.choice(["", "/forget"]) + "?game=pillars",
         raw_json('{"entry": @}', jnum)),
        ("POST", f"{host}/deck/card_face/upload?game=pillars&entry={num[:80]}",
         {"data": num.encode()[:2000], "headers": {"Content-Type": "image/png"}}),
        ("POST", f"{host}/deck/photo?game=pillars", raw_json('{"entry": @}', jnum)),
        ("POST", f"/games/{game}/camera/unknown", raw_json('{"zone": @, "card": "x"}', jnum)),
        ("GET", f"{host}/deck/face/pillars/{num[:80] or 'x'}.png", {}),
        ("GET", f"/games/{game}/record.json", {}),
    ]
    return rnd.choice(choices)


def a_config(rnd: random.Random) -> str:
    """config.json text whose camera section holds numbers that are not board numbers."""
    def junk() -> str:  # mostly valid JSON (the file is read), now and then not (it is not)
        if rnd.random() < 0.05:
            return rnd.choice(JSON_NUMBERS)
        return rnd.choice([*(json.dumps(n) for n in NUMBERS), "true", "null", "[]", "-1",
                           "1e308", "-1e308", "20000", "3.5", "60"])

    def rect() -> str:
        return f'{{"x0": {junk()}, "y0": 0, "x1": {junk()}, "y1": 100}}'

    parts = {
        "tray": rect(),
        "zones": f'{{"council": {rect()}, "pile": [[0, 0], [{junk()}, 0], [5, {junk()}]]}}',
        "markers": f'{{"NE": [{junk()}, {junk()}]}}',
        "calibration": f'{{"matrix": [[{junk()}, 0, 0], [0, 1, 0]], "north": {junk()}, '
                       f'"marker_mm": {junk()}}}',
        "marker_mm": junk(), "vanish_frames": junk(), "hysteresis_deg": junk(),
    }
    chosen = rnd.sample(sorted(parts), rnd.randrange(1, len(parts) + 1))
    return '{"camera": {' + ", ".join(f'"{k}": {parts[k]}' for k in chosen) + "}}"


def read_config_as_the_server_does(data_dir: Path) -> None:
    """The settings (`companion serve`, `companion doctor`), the recogniser the camera
    starts with, and the dice tray, from the config.json there; an exception is logged
    (counted as a traceback)."""
    from companion import doctor
    from companion.server.settings import resolve
    from companion.wiring.camera_dice import CameraDice
    from hardware.camera.settings import build_recognizer

    try:
        resolved = resolve({"DATA_DIR": str(data_dir)}, {})
        doctor.check_settings(doctor.Context(data_dir=data_dir, settings=resolved))
        build_recognizer(resolved.camera, resolved.config_path)
        CameraDice(resolved.config_path, on_roll=lambda roll: None, active=lambda: True,
                   expected=lambda: True).status()
    except Exception:
        logging.getLogger("fuzz_doors").exception("config.json read as the server does")


def a_record(service, game: str, rnd: random.Random) -> tuple[str, dict]:
    """A record import with one number of the record replaced by a number that is not one."""
    text = json.dumps(service.record(game))
    numbers = list(re.finditer(r"(?<=[:\[,] )-?\d+(\.\d+)?", text))
    if numbers:
        spot = rnd.choice(numbers)
        text = text[:spot.start()] + rnd.choice(JSON_NUMBERS) + text[spot.end():]
    return "/games/import", {"data": {"host_pin": "2468"},
                             "files": {"record": ("r.json", io.BytesIO(text.encode()))}}


def fuzz_forms(service, server, data_dir: Path, requests_count: int,
               rnd: random.Random) -> dict:
    """``requests_count`` HTTP requests to the host's forms and the exports (see the top)."""
    import cv2
    import numpy as np
    import requests

    from companion.box import taught_dice

    # one face of World Without End's tax die taught, as an owner leaves it: the die
    # pictures' folder exists (a face number too long for a file name reaches the disk)
    picture = taught_dice.face_path("wwe", data_dir, "tax", 3)
    picture.parent.mkdir(parents=True, exist_ok=True)
    picture.write_bytes(cv2.imencode(".png", np.zeros((8, 8, 3), np.uint8))[1].tobytes())
    players = {"players": [{"seat": s, "name": s} for s in SEATS]}
    done = service.create("wwe", players, "2468")
    service.end(done.id)  # a finished game: its exports
    live = service.create("wwe", players, "2468")
    http = requests.Session()
    http.cookies.set(f"tc_host_{live.id}", service.access.new_host_token(live.id))
    page = http.get(server.url + "/new").text
    token = re.search(r'name="csrf_token" value="([^"]+)"', page).group(1)
    statuses: collections.Counter = collections.Counter()
    configs = 0
    for k in range(requests_count):
        if k % 50 == 24:  # config.json edited by hand, then read and shown
            (data_dir / "config.json").write_text(a_config(rnd))
            configs += 1
            read_config_as_the_server_does(data_dir)
            for path in ("camera", "camera/status.json", "dice/status.json"):
                statuses[http.get(f"{server.url}/host/{live.id}/{path}", timeout=60)
                         .status_code] += 1
        if k % 50 == 49:
            path, options = a_record(service, done.id, rnd)
            method = "POST"
        else:
            method, path, options = form_requests(live.id, done.id, rnd)
        options = dict(options, headers=dict(options.get("headers", {}),
                                             **{"X-CSRF-Token": token}))
        if isinstance(options.get("data"), dict):
            options["data"] = dict(options["data"], csrf_token=token)
        answer = http.request(method, server.url + path, allow_redirects=False, timeout=60,
                              **options)
        statuses[answer.status_code] += 1
        if path.endswith("/pin") and answer.status_code in (200, 303):  # a new PIN: every
            # host session ended, this one too; the host logs in again
            http.cookies.set(f"tc_host_{live.id}", service.access.new_host_token(live.id))
    return {"statuses": statuses, "configs": configs}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--messages", type=int, default=10_000)
    parser.add_argument("--games", nargs="+", default=["wwe", "pillars", "monasterium"])
    parser.add_argument("--requests", type=int, default=3000,
                        help="HTTP requests to the host's forms and the exports")
    parser.add_argument("--seed", type=int, default=21)
    args = parser.parse_args()
    catcher = Tracebacks()
    logging.getLogger().addHandler(catcher)
    logging.getLogger().setLevel(logging.WARNING)
    out: dict = {}
    with tempfile.TemporaryDirectory() as tmp:
        app = create_app({"DATA_DIR": str(Path(tmp) / "data"), "TESTING": True})
        server = LiveServer(app)
        service = context.of(app).service
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
            seen = len(catcher.records)
            forms = fuzz_forms(service, server, Path(tmp) / "data", args.requests,
                               random.Random(args.seed))
            statuses = forms["statuses"]
            tracebacks = len(catcher.records) - seen
            # 503: the translated "no camera runs" answer; any other 5xx is an internal error
            server_errors = sum(n for code, n in statuses.items() if code >= 500 and code != 503)
            print(f"host forms and exports: {args.requests} requests, {tracebacks} tracebacks, "
                  f"{server_errors} internal errors (5xx), {forms['configs']} config.json "
                  "files read")
            print("  statuses: " + ", ".join(f"{c} {n}" for c, n in sorted(statuses.items())))
            for record in catcher.records[seen:seen + 5]:
                print("  traceback:", record)
            forms = {"requests": args.requests, "tracebacks": tracebacks,
                     "server_errors": server_errors, "config_files": forms["configs"],
                     "statuses": {str(c): n for c, n in sorted(statuses.items())}}
        finally:
            server.stop()
            service.store.close()
    print(json.dumps({"fuzz": out, "forms": forms,
                      "tracebacks_total": sum(g["tracebacks"] for g in out.values())
                      + forms["tracebacks"], "target_tracebacks": 0}))


if __name__ == "__main__":
    main()

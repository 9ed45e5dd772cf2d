"""`companion serve` killed with SIGKILL mid-game and restarted: the game is exactly where it was.

The real production server (gunicorn) runs as a subprocess on a temp data dir, with the
`--demo` World Without End table; phones join over HTTP (cookies) and play over Socket.IO.
"""
from __future__ import annotations

import http.client
import json
import os
import random
import re
import signal
import sqlite3
import ssl
import subprocess
import sys
import threading
import time
from pathlib import Path
from urllib.parse import urlparse

from companion.box.catalog import load_catalog
from companion.game.views import localize
from engine.wwe import GAME
from tests.companion.conftest import Spy
from tests.waiting import PATIENCE

ROOT = Path(__file__).resolve().parents[2]


class ServeProcess:
    """`companion serve --demo` in its own process group, on a free port."""

    def __init__(self, data_dir: Path, extra: list[str] = (), scheme: str = "http"):
        self.scheme = scheme
        self.proc = subprocess.Popen(
            [sys.executable, "-c", "from companion.cli import main; main()", "serve",
             "--host", "127.0.0.1", "--port", "0", "--data", str(data_dir),
             "--demo", "--demo-game", "wwe",
             "--no-hardware", "--threads", "40", *extra],
            cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
            start_new_session=True, env=dict(os.environ, PYTHONUNBUFFERED="1"))
        self.output: list[str] = []
        self.port = None
        self.joins: dict[str, str] = {}
        found = threading.Event()

        def read():
            for line in self.proc.stdout:
                self.output.append(line)
                match = re.search(r"Join (\w+):\s+(\S+)", line)
                if match:
                    self.joins[match.group(1)] = match.group(2)
                match = re.search(r"Listening at: https?://127\.0\.0\.1:(\d+)", line)
                if match:
                    self.port = int(match.group(1))
                    found.set()

        threading.Thread(target=read, daemon=True).start()
        assert found.wait(60), "".join(self.output)
        self.url = f"{scheme}://127.0.0.1:{self.port}"
        self.joins = {seat: url.replace(":0/", f":{self.port}/")
                      for seat, url in self.joins.items()}
        self._wait_ready()

    def _wait_ready(self):
        for _ in range(200):
            try:
                if self.scheme == "https":
                    conn = http.client.HTTPSConnection(
                        "127.0.0.1", self.port, timeout=5,
                        context=ssl._create_unverified_context())
                else:
                    conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=5)
                conn.request("GET", "/healthz")
                if conn.getresponse().status == 200:
                    return
            except OSError:
                pass
            time.sleep(0.05)
        raise AssertionError("".join(self.output))

    def kill(self):
        """A power cut: SIGKILL to gunicorn's master and worker at once."""
        os.killpg(self.proc.pid, signal.SIGKILL)
        self.proc.wait(10)


def claim(url: str, port: int) -> str:
    """GET a join URL like a phone; the seat token from the Set-Cookie header."""
    parsed = urlparse(url)
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    conn.request("GET", f"{parsed.path}?{parsed.query}")
    response = conn.getresponse()
    assert response.status == 303
    cookie = response.getheader("Set-Cookie")
    assert "HttpOnly" in cookie
    return re.match(r"tc_seat_\w+=([^;]+)", cookie).group(1)


def db_game(data_dir: Path) -> tuple[str, dict, int]:
    with sqlite3.connect(data_dir / "companion.sqlite3") as db:
        game_id, setup = db.execute("SELECT id, setup FROM games").fetchone()
        count = db.execute("SELECT COUNT(*) FROM actions WHERE undone_at IS NULL").fetchone()[0]
    return game_id, json.loads(setup), count


def connect_all(url, game_id, tokens):
    spies = {seat: Spy(url, {"role": "seat", "game": game_id, "token": token})
             for seat, token in tokens.items()}
    spies["table"] = Spy(url, {"role": "viewer", "game": game_id})  # watches the board
    for spy in spies.values():
        assert spy.got_view.wait(PATIENCE)
    return spies


def comparable(view: dict) -> dict:
    """A view without what legitimately differs between two server runs (who is online)."""
    return {k: v for k, v in view.items() if k not in ("players", "hardware", "n")}


def test_sigkill_mid_game_then_restart_resumes_exactly(tmp_path):
    data = tmp_path / "data"
    server = ServeProcess(data)
    game_id, setup, _ = db_game(data)
    tokens = {seat: claim(url, server.port) for seat, url in server.joins.items()}
    assert set(tokens) == {"N", "E", "S", "W"}
    catalog = load_catalog("wwe", str(data))
    state = GAME.setup(catalog, setup)  # a replica, advanced with every acknowledged action
    spies = connect_all(server.url, game_id, tokens)
    rnd = random.Random(7)
    acked = 0
    try:
        for _ in range(40):
            action = GAME.random_action(state, rnd)
            sender = action["by"] if action["by"] in tokens else "table"
            ack = spies[sender].call("act", {"action": action})
            assert ack["ok"], ack
            state, _ = GAME.apply(state, dict(action, by=sender))  # "by" as the server sets it
            acked = ack["version"]
        for spy in spies.values():
            spy.wait_version(acked)
        before = {name: comparable(spy.views[-1]) for name, spy in spies.items()}
        # one more action in flight, then the power cut
        in_flight = GAME.random_action(state, rnd)
        sender = in_flight["by"] if in_flight["by"] in tokens else "table"
        spies[sender].sio.emit("act", {"action": in_flight})
        server.kill()
    finally:
        for spy in spies.values():
            spy.close()
    first_log = "".join(server.output)
    assert acked == 40
    _, _, saved = db_game(data)
    assert saved in (acked, acked + 1)  # acknowledged = on disk; the in-flight one may be

    server = ServeProcess(data)
    spies = connect_all(server.url, game_id, tokens)  # the same phones (cookies) rejoin
    try:
        after = {name: comparable(spy.views[-1]) for name, spy in spies.items()}
        if saved == acked:
            for name, view in before.items():
                for key, value in view.items():
                    assert after[name][key] == value, (name, key)
        else:
            expected, _ = GAME.apply(state, dict(in_flight, by=sender))
            assert after["N"]["version"] == acked + 1
            assert after["N"]["view"] == localize(GAME.seat_view(expected, "N"), "en")
            state = expected
        for seat in tokens:
            want = localize(GAME.seat_view(state, seat), "en")
            got = after[seat]["view"]
            assert got == want, (seat, saved, acked, in_flight, after[seat]["version"],
                                 [k for k in want if got.get(k) != want[k]])
        assert after["table"]["view"] == localize(GAME.public_view(state), "en")
        # and the game goes on
        action = GAME.random_action(state, rnd)
        sender = action["by"] if action["by"] in tokens else "table"
        assert spies[sender].call("act", {"action": action})["ok"]
    finally:
        for spy in spies.values():
            spy.close()
        server.kill()
    log = first_log + "".join(server.output)
    for token in tokens.values():
        assert token not in log, "a seat token reached the server log"

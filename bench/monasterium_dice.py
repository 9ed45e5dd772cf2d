"""A roll of every die of the table (23 dice: Monasterium's 10 neutral and 12 personal dice
and the tax die) from the dice reader to the phones, on loopback (issue 15: ≤ 20 ms p95).

Runs the real server (`companion serve`, gunicorn) reading a dice reader on a real pty (the
emulator, in this process, speaking the reader's protocol), a 4-player Monasterium demo
table, 4 phones and the paired table display as real Socket.IO clients. Each sample: the
dice start rolling (every die's ROLLING event goes out, as the reader sends it while they
tumble), 50 ms later they settle; timed from the settling (every die's SETTLED event and
the roll's reading frames written to the pty: the roll is complete on the reader) until all
five clients have the view with the rolled faces. Between rolls the phones place dice (the
first choice), so every roll is owed. The baselines in the same run: writing the settled
roll's frames alone, and a bare Socket.IO call to one client. Prints median and spread,
then ONE line of JSON.

    .venv/bin/python bench/monasterium_dice.py [--rolls 60]
"""
from __future__ import annotations

import argparse
import json
import os
import re
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from urllib.parse import urlparse

import socketio

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.latency import cookie_of, paired  # noqa: E402
from companion.game.patches import apply  # noqa: E402


class Server:
    """`companion serve --demo --demo-game monasterium` reading this process's emulated
    dice reader on a pty."""

    def __init__(self, data: Path) -> None:
        from companion.wiring.dice import game_dice
        from hardware.dice.emulator import DiceEmulator

        self.emulator = DiceEmulator(link=str(data / "dice.tty"), dice=game_dice()).start()
        (data / "config.json").write_text(json.dumps(
            {"dice": {"emulate": "off", "port": str(data / "dice.tty")}}))
        self.data = data
        self.proc = subprocess.Popen(
            [sys.executable, "-c", "from companion.cli import main; main()", "serve",
             "--host", "127.0.0.1", "--port", "0", "--data", str(data), "--demo",
             "--demo-game", "monasterium", "--threads", "30"],
            cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
            start_new_session=True, env=dict(os.environ, PYTHONUNBUFFERED="1"))
        self.joins: dict[str, str] = {}
        self.pair_url = None
        self.port = None
        for line in self.proc.stdout:
            if m := re.search(r"Table display:\s+(\S+)", line):
                self.pair_url = m.group(1)
            if m := re.search(r"Join (\w+):\s+(\S+)", line):
                self.joins[m.group(1)] = m.group(2)
            if m := re.search(r"Listening at: http://127\.0\.0\.1:(\d+)", line):
                self.port = int(m.group(1))
                break
        if self.port is None:
            raise SystemExit("the server did not start")
        threading.Thread(target=lambda: [None for _ in self.proc.stdout], daemon=True).start()
        self.url = f"http://127.0.0.1:{self.port}"

    def request(self, method, path, body=None, headers=None):
        import http.client

        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=30)
        conn.request(method, path, body=body, headers=headers or {})
        r = conn.getresponse()
        return r.status, r.getheaders(), r.read()

    def wait_reader(self, timeout: float = 30.0) -> None:
        """Until the server's dice reader has attached to the pty: a roll made before that
        is thrown on a table nobody watches (as with a real reader)."""
        end = time.monotonic() + timeout
        while not self.emulator.state()["host_attached"]:
            if time.monotonic() > end:
                raise SystemExit("the dice reader did not attach")
            time.sleep(0.05)

    def stop(self) -> None:
        self.emulator.stop()
        os.killpg(self.proc.pid, signal.SIGTERM)
        try:
            self.proc.wait(10)
        except subprocess.TimeoutExpired:
            os.killpg(self.proc.pid, signal.SIGKILL)


class Clients:
    def __init__(self, server: Server) -> None:
        parsed = urlparse(server.joins["N"])
        self.game = parsed.path.split("/")[2]
        self.views: dict[str, dict] = {}
        self.cond = threading.Condition()
        self.clients: dict[str, socketio.Client] = {}
        table_token = paired(server, server.pair_url)  # its path and code
        for seat, join in server.joins.items():
            p = urlparse(join)
            _, headers, _ = server.request("GET", f"{p.path}?{p.query}")
            token = cookie_of(headers, f"tc_seat_{self.game}")
            self._connect(server, seat, {"role": "seat", "game": self.game, "token": token})
        self._connect(server, "table", {"role": "table", "game": self.game,
                                        "table_token": table_token})

    def _connect(self, server, name, auth) -> None:
        sio = socketio.Client(reconnection=False,
                              websocket_extra_options={"skip_utf8_validation": True})

        def on_view(data):
            with self.cond:
                self.views[name] = data
                self.cond.notify_all()

        def on_patch(data):
            on_view(dict(apply(self.views[name], data["ops"]), n=data["n"]))

        sio.on("view", on_view)
        sio.on("patch", on_patch)
        sio.connect(server.url, auth=auth, transports=["websocket"], wait_timeout=30)
        self.clients[name] = sio

    def wait(self, test, timeout=30.0) -> float:
        with self.cond:
            self.cond.wait_for(lambda: all(test(v) for v in self.views.values())
                               and len(self.views) == 5, timeout=timeout)
        return time.perf_counter()


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--rolls", type=int, default=60)
    args = ap.parse_args()
    samples, write_ms, ping_ms = [], [], []
    with tempfile.TemporaryDirectory() as tmp:
        server = Server(Path(tmp))
        try:
            c = Clients(server)
            c.wait(lambda v: "view" in v)
            server.wait_reader()
            while len(samples) < args.rolls:
                v = c.views["table"]["view"]
                if v["over"]:
                    break
                want = v["to_roll"]
                if want:
                    version = c.views["table"]["version"]
                    server.emulator.start_roll()
                    time.sleep(0.05)  # the dice tumble
                    start = time.perf_counter()
                    server.emulator.settle()
                    write_ms.append((time.perf_counter() - start) * 1000)
                    done = c.wait(lambda x, n=version: x["version"] > n)
                    samples.append((done - start) * 1000)
                    continue
                seat = v["prompts"][0]["seat"]
                choices = c.views[seat]["choices"] if seat in c.views else []
                version = c.views["table"]["version"]
                c.clients[seat].call("act", {"action": choices[0]["action"]}, timeout=30)
                c.wait(lambda x, n=version: x["version"] > n)
            for _ in range(50):
                start = time.perf_counter()
                c.clients["N"].call("set_lang", {"lang": "en"}, timeout=10)
                ping_ms.append((time.perf_counter() - start) * 1000)
            for sio in c.clients.values():
                sio.disconnect()
        finally:
            server.stop()
    q = statistics.quantiles(samples, n=20)
    out = {"rolls": len(samples), "dice_per_roll": 23,
           "roll_to_phones_median_ms": round(statistics.median(samples), 2),
           "roll_to_phones_p95_ms": round(q[18], 2),
           "spread_ms": [round(min(samples), 2), round(max(samples), 2)],
           "write_frames_median_ms": round(statistics.median(write_ms), 2),
           "socket_call_median_ms": round(statistics.median(ping_ms), 2)}
    out["ratio_to_socket_call"] = round(out["roll_to_phones_median_ms"] /
                                        max(out["socket_call_median_ms"], 0.01), 1)
    print(f"{out['rolls']} rolls of 23 dice, reader to 4 phones + table: median "
          f"{out['roll_to_phones_median_ms']} ms, p95 {out['roll_to_phones_p95_ms']} ms, "
          f"spread {out['spread_ms']}; writing the frames alone "
          f"{out['write_frames_median_ms']} ms, "
          f"a socket call {out['socket_call_median_ms']} ms")
    print(json.dumps(out))


if __name__ == "__main__":
    main()

"""Latency of the companion server on loopback: from an action sent by a phone to all five
clients of the table (4 phones + the table display) having their updated view.

Runs the real production server (`companion serve`, gunicorn) as a subprocess on a temp data
directory, with real Socket.IO clients playing random legal World Without End actions.

1. one table: 1 table display + 4 phones, actions one after another;
2. fifty tables at once: 50 x 5 clients, every table playing at the same time, each table
   acting every ``--think`` seconds on average (uniform 0..2x: about 50 actions/s in all,
   far busier than real tables, where a move takes a player several seconds);
3. the server's resident memory (gunicorn master + worker) with one running game;
4. baseline in this same process: a bare TCP echo round trip on loopback with a payload of the
   size of one view message, and the ratio of the one-table p95 to it.

Prints the figures, then ONE last line: a JSON object (one_table_p95_ms, fifty_tables_p95_ms,
rss_mb, server_cpu_ms_per_action: the worker's CPU over the many-tables phase, with its idle
time between moves; one_table_server_cpu_ms_per_action: over the one-table actions, back to
back, the steadier figure with --tables 1 ...). Targets: one table p95 <= 30 ms, fifty
tables p95 <= 150 ms, RSS <= 120 MB.
Usage: .venv/bin/python bench/latency.py [--actions 120] [--tables 50] [--per-table 12]
"""
from __future__ import annotations

import argparse
import http.client
import json
import os
import random
import re
import signal
import socket
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path
from urllib.parse import urlencode, urlparse

import socketio

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from companion.box.catalog import load_catalog  # noqa: E402
from companion.game.patches import Replica  # noqa: E402
from engine.wwe import GAME  # noqa: E402

SEATS = ("N", "E", "S", "W")


# the server ------------------------------------------------------------------------------
class Server:
    def __init__(self, data: Path, threads: int) -> None:
        self.data = data
        self.proc = subprocess.Popen(
            [sys.executable, "-c", "from companion.cli import main; main()", "serve",
             "--host", "127.0.0.1", "--port", "0", "--data", str(data),
             "--demo", "--demo-game", "wwe",
             "--no-hardware", "--threads", str(threads)],
            cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
            start_new_session=True, env=dict(os.environ, PYTHONUNBUFFERED="1"))
        self.joins: dict[str, str] = {}
        self.pair_url = None
        port = None
        for line in self.proc.stdout:
            match = re.search(r"Table display:\s+(\S+)", line)
            if match:
                self.pair_url = match.group(1)
            match = re.search(r"Join (\w+):\s+(\S+)", line)
            if match:
                self.joins[match.group(1)] = match.group(2)
            match = re.search(r"Listening at: http://127\.0\.0\.1:(\d+)", line)
            if match:
                port = int(match.group(1))
                break
        if port is None:
            raise SystemExit("the server did not start")
        threading.Thread(target=lambda: [None for _ in self.proc.stdout], daemon=True).start()
        self.port = port
        self.url = f"http://127.0.0.1:{port}"
        for _ in range(200):
            try:
                if self.get("/healthz")[0] == 200:
                    break
            except OSError:
                time.sleep(0.05)

    def request(self, method, path, body=None, headers=None):
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=30)
        conn.request(method, path, body=body, headers=headers or {})
        response = conn.getresponse()
        data = response.read()
        return response.status, response.getheaders(), data

    def get(self, path, headers=None):
        status, _, data = self.request("GET", path, headers=headers)
        return status, data

    def memory_mb(self) -> dict:
        """Resident memory of gunicorn's worker and master: RSS each, and the sum of their
        PSS (shared pages counted once: the worker is forked from the master)."""
        def field(pid, path, name):
            for line in Path(f"/proc/{pid}/{path}").read_text().splitlines():
                if line.startswith(name + ":"):
                    return int(line.split()[1]) / 1024
            return 0.0

        workers = [int(p.name) for p in Path("/proc").iterdir() if p.name.isdigit()
                   and _ppid(int(p.name)) == self.proc.pid]
        pids = [self.proc.pid, *workers]
        return {"worker_rss": sum(field(w, "status", "VmRSS") for w in workers),
                "master_rss": field(self.proc.pid, "status", "VmRSS"),
                "pss": sum(field(p, "smaps_rollup", "Pss") for p in pids)}

    def cpu_seconds(self) -> float:
        """CPU time (user + system) used so far by the worker(s)."""
        total = 0.0
        for p in Path("/proc").iterdir():
            if p.name.isdigit() and _ppid(int(p.name)) == self.proc.pid:
                fields = (p / "stat").read_text().rsplit(")", 1)[1].split()
                total += (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
        return total

    def stop(self):
        os.killpg(self.proc.pid, signal.SIGTERM)
        try:
            self.proc.wait(10)
        except subprocess.TimeoutExpired:
            os.killpg(self.proc.pid, signal.SIGKILL)


def _ppid(pid: int) -> int | None:
    try:
        return int(Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[1])
    except (OSError, IndexError, ValueError):
        return None


def cookie_of(headers, name_prefix):
    for key, value in headers:
        if key.lower() == "set-cookie" and value.startswith(name_prefix):
            return value.split(";", 1)[0].split("=", 1)[1]
    return None


def paired(server: Server, pair_url: str) -> str:
    """The table display's secret, from the host's one-time pairing link."""
    parsed = urlparse(pair_url)
    game_id = parsed.path.split("/")[2]
    _, headers, _ = server.request("GET", f"{parsed.path}?{parsed.query}")
    return cookie_of(headers, f"tc_table_{game_id}")


def new_table(server: Server) -> tuple[dict[str, str], str]:
    """A 4-player game created through the web form; returns its join URLs and the table
    display's secret (the creator is the host and pairs the table from its page)."""
    status, headers, page = server.request("GET", "/new")
    session = cookie_of(headers, "session")
    token = re.search(rb'name="csrf_token" value="([^"]+)"', page).group(1).decode()
    form = {"csrf_token": token, "game": "wwe", "host_pin": "2468"}
    form.update({f"name_{s}": f"P{s}" for s in SEATS})
    status, headers, _ = server.request(
        "POST", "/games", urlencode(form),
        {"Content-Type": "application/x-www-form-urlencoded", "Cookie": f"session={session}"})
    assert status == 303, status
    game_id = dict(headers)["Location"].rsplit("/", 1)[-1]
    host = cookie_of(headers, f"tc_host_{game_id}")
    status, headers, _ = server.request(
        "POST", f"/host/{game_id}/pair-here", urlencode({"csrf_token": token}),
        {"Content-Type": "application/x-www-form-urlencoded",
         "Cookie": f"session={session}; tc_host_{game_id}={host}"})
    assert status == 303, status
    table_token = cookie_of(headers, f"tc_table_{game_id}")
    with sqlite3.connect(server.data / "companion.sqlite3") as db:
        codes = dict(db.execute("SELECT seat, join_code FROM seats WHERE game = ?", (game_id,)))
    return {s: f"{server.url}/join/{game_id}/{s}?code={codes[s]}" for s in SEATS}, table_token


# a table of five clients -----------------------------------------------------------------
class Table:
    """4 phones + 1 table display; a local replica of the state picks legal actions."""

    def __init__(self, server: Server, joins: dict[str, str], table_token: str,
                 seed: int) -> None:
        self.game_id = urlparse(joins["N"]).path.split("/")[2]
        with sqlite3.connect(server.data / "companion.sqlite3") as db:
            setup = json.loads(db.execute("SELECT setup FROM games WHERE id = ?",
                                          (self.game_id,)).fetchone()[0])
        self.state = GAME.setup(CATALOG, setup)
        self.rnd = random.Random(seed)
        self.arrivals: dict[str, dict[int, float]] = {}
        self.sizes: list[int] = []
        self.cond = threading.Condition()
        self.clients: dict[str, socketio.Client] = {}
        for seat, url in joins.items():
            parsed = urlparse(url)
            _, headers, _ = server.request("GET", f"{parsed.path}?{parsed.query}")
            token = cookie_of(headers, f"tc_seat_{self.game_id}")
            self._connect(server, seat, {"role": "seat", "game": self.game_id,
                                         "token": token})
        self._connect(server, "table", {"role": "table", "game": self.game_id,
                                        "table_token": table_token})

    def _connect(self, server, name, auth):
        # browsers validate UTF-8 natively; websocket-client's pure-Python check would add
        # ~4 ms per 18 kB view to every client and measure the bench, not the server
        sio = socketio.Client(reconnection=False,
                              websocket_extra_options={"skip_utf8_validation": True})
        self.arrivals[name] = {}

        def on_view(data):
            now = time.perf_counter()
            with self.cond:
                self.arrivals[name].setdefault(data["version"], now)
                self.cond.notify_all()

        replica = Replica(on_view)  # patches applied in order, as the page does

        def on_message(kind):
            def handle(data):
                if name == "N" and len(self.sizes) < 50:
                    self.sizes.append(len(json.dumps(data)))  # what went over the wire
                getattr(replica, kind)(data)
            return handle

        sio.on("view", on_message("view"))
        sio.on("patch", on_message("patch"))
        sio.connect(server.url, auth=auth, transports=["websocket"], wait_timeout=30)
        self.clients[name] = sio

    def step(self) -> float | None:
        """One random legal action from its seat (or the table); ms until all 5 updated."""
        action = GAME.random_action(self.state, self.rnd)
        if action is None:
            return None
        sender = action["by"] if action["by"] in self.clients else "table"
        start = time.perf_counter()
        ack = self.clients[sender].call("act", {"action": action}, timeout=60)
        if not ack.get("ok"):
            raise RuntimeError(f"refused {action}: {ack}")
        version = ack["version"]
        with self.cond:
            self.cond.wait_for(lambda: all(version in a for a in self.arrivals.values()),
                               timeout=60)
            done = max(a[version] for a in self.arrivals.values())
        self.state, _ = GAME.apply(self.state, dict(action, by=sender))  # as the server sets it
        return (done - start) * 1000

    def close(self):
        for sio in self.clients.values():
            sio.disconnect()


# figures ---------------------------------------------------------------------------------
def summary(samples: list[float]) -> dict:
    ordered = sorted(samples)
    p95 = ordered[min(len(ordered) - 1, int(round(0.95 * (len(ordered) - 1))))]
    return {"n": len(ordered), "p50": statistics.median(ordered), "p95": p95,
            "min": ordered[0], "max": ordered[-1],
            "stdev": statistics.pstdev(ordered) if len(ordered) > 1 else 0.0}


def echo_baseline(size: int, rounds: int = 300) -> dict:
    """A bare TCP echo round trip on loopback, payload ``size`` bytes, in this process."""
    listener = socket.create_server(("127.0.0.1", 0))

    def serve():
        conn, _ = listener.accept()
        conn.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        with conn:
            while data := conn.recv(65536):
                conn.sendall(data)

    threading.Thread(target=serve, daemon=True).start()
    client = socket.create_connection(listener.getsockname())
    client.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    payload = b"x" * size
    samples = []
    for _ in range(rounds):
        start = time.perf_counter()
        client.sendall(payload)
        got = 0
        while got < size:
            got += len(client.recv(65536))
        samples.append((time.perf_counter() - start) * 1000)
    client.close()
    listener.close()
    return summary(samples)


def show(name: str, s: dict) -> None:
    print(f"{name:<28} n={s['n']:<5} p50={s['p50']:7.2f} ms  p95={s['p95']:7.2f} ms  "
          f"min={s['min']:6.2f}  max={s['max']:7.2f}  sd={s['stdev']:6.2f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--actions", type=int, default=120, help="one-table actions")
    parser.add_argument("--tables", type=int, default=50)
    parser.add_argument("--per-table", type=int, default=12, help="actions per table (50)")
    parser.add_argument("--warmup", type=int, default=5)
    parser.add_argument("--think", type=float, default=1.0,
                        help="mean seconds between two actions of one table (50 tables)")
    args = parser.parse_args()

    global CATALOG
    data = Path(tempfile.mkdtemp(prefix="tc-bench-"))
    CATALOG = load_catalog("wwe", str(data))
    server = Server(data, threads=5 * args.tables + 60)
    try:
        # 1. one table
        table = Table(server, server.joins, paired(server, server.pair_url), seed=1)
        one = []
        for i in range(args.actions + args.warmup):
            if i == args.warmup:
                one_cpu_before = server.cpu_seconds()
            ms = table.step()
            if ms is None:
                break
            if i >= args.warmup:
                one.append(ms)
        # the worker's CPU over the one-table actions (back to back: nothing else runs)
        one_cpu = (server.cpu_seconds() - one_cpu_before) / max(len(one), 1) * 1000
        mem_one = server.memory_mb()
        full_view_bytes = table.sizes[0] if table.sizes else 20_000
        view_bytes = int(statistics.median(table.sizes[1:])) if table.sizes[1:] else 20_000
        table.close()
        print(f"bytes to a phone per message: median {view_bytes} (a whole view "
              f"{full_view_bytes}; later ones are patches of what changed)")
        one_s = summary(one)
        show("one table (5 clients)", one_s)
        print(f"  server CPU {one_cpu:.2f} ms per action (Pi x5 {one_cpu * 5:.1f} ms): "
              "engine, commit, 5 views, the packets and their WebSocket frames")
        print(f"server memory with one game: PSS {mem_one['pss']:.1f} MB (RSS worker "
              f"{mem_one['worker_rss']:.1f} MB, master {mem_one['master_rss']:.1f} MB)")

        # 2. fifty tables at once
        tables = [Table(server, *new_table(server), seed=100 + i) for i in range(args.tables)]
        many: list[float] = []
        lock = threading.Lock()
        barrier = threading.Barrier(len(tables))

        def play(t: Table):
            pace = random.Random(t.game_id)
            for _ in range(args.warmup):
                t.step()
            barrier.wait()
            local = []
            for _ in range(args.per_table):
                time.sleep(pace.uniform(0, 2 * args.think))  # players think between moves
                ms = t.step()
                if ms is not None:
                    local.append(ms)
            with lock:
                many.extend(local)

        threads = [threading.Thread(target=play, args=(t,)) for t in tables]
        cpu_before = server.cpu_seconds()
        started = time.perf_counter()
        for th in threads:
            th.start()
        for th in threads:
            th.join()
        wall = time.perf_counter() - started
        cpu_per_action = (server.cpu_seconds() - cpu_before) / (len(many) + args.warmup *
                                                                 len(tables)) * 1000
        mem_many = server.memory_mb()
        for t in tables:
            t.close()
        many_s = summary(many)
        show(f"{args.tables} tables at once", many_s)
        print(f"  {len(many) / wall:.0f} actions/s overall; server CPU {cpu_per_action:.1f} ms "
              f"per action (5 views); PSS then {mem_many['pss']:.1f} MB")
    finally:
        server.stop()

    base = echo_baseline(full_view_bytes)
    show(f"baseline: TCP echo {full_view_bytes // 1000} kB", base)
    ratio = one_s["p95"] / base["p95"] if base["p95"] else None
    print(f"one-table p95 / echo p95 = {ratio:.1f}")
    print(json.dumps({
        "one_table_p50_ms": round(one_s["p50"], 2), "one_table_p95_ms": round(one_s["p95"], 2),
        "fifty_tables_p50_ms": round(many_s["p50"], 2),
        "fifty_tables_p95_ms": round(many_s["p95"], 2), "tables": args.tables,
        "fifty_tables_actions_per_s": round(len(many) / wall, 1),
        "server_cpu_ms_per_action": round(cpu_per_action, 2),
        "one_table_server_cpu_ms_per_action": round(one_cpu, 2),
        "rss_mb": round(mem_one["pss"], 1), "rss_worker_mb": round(mem_one["worker_rss"], 1),
        "rss_master_mb": round(mem_one["master_rss"], 1),
        "rss_fifty_tables_mb": round(mem_many["pss"], 1),
        "bytes_per_message_median": view_bytes, "full_view_bytes": full_view_bytes,
        "echo_p95_ms": round(base["p95"], 3),
        "ratio_one_table_p95_to_echo": round(ratio, 1),
        "loadavg_1m": os.getloadavg()[0], "cpus": os.cpu_count(),
        "targets": {"one_table_p95_ms": 30, "fifty_tables_p95_ms": 150, "rss_mb": 120,
                    "bytes_per_message": 4000, "server_cpu_ms_per_action": 2.5}}))


CATALOG = None

if __name__ == "__main__":
    main()

"""Start-up: from launching `companion serve` to the server accepting a Socket.IO connection.

Each run starts the production server exactly as the Pi's service does (`companion serve`,
gunicorn, hardware threads on) on a free port with a fresh temporary data directory, and
polls the Socket.IO handshake (``GET /socket.io/?EIO=4&transport=polling``) every 5 ms until
it answers 200. Baselines in the same process: bare interpreter start-up (`python -c pass`)
and a bare `python -m http.server` answering its first request; `companion --help` shows the
share of the CLI's imports. Target: under 2 s here.

Usage: .venv/bin/python bench/startup.py [--runs N]
The last line is a JSON object with at least ``startup_median_ms``.
"""
from __future__ import annotations

import argparse
import http.client
import json
import os
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

TARGET_MS = 2000.0
HANDSHAKE = "/socket.io/?EIO=4&transport=polling"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def answers(port: int, path: str) -> bool:
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=1)
    try:
        conn.request("GET", path)
        return conn.getresponse().status == 200
    except OSError:
        return False
    finally:
        conn.close()


def time_until_answering(command: list[str], port: int, path: str, timeout: float = 30.0,
                         cwd: str | None = None) -> float:
    """Milliseconds from spawning ``command`` to ``path`` answering 200 on ``port``."""
    start = time.perf_counter()
    proc = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                            start_new_session=True, cwd=cwd)
    try:
        while time.perf_counter() - start < timeout:
            if answers(port, path):
                return (time.perf_counter() - start) * 1000
            if proc.poll() is not None:
                raise RuntimeError(f"{command[0]} exited with {proc.returncode}")
            time.sleep(0.005)
        raise RuntimeError(f"no answer within {timeout} s")
    finally:
        stop(proc)


def stop(proc: subprocess.Popen) -> None:
    """End the process group this bench started (gunicorn's master and its worker)."""
    if proc.poll() is None:
        os.killpg(proc.pid, signal.SIGTERM)
        try:
            proc.wait(10)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()


def companion_command() -> list[str]:
    script = Path(sys.executable).parent / "companion"
    if script.exists():
        return [str(script)]
    return [sys.executable, "-c", "from companion.cli import main; main()"]


def serve_once() -> float:
    port = free_port()
    with tempfile.TemporaryDirectory(prefix="startup-") as data:
        return time_until_answering(
            companion_command() + ["serve", "--host", "127.0.0.1", "--port", str(port),
                                   "--data", data], port, HANDSHAKE)


def http_server_once() -> float:
    port = free_port()
    with tempfile.TemporaryDirectory(prefix="startup-") as folder:
        return time_until_answering([sys.executable, "-m", "http.server", str(port),
                                     "--bind", "127.0.0.1"], port, "/", cwd=folder)


def python_once() -> float:
    start = time.perf_counter()
    subprocess.run([sys.executable, "-c", "pass"], check=True)
    return (time.perf_counter() - start) * 1000


def cli_once() -> float:
    """`companion --help`: the import cost every `companion` command pays before serving."""
    start = time.perf_counter()
    subprocess.run(companion_command() + ["--help"], check=True, stdout=subprocess.DEVNULL)
    return (time.perf_counter() - start) * 1000


def describe(name: str, samples: list[float]) -> dict:
    med = statistics.median(samples)
    spread = statistics.pstdev(samples)
    print(f"{name:<24} median {med:8.1f} ms  min {min(samples):8.1f}  max {max(samples):8.1f}"
          f"  stdev {spread:6.1f}  (n={len(samples)})")
    return {"median": med, "min": min(samples), "max": max(samples), "stdev": spread}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=7)
    args = parser.parse_args()
    serve_once()  # warm the page cache so every measured run starts alike
    python = describe("python -c pass", [python_once() for _ in range(args.runs)])
    bare = describe("python -m http.server", [http_server_once() for _ in range(args.runs)])
    cli = describe("companion --help", [cli_once() for _ in range(args.runs)])
    serve = describe("companion serve", [serve_once() for _ in range(args.runs)])
    ratio = serve["median"] / bare["median"]
    print(f"companion serve takes {ratio:.1f}x a bare http.server to accept connections; "
          f"target {TARGET_MS:.0f} ms: {'met' if serve['median'] <= TARGET_MS else 'MISSED'}")
    print(json.dumps({
        "startup_median_ms": round(serve["median"], 1),
        "startup_min_ms": round(serve["min"], 1),
        "startup_max_ms": round(serve["max"], 1),
        "startup_stdev_ms": round(serve["stdev"], 1),
        "baseline_http_server_median_ms": round(bare["median"], 1),
        "baseline_python_median_ms": round(python["median"], 1),
        "cli_import_median_ms": round(cli["median"], 1),
        "ratio_vs_http_server": round(ratio, 2),
        "runs": args.runs,
        "target_ms": TARGET_MS,
        "meets_target": serve["median"] <= TARGET_MS,
    }))


if __name__ == "__main__":
    main()

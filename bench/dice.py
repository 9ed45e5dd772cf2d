"""Dice reader benchmark: device write → Roll delivered to the callback, over a real pty,
against a bare pty write → read round trip in the same process; and parser throughput
against a plain line split. Target: p95 ≤ 5 ms. The last line is one JSON object.

    .venv/bin/python bench/dice.py [--rolls 300] [--lines 200000]
"""
from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import threading
import time
import tty
from pathlib import Path

import serial

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from hardware.dice import protocol as p  # noqa: E402
from hardware.dice.observations import Roll  # noqa: E402
from hardware.dice.reader import DiceReader  # noqa: E402


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q / 100 * (len(ordered) - 1)))]


def make_pty() -> tuple[int, str]:
    master, slave = os.openpty()
    tty.setraw(slave)
    path = os.ttyname(slave)
    os.close(slave)
    return master, path


class Device:
    """The device side on the pty master: answers HELLO? and STATE?, writes readings."""

    def __init__(self, master: int) -> None:
        self.master, self.seq, self.lock = master, 0, threading.Lock()
        threading.Thread(target=self._serve, daemon=True).start()

    def send(self, kind: str, rest: str) -> None:
        with self.lock:
            os.write(self.master, p.encode(f"{kind} {self.seq} {rest}"))
            self.seq = p.next_seq(self.seq)

    def _serve(self) -> None:
        parser = p.FrameParser()
        while True:
            try:
                data = os.read(self.master, 1024)
            except OSError:
                time.sleep(0.01)  # no host yet (or gone)
                continue
            for item in parser.feed(data):
                if isinstance(item, p.Frame) and item.body == "HELLO?":
                    os.write(self.master, p.encode(p.hello_body("bench", 1, "BE")))
                elif isinstance(item, p.Frame) and item.body == "STATE?":
                    self.send("ST", "r=0 tax=SETTLED:1")


def reader_latency(rolls: int) -> list[float]:
    master, path = make_pty()
    device = Device(master)
    delivered = threading.Event()

    def observed(obs) -> None:
        if isinstance(obs, Roll):
            delivered.set()

    reader = DiceReader(path, on_observation=observed).start()
    deadline = time.monotonic() + 10
    while reader.status().last_roll is None:
        if time.monotonic() > deadline:
            raise SystemExit("the reader did not connect")
        time.sleep(0.01)
    times = []
    for n in range(1, rolls + 1):
        delivered.clear()
        start = time.perf_counter()
        device.send("RD", f"r={n} tax={n % 6 + 1}")
        if not delivered.wait(5):
            raise SystemExit(f"roll {n} was not delivered")
        times.append((time.perf_counter() - start) * 1000)
        time.sleep(0.002)
    reader.stop()
    os.close(master)
    return times


def baseline_latency(rounds: int) -> list[float]:
    """The same pty and pyserial settings, no protocol: write a frame, wait for the bytes."""
    master, path = make_pty()
    port = serial.Serial(path, 115200, timeout=0.05, exclusive=True)
    got, stop = threading.Event(), threading.Event()
    frame = p.encode("RD 1 r=1 tax=4")

    def read() -> None:
        buffered = b""
        while not stop.is_set():
            buffered += port.read(max(1, port.in_waiting))
            if buffered.endswith(b"\n"):
                buffered = b""
                got.set()

    thread = threading.Thread(target=read, daemon=True)
    thread.start()
    times = []
    for _ in range(rounds):
        got.clear()
        start = time.perf_counter()
        os.write(master, frame)
        got.wait(5)
        times.append((time.perf_counter() - start) * 1000)
        time.sleep(0.002)
    stop.set()
    thread.join()
    port.close()
    os.close(master)
    return times


WIRE_LINES_PER_S = 0.0


def throughput(lines: int) -> tuple[float, float]:
    bodies = ["HB {} 123456", "EV {} tax ROLLING", "EV {} tax SETTLED 4", "RD {} r=9 tax=4 red=6"]
    stream = b"".join(p.encode(bodies[i % 4].format(i % 65536)) for i in range(lines))
    chunks = [stream[i:i + 4096] for i in range(0, len(stream), 4096)]
    start = time.perf_counter()
    parser, parsed = p.FrameParser(), 0
    for chunk in chunks:
        for item in parser.feed(chunk):
            p.parse_device(item.body)
            parsed += 1
    ours = parsed / (time.perf_counter() - start)
    global WIRE_LINES_PER_S
    WIRE_LINES_PER_S = 115200 / 10 / (len(stream) / lines)  # 8N1: 10 bits a byte
    assert parsed == lines
    start = time.perf_counter()
    split = sum(len(chunk.split(b"\n")) - 1 for chunk in chunks)
    base = split / (time.perf_counter() - start)
    return ours, base


def main() -> None:
    args = argparse.ArgumentParser(description=__doc__)
    args.add_argument("--rolls", type=int, default=300)
    args.add_argument("--lines", type=int, default=200_000)
    opts = args.parse_args()
    base = baseline_latency(opts.rolls)
    ours = reader_latency(opts.rolls)
    lines_per_s, base_lines = throughput(opts.lines)
    figures = {
        "p50_ms": round(statistics.median(ours), 3),
        "p95_ms": round(percentile(ours, 95), 3),
        "max_ms": round(max(ours), 3),
        "baseline_p50_ms": round(statistics.median(base), 3),
        "baseline_p95_ms": round(percentile(base, 95), 3),
        "latency_ratio_p50": round(statistics.median(ours) / statistics.median(base), 2),
        "lines_per_s": round(lines_per_s),
        "baseline_split_lines_per_s": round(base_lines),
        "throughput_ratio": round(lines_per_s / base_lines, 4),
        "wire_lines_per_s_at_115200": round(WIRE_LINES_PER_S),
        "rolls": opts.rolls,
        "lines": opts.lines,
        "target_p95_ms": 5.0,
    }
    figures["meets_target"] = figures["p95_ms"] <= 5.0
    print(f"device write → Roll callback over a pty, {opts.rolls} rolls: "
          f"p50 {figures['p50_ms']} ms, p95 {figures['p95_ms']} ms, max {figures['max_ms']} ms, "
          f"spread (p95-p5) {percentile(ours, 95) - percentile(ours, 5):.3f} ms")
    print(f"baseline bare pty write → pyserial read: p50 {figures['baseline_p50_ms']} ms, "
          f"p95 {figures['baseline_p95_ms']} ms; ratio {figures['latency_ratio_p50']}x")
    print(f"parser: {figures['lines_per_s']} lines/s (framing + CRC + message), "
          f"plain split {figures['baseline_split_lines_per_s']} lines/s; the wire at 115200 "
          f"baud carries at most {figures['wire_lines_per_s_at_115200']} lines/s")
    print(json.dumps(figures))


if __name__ == "__main__":
    main()

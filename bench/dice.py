"""Dice reader benchmark: device write → Roll delivered to the callback, over a real pty,
for a one-die roll (one RD frame) and a 22-die roll (protocol version 2: the RD in two
parts), each against a bare pty write → pyserial read of the same bytes in the same run;
and parser throughput against a plain line split. Targets: p95 ≤ 5 ms (one die), far below
20 ms (22 dice). The last line is one JSON object.

    .venv/bin/python bench/dice.py [--rolls 300] [--lines 200000]
"""
from __future__ import annotations

import argparse
import json
import os
import select
import statistics
import sys
import threading
import time
import tty
from pathlib import Path

import serial

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from hardware.dice import protocol  # noqa: E402
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


ONE_DIE = {"tax": "neutral"}
DICE_22 = {f"n{i}": "neutral" for i in range(1, 11)} | {
    f"{c[0]}{i}": c for c in ("red", "blue", "green", "yellow") for i in range(1, 4)}


class Device:
    """The device side on the pty master: answers HELLO?, STATE? and DICE?, writes
    readings (all parts of one in a single write, as a board sends them back to back)."""

    def __init__(self, master: int, groups: dict[str, str]) -> None:
        self.master, self.seq, self.lock = master, 0, threading.Lock()
        self.groups = groups
        self.stopped = threading.Event()
        self.thread = threading.Thread(target=self._serve, daemon=True)
        self.thread.start()

    def stop(self) -> None:
        """Before closing the master: its fd number may be reused by the next pty."""
        self.stopped.set()
        self.thread.join()

    def send_bodies(self, make, *args) -> None:
        """``make(seq, *args)`` gives the bodies (consecutive numbers from ``seq``)."""
        with self.lock:
            bodies = make(self.seq, *args)
            os.write(self.master, b"".join(protocol.encode(b) for b in bodies))
            for _ in bodies:
                self.seq = protocol.next_seq(self.seq)

    def _serve(self) -> None:
        parser = protocol.FrameParser()
        while not self.stopped.is_set():
            if not select.select([self.master], [], [], 0.05)[0]:
                continue
            try:
                data = os.read(self.master, 1024)
            except OSError:
                time.sleep(0.01)  # no host yet (or gone)
                continue
            for item in parser.feed(data):
                if isinstance(item, protocol.Frame) and item.body == "HELLO?":
                    hello = protocol.hello_body("bench", len(self.groups), "BE")
                    os.write(self.master, protocol.encode(hello))
                elif isinstance(item, protocol.Frame) and item.body == "STATE?":
                    settled = {d: protocol.DieState("SETTLED", 1) for d in self.groups}
                    self.send_bodies(protocol.snapshot_bodies, 0, settled)
                elif isinstance(item, protocol.Frame) and item.body == "DICE?":
                    self.send_bodies(protocol.dice_list_bodies, self.groups)


def faces_for(groups: dict[str, str], n: int) -> dict[str, int]:
    return {d: (n + i) % 6 + 1 for i, d in enumerate(groups)}


def reader_latency(rolls: int, groups: dict[str, str]) -> list[float]:
    master, path = make_pty()
    device = Device(master, groups)
    delivered = threading.Event()

    def observed(obs) -> None:
        if isinstance(obs, Roll):
            delivered.set()

    reader = DiceReader(path, on_observation=observed).start()
    deadline = time.monotonic() + 10
    while reader.status().last_roll is None or len(reader.status().groups) < len(groups):
        if time.monotonic() > deadline:
            raise SystemExit(f"the reader did not connect: {reader.status()}")
        time.sleep(0.01)
    times = []
    for n in range(1, rolls + 1):
        faces = faces_for(groups, n)
        delivered.clear()
        start = time.perf_counter()
        device.send_bodies(protocol.reading_bodies, n, faces)
        if not delivered.wait(5):
            raise SystemExit(f"roll {n} was not delivered")
        times.append((time.perf_counter() - start) * 1000)
        time.sleep(0.002)
    reader.stop()
    device.stop()
    os.close(master)
    return times


def roll_bytes(groups: dict[str, str]) -> bytes:
    return b"".join(protocol.encode(b) for b in protocol.reading_bodies(1, 1, faces_for(groups, 1)))


def baseline_latency(rounds: int, groups: dict[str, str]) -> list[float]:
    """The same pty and pyserial settings, no protocol: write the bytes of one roll (every
    frame), wait until they all arrived."""
    master, path = make_pty()
    port = serial.Serial(path, 115200, timeout=0.05, exclusive=True)
    got, stop = threading.Event(), threading.Event()
    frame = roll_bytes(groups)

    def read() -> None:
        buffered = b""
        while not stop.is_set():
            buffered += port.read(max(1, port.in_waiting))
            if len(buffered) >= len(frame):
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
    stream = b"".join(protocol.encode(bodies[i % 4].format(i % 65536)) for i in range(lines))
    chunks = [stream[i:i + 4096] for i in range(0, len(stream), 4096)]
    start = time.perf_counter()
    parser, parsed = protocol.FrameParser(), 0
    for chunk in chunks:
        for item in parser.feed(chunk):
            protocol.parse_device(item.body)
            parsed += 1
    ours = parsed / (time.perf_counter() - start)
    global WIRE_LINES_PER_S
    WIRE_LINES_PER_S = 115200 / 10 / (len(stream) / lines)  # 8N1: 10 bits a byte
    assert parsed == lines
    start = time.perf_counter()
    split = sum(len(chunk.split(b"\n")) - 1 for chunk in chunks)
    base = split / (time.perf_counter() - start)
    return ours, base


def latency_figures(ours: list[float], base: list[float], groups: dict[str, str]) -> dict:
    wire = len(roll_bytes(groups))
    return {
        "dice": len(groups),
        "frames": len(protocol.reading_bodies(1, 1, faces_for(groups, 1))),
        "bytes": wire,
        "p50_ms": round(statistics.median(ours), 3),
        "p95_ms": round(percentile(ours, 95), 3),
        "max_ms": round(max(ours), 3),
        "spread_p95_p5_ms": round(percentile(ours, 95) - percentile(ours, 5), 3),
        "stdev_ms": round(statistics.stdev(ours), 3),
        "baseline_p50_ms": round(statistics.median(base), 3),
        "baseline_p95_ms": round(percentile(base, 95), 3),
        "latency_ratio_p50": round(statistics.median(ours) / statistics.median(base), 2),
        "wire_ms_at_115200": round(wire * 10 / 115200 * 1000, 2),  # 8N1: 10 bits a byte
    }


def main() -> None:
    args = argparse.ArgumentParser(description=__doc__)
    args.add_argument("--rolls", type=int, default=300)
    args.add_argument("--lines", type=int, default=200_000)
    opts = args.parse_args()
    base = baseline_latency(opts.rolls, ONE_DIE)
    ours = reader_latency(opts.rolls, ONE_DIE)
    base22 = baseline_latency(opts.rolls, DICE_22)
    ours22 = reader_latency(opts.rolls, DICE_22)
    many = latency_figures(ours22, base22, DICE_22)
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
        "dice22": many,
        "dice22_target_p95_ms": 20.0,
    }
    figures["meets_target"] = figures["p95_ms"] <= 5.0 and many["p95_ms"] <= 20.0
    print(f"device write → Roll callback over a pty, {opts.rolls} rolls: "
          f"p50 {figures['p50_ms']} ms, p95 {figures['p95_ms']} ms, max {figures['max_ms']} ms, "
          f"spread (p95-p5) {percentile(ours, 95) - percentile(ours, 5):.3f} ms")
    print(f"baseline bare pty write → pyserial read: p50 {figures['baseline_p50_ms']} ms, "
          f"p95 {figures['baseline_p95_ms']} ms; ratio {figures['latency_ratio_p50']}x")
    print(f"22-die roll ({many['frames']} RD frames, {many['bytes']} bytes) → Roll callback: "
          f"p50 (median) {many['p50_ms']} ms, p95 {many['p95_ms']} ms, max {many['max_ms']} ms, "
          f"spread (p95-p5) {many['spread_p95_p5_ms']} ms, stdev {many['stdev_ms']} ms")
    print(f"baseline bare pty write → pyserial read of those bytes: p50 "
          f"{many['baseline_p50_ms']} ms, p95 {many['baseline_p95_ms']} ms; ratio "
          f"{many['latency_ratio_p50']}x; on a 115200-baud UART the bytes alone take "
          f"{many['wire_ms_at_115200']} ms")
    print(f"parser: {figures['lines_per_s']} lines/s (framing + CRC + message), "
          f"plain split {figures['baseline_split_lines_per_s']} lines/s; the wire at 115200 "
          f"baud carries at most {figures['wire_lines_per_s_at_115200']} lines/s")
    print(json.dumps(figures))


if __name__ == "__main__":
    main()

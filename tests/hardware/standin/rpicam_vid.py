"""A stand-in for Raspberry Pi's `rpicam-vid` (no Camera Module here): it accepts the command
line RpicamSource gives, refuses anything else the way a wrong call would fail, and writes
raw I420 (YUV420) frames of the synthetic table's demo script to stdout at --framerate.

Knobs for the tests, in the environment:
- STANDIN_RPICAM_FRAMES=N: exit after N frames (code 1, "camera disconnected" on stderr),
  as rpicam-vid does when the camera goes away; unset: loop the script for ever.
- STANDIN_RPICAM_LOG=FILE: append one line per start (the tests count reconnects).
- STANDIN_RPICAM_CACHE=FILE: the rendered frames, made on the first start and reused (one
  file per frame size: RpicamSource restarts it at full resolution for the dice tray).
- STANDIN_RPICAM_STAMPS=FILE: one line per frame, time.monotonic() as its write began
  (CLOCK_MONOTONIC, the same clock in every process: bench/rpicam.py's frame latency).
"""
from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

import cv2
import numpy as np


def parse(argv: list[str]) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="rpicam-vid")
    parser.add_argument("--nopreview", "-n", action="store_true")
    parser.add_argument("--timeout", "-t", type=int, default=5000)
    parser.add_argument("--codec", default="h264")
    parser.add_argument("--width", type=int, default=640)
    parser.add_argument("--height", type=int, default=480)
    parser.add_argument("--framerate", type=float, default=30.0)
    parser.add_argument("--flush", action="store_true")
    parser.add_argument("--output", "-o", required=True)
    args = parser.parse_args(argv)
    if args.codec != "yuv420" or args.output != "-" or args.timeout != 0:
        parser.error("the stand-in only streams --codec yuv420 --timeout 0 --output -")
    return args


def render(width: int, height: int, cache: Path | None) -> np.ndarray:
    """The demo script's frames as I420, shape (frames, height * 3 / 2, width)."""
    if cache is not None and cache.exists():
        frames = np.load(cache)
        if frames.shape[1:] == (height * 3 // 2, width):
            return frames
    from hardware.synthetic.video import demo_script, render_script

    out = []
    for jpeg, _ in render_script(demo_script()):
        image = cv2.imdecode(np.frombuffer(jpeg, np.uint8), cv2.IMREAD_COLOR)
        if image.shape[:2] != (height, width):
            image = cv2.resize(image, (width, height), interpolation=cv2.INTER_AREA)
        out.append(cv2.cvtColor(image, cv2.COLOR_BGR2YUV_I420))
    frames = np.stack(out)
    if cache is not None:
        np.save(cache, frames)
    return frames


def main(argv: list[str]) -> int:
    args = parse(argv)
    if os.environ.get("STANDIN_RPICAM_LOG"):
        with open(os.environ["STANDIN_RPICAM_LOG"], "a") as log:
            log.write(" ".join(argv) + "\n")
    cache = os.environ.get("STANDIN_RPICAM_CACHE")
    if cache and (args.width, args.height) != (1280, 720):
        cache = f"{cache}.{args.width}x{args.height}.npy"
    frames = render(args.width, args.height, Path(cache) if cache else None)
    limit = int(os.environ.get("STANDIN_RPICAM_FRAMES", "0")) or None
    period, due, sent = 1.0 / args.framerate, time.monotonic(), 0
    out = sys.stdout.buffer
    stamps = open(os.environ["STANDIN_RPICAM_STAMPS"], "a", buffering=1) \
        if os.environ.get("STANDIN_RPICAM_STAMPS") else None  # noqa: SIM115
    try:
        while limit is None or sent < limit:
            due += period
            if stamps is not None:
                stamps.write(f"{time.monotonic()}\n")
            out.write(frames[sent % len(frames)].tobytes())
            out.flush()
            sent += 1
            time.sleep(max(0.0, due - time.monotonic()))
    except BrokenPipeError:  # the reader closed the stream: stopped, as rpicam-vid would be
        return 0
    print("ERROR: *** camera disconnected ***", file=sys.stderr)
    return 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

"""The Camera Module through rpicam-vid (hardware/camera/rpicam.py) against the gray frames
the recogniser had before: recogniser CPU a frame, the source's own cost, frame latency.

    .venv/bin/python bench/rpicam.py [--runs 9] [--frames 100] [--latency-frames 150]

No Camera Module here: the stand-in rpicam-vid (tests/hardware/standin/rpicam_vid.py)
streams I420 frames of the synthetic demo table through a real pipe into the real
RpicamSource. Same process, interleaved runs:
- recogniser CPU a frame (process CPU time over the demo's frames through a fresh
  Recognizer) on the Y planes read through rpicam-vid, and on the baseline: the same
  renders converted to gray in process (what the YUYV and Picamera2 sources hand over);
  `recognizer_ratio` = rpicam / baseline (1.0: unchanged);
- `read_cpu_ms_per_frame`: this process's CPU a frame to read a 1280x720 I420 frame from
  the pipe and hand over its Y plane (the stand-in at the pinned 2304x1296 mode's top rate,
  56 fps);
- `latency_ms`: the stand-in stamps CLOCK_MONOTONIC as it starts writing each frame at
  30 fps; the delay until read() returns it (median, p95), against the frame period.
The stand-in is the Camera Module 3 on a Pi 5 (its defaults) with no exposure ramp, and the
source drops no settling frames (``settle_seconds=0``): the steady stream is measured.
Prints medians and spread, then ONE last line: a JSON object of the figures.
"""
from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

import cv2
import numpy as np

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from hardware.camera.recognizer import Recognizer  # noqa: E402
from hardware.camera.rpicam import RpicamSource  # noqa: E402
from hardware.camera.zones import ZoneMap  # noqa: E402
from hardware.synthetic import video as table_video  # noqa: E402


def stand_in(folder: Path) -> Path:
    program = folder / "rpicam-vid"
    program.write_text(f"#!/bin/sh\nPYTHONPATH={REPO} exec {sys.executable} "
                       f"-m tests.hardware.standin.rpicam_vid \"$@\"\n")
    program.chmod(0o755)
    return program


def read_frames(program: Path, count: int, fps: int) -> tuple[list[np.ndarray], float]:
    """``count`` frames through RpicamSource (the demo's from its first), and this
    process's CPU ms a frame for reading all but the first."""
    source = RpicamSource(fps=fps, program=str(program), settle_seconds=0)
    source.open()
    try:
        frames = [source.read()]  # the child's start-up (rendering, caching) out of the figure
        cpu = time.process_time()
        frames += [source.read() for _ in range(count - 1)]
        return frames, (time.process_time() - cpu) * 1000 / max(1, count - 1)
    finally:
        source.close()


def recogniser_cpu(grays: list[np.ndarray]) -> float:
    recognizer = Recognizer(zones=ZoneMap(table_video.DEMO_ZONES))
    cpu = time.process_time()
    for index, gray in enumerate(grays):
        recognizer.process(gray, index / 30)
    return (time.process_time() - cpu) * 1000 / len(grays)


def latency(program: Path, count: int, stamps: Path) -> list[float]:
    os.environ["STANDIN_RPICAM_STAMPS"] = str(stamps)
    source = RpicamSource(fps=30, program=str(program), settle_seconds=0)
    source.open()
    arrived = []
    try:
        for _ in range(count + 1):
            source.read()
            arrived.append(time.monotonic())
    finally:
        source.close()
        del os.environ["STANDIN_RPICAM_STAMPS"]
    written = [float(line) for line in stamps.read_text().split()]
    return [(a - w) * 1000 for a, w in zip(arrived[1:], written[1:], strict=False)]


def spread(values: list[float]) -> str:
    return (f"median {statistics.median(values):.3f} (min {min(values):.3f}, "
            f"max {max(values):.3f}, {len(values)} runs)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--runs", type=int, default=9)  # the same bytes each side: noise only
    parser.add_argument("--frames", type=int, default=100)
    parser.add_argument("--latency-frames", type=int, default=150)
    args = parser.parse_args()
    folder = Path(tempfile.mkdtemp(prefix="bench-rpicam-"))
    os.environ["STANDIN_RPICAM_CACHE"] = str(folder / "frames")
    os.environ["STANDIN_RPICAM_RAMP"] = "0"
    program = stand_in(folder)

    baseline = []
    for jpeg, _ in table_video.render_script(table_video.demo_script()):
        image = cv2.imdecode(np.frombuffer(jpeg, np.uint8), cv2.IMREAD_COLOR)
        baseline.append(cv2.cvtColor(image, cv2.COLOR_BGR2GRAY))
    baseline = baseline[: args.frames]
    ours, read_cpu = read_frames(program, len(baseline), fps=1000)
    same = max(int(np.abs(a.astype(np.int16) - b).max()) for a, b in zip(ours, baseline,
                                                                         strict=True))
    print(f"frames: {len(ours)} of 1280x720; largest Y vs in-process gray difference: "
          f"{same} gray levels (the same renders, in the same order)")

    rpicam_runs, baseline_runs, reads = [], [], [read_cpu]
    for run in range(args.runs):  # interleaved: the shared machine's load hits both alike,
        # each first in every other run (the second of a pair finds warmer caches)
        for frames, runs in ((baseline, baseline_runs), (ours, rpicam_runs))[::1 - 2 * (run % 2)]:
            runs.append(recogniser_cpu(frames))
    for _ in range(args.runs - 1):
        reads.append(read_frames(program, 60, fps=1000)[1])
    ratio = statistics.median(rpicam_runs) / statistics.median(baseline_runs)
    print(f"recogniser CPU ms a frame, rpicam-vid Y planes: {spread(rpicam_runs)}")
    print(f"recogniser CPU ms a frame, baseline in-process gray: {spread(baseline_runs)}")
    print(f"ratio rpicam / baseline: {ratio:.3f}")
    print(f"RpicamSource read CPU ms a frame (this process): {spread(reads)}")
    delays = latency(program, args.latency_frames, folder / "stamps.txt")
    delays.sort()
    p95 = delays[int(0.95 * (len(delays) - 1))]
    print(f"frame latency (write start -> read() returns) at 30 fps: median "
          f"{statistics.median(delays):.2f} ms, p95 {p95:.2f} ms, max {max(delays):.2f} ms "
          f"({len(delays)} frames; frame period 33.3 ms)")
    print(json.dumps({
        "recognizer_cpu_ms_per_frame": round(statistics.median(rpicam_runs), 3),
        "baseline_cpu_ms_per_frame": round(statistics.median(baseline_runs), 3),
        "recognizer_ratio": round(ratio, 3),
        "recognizer_min_max": [round(min(rpicam_runs), 3), round(max(rpicam_runs), 3)],
        "baseline_min_max": [round(min(baseline_runs), 3), round(max(baseline_runs), 3)],
        "read_cpu_ms_per_frame": round(statistics.median(reads), 3),
        "latency_median_ms": round(statistics.median(delays), 2),
        "latency_p95_ms": round(p95, 2), "frames": len(ours), "runs": args.runs,
        "max_gray_difference": same}))


if __name__ == "__main__":
    main()

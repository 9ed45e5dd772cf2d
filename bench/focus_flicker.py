"""Focus and flicker bench (issue 62): stickers found through the stand-in rpicam-vid's lens
and lights, the old invocation against the new, the same frames, one run.

    .venv/bin/python bench/focus_flicker.py [--scenes 3] [--flicker-frames 12]

For each scene (hardware.synthetic.conditions "harsh_small": a real table, 30 mm stickers at
60 cm, 2.4-2.6 px modules), the stand-in's optics (tests/hardware/standin/rpicam_optics.py,
driven frame by frame in this process: deterministic, no pacing) make the frames a Camera
Module 3 sends:

- focus: a hand and a striped sleeve crossing 20 cm and 25 cm under the lens (the table
  60 cm) over 40 frames of 46, with
  rpicam-vid's default (continuous AF) and with ``--autofocus-mode manual --lens-position
  1.667`` (the new invocation);
- flicker: fully modulated 50 Hz lights at a 15 ms shutter without and with
  ``--flicker-period 10000us``, and at a 5 ms shutter (a bright room) with it;
- the scan's window: ``--autofocus-mode auto`` (one scan, the lens from 1.0 D) while a hand
  and sleeve 40 cm under the lens lie on the frame's right, the scan weighing the whole
  frame against ``--autofocus-window`` around the board marker (`table_window` from the
  scene's calibration); ``lens_end``: where the scan left the lens (the table: 1.667 D).

``--only PREFIX`` runs only the cases whose name starts with it (e.g. ``scan``).

Each frame's Y plane goes through a fresh Recognizer; found = stickers read / stickers x
frames. Prints a table, then ONE last line: a JSON object of the figures (found rates,
ripple measured by the BandingMeter, the lens's furthest drift in dioptres).
"""
from __future__ import annotations

import argparse
import json
import os
import sys
import time
import types
from pathlib import Path

import cv2

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from hardware.camera.recognizer import Recognizer  # noqa: E402
from hardware.camera.sharp_steady import BandingMeter, table_window  # noqa: E402
from hardware.synthetic import conditions  # noqa: E402
from tests.hardware.standin.rpicam_optics import Optics  # noqa: E402

TABLE = round(1 / 0.6, 3)
HANDS = {"20cm": "5:40:0.2", "25cm": "5:40:0.25"}  # first frame, frames, metres from the lens


def args_for(lens: float | None = None, flicker: str = "0s", mode: str = "default",
             window: str = "0,0,0,0") -> types.SimpleNamespace:
    return types.SimpleNamespace(
        autofocus_mode=mode, lens_position=None if lens is None else str(lens),
        autofocus_speed="normal", autofocus_window=window, flicker_period=flicker)


def scan_cases(image) -> dict:
    """One AF scan with a hand beside the board: over the whole frame, and in the table's
    window from the calibration the recogniser takes from this scene."""
    recognizer = Recognizer()
    recognizer.process(cv2.cvtColor(image, cv2.COLOR_BGR2GRAY), 0.0)
    window = table_window(recognizer.calibration, image.shape[1], image.shape[0],
                          [(0.0, 0.0)], 40.0)
    hand = {"STANDIN_RPICAM_HAND": "-30:40:0.4"}
    text = ",".join(f"{v:.3f}" for v in window) if window else "0,0,0,0"
    return {"scan_whole_frame_40cm": (args_for(mode="auto"), 14, hand),
            "scan_table_window_40cm": (args_for(mode="auto", window=text), 14, hand)}


def run(image, stickers: set, args, frames: int, env: dict
        ) -> tuple[int, float, float, float]:
    """(stickers read over ``frames`` frames, the meter's ripple, the lens's furthest drift,
    where the lens ended)."""
    saved = {k: os.environ.get(k) for k in env}
    os.environ.update(env)
    try:
        optics = Optics(args, "imx708", image.shape[1], image.shape[0], 56.0, 30.0)
    finally:
        for k, v in saved.items():
            if v is None:
                os.environ.pop(k, None)
            else:
                os.environ[k] = v
    meter, read, drift = BandingMeter(), 0, 0.0
    for index in range(frames):
        optics.step(index, lambda: (image, 0))
        frame = image if optics.trivial(index) else optics.apply(index, image, 0)
        gray = cv2.cvtColor(frame, cv2.COLOR_BGR2YCrCb)[:, :, 0]  # the Y plane sent
        meter.update(gray)
        drift = max(drift, abs(optics.lens - TABLE))
        got = {s.payload for s in Recognizer().process(gray, 0.0).sightings}
        read += len(got & stickers)
    return read, meter.ripple, drift, optics.lens


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--scenes", type=int, default=3)
    parser.add_argument("--flicker-frames", type=int, default=12)
    parser.add_argument("--only", default="", help="only the cases starting with this")
    opts = parser.parse_args()
    started = time.monotonic()
    cases = {}
    for name, hand in HANDS.items():
        cases[f"focus_continuous_{name}"] = (args_for(), 46, {"STANDIN_RPICAM_HAND": hand})
        cases[f"focus_locked_{name}"] = (args_for(TABLE), 46, {"STANDIN_RPICAM_HAND": hand})
    cases.update({
        "flicker_on": (args_for(TABLE), opts.flicker_frames,
                       {"STANDIN_RPICAM_LIGHT": "50:1.0:15000"}),
        "flicker_cancelled": (args_for(TABLE, "10000us"), opts.flicker_frames,
                              {"STANDIN_RPICAM_LIGHT": "50:1.0:15000"}),
        "flicker_bright_room": (args_for(TABLE, "10000us"), opts.flicker_frames,
                                {"STANDIN_RPICAM_LIGHT": "50:1.0:5000"}),
    })
    totals: dict[str, list] = {}
    for scene in range(opts.scenes):
        image, truth = conditions.frame("harsh_small", scene)
        stickers = {t.payload for t in truth if t.rotation is not None}
        for name, (args, frames, env) in {**cases, **scan_cases(image)}.items():
            if not name.startswith(opts.only):
                continue
            read, ripple, drift, lens = run(image, stickers, args, frames, env)
            total = totals.setdefault(name, [0, 0, 0.0, 0.0, []])
            total[0] += read
            total[1] += len(stickers) * frames
            total[2] = max(total[2], ripple)
            total[3] = max(total[3], drift)
            total[4].append(lens)
    figures = {}
    print(f"{'case':24} {'found':>7} {'of':>6} {'rate':>6} {'ripple':>7} {'drift D':>8} "
          f"{'lens end D':>14}")
    for name, (read, of, ripple, drift, ends) in totals.items():
        rate = read / of if of else 0.0
        end = f"{min(ends):.2f}-{max(ends):.2f}"
        print(f"{name:24} {read:7d} {of:6d} {rate:6.3f} {ripple:7.3f} {drift:8.2f} {end:>14}")
        figures[f"{name}_found"] = round(rate, 4)
        figures[f"{name}_ripple"] = round(ripple, 4)
        if name.startswith("focus"):
            figures[f"{name}_drift_dioptres"] = round(drift, 2)
        if name.startswith("scan"):
            figures[f"{name}_lens_end"] = [round(v, 3) for v in ends]
    figures["scenes"] = opts.scenes
    figures["seconds"] = round(time.monotonic() - started, 1)
    print(json.dumps(figures))


if __name__ == "__main__":
    main()

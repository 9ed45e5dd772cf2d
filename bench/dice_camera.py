"""The camera's pip-dice reader on rendered throws (hardware/synthetic/dice_tray.py).

Prints median and spread of CPU per roll, and a JSON last line: faces_right (settled,
readable dice read right), faces_wrong, unreadable (share of settled dice), rolls_missed,
rolls_doubled, cpu_ms_per_roll (+ the Pi estimate, x5), and the same figures for a baseline
run in the same process: OpenCV's SimpleBlobDetector counting pips near each true die.
Figures are noisy on a shared machine."""
from __future__ import annotations

import argparse
import json
import math
import statistics
import time

import cv2

from hardware.camera.dice_settle import DiceSettler
from hardware.camera.recognizer import OPENCV_THREADS
from hardware.synthetic import dice_tray

THROWS = 20
DICE = 12
SIDES = (28.0, 32.0, 36.0, 40.0, 44.0)  # px across: the crop is scaled so dice are >= 28 px


def nearest(dice, die):
    best = min(dice, key=lambda d: math.hypot(d.centre[0] - die.x, d.centre[1] - die.y),
               default=None)
    if best is None or math.hypot(best.centre[0] - die.x, best.centre[1] - die.y) > die.side / 2:
        return None
    return best


def baseline(image, truth) -> list[int]:
    params = cv2.SimpleBlobDetector_Params()
    params.filterByArea, params.minArea, params.maxArea = True, 6, 80
    params.filterByCircularity, params.minCircularity = True, 0.6
    dark = cv2.SimpleBlobDetector_create(params)
    params.blobColor = 255
    light = cv2.SimpleBlobDetector_create(params)
    gray = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)
    points = [k.pt for k in dark.detect(gray) + light.detect(gray)]
    return [sum(math.hypot(x - d.x, y - d.y) < d.side * 0.45 for x, y in points) for d in truth]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sides", default=",".join(f"{s:g}" for s in SIDES),
                        help="die sizes in px across, comma-separated (default %(default)s)")
    sides = tuple(float(s) for s in parser.parse_args().sides.split(","))
    if OPENCV_THREADS > 0:  # as the app's camera pipeline runs (hardware/camera/recognizer.py)
        cv2.setNumThreads(OPENCV_THREADS)
    right = wrong = unread = counted = missed = doubled = 0
    b_right = b_counted = 0
    ms, b_ms, readings = [], [], 0
    for seed in range(THROWS):
        settler, rolls, cpu = DiceSettler(), [], 0.0
        truth = None
        for image, dice, phase in dice_tray.throw(1000 + seed, DICE, sides[seed % len(sides)],
                                                   settled_frames=6):
            start = time.process_time()
            roll = settler.feed(image)
            cpu += time.process_time() - start
            if roll is not None:
                rolls.append((roll, settler.last_reading, list(settler.unreadable)))
            if phase == "settled":
                truth, last_image = dice, image
        readings += settler.readings
        ms.append(cpu * 1000)
        missed += not rolls
        doubled += max(0, len(rolls) - 1)
        if rolls:
            _, reading, unreadable = rolls[0]
            for die in truth:
                seen = nearest(reading.dice, die)
                if die.cocked and (seen is None or seen.face is None):
                    continue
                counted += 1
                if seen is None or seen.face is None:
                    unread += 1
                elif seen.face == die.face:
                    right += 1
                else:
                    wrong += 1
        start = time.process_time()
        counts = baseline(last_image, truth)
        b_ms.append((time.process_time() - start) * 1000)
        for die, count in zip(truth, counts, strict=True):
            if not die.cocked:
                b_counted += 1
                b_right += count == die.face
    readable = counted - unread
    per_roll = statistics.median(ms)
    print(f"cpu per roll (every frame: motion checks, readings): median {per_roll:.1f} ms, "
          f"spread {min(ms):.1f}-{max(ms):.1f} ms; baseline median {statistics.median(b_ms):.1f}"
          f" ms per frame")
    print(json.dumps({
        "faces_right": round(right / readable, 4) if readable else 0.0,
        "faces_wrong": wrong, "unreadable": round(unread / counted, 4) if counted else 1.0,
        "rolls_missed": missed, "rolls_doubled": doubled,
        "cpu_ms_per_roll": round(per_roll, 1),
        "cpu_ms_per_roll_pi_estimate": round(per_roll * 5, 1),
        "opencv_threads": cv2.getNumThreads(),
        "die_px": list(sides), "throws": THROWS, "readings_per_roll": round(readings / THROWS, 2),
        "baseline_blob_faces_right": round(b_right / b_counted, 4) if b_counted else 0.0,
        "baseline_cpu_ms_per_frame": round(statistics.median(b_ms), 1)}))


if __name__ == "__main__":
    main()

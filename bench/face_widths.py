"""What reading a card's face from a sharper crop costs (companion/wiring/camera_faces.py,
docs/camera.md "How a card is cropped"): the drawn game deck (24 faces,
hardware/synthetic/card_faces_scene.py) taught as a `FaceBook`; the first `too_alike` at
each card width (made once per 20 px step, the first time the camera reads a card that
wide, on the camera thread: why the reader brings every wider crop down to one width,
taught_cards `READ_CARD_PX`); and `identify` on one felt scene of four cards rendered
180 px wide, on its half-size downscale (about 90 px, the usual frame) and on the full
render with the corners found in the half-size frame scaled ×2 (the sharp crop). Median
of ``--repeat`` runs per card, ×5 stated for a Pi. Figures are noisy on a shared machine.
JSON last line."""
from __future__ import annotations

import argparse
import json
import statistics
import time

import cv2
import numpy as np

from hardware.camera.card_faces import FaceBook, identify
from hardware.camera.card_finding import find_cards
from hardware.synthetic import card_faces_scene as scenes

PI = 5  # a Pi 4/5 core against this machine's, as the other benches state it


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--widths", default="120,180,240,432")
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    faces = scenes.game_faces()
    result: dict = {"faces": len(faces), "too_alike_first_s": {}, "identify_ms": {}}
    for width in (int(w) for w in args.widths.split(",")):
        book = FaceBook.from_pictures(faces)
        start = time.perf_counter()
        book.too_alike(width)
        took = time.perf_counter() - start
        result["too_alike_first_s"][width] = round(took, 2)
        print(f"too_alike at {width} px, first time: {took:.2f} s (Pi ~{PI * took:.1f} s)")
    image, _, empty = scenes.scene_and_empty(faces, 301, "felt", 180.0, 4)
    h, w = image.shape[:2]
    small = cv2.resize(image, (w // 2, h // 2), interpolation=cv2.INTER_AREA)
    small_empty = cv2.resize(empty, (w // 2, h // 2), interpolation=cv2.INTER_AREA)
    book = FaceBook.from_pictures(faces)
    quads = [np.float32(q).reshape(4, 2) for q in find_cards(small, empty=small_empty)]
    for name, picture, k in (("frame_90px", small, 1), ("crop_180px", image, 2)):
        for quad in quads:  # each width step's judgement made before timing
            identify(picture, quad * k, book)
        times = []
        for _ in range(args.repeat):
            for quad in quads:
                start = time.perf_counter()
                identify(picture, quad * k, book)
                times.append(1000 * (time.perf_counter() - start))
        median = statistics.median(times)
        result["identify_ms"][name] = round(median, 1)
        print(f"identify on the {name}: median {median:.1f} ms over {len(times)} "
              f"(Pi ~{PI * median:.0f} ms)")
    print(json.dumps(result))


if __name__ == "__main__":
    main()

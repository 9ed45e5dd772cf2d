"""The camera wiring's cards known by face (companion/wiring/camera_faces.py `FaceReader`)
on rendered frames of World Without End's table: a bare event card laid on the council
space (the demo's drawn faces, all 44 taught), then the table still.

Per card laid: frames from the card's first frame at rest to its sighting (the reader waits
`REST_FRAMES` still frames; at 30 fps, ms), right (id and quarter turn), wrong, unread; the
CPU of the look that names it (find the outlines, identify); and the CPU the reader adds to
each frame while the table is still (looks: none; the baseline in the same run is the
recogniser's own still-frame step, which the camera runs anyway). Median and spread
(interquartile), CPU x5 for the Pi. Figures are noisy on a shared machine. JSON last line.
"""
from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path[0] = str(Path(__file__).resolve().parents[1])  # the repository, not bench/engine.py


def quartiles(values: list[float]) -> dict:
    if not values:
        return {"median": None, "iqr": None}
    if len(values) < 4:
        return {"median": round(statistics.median(values), 3), "iqr": 0.0}
    q = statistics.quantiles(values, n=4)
    return {"median": round(q[1], 3), "iqr": round(q[2] - q[0], 3)}


def run(cards: int, still: int, seed: int) -> dict:
    import random

    from companion.box import taught_cards
    from companion.box.catalog import load_catalog
    from companion.game import games
    from companion.wiring.camera_faces import FaceReader
    from companion.wiring.demo_faces import BareCard, drawn_face
    from companion.wiring.face_judge import FaceJudge
    from engine.wwe.bindings import ZONES
    from hardware.camera.recognizer import Recognizer
    from hardware.camera.zones import ZoneMap, rects
    from hardware.synthetic.scene import Camera, Placement
    from hardware.synthetic.video import MARKER_AT, board_to_table
    from hardware.tags.format import BOARD_MARKER

    info, catalog = games.module_of("wwe").info, load_catalog("wwe")
    data = Path(tempfile.mkdtemp(prefix="cards-at-rest-"))
    ids = [e["id"] for e in catalog["event_cards"]]
    for card in ids:
        taught_cards.save_face("wwe", data, info, catalog, card, drawn_face(card))
    rnd = random.Random(seed)
    camera = Camera.create(seed)
    marker = Placement(BOARD_MARKER, *MARKER_AT, 0.0, marker=True)
    recognizer = Recognizer(zones=ZoneMap(rects((z.id, z.rect) for z in ZONES)))
    reader = FaceReader(data, FaceJudge(data, inline=True))
    out = {"right": 0, "wrong": 0, "unread": 0, "turn_right": 0}
    frames_to_id, look_ms, still_ms, base_ms = [], [], [], []

    def frame(hands, k):
        image, _ = camera.render([marker], seed=k, hands=hands)
        return image

    empty = frame([], 0)
    for _ in range(6):  # the table seen empty first
        reader.look("wwe", empty, recognizer.process(empty), recognizer.calibration,
                    recognizer.zones)
    for n in range(cards):
        card, quarter = rnd.choice(ids), rnd.randrange(4)
        x, y = board_to_table(rnd.uniform(-15, 15), rnd.uniform(52, 68))
        picture = drawn_face(card)
        laid = frame([BareCard(card, x, y, rnd.uniform(-6, 6) + 90 * quarter, picture)], n + 1)
        said, waited = [], 0
        while not said and waited < 30:
            waited += 1
            result = recognizer.process(laid)
            looks = reader.looks
            start = time.process_time()
            said = reader.look("wwe", laid, result, recognizer.calibration, recognizer.zones)
            spent = (time.process_time() - start) * 1000
            if reader.looks > looks:
                look_ms.append(spent)
        seen = [s for s in said if s.change != "removed"]
        if not seen:
            out["unread"] += 1
        elif seen[0].card == card:
            out["right"] += 1
            out["turn_right"] += seen[0].rotation == quarter
            frames_to_id.append(waited)
        else:
            out["wrong"] += 1
        for _ in range(still):  # the table still: what the reader adds per frame
            start = time.process_time()
            result = recognizer.process(laid)
            middle = time.process_time()
            reader.look("wwe", laid, result, recognizer.calibration, recognizer.zones)
            still_ms.append((time.process_time() - middle) * 1000)
            base_ms.append((middle - start) * 1000)
        for _ in range(6):  # taken away again
            reader.look("wwe", empty, recognizer.process(empty), recognizer.calibration,
                        recognizer.zones)
    looks_still = reader.looks
    out.update(
        cards=cards,
        frames_rest_to_id=quartiles(frames_to_id),
        ms_rest_to_id_at_30fps=quartiles([f * 1000 / 30 for f in frames_to_id]),
        cpu_ms_per_look=quartiles(look_ms),
        cpu_ms_per_look_pi=quartiles([v * 5 for v in look_ms]),
        cpu_ms_added_per_still_frame=quartiles(still_ms),
        cpu_ms_recogniser_still_frame_baseline=quartiles(base_ms),
        looks=looks_still)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cards", type=int, default=20)
    parser.add_argument("--still", type=int, default=30, help="still frames after each card")
    parser.add_argument("--seed", type=int, default=3)
    args = parser.parse_args()
    figures = run(args.cards, args.still, args.seed)
    for key, value in figures.items():
        print(f"{key}: {value}")
    print(json.dumps(figures))


if __name__ == "__main__":
    main()

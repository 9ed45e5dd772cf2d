"""Which cards of each game the camera tells apart by their printed face (issue 63): per
game, the cards it declares (`Bindings.face_parts`), drawn as its data says they are
printed (`Bindings.face_looks`, companion/wiring/demo_faces.py `looked_face`: the demo's
faces, our renders standing in for the printed cards), taught as one `FaceBook` (all of a
game's face cards together, as the deck page teaches them); at each ``--widths`` card width
(120 px: the usual 1280x720 frame at about 50 cm; 240 px: the Pi's sharp crop, taught_cards
`READ_CARD_PX`): per part, the cards told apart (in no pair `too_alike`), the pairs too
alike (they keep their sticker, the deck page lists them) and the cards whose turn cannot
be told; then ``--scenes`` rendered tables per family (hardware/synthetic/card_faces_scene.py,
4 cards each, outlines found against the empty table) with bench/cards_by_face.py's
figures: right / wrong (must be 0) / unknown, right of the cards told apart, turn right.
Figures are noisy on a shared machine. JSON last line."""
from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

import cv2

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))  # the repository's engine package, not bench/engine.py

from bench.cards_by_face import run  # noqa: E402
from companion.box import taught_cards  # noqa: E402
from companion.box.catalog import load_catalog  # noqa: E402
from companion.game import games  # noqa: E402
from companion.wiring.demo_faces import looked_face  # noqa: E402
from hardware.camera import card_faces  # noqa: E402
from hardware.camera.recognizer import OPENCV_THREADS  # noqa: E402


def game_faces(game: str) -> tuple[dict, dict]:
    """({card id: drawn face}, {card id: part}) of ``game``'s face cards."""
    info = games.module_of(game).info
    catalog = load_catalog(game)
    looks = taught_cards.face_looks(info)
    faces, parts = {}, {}
    for card in taught_cards.face_cards(info, catalog):
        entry = next(e for e in catalog[card.part] if e.get("id") == card.id)
        faces[card.id] = looked_face(entry, looks[card.part])
        parts[card.id] = card.part
    return faces, parts


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", default="wwe,pillars,monasterium")
    parser.add_argument("--widths", default="120,240")
    parser.add_argument("--scenes", type=int, default=6, help="scenes (4 cards) per family")
    parser.add_argument("--families", default="wood,held_out")
    args = parser.parse_args()
    if OPENCV_THREADS > 0:
        cv2.setNumThreads(OPENCV_THREADS)
    report: dict = {}
    for game in args.games.split(","):
        info = games.module_of(game).info
        if not info.bindings.face_parts:
            report[game] = {"face_parts": []}
            print(f"{game:12s} declares no cards known by face", flush=True)
            continue
        faces, parts = game_faces(game)
        book = card_faces.FaceBook.from_pictures(faces)
        out = {"face_parts": list(info.bindings.face_parts), "faces": len(faces), "widths": {}}
        for width in (int(w) for w in args.widths.split(",")):
            start = time.perf_counter()
            pairs = book.too_alike(width)
            judged_s = time.perf_counter() - start
            turn = book.turn_alike(width)
            alike = {i for pair in pairs for i in pair}
            per_part = {}
            for part in info.bindings.face_parts:
                ids = [i for i in faces if parts[i] == part]
                per_part[part] = {"cards": len(ids), "told_apart": sum(i not in alike for i in ids),
                                  "too_alike": sorted(list(p) for p in pairs if parts[p[0]] == part
                                                      or parts[p[1]] == part),
                                  "turn_unknown": sorted(i for i in turn if parts[i] == part)}
                p = per_part[part]
                print(f"{game:12s} {width:4d} px {part:14s} told apart {p['told_apart']:3d} of "
                      f"{p['cards']:3d}; too alike {p['too_alike']}; turn unknown "
                      f"{p['turn_unknown']}", flush=True)
            families = {}
            for index, family in enumerate(args.families.split(",")):
                r = run(faces, book, family, args.scenes, float(width), 7000 + 1000 * index, True)
                families[family] = {k: r[k] for k in (
                    "cards", "found", "right", "wrong", "unknown", "right_distinct",
                    "turn_right", "turn_wrong", "false_outlines", "cpu_ms_identify")}
                f = families[family]
                print(f"{game:12s} {width:4d} px {family:9s} right {f['right']:.3f} wrong "
                      f"{f['wrong']} unknown {f['unknown']:.3f} (right of told apart "
                      f"{f['right_distinct']:.3f}) turn {f['turn_right']:.3f} wrong "
                      f"{f['turn_wrong']} false {f['false_outlines']} | cpu id "
                      f"{f['cpu_ms_identify']:.1f} ms", flush=True)
            out["widths"][width] = {"parts": per_part, "families": families,
                                    "too_alike_first_s": round(judged_s, 1)}
        report[game] = out
    print(json.dumps({"games": report, "scenes_per_family": args.scenes,
                      "wrong": sum(f["wrong"] for g in report.values()
                                   for w in g.get("widths", {}).values()
                                   for f in w["families"].values())}))


if __name__ == "__main__":
    main()

"""Real photographs of real cards on real tables, the yardstick of the recogniser of cards by
their printed face (hardware/camera/card_faces.py): phone photos of the SET card game on dark
wood and grey carpet, taught from one real photograph of each of the 81 faces.

The pictures are not in this repository: their source repository (github.com/nicolashahn/
set-solver) has no licence on its own branch (an MIT licence file exists only in an unmerged
pull request), so they are prepared beside the checkout, like the playing-card deck
(``PHOTOS``: ../shared/data/set-photos, or the ``SET_PHOTOS`` environment variable), from a
checkout of that repository at the commit ``truth.json`` names:
``python -m hardware.synthetic.real_photos prepare SOURCE_CHECKOUT [DEST]``. The ground truth
(each card's face id and corners, labelled here by hand) is ours and is in the repository:
tests/data/set-photos/truth.json. Missing pictures: the benches and tests that need them skip.
One licensed photograph of the same deck (tests/data/set-photos/licensed: MIT, from
github.com/ivankeller/setgame) is in the repository with its own truth: ``licensed_photos``
loads it anywhere, so the tests that need no taught faces run in CI. Knows no game.
"""
from __future__ import annotations

import json
import os
import sys
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

ROOT = Path(__file__).resolve().parents[2]
TRUTH = ROOT / "tests" / "data" / "set-photos" / "truth.json"
PHOTOS = Path(os.environ.get("SET_PHOTOS", ROOT / ".." / "shared" / "data" / "set-photos"))
LICENSED = ROOT / "tests" / "data" / "set-photos" / "licensed"  # photo, truth, LICENSE
LONG_SIDE = 1344  # px: the long side the photos are brought down to (about a table frame's)
FACE_SIZE = (200, 300)  # px: the taught faces, upright (the source's are lying sideways)


@dataclass(frozen=True)
class Photo:
    """One photograph: its file ``name``, ``part`` (dev, held_out, full_size), the
    ``image`` (BGR) and its ``cards``: (face id, four corners clockwise in its pixels)."""

    name: str
    part: str
    image: np.ndarray
    cards: tuple[tuple[str, np.ndarray], ...]


def truth(path: Path = TRUTH) -> dict:
    return json.loads(path.read_text(encoding="utf-8"))


def available(folder: Path = PHOTOS) -> bool:
    return (folder / "faces").is_dir() and (folder / "photos").is_dir()


def load_faces(folder: Path = PHOTOS) -> dict[str, np.ndarray]:
    """The 81 taught faces: id -> upright BGR picture (one real photograph of each)."""
    return {p.stem: cv2.imread(str(p)) for p in sorted((folder / "faces").glob("*.jpg"))}


def photos(folder: Path = PHOTOS, parts: tuple[str, ...] = ("dev", "held_out")
           ) -> list[Photo]:
    """The labelled photographs of ``parts`` (the full-size one only when asked for)."""
    return _photos(truth(), folder / "photos", parts)


def _photos(labels: dict, folder: Path, parts: tuple[str, ...]) -> list[Photo]:
    out = []
    for name, entry in labels["photos"].items():
        if entry["part"] not in parts:
            continue
        image = cv2.imread(str(folder / name))
        if image is None:
            raise FileNotFoundError(folder / name)
        cards = tuple((c["id"], np.float32(c["corners"])) for c in entry["cards"])
        out.append(Photo(name, entry["part"], image, cards))
    return out


def licensed_photos(folder: Path = LICENSED) -> list[Photo]:
    """The licensed photographs kept in the repository, with their truth (part
    ``licensed``)."""
    return _photos(truth(folder / "truth.json"), folder, ("licensed",))


def prepare(source: Path, dest: Path = PHOTOS) -> None:
    """Make ``dest`` from a checkout of the source repository: each labelled face turned
    upright and brought to ``FACE_SIZE``; each photo brought to ``LONG_SIDE`` (the full-size
    one kept at the phone's own resolution), as truth.json's corners expect."""
    (dest / "faces").mkdir(parents=True, exist_ok=True)
    (dest / "photos").mkdir(parents=True, exist_ok=True)
    for path in sorted((source / "image-data" / "all-cards" / "labeled").glob("*.jpg")):
        face = cv2.rotate(cv2.imread(str(path)), cv2.ROTATE_90_CLOCKWISE)
        face = cv2.resize(face, FACE_SIZE, interpolation=cv2.INTER_AREA)
        cv2.imwrite(str(dest / "faces" / path.name), face, [cv2.IMWRITE_JPEG_QUALITY, 90])
    for name, entry in truth()["photos"].items():
        image = cv2.imread(str(source / entry["source"]))
        scale = entry["scale_from_source"]
        if scale != 1.0:
            image = cv2.resize(image, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA)
        quality = 85 if entry["part"] == "full_size" else 88
        cv2.imwrite(str(dest / "photos" / name), image, [cv2.IMWRITE_JPEG_QUALITY, quality])


if __name__ == "__main__":
    if len(sys.argv) < 3 or sys.argv[1] != "prepare":
        sys.exit("usage: python -m hardware.synthetic.real_photos prepare SOURCE_CHECKOUT [DEST]")
    prepare(Path(sys.argv[2]), Path(sys.argv[3]) if len(sys.argv) > 3 else PHOTOS)

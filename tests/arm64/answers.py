"""The answers the appliance's code gives, as JSON: the same script on x86 and on arm64.

`tests/arm64/check.py` runs it with the host's Python and with the arm64 root's (under
qemu-aarch64-static), then compares what the two printed. It needs only the installed app
and its lock (no test tools, no checkout on the path), so it runs inside the arm64 root:

    python answers.py render DIR [--short]        # x86 only: the frames, into DIR
    python answers.py answer DIR OUT [--short] [--readers-only] [--nudge MODULE:NAME=VALUE]

`render` draws the frames once (the synthetic renderers use floats too: rendering them on
each side would compare renderers, not readers) and copies the photos; `answer` reads
every file of DIR/manifest.json with the camera's readers, imports every module, replays
the golden records through `companion replay`, and writes OUT. ``--nudge`` changes a
module constant before anything is read (the planted fault of tests/arm64/test_arm64.py).
"""
from __future__ import annotations

import argparse
import contextlib
import hashlib
import importlib
import io
import json
import platform
import shutil
import sys
import traceback
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parents[1]
GOLDEN = REPO / "tests" / "golden"
PACKAGES = ("engine", "companion", "hardware")


# --- the frames (x86, once) -------------------------------------------------------------

def render(out: Path, short: bool) -> None:
    """Frames of every reader into ``out`` and their list in ``out/manifest.json``."""
    import cv2

    from hardware.synthetic import card_faces_scene as scenes
    from hardware.synthetic import conditions, dice_independent, dice_tray
    from hardware.synthetic.scene import random_scene
    from hardware.tags.format import card_payload

    out.mkdir(parents=True, exist_ok=True)
    files: list[dict] = []

    def save(name: str, image, reader: str, **extra) -> None:
        cv2.imwrite(str(out / name), image)
        files.append({"file": name, "reader": reader, **extra})

    def jpeg(name: str, image, reader: str, quality: int = 80, **extra) -> None:
        """As a camera sends it: the JPEG decoded on each side (libjpeg's SIMD differs)."""
        ok, data = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, quality])
        (out / name).write_bytes(data.tobytes())
        files.append({"file": name, "reader": reader, **extra})

    n = 2 if short else 6
    payloads = [card_payload("wwe", "E", f"event_{i}") for i in range(6)]
    for seed in range(n):  # QR stickers: plain scenes, then the harsh conditions
        image, _ = random_scene(seed + 1, payloads, marker_angle=30 * seed)
        save(f"qr-scene-{seed}.png", image, "qr")
    names = conditions.ALL[::3] if short else conditions.ALL
    for index, name in enumerate(names):
        image, _ = conditions.frame(name, index)
        save(f"qr-{name}-{index}.png", image, "qr")
    image, _ = random_scene(40, payloads)
    jpeg("qr-scene-40.jpg", image, "qr")

    faces = scenes.game_faces()  # card faces: taught from files both sides read
    (out / "faces-game").mkdir(exist_ok=True)
    for face_id, picture in faces.items():
        cv2.imwrite(str(out / "faces-game" / f"{face_id}.png"), picture)
    # a face book checks its faces against each other once per card size (seconds each
    # here, minutes under qemu): the short form reads few cards of a few sizes
    scenes_of = [("felt", 20), ("felt", 21)] if short else [
        (family, seed) for family in ("felt", "wood", "board") for seed in range(20, 24)]
    for family, seed in scenes_of:
        image, _ = scenes.scene(faces, seed, family, 140.0, 4)
        save(f"cards-{family}-{seed}.png", image, "cards", book="faces-game")
    if not short:
        image, _ = scenes.scene(faces, 30, "wood", 140.0, 4)
        jpeg("cards-wood-30.jpg", image, "cards", book="faces-game")
    if not short and scenes.PLAYING_DECK.is_dir():  # the shared data's cards, where present
        (out / "faces-playing").mkdir(exist_ok=True)
        for picture in sorted(scenes.PLAYING_DECK.glob("*_of_hearts.png")):  # 13: the book's
            shutil.copyfile(picture, out / "faces-playing" / picture.name)  # check is n²
        deck = scenes.load_faces(out / "faces-playing")
        for seed in range(40, 42):
            image, _ = scenes.scene(deck, seed, "felt", 140.0, 4)
            save(f"cards-playing-{seed}.png", image, "cards", book="faces-playing")

    for seed in range(3 if short else 12):  # dice: both renderers, then the photographs
        image, _ = dice_tray.tray(seed, 10, 34.0)
        save(f"dice-tray-{seed}.png", image, "dice")
        stills, _ = dice_independent.render(dice_independent.plan(seed))
        save(f"dice-independent-{seed}.png", stills[0], "dice")
    image, _ = dice_tray.tray(50, 10, 34.0)
    jpeg("dice-tray-50.jpg", image, "dice")
    photos = sorted((REPO / "tests" / "hardware" / "dice" / "photos").glob("*.png"))
    shared = REPO.parent / "shared" / "data" / "dice-photos"
    if shared.is_dir():
        photos += sorted(shared.glob("*.png"))
    for photo in photos[: 3 if short else None]:
        name = f"dice-photo-{photo.parent.parent.name}-{photo.name}"
        shutil.copyfile(photo, out / name)
        files.append({"file": name, "reader": "dice"})
    (out / "manifest.json").write_text(json.dumps({"short": short, "files": files}, indent=1))


# --- the answers (each side) -------------------------------------------------------------

def nudge(spec: str) -> None:
    """``module:NAME=VALUE``: a constant changed before anything reads (a planted fault)."""
    where, value = spec.split("=", 1)
    module, name = where.split(":", 1)
    setattr(importlib.import_module(module), name, json.loads(value))


def imports() -> dict:
    """Every module of engine/, companion/, hardware/ as installed: "ok" or the error."""
    import pkgutil

    out = {}
    for package in PACKAGES:
        root = importlib.import_module(package)
        names = [package] + [m.name for m in pkgutil.walk_packages(root.__path__, package + ".",
                                                                     onerror=lambda _: None)]
        for name in sorted(names):
            try:
                importlib.import_module(name)
                out[name] = "ok"
            except Exception as exc:  # noqa: BLE001 - listed, not raised
                out[name] = f"{type(exc).__name__}: {exc}"
    return out


def golden_records(short: bool) -> list[Path]:
    records = sorted(GOLDEN.glob("*/*.json"))
    if not short:
        return records
    first: dict[str, Path] = {}
    for path in records:  # one record of each game
        first.setdefault(path.stem.split("-")[0], path)
    return sorted(first.values())


def replays(short: bool, scratch: Path) -> dict:
    """`companion replay` (in this process: under qemu a program cannot start another
    arm64 one) of golden records: the digest of what it printed and of the final state."""
    from companion.box.catalog import load_kind
    from companion.cli import cli
    from engine import record

    out = {}
    for path in golden_records(short):
        golden = json.loads(path.read_text(encoding="utf-8"))
        plain = scratch / f"{path.parent.name}-{path.name}"
        plain.write_text(json.dumps(golden["record"]), encoding="utf-8")
        printed = io.StringIO()
        code = 0
        with contextlib.redirect_stdout(printed):
            try:
                cli.main(["replay", str(plain)], prog_name="companion", standalone_mode=False)
            except SystemExit as exc:
                code = exc.code
            except Exception as exc:  # noqa: BLE001 - an answer like any other
                code = f"{type(exc).__name__}: {exc}"
        kind = load_kind(golden["record"]["game"], None)
        state, _ = record.replay(kind.module, kind.catalog, golden["record"])
        state = json.loads(json.dumps({k: v for k, v in state.items() if k != "cat"}))
        out[f"{path.parent.name}/{path.name}"] = {
            "exit": code,
            "printed": hashlib.sha256(printed.getvalue().encode()).hexdigest(),
            "state": hashlib.sha256(json.dumps(state, sort_keys=True).encode()).hexdigest(),
            "as_recorded": state == golden["state"],
        }
    return out


def read_qr(image) -> list:
    from hardware.camera.decode import Decoder

    return [{"payload": d.payload, "corners": [list(map(float, c)) for c in d.corners],
             "angle": float(d.angle)} for d in Decoder().decode(image)]


_BOOKS: dict = {}


def read_cards(image, folder: Path) -> list:
    from hardware.camera.card_faces import FaceBook, recognise
    from hardware.synthetic.card_faces_scene import load_faces

    if folder not in _BOOKS:
        _BOOKS[folder] = FaceBook.from_pictures(load_faces(folder))
    return [{"id": s.id, "turn": s.turn, "turn_known": s.turn_known,
             "corners": [list(map(float, c)) for c in s.corners], "score": float(s.score)}
            for s in recognise(image, _BOOKS[folder])]


def read_dice(image) -> dict:
    from hardware.camera.dice_faces import read_tray

    reading = read_tray(image)
    return {"clear": reading.clear,
            "dice": [{"face": d.face, "colour": d.colour, "die": d.die,
                      "centre": list(map(float, d.centre)), "side": float(d.side),
                      "score": float(d.score)} for d in reading.dice]}


def readers(folder: Path) -> dict:
    import cv2

    manifest = json.loads((folder / "manifest.json").read_text())
    out = {}
    for entry in manifest["files"]:
        image = cv2.imread(str(folder / entry["file"]), cv2.IMREAD_COLOR)
        try:
            if entry["reader"] == "qr":
                answer = read_qr(image)
            elif entry["reader"] == "cards":
                answer = read_cards(image, folder / entry["book"])
            else:
                answer = read_dice(image)
        except Exception:  # noqa: BLE001 - a reader that raises is an answer too
            answer = {"error": traceback.format_exc(limit=3)}
        out[entry["file"]] = {"reader": entry["reader"], "answer": answer,
                              "pixels": hashlib.sha256(image.tobytes()).hexdigest()}
    return out


def versions() -> dict:
    import cv2
    import numpy
    import zxingcpp

    return {"machine": platform.machine(), "python": platform.python_version(),
            "numpy": numpy.__version__, "opencv": cv2.__version__,
            "zxing-cpp": getattr(zxingcpp, "__version__", "?"),
            "cpu_features": cpu_features(), "blas_core": blas_core()}


def cpu_features() -> list[str]:
    """The CPU features NumPy found (and dispatches its kernels by)."""
    from numpy._core._multiarray_umath import __cpu_features__

    return sorted(name for name, on in __cpu_features__.items() if on)


def blas_core() -> str:
    """The core OpenBLAS (NumPy's wheel's own) chose its kernels for, or "?"."""
    import ctypes
    import glob
    import os

    import numpy

    libs = os.path.join(os.path.dirname(numpy.__file__), os.pardir, "numpy.libs")
    for path in sorted(glob.glob(os.path.join(libs, "*openblas*"))):
        corename = getattr(ctypes.CDLL(path), "scipy_openblas_get_corename64_", None)
        if corename is not None:
            corename.restype = ctypes.c_char_p
            return corename().decode()
    return "?"


def answer(folder: Path, out: Path, short: bool, nudges: list[str], readers_only: bool) -> None:
    for spec in nudges:
        nudge(spec)
    scratch = out.with_suffix(".records")
    scratch.mkdir(parents=True, exist_ok=True)
    result = {"versions": versions(), "nudged": nudges,
              "imports": {} if readers_only else imports(),
              "replays": {} if readers_only else replays(short, scratch),
              "readers": readers(folder)}
    out.write_text(json.dumps(result, indent=1, sort_keys=True))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    sub = parser.add_subparsers(dest="what", required=True)
    r = sub.add_parser("render")
    r.add_argument("folder", type=Path)
    r.add_argument("--short", action="store_true")
    a = sub.add_parser("answer")
    a.add_argument("folder", type=Path)
    a.add_argument("out", type=Path)
    a.add_argument("--short", action="store_true")
    a.add_argument("--nudge", action="append", default=[])
    a.add_argument("--readers-only", action="store_true", help="no imports, no replays")
    args = parser.parse_args(argv)
    if args.what == "render":
        render(args.folder, args.short)
    else:
        answer(args.folder, args.out, args.short, args.nudge, args.readers_only)
    return 0


if __name__ == "__main__":
    sys.exit(main())

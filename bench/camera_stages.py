"""Which stage of the camera thread costs what over an evening's frames (issue 71).

The frames of `bench/evening.py` (a still table, a card laid or turned every 20 s; rendered
here, or ``--frames DIR`` of ``.npy`` frames) go through a `Recognizer` with the game's zones
and a `FaceReader` (cards known by face, no face taught: every card-sized outline without
a sticker would be asked about), one after the other in this thread, with the still
table's stride applied as `CameraService` applies it (frames passed over are not looked
at). Each stage's CPU time (`time.thread_time`, so the machine's load counts little) over
the frames' camera time is its share of a core: the recogniser per frame mode (``skip``:
nothing changed; ``full``: the whole-frame decode, the first and the 3 s safety net;
``regions``: only what changed), its second pass (the crops, deblurring included), and the
faces' looks (how many, how many left out: only stickered cards changed). Run it with
another checkout's source first on PYTHONPATH to compare (the frames rendered once):

    .venv/bin/python bench/camera_stages.py --render /tmp/frames --minutes 2
    .venv/bin/python bench/camera_stages.py --frames /tmp/frames
    PYTHONPATH=/path/to/other/checkout .venv/bin/python bench/camera_stages.py --frames /tmp/frames

JSON last line: {"seconds", "processed", "share_total", "share_by_mode",
"ms_per_frame_by_mode", "second_pass_share", "faces_share", "faces_looks",
"faces_skipped", "look_ms"}.
"""
from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
BENCH = sys.path.pop(0)  # bench/: its engine.py is not the engine package
sys.path.append(str(ROOT))  # after PYTHONPATH: another checkout's source comes first


def render(folder: Path, game: str, minutes: float) -> None:
    sys.path.insert(0, BENCH)
    try:
        import evening
    finally:
        sys.path.remove(BENCH)
    script = evening.card_script(game, minutes * 60, 20.0, 30.0)
    evening.render_frames(folder, script)


def face_reader(game: str, data_dir: str):
    """The camera's face reader as the server builds it: its judge reads the game's catalog
    as the server already holds it (loaded here, before any frame), so the first look does
    not pay for loading and checking the catalog. None: a checkout from before the cards
    known by face; an older reader is built as that checkout's server built it."""
    try:
        from companion.wiring.camera_faces import FaceReader
    except ImportError:
        return None
    try:
        from companion.box.catalog import Kinds
        from companion.wiring.face_judge import FaceJudge

        kinds = Kinds(data_dir)
        kinds.get(game)
        judge = FaceJudge(data_dir, catalog_of=lambda name: kinds.get(name).catalog)
    except (ImportError, TypeError):  # before the judge took the server's catalog
        return FaceReader(data_dir)
    return FaceReader(data_dir, judge)


def measure(folder: Path, game: str, limit: int | None) -> dict:
    from companion.game import games
    from hardware.camera import recognizer as recognizer_module
    from hardware.camera.recognizer import Recognizer
    from hardware.camera.sources import _load_raw
    from hardware.camera.zones import ZoneMap, rects

    info = games.module_of(game).info
    recognizer = Recognizer(zones=ZoneMap(rects((z.id, z.rect) for z in info.bindings.zones)))
    faces = face_reader(game, tempfile.mkdtemp(prefix="tc-stages-"))
    spent: Counter = Counter()
    real_pass = recognizer_module.second_pass

    def second_pass(*args, **kwargs):
        start = time.thread_time()
        try:
            return real_pass(*args, **kwargs)
        finally:
            spent["second_pass"] += time.thread_time() - start

    recognizer_module.second_pass = second_pass
    paths = sorted(folder.glob("0*.npy"))[:limit]
    by_mode: Counter = Counter()
    frames: Counter = Counter()
    index = processed = 0
    while index < len(paths):
        image = _load_raw(paths[index])
        start = time.thread_time()
        result = recognizer.process(image, index / 30.0)
        by_mode[result.mode] += time.thread_time() - start
        frames[result.mode] += 1
        processed += 1
        if faces is not None:
            start = time.thread_time()
            faces.look(game, image, result, recognizer.calibration, recognizer.zones, None)
            spent["faces"] += time.thread_time() - start
        skip = recognizer.still_skip()
        if skip:
            recognizer.skipped(min(skip, len(paths) - index - 1))
        index += 1 + skip
    seconds = len(paths) / 30.0
    looks = getattr(faces, "looks", 0)
    return {"seconds": seconds, "processed": processed,
            "share_total": round((sum(by_mode.values()) + spent["faces"]) / seconds, 4),
            "share_by_mode": {k: round(v / seconds, 4) for k, v in by_mode.items()},
            "frames_by_mode": dict(frames),
            "ms_per_frame_by_mode": {k: round(by_mode[k] / frames[k] * 1000, 2)
                                     for k in frames},
            "second_pass_share": round(spent["second_pass"] / seconds, 4),
            "faces_share": round(spent["faces"] / seconds, 4), "faces_looks": looks,
            "faces_skipped": getattr(faces, "skipped", None),
            "look_ms": round(spent["faces"] / looks * 1000, 1) if looks else None}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--frames", type=Path, help="a folder of .npy frames (evening.py's)")
    parser.add_argument("--render", type=Path, help="render the evening's frames here first")
    parser.add_argument("--game", default="wwe")
    parser.add_argument("--minutes", type=float, default=2.0)
    args = parser.parse_args()
    folder = args.render or args.frames
    if folder is None:
        parser.error("--frames DIR or --render DIR")
    if args.render:
        render(args.render, args.game, args.minutes)
    out = measure(folder, args.game, round(args.minutes * 60 * 30))
    for key in ("share_total", "share_by_mode", "ms_per_frame_by_mode", "second_pass_share",
                "faces_share", "faces_looks", "faces_skipped", "look_ms"):
        print(f"{key}: {out[key]}")
    print(json.dumps(out))


if __name__ == "__main__":
    main()

"""bench/dice_independent.py's scoring: a face read a little past half a die's side from the
die (as seed 1126's six, read on a square over the five's two sides, 16.2 px from a 31 px
die's centre), within 0.6 of it (`REACH`), is that die's reading: a wrong face counted
wrong, never that die unread; it shows as misplaced too (``misplaced_wrong``)."""
from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import SimpleNamespace

ROOT = Path(__file__).resolve().parents[2]


def _bench():
    sys.path.insert(0, str(ROOT / "bench"))  # it imports dice_camera as the bench does
    try:
        spec = importlib.util.spec_from_file_location("dice_independent_bench",
                                                      ROOT / "bench/dice_independent.py")
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        return module
    finally:
        sys.path.remove(str(ROOT / "bench"))


def die(x, y, face, colour="orange"):
    return SimpleNamespace(centre=(x, y), side=31.0, face=face, colour=colour)


def read(x, y, face, colour="orange"):
    return SimpleNamespace(centre=(x, y), face=face, colour=colour)


def test_a_wrong_face_read_just_off_the_die_is_counted_wrong_not_lost():
    bench = _bench()
    truth = [die(518.0, 426.0, 5), die(400.0, 300.0, 2)]
    figures = bench.score_tray(truth, [read(518.0, 442.2, 6), read(400.0, 300.0, 2)])
    assert figures["faces_right"] == 1 and figures["faces_wrong"] == 1
    assert figures["unread"] == 0
    assert figures["faces_misplaced"] == 1 and figures["misplaced_wrong"] == 1
    assert figures["false_blobs"] == 0
    # the same face read there is misplaced, not wrong; read on the die, simply right
    right_there = bench.score_tray(truth, [read(518.0, 442.2, 5), read(400.0, 300.0, 2)])
    assert right_there["faces_misplaced"] == 1 and right_there["misplaced_wrong"] == 0
    assert right_there["faces_right"] == 2 and right_there["faces_wrong"] == 0
    # farther than 0.6 of its side (18.6 px here) the die is unread, the reading a false blob
    beyond = bench.score_tray(truth, [read(518.0, 445.0, 6), read(400.0, 300.0, 2)])
    assert beyond["unread"] == 1 and beyond["faces_wrong"] == 0 and beyond["false_blobs"] == 1
    on_it = bench.score_tray(truth, [read(518.0, 426.0, 5), read(400.0, 300.0, 2)])
    assert on_it["faces_right"] == 2 and on_it["faces_misplaced"] == 0

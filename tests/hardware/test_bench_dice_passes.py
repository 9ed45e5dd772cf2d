"""bench/dice_camera.py --passes: read_tray's CPU pass by pass, unprofiled (issue 64: say in
the bench which stage costs what). The passes add up to read_tray's CPU, read_face is
counted in the pass that calls it, and the reader is left as it was."""
from __future__ import annotations

import importlib.util
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def _bench():
    spec = importlib.util.spec_from_file_location("dice_camera_bench",
                                                  ROOT / "bench/dice_camera.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_passes_add_up_to_read_tray_and_the_reader_is_left_as_it_was():
    from hardware.camera import dice_faces
    from hardware.camera.dice_faces import floor, pips, squares, tray

    bench = _bench()
    result = bench.pass_costs(["dark_felt"], 1, (36.0,))
    passes = result["pass_ms_per_roll"]
    assert result["rolls"] == 1
    assert {"masks", "blobs read", "blobs labelled", "tray, the rest",
            "settler (motion, mean)"} <= set(passes)
    assert all(ms >= 0 for ms in passes.values()), passes  # none counted twice
    inside = sum(ms for name, ms in passes.items() if name != "settler (motion, mean)")
    assert abs(inside - result["read_tray_ms_per_roll"]) <= 0.005 * (len(passes) + 1)  # rounding
    assert abs(inside + passes["settler (motion, mean)"] - result["cpu_ms_per_roll"]) <= 0.005 * (
        len(passes) + 1)
    faces = result["read_face_per_roll"]
    assert faces["blobs read"]["calls"] >= 5  # ten dice thrown, most read from their blobs
    assert 0 < faces["blobs read"]["ms"] < passes["blobs read"]
    # the reader as it was: no wrapper left where tray.py and squares.py call
    assert tray.die_masks is floor.die_masks
    assert tray._read_mask is squares._read_mask
    assert squares.read_face is pips.read_face
    assert dice_faces.read_tray is tray.read_tray


def test_a_pass_called_inside_another_is_the_outer_ones_time():
    """The patches' pass makes its own masks and reads its own blobs: that time is the
    patches', not counted again as the masks' or the blobs' (the passes add up)."""
    import time

    bench = _bench()
    spent, inside = {}, []

    def busy(seconds):
        end = time.process_time() + seconds
        while time.process_time() < end:
            pass

    inner = bench._clocked("masks", lambda: busy(0.02), spent, inside)
    outer = bench._clocked("patches", lambda: (busy(0.01), inner()), spent, inside)
    outer()
    inner()
    assert set(spent) == {"patches", "masks"} and not inside
    assert spent["patches"] >= 25_000_000  # its own 10 ms and the masks' 20 inside it
    assert 20_000_000 <= spent["masks"] < 25_000_000  # only the masks made on their own

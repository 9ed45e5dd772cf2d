"""The setup guide's focus step (issue 62): how sharp the camera sees the table, measured on
the board marker's edges where the calibration puts it (`hardware.camera.sharp_steady`), so
a busy tablecloth cannot fake it. The page turns the figure into words a person follows
("turn the ring slowly… sharper… sharp: stop"); the guide does not tick the camera's step,
nor take a tap on it, while the marker is soft.

A camera with a focus lens (Camera Module 3) is focused by a scan the page asks for
(`CameraPort.refocus`); a v2 or HQ camera by its ring, turned by hand.
"""
from __future__ import annotations

from companion.context import CameraSnapshot
from hardware.camera.decode import to_gray
from hardware.camera.sharp_steady import SHARP_ENOUGH, marker_sharpness

LENS_MODES = ("manual", "auto", "continuous")  # optics' focus modes with a lens to drive


def sharpness(seen: CameraSnapshot | None) -> float | None:
    """The board marker's sharpness in the latest frame; None while the camera has no frame
    or has never seen the marker (it does not know where to look)."""
    if seen is None or seen.frame is None:
        return None
    return marker_sharpness(to_gray(seen.frame.image), seen.calibration)


def is_soft(seen: CameraSnapshot | None) -> bool:
    """The marker measured and found soft (not yet measurable is not soft: nothing to say)."""
    value = sharpness(seen)
    return value is not None and value < SHARP_ENOUGH


def state(seen: CameraSnapshot | None, optics: dict | None) -> dict:
    """The focus step's meter for setup.json: ``lens`` "scan" (the page offers a focus scan)
    or "ring"; ``sharpness`` and ``level`` (0-1, 1 = sharp enough) or None before the
    marker is seen; ``sharp``; ``scanning`` while a scan is under way."""
    value = sharpness(seen)
    mode = (optics or {}).get("focus_mode")
    return {"lens": "scan" if mode in LENS_MODES else "ring",
            "scanning": mode == "auto",  # no position kept yet: the scan runs
            "sharpness": None if value is None else round(value, 3),
            "level": None if value is None else round(min(1.0, value / SHARP_ENOUGH), 3),
            "sharp": value is not None and value >= SHARP_ENOUGH}

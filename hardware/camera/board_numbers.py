"""The board numbers an owner keeps in config.json (issue 45): the card zones, the dice tray,
the corner markers' positions and the stored calibration. Each is a JSON number (not text:
``float("nan")`` reads "nan"; not a boolean), finite, and a position lies within `REACH_MM`
of the board marker. Each function returns the value read or raises ValueError saying why
not, so the camera goes without it and `companion doctor` names it
(companion/server/settings.py). No OpenCV here: reading settings stays cheap.
"""
from __future__ import annotations

import math

from hardware.camera import DEFAULT_MARKER_MM

REACH_MM = 10_000  # nothing on a table lies further than 10 m from the board marker
MIN_TRAY_MM = 20  # the dice tray is at least 2 cm each way
CORNERS = ("x0", "y0", "x1", "y1")


def finite(value, name: str) -> float:
    """``value`` as a float: a number (not a boolean, not text) that is finite."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise ValueError(f"{name} must be a number, not {_short(value)}")
    try:
        number = float(value)
    except OverflowError:  # an integer beyond any float
        number = math.inf
    if not math.isfinite(number):
        raise ValueError(f"{name} must be a finite number, not {_short(value)}")
    return number


def board_number(value, name: str = "a coordinate") -> float:
    """``value`` as board mm: `finite`, at most `REACH_MM` from the board marker."""
    number = finite(value, name)
    if abs(number) > REACH_MM:
        raise ValueError(f"{name} must be from -{REACH_MM} to {REACH_MM} mm, not "
                         f"{_short(value)}")
    return number


def board_rect(value, min_side: float | None = None) -> tuple[float, float, float, float]:
    """A rectangle (x0, y0, x1, y1) in board mm from ``{"x0", "y0", "x1", "y1"}`` or a list
    of four (with ``min_side``: x1 beyond x0 and y1 beyond y0 by at least that much)."""
    if isinstance(value, dict):
        missing = [k for k in CORNERS if k not in value]
        if missing:
            raise ValueError(f"has no {', '.join(missing)}")
        value = [value[k] for k in CORNERS]
    if not isinstance(value, list | tuple) or len(value) != 4:
        raise ValueError('must be {"x0", "y0", "x1", "y1"} in mm')
    x0, y0, x1, y1 = (board_number(v, k) for v, k in zip(value, CORNERS, strict=True))
    if min_side is not None and (x1 - x0 < min_side or y1 - y0 < min_side):
        raise ValueError(f"must have x1 at least {min_side:g} mm beyond x0, and y1 beyond y0")
    return x0, y0, x1, y1


def tray_rect(value) -> tuple[float, float, float, float]:
    """The dice tray (config.json ``camera.tray``, the host's form): `board_rect`, at least
    `MIN_TRAY_MM` each way (NaN passes no comparison: refused by name, not by the size)."""
    return board_rect(value, MIN_TRAY_MM)


def polygon(spec) -> tuple[tuple[float, float], ...]:
    """A zone (config.json ``camera.zones``): a rectangle or three or more [x, y] points."""
    if isinstance(spec, dict):
        x0, y0, x1, y1 = board_rect(spec)
        return ((x0, y0), (x1, y0), (x1, y1), (x0, y1))
    if not isinstance(spec, list | tuple) or not all(
            isinstance(p, list | tuple) and len(p) == 2 for p in spec):
        raise ValueError('must be {"x0", "y0", "x1", "y1"} or a list of [x, y] points')
    if len(spec) < 3:
        raise ValueError("a zone needs at least three points")
    return tuple((board_number(x, "x"), board_number(y, "y")) for x, y in spec)


def zones(value) -> dict:
    """``camera.zones``: zone name -> `polygon`, each checked (the value kept as it is)."""
    if not isinstance(value, dict):
        raise ValueError("must be an object of zone name -> rectangle")
    for name, spec in value.items():
        try:
            polygon(spec)
        except ValueError as exc:
            raise ValueError(f"has the zone {str(name)[:40]!r}: {exc}") from None
    return value


def marker_position(name, value) -> tuple[float, float]:
    """One corner marker's centre in ``camera.markers``: [x, y] in board mm."""
    shown = str(name)[:40]
    if not isinstance(value, list | tuple) or len(value) != 2:
        raise ValueError(f"has the marker {shown!r}: not [x, y] in mm")
    return (board_number(value[0], f"the marker {shown!r} x"),
            board_number(value[1], f"the marker {shown!r} y"))


def markers(value) -> dict:
    """``camera.markers``: marker -> [x, y], each checked (the value kept as it is)."""
    if not isinstance(value, dict):
        raise ValueError("must be an object of marker -> [x, y] in mm")
    for name, position in value.items():
        marker_position(name, position)
    return value


def calibration(data) -> dict:
    """``camera.calibration`` (written by `companion camera calibrate`, maybe edited by
    hand): its fields as `hardware.camera.calibration.Calibration` takes them."""
    if not isinstance(data, dict) or "matrix" not in data or "north" not in data:
        raise ValueError("must have a matrix and a north")

    def rows(matrix, count: int, name: str) -> tuple:
        if not isinstance(matrix, list | tuple) or len(matrix) != count or any(
                not isinstance(r, list | tuple) or len(r) != 3 for r in matrix):
            raise ValueError(f"{name} must be {count}x3")
        return tuple(tuple(finite(v, name) for v in r) for r in matrix)

    marker_mm = finite(data.get("marker_mm", DEFAULT_MARKER_MM), "marker_mm")
    count = data.get("markers", 1)
    if not 0 < marker_mm <= 1000 or type(count) is not int or not 1 <= count <= 100:
        raise ValueError("marker_mm must be above 0 and at most 1000, markers a count "
                         "from 1 to 100")
    homography, residual = data.get("homography"), data.get("residual_mm")
    return {"matrix": rows(data["matrix"], 2, "matrix"),
            "north": finite(data["north"], "north"), "marker_mm": marker_mm,
            "homography": rows(homography, 3, "homography") if homography is not None
            else None,
            "residual_mm": finite(residual, "residual_mm")
            if residual is not None else None, "markers": count}


def _short(value) -> str:
    shown = repr(value)
    return shown if len(shown) <= 24 else shown[:20] + "…"

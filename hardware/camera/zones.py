"""Named areas of the table in board millimetres (council space, each seat's play area).

Zones are data: polygons (or x0/y0/x1/y1 rectangles) in board coordinates, loaded from
the data directory's config.json (camera.zones) so an owner can fit them to a real table.
`DEFAULT_ZONES` is a DEMO layout around a 30 mm marker by the council space (it matches
the synthetic camera); measure a real table before trusting it.
"""
from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

Point = tuple[float, float]


@dataclass(frozen=True)
class Zone:
    name: str
    polygon: tuple[Point, ...]

    def contains(self, point: Point) -> bool:
        contour = np.float32(self.polygon).reshape(-1, 1, 2)
        return cv2.pointPolygonTest(contour, (float(point[0]), float(point[1])), False) >= 0


def _rect(x0: float, y0: float, x1: float, y1: float) -> tuple[Point, ...]:
    return ((x0, y0), (x1, y0), (x1, y1), (x0, y1))


# DEMO layout (mm; origin = marker centre, x east, y south) sized for a camera that sees
# about 380 x 215 mm around a 30 mm marker (the synthetic camera): the council space just
# south of the marker, the seats' play areas in the four quarters around it.
DEFAULT_ZONES = {
    "council": _rect(-50, 20, 50, 100),
    "seat:N": _rect(-200, -60, -60, 60),
    "seat:E": _rect(60, -60, 200, 60),
    "seat:S": _rect(60, 60, 200, 200),
    "seat:W": _rect(-200, 60, -60, 200),
}


class ZoneMap:
    """Which zone a board point lies in (first match in definition order), or None."""

    def __init__(self, zones: dict[str, object] | None = None) -> None:
        zones = DEFAULT_ZONES if zones is None else zones
        self.zones = [Zone(name, self._polygon(spec)) for name, spec in zones.items()]

    @staticmethod
    def _polygon(spec) -> tuple[Point, ...]:
        if isinstance(spec, dict):
            return _rect(float(spec["x0"]), float(spec["y0"]), float(spec["x1"]),
                         float(spec["y1"]))
        points = tuple((float(x), float(y)) for x, y in spec)
        if len(points) < 3:
            raise ValueError("a zone needs at least three points")
        return points

    def zone_at(self, point: Point) -> str | None:
        for zone in self.zones:
            if zone.contains(point):
                return zone.name
        return None

    def to_json(self) -> dict[str, list[list[float]]]:
        return {z.name: [list(p) for p in z.polygon] for z in self.zones}

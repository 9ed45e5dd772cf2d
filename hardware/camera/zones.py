"""Named areas of the table in board millimetres (a card space, each seat's play area).

Zones are data: polygons (or x0/y0/x1/y1 rectangles) in board coordinates. The game in
play declares its zones (engine.api.Zone); an owner fits them to a real table in the data
directory's config.json (camera.zones), which wins. Without zones every card is in no zone.
"""
from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from hardware.camera import board_numbers

Point = tuple[float, float]


@dataclass(frozen=True)
class Zone:
    name: str
    polygon: tuple[Point, ...]

    def contains(self, point: Point) -> bool:
        contour = np.float32(self.polygon).reshape(-1, 1, 2)
        return cv2.pointPolygonTest(contour, (float(point[0]), float(point[1])), False) >= 0


def rects(zones) -> dict[str, dict]:
    """A zone spec from (id, (x0, y0, x1, y1)) pairs, e.g. a game's declared zones."""
    return {zid: {"x0": r[0], "y0": r[1], "x1": r[2], "y1": r[3]} for zid, r in zones}


class ZoneMap:
    """Which zone a board point lies in (first match in definition order), or None."""

    def __init__(self, zones: dict[str, object] | None = None) -> None:
        zones = zones or {}
        self.zones = [Zone(name, self._polygon(spec)) for name, spec in zones.items()]

    @staticmethod
    def _polygon(spec) -> tuple[Point, ...]:
        """ValueError, saying why, for a zone whose numbers are not board mm (config.json
        is edited by hand: hardware/camera/board_numbers.py)."""
        return board_numbers.polygon(spec)

    def zone_at(self, point: Point) -> str | None:
        for zone in self.zones:
            if zone.contains(point):
                return zone.name
        return None

    def to_json(self) -> dict[str, list[list[float]]]:
        return {z.name: [list(p) for p in z.polygon] for z in self.zones}

"""Image -> board coordinates, from the board reference marker.

The board marker (payload `hardware.tags.BOARD_MARKER`) is a sticker on the board by the
council space, its printed arrow pointing north. Its four corners give a similarity
transform (rotation, scale, translation) from image pixels to board millimetres:
origin at the marker's centre, x towards east, y towards south. A similarity rather than a
homography because one small marker cannot pin down a perspective far from itself, and a
camera looking down at a table is close to a similarity anyway.

The camera is fixed, so a calibration stays valid when the marker is covered or removed:
it is kept (`save`/`load`, in the data directory's config.json under camera.calibration)
and used until the marker is seen again ("lay the marker pointing north" once).
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from hardware import config_file
from hardware.camera.decode import Detection
from hardware.camera.settings import DEFAULT_MARKER_MM


@dataclass(frozen=True)
class Calibration:
    """A 2x3 similarity matrix image -> board (mm), and where north points in the image."""

    matrix: tuple[tuple[float, float, float], tuple[float, float, float]]
    north: float  # image angle (degrees clockwise from image up) of board north
    marker_mm: float = DEFAULT_MARKER_MM
    from_marker: bool = True  # False for the identity fallback (no marker ever seen)

    @classmethod
    def identity(cls) -> Calibration:
        """No marker yet: board = image pixels, north = image up. Zones are not trusted."""
        return cls(((1.0, 0.0, 0.0), (0.0, 1.0, 0.0)), 0.0, DEFAULT_MARKER_MM, False)

    @classmethod
    def from_detection(cls, marker: Detection, marker_mm: float = DEFAULT_MARKER_MM
                       ) -> Calibration:
        half = marker_mm / 2
        board = np.float32([[-half, -half], [half, -half], [half, half], [-half, half]])
        image = np.float32(marker.corners)
        matrix, _ = cv2.estimateAffinePartial2D(image, board)
        if matrix is None:
            raise ValueError("degenerate marker corners")
        rows = tuple(tuple(float(v) for v in row) for row in matrix)
        return cls(rows, marker.angle, marker_mm, True)

    def to_board(self, point: tuple[float, float]) -> tuple[float, float]:
        (a, b, c), (d, e, f) = self.matrix
        x, y = point
        return a * x + b * y + c, d * x + e * y + f

    def board_angle(self, image_angle: float) -> float:
        """An image angle turned into degrees clockwise from board north, [0, 360)."""
        return (image_angle - self.north) % 360

    def mm_per_px(self) -> float:
        (a, b, _), _ = self.matrix
        return math.hypot(a, b)

    def to_json(self) -> dict:
        return {"matrix": [list(r) for r in self.matrix], "north": self.north,
                "marker_mm": self.marker_mm}

    @classmethod
    def from_json(cls, data: dict) -> Calibration:
        m = data["matrix"]
        if len(m) != 2 or any(len(r) != 3 for r in m):
            raise ValueError("calibration matrix must be 2x3")
        return cls((tuple(map(float, m[0])), tuple(map(float, m[1]))), float(data["north"]),
                   float(data.get("marker_mm", DEFAULT_MARKER_MM)), True)


def load(config_path: Path) -> Calibration | None:
    """The stored calibration from config.json (camera.calibration), or None."""
    try:
        return Calibration.from_json(config_file.read(config_path)["camera"]["calibration"])
    except (ValueError, KeyError, TypeError):
        return None


def save(config_path: Path, calibration: Calibration) -> None:
    """Store the calibration under camera.calibration, keeping every other setting."""
    def change(data: dict) -> None:
        data.setdefault("camera", {})["calibration"] = calibration.to_json()

    config_file.update(Path(config_path), change)

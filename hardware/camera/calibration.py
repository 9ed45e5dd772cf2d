"""Image -> board coordinates, from the board reference markers.

The board marker (payload `hardware.tags.BOARD_MARKER`, "TC1:TC:M:NORTH") is a sticker on
the board by the council space, its printed arrow pointing north: the origin of the board
coordinates (millimetres, x towards east, y towards south). Corner markers
(`hardware.tags.CORNER_MARKERS`: NW, NE, SE, SW, printed with `companion tags`) are laid at
known board positions (`camera.markers` in config.json, mm of each marker's centre), also
pointing north.

- One marker in view: a similarity transform (rotation, scale, translation) from its four
  corners. Fine for a camera looking straight down; under a tilted camera a point 200 mm
  from a 30 mm marker is off by 5-30 mm (the perspective is invisible in one small marker).
- Two or more: a full homography from all their corners (least squares), which holds the
  perspective of a tilted camera; ``residual_mm`` is the RMS distance between the markers'
  true corners and where the homography puts them (a quality figure for the owner).

The camera is fixed, so a calibration stays valid when markers are covered or removed: it
is kept (`save`/`load`, in the data directory's config.json under camera.calibration) and
used until markers are seen again. A stored homography also beats a live single marker that
agrees with it (the board has not moved).
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from hardware import config_file
from hardware.camera import DEFAULT_MARKER_MM, board_numbers
from hardware.camera.decode import Detection
from hardware.tags.format import BOARD_MARKER, CORNER_MARKERS

# DEMO positions (mm, board coordinates) of the corner markers around the synthetic
# camera's board; measure them on a real board and set camera.markers.
DEFAULT_MARKER_POSITIONS: dict[str, tuple[float, float]] = {
    BOARD_MARKER: (0.0, 0.0),
    CORNER_MARKERS["NW"]: (-165.0, -5.0),
    CORNER_MARKERS["NE"]: (165.0, -5.0),
    CORNER_MARKERS["SE"]: (165.0, 160.0),
    CORNER_MARKERS["SW"]: (-165.0, 160.0),
}
AGREE_MM = 6.0  # a single live marker within this of a stored homography: keep the homography

Matrix3 = tuple[tuple[float, float, float], tuple[float, float, float],
                tuple[float, float, float]]


def _rows(matrix) -> tuple:
    return tuple(tuple(float(v) for v in row) for row in np.asarray(matrix))


def marker_corners_mm(centre: tuple[float, float], marker_mm: float) -> np.ndarray:
    """A north-pointing marker's symbol corners (TL, TR, BR, BL) in board mm."""
    half = marker_mm / 2
    x, y = centre
    return np.float64([[x - half, y - half], [x + half, y - half], [x + half, y + half],
                       [x - half, y + half]])


@dataclass(frozen=True)
class Calibration:
    """Image px -> board mm: a 2x3 similarity (``matrix``) or a full 3x3 ``homography``."""

    matrix: tuple[tuple[float, float, float], tuple[float, float, float]]
    north: float  # image angle (degrees clockwise from image up) of board north at the origin
    marker_mm: float = DEFAULT_MARKER_MM
    from_marker: bool = True  # False for the identity fallback (no marker ever seen)
    homography: Matrix3 | None = None  # when set, used instead of ``matrix``
    residual_mm: float | None = None  # RMS of the markers' corners (homography only)
    markers: int = 1  # how many markers it was computed from

    @classmethod
    def identity(cls) -> Calibration:
        """No marker yet: board = image pixels, north = image up. Zones are not trusted."""
        return cls(((1.0, 0.0, 0.0), (0.0, 1.0, 0.0)), 0.0, DEFAULT_MARKER_MM, False)

    @classmethod
    def from_detection(cls, marker: Detection, marker_mm: float = DEFAULT_MARKER_MM,
                       centre: tuple[float, float] = (0.0, 0.0)) -> Calibration:
        """A similarity from one marker lying at ``centre`` (board mm) pointing north."""
        board = np.float32(marker_corners_mm(centre, marker_mm))
        image = np.float32(marker.corners)
        matrix, _ = cv2.estimateAffinePartial2D(image, board)
        if matrix is None:
            raise ValueError("degenerate marker corners")
        return cls(_rows(matrix), marker.angle, marker_mm, True)

    @classmethod
    def from_markers(cls, markers: list[Detection], marker_mm: float = DEFAULT_MARKER_MM,
                     positions: dict[str, tuple[float, float]] | None = None) -> Calibration:
        """From every marker in view whose board position is known: a homography from two or
        more, a similarity from one. Raises ValueError when none is usable."""
        positions = DEFAULT_MARKER_POSITIONS if positions is None else positions
        known = {}
        for marker in markers:  # one detection per payload: the largest
            if marker.payload in positions and (
                    marker.payload not in known or marker.side > known[marker.payload].side):
                known[marker.payload] = marker
        if not known:
            raise ValueError("no marker with a known board position")
        if len(known) == 1:
            (payload, marker), = known.items()
            return cls.from_detection(marker, marker_mm, positions[payload])
        image = np.float64([c for m in known.values() for c in m.corners])
        board = np.vstack([marker_corners_mm(positions[p], marker_mm) for p in known])
        homography, _ = cv2.findHomography(image, board, 0)
        if homography is None:
            raise ValueError("degenerate marker corners")
        mapped = cv2.perspectiveTransform(image.reshape(-1, 1, 2), homography).reshape(-1, 2)
        residual = float(np.sqrt(np.mean(np.sum((mapped - board) ** 2, axis=1))))
        affine, _ = cv2.estimateAffinePartial2D(np.float32(image), np.float32(board))
        calibration = cls(_rows(affine), 0.0, marker_mm, True, _rows(homography),
                          round(residual, 2), len(known))
        return calibration.with_north()

    def with_north(self) -> Calibration:
        """The same, with ``north`` = the image angle of board north at the board origin."""
        inverse = np.linalg.inv(self._h())
        pts = cv2.perspectiveTransform(np.float64([[[0, 0]], [[0, -10]]]), inverse)
        (x0, y0), (x1, y1) = pts[0, 0], pts[1, 0]
        north = math.degrees(math.atan2(x1 - x0, -(y1 - y0))) % 360
        return Calibration(self.matrix, north, self.marker_mm, self.from_marker,
                           self.homography, self.residual_mm, self.markers)

    def _h(self) -> np.ndarray:
        if self.homography is not None:
            return np.float64(self.homography)
        return np.vstack([np.float64(self.matrix), [0.0, 0.0, 1.0]])

    def to_board(self, point: tuple[float, float]) -> tuple[float, float]:
        if self.homography is None:
            (a, b, c), (d, e, f) = self.matrix
            x, y = point
            return a * x + b * y + c, d * x + e * y + f
        (a, b, c), (d, e, f), (g, h, i) = self.homography
        x, y = point
        w = g * x + h * y + i
        return (a * x + b * y + c) / w, (d * x + e * y + f) / w

    def to_image(self, points) -> np.ndarray:
        """Board mm points (N x 2) -> image pixels (N x 2), e.g. to draw the zones."""
        inverse = np.linalg.inv(self._h())
        return cv2.perspectiveTransform(np.float64(points).reshape(-1, 1, 2),
                                        inverse).reshape(-1, 2)

    def board_angle(self, image_angle: float, at: tuple[float, float] | None = None) -> float:
        """An image angle turned into degrees clockwise from board north, [0, 360).

        With a homography the turn depends on where in the image: give ``at`` (pixels)."""
        if self.homography is None or at is None:
            return (image_angle - self.north) % 360
        t = math.radians(image_angle)
        x0, y0 = self.to_board(at)
        x1, y1 = self.to_board((at[0] + 20 * math.sin(t), at[1] - 20 * math.cos(t)))
        return math.degrees(math.atan2(x1 - x0, -(y1 - y0))) % 360

    def mm_per_px(self, at: tuple[float, float] | None = None) -> float:
        if self.homography is None or at is None:
            (a, b, _), _ = self.matrix
            return math.hypot(a, b)
        x0, y0 = self.to_board(at)
        x1, y1 = self.to_board((at[0] + 10, at[1]))
        return math.hypot(x1 - x0, y1 - y0) / 10

    def error_mm(self, marker: Detection, centre: tuple[float, float]) -> float:
        """Mean distance between a marker's corners mapped to the board and where they are."""
        board = marker_corners_mm(centre, self.marker_mm)
        return float(np.mean([math.dist(self.to_board(c), b)
                              for c, b in zip(marker.corners, board, strict=True)]))

    def to_json(self) -> dict:
        out = {"matrix": [list(r) for r in self.matrix], "north": self.north,
               "marker_mm": self.marker_mm}
        if self.homography is not None:
            out.update(homography=[list(r) for r in self.homography],
                       residual_mm=self.residual_mm, markers=self.markers)
        return out

    @classmethod
    def from_json(cls, data: dict) -> Calibration:
        """The stored calibration; ValueError (saying why) when its numbers are not finite
        numbers (hardware/camera/board_numbers.py: config.json is edited by hand)."""
        read = board_numbers.calibration(data)
        return cls(read["matrix"], read["north"], read["marker_mm"], True, read["homography"],
                   read["residual_mm"], read["markers"])


def marker_positions(config: dict | None) -> dict[str, tuple[float, float]]:
    """camera.markers from config.json ({"NE": [x, y], ...} or full payloads), over the
    DEMO defaults; the NORTH marker is always the origin. ValueError, saying why, for a
    position that is not two board numbers."""
    positions = dict(DEFAULT_MARKER_POSITIONS)
    for name, value in board_numbers.markers(config or {}).items():
        payload = CORNER_MARKERS.get(str(name).upper(), str(name))
        positions[payload] = board_numbers.marker_position(name, value)
    positions[BOARD_MARKER] = (0.0, 0.0)
    return positions


def module_px(detection: Detection) -> float:
    """Apparent pixels per module of a decoded symbol (our stickers' version from the
    payload; 25 modules, version 2, for anything else)."""
    modules = 25
    try:
        from hardware.tags.sheet import qr_matrix

        modules = len(qr_matrix(detection.payload))
    except Exception:  # noqa: BLE001 - a foreign payload qrcode cannot encode: keep 25
        pass
    return detection.side / modules


MIN_MODULE_PX = 3.0  # below this, reads fall off quickly (docs/camera.md, measured)


def sticker_report(detections: list[Detection]) -> dict:
    """Pixels per module of the symbols in view, for the owner: bigger stickers or a closer
    camera when the smallest is below `MIN_MODULE_PX`."""
    sizes = sorted(module_px(d) for d in detections)
    if not sizes:
        return {"stickers": 0, "module_px_min": None, "module_px_median": None,
                "small": False}
    return {"stickers": len(sizes), "module_px_min": round(sizes[0], 2),
            "module_px_median": round(sizes[len(sizes) // 2], 2),
            "small": sizes[0] < MIN_MODULE_PX}


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

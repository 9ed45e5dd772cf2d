"""Is the table sharp and steady? Two cheap measures of the gray frames (issue 62).

- `edge_sharpness`: how sharply the picture's strongest edges turn, against their own
  contrast: the Laplacian beside an edge over the step's height nearby. A blur of radius
  r spreads an edge over about 2r pixels and its curvature falls like 1 / r, so the measure
  falls steeply with defocus (on the synthetic tables: 0.30-0.37 sharp, 0.18-0.25 at
  r = 1.5 px, 0.13-0.19 at r = 2 px, where 30 mm stickers at 60 cm stop reading). It does
  not depend on the light or the scene's contrast, so one threshold (`SHARP_ENOUGH`)
  tells a soft table from a sharp one. Measured in a region or the whole frame.
- `marker_sharpness`: the same measure on the board marker's edges only, where the
  calibration puts the marker: the marker lies on the table plane, so a busy tablecloth,
  a box or a hand nearer the lens (sharp at another distance) cannot fake a sharp table.
- `BandingMeter`: mains flicker on a rolling shutter is a ripple along the rows that moves
  from frame to frame; the scene does not move with it. The meter takes each frame's row
  means, divides by the previous frame's (the scene cancels, a band that moved remains),
  and keeps the strength of what remains (its standard deviation, smoothed over frames).
  A hand moving also changes rows, but not over the whole height frame after frame:
  `flickering` needs the ripple above `BANDS_AT` in most of the last `WINDOW` frames.
"""
from __future__ import annotations

from collections import deque

import cv2
import numpy as np

from hardware.camera.percentile import percentile

SHARP_ENOUGH = 0.2  # edge_sharpness at and above which the table counts as sharp
BANDS_AT = 0.02  # row-ratio spread above which a frame looks banded (2 %)
WINDOW = 15  # frames the banding verdict looks back over
MARKER_MARGIN = 1.5  # the region measured: the marker's symbol and a half-side around it


def edge_sharpness(gray: np.ndarray, box: tuple[int, int, int, int] | None = None) -> float:
    """The median sharpness of the strongest edges in ``box`` (x0, y0, x1, y1; the frame
    when None): the largest |Laplacian| in the 3x3 around / (max - min over the 7x7
    around), over the top 2 % of gradients; 0.0 where there is no edge at all."""
    if box is not None:
        x0, y0, x1, y1 = (int(v) for v in box)
        gray = gray[max(0, y0):max(0, y1), max(0, x0):max(0, x1)]
    if gray.size < 64:
        return 0.0
    image = gray.astype(np.float32)
    gx = cv2.Sobel(image, cv2.CV_32F, 1, 0, ksize=3) / 8
    gy = cv2.Sobel(image, cv2.CV_32F, 0, 1, ksize=3) / 8
    magnitude = np.hypot(gx, gy)
    kernel = np.ones((7, 7), np.uint8)
    span = cv2.dilate(image, kernel) - cv2.erode(image, kernel)
    strong = magnitude >= max(4.0, percentile(magnitude, 98))
    strong &= span >= 30
    if int(strong.sum()) < 20:
        return 0.0
    curve = cv2.dilate(np.abs(cv2.Laplacian(image, cv2.CV_32F, ksize=1)),
                       np.ones((3, 3), np.uint8))
    return float(np.median(curve[strong] / span[strong]))


def marker_box(calibration, width: int, height: int, centre_mm: tuple[float, float] = (0.0, 0.0),
               ) -> tuple[int, int, int, int] | None:
    """Where the board marker (at ``centre_mm`` on the board) and its edges lie in a
    ``width`` x ``height`` frame, from ``calibration`` (`hardware.camera.calibration`);
    None while no marker has ever been seen (the identity calibration knows no place)."""
    from hardware.camera.calibration import marker_corners_mm

    if calibration is None or not calibration.from_marker:
        return None
    corners = calibration.to_image(
        marker_corners_mm(centre_mm, calibration.marker_mm * MARKER_MARGIN))
    x0, y0 = np.floor(corners.min(axis=0)).astype(int)
    x1, y1 = np.ceil(corners.max(axis=0)).astype(int)
    x0, y0, x1, y1 = max(0, x0), max(0, y0), min(width, x1), min(height, y1)
    return (int(x0), int(y0), int(x1), int(y1)) if x1 - x0 >= 8 and y1 - y0 >= 8 else None


def marker_sharpness(gray: np.ndarray, calibration,
                     centre_mm: tuple[float, float] = (0.0, 0.0)) -> float | None:
    """`edge_sharpness` on the board marker's edges only (`marker_box`); None when the
    calibration does not say where the marker is."""
    box = marker_box(calibration, gray.shape[1], gray.shape[0], centre_mm)
    return None if box is None else edge_sharpness(gray, box)


def table_window(calibration, width: int, height: int,
                 positions_mm: list[tuple[float, float]], margin_mm: float = 30.0,
                 ) -> tuple[float, float, float, float] | None:
    """The table's calibrated region as rpicam-vid's ``--autofocus-window`` wants it (x, y,
    w, h as fractions of the frame): the box around the markers' board positions
    (``positions_mm``, widened by ``margin_mm``) mapped into the image, so a CM3's scan
    weighs the table and not a hand or a box lid beside it. None while no marker was seen."""
    if calibration is None or not calibration.from_marker or not positions_mm:
        return None
    xs = [x for x, _ in positions_mm]
    ys = [y for _, y in positions_mm]
    x0, x1 = min(xs) - margin_mm, max(xs) + margin_mm
    y0, y1 = min(ys) - margin_mm, max(ys) + margin_mm
    corners = calibration.to_image([(x0, y0), (x1, y0), (x1, y1), (x0, y1)])
    left, top = (max(0.0, float(v)) for v in corners.min(axis=0))
    right, bottom = float(min(width, corners[:, 0].max())), float(min(height, corners[:, 1].max()))
    if right - left < 0.05 * width or bottom - top < 0.05 * height:
        return None
    return (left / width, top / height, (right - left) / width, (bottom - top) / height)


class BandingMeter:
    """Feed it each frame (`update`); `flickering` says when the rows ripple frame after
    frame, `ripple` how strongly (the smoothed spread of the row ratio)."""

    def __init__(self) -> None:
        self._previous: np.ndarray | None = None
        self._recent: deque[float] = deque(maxlen=WINDOW)
        self.ripple = 0.0

    def update(self, gray: np.ndarray) -> float:
        rows = gray[:, ::16].mean(axis=1, dtype=np.float32) + 1.0  # 80 samples a row
        if self._previous is not None and self._previous.shape == rows.shape:
            ratio = np.log(rows / self._previous)
            ratio -= float(ratio.mean())
            # a slow trend (the AGC's step, a cloud) is not a band: take away a straight line
            x = np.linspace(-1, 1, ratio.size, dtype=np.float32)
            ratio -= x * float((ratio * x).sum() / (x * x).sum())
            spread = float(ratio.std())
            self._recent.append(spread)
            self.ripple = float(np.median(self._recent))
        self._previous = rows
        return self.ripple

    @property
    def measured(self) -> bool:
        """Enough frames since the (re)start to say either way."""
        return len(self._recent) >= 5

    @property
    def flickering(self) -> bool:
        if not self.measured:
            return False
        banded = sum(1 for s in self._recent if s > BANDS_AT)
        return banded >= 0.7 * len(self._recent)

    def reset(self) -> None:
        self._previous = None
        self._recent.clear()
        self.ripple = 0.0

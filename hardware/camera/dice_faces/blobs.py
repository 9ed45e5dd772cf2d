"""Stage: blobs. The masks' connected pieces, told apart: one die, dice touching (parted),
a patch of floor, the walls; and the dice's typical size.
"""
from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

from .common import _SQUARE, ERODE, _median_of
from .floor import _hull_fill
from .pips import _marked, _square_up


def _halves(points: np.ndarray, many: int = 2, grown: int = ERODE) -> list | None:
    """``many`` dice in a row with no gap the camera can see: a many:1 rectangle (2:1 for
    two side by side; ``points`` eroded by ``grown`` px), cut into squares."""
    (cx, cy), (rw, rh), angle = cv2.minAreaRect(points)
    rw, rh = rw + 2 * grown, rh + 2 * grown
    long_side, short_side = max(rw, rh), min(rw, rh)
    if not 0.9 * many <= long_side / short_side <= 1.125 * many:
        return None
    theta = np.radians(angle if rw >= rh else angle + 90)
    step = long_side / many
    side = (short_side + step) / 2
    return [((cx + np.cos(theta) * step * (k - (many - 1) / 2),
              cy + np.sin(theta) * step * (k - (many - 1) / 2)), (side, side), angle)
            for k in range(many)]


def _split(points: np.ndarray, typical: float, gray: np.ndarray
           ) -> list[tuple[np.ndarray, int]] | None:
    """Dice touching in one blob: their rounded, darker edges part them (the blob's bright
    cores), or else eroding it further until it falls into die-sized pieces."""
    pts = points.reshape(-1, 2)
    x0, y0 = pts.min(axis=0) - 2
    blob = np.zeros((int(pts[:, 1].max() - y0) + 3, int(pts[:, 0].max() - x0) + 3), np.uint8)
    blob[pts[:, 1] - y0, pts[:, 0] - x0] = 1
    side = np.sqrt(typical)
    values = gray[pts[:, 1], pts[:, 0]]
    light = np.zeros_like(blob)
    light[pts[:, 1] - y0, pts[:, 0] - x0] = values > 0.85 * np.median(values)
    holes, hole_labels, hole_stats, _ = cv2.connectedComponentsWithStats(1 - light,
                                                                          connectivity=4)
    small = hole_stats[:, cv2.CC_STAT_AREA] < 0.05 * typical
    small[0] = False
    light[small[hole_labels]] = 1  # pips back in
    light = cv2.erode(light, np.ones((3, 3), np.uint8))
    count, labels, stats, _ = cv2.connectedComponentsWithStats(light, connectivity=4)
    big = [i for i in range(1, count) if 0.3 * typical <= stats[i, cv2.CC_STAT_AREA]]
    if len(big) >= 2 and all(stats[i, cv2.CC_STAT_AREA] <= 1.3 * typical for i in big):
        grow = ERODE + 1 + int(round(side * 0.06))
        return [(cv2.findNonZero((labels == i).astype(np.uint8)) + (x0, y0), grow) for i in big]
    for extra in range(1, int(side * 0.25) + 1):
        blob = cv2.erode(blob, np.ones((3, 3), np.uint8))
        count, labels, stats, _ = cv2.connectedComponentsWithStats(blob, connectivity=8)
        big = [i for i in range(1, count) if stats[i, cv2.CC_STAT_AREA] >= 0.25 * typical]
        if len(big) >= 2:
            return [(cv2.findNonZero((labels == i).astype(np.uint8)) + (x0, y0), ERODE + extra)
                    for i in big]
    return None


@dataclass
class _Blob:
    """One connected part of the eroded mask: its outline, its filled pixels (holes left
    open) in its bounding box at (x, y), and their count; its hull's area, and whether it
    is a rounded square (`_square_enough`), measured once for every later look."""

    outline: np.ndarray
    filled: np.ndarray
    x: int
    y: int
    area: float
    hull_area: float
    square: bool

    def pixels(self) -> np.ndarray:
        return cv2.findNonZero(self.filled) + (self.x, self.y)


def _blobs(mask: np.ndarray) -> tuple[list[_Blob], bool]:
    """The blobs off the walls, and whether the tray is clear: the walls are thin, so
    anything joined to them that reaches well inside is a hand."""
    h, w = mask.shape
    reach = int(min(h, w) * 0.15)
    outlines, hierarchy = cv2.findContours(mask, cv2.RETR_CCOMP, cv2.CHAIN_APPROX_SIMPLE)
    blobs, clear = [], True
    parents = [] if hierarchy is None else hierarchy[0][:, 3].tolist()
    for i, outline in enumerate(outlines):
        if parents[i] >= 0:
            continue  # a hole's outline: drawn with its blob
        x, y, bw, bh = cv2.boundingRect(outline)
        if x == 0 or y == 0 or x + bw == w or y + bh == h:  # joined to the walls
            if clear and bw * bh > 4 * reach * reach:
                inside = np.zeros((h - 2 * reach, w - 2 * reach), np.uint8)
                cv2.drawContours(inside, outlines, i, 1, cv2.FILLED, hierarchy=hierarchy,
                                 maxLevel=1, offset=(-reach, -reach))
                clear = _thick(inside, reach) is False
            continue
        if bw * bh < 40:
            continue  # a speck: fewer pixels than a blob has (below), however filled
        filled = np.zeros((bh, bw), np.uint8)
        cv2.drawContours(filled, outlines, i, 1, cv2.FILLED, hierarchy=hierarchy, maxLevel=1,
                         offset=(-x, -y))
        area = cv2.countNonZero(filled)
        if area >= 40:
            hull_area, square = _hull_fill(outline, area)
            if square:  # a die whose print or pips bite its edge
                area = max(area, hull_area)
            # (still a rounded square by `_square_enough` with that area: it fills its hull)
            blobs.append(_Blob(outline, filled, x, y, float(area), hull_area, square))
    return blobs, clear


def _thick(region: np.ndarray, reach: int) -> bool:
    """A hand or an arm, not a streak of grain or the rim's edge: somewhere as thick as a
    third of ``reach`` (a fat stroke, ~5% of the tray). The region is the part of a wall's
    blob well inside the tray, cut off at that line: the cut erodes too (the image's edge
    would not), so a die against the rim poking a little past it is no hand (independent
    seed 33: the whole roll blocked)."""
    if not region.any():
        return False
    core = cv2.erode(region, np.ones((3, 3), np.uint8), iterations=max(1, reach // 6),
                     borderType=cv2.BORDER_CONSTANT, borderValue=0)
    return bool(core.any())


def _good_shape(blob: _Blob) -> bool:
    (_, _), (rw, rh), _ = cv2.minAreaRect(blob.outline)
    return max(rw, rh) <= 1.3 * max(1.0, min(rw, rh)) and blob.area >= 60 and blob.square


def _solid(blob: _Blob) -> bool:
    """Dice pressed together fill their outline's hull; grain and shadows do not."""
    return blob.area >= 0.85 * blob.hull_area


def _shaped(blobs: list[_Blob]) -> int:
    """How many of ``blobs`` are shaped like a die (as `_typical` takes them)."""
    return sum(b.area >= 150 and _good_shape(b) for b in blobs)


LIKE_SIZE = 1.5  # blob areas this far apart at most are of one size (the dice's)


def _typical(blobs: list[_Blob], die_px: float | None, image: np.ndarray | None = None
             ) -> float | None:
    """The area of one die's eroded blob: from a known size, else the median blob shaped
    like a die. When such blobs are of other sizes too (a pale felt lit unevenly leaves
    square patches as many as the dice seen obliquely, which are no squares), only those
    marked like a die (`_marked`: pips, print) tell the size, if any are."""
    if die_px:
        return (die_px - 2 * ERODE) ** 2
    shaped = [b for b in blobs if b.area >= 150 and _good_shape(b)]
    if not shaped:
        return None
    median = _median_of([b.area for b in shaped])
    if image is not None and any(not median / LIKE_SIZE <= b.area <= median * LIKE_SIZE
                                 for b in shaped):
        marked = [b.area for b in shaped if _marked(_square_up(image, _grown(b.outline)))]
        if marked:
            return _median_of(marked)
    return median


def _grown(outline: np.ndarray):
    """The minimum-area rectangle of an eroded blob's outline, grown back by `ERODE`."""
    (cx, cy), (rw, rh), angle = cv2.minAreaRect(outline)
    return (cx, cy), (rw + 2 * ERODE, rh + 2 * ERODE), angle


def _trimmed(blob: _Blob, typical: float) -> tuple[np.ndarray, int] | None:
    """A die's blob with a neighbour's corner hanging on (it fills its rectangle poorly):
    eroded further until its main part is square, as (pixels, px eroded); None when the
    blob is square already or does not come apart."""
    (_, _), (rw, rh), _ = cv2.minAreaRect(blob.outline)
    if blob.area >= 0.85 * (rw + 1) * (rh + 1):
        return None
    part = blob.filled
    for extra in (1, 2):
        part = cv2.erode(part, _SQUARE)
        count, labels, stats, _ = cv2.connectedComponentsWithStats(part, connectivity=8)
        if count < 3:
            continue
        main = 1 + int(np.argmax(stats[1:, cv2.CC_STAT_AREA]))
        if stats[main, cv2.CC_STAT_AREA] >= 0.4 * typical:
            pixels = cv2.findNonZero((labels == main).astype(np.uint8)) + (blob.x, blob.y)
            return pixels, ERODE + extra
    return None

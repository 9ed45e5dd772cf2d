"""A hand, an arm or a cup over the tray: the whole roll waits rather than read a part of it.
"""
from __future__ import annotations

import cv2
import numpy as np

from .common import _SUM, _median_rows

HAND_DISTANCE = 90.0  # B+G+R levels from the tray's colour: a hand, an arm, a cup
HAND_SHARE = 0.05  # of the tray a hand's core covers at least (a rendered hand: 0.08-0.3)


def _hand(image: np.ndarray) -> bool:
    """A hand (an arm, a cup) over the tray: something far from the tray's colour (the
    median of its middle, in a small copy), thick, reaching in over part of the walls (a
    die seen close fills the middle: then the floor all round is far from it), and large
    (`HAND_SHARE` of the tray: dice against a wall with their dark shadows, or a dark plank
    of wood along it, join the rim too).
    The floor around a die is judged locally, where a hand would pass for floor."""
    h, w = image.shape[:2]
    scale = 64.0 / max(h, w)
    if scale <= 0.25:  # halved first: OpenCV's area averaging by two is fast, by 7.5 slow
        image = cv2.resize(image, (w // 2, h // 2), interpolation=cv2.INTER_AREA)
    small = cv2.resize(image, (max(8, int(w * scale)), max(8, int(h * scale))),
                       interpolation=cv2.INTER_AREA).astype(np.float32)
    sh, sw = small.shape[:2]
    middle = small[sh // 6: sh - sh // 6, sw // 6: sw - sw // 6].reshape(-1, 3)
    far = cv2.transform(np.abs(small - _median_rows(middle)), _SUM) > HAND_DISTANCE
    far = _inside_rims(far)
    sh, sw = far.shape
    core = cv2.erode(far.astype(np.uint8), np.ones((3, 3), np.uint8), iterations=2)
    if not core.any():
        return False
    count, labels, stats, _ = cv2.connectedComponentsWithStats(core, connectivity=8)
    reach = int(min(sh, sw) * 0.15)
    border = np.concatenate([labels[0], labels[-1], labels[1:-1, 0], labels[1:-1, -1]])
    for i in range(1, count):
        along = float((border == i).mean())  # a hand comes in over part of one wall
        inside = labels[reach:sh - reach, reach:sw - reach] == i
        if 0 < along < 0.5 and inside.any() and stats[i, cv2.CC_STAT_AREA] >= (
                HAND_SHARE * sh * sw):
            return True
    return False


HAND_RIM = 0.9  # of a row (a column) along a wall far from the tray's colour: a rim, not a
# hand, which comes in over part of a wall (session 87, independent seed 1454 at the
# renderer's sizes: a lid's dark rim along the top, 67 of 360 rows, its rows 1.0 far in the
# small copy; with the red dice against it, one thing reaching in past `reach`, 0.29 of the
# walls: taken for a hand, 0 of 8 dice read and no roll)


def _inside_rims(far: np.ndarray) -> np.ndarray:
    """``far`` (the small copy's pixels far from the tray's colour) inside the rows (columns)
    along each wall that are `HAND_RIM` far, fewer than a third of the copy's, unless three
    walls or more are so (a die seen close: the tray's colour, from the middle, is its): a hand
    is looked for inside the tray's rim, its edge the rim's inner edge (a hand over the rim
    reaches on past it; a die against the rim is small)."""
    h, w = far.shape
    cut = []
    for lines, n in ((far, h), (far[::-1], h), (far.T, w), (far.T[::-1], w)):
        full = lines[: n // 3].mean(axis=1) >= HAND_RIM
        cut.append(0 if full.all() else int(np.argmin(full)))
    if sum(k > 0 for k in cut) >= 3:  # far along three walls or four: a die seen close,
        return far  # the floor round it far from its colour; as before (the photographs'
    # ones, their first row not far: taken for hands, 3 of 24, with a cut on three walls)
    top, bottom, left, right = cut
    return far[top:h - bottom, left:w - right]

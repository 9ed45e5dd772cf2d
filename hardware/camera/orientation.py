"""Is a read's turn beyond doubt? The sticker's own finder patterns, checked in the picture.

A QR symbol's turn is where its three finder patterns are: top-left, top-right and
bottom-left, the bottom-right corner holds data. A decoder reports the symbol's corners in
that order, and a card's turn follows from them; but a corner list put together wrongly
(a finder guessed half round under glare, a crop mapped back wrong) still carries a text
that Reed-Solomon accepts, and the card would be committed turned 180 degrees (issue 50:
World Without End's event card sets every player's income by its turn). So each read is
checked against the picture itself: the symbol is resampled upright from the corners it was
read with, and the three corners the read calls finder patterns must look like finder
patterns, clearly more than the fourth does. A read that fails counts for the card being
there, never for its turn (hardware.camera.tracker).
"""
from __future__ import annotations

from functools import lru_cache

import cv2
import numpy as np
import qrcode

from hardware.camera.percentile import percentiles

PX = 4  # pixels per module in the resampled symbol
MARGIN = 0.35  # the weakest finder corner's correlation over the data corner's
FLOOR = 0.25  # the weakest finder corner's own correlation with a finder pattern
VERSION_2 = 25  # modules of our tags (docs/tags.md); other payloads: their own size


def _finder_template() -> np.ndarray:
    """The 8x8 top-left corner of a symbol: the finder pattern (dark 7x7 ring, light ring,
    dark 3x3 centre) and its light separator; 0 dark, 1 light."""
    out = np.ones((8, 8), np.float32)
    for i in range(7):
        for j in range(7):
            ring = max(abs(i - 3), abs(j - 3))
            out[i, j] = 0.0 if ring in (0, 1, 3) else 1.0
    return out


TEMPLATE = _finder_template()


@lru_cache(maxsize=256)
def modules_of(payload: str) -> int:
    """Modules across the symbol ``payload`` is printed as (error correction H, the smallest
    version that fits: hardware.tags.sheet.qr_matrix's), from the version alone: encoding
    the whole symbol, its eight masks scored, took 12-80 ms a new payload (issue 71)."""
    try:
        code = qrcode.QRCode(error_correction=qrcode.constants.ERROR_CORRECT_H, border=0)
        code.add_data(payload)
        return 17 + 4 * code.best_fit()
    except Exception:  # not encodable as we print (a foreign code): assume version 2
        return VERSION_2


def corner_scores(gray: np.ndarray, corners, modules: int) -> list[float] | None:
    """Correlation with a finder pattern of the symbol's top-left, top-right, bottom-right
    and bottom-left 8x8 module corners, as labelled by ``corners``; None when the symbol is
    not wholly in the picture."""
    quad = np.float32(corners)
    h, w = gray.shape[:2]
    if (quad < 0).any() or (quad[:, 0] >= w).any() or (quad[:, 1] >= h).any():
        return None
    size = modules * PX
    square = np.float32([[0, 0], [size, 0], [size, size], [0, size]])
    upright = cv2.warpPerspective(gray, cv2.getPerspectiveTransform(quad, square),
                                  (size, size), flags=cv2.INTER_LINEAR)
    grid = upright.reshape(modules, PX, modules, PX)[:, 1:3, :, 1:3].mean((1, 3))
    n = modules
    blocks = [grid[:8, :8], grid[:8, n - 8:][:, ::-1], grid[n - 8:, n - 8:][::-1, ::-1],
              grid[n - 8:, :8][::-1, :]]
    return [_correlation(b, TEMPLATE) for b in blocks]


def _correlation(a: np.ndarray, b: np.ndarray) -> float:
    a = a.astype(np.float32).ravel() - a.mean()
    b = b.astype(np.float32).ravel() - b.mean()
    norm = float(np.sqrt((a * a).sum() * (b * b).sum()))
    return float((a * b).sum()) / norm if norm > 1e-6 else 0.0


def turn_sure(gray: np.ndarray, corners, payload: str) -> bool:
    """The read's three finder corners look like finder patterns in the picture, each
    clearly more than its data corner: its turn cannot be another quarter, least of all
    the opposite one (whose finder corners would be this read's data corner)."""
    scores = corner_scores(gray, corners, modules_of(payload))
    if scores is None:
        return False
    finders = min(scores[0], scores[1], scores[3])
    return finders >= FLOOR and finders - scores[2] >= MARGIN


OUTLINE_AT = 0.85  # symbol sides from the symbol's centre, up and down its own axis
OUTLINE_STRONG = 0.25  # of the symbol's black-to-white contrast: a side clearly the card's


def outline(gray: np.ndarray, corners) -> float | None:
    """Which way the card lies from its sticker, in the sticker's own terms: how much
    lighter the picture is a little below the symbol than a little above it, over the
    symbol's own contrast (positive: the card's light body below, as when the sticker sits
    near the card's top edge). A sticker stays where it was stuck, so this never changes
    when the card turns; a read named half round sees it change sign. None when the
    points are out of the picture or the symbol shows no contrast."""
    quad = np.float32(corners)
    square = np.float32([[0, 0], [1, 0], [1, 1], [0, 1]])
    to_image = cv2.getPerspectiveTransform(square, quad)
    points = np.float32([[[0.5, 0.5 - OUTLINE_AT]], [[0.5, 0.5 + OUTLINE_AT]]])
    up, down = cv2.perspectiveTransform(points, to_image).reshape(2, 2)
    side = float(np.linalg.norm(quad[1] - quad[0]))
    r = max(2, int(side * 0.12))
    h, w = gray.shape[:2]
    values = []
    for x, y in (up, down):
        xi, yi = int(round(x)), int(round(y))
        if not (r <= xi < w - r and r <= yi < h - r):
            return None
        values.append(float(gray[yi - r:yi + r + 1, xi - r:xi + r + 1].mean()))
    upright = cv2.warpPerspective(gray, cv2.getPerspectiveTransform(
        quad, np.float32([[0, 0], [70, 0], [70, 70], [0, 70]])), (70, 70))
    low, high = percentiles(upright, (10, 90))  # one partial sort for both
    contrast = float(high - low)
    if contrast < 20:
        return None
    return (values[1] - values[0]) / contrast

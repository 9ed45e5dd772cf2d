"""A straight picture of a card cut out of a camera frame, found through its sticker.

The decoder gives the sticker's QR symbol as four image points (its own top-left,
top-right, bottom-right, bottom-left). A card's rectangle is known in the symbol's own
coordinates (the symbol spans 0..1 both ways, x right and y down along the symbol), so the
unit square -> symbol quad perspective maps the card's corners into the image, and
``cv2.getPerspectiveTransform`` from those to an upright rectangle straightens the card.
Knows no game: the card's size relative to its sticker is a parameter.
"""
from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np


@dataclass(frozen=True)
class CardLayout:
    """The card's rectangle in sticker symbol sides, relative to the symbol's top-left.

    E.g. a symbol centred near the top of a card 1.6 symbols wide and 2.3 high:
    ``CardLayout(left=-0.3, top=-0.25, width=1.6, height=2.3)``.
    """

    left: float
    top: float
    width: float
    height: float

    def __post_init__(self) -> None:
        if not (self.width > 0 and self.height > 0):
            raise ValueError("a card needs a positive width and height")


def card_quad(corners, layout: CardLayout) -> np.ndarray:
    """The card's four corners in the image (top-left, top-right, bottom-right,
    bottom-left), float32 4x2."""
    quad = np.float32(corners).reshape(4, 2)
    if not np.isfinite(quad).all():
        raise ValueError("the sticker corners are not finite numbers")
    if abs(cv2.contourArea(quad)) < 16 or not cv2.isContourConvex(quad):
        raise ValueError("the sticker corners do not form a quadrilateral")
    unit = np.float32([[0, 0], [1, 0], [1, 1], [0, 1]])
    h = cv2.getPerspectiveTransform(unit, quad)
    x0, y0 = layout.left, layout.top
    x1, y1 = x0 + layout.width, y0 + layout.height
    card = np.float32([[[x0, y0], [x1, y0], [x1, y1], [x0, y1]]])
    return cv2.perspectiveTransform(card, h)[0]


def card_picture(frame: np.ndarray, corners, layout: CardLayout, width: int = 480) -> np.ndarray:
    """The card cut out of ``frame`` and straightened, ``width`` pixels wide (the height
    follows the layout's aspect). Parts of the card outside the frame come out black."""
    if frame is None or getattr(frame, "ndim", 0) not in (2, 3) or frame.size == 0:
        raise ValueError("no camera frame")
    if not 16 <= int(width) <= 4000:
        raise ValueError("picture width must be 16 to 4000 pixels")
    height = max(1, round(width * layout.height / layout.width))
    target = np.float32([[0, 0], [width, 0], [width, height], [0, height]])
    matrix = cv2.getPerspectiveTransform(card_quad(corners, layout), target)
    return cv2.warpPerspective(frame, matrix, (int(width), int(height)),
                               flags=cv2.INTER_AREA, borderMode=cv2.BORDER_CONSTANT)

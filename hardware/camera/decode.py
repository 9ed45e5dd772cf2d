"""QR decoding of one frame with zxing-cpp.

Why zxing-cpp and not OpenCV's detector: on the synthetic 1280x720 table frames it is about
30x faster and finds every code where OpenCV's QRCodeDetectorAruco misses about a quarter
(figures in docs/camera.md, measured by bench/camera.py). OpenCV still does capture, colour
conversion and the geometry.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from functools import cached_property

import cv2
import numpy as np
import zxingcpp

Point = tuple[float, float]


@dataclass(frozen=True)
class Detection:
    """One decoded QR symbol in image coordinates."""

    payload: str
    corners: tuple[Point, Point, Point, Point]  # the symbol's own top-left, top-right, ...
    angle: float  # image angle of the symbol's top, degrees clockwise from image up, [0, 360)

    @cached_property
    def centre(self) -> Point:
        xs, ys = zip(*self.corners, strict=True)
        return sum(xs) / 4, sum(ys) / 4

    @property
    def side(self) -> float:
        """Mean edge length in pixels (the symbol's apparent size)."""
        c = self.corners
        return sum(math.dist(c[i], c[(i + 1) % 4]) for i in range(4)) / 4


def symbol_angle(corners) -> float:
    """The symbol's rotation from its corners: the mean of the top edge and left edge angles.

    A symbol turned clockwise by t has its top edge along (cos t, sin t) and its left edge
    (bottom-left -> top-left) along (sin t, -cos t) in image coordinates (y down).
    """
    (tlx, tly), (trx, try_), _, (blx, bly) = corners
    top = math.atan2(try_ - tly, trx - tlx)
    left = math.atan2(tlx - blx, -(tly - bly))
    x = math.cos(top) + math.cos(left)
    y = math.sin(top) + math.sin(left)
    return math.degrees(math.atan2(y, x)) % 360


def to_gray(frame: np.ndarray) -> np.ndarray:
    """A grayscale view of a frame (BGR from OpenCV, or already gray from picamera2)."""
    if frame.ndim == 2:
        return frame
    return cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY)


TAG_PREFIX = "TC1:"  # hardware.tags.format.VERSION
TAG_LEVEL = "H"  # our stickers are printed at error correction H (hardware/tags/sheet.py)


def printed_as_ours(result) -> bool:
    """A zxing result that says it is one of our tags was encoded as we print them (level
    H). A tag text at another level is not a sticker we printed: a misread of another
    symbol, or someone else's code; dropping it cuts false decodes (issue 50)."""
    return not result.text.startswith(TAG_PREFIX) or \
        getattr(result, "ec_level", TAG_LEVEL) in (TAG_LEVEL, "")


@dataclass(frozen=True)
class DecoderSettings:
    """zxing-cpp options, tuned for speed on the table (see bench/camera.py --sweep).

    QR symbols are found in any orientation without try_rotate (that flag only matters for
    1D codes), stickers are dark on light (no invert), and our 80-120 px symbols need no
    downscaled passes; turn try_downscale on for a camera close to huge stickers.
    """

    try_rotate: bool = False
    try_downscale: bool = False
    try_invert: bool = False
    binarizer: str = "LocalAverage"


class Decoder:
    def __init__(self, settings: DecoderSettings | None = None) -> None:
        self.settings = settings or DecoderSettings()
        self._binarizer = getattr(zxingcpp.Binarizer, self.settings.binarizer)

    def decode(self, frame: np.ndarray) -> list[Detection]:
        """Every valid QR code in the frame. Damaged symbols that fail error correction are
        not returned (zxing-cpp checks the Reed-Solomon code; return_errors stays off)."""
        gray = to_gray(frame)
        results = zxingcpp.read_barcodes(
            gray, formats=zxingcpp.BarcodeFormat.QRCode,
            try_rotate=self.settings.try_rotate, try_downscale=self.settings.try_downscale,
            try_invert=self.settings.try_invert, binarizer=self._binarizer)
        out = []
        for result in results:
            if not result.valid or not printed_as_ours(result):
                continue
            p = result.position
            corners = tuple((float(q.x), float(q.y)) for q in
                            (p.top_left, p.top_right, p.bottom_right, p.bottom_left))
            out.append(Detection(result.text, corners, symbol_angle(corners)))
        return out

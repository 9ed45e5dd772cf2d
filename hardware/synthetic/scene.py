"""Synthetic scenes: cards with QR stickers on a textured table, seen by an imperfect camera.

Each scene is rendered flat (cards at exact positions and angles), then degraded the way a
cheap webcam above a table degrades it: mild perspective, uneven light, blur, sensor noise
and JPEG compression. The ground truth (payload, centre in the final image, board rotation)
comes with every image, so tests and the benchmark can check what the decoder reports.

Angles are degrees clockwise as seen from above (= in the image, whose y axis points down);
a card's ``rotation`` is in quarter turns clockwise relative to the board marker's north.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field

import cv2
import numpy as np

from hardware.tags.format import BOARD_MARKER
from hardware.tags.sheet import qr_matrix

WIDTH, HEIGHT = 1280, 720


@dataclass(frozen=True)
class Placement:
    """Where one sticker-carrying object lies on the flat table (pixels, degrees clockwise)."""

    payload: str
    x: float
    y: float
    angle: float  # image angle of the card's top, clockwise from image up
    marker: bool = False  # a bare board marker sticker rather than a card


@dataclass(frozen=True)
class Style:
    """How the camera degrades the picture (defaults match docs/hardware research frames)."""

    symbol_px: int = 100  # side of the QR symbol on the flat table
    perspective: float = 0.03  # max corner displacement as a fraction of the frame size
    blur_sigma: float = 1.0
    noise_sigma: float = 6.0
    jpeg_quality: int = 80
    light_min: float = 0.65  # darkest corner as a fraction of full light
    damaged: frozenset[str] = field(default_factory=frozenset)  # payloads to scratch out


@dataclass(frozen=True)
class Truth:
    """Ground truth of one object in the final image."""

    payload: str
    centre: tuple[float, float]  # of the card, in the final (warped) image
    sticker: tuple[float, float]  # centre of the QR symbol, in the final image
    angle: float  # image angle after perspective, clockwise degrees
    rotation: int | None  # quarter turns relative to the marker; None for the marker itself


def _table(rng: np.random.Generator) -> np.ndarray:
    """A wood-like table: warm base colour, stripes and low-frequency blotches."""
    y, x = np.mgrid[0:HEIGHT, 0:WIDTH].astype(np.float32)
    phase = rng.uniform(0, 2 * math.pi)
    stripes = np.sin(y / rng.uniform(6, 11) + 3 * np.sin(x / 180 + phase)) * 0.5 + 0.5
    blotch = cv2.resize(rng.random((9, 16)).astype(np.float32), (WIDTH, HEIGHT),
                        interpolation=cv2.INTER_CUBIC)
    shade = 0.55 + 0.25 * stripes + 0.2 * blotch
    base = np.array([60, 105, 150], dtype=np.float32)  # BGR brown
    return np.clip(shade[..., None] * base[None, None, :] * 1.1, 0, 255).astype(np.uint8)


def _sticker(payload: str, symbol_px: int, damaged: bool, rng: np.random.Generator) -> np.ndarray:
    matrix = np.array(qr_matrix(payload), dtype=bool)
    n = matrix.shape[0]
    symbol = np.where(matrix, 20, 235).astype(np.uint8)
    symbol = cv2.resize(symbol, (symbol_px, symbol_px), interpolation=cv2.INTER_NEAREST)
    quiet = round(symbol_px * 3 / n)
    out = np.full((symbol_px + 2 * quiet, symbol_px + 2 * quiet), 240, np.uint8)
    out[quiet:quiet + symbol_px, quiet:quiet + symbol_px] = symbol
    if damaged:  # a torn sticker: a finder pattern and a band of modules scratched out
        s = symbol_px
        cv2.rectangle(out, (quiet, quiet), (quiet + s // 3, quiet + s // 3), 235, -1)
        cv2.rectangle(out, (quiet, quiet + s // 2), (quiet + s, quiet + s // 2 + s // 6), 20, -1)
    return out


def _sticker_side(payload: str, style: Style) -> int:
    return style.symbol_px + 2 * round(style.symbol_px * 3 / len(qr_matrix(payload)))


def _sticker_offset(placement: Placement, style: Style) -> float:
    """How far the sticker's centre lies above the card's centre (upright, pixels)."""
    if placement.marker:
        return 0.0
    side = _sticker_side(placement.payload, style)
    return int(side * 2.05) / 2 - (10 + side / 2)


def _card_patch(placement: Placement, style: Style, rng: np.random.Generator):
    """The object upright: a cream card with illustration and the sticker, or a bare marker."""
    sticker = _sticker(placement.payload, style.symbol_px, placement.payload in style.damaged,
                       rng)
    sh, sw = sticker.shape
    if placement.marker:
        card = np.full((sh + 8, sw + 8, 3), 250, np.uint8)
        card[4:4 + sh, 4:4 + sw] = sticker[..., None]
        return card
    w, h = int(sw * 1.45), int(sw * 2.05)
    card = np.full((h, w, 3), (200, 225, 235), np.uint8)
    for _ in range(6):  # illustration blobs in the lower half: distractors for the detector
        colour = tuple(int(c) for c in rng.integers(40, 200, 3))
        centre = (int(rng.integers(10, w - 10)), int(rng.integers(sh + 20, h - 10)))
        cv2.circle(card, centre, int(rng.integers(6, 22)), colour, -1)
    cv2.rectangle(card, (0, 0), (w - 1, h - 1), (90, 90, 120), 3)
    x0, y0 = (w - sw) // 2, 10
    card[y0:y0 + sh, x0:x0 + sw] = sticker[..., None]
    return card


def _paste(canvas: np.ndarray, patch: np.ndarray, x: float, y: float, angle: float) -> None:
    h, w = patch.shape[:2]
    side = int(math.hypot(w, h)) + 4
    matrix = cv2.getRotationMatrix2D((w / 2, h / 2), -angle, 1.0)  # OpenCV: positive = CCW
    matrix[:, 2] += (side - w) / 2, (side - h) / 2
    rotated = cv2.warpAffine(patch, matrix, (side, side), flags=cv2.INTER_LINEAR)
    mask = cv2.warpAffine(np.full((h, w), 255, np.uint8), matrix, (side, side))
    x0, y0 = int(round(x - side / 2)), int(round(y - side / 2))
    cx0, cy0 = max(x0, 0), max(y0, 0)
    cx1, cy1 = min(x0 + side, canvas.shape[1]), min(y0 + side, canvas.shape[0])
    if cx1 <= cx0 or cy1 <= cy0:
        return
    region = canvas[cy0:cy1, cx0:cx1]
    sub = rotated[cy0 - y0:cy1 - y0, cx0 - x0:cx1 - x0]
    inside = mask[cy0 - y0:cy1 - y0, cx0 - x0:cx1 - x0] > 127
    np.copyto(region, sub, where=inside[..., None])


_NOISE: list[np.ndarray] = []


def _unit_noise() -> np.ndarray:
    """A stored field of N(0, 1) * 16 noise (int16), slightly larger than a frame."""
    if not _NOISE:
        field = np.empty((HEIGHT + 64, WIDTH + 64, 3), np.int16)
        cv2.setRNGSeed(12345)
        cv2.randn(field, 0, 16)
        _NOISE.append(field)
    return _NOISE[0]


def _perspective(rng: np.random.Generator, amount: float) -> np.ndarray:
    src = np.float32([[0, 0], [WIDTH, 0], [WIDTH, HEIGHT], [0, HEIGHT]])
    jitter = rng.uniform(-amount, amount, (4, 2)) * np.float32([WIDTH, HEIGHT])
    return cv2.getPerspectiveTransform(src, (src + jitter).astype(np.float32))


def _warp_point(h: np.ndarray, x: float, y: float) -> tuple[float, float]:
    p = cv2.perspectiveTransform(np.float32([[[x, y]]]), h)[0, 0]
    return float(p[0]), float(p[1])


@dataclass(frozen=True)
class Camera:
    """A fixed synthetic camera: table texture, perspective and light stay between frames."""

    table: np.ndarray
    homography: np.ndarray
    light: np.ndarray  # per-pixel, per-channel light factor (float32, HxWx3)

    @classmethod
    def create(cls, seed: int = 0, style: Style | None = None) -> Camera:
        style = style or Style()
        rng = np.random.default_rng(seed)
        table = _table(rng)
        homography = _perspective(rng, style.perspective)
        y, x = np.mgrid[0:HEIGHT, 0:WIDTH].astype(np.float32)
        lx, ly = rng.uniform(0, WIDTH), rng.uniform(0, HEIGHT)
        dist = np.hypot(x - lx, y - ly) / math.hypot(WIDTH, HEIGHT)
        light = 1.0 - (1.0 - style.light_min) * np.clip(dist / 0.8, 0, 1)
        return cls(table, homography, np.repeat(light.astype(np.float32)[..., None], 3, 2))

    def render(self, placements: list[Placement], style: Style | None = None,
               seed: int = 0) -> tuple[np.ndarray, list[Truth]]:
        """A BGR frame (JPEG-decoded, like a webcam's MJPEG) and the truth of every object."""
        style = style or Style()
        rng = np.random.default_rng(seed)
        canvas = self.table.copy()
        for placement in placements:
            _paste(canvas, _card_patch(placement, style, rng), placement.x, placement.y,
                   placement.angle)
        image = cv2.warpPerspective(canvas, self.homography, (WIDTH, HEIGHT),
                                    borderMode=cv2.BORDER_REFLECT)
        image = cv2.multiply(image, self.light, dtype=cv2.CV_8U)
        if style.blur_sigma > 0:
            image = cv2.GaussianBlur(image, (0, 0), style.blur_sigma)
        if style.noise_sigma > 0:
            # a fresh field of unit Gaussian noise each frame is the slowest step; a shifted
            # slice of a larger stored field is just as random to a decoder, and fast
            dy, dx = int(rng.integers(0, 64)), int(rng.integers(0, 64))
            unit = _unit_noise()[dy:dy + HEIGHT, dx:dx + WIDTH]
            noise = cv2.multiply(unit, style.noise_sigma / 16, dtype=cv2.CV_16S)
            image = cv2.add(image, noise, dtype=cv2.CV_8U)
        ok, jpeg = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, style.jpeg_quality])
        assert ok
        image = cv2.imdecode(jpeg, cv2.IMREAD_COLOR)
        return image, self.truth(placements, style)

    def truth(self, placements: list[Placement], style: Style | None = None) -> list[Truth]:
        style = style or Style()
        marker = next((p for p in placements if p.marker), None)
        north = marker.angle if marker else 0.0
        out = []
        for p in placements:
            cx, cy = _warp_point(self.homography, p.x, p.y)
            rad = math.radians(p.angle)
            tx, ty = _warp_point(self.homography, p.x + 30 * math.sin(rad),
                                 p.y - 30 * math.cos(rad))
            up = _sticker_offset(p, style)
            sticker = _warp_point(self.homography, p.x + up * math.sin(rad),
                                  p.y - up * math.cos(rad))
            angle = math.degrees(math.atan2(tx - cx, -(ty - cy))) % 360
            rotation = None if p.marker else round(((p.angle - north) % 360) / 90) % 4
            out.append(Truth(p.payload, (cx, cy), sticker, angle, rotation))
        return out


def random_placements(rng: np.random.Generator, payloads: list[str], marker_angle: float = 0.0,
                      jitter: float = 8.0, with_marker: bool = True) -> list[Placement]:
    """Cards in a loose grid (no overlaps), each at a random quarter turn ± jitter degrees."""
    slots = [(x, y) for y in (190, 530) for x in (170, 480, 790, 1100)]
    order = rng.permutation(len(slots))
    placements = []
    if with_marker:
        mx, my = slots[order[0]]
        placements.append(Placement(BOARD_MARKER, mx, my, marker_angle, marker=True))
    for index, payload in enumerate(payloads):
        sx, sy = slots[order[index + 1]]
        quarter = int(rng.integers(0, 4))
        angle = marker_angle + 90 * quarter + rng.uniform(-jitter, jitter)
        placements.append(Placement(payload, sx + rng.uniform(-25, 25), sy + rng.uniform(-15, 15),
                                    angle % 360))
    return placements


def random_scene(seed: int, payloads: list[str], marker_angle: float = 0.0,
                 style: Style | None = None) -> tuple[np.ndarray, list[Truth]]:
    """One random frame: up to 7 cards plus the board marker."""
    if len(payloads) > 7:
        raise ValueError("at most 7 cards fit the synthetic table")
    rng = np.random.default_rng(seed)
    camera = Camera.create(seed, style)
    return camera.render(random_placements(rng, payloads, marker_angle), style, seed)

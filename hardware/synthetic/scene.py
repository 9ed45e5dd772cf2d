"""Synthetic scenes: cards with QR stickers on a textured table, seen by an imperfect camera.

Each scene is rendered flat (cards at exact positions and angles), then degraded the way a
cheap webcam above a table degrades it: mild perspective, uneven light, blur, sensor noise
and JPEG compression. Harder conditions are opt-in (`Style`): a pinhole camera tilted up to
20 degrees at 40-60 cm, defocus, glare, motion blur of a moving card, a hand (with its
shadow) over the table, a Bayer sensor, 1080p output, small modules. The ground truth
(payload, centre in the final image, board rotation, module size, how much is covered)
comes with every image, so tests and the benchmark can check what the decoder reports.

Angles are degrees clockwise as seen from above (= in the image, whose y axis points down);
a card's ``rotation`` is in quarter turns clockwise relative to the board marker's north.
"""
from __future__ import annotations

import math
import zlib
from dataclasses import dataclass, field, replace

import cv2
import numpy as np

from hardware.synthetic import frame_cache
from hardware.synthetic.lens import Lens
from hardware.synthetic.lens import blur as lens_blur
from hardware.synthetic.ray_optics import RayLens
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
    motion: tuple[float, float] = (0.0, 0.0)  # flat px the card moves during the exposure
    face_down: bool = False  # the card's back up: no sticker in view (issue 35's covers)


@dataclass(frozen=True)
class Hand:
    """A hand over the table (drawn above the cards): fingertip at (x, y) flat pixels, the arm
    coming from direction ``angle`` (degrees clockwise from image up: 0 = from the top)."""

    x: float
    y: float
    angle: float = 0.0
    scale: float = 1.0  # 1 = an adult hand about 90 mm wide at 0.3 mm per flat pixel


@dataclass(frozen=True)
class Die:
    """A die lying on the table or on a card (drawn above the cards, like a hand): centre
    (x, y) flat px, turned ``angle`` degrees, ``side`` flat px (16 mm = 53 at 0.3 mm/px)."""

    x: float
    y: float
    angle: float = 0.0
    side: float = 53.0
    pips: int = 5


@dataclass(frozen=True)
class Sleeve:
    """A glossy sleeve (or sticker) on card ``card`` (its index in the placements) mirrors
    a window or a lamp: a bright band ``width`` flat px wide through (x, y) at ``angle``
    degrees, washing the card out by up to ``strength`` (0..1), soft at its edges."""

    card: int
    x: float
    y: float
    angle: float
    width: float
    strength: float


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
    # opt-in harder conditions (defaults keep the original frames bit for bit)
    tilt_deg: float = 0.0  # pinhole camera tilted this far from vertical (replaces perspective)
    height_mm: float = 600.0  # camera height above the table for the pinhole model
    defocus_px: float = 0.0  # radius of a disk (out of focus) blur in output pixels
    glare: float = 0.0  # 0..1 strength of a specular highlight (a lamp reflected by the cards)
    glare_at: tuple[float, float] | None = None  # its centre in flat px; None: random
    bayer: bool = False  # sample a Bayer mosaic and demosaic it, like a raw sensor pipeline
    scale: float = 1.0  # output resolution relative to 1280x720 (1.5 = 1920x1080)
    # a real table (issue 20), opt-in too: "plain" is the original wood-like texture,
    # "wood" real grain (fibres, rings, knots), "board" a printed game board over the wood
    table: str = "plain"
    shadow: float = 0.0  # 0..1 darkness of the soft shadow each card casts (lamp at a slant)
    vignette: float = 0.0  # light lost at the frame corners (lens falloff), 0..1
    raw_noise: bool = False  # with bayer: the sensor noise on the mosaic, before demosaicing
    # issue 35: a real lens's blur (hardware.synthetic.lens; replaces nothing, adds to the
    # defocus disc) and a glossy sleeve's highlight over one card
    lens: Lens | None = None
    sleeve: Sleeve | None = None
    # issue 50: the held-out lens traced through an aberrated pupil (ray_optics: no code
    # shared with `lens`), applied after it
    optics: RayLens | None = None


@dataclass(frozen=True)
class Truth:
    """Ground truth of one object in the final image."""

    payload: str
    centre: tuple[float, float]  # of the card, in the final (warped) image
    sticker: tuple[float, float]  # centre of the QR symbol, in the final image
    angle: float  # image angle after perspective, clockwise degrees
    rotation: int | None  # quarter turns relative to the marker; None for the marker itself
    module_px: float = 0.0  # apparent size of one module in the final image (smallest side)
    covered: float = 0.0  # share of the symbol hidden by a card above it or a hand
    in_view: bool = True  # the whole symbol lies inside the frame
    defocus_px: float = 0.0  # radius of the defocus disk in output pixels
    contrast: float = 255.0  # gray levels between white and black modules (glare, light)
    washed: float = 0.0  # share of the symbol a sleeve's highlight washes out (1: a finder)

    @property
    def decodable(self) -> bool:
        """Readable in principle, by a decoder that samples each module's centre:

        - the whole symbol in view, modules of at least 2 px;
        - a defocus disk of radius <= 0.8 module: then every module keeps at least half of
          its own light at its centre even when all its neighbours are of the other colour
          (module area / disk area >= 1/2 <=> r <= sqrt(2/pi) modules);
        - at least 30 gray levels between white and black modules under the glare (the
          sensor noise and JPEG take about 10);
        - nothing over it but at most a fingertip (< 6 % of the symbol: one finder);
        - a lens blur (`lens.Lens`) counts by its equivalent disc radius along its worst
          axis, like the disc;
        - a sleeve's highlight washing out at most 10 % of the symbol (under 30 gray
          levels there), none of its finder patterns (error correction H restores 30 % of
          the codewords; a washed band spoils many codewords a little)."""
        return (self.in_view and self.module_px >= 2.0 and self.covered < 0.06
                and self.defocus_px <= 0.8 * self.module_px and self.contrast >= 30
                and self.washed <= 0.1)


def _table(rng: np.random.Generator, width: int = WIDTH, height: int = HEIGHT) -> np.ndarray:
    """A wood-like table: warm base colour, stripes and low-frequency blotches."""
    y, x = np.mgrid[0:height, 0:width].astype(np.float32) * np.float32(HEIGHT / height)
    phase = rng.uniform(0, 2 * math.pi)
    stripes = np.sin(y / rng.uniform(6, 11) + 3 * np.sin(x / 180 + phase)) * 0.5 + 0.5
    blotch = cv2.resize(rng.random((9, 16)).astype(np.float32), (width, height),
                        interpolation=cv2.INTER_CUBIC)
    shade = 0.55 + 0.25 * stripes + 0.2 * blotch
    base = np.array([60, 105, 150], dtype=np.float32)  # BGR brown
    return np.clip(shade[..., None] * base[None, None, :] * 1.1, 0, 255).astype(np.uint8)


def _wood(rng: np.random.Generator, width: int, height: int) -> np.ndarray:
    """Real wood grain: fine dark fibres along the grain, growth rings bent around knots,
    darker late-wood bands and planks of slightly different colour."""
    f = np.float32(HEIGHT / height)  # flat pixels per output pixel (1080p: the same table)
    y, x = np.mgrid[0:height, 0:width].astype(np.float32) * f
    a = rng.uniform(-0.3, 0.3)  # grain direction, radians from image x
    v = -x * math.sin(a) + y * math.cos(a)
    warp = cv2.resize(rng.standard_normal((6, 10)).astype(np.float32), (width, height),
                      interpolation=cv2.INTER_CUBIC)
    ring = v + 18 * warp
    for _ in range(int(rng.integers(1, 4))):  # knots: rings squeezed around a point
        kx, ky = rng.uniform(0, WIDTH), rng.uniform(0, HEIGHT)
        d = np.hypot((x - kx) / 3.0, y - ky)
        ring += 40 * np.exp(-d / 35) * np.sign(y - ky)
    period = rng.uniform(9, 16)
    late = (np.sin(ring / period * 2 * math.pi) * 0.5 + 0.5) ** 3  # sharp dark bands
    fibres = cv2.resize(rng.standard_normal((max(8, height // 2), max(8, width // 48))
                                            ).astype(np.float32), (width, height),
                        interpolation=cv2.INTER_LINEAR)
    plank = np.floor(v / rng.uniform(160, 260))
    tone = 0.85 + 0.15 * np.sin(plank * 2.3 + rng.uniform(0, 6))
    shade = tone * (0.78 - 0.22 * late + 0.05 * fibres)
    base = np.array([55, 100, 160], dtype=np.float32) * rng.uniform(0.85, 1.15)
    return np.clip(shade[..., None] * base[None, None, :] * 1.25, 0, 255).astype(np.uint8)


def _board_art(canvas: np.ndarray, rng: np.random.Generator) -> None:
    """A printed game board over most of the table: a parchment ground, coloured regions,
    paths of thin lines, icons and rows of small dark glyphs (text: the most sticker-like
    texture a table has), drawn in place."""
    h, w = canvas.shape[:2]
    k = w / WIDTH
    x0, y0, x1, y1 = int(40 * k), int(30 * k), int(w - 40 * k), int(h - 30 * k)
    board = canvas[y0:y1, x0:x1]
    bh, bw = board.shape[:2]
    board[:] = (150, 200, 222)
    for _ in range(14):  # coloured regions (fields, rivers, towns)
        pts = (rng.random((5, 2)) * [bw, bh]).astype(np.int32)
        hull = cv2.convexHull(pts)
        colour = tuple(int(c) for c in rng.integers(60, 220, 3))
        cv2.fillConvexPoly(board, hull, colour, cv2.LINE_AA)
    for _ in range(10):  # paths
        p, q = (rng.random(2) * [bw, bh]).astype(int), (rng.random(2) * [bw, bh]).astype(int)
        cv2.line(board, tuple(int(c) for c in p), tuple(int(c) for c in q), (40, 50, 60),
                 max(1, int(round(2 * k))), cv2.LINE_AA)
    for _ in range(25):  # icons: rings and squares with a dark outline
        c = tuple(int(v) for v in (rng.random(2) * [bw, bh]))
        r = int(rng.integers(8, 22) * k)
        colour = tuple(int(v) for v in rng.integers(30, 230, 3))
        if rng.random() < 0.5:
            cv2.circle(board, c, r, colour, -1, cv2.LINE_AA)
            cv2.circle(board, c, r, (30, 30, 30), max(1, int(2 * k)), cv2.LINE_AA)
        else:
            cv2.rectangle(board, (c[0] - r, c[1] - r), (c[0] + r, c[1] + r), colour, -1)
            cv2.rectangle(board, (c[0] - r, c[1] - r), (c[0] + r, c[1] + r), (30, 30, 30),
                          max(1, int(2 * k)))
    for _ in range(12):  # text: rows of glyphs 4-7 px high
        gx, gy = int(rng.uniform(0, bw - 200 * k)), int(rng.uniform(0, bh - 60 * k))
        size = rng.uniform(4, 7) * k
        for row in range(int(rng.integers(1, 5))):
            cx = gx
            for _ in range(int(rng.integers(8, 30))):
                gw = max(1, int(size * rng.uniform(0.4, 0.9)))
                top = int(gy + row * size * 1.8)
                cv2.rectangle(board, (cx, top), (cx + gw, int(top + size)), (25, 25, 35), -1)
                cx += gw + max(1, int(size * rng.uniform(0.2, 0.5)))
                if rng.random() < 0.15:
                    cx += int(size)


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
    """The object upright: a cream card with illustration and the sticker, or a bare marker.

    Returns the BGR patch and the symbol's top-left corner and side in patch pixels."""
    sticker = _sticker(placement.payload, style.symbol_px, placement.payload in style.damaged,
                       rng)
    sh, sw = sticker.shape
    quiet = (sw - style.symbol_px) // 2
    if placement.marker:
        card = np.full((sh + 8, sw + 8, 3), 250, np.uint8)
        card[4:4 + sh, 4:4 + sw] = sticker[..., None]
        return card, (4 + quiet, 4 + quiet), style.symbol_px
    w, h = int(sw * 1.45), int(sw * 2.05)
    if placement.face_down:
        return _card_back(w, h), (0, 0), style.symbol_px
    card = np.full((h, w, 3), (200, 225, 235), np.uint8)
    # a card's printed art is the same in every frame (a video of a still table is still)
    rng = np.random.default_rng(zlib.crc32(placement.payload.encode()))
    for _ in range(6):  # illustration blobs in the lower half: distractors for the detector
        colour = tuple(int(c) for c in rng.integers(40, 200, 3))
        centre = (int(rng.integers(10, w - 10)), int(rng.integers(sh + 20, h - 10)))
        cv2.circle(card, centre, int(rng.integers(6, 22)), colour, -1)
    cv2.rectangle(card, (0, 0), (w - 1, h - 1), (90, 90, 120), 3)
    x0, y0 = (w - sw) // 2, 10
    card[y0:y0 + sh, x0:x0 + sw] = sticker[..., None]
    return card, (x0 + quiet, y0 + quiet), style.symbol_px


def _card_back(w: int, h: int) -> np.ndarray:
    """A card's back, the same for every card of a deck: a dark red field in a light frame,
    a diamond lattice and an emblem (nothing a decoder could read)."""
    back = np.full((h, w, 3), (40, 45, 120), np.uint8)
    cv2.rectangle(back, (0, 0), (w - 1, h - 1), (170, 200, 215), max(3, w // 14))
    step = max(8, w // 7)
    for d in range(-h, w + h, step):  # a lattice of thin gold lines
        cv2.line(back, (d, 0), (d + h, h), (60, 120, 170), 1, cv2.LINE_AA)
        cv2.line(back, (d, 0), (d - h, h), (60, 120, 170), 1, cv2.LINE_AA)
    cv2.circle(back, (w // 2, h // 2), w // 4, (150, 190, 210), -1, cv2.LINE_AA)
    cv2.circle(back, (w // 2, h // 2), w // 6, (40, 45, 120), 3, cv2.LINE_AA)
    return back


def _line_kernel(dx: float, dy: float) -> np.ndarray:
    """A normalised line kernel: motion of (dx, dy) pixels during the exposure."""
    length = max(1, int(math.ceil(math.hypot(dx, dy))))
    size = length + 2 if length % 2 else length + 3
    kernel = np.zeros((size, size), np.float32)
    c = size // 2
    cv2.line(kernel, (int(round(c - dx / 2)), int(round(c - dy / 2))),
             (int(round(c + dx / 2)), int(round(c + dy / 2))), 1.0, 1, cv2.LINE_AA)
    return kernel / kernel.sum()


def _paste(canvas: np.ndarray, patch: np.ndarray, x: float, y: float, angle: float,
           motion: tuple[float, float] = (0.0, 0.0), owner: np.ndarray | None = None,
           index: int = 0) -> None:
    h, w = patch.shape[:2]
    blur = math.hypot(*motion)
    side = int(math.hypot(w, h) + 2 * blur) + 4
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
    alpha = mask[cy0 - y0:cy1 - y0, cx0 - x0:cx1 - x0]
    if blur >= 0.5:  # a moving card: the object and its outline smeared over the table
        kernel = _line_kernel(*motion)
        full_alpha = cv2.filter2D(mask.astype(np.float32) / 255, -1, kernel)
        full = cv2.filter2D(rotated.astype(np.float32) * (mask[..., None] / 255), -1, kernel)
        a = full_alpha[cy0 - y0:cy1 - y0, cx0 - x0:cx1 - x0][..., None]
        f = full[cy0 - y0:cy1 - y0, cx0 - x0:cx1 - x0]
        region[:] = np.clip(f + region * (1 - a), 0, 255).astype(np.uint8)
        inside = a[..., 0] > 0.5
    else:
        inside = alpha > 127
        np.copyto(region, sub, where=inside[..., None])
    if owner is not None:
        owner[cy0:cy1, cx0:cx1][inside] = index


SKIN = (120, 150, 205)  # BGR


def _draw_hand(canvas: np.ndarray, hand: Hand, scale: float, owner: np.ndarray | None,
               light_factor: np.ndarray | None = None) -> None:
    """A hand reaching in: index fingertip at (x, y), three more fingers and the palm behind
    it, the arm towards ``angle``; first its soft shadow (the hand is above the table)."""
    k = hand.scale * scale
    t = math.radians(hand.angle)
    back = (math.sin(t), -math.cos(t))  # from the fingertip towards the arm
    side = (-back[1], back[0])
    tip = np.float32([hand.x, hand.y]) * scale

    def at(along: float, across: float) -> tuple[int, int]:
        p = tip + np.float32(back) * along * k + np.float32(side) * across * k
        return int(round(p[0])), int(round(p[1]))

    layer = np.zeros(canvas.shape[:2], np.uint8)
    finger = max(2, int(round(54 * k)))  # 16 mm wide at 0.3 mm per flat pixel
    cv2.line(layer, at(0, 0), at(230, 10), 255, finger)  # index finger
    for across, start in ((-62, 40), (-118, 70), (-165, 120)):  # middle, ring, little
        cv2.line(layer, at(start, across), at(start + 220, across * 0.8), 255, finger)
    cv2.line(layer, at(200, 60), at(330, 30), 255, int(finger * 1.2))  # thumb
    cv2.ellipse(layer, at(330, -70), (int(160 * k), int(140 * k)), hand.angle, 0, 360, 255, -1)
    cv2.line(layer, at(380, -70), at(1400, -70), 255, int(230 * k))  # wrist and arm
    layer = cv2.GaussianBlur(layer, (0, 0), 1.2 * scale)
    h, w = layer.shape
    small = cv2.resize(layer, (w // 8, h // 8), interpolation=cv2.INTER_AREA)
    shift = np.float32([[1, 0, 30 * scale / 8], [0, 1, 40 * scale / 8]])
    small = cv2.GaussianBlur(cv2.warpAffine(small, shift, (w // 8, h // 8)), (0, 0),
                             14 * scale / 8)
    shadow = cv2.resize(small, (w, h), interpolation=cv2.INTER_LINEAR)
    keep = cv2.convertScaleAbs(shadow, alpha=-0.45, beta=255)  # 255 - 0.45 * shadow
    canvas[:] = cv2.multiply(canvas, cv2.merge([keep] * 3), scale=1 / 255)
    skin = np.empty_like(canvas)
    skin[:] = SKIN
    a = cv2.merge([layer] * 3)
    canvas[:] = cv2.add(cv2.multiply(canvas, 255 - a, scale=1 / 255),
                        cv2.multiply(skin, a, scale=1 / 255))
    if owner is not None:
        owner[layer > 127] = -2


def _draw_die(canvas: np.ndarray, die: Die, scale: float, owner: np.ndarray | None) -> None:
    """A white die with black pips and a soft shadow, seen from above."""
    side = die.side * scale
    rect = ((die.x * scale, die.y * scale), (side, side), die.angle)
    box = np.int32(np.round(cv2.boxPoints(rect)))
    h, w = canvas.shape[:2]
    shade = np.zeros((h, w), np.uint8)
    cv2.fillConvexPoly(shade, box + np.int32([round(6 * scale), round(8 * scale)]), 255)
    shade = cv2.GaussianBlur(shade, (0, 0), 5 * scale)
    keep = cv2.convertScaleAbs(shade, alpha=-0.4, beta=255)
    canvas[:] = cv2.multiply(canvas, cv2.merge([keep] * 3), scale=1 / 255)
    cv2.fillConvexPoly(canvas, box, (228, 232, 236), cv2.LINE_AA)
    t = math.radians(die.angle)
    spots = {1: [(0, 0)], 2: [(-1, -1), (1, 1)], 3: [(-1, -1), (0, 0), (1, 1)],
             4: [(-1, -1), (1, -1), (-1, 1), (1, 1)],
             5: [(-1, -1), (1, -1), (0, 0), (-1, 1), (1, 1)],
             6: [(-1, -1), (1, -1), (-1, 0), (1, 0), (-1, 1), (1, 1)]}[die.pips]
    for u, v in spots:
        dx, dy = u * side * 0.27, v * side * 0.27
        px = die.x * scale + dx * math.cos(t) - dy * math.sin(t)
        py = die.y * scale + dx * math.sin(t) + dy * math.cos(t)
        cv2.circle(canvas, (int(round(px)), int(round(py))), max(1, int(side * 0.09)),
                   (25, 25, 25), -1, cv2.LINE_AA)
    if owner is not None:
        mask = np.zeros((h, w), np.uint8)
        cv2.fillConvexPoly(mask, box, 1)
        owner[mask > 0] = -3


_NOISE: dict[tuple[int, int], np.ndarray] = {}


def _unit_noise(width: int = WIDTH, height: int = HEIGHT) -> np.ndarray:
    """A stored field of N(0, 1) * 16 noise (int16), slightly larger than a frame."""
    if (width, height) not in _NOISE:
        field = np.empty((height + 64, width + 64, 3), np.int16)
        cv2.setRNGSeed(12345)
        cv2.randn(field, 0, 16)
        _NOISE[width, height] = field
    return _NOISE[width, height]


def _perspective(rng: np.random.Generator, amount: float) -> np.ndarray:
    src = np.float32([[0, 0], [WIDTH, 0], [WIDTH, HEIGHT], [0, HEIGHT]])
    jitter = rng.uniform(-amount, amount, (4, 2)) * np.float32([WIDTH, HEIGHT])
    return cv2.getPerspectiveTransform(src, (src + jitter).astype(np.float32))


def pinhole(tilt_deg: float, towards_deg: float, height_mm: float,
            mm_per_px: float = 0.3) -> np.ndarray:
    """Flat table px -> image px of a pinhole camera ``height_mm`` above the table centre,
    tilted ``tilt_deg`` from vertical (orbiting around the table centre, displaced towards
    ``towards_deg`` clockwise from image up, no yaw), scaled so the whole 1280x720 table
    stays in view (the near side keeps its scale, the far side shrinks)."""
    d = height_mm / mm_per_px  # distance in flat pixels; focal length the same: scale 1
    t, p = math.radians(tilt_deg), math.radians(towards_deg)
    offset = np.array([math.sin(p), -math.cos(p), 0.0])  # where the camera moves to
    centre = offset * d * math.sin(t) + np.array([0.0, 0.0, d * math.cos(t)])
    forward = -centre / np.linalg.norm(centre)
    # image x stays as close to table x as possible (no yaw)
    x_axis = np.array([1.0, 0.0, 0.0]) - forward * forward[0]
    x_axis /= np.linalg.norm(x_axis)
    y_axis = np.cross(forward, x_axis)
    y_axis = y_axis if y_axis[1] > 0 else -y_axis
    x_axis = np.cross(y_axis, forward)
    if x_axis[0] < 0:
        x_axis = -x_axis
    src = np.float32([[0, 0], [WIDTH, 0], [WIDTH, HEIGHT], [0, HEIGHT]])
    projected = []
    for u, v in src:
        q = np.array([u - WIDTH / 2, v - HEIGHT / 2, 0.0]) - centre
        z = q @ forward
        projected.append((d * (q @ x_axis) / z, d * (q @ y_axis) / z))
    projected = np.float32(projected)
    lo, hi = projected.min(axis=0), projected.max(axis=0)
    fit = min(WIDTH * 0.98 / (hi[0] - lo[0]), HEIGHT * 0.98 / (hi[1] - lo[1]), 1.0)
    dst = (projected - (lo + hi) / 2) * fit + np.float32([WIDTH / 2, HEIGHT / 2])
    return cv2.getPerspectiveTransform(src, dst.astype(np.float32))


def _warp_point(h: np.ndarray, x: float, y: float) -> tuple[float, float]:
    p = cv2.perspectiveTransform(np.float32([[[x, y]]]), h)[0, 0]
    return float(p[0]), float(p[1])


def _scaled(h: np.ndarray, scale: float) -> np.ndarray:
    """The same homography between frames ``scale`` times larger."""
    s = np.diag([scale, scale, 1.0])
    return s @ h @ np.linalg.inv(s)


def _disk(radius: float) -> np.ndarray:
    r = max(radius, 0.5)
    size = 2 * int(math.ceil(r)) + 1
    kernel = np.zeros((size, size), np.float32)
    c = size // 2
    cv2.circle(kernel, (c, c), int(round(r)), 1.0, -1, cv2.LINE_AA)
    return kernel / kernel.sum()


@dataclass(frozen=True)
class Camera:
    """A fixed synthetic camera: table texture, perspective and light stay between frames."""

    table: np.ndarray
    homography: np.ndarray  # flat table px -> image px, both at 1280x720
    light: np.ndarray  # per-pixel, per-channel light factor (float32, HxWx3)
    scale: float = 1.0

    @property
    def size(self) -> tuple[int, int]:
        return round(WIDTH * self.scale), round(HEIGHT * self.scale)

    @classmethod
    @frame_cache.cached
    def create(cls, seed: int = 0, style: Style | None = None) -> Camera:
        style = style or Style()
        rng = np.random.default_rng(seed)
        s = style.scale
        w, h = round(WIDTH * s), round(HEIGHT * s)
        table = _table(rng, w, h)
        if style.table in ("wood", "board"):
            table = _wood(np.random.default_rng(seed + 31), w, h)
        if style.table == "board":
            _board_art(table, np.random.default_rng(seed + 37))
        homography = _perspective(rng, style.perspective)
        if style.tilt_deg:
            towards = float(np.random.default_rng(seed + 7919).uniform(0, 360))
            homography = pinhole(style.tilt_deg, towards, style.height_mm)
        y, x = np.mgrid[0:h, 0:w].astype(np.float32) / np.float32(s)
        lx, ly = rng.uniform(0, WIDTH), rng.uniform(0, HEIGHT)
        dist = np.hypot(x - lx, y - ly) / math.hypot(WIDTH, HEIGHT)
        light = 1.0 - (1.0 - style.light_min) * np.clip(dist / 0.8, 0, 1)
        if style.vignette:  # the lens: cos^4-like falloff towards the corners
            r2 = ((x - WIDTH / 2) ** 2 + (y - HEIGHT / 2) ** 2) / ((WIDTH / 2) ** 2 +
                                                                   (HEIGHT / 2) ** 2)
            light = light * (1.0 - style.vignette * r2)
        return cls(table, homography, np.repeat(light.astype(np.float32)[..., None], 3, 2), s)

    @frame_cache.cached
    def render(self, placements: list[Placement], style: Style | None = None,
               seed: int = 0, hands: list[Hand | Die] | tuple = ()
               ) -> tuple[np.ndarray, list[Truth]]:
        """A BGR frame (JPEG-decoded, like a webcam's MJPEG) and the truth of every object."""
        style = style or Style()
        rng = np.random.default_rng(seed)
        s = self.scale
        flat_style = replace(style, symbol_px=round(style.symbol_px * s)) if s != 1 else style
        canvas = self.table.copy()
        owner = np.full(canvas.shape[:2], -1, np.int16)
        symbols = []
        for index, placement in enumerate(placements):
            patch, (sx, sy), side = _card_patch(placement, flat_style, rng)
            if style.shadow > 0:
                _shadow(canvas, patch.shape, placement, s, style.shadow)
            _paste(canvas, patch, placement.x * s, placement.y * s, placement.angle,
                   (placement.motion[0] * s, placement.motion[1] * s), owner, index)
            symbols.append(self._symbol_corners(placement, patch.shape, sx, sy, side, s))
        sheen = None
        if style.sleeve is not None:
            sheen = _sleeve(canvas, owner, style.sleeve, s)
        for hand in hands:
            if isinstance(hand, Die):
                _draw_die(canvas, hand, s, owner)
            elif hasattr(hand, "draw"):  # an object that draws itself (foreign_covers)
                hand.draw(canvas, s, owner)
            else:
                _draw_hand(canvas, hand, s, owner)
        homography = _scaled(self.homography, s)
        w, h = self.size
        # a tilted camera sees past the flat table: stretch its edge, no mirrored stickers
        border = cv2.BORDER_REPLICATE if style.tilt_deg else cv2.BORDER_REFLECT
        image = cv2.warpPerspective(canvas, homography, (w, h), borderMode=border)
        spot = None
        if style.glare > 0:
            spot = self._glare_spot(style, homography, rng)
            g = spot[..., None] * style.glare
            image = np.clip(image.astype(np.float32) * (1 - 0.35 * g) + 255 * g, 0, 255
                            ).astype(np.uint8)
        image = cv2.multiply(image, self.light, dtype=cv2.CV_8U)
        if style.defocus_px > 0:
            image = cv2.filter2D(image, -1, _disk(style.defocus_px * s))
        if style.lens is not None:
            image = lens_blur(image, style.lens, s)
        if style.optics is not None:
            image = style.optics.apply(image, s)
        if style.blur_sigma > 0:
            image = cv2.GaussianBlur(image, (0, 0), style.blur_sigma * s)
        if style.bayer and style.raw_noise:
            image = _bayer(image, style.noise_sigma, rng)
        elif style.bayer:
            image = _bayer(image)
        if style.noise_sigma > 0 and not (style.bayer and style.raw_noise):
            # a fresh field of unit Gaussian noise each frame is the slowest step; a shifted
            # slice of a larger stored field is just as random to a decoder, and fast
            dy, dx = int(rng.integers(0, 64)), int(rng.integers(0, 64))
            unit = _unit_noise(w, h)[dy:dy + h, dx:dx + w]
            noise = cv2.multiply(unit, style.noise_sigma / 16, dtype=cv2.CV_16S)
            image = cv2.add(image, noise, dtype=cv2.CV_8U)
        ok, jpeg = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, style.jpeg_quality])
        assert ok
        image = cv2.imdecode(jpeg, cv2.IMREAD_COLOR)
        truth = self.truth(placements, style)
        out = []
        for index, (t, corners) in enumerate(zip(truth, symbols, strict=True)):
            facts = self._symbol_truth(corners, owner, index, homography,
                                       len(qr_matrix(t.payload)))
            if placements[index].face_down:  # its own back hides its sticker
                facts["covered"] = 1.0
            image_corners = cv2.perspectiveTransform(corners.reshape(-1, 1, 2), homography)
            points = np.vstack([image_corners.reshape(-1, 2), [t.sticker]])
            defocus = style.defocus_px * s
            if style.lens is not None:  # two blurs in a row: their spreads add
                lens = style.lens.equivalent_radius(*t.sticker, w, h, s)
                defocus = math.hypot(defocus, lens)
                t = _shifted(t, style.lens.moved(t.sticker[1], h, s))
            if style.optics is not None:
                defocus = math.hypot(defocus, style.optics.spread(*t.sticker, w, h, s))
                t = _shifted(t, style.optics.moved(*t.sticker, h, s))
            washed = _washed(sheen, corners, len(qr_matrix(t.payload))) if sheen is not None \
                else 0.0
            out.append(replace(t, **facts, defocus_px=round(defocus, 3),
                               contrast=self._contrast(points, spot, style.glare),
                               washed=washed))
        return image, out

    @staticmethod
    def _symbol_corners(placement: Placement, shape, sx: float, sy: float, side: float,
                        s: float) -> np.ndarray:
        """The symbol's four corners on the flat (scaled) table."""
        ph, pw = shape[:2]
        t = math.radians(placement.angle)
        corners = []
        for px, py in ((sx, sy), (sx + side, sy), (sx + side, sy + side), (sx, sy + side)):
            dx, dy = px - pw / 2, py - ph / 2
            corners.append((placement.x * s + dx * math.cos(t) - dy * math.sin(t),
                            placement.y * s + dx * math.sin(t) + dy * math.cos(t)))
        return np.float32(corners)

    def _symbol_truth(self, corners: np.ndarray, owner: np.ndarray, index: int,
                      homography: np.ndarray, modules: int) -> dict:
        mask = np.zeros(owner.shape, np.uint8)
        cv2.fillConvexPoly(mask, np.int32(np.round(corners)), 1)
        area = int(mask.sum())
        covered = float((owner[mask > 0] != index).sum()) / area if area else 1.0
        image = cv2.perspectiveTransform(corners.reshape(-1, 1, 2), homography).reshape(-1, 2)
        w, h = self.size
        sides = [math.dist(image[i], image[(i + 1) % 4]) for i in range(4)]
        in_view = bool(((image >= 0) & (image < (w, h))).all())
        return {"module_px": round(min(sides) / modules, 2), "covered": round(covered, 3),
                "in_view": in_view}

    def _glare_spot(self, style, homography, rng) -> np.ndarray:
        """A lamp's reflection (0..1 per pixel): a bright, slightly elongated highlight."""
        w, h = self.size
        if style.glare_at is not None:
            gx, gy = _warp_point(homography, style.glare_at[0] * self.scale,
                                 style.glare_at[1] * self.scale)
        else:
            gx, gy = float(rng.uniform(0.2, 0.8) * w), float(rng.uniform(0.2, 0.8) * h)
        y, x = np.mgrid[0:h:4, 0:w:4].astype(np.float32)
        sx, sy = 90 * self.scale, 55 * self.scale
        spot = np.exp(-(((x - gx) / sx) ** 2 + ((y - gy) / sy) ** 2) / 2)
        return cv2.resize(spot, (w, h), interpolation=cv2.INTER_LINEAR)

    def _contrast(self, points: np.ndarray, spot: np.ndarray | None, glare: float) -> float:
        """Gray levels between a white and a black module at the worst of ``points`` (image
        px) after the glare washes them out and the light dims them."""
        w, h = self.size
        worst = 255.0
        for x, y in points:
            xi, yi = int(min(max(x, 0), w - 1)), int(min(max(y, 0), h - 1))
            g = float(spot[yi, xi]) * glare if spot is not None else 0.0
            light = float(self.light[yi, xi, 0])
            black = min(255.0, 20 * (1 - 0.35 * g) + 255 * g) * light
            white = min(255.0, 235 * (1 - 0.35 * g) + 255 * g) * light
            worst = min(worst, white - black)
        return round(worst, 1)

    def truth(self, placements: list[Placement], style: Style | None = None) -> list[Truth]:
        style = style or Style()
        s = self.scale
        h = _scaled(self.homography, s)
        marker = next((p for p in placements if p.marker), None)
        north = marker.angle if marker else 0.0
        out = []
        for p in placements:
            cx, cy = _warp_point(h, p.x * s, p.y * s)
            rad = math.radians(p.angle)
            tx, ty = _warp_point(h, (p.x + 30 * math.sin(rad)) * s, (p.y - 30 * math.cos(rad)) * s)
            up = _sticker_offset(p, style)
            sticker = _warp_point(h, (p.x + up * math.sin(rad)) * s,
                                  (p.y - up * math.cos(rad)) * s)
            angle = math.degrees(math.atan2(tx - cx, -(ty - cy))) % 360
            rotation = None if p.marker else round(((p.angle - north) % 360) / 90) % 4
            out.append(Truth(p.payload, (cx, cy), sticker, angle, rotation))
        return out


def _shifted(t: Truth, dx: float) -> Truth:
    """``t`` moved ``dx`` px sideways (a rolling shutter's skew at its row)."""
    if not dx:
        return t
    return replace(t, centre=(t.centre[0] + dx, t.centre[1]),
                   sticker=(t.sticker[0] + dx, t.sticker[1]))


def _bayer(image: np.ndarray, noise: float = 0.0,
           rng: np.random.Generator | None = None) -> np.ndarray:
    """Keep one colour per pixel (BGGR mosaic) and demosaic, like a raw sensor pipeline.

    ``noise``: the sensor's noise (shot plus read noise, stronger in the dark) added to the
    mosaic before demosaicing, so it is spread and correlated between neighbours the way a
    real camera's is, not white per output pixel."""
    h, w = image.shape[:2]
    mosaic = np.empty((h, w), np.uint8)
    mosaic[0::2, 0::2] = image[0::2, 0::2, 0]
    mosaic[0::2, 1::2] = image[0::2, 1::2, 1]
    mosaic[1::2, 0::2] = image[1::2, 0::2, 1]
    mosaic[1::2, 1::2] = image[1::2, 1::2, 2]
    if noise > 0:
        rng = rng or np.random.default_rng(0)
        dy, dx = int(rng.integers(0, 64)), int(rng.integers(0, 64))
        unit = _unit_noise(w, h)[dy:dy + h, dx:dx + w, 0].astype(np.float32) / 16
        level = mosaic.astype(np.float32)
        sigma = noise * (0.6 + 0.4 * np.sqrt(level / 128.0))  # shot noise grows with light
        mosaic = np.clip(level + unit * sigma, 0, 255).astype(np.uint8)
    return cv2.cvtColor(mosaic, cv2.COLOR_BayerRG2BGR)


def _shadow(canvas: np.ndarray, shape, placement: Placement, s: float,
            strength: float) -> None:
    """The soft shadow a card (a few mm above the table at its bent edges, lit from a
    slant) casts: its outline shifted and blurred, darkening what lies under it."""
    h, w = shape[:2]
    side = int(math.hypot(w, h)) + 40
    matrix = cv2.getRotationMatrix2D((w / 2, h / 2), -placement.angle, 1.0)
    matrix[:, 2] += (side - w) / 2 + 7 * s, (side - h) / 2 + 9 * s
    mask = cv2.warpAffine(np.full((h, w), 255, np.uint8), matrix, (side, side))
    mask = cv2.GaussianBlur(mask, (0, 0), 6 * s)
    x0, y0 = int(round(placement.x * s - side / 2)), int(round(placement.y * s - side / 2))
    cx0, cy0 = max(x0, 0), max(y0, 0)
    cx1, cy1 = min(x0 + side, canvas.shape[1]), min(y0 + side, canvas.shape[0])
    if cx1 <= cx0 or cy1 <= cy0:
        return
    m = mask[cy0 - y0:cy1 - y0, cx0 - x0:cx1 - x0]
    keep = cv2.convertScaleAbs(m, alpha=-strength, beta=255)
    region = canvas[cy0:cy1, cx0:cx1]
    region[:] = cv2.multiply(region, cv2.merge([keep] * 3), scale=1 / 255)


def _sleeve(canvas: np.ndarray, owner: np.ndarray, sleeve: Sleeve, s: float) -> np.ndarray:
    """Wash the sleeve's highlight into ``canvas`` over its card; returns the highlight's
    strength per flat pixel (0..1) for the truth."""
    h, w = canvas.shape[:2]
    band = np.zeros((h, w), np.uint8)
    t = math.radians(sleeve.angle)
    dx, dy = math.cos(t) * 3000, math.sin(t) * 3000
    cx, cy = sleeve.x * s, sleeve.y * s
    cv2.line(band, (int(cx - dx), int(cy - dy)), (int(cx + dx), int(cy + dy)), 255,
             max(1, int(sleeve.width * s)))
    g = cv2.GaussianBlur(band.astype(np.float32) / 255, (0, 0), max(1.0, 0.15 * sleeve.width * s))
    g = np.minimum(g * sleeve.strength, 1.0) * (owner == sleeve.card)  # > 1: saturated
    g3 = g[..., None]
    canvas[:] = np.clip(canvas.astype(np.float32) * (1 - 0.35 * g3) + 255 * g3, 0, 255
                        ).astype(np.uint8)
    return g


def _washed(sheen: np.ndarray, corners: np.ndarray, modules: int) -> float:
    """The share of the symbol (corners on the flat table) under 30 gray levels of
    contrast in ``sheen``; 1.0 when a finder pattern's centre is washed out."""
    def at(u: float, v: float) -> float:
        p = corners[0] + (corners[1] - corners[0]) * u + (corners[3] - corners[0]) * v
        x = int(min(max(p[0], 0), sheen.shape[1] - 1))
        y = int(min(max(p[1], 0), sheen.shape[0] - 1))
        g = float(sheen[y, x])
        black = min(255.0, 20 * (1 - 0.35 * g) + 255 * g)
        white = min(255.0, 235 * (1 - 0.35 * g) + 255 * g)
        return white - black

    f = 3.5 / modules
    if min(at(f, f), at(1 - f, f), at(f, 1 - f)) < 30:
        return 1.0
    grid = (np.arange(12) + 0.5) / 12
    washed = [at(u, v) < 30 for u in grid for v in grid]
    return round(sum(washed) / len(washed), 3)


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


@frame_cache.cached
def random_scene(seed: int, payloads: list[str], marker_angle: float = 0.0,
                 style: Style | None = None) -> tuple[np.ndarray, list[Truth]]:
    """One random frame: up to 7 cards plus the board marker."""
    if len(payloads) > 7:
        raise ValueError("at most 7 cards fit the synthetic table")
    rng = np.random.default_rng(seed)
    camera = Camera.create(seed, style)
    return camera.render(random_placements(rng, payloads, marker_angle), style, seed)

"""Rendered dice trays with their truth, for the camera's dice reader and its benchmark.

A felt-lined tray (what docs/table-kit.md asks for) on the synthetic table's wood, seen from
above: standard d6 with pips (white with black pips, and players' colours), 22-48 px across
(12-16 mm dice at 50-80 cm on a 1080p crop), some touching, some cocked against the wall or
another die, each with a soft shadow; then the camera's defocus, sensor noise and JPEG.
`throw()` gives a whole throw as frames: an empty tray, a hand over it, dice tumbling (moving,
motion-blurred), then the settled dice for a few frames.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

import cv2
import numpy as np

from hardware.synthetic.scene import _wood

# BGR body colour, pip colour: white dice with black pips and players' colours.
COLOURS = {
    "white": ((235, 235, 232), (25, 25, 25)),
    "red": ((40, 40, 200), (240, 240, 240)),
    "blue": ((190, 90, 30), (240, 240, 240)),
    "green": ((60, 160, 40), (240, 240, 240)),
    "yellow": ((40, 215, 235), (20, 20, 20)),
}
# A die whose faces are not pips but a numeral (2-5) in a coin's ring, on an ochre body
# (as a game's money die). Its faces are taught to the camera by pictures.
TAUGHT = {"coin": ((70, 150, 205), (25, 40, 80))}
PIP_COLOURS = tuple(COLOURS)
FELT = (42, 52, 40)  # dark green felt, BGR
PIPS = {
    1: [(0, 0)],
    2: [(-1, -1), (1, 1)],
    3: [(-1, -1), (0, 0), (1, 1)],
    4: [(-1, -1), (1, -1), (-1, 1), (1, 1)],
    5: [(-1, -1), (1, -1), (0, 0), (-1, 1), (1, 1)],
    6: [(-1, -1), (1, -1), (-1, 0), (1, 0), (-1, 1), (1, 1)],
}
PIP_OFFSET = 0.27  # of the side, from the centre
PIP_DIAMETER = 0.19  # of the side


@dataclass(frozen=True)
class Die:
    """One die as rendered: centre (px), side (px), angle (degrees), face up, colour; a
    cocked die leans (its top seen foreshortened, a side showing) and may not be readable."""

    x: float
    y: float
    side: float
    angle: float
    face: int
    colour: str
    cocked: bool = False

    def to_json(self) -> dict:
        return {"face": self.face, "colour": self.colour, "centre": [round(self.x, 1),
                round(self.y, 1)], "side": round(self.side, 1), "cocked": self.cocked}


def _die_patch(die: Die, scale: int = 4) -> tuple[np.ndarray, np.ndarray]:
    """The die seen from above, supersampled: BGR patch and alpha, before rotation."""
    body, pip = {**COLOURS, **TAUGHT}[die.colour]
    s = int(round(die.side * scale))
    squash = 0.62 if die.cocked else 1.0
    h = int(round(s * squash))
    side_band = int(round(s * 0.35)) if die.cocked else 0
    patch = np.zeros((h + side_band, s, 3), np.float32)
    alpha = np.zeros((h + side_band, s), np.float32)
    radius = int(s * 0.14)
    cv2.rectangle(alpha, (radius, 0), (s - radius, h + side_band - 1), 1.0, -1)
    cv2.rectangle(alpha, (0, radius), (s - 1, h + side_band - radius), 1.0, -1)
    for cx, cy in ((radius, radius), (s - radius, radius), (radius, h + side_band - radius),
                   (s - radius, h + side_band - radius)):
        cv2.circle(alpha, (cx, cy), radius, 1.0, -1)
    patch[:] = body
    # rounded edges catch less light: darker towards the border
    dist = cv2.distanceTransform((alpha > 0).astype(np.uint8), cv2.DIST_L2, 5)
    edge = np.clip(dist / (s * 0.08), 0, 1) * 0.35 + 0.65
    patch *= edge[..., None]
    if side_band:
        patch[h:] *= 0.7  # the side facing the camera, in shade
    if die.colour in TAUGHT:
        _numeral(patch, die.face, s, squash, pip)
        return patch, alpha
    for px, py in PIPS[die.face]:
        centre = (int(s / 2 + px * PIP_OFFSET * s), int((s / 2 + py * PIP_OFFSET * s) * squash))
        axes = (int(PIP_DIAMETER * s / 2), int(PIP_DIAMETER * s / 2 * squash))
        cv2.ellipse(patch, centre, axes, 0, 0, 360, pip, -1, cv2.LINE_AA)
    return patch, alpha


def _numeral(patch: np.ndarray, face: int, s: int, squash: float, ink) -> None:
    """A coin face: a numeral in a coin's ring (drawn upright, squashed if cocked)."""
    top = np.zeros((s, s, 3), np.float32)
    mask = np.zeros((s, s), np.uint8)
    cv2.circle(mask, (s // 2, s // 2), int(s * 0.36), 255, max(1, int(s * 0.04)), cv2.LINE_AA)
    text = str(face)
    scale = s / 40.0
    thickness = max(1, int(s * 0.07))
    (tw, th), _ = cv2.getTextSize(text, cv2.FONT_HERSHEY_SIMPLEX, scale, thickness)
    cv2.putText(mask, text, ((s - tw) // 2, (s + th) // 2), cv2.FONT_HERSHEY_SIMPLEX, scale,
                255, thickness, cv2.LINE_AA)
    top[:] = ink
    h = int(round(s * squash))
    mask = cv2.resize(mask.astype(np.float32) / 255, (s, h), interpolation=cv2.INTER_AREA)
    mask = mask[..., None]
    patch[:h] = patch[:h] * (1 - mask) + cv2.resize(top, (s, h)) * mask


def _paste(canvas: np.ndarray, die: Die, motion: tuple[float, float] = (0.0, 0.0),
           scale: int = 4) -> None:
    """Draw the die (and its shadow) onto the float canvas, rotated, at its centre."""
    patch, alpha = _die_patch(die, scale)
    ph, pw = alpha.shape
    big = int(math.hypot(ph, pw)) + 4
    m = cv2.getRotationMatrix2D((pw / 2, ph / 2), -die.angle, 1.0)
    m[:, 2] += (big / 2 - pw / 2, big / 2 - ph / 2)
    patch = cv2.warpAffine(patch, m, (big, big), flags=cv2.INTER_LINEAR)
    alpha = cv2.warpAffine(alpha, m, (big, big), flags=cv2.INTER_LINEAR)
    size = max(3, int(round(big / scale)))
    patch = cv2.resize(patch, (size, size), interpolation=cv2.INTER_AREA)
    alpha = cv2.resize(alpha, (size, size), interpolation=cv2.INTER_AREA)
    if motion != (0.0, 0.0):
        length = max(1, int(math.hypot(*motion)))
        kernel = np.zeros((2 * length + 1, 2 * length + 1), np.float32)
        cv2.line(kernel, (length, length), (int(length + motion[0]), int(length + motion[1])),
                 1.0, 1)
        kernel /= kernel.sum()
        patch = cv2.filter2D(patch * alpha[..., None], -1, kernel)
        alpha = cv2.filter2D(alpha, -1, kernel)
        patch = patch / np.maximum(alpha, 1e-3)[..., None]
    x0, y0 = int(round(die.x - size / 2)), int(round(die.y - size / 2))
    h, w = canvas.shape[:2]
    # shadow: light from the upper left
    sx0, sy0 = x0 + int(die.side * 0.12), y0 + int(die.side * 0.12)
    shadow = cv2.GaussianBlur(alpha, (0, 0), die.side * 0.08)
    _blend(canvas, np.zeros_like(patch), shadow * 0.55, sx0, sy0, w, h)
    _blend(canvas, patch, alpha, x0, y0, w, h)


def _blend(canvas, patch, alpha, x0, y0, w, h) -> None:
    ph, pw = alpha.shape
    cx0, cy0, cx1, cy1 = max(0, x0), max(0, y0), min(w, x0 + pw), min(h, y0 + ph)
    if cx0 >= cx1 or cy0 >= cy1:
        return
    a = alpha[cy0 - y0:cy1 - y0, cx0 - x0:cx1 - x0, None]
    p = patch[cy0 - y0:cy1 - y0, cx0 - x0:cx1 - x0]
    canvas[cy0:cy1, cx0:cx1] = canvas[cy0:cy1, cx0:cx1] * (1 - a) + p * a


def _tray(rng: np.random.Generator, width: int, height: int, margin: int) -> np.ndarray:
    """Wood all round, a felt floor inside a lighter rim, a little uneven light."""
    canvas = _wood(rng, width, height).astype(np.float32)
    felt = np.array(FELT, np.float32) * rng.uniform(0.85, 1.15)
    speckle = rng.normal(0, 4, (height, width)).astype(np.float32)  # the felt's texture
    floor = felt[None, None, :] + cv2.GaussianBlur(speckle, (0, 0), 1.2)[..., None]
    canvas[margin:height - margin, margin:width - margin] = floor[margin:height - margin,
                                                                  margin:width - margin]
    y, x = np.mgrid[0:height, 0:width].astype(np.float32)
    light = 0.85 + 0.25 * np.exp(-((x - width * rng.uniform(0.2, 0.8)) ** 2
                                   + (y - height * rng.uniform(0.2, 0.8)) ** 2)
                                 / (2 * (0.6 * width) ** 2))
    return canvas * light[..., None]


def _camera(canvas: np.ndarray, rng: np.random.Generator, defocus: float, noise: float,
            jpeg: int) -> np.ndarray:
    if defocus > 0:
        canvas = cv2.GaussianBlur(canvas, (0, 0), defocus)
    canvas = canvas + rng.normal(0, noise, canvas.shape).astype(np.float32)
    image = np.clip(canvas, 0, 255).astype(np.uint8)
    ok, data = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, jpeg])
    return cv2.imdecode(data, cv2.IMREAD_COLOR)


def layout(rng: np.random.Generator, count: int, side: float, width: int, height: int,
           margin: int, cocked: float = 0.08, touching: float = 0.3,
           colours: tuple[str, ...] = PIP_COLOURS, coins: int = 0) -> list[Die]:
    """``count`` settled dice without overlaps; a share ``touching`` placed against the
    previous die, a share ``cocked`` leaning; the first ``coins`` of them coin dice (2-5)."""
    dice: list[Die] = []
    reach = side * 0.75  # half-diagonal of a die: keep centres this far from walls
    attempts = 0
    while len(dice) < count and attempts < 5000:
        attempts += 1
        angle = float(rng.uniform(0, 90))
        beside = None
        if dice and rng.random() < touching:
            # side by side with the last die: along one of its axes, nearly parallel
            beside = dice[-1]
            direction = math.radians(beside.angle + 90 * int(rng.integers(4)))
            gap = side * float(rng.uniform(1.04, 1.1))
            x = beside.x + math.cos(direction) * gap
            y = beside.y + math.sin(direction) * gap
            angle = beside.angle + float(rng.uniform(-3, 3))
        else:
            x = rng.uniform(margin + reach, width - margin - reach)
            y = rng.uniform(margin + reach, height - margin - reach)
        if not (margin + reach <= x <= width - margin - reach
                and margin + reach <= y <= height - margin - reach):
            continue
        # squares at any angle cannot overlap when their centres are 1.5 sides apart
        if any(d is not beside and math.hypot(x - d.x, y - d.y) < side * 1.5 for d in dice):
            continue
        dice.append(Die(x, y, side * float(rng.uniform(0.97, 1.03)), angle,
                        int(rng.integers(1, 7)), str(rng.choice(colours)),
                        bool(rng.random() < cocked)))
    for index in range(min(coins, len(dice))):
        d = dice[index]
        dice[index] = Die(d.x, d.y, d.side, d.angle, int(rng.integers(2, 6)), "coin", d.cocked)
    return dice


def lone(face: int, side: float = 36.0, seed: int = 0, colour: str = "coin") -> np.ndarray:
    """A tray with one die in it (face up, at a random angle): what the owner shows the
    camera to teach it a face."""
    rng = np.random.default_rng([seed, face])
    die = Die(float(rng.uniform(180, 300)), float(rng.uniform(140, 220)), side,
              float(rng.uniform(0, 90)), face, colour)
    return render([die], seed)


@dataclass(frozen=True)
class TrayStyle:
    width: int = 480
    height: int = 360
    margin: int = 14
    defocus: float = 0.6
    noise: float = 3.0
    jpeg: int = 85


def render(dice: list[Die], seed: int = 0, style: TrayStyle = TrayStyle(),
           motion: dict[int, tuple[float, float]] | None = None,
           hand: bool = False, frame: int = 0) -> np.ndarray:
    """One camera frame of the tray with these dice (and a hand over it, if asked)."""
    rng = np.random.default_rng(seed)
    canvas = _tray(rng, style.width, style.height, style.margin)
    frame_rng = np.random.default_rng([seed, frame, len(dice)])  # fresh sensor noise
    for index, die in enumerate(dice):
        _paste(canvas, die, (motion or {}).get(index, (0.0, 0.0)))
    if hand:
        skin = np.array([120, 150, 200], np.float32)
        mask = np.zeros(canvas.shape[:2], np.float32)
        cx, cy = style.width * frame_rng.uniform(0.3, 0.7), style.height * 0.55
        cv2.ellipse(mask, (int(cx), int(cy)), (int(style.width * 0.22),
                    int(style.height * 0.3)), float(frame_rng.uniform(-30, 30)), 0, 360, 1.0, -1)
        cv2.rectangle(mask, (int(cx - style.width * 0.1), int(cy)),
                      (int(cx + style.width * 0.1), style.height), 1.0, -1)
        mask = cv2.GaussianBlur(mask, (0, 0), 4)[..., None]
        canvas = canvas * (1 - mask) + skin * mask
    return _camera(canvas, frame_rng, style.defocus, style.noise, style.jpeg)


def tray(seed: int, count: int = 12, side: float = 34.0, style: TrayStyle = TrayStyle(),
         **layout_options) -> tuple[np.ndarray, list[Die]]:
    """A still tray of settled dice and its truth."""
    rng = np.random.default_rng(seed)
    dice = layout(rng, count, side, style.width, style.height, style.margin, **layout_options)
    return render(dice, seed, style), dice


def throw(seed: int, count: int = 12, side: float = 34.0, style: TrayStyle = TrayStyle(),
          settled_frames: int = 4, **layout_options) -> list[tuple[np.ndarray, list[Die], str]]:
    """One throw as (frame, truth, phase) with phase in empty, hand, moving, settled."""
    rng = np.random.default_rng(seed)
    final = layout(rng, count, side, style.width, style.height, style.margin, **layout_options)
    frames = [(render([], seed, style), [], "empty"),
              (render([], seed, style, hand=True, frame=1), [], "hand")]
    for step in (3, 2, 1):
        moving = [Die(d.x - step * 9 * math.cos(seed + i), d.y - step * 7 * math.sin(seed + i),
                      d.side, d.angle + step * 25, int(rng.integers(1, 7)), d.colour)
                  for i, d in enumerate(final)]
        blur = {i: (step * 5.0, step * 3.0) for i in range(len(moving))}
        frames.append((render(moving, seed, style, motion=blur, frame=len(frames)), moving,
                       "moving"))
    for _ in range(settled_frames):
        frames.append((render(final, seed, style, frame=len(frames)), final, "settled"))
    return frames

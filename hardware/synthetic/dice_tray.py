"""Rendered dice trays with their truth, for the camera's dice reader and its benchmark.

A felt-lined tray (what docs/table-kit.md asks for) on the synthetic table's wood, seen from
above: standard d6 with pips (white with black pips, and players' colours), 22-48 px across
(12-16 mm dice at 50-80 cm on a 1080p crop), some touching, some cocked against the wall or
another die, each with a soft shadow; then the camera's defocus, sensor noise and JPEG.
`throw()` gives a whole throw as frames: an empty tray, a hand over it, dice tumbling (moving,
motion-blurred), then the settled dice for a few frames.

`TrayStyle` widens the trays beyond dark felt: wood grain, felt of any colour, a light box
lid; pips small or large, corners more or less rounded, shadows, glare, defocus and JPEG.
`family()` draws a style (and its dice colours) from one of the named `FAMILIES`; the
``held_out`` family's settings are used by no tuning and reported apart (bench/dice_camera.py).
"""
from __future__ import annotations

import functools
import math
from dataclasses import dataclass

import cv2
import numpy as np

from hardware.synthetic import frame_cache
from hardware.synthetic.scene import _wood

# BGR body colour, pip colour: white dice with black pips and players' colours.
COLOURS = {
    "white": ((235, 235, 232), (25, 25, 25)),
    "red": ((40, 40, 200), (240, 240, 240)),
    "blue": ((190, 90, 30), (240, 240, 240)),
    "green": ((60, 160, 40), (240, 240, 240)),
    "yellow": ((40, 215, 235), (20, 20, 20)),
    "purple": ((140, 50, 110), (240, 240, 240)),
    "orange": ((30, 120, 235), (20, 20, 20)),
    "black": ((35, 35, 35), (235, 235, 235)),
}
# A die whose faces are not pips but a numeral (2-5) in a coin's ring, on an ochre body
# (as a game's money die). Its faces are taught to the camera by pictures.
TAUGHT = {"coin": ((70, 150, 205), (25, 40, 80))}
PIP_COLOURS = ("white", "red", "blue", "green", "yellow")  # the default dice in a tray
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


def _die_patch(die: Die, scale: int = 4, style: TrayStyle | None = None
               ) -> tuple[np.ndarray, np.ndarray]:
    """The die seen from above, supersampled: BGR patch and alpha, before rotation."""
    style = style or TrayStyle()
    body, pip = {**COLOURS, **TAUGHT}[die.colour]
    s = int(round(die.side * scale))
    squash = 0.62 if die.cocked else 1.0
    h = int(round(s * squash))
    side_band = int(round(s * 0.35)) if die.cocked else 0
    patch = np.zeros((h + side_band, s, 3), np.float32)
    alpha = np.zeros((h + side_band, s), np.float32)
    radius = max(1, int(s * style.radius))
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
    if style.bounce > 0:  # light off a coloured floor tints the die
        floor = np.array(_floor_colour(style), np.float32)
        patch *= (1 - style.bounce) + style.bounce * floor / max(float(floor.mean()), 1.0)
    if die.colour in TAUGHT:
        _numeral(patch, die.face, s, squash, pip)
        return patch, alpha
    # large pips: a six's rows spread apart so its pips do not run together (as on real dice)
    rows = max(PIP_OFFSET, style.pip * 1.2) if die.face == 6 else PIP_OFFSET
    for px, py in PIPS[die.face]:
        centre = (int(s / 2 + px * PIP_OFFSET * s), int((s / 2 + py * rows * s) * squash))
        axes = (int(style.pip * s / 2), int(style.pip * s / 2 * squash))
        cv2.ellipse(patch, centre, axes, 0, 0, 360, pip, -1, cv2.LINE_AA)
    if style.glare > 0:  # a highlight on the top, towards the light
        rng = np.random.default_rng([int(die.x * 10), int(die.y * 10)])
        if rng.random() < style.glare:
            spot = np.zeros((h + side_band, s), np.float32)
            gx, gy = rng.uniform(0.2, 0.45) * s, rng.uniform(0.2, 0.45) * h
            cv2.ellipse(spot, (int(gx), int(gy)), (int(s * 0.12), int(s * 0.06)),
                        float(rng.uniform(0, 180)), 0, 360, 1.0, -1)
            spot = cv2.GaussianBlur(spot, (0, 0), s * 0.04) * float(rng.uniform(0.3, 0.6))
            patch += (255 - patch) * spot[..., None]
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
           scale: int = 4, style: TrayStyle | None = None) -> None:
    """Draw the die (and its shadow) onto the float canvas, rotated, at its centre."""
    style = style or TrayStyle()
    patch, alpha = _die_patch(die, scale, style)
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
    # shadow: away from the light (the upper left unless the style says otherwise)
    away = math.radians(style.light_from + 180)
    sx0 = x0 + int(die.side * 0.12 * math.sqrt(2) * math.cos(away))
    sy0 = y0 + int(die.side * 0.12 * math.sqrt(2) * math.sin(away))
    shadow = cv2.GaussianBlur(alpha, (0, 0), die.side * 0.08)
    _blend(canvas, np.zeros_like(patch), shadow * style.shadow, sx0, sy0, w, h)
    _blend(canvas, patch, alpha, x0, y0, w, h)


def _blend(canvas, patch, alpha, x0, y0, w, h) -> None:
    ph, pw = alpha.shape
    cx0, cy0, cx1, cy1 = max(0, x0), max(0, y0), min(w, x0 + pw), min(h, y0 + ph)
    if cx0 >= cx1 or cy0 >= cy1:
        return
    a = alpha[cy0 - y0:cy1 - y0, cx0 - x0:cx1 - x0, None]
    p = patch[cy0 - y0:cy1 - y0, cx0 - x0:cx1 - x0]
    canvas[cy0:cy1, cx0:cx1] = canvas[cy0:cy1, cx0:cx1] * (1 - a) + p * a


def _tray(rng: np.random.Generator, style: TrayStyle) -> np.ndarray:
    """The tray's floor inside a rim (felt in wood, a wooden tray, a box lid), a little
    uneven light and, if the style says, a glare on the floor."""
    width, height, margin = style.width, style.height, style.margin
    canvas = _wood(rng, width, height).astype(np.float32)
    if style.floor == "wood":
        tint = np.array(style.floor_bgr or (1.0, 1.0, 1.0), np.float32)
        floor = _wood(rng, width, height).astype(np.float32) * tint
        canvas *= 0.75  # the rim: darker end grain
    elif style.floor == "lid":
        lid = np.array(style.floor_bgr or (200, 205, 210), np.float32)
        blotch = cv2.resize(rng.normal(0, 6, (6, 8)).astype(np.float32), (width, height),
                            interpolation=cv2.INTER_CUBIC)  # card printed and handled
        fibre = cv2.GaussianBlur(rng.normal(0, 3, (height, width)).astype(np.float32),
                                 (0, 0), 0.8)
        floor = lid[None, None, :] + (blotch + fibre)[..., None]
        canvas = np.broadcast_to(lid * 0.8, canvas.shape).copy()  # the lid's wall, in shade
    else:
        felt = np.array(style.floor_bgr or FELT, np.float32) * rng.uniform(0.85, 1.15)
        speckle = rng.normal(0, 4, (height, width)).astype(np.float32)  # the felt's texture
        floor = felt[None, None, :] + cv2.GaussianBlur(speckle, (0, 0), 1.2)[..., None]
    canvas[margin:height - margin, margin:width - margin] = floor[margin:height - margin,
                                                                  margin:width - margin]
    y, x = np.mgrid[0:height, 0:width].astype(np.float32)
    light = 0.85 + 0.25 * np.exp(-((x - width * rng.uniform(0.2, 0.8)) ** 2
                                   + (y - height * rng.uniform(0.2, 0.8)) ** 2)
                                 / (2 * (0.6 * width) ** 2))
    canvas *= light[..., None]
    if style.glare > 0:  # a lamp's reflection on the floor: soft, bright, no die
        spot = np.zeros((height, width), np.float32)
        cv2.ellipse(spot, (int(rng.uniform(0.2, 0.8) * width), int(rng.uniform(0.2, 0.8) * height)),
                    (int(width * rng.uniform(0.04, 0.1)), int(height * rng.uniform(0.02, 0.05))),
                    float(rng.uniform(0, 180)), 0, 360, 1.0, -1)
        spot = cv2.GaussianBlur(spot, (0, 0), 6) * style.glare
        canvas += (255 - canvas) * spot[..., None]
    return canvas


@functools.lru_cache(maxsize=8)
def _floor(seed: int, style: TrayStyle) -> np.ndarray:
    """The empty tray of ``seed``: the same in every frame of a throw, so drawn once (it was
    most of a frame's time)."""
    floor = _tray(np.random.default_rng(seed), style)
    floor.flags.writeable = False
    return floor


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


@frame_cache.cached
def lone(face: int, side: float = 36.0, seed: int = 0, colour: str = "coin") -> np.ndarray:
    """A tray with one die in it (face up, at a random angle): what the owner shows the
    camera to teach it a face."""
    rng = np.random.default_rng([seed, face])
    die = Die(float(rng.uniform(180, 300)), float(rng.uniform(140, 220)), side,
              float(rng.uniform(0, 90)), face, colour)
    return render([die], seed)


@dataclass(frozen=True)
class TrayStyle:
    """How a tray looks: its floor (``felt`` of ``floor_bgr``, ``wood`` tinted by it, a light
    ``lid`` of it), the dice's pips (diameter in sides) and corners (radius in sides), the
    shadow's darkness and the light's direction (degrees, 225: upper left), glare (chance of
    a highlight per die, and its strength on the floor), the floor's colour cast on the dice
    (``bounce``), and the camera's defocus, noise and JPEG quality. The defaults are the dark
    green felt tray of the first renders."""

    width: int = 480
    height: int = 360
    margin: int = 14
    defocus: float = 0.6
    noise: float = 3.0
    jpeg: int = 85
    floor: str = "felt"
    floor_bgr: tuple[float, float, float] | None = None
    pip: float = PIP_DIAMETER
    radius: float = 0.14
    shadow: float = 0.55
    light_from: float = 225.0
    glare: float = 0.0
    bounce: float = 0.0  # how much light off a coloured floor tints the dice (0-1)


@frame_cache.cached
def render(dice: list[Die], seed: int = 0, style: TrayStyle = TrayStyle(),
           motion: dict[int, tuple[float, float]] | None = None,
           hand: bool = False, frame: int = 0) -> np.ndarray:
    """One camera frame of the tray with these dice (and a hand over it, if asked)."""
    canvas = _floor(seed, style).copy()
    frame_rng = np.random.default_rng([seed, frame, len(dice)])  # fresh sensor noise
    for index, die in enumerate(dice):
        _paste(canvas, die, (motion or {}).get(index, (0.0, 0.0)), style=style)
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


@frame_cache.cached
def tray(seed: int, count: int = 12, side: float = 34.0, style: TrayStyle = TrayStyle(),
         **layout_options) -> tuple[np.ndarray, list[Die]]:
    """A still tray of settled dice and its truth."""
    rng = np.random.default_rng(seed)
    dice = layout(rng, count, side, style.width, style.height, style.margin, **layout_options)
    return render(dice, seed, style), dice


@frame_cache.cached
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


# Tray families for the benchmark. Each draws its floor, pips, corners, shadow, glare and camera
# from its own ranges; ``harsh`` is any of the four floors under a poor camera and light
# (heavy defocus, noise, strong JPEG, dark shadows, much glare, very round corners, pips of
# any size), drawn from ranges of its own; ``held_out`` has settings of its own (floors,
# pips, corners, camera) that no tuning of the reader looked at, and is reported apart.
# (``harsh`` came last: a family's draws are seeded by its place here)
FAMILIES = ("dark_felt", "colour_felt", "wood", "light_lid", "large_pips", "held_out",
            "harsh")
DARK_FELTS = ((42, 52, 40), (30, 30, 32), (70, 40, 22), (30, 28, 95))  # green, black, blue, red


def _hsv_bgr(h: float, s: float, v: float) -> tuple[float, float, float]:
    bgr = cv2.cvtColor(np.uint8([[[h, s, v]]]), cv2.COLOR_HSV2BGR)[0, 0]
    return tuple(float(c) for c in bgr)


def _lab(bgr) -> np.ndarray:
    return cv2.cvtColor(np.uint8([[bgr]]), cv2.COLOR_BGR2LAB)[0, 0].astype(np.float32)


def _floor_colour(style: TrayStyle) -> tuple[float, float, float]:
    if style.floor == "wood":
        return tuple(float(c) for c in np.array((55, 100, 160)) * 0.9 * np.array(
            style.floor_bgr or (1.0, 1.0, 1.0)))
    return style.floor_bgr or FELT


def visible_colours(style: TrayStyle, far: float = 25.0) -> tuple[str, ...]:
    """The dice colours that stand out from this floor (CIELAB distance, 8-bit units): a die
    the colour of its tray is no die a camera (or a player) can tell from it. Black dice are
    left out: no game here has them, and on a dark floor they are a shadow's colour."""
    floor = _lab(np.clip(_floor_colour(style), 0, 255).astype(np.uint8))
    return tuple(name for name, (body, _) in COLOURS.items()
                 if name != "black" and float(np.linalg.norm(_lab(np.uint8(body)) - floor)) >= far)


def family(name: str, seed: int) -> tuple[TrayStyle, tuple[str, ...]]:
    """A tray style of the family ``name`` and the dice colours that show on it."""
    rng = np.random.default_rng([FAMILIES.index(name), seed])
    common = {"defocus": float(rng.uniform(0.4, 0.9)), "jpeg": int(rng.integers(70, 93)),
              "shadow": float(rng.uniform(0.35, 0.7)), "light_from": float(rng.uniform(0, 360)),
              "glare": 0.25, "pip": float(rng.uniform(0.16, 0.21)),
              "bounce": float(rng.uniform(0.0, 0.25)),
              "radius": float(rng.uniform(0.1, 0.16))}
    wide = name == "harsh"  # its floors too range wider: duller felts, tinted lids, pale wood
    if name == "large_pips":
        name = str(rng.choice(["dark_felt", "colour_felt", "wood", "light_lid"]))
        common["pip"] = float(rng.uniform(0.24, 0.29))
    elif name == "harsh":  # a poor webcam in a dim room: the kind of camera users have
        name = str(rng.choice(["dark_felt", "colour_felt", "wood", "light_lid"]))
        common.update(defocus=float(rng.uniform(0.7, 1.4)), jpeg=int(rng.integers(45, 72)),
                      noise=float(rng.uniform(3.0, 5.5)), shadow=float(rng.uniform(0.5, 0.9)),
                      glare=float(rng.uniform(0.25, 0.5)), bounce=float(rng.uniform(0.0, 0.35)),
                      pip=float(rng.uniform(0.16, 0.29)), radius=float(rng.uniform(0.1, 0.25)))
    if name == "dark_felt":
        felt = DARK_FELTS[int(rng.integers(len(DARK_FELTS)))]
        style = TrayStyle(floor="felt", floor_bgr=felt, **common)
    elif name == "colour_felt":
        style = TrayStyle(floor="felt", floor_bgr=_hsv_bgr(
            rng.uniform(0, 180), rng.uniform(40 if wide else 90, 230),
            rng.uniform(45 if wide else 60, 200 if wide else 190)), **common)
    elif name == "wood":
        tint = tuple(float(t) for t in rng.uniform(0.75 if wide else 0.8,
                                                    1.3 if wide else 1.2, 3))
        style = TrayStyle(floor="wood", floor_bgr=tint, **common)
    elif name == "light_lid":
        style = TrayStyle(floor="lid", floor_bgr=_hsv_bgr(
            rng.uniform(0, 180), rng.uniform(0, 70 if wide else 40),
            rng.uniform(170 if wide else 175, 225 if wide else 215)), **common)
    else:  # held_out: its own floors, pips, corners and a harsher camera
        kind = str(rng.choice(["felt", "wood", "lid"]))
        floor = {"felt": _hsv_bgr(rng.choice([85, 150, 15]), rng.uniform(60, 200),
                                  rng.uniform(50, 170)),
                 "wood": (1.15, 1.15, 1.25),  # a pale, grey-washed wood
                 "lid": _hsv_bgr(rng.uniform(15, 30), rng.uniform(30, 60),
                                 rng.uniform(180, 220))}[kind]
        style = TrayStyle(floor=kind, floor_bgr=floor, defocus=float(rng.uniform(0.8, 1.2)),
                          jpeg=int(rng.integers(55, 66)), noise=4.0,
                          shadow=float(rng.uniform(0.6, 0.8)),
                          light_from=float(rng.uniform(0, 360)), glare=0.4,
                          bounce=float(rng.uniform(0.1, 0.3)),
                          pip=float(rng.uniform(0.2, 0.25)), radius=float(rng.uniform(0.17, 0.22)))
    return style, visible_colours(style)

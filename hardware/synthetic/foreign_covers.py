"""Covers the tuned cover model does not make (issue 50): things laid over a card's sticker.

`video.cover_script` covers a sticker with the generator's own hand, die or card, on the
durations the presence rules were tuned on (2-30 frames). A table has more: a rulebook or
a phone, a cup, a pencil, a crumpled note, a bag of coins, in any colour (one the colour
of the table, one as light as the card, black), with a shadow short or long, soft or
hard, for a frame or four seconds, dropped at once or slid in. This module draws such
covers with its own code (`Cover.draw`, nothing of the hand or die drawing) and scripts
them at random (`script(seed)`), so the bench can ask whether a card that stops being
readable while something lies over it stays on the table on scenes no threshold was
tuned on (`bench/camera.py`, `foreign_cover_*`).
"""
from __future__ import annotations

import math
from dataclasses import dataclass

import cv2
import numpy as np

from hardware.synthetic.scene import Placement
from hardware.synthetic.video import MARKER_AT, Expected, Script, board_to_table
from hardware.tags.format import BOARD_MARKER, card_payload

SHAPES = ("sheet", "ellipse", "strap", "blob", "pouch")
DURATIONS = (1, 3, 6, 12, 25, 45, 90, 120)  # frames at 30 fps: up to 4 s


@dataclass(frozen=True)
class Cover:
    """One object lying above the cards: its ``shape`` centred at (x, y) flat px, turned
    ``angle`` degrees, ``length`` x ``width`` flat px, ``colour`` BGR, ``pattern``
    ("flat", "stripes", "speckle"), a shadow cast ``shadow_px`` away (towards
    ``shadow_deg``) with ``shadow_soft`` px of blur and ``shadow_dark`` (0..1)."""

    shape: str
    x: float
    y: float
    angle: float
    length: float
    width: float
    colour: tuple[int, int, int]
    pattern: str = "flat"
    shadow_px: float = 8.0
    shadow_deg: float = 135.0
    shadow_soft: float = 4.0
    shadow_dark: float = 0.4
    seed: int = 0

    def mask(self, shape: tuple[int, int], scale: float) -> np.ndarray:
        """The object's footprint (uint8 0/255) on a canvas of ``shape``."""
        h, w = shape
        out = np.zeros((h, w), np.uint8)
        cx, cy = self.x * scale, self.y * scale
        half_l, half_w = self.length * scale / 2, self.width * scale / 2
        t = math.radians(self.angle)
        along, across = np.float32([math.sin(t), -math.cos(t)]), \
            np.float32([math.cos(t), math.sin(t)])
        centre = np.float32([cx, cy])
        if self.shape == "sheet":
            pts = [centre + along * a * half_l + across * b * half_w
                   for a, b in ((-1, -1), (1, -1), (1, 1), (-1, 1))]
            cv2.fillPoly(out, [np.int32(np.round(pts))], 255, cv2.LINE_AA)
        elif self.shape == "ellipse":
            cv2.ellipse(out, (int(round(cx)), int(round(cy))),
                        (max(1, int(half_w)), max(1, int(half_l))), self.angle, 0, 360, 255,
                        -1, cv2.LINE_AA)
        elif self.shape == "strap":
            a = centre - along * half_l
            b = centre + along * half_l
            cv2.line(out, tuple(int(v) for v in np.round(a)), tuple(int(v) for v in
                     np.round(b)), 255, max(2, int(half_w)), cv2.LINE_AA)
        else:  # "blob" (a crumpled note) or "pouch" (a bag: a blob with a neck)
            rng = np.random.default_rng(self.seed)
            k = 11
            phi = np.linspace(0, 2 * math.pi, k, endpoint=False)
            r = 1 + rng.uniform(-0.25, 0.25, k)
            pts = [centre + along * math.cos(p) * half_l * q + across * math.sin(p) * half_w * q
                   for p, q in zip(phi, r, strict=True)]
            if self.shape == "pouch":
                pts.append(centre + along * half_l * 1.5)
            cv2.fillPoly(out, [np.int32(np.round(pts))], 255, cv2.LINE_AA)
        return out

    def draw(self, canvas: np.ndarray, scale: float, owner: np.ndarray | None) -> None:
        """Shadow first (on what lies below), then the object."""
        h, w = canvas.shape[:2]
        mask = self.mask((h, w), scale)
        t = math.radians(self.shadow_deg)
        dx, dy = self.shadow_px * scale * math.sin(t), -self.shadow_px * scale * math.cos(t)
        shade = cv2.warpAffine(mask, np.float32([[1, 0, dx], [0, 1, dy]]), (w, h))
        if self.shadow_soft > 0:
            shade = cv2.GaussianBlur(shade, (0, 0), self.shadow_soft * scale)
        keep = 1 - self.shadow_dark * shade.astype(np.float32) / 255
        base = canvas.astype(np.float32) * keep[..., None]
        paint = np.empty_like(base)
        paint[:] = self.colour
        if self.pattern == "stripes":
            yy, xx = np.mgrid[0:h, 0:w]
            stripe = ((xx + yy) // max(2, int(6 * scale)) % 2).astype(np.float32)
            paint *= (0.75 + 0.25 * stripe)[..., None]
        elif self.pattern == "speckle":
            rng = np.random.default_rng(self.seed + 1)
            paint *= rng.uniform(0.8, 1.1, (h, w, 1)).astype(np.float32)
        a = mask.astype(np.float32)[..., None] / 255
        canvas[:] = np.clip(base * (1 - a) + paint * a, 0, 255).astype(np.uint8)
        if owner is not None:
            owner[mask > 127] = -4


def _colour(rng: np.random.Generator) -> tuple[int, int, int]:
    kind = str(rng.choice(["table", "card", "black", "vivid", "gray"]))
    if kind == "table":  # wood-brown, like the table it lies on
        return (int(rng.uniform(30, 60)), int(rng.uniform(70, 110)), int(rng.uniform(120, 170)))
    if kind == "card":  # cream, like the card under it
        return (int(rng.uniform(190, 215)), int(rng.uniform(215, 235)), int(rng.uniform(225, 245)))
    if kind == "black":
        return tuple(int(v) for v in rng.uniform(10, 40, 3))
    if kind == "gray":
        g = int(rng.uniform(80, 180))
        return (g, g, g)
    return tuple(int(v) for v in rng.uniform(0, 255, 3))


def cover(rng: np.random.Generator, sticker: tuple[float, float]) -> Cover:
    """A random cover over the sticker at ``sticker`` (flat px; a 40 mm sticker is about
    130 px on the videos' table): its size, offset and look drawn independently."""
    shape = str(rng.choice(SHAPES))
    size = {"sheet": (300, 220), "ellipse": (110, 100), "strap": (420, 40), "blob": (170, 140),
            "pouch": (150, 130)}[shape]
    grow = float(rng.uniform(0.8, 1.5))
    offset = rng.uniform(-35, 35, 2)
    return Cover(shape, sticker[0] + float(offset[0]), sticker[1] + float(offset[1]),
                 float(rng.uniform(0, 360)), size[0] * grow, size[1] * grow, _colour(rng),
                 str(rng.choice(["flat", "stripes", "speckle"])),
                 shadow_px=float(rng.uniform(0, 30)), shadow_deg=float(rng.uniform(0, 360)),
                 shadow_soft=float(rng.uniform(0, 15)), shadow_dark=float(rng.uniform(0.1, 0.7)),
                 seed=int(rng.integers(0, 10_000)))


def script(seed: int, fps: float = 30.0) -> tuple[Script, dict]:
    """A card lying on the centre space from the start (at any quarter turn); a random
    cover comes over its sticker for a random duration (dropped at once, or slid in from
    a side over 3-8 frames) and goes again. Expected: the card appears once, nothing else.
    Returns the script and what was drawn (for the bench's listing)."""
    rng = np.random.default_rng(500_000 + seed)
    event = card_payload("demo", "E", "card_1")
    marker = Placement(BOARD_MARKER, *MARKER_AT, 0.0, marker=True)
    cx, cy = board_to_table(0, 60)
    turn = int(rng.integers(0, 4))
    t = math.radians(90 * turn)
    sticker = (cx + 63 * math.sin(t), cy - 63 * math.cos(t))
    over = cover(rng, sticker)
    duration = int(rng.choice(DURATIONS))
    slide = bool(rng.integers(0, 2))
    come = int(rng.integers(3, 9)) if slide else 0
    heading = float(rng.uniform(0, 2 * math.pi))
    reach = 500.0
    begin = 20
    frames, hands = [], []
    for i in range(begin + duration + 2 * come + 30):
        k = i - begin
        items = []
        if -come <= k < duration + come:
            away = max(0, -k, k - duration + 1) / max(1, come) if come else 0.0
            d = reach * away
            items.append(Cover(**{**over.__dict__, "x": over.x + d * math.cos(heading),
                                  "y": over.y + d * math.sin(heading)}))
        frames.append([marker, Placement(event, cx, cy, 90.0 * turn)])
        hands.append(items)
    facts = {"shape": over.shape, "colour": over.colour, "pattern": over.pattern,
             "frames": duration, "slid": slide, "shadow_px": round(over.shadow_px, 1)}
    return Script(frames, [Expected("Appeared", event, "centre", turn, 0)], fps, hands,
                  covered=event), facts

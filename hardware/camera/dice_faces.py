"""Read ordinary pip dice in a tray image: where each die is, its colour group and its face.

Knows no game. The tray floor is dark felt (docs/table-kit.md): a die is a blob far from the
felt's colour; its silhouette is squared up (minimum-area rectangle) and the pips are read in
that square. A face counts only when the pips sit where a d6 puts them for that count, so a
cocked die, two dice seen as one or a pip lost in glare are reported unreadable (``face``
None) rather than guessed: a wrong face is worse than none. docs/camera.md says why.
"""
from __future__ import annotations

import functools
import math
import operator
import threading
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace

import cv2
import numpy as np

CANON = 48  # px of the squared-up die face
PIP_OFFSET = 0.27  # pip centres from the face's centre, in sides (a standard d6)
LAYOUTS = {
    1: [[(0, 0)]],
    2: [[(-1, -1), (1, 1)], [(1, -1), (-1, 1)]],
    3: [[(-1, -1), (0, 0), (1, 1)], [(1, -1), (0, 0), (-1, 1)]],
    4: [[(-1, -1), (1, -1), (-1, 1), (1, 1)]],
    5: [[(-1, -1), (1, -1), (0, 0), (-1, 1), (1, 1)]],
    6: [[(-1, -1), (1, -1), (-1, 0), (1, 0), (-1, 1), (1, 1)],
        [(-1, -1), (0, -1), (1, -1), (-1, 1), (0, 1), (1, 1)]],
}
_TARGETS = {count: [np.array(layout, np.float32) for layout in layouts]
            for count, layouts in LAYOUTS.items()}
_STACKED = {count: np.array(layouts, np.float32)  # layouts × places × 2: tried at once
            for count, layouts in LAYOUTS.items()}
MAX_PIP_ERROR = 0.4  # in pip offsets: how far a pip may sit from its place
SCALES = (0.23, 0.25, 0.27, 0.29, 0.31, 0.33)  # pip offsets (of the side) real dice have
ERODE = 2
_SCALES_PX = np.array([scale * CANON for scale in SCALES], np.float32)
_SCALES_COLUMN = _SCALES_PX[:, None, None]
EDGE_BLUR = 0.0  # px: a die's colour, blurred into the floor's, marks it this much wider
WINDOW = 0.6  # of the image's shorter side: the neighbourhood the floor is judged in
LIGHTER = 45.0  # B+G+R levels above the floor: a light die (or glare, told apart by shape)
TINTED = 40.0  # levels of colour the floor, brightened or darkened alike, does not have
DARKER = 0.5  # of the floor's B+G+R, and below: a black die (a shadow only darkens)
SHRINK = 0.84  # the square tried again this much smaller when its pips made no face
MARKED = 45.0  # grey levels between a die's body and its pips or print
HAND_DISTANCE = 90.0  # B+G+R levels from the tray's colour: a hand, an arm, a cup
APART = 0.8  # of a die's side: no other die's centre lies nearer (dice touch face to face)
PATCH = 6.0  # dice's areas: a blob larger is a patch of floor, not dice pressed together
HAND_SHARE = 0.05  # of the tray a hand's core covers at least (a rendered hand: 0.08-0.3)
MIN_FILL = 0.8  # of its minimum-area rectangle a rounded square covers (a disc: 0.785)
GUESSED_SIZES = (28.0, 36.0, 44.0)  # px: dice sizes tried when nothing tells the size


@dataclass(frozen=True)
class DieReading:
    """One die: ``face`` 1-6, or None when it cannot be read with confidence. ``die``: the
    name of a taught die (hardware/camera/taught_faces.py) this one is, its ``face`` then
    that die's label; ``square``: the die's top squared up (CANON px), when it lay flat;
    ``pitch``: how far its pips lie from its centre (px along a side; 0 for a one)."""

    face: int | None
    colour: str
    centre: tuple[float, float]
    side: float
    score: float
    die: str | None = None
    square: np.ndarray | None = field(default=None, repr=False, compare=False)
    pitch: float = field(default=0.0, repr=False, compare=False)

    def to_json(self) -> dict:
        out = {"face": self.face, "colour": self.colour,
               "centre": [round(self.centre[0], 1), round(self.centre[1], 1)],
               "score": round(self.score, 3)}
        if self.die is not None:
            out["die"] = self.die
        return out


@dataclass(frozen=True)
class TrayReading:
    """Every die seen, and whether the tray was clear to read (no hand, nothing huge)."""

    dice: list[DieReading]
    clear: bool


_HUES = (("red", 0, 8), ("orange", 10, 20), ("yellow", 23, 35), ("green", 40, 85),
         ("blue", 95, 130), ("purple", 135, 160), ("red", 165, 180))  # OpenCV hue, 0-180


def _hsv(bgr) -> tuple[int, int, int]:
    """OpenCV's 8-bit HSV of a colour (clipped, truncated to whole levels, as ``np.uint8``)."""
    return _hsv_of(*(int(min(max(c, 0.0), 255.0)) for c in _floats(bgr)))


def _floats(values) -> list[float]:
    """A few numbers as plain floats (an array's elements at once, not one by one)."""
    return values.tolist() if isinstance(values, np.ndarray) else [float(c) for c in values]


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
    return name if _colour_group(_hsv(lifted), floor_hsv) == name else "unknown"


def _colour_group(hsv: tuple[int, int, int], floor_hsv: tuple[int, int, int] | None) -> str:
    """The group of a colour's HSV (`_hsv`) on a floor of ``floor_hsv`` (None: unknown)."""
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
    for name, low, high in _HUES:
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


def _match_layout(points: np.ndarray) -> tuple[int | None, float]:
    """The face whose pip layout these points (in pip offsets) fit, and the worst error.

    Each pip is given its nearest place, which must be one to one. Places lie at least one
    offset apart, so a pip within MAX_PIP_ERROR of a place has no other place nearer: trying
    every assignment (as a first version did) finds no better fit that is accepted."""
    best = float(_layout_errors(points[None])[0])
    return (len(points), best) if best <= MAX_PIP_ERROR else (None, best)


def _layout_errors(scaled: np.ndarray) -> np.ndarray:
    """`_match_layout`'s worst error (9.0: no one-to-one fit) for each of several scalings
    of the same points at once (``scaled``: scalings × points × 2): one pass for every
    pip offset, a fifth of the CPU of one pass each; and every layout of the count in the
    same pass (scalings × layouts × points × places). The two axes apart (the same float32
    figures as a sum over them); a lone pip fits its one place one to one."""
    targets = _PLACES_XY.get(scaled.shape[1])
    if targets is None:
        return np.full(len(scaled), 9.0)
    dx = scaled[:, None, :, None, 0] - targets[0]
    dy = scaled[:, None, :, None, 1] - targets[1]
    dx *= dx
    dy *= dy
    d = np.sqrt(np.add(dx, dy, out=dx), out=dx)
    worst = d.min(axis=3).max(axis=2)  # each pip's distance to its nearest place
    if scaled.shape[1] > 1:
        ranked = np.sort(d.argmin(axis=3), axis=2)
        worst[(ranked[:, :, 1:] == ranked[:, :, :-1]).any(axis=2)] = np.inf
    return worst.min(axis=1, initial=9.0)


_PLACES_XY = {count: tuple(np.ascontiguousarray(stacked[..., axis])[None, :, None, :]
                           for axis in (0, 1))
              for count, stacked in _STACKED.items()}  # 1 × layouts × 1 × places, x and y


_INNER = slice(CANON * 14 // 100, CANON - CANON * 14 // 100)  # inside the rounded edge
_RING = np.zeros((CANON, CANON), bool)  # just inside the rounded edge: mostly body
_OUTER, _INSIDE = slice(CANON * 6 // 100, -(CANON * 6 // 100)), slice(CANON * 9 // 100,
                                                                      -(CANON * 9 // 100))
_RING[_OUTER, _OUTER] = True
_RING[_INSIDE, _INSIDE] = False
_GRID = np.array([(x, y) for y in (-1, 0, 1) for x in (-1, 0, 1)], np.float32)
_YY, _XX = np.mgrid[0:CANON, 0:CANON].astype(np.float32)


def _quantile(values: np.ndarray, q: float) -> np.ndarray:
    """``np.quantile(values, q, axis=0)`` (linear), by partial sort: numpy's general path
    costs several times more on a die's thousand pixels, read a dozen times a roll."""
    position = q * (len(values) - 1)
    low = int(position)
    high = min(low + 1, len(values) - 1)
    part = np.partition(values, [low, high], axis=0)
    if values.dtype == np.uint8:  # colours: ranked as bytes, interpolated as float64
        below, above = part[low].astype(np.float64), part[high].astype(np.float64)
        return below + (above - below) * (position - low)
    return part[low] + (part[high] - part[low]) * (position - low)


def _median(values) -> float:
    """``np.median`` of a few values (a die's pips), exactly, at a fraction of its CPU."""
    ranked = np.sort(np.asarray(values))
    half = len(ranked) // 2
    return ranked[half] if len(ranked) % 2 else (ranked[half - 1] + ranked[half]) / 2


def _median_rows(values: np.ndarray) -> np.ndarray:
    """``np.median(values, axis=0)`` (colours: rows of B, G, R), exactly, by partial sort:
    numpy's general path costs several times more. The two middle rows averaged as
    ``np.mean`` would: in float64 for whole levels, else in the values' own type."""
    half = len(values) // 2
    if len(values) % 2:
        middle = np.partition(values, half, axis=0)[half]
        return middle.astype(np.float64) if values.dtype.kind in "iu" else middle
    part = np.partition(values, [half - 1, half], axis=0)
    dtype = np.float64 if values.dtype.kind in "iu" else values.dtype
    return np.add(part[half - 1], part[half], dtype=dtype) / 2


def _fit_layout(points: np.ndarray) -> tuple[int | None, float, float, np.ndarray]:
    """The face these pip centres (px from the square's centre) fit at some pip offset a real
    die has (`SCALES`), centred on the pips themselves when there are several (every d6
    layout is symmetric about the centre: a square found a little large or off still
    fits). Returns face, error (in pip offsets), the offset in px, and the centre."""
    centre = np.zeros(2, np.float32)
    if len(points) > 1:
        centre = np.add.reduce(points, axis=0) / len(points)  # points.mean(axis=0)
        if np.hypot(*centre) > 0.15 * CANON:
            return None, 9.0, 0.0, centre
    errors = _layout_errors((points - centre)[None] / _SCALES_COLUMN)
    k = int(errors.argmin())  # the first of the best
    error = float(errors[k])
    if error >= 9.0:
        return None, 9.0, 0.0, centre
    return (len(points) if error <= MAX_PIP_ERROR else None), error, SCALES[k] * CANON, centre


def _absent_elsewhere(local: np.ndarray, offsets: Sequence[float], centre: np.ndarray,
                      at: np.ndarray, pip_level: float, one: bool = False) -> bool:
    """No pip, faint or partly hidden, where this face has none, at any of the pips'
    ``offsets`` (px) tried: two pips of a three, four of a five or of a six are no two or
    four (a pip lost in glare, under a shadow). ``local``: the pips' contrast averaged over a
    small window (5×5); ``at``: the pips' centres in the square. Every offset in one pass.
    ``one``: a lone middle pip, which a three's or five's is too: their other pips lie in
    pairs through the middle, so a faint spot counts only with a fainter one opposite it (or
    its opposite place off the square); a glint on the top lies alone."""
    step = np.asarray(offsets, np.float32)[:, None, None]
    places = _GRID[None] * step + centre + CANON / 2  # offsets × places × 2
    gaps = at[None, None, :, :] - places[:, :, None, :]
    near = np.hypot(gaps[..., 0], gaps[..., 1])
    free = near.min(axis=2) >= 0.5 * step[:, :, 0]  # no pip of the face there
    spots = np.rint(places).astype(int)
    inside = ((spots >= 2) & (spots < CANON - 2)).all(axis=2)
    free &= inside
    least = 0.35 * pip_level  # float32 contrast compared in plain floats: the same
    if one:
        clipped = np.clip(spots, 0, CANON - 1)
        values = local[clipped[..., 1], clipped[..., 0]].astype(np.float64)
        seen = free & (values > least)
        # _GRID's places reversed are their opposites through the middle
        paired = (values[:, ::-1] > 0.5 * least) | ~inside[:, ::-1]
        return not (seen & paired).any()
    spots = spots[free]
    return not any(value > least for value in local[spots[:, 1], spots[:, 0]].tolist())


def read_face(square: np.ndarray, light_body: bool | None = None,
              whole: np.ndarray | None = None
              ) -> tuple[int | None, float, Callable[[], np.ndarray], float]:
    """Pips of a squared-up die (CANON×CANON BGR): face or None, score 0-1, body colour
    (the median of the top inside its rounded edge, pips left out; a function giving it:
    most squares tried are no die read, and need none), and the pips' offset
    from the centre (CANON px; 0 for a one or none). ``light_body``: the
    pips are known to be darker than the body (True) or lighter (False). ``whole``: when
    ``square`` is the middle `SHRINK` of the die's square, that whole square (no pip of
    the die may lie in it beyond the face's)."""
    gray8 = cv2.cvtColor(square, cv2.COLOR_BGR2GRAY)
    inner8 = gray8[_INNER, _INNER]
    # body and pips: the two tones of the top (Otsu); the body is the one that holds the
    # ring just inside the rounded edge (large pips may cover near half the top)
    split, _ = cv2.threshold(inner8, 0, 255, cv2.THRESH_BINARY | cv2.THRESH_OTSU)
    if light_body is None:
        light_body = 2 * np.count_nonzero(gray8.take(_RING_AT_FLAT) > split) >= _RING_COUNT
    # both tones' medians from one cumulative histogram of the top's grey levels (whole
    # levels: the same figures as sorting the pixels, for a fifth of the numpy calls)
    below = int(split)  # Otsu's divide is a whole level
    counts = np.bincount(inner8.ravel(), minlength=256).cumsum()
    dark = int(counts[below])
    light = _INNER_COUNT - dark
    bodies = light if light_body else dark
    if bodies < 20:  # too little body: the whole top, no pips
        return None, 0.0, _body(square, inner8, below, light_body, True), 0.0
    body = _body(square, inner8, below, light_body, False)
    if _INNER_COUNT - bodies <= 8:
        return None, 0.0, body, 0.0
    # the light tone's pixels lie above the dark one's
    body_gray, pip_gray = _medians(counts, ((dark, light), (0, dark)) if light_body
                                   else ((0, dark), (dark, light)))
    peak = abs(pip_gray - body_gray)
    if peak < 40:  # no pips at all: not a die face we can read
        return None, 0.0, body, 0.0
    gray = gray8.astype(np.float32)
    contrast = (body_gray - gray) if light_body else (gray - body_gray)
    # the 5×5 average (once for every level tried) and the whole square's contrast: made
    # only when a level's pips fit a face
    local = _Once(lambda: cv2.blur(contrast, (5, 5)))
    if whole is None:
        around = _Once(lambda: (contrast, 1.0))
    else:
        def whole_contrast() -> tuple[np.ndarray, float]:
            whole_gray = cv2.cvtColor(whole, cv2.COLOR_BGR2GRAY).astype(np.float32)
            return ((body_gray - whole_gray) if light_body else (whole_gray - body_gray)), SHRINK
        around = _Once(whole_contrast)
    # pips set apart from the body at the tones' divide; where large pips run together (a
    # six seen small), again nearer the pips' own tone
    for level in (max(30.0, 0.5 * peak, abs(body_gray - split)),
                  abs(body_gray - (split + pip_gray) / 2), peak):
        face, score, offset = _pips_face(contrast, level, around, local)
        if face is not None:
            return face, score, body, offset if face > 1 else 0.0
    return None, 0.0, body, 0.0


class _Once:
    """A value made on first asking, kept after (``functools.cache`` costs more to wrap)."""

    __slots__ = ("make", "value")

    def __init__(self, make: Callable):
        self.make, self.value = make, None

    def __call__(self):
        if self.value is None:
            self.value = self.make()
        return self.value


_INNER_COUNT = len(range(CANON)[_INNER]) ** 2
_RING_AT_FLAT = np.flatnonzero(_RING)  # the ring's pixels, taken at once
_RING_COUNT = len(_RING_AT_FLAT)


def _medians(counts: np.ndarray, parts) -> list[float]:
    """The medians (as `_quantile` of the pixels: the two middle values' mean) of runs of
    whole grey levels, each given as (pixels below it, pixels in it), from the levels'
    cumulative counts: every rank looked up at once."""
    ranks = []
    for before, many in parts:
        low = (many - 1) // 2
        ranks += [before + low + 1, before + min(low + 1, many - 1) + 1]
    levels = np.searchsorted(counts, ranks).tolist()
    return [levels[k] + (levels[k + 1] - levels[k]) * ((many - 1) / 2 - (many - 1) // 2)
            for k, (_, many) in zip(range(0, len(levels), 2), parts, strict=True)]


def _body(square: np.ndarray, inner8: np.ndarray, below: int, light_body: bool,
          whole_top: bool) -> Callable[[], np.ndarray]:
    """The body's colour, when asked: the median of the top's pixels on the body's side of
    the divide (``whole_top``: every pixel)."""
    def body() -> np.ndarray:
        colours = square[_INNER, _INNER].reshape(-1, 3)
        if whole_top:
            return _quantile(colours, 0.5)
        in_body = ((inner8 > below) if light_body else (inner8 <= below)).ravel()
        return _quantile(colours[in_body], 0.5)
    return body


_SMALLEST_PIP = np.pi * (0.06 * CANON) ** 2
_LARGEST_PIP = np.pi * (0.19 * CANON) ** 2
_EDGE = slice(CANON * 8 // 100, CANON - CANON * 8 // 100)  # the rounded edge is no pip


def _square_components(mask: np.ndarray):
    """``cv2.connectedComponentsWithStats(mask, connectivity=8)`` of a CANON square, its
    labels (unused) in 16 bits written over this thread's one buffer: half the CPU."""
    return cv2.connectedComponentsWithStatsWithAlgorithm(
        mask, 8, cv2.CV_16U, cv2.CCL_SPAGHETTI,
        labels=_scratch("square labels", (CANON, CANON), np.uint16))


def _pips_face(contrast: np.ndarray, level: float,
               around: Callable[[], tuple[np.ndarray, float]],
               local: Callable[[], np.ndarray]) -> tuple[int | None, float, float]:
    """The face the pips (``contrast`` above ``level``) show, with nothing where it has
    none, nor more pips on the die (``around``: the contrast of the die's whole square and
    its scale to this one; ``local``: ``contrast`` averaged over 5×5); or None."""
    pips = _square_buffer("pips")  # its rim, the rounded edge, stays clear: no pip
    np.greater(contrast[_EDGE, _EDGE], level, out=pips[_EDGE, _EDGE])
    _, _, stats, centroids = _square_components(pips.view(np.uint8))
    # a few pieces: plain ints, numpy's per-call overhead would cost more than the work
    kept, areas = [], []
    for k, (_, _, w, h, area) in enumerate(stats.tolist()):
        # a noise speck, or the floor's edge showing along a side, is left out
        if k and area >= _SMALLEST_PIP and max(w, h) <= 2.2 * min(w, h):
            if area > _LARGEST_PIP or area < 0.45 * w * h:
                return None, 0.0, 0.0  # a blot no pip makes: glare, a shadow, two dice
            kept.append(k)
            areas.append(area)
    if not 1 <= len(areas) <= 6 or max(areas) > 2.6 * min(areas):
        return None, 0.0, 0.0
    points = np.subtract(centroids[kept], CANON / 2, dtype=np.float32)  # cast, then less
    face, error, offset, centre = _fit_layout(points)
    if face is None or (face in (3, 5) and not _middle_between(points, centre, offset)):
        return None, 0.0, 0.0
    whole, scale = around()
    if _more_pips_within(whole, level, len(points), _median_of(areas) * scale ** 2):
        return None, 0.0, 0.0
    at = points + CANON / 2
    spots = at.astype(int)
    # the contrast is in half levels (the body's median less whole ones): its median the
    # same in plain floats
    pip_level = _median_of(contrast[spots[:, 1], spots[:, 0]].tolist())
    # a lone pip has no spacing of its own: nothing may lie at any spacing a die has (the
    # corner pips of a die squared up too small are not where a one's would be)
    offsets = [offset] if face > 1 else [share * CANON for share in SCALES + (0.36,)]
    if not _absent_elsewhere(local(), offsets, centre, at, pip_level, face == 1):
        return None, 0.0, 0.0
    return face, max(0.0, 1.0 - error / MAX_PIP_ERROR), _pitch(points - centre, face)


MIDDLE_OFF = 0.3  # of the pips' offset: how far a three's or five's middle pip may lie from
# its corner pips' midpoint (766 read right: at most 0.15; a glint between a two's pips: 0.5)


def _middle_between(points: np.ndarray, centre: np.ndarray, offset: float) -> bool:
    """A three's or five's middle pip lies halfway between its corner pips (`MIDDLE_OFF`):
    a glint on a two's top between its pips, off that midpoint, is no three."""
    middle = int(np.argmin(np.hypot(*(points - centre).T)))
    corners = (points.sum(axis=0) - points[middle]) / (len(points) - 1)
    return float(np.hypot(*(points[middle] - corners))) <= MIDDLE_OFF * offset


def _square_buffer(name: str) -> np.ndarray:
    """This thread's one CANON×CANON bool buffer of that name, its rim (`_EDGE`) clear."""
    buffer = getattr(_SCRATCH, name, None)
    if buffer is None:
        buffer = np.zeros((CANON, CANON), bool)
        setattr(_SCRATCH, name, buffer)
    return buffer


def _median_of(values: list) -> float:
    """`_median` of a few plain numbers, in plain floats: the same as `_median` of float64
    ones, and of float32 ones in half levels (their sums exact in float32 too)."""
    ranked = sorted(values)
    half = len(ranked) // 2
    return float(ranked[half] if len(ranked) % 2 else (ranked[half - 1] + ranked[half]) / 2)


def _pitch(points: np.ndarray, face: int) -> float:
    """How far the pips lie from the centre along the die's sides (px), as measured: the
    median of the pips off the middle (a six's rows, spread by large pips, the larger)."""
    reach = np.abs(points).max(axis=1).tolist()  # float32 in plain floats: the same figures
    outer = [r for r in reach if r > 0.5 * max(reach)]  # not a middle pip
    return _median_of(outer) if outer else 0.0


_WITHIN = (np.hypot(_XX - CANON / 2 + 0.5, _YY - CANON / 2 + 0.5) <= 0.42 * CANON
           )  # the top's inner circle: no rounded edge, no floor


def _more_pips_within(contrast: np.ndarray, level: float, count: int, pip_area: float) -> bool:
    """More pieces of pip (``contrast`` above ``level``), of a sizeable part of a pip, inside
    the top's inner circle than the face has pips. That circle holds every pip of a die
    however the square is turned: a square found turned (large pips bite a six's outline
    into a cross) sees two of its pips as a two, and the others, cut by the square's edge,
    passed for the floor's edge."""
    pips = np.greater(contrast, level, out=_square_buffer("within"))
    np.logical_and(pips, _WITHIN, out=pips)
    pieces, _, stats, _ = _square_components(pips.view(np.uint8))
    least = 0.4 * pip_area
    return sum(area >= least for area in stats[1:, cv2.CC_STAT_AREA].tolist()) > count


def _square_up(image: np.ndarray, rect) -> np.ndarray:
    (cx, cy), (w, h), angle = rect
    side = (w + h) / 2
    m = cv2.getRotationMatrix2D((cx, cy), angle, CANON / side)
    m[0, 2] += CANON / 2 - cx  # element by element: no array made of the shift
    m[1, 2] += CANON / 2 - cy
    return cv2.warpAffine(image, m, (CANON, CANON), flags=cv2.INTER_LINEAR,
                          borderMode=cv2.BORDER_REPLICATE)


def _read_square(image: np.ndarray, rect, taught: Sequence, light_body: bool | None = None,
                 retry: bool = True, wanted: Callable[[int | None], bool] | None = None
                 ) -> DieReading | None:
    """A die lying flat in ``rect`` (a minimum-area rectangle): its pips, or, when it is a
    taught die sure of its face, that face. A die that looks taught but is unsure, and
    shows no pip face either, is that die unreadable (the phone asks for it by name). None:
    nothing on it at all, no die. ``wanted`` (no ``taught`` dice then): None too when the
    face read fails this test, as the caller would drop that reading; its colour, the
    costly part, is then never taken."""
    (cx, cy), (rw, rh), angle = rect
    square = _square_up(image, rect)
    centre, side = (float(cx), float(cy)), float((rw + rh) / 2)
    face, score, body, offset = read_face(square, light_body)
    pitch = offset * side / CANON
    if face is None and retry:  # the blob took in a shadow or a glint: the top is smaller
        smaller = _square_up(image, ((cx, cy), (rw * SHRINK, rh * SHRINK), angle))
        face, score, small_body, offset = read_face(smaller, light_body, square)
        if face == 1:  # the outer pips of a five or a three cut off: no one to be sure of
            face, score = None, 0.0
        elif face is not None:
            body, pitch = small_body, offset * side * SHRINK / CANON
    if wanted is not None and not wanted(face):
        return None
    for die in taught:  # matched as it was taught: the whole blob squared up
        match = die.match(square)
        if match.ours and (match.face is not None or face is None):
            return DieReading(match.face, colour_name(body(), _surroundings(image, centre, side)),
                              centre, side, match.score if match.face is not None else 0.0,
                              die.name, square)
    if face is None and not _marked(square):
        return None  # no pips, no print: a glint, a patch of floor, no die
    return DieReading(face, colour_name(body(), _surroundings(image, centre, side)), centre, side,
                      score, None, square, pitch)


def _marked(square: np.ndarray) -> bool:
    """Something of another tone lies on the top (pips, a numeral), sharp and sizeable: a
    die, if one not read; a glint on the floor or wood's grain fades, and shows none."""
    inner = cv2.cvtColor(square, cv2.COLOR_BGR2GRAY)[_INNER, _INNER]
    split, _ = cv2.threshold(inner, 0, 255, cv2.THRESH_BINARY | cv2.THRESH_OTSU)
    # the two tones' shares and medians from the levels' cumulative counts (np.median's
    # figures: whole levels, or the mean of two)
    counts = np.bincount(inner.ravel(), minlength=256).cumsum()
    dark = int(counts[int(split)])
    light = _INNER_COUNT - dark
    if not 0.03 <= light / _INNER_COUNT <= 0.97:
        return False
    light_gray, dark_gray = _medians(counts, ((dark, light), (0, dark)))
    return light_gray - dark_gray >= MARKED


def _read_blob(image: np.ndarray, points: np.ndarray, grown: int, typical: float,
               pixels: float | None = None, taught: Sequence = (), square: bool = True
               ) -> DieReading | None:
    """One die's blob (eroded by ``grown`` px; ``points`` its pixels or its outline, then
    ``pixels`` its pixel count and ``square`` whether it is a rounded square, `_Blob.square`):
    squared up and read, or unreadable when its shape is not a die lying flat (a cocked die
    shows a side: the wrong size or shape); None when it is no rounded square at all."""
    (cx, cy), (rw, rh), angle = cv2.minAreaRect(points)
    area = (len(points) if pixels is None else pixels) if grown == ERODE else (rw * rh)
    rw, rh = rw + 2 * grown - EDGE_BLUR, rh + 2 * grown - EDGE_BLUR
    aspect = max(rw, rh) / max(1.0, min(rw, rh))
    if aspect > 1.45 or (pixels is not None and not square):
        if pixels is not None and aspect <= 1.15 and 0.9 <= (rw + rh) / 2 / (
                np.sqrt(typical) + 2 * ERODE) <= 1.15:
            # large pips as dark as the floor bite a die's outline into a star: a die
            # if its square reads a face of several pips
            reading = _read_square(image, ((cx, cy), (rw, rh), angle), (), retry=False,
                                   wanted=lambda face: face is not None and face > 1)
            if reading is not None:
                return reading
        return None  # no square at all: grain, glare, a shadow's edge
    wrong_size = grown == ERODE and not 0.6 * typical <= area <= 1.45 * typical
    if aspect > 1.2 or wrong_size:  # a die on edge, cocked: seen, not read, if marked
        side = np.sqrt(typical) + 2 * ERODE
        if max(rw, rh) > 1.45 * side:
            return None  # longer than a die's diagonal: a patch of floor, grain
        top = _top_beside_a_side(image, (cx, cy), (rw, rh), angle, side)
        if top is not None:
            return top
        if not _marked(_square_up(image, ((cx, cy), (rw, rh), angle))):
            return None
        return DieReading(None, "unknown", (float(cx), float(cy)), float((rw + rh) / 2), 0.0)
    reading = _read_square(image, ((cx, cy), (rw, rh), angle), taught)
    if reading is not None and reading.face == 1 and reading.die is None and (
            _middle_of_more(image, (cx, cy), np.sqrt(typical) + 2 * ERODE, rw, rh)):
        return replace(reading, face=None, score=0.0)
    return reading


THIN_SIDE = 0.08  # of the top's side: how far its square lies from the blob's middle, at
# least, where a side shows beside it (nearer, the blob is the top)


def _top_beside_a_side(image: np.ndarray, centre: tuple[float, float], size: tuple[float, float],
                       angle: float, side: float) -> DieReading | None:
    """A die seen obliquely (off the camera's axis, or under a tilted camera) shows one or
    two of its sides beside its top: its blob is longer than a die, or larger. Its top is a
    square of the die's side at one end or corner of the blob: every such square is read,
    and the face is kept only when those that read one agree (a square over a side and
    half the top must not win over the top)."""
    (cx, cy), (rw, rh) = centre, size
    short = min(rw, rh)
    top = short if 0.85 * side <= short <= 1.15 * side else side
    ex, ey = max(0.0, (rw - top) / 2), max(0.0, (rh - top) / 2)
    if ex < THIN_SIDE * top and ey < THIN_SIDE * top:
        return None  # no side beside it: the blob is the top
    turn = np.radians(angle)
    u, v = np.array([np.cos(turn), np.sin(turn)]), np.array([-np.sin(turn), np.cos(turn)])
    read = []
    for dx, dy in {(sx * ex, sy * ey) for sx in (-1, 1) for sy in (-1, 1)}:
        x, y = np.array([cx, cy]) + dx * u + dy * v
        die = _read_square(image, ((float(x), float(y)), (top, top), angle), ())
        if die is not None and die.face is not None:
            read.append(die)
    if not read or len({die.face for die in read}) > 1:
        return None
    return read[0]


TURNS = (0.0, 15.0, 30.0, 45.0, 60.0, 75.0)  # degrees: a square tried at each, no side known


def _middle_of_more(image: np.ndarray, centre: tuple[float, float], side: float,
                    rw: float, rh: float) -> bool:
    """A one read on a blob smaller than the dice (``rw`` by ``rh`` against their ``side``:
    a white die on a light lid standing out only in its middle) may be a three's or five's
    middle pip, its corners beyond the blob: a square of the dice's side round it, at any
    turn (`TURNS`: the blob's own may be off), reads that three or five."""
    if (rw + rh) / 2 >= 0.9 * side:
        return False
    for turn in TURNS:
        more = _read_square(image, (centre, (side, side), turn), (), retry=False,
                            wanted=lambda face: face in (3, 5))
        if more is not None:
            return True
    return False


def _halves(points: np.ndarray, many: int = 2, grown: int = ERODE) -> list | None:
    """``many`` dice in a row with no gap the camera can see: a many:1 rectangle (2:1 for
    two side by side; ``points`` eroded by ``grown`` px), cut into squares."""
    (cx, cy), (rw, rh), angle = cv2.minAreaRect(points)
    rw, rh = rw + 2 * grown, rh + 2 * grown
    long_side, short_side = max(rw, rh), min(rw, rh)
    if not 0.9 * many <= long_side / short_side <= 1.125 * many:
        return None
    theta = np.radians(angle if rw >= rh else angle + 90)
    step = long_side / many
    side = (short_side + step) / 2
    return [((cx + np.cos(theta) * step * (k - (many - 1) / 2),
              cy + np.sin(theta) * step * (k - (many - 1) / 2)), (side, side), angle)
            for k in range(many)]


def _split(points: np.ndarray, typical: float, gray: np.ndarray
           ) -> list[tuple[np.ndarray, int]] | None:
    """Dice touching in one blob: their rounded, darker edges part them (the blob's bright
    cores), or else eroding it further until it falls into die-sized pieces."""
    pts = points.reshape(-1, 2)
    x0, y0 = pts.min(axis=0) - 2
    blob = np.zeros((int(pts[:, 1].max() - y0) + 3, int(pts[:, 0].max() - x0) + 3), np.uint8)
    blob[pts[:, 1] - y0, pts[:, 0] - x0] = 1
    side = np.sqrt(typical)
    values = gray[pts[:, 1], pts[:, 0]]
    light = np.zeros_like(blob)
    light[pts[:, 1] - y0, pts[:, 0] - x0] = values > 0.85 * np.median(values)
    holes, hole_labels, hole_stats, _ = cv2.connectedComponentsWithStats(1 - light,
                                                                          connectivity=4)
    small = hole_stats[:, cv2.CC_STAT_AREA] < 0.05 * typical
    small[0] = False
    light[small[hole_labels]] = 1  # pips back in
    light = cv2.erode(light, np.ones((3, 3), np.uint8))
    count, labels, stats, _ = cv2.connectedComponentsWithStats(light, connectivity=4)
    big = [i for i in range(1, count) if 0.3 * typical <= stats[i, cv2.CC_STAT_AREA]]
    if len(big) >= 2 and all(stats[i, cv2.CC_STAT_AREA] <= 1.3 * typical for i in big):
        grow = ERODE + 1 + int(round(side * 0.06))
        return [(cv2.findNonZero((labels == i).astype(np.uint8)) + (x0, y0), grow) for i in big]
    for extra in range(1, int(side * 0.25) + 1):
        blob = cv2.erode(blob, np.ones((3, 3), np.uint8))
        count, labels, stats, _ = cv2.connectedComponentsWithStats(blob, connectivity=8)
        big = [i for i in range(1, count) if stats[i, cv2.CC_STAT_AREA] >= 0.25 * typical]
        if len(big) >= 2:
            return [(cv2.findNonZero((labels == i).astype(np.uint8)) + (x0, y0), ERODE + extra)
                    for i in big]
    return None


@dataclass
class _Blob:
    """One connected part of the eroded mask: its outline, its filled pixels (holes left
    open) in its bounding box at (x, y), and their count; its hull's area, and whether it
    is a rounded square (`_square_enough`), measured once for every later look."""

    outline: np.ndarray
    filled: np.ndarray
    x: int
    y: int
    area: float
    hull_area: float
    square: bool

    def pixels(self) -> np.ndarray:
        return cv2.findNonZero(self.filled) + (self.x, self.y)


def _fill_pips(mask: np.ndarray) -> np.ndarray:
    """Pips that do not stand out from the floor (dark pips on a light die on dark felt) are
    holes in its blob: fill every hole smaller than a fifth of its blob (a gap enclosed by
    dice is larger). Outlines, not labelled pixels: several times cheaper."""
    outlines, hierarchy = cv2.findContours(mask, cv2.RETR_CCOMP, cv2.CHAIN_APPROX_SIMPLE)
    if hierarchy is None:
        return mask
    parents = hierarchy[0][:, 3].tolist()
    # only holes and their blobs measured (grain leaves hundreds of specks without holes)
    holes = [outlines[i] for i, parent in enumerate(parents) if parent >= 0
             and cv2.contourArea(outlines[i]) < 0.2 * cv2.contourArea(outlines[parent])]
    cv2.drawContours(mask, holes, -1, 255, cv2.FILLED)
    return mask


def _blobs(mask: np.ndarray) -> tuple[list[_Blob], bool]:
    """The blobs off the walls, and whether the tray is clear: the walls are thin, so
    anything joined to them that reaches well inside is a hand."""
    h, w = mask.shape
    reach = int(min(h, w) * 0.15)
    outlines, hierarchy = cv2.findContours(mask, cv2.RETR_CCOMP, cv2.CHAIN_APPROX_SIMPLE)
    blobs, clear = [], True
    parents = [] if hierarchy is None else hierarchy[0][:, 3].tolist()
    for i, outline in enumerate(outlines):
        if parents[i] >= 0:
            continue  # a hole's outline: drawn with its blob
        x, y, bw, bh = cv2.boundingRect(outline)
        if x == 0 or y == 0 or x + bw == w or y + bh == h:  # joined to the walls
            if clear and bw * bh > 4 * reach * reach:
                inside = np.zeros((h - 2 * reach, w - 2 * reach), np.uint8)
                cv2.drawContours(inside, outlines, i, 1, cv2.FILLED, hierarchy=hierarchy,
                                 maxLevel=1, offset=(-reach, -reach))
                clear = _thick(inside, reach) is False
            continue
        if bw * bh < 40:
            continue  # a speck: fewer pixels than a blob has (below), however filled
        filled = np.zeros((bh, bw), np.uint8)
        cv2.drawContours(filled, outlines, i, 1, cv2.FILLED, hierarchy=hierarchy, maxLevel=1,
                         offset=(-x, -y))
        area = cv2.countNonZero(filled)
        if area >= 40:
            hull_area, square = _hull_fill(outline, area)
            if square:  # a die whose print or pips bite its edge
                area = max(area, hull_area)
            # (still a rounded square by `_square_enough` with that area: it fills its hull)
            blobs.append(_Blob(outline, filled, x, y, float(area), hull_area, square))
    return blobs, clear


def _thick(region: np.ndarray, reach: int) -> bool:
    """A hand or an arm, not a streak of grain or the rim's edge: somewhere as thick as a
    third of ``reach`` (a fat stroke, ~5% of the tray)."""
    if not region.any():
        return False
    core = cv2.erode(region, np.ones((3, 3), np.uint8), iterations=max(1, reach // 6))
    return bool(core.any())


def floor_colour(image: np.ndarray, window: float | None = None,
                 dst: np.ndarray | None = None) -> np.ndarray:
    """The floor's colour around each pixel (BGR): the median of a neighbourhood ``window`` px
    across (`WINDOW` of the shorter side), dice being few and small in it (uint8); with
    ``window`` 0, the median of the image's outer ring, one colour for the whole tray (a die
    seen close fills the middle of its picture; float32, a median may fall between levels).
    ``dst``: where to write the neighbourhoods' colours (the image's shape, uint8)."""
    h, w = image.shape[:2]
    if window == 0:
        ring = np.concatenate([image[:h // 10].reshape(-1, 3), image[h - h // 10:].reshape(-1, 3),
                               image[:, :w // 10].reshape(-1, 3),
                               image[:, w - w // 10:].reshape(-1, 3)])
        colour = _median_rows(ring).astype(np.float32)
        return np.full((h, w, 3), colour, np.float32)
    window = window or WINDOW * min(h, w)
    step = max(1, int(window / 9))
    small = cv2.resize(image, (max(3, w // step), max(3, h // step)), interpolation=cv2.INTER_AREA)
    k = 4 if min(small.shape[:2]) >= 5 else 1
    # reflected, not replicated, at the image's edge: the tray's rim is a thin band there,
    # not the floor of a whole neighbourhood
    padded = cv2.copyMakeBorder(small, k, k, k, k, cv2.BORDER_REFLECT_101)
    small = cv2.medianBlur(padded, 2 * k + 1)[k:-k, k:-k]
    return cv2.resize(small, (w, h), dst=dst, interpolation=cv2.INTER_LINEAR)


_SUM = np.ones((1, 3), np.float32)
_SCRATCH = threading.local()  # this thread's reused buffers (`_scratch`, labels, squares)


def _scratch(name: str, shape: tuple[int, ...], dtype=np.uint8) -> np.ndarray:
    """This thread's buffer ``name`` seen as ``shape`` (its old contents left in it), valid
    until the thread asks for ``name`` again. Why: the app maps every block over 128 KiB
    anew and trims the heap's top back after every free (companion/server/memory.py), so a
    roll's whole-tray temporaries were ~1,640 fresh pages to fault in (bench's flow).
    One flat buffer a name and type, grown when a larger view is asked for; the views made
    are kept too (a band's buffers are asked for a dozen times a band: 6 us each to make)."""
    views = getattr(_SCRATCH, "views", None)
    if views is None:
        views = _SCRATCH.views = {}
        _SCRATCH.pool = {}
    key = (name, shape, dtype)
    view = views.get(key)
    if view is not None:
        return view
    pool, size = _SCRATCH.pool, math.prod(shape)
    flat = pool.get((name, dtype))
    if flat is None or flat.size < size:
        flat = pool[(name, dtype)] = np.empty(max(size, 1), dtype)
        views.clear()  # none of them is of the old buffer any more
    if len(views) > 256:  # a patch's bands of every width: no growing all evening
        views.clear()
    view = views[key] = flat[:size].reshape(shape)
    return view


def release_buffers() -> None:
    """Let this thread's reused buffers go (5.9 MB for a 480x360 tray): for a thread that
    reads a tray now and then (a web request teaching a die), not the camera's, which
    reads one every throw."""
    _SCRATCH.__dict__.clear()


def _fresh(name: str, shape: tuple[int, ...], dtype=np.uint8) -> np.ndarray:
    """A new array, where `_scratch` would hand back one that may still be in use."""
    return np.empty(shape, dtype)


def _channel_sum(planes: Sequence[np.ndarray], out: np.ndarray) -> np.ndarray:
    """B+G+R of each pixel (its split ``planes``) into ``out``, float32 (whole levels or
    halves: exact). OpenCV's adds on split planes: half numpy's on strided channels."""
    cv2.add(planes[0], planes[1], dst=out, dtype=cv2.CV_32F)
    return cv2.add(out, planes[2], dst=out, dtype=cv2.CV_32F)


def _components(mask: np.ndarray, scratch: bool = False):
    """``cv2.connectedComponentsWithStats(mask, connectivity=8)`` in 16-bit labels where they
    fit (a 2x2 block holds one component at most): half the fresh pages of 32, a third of
    the default call's CPU. By Spaghetti (Bolelli's), not BBDT: the same labels and stats
    on 504 masks of the bench's trays, 0.42 against 0.47 ms a mask (2.3 % of read_tray).
    Only the box round the mask's pixels is labelled (a median 0.6 of the tray; the
    statistics pass reads every pixel it is given): from an even row and column, so the
    2x2 blocks Spaghetti scans are the whole image's and the labels come in the same order;
    the boxes and centroids moved back exactly (a centroid is a whole sum over an area).
    Row 0, the background, is the box's: no caller reads it.
    ``scratch``: the labels are written over this thread's one buffer, valid until the
    next such call (no fresh pages at all), for a caller done with them first."""
    h, w = mask.shape
    ltype = cv2.CV_16U if ((h + 1) // 2) * ((w + 1) // 2) < 65535 else cv2.CV_32S
    dtype = np.uint16 if ltype == cv2.CV_16U else np.int32
    labels = _scratch("labels", (h, w), dtype) if scratch else np.empty((h, w), dtype)
    x, y, bw, bh = cv2.boundingRect(mask)
    x0, y0 = x - x % 2, y - y % 2
    x1, y1 = max(x + bw, x0 + 2), max(y + bh, y0 + 2)  # an empty mask: one 2x2 block
    if (x0, y0, x1, y1) != (0, 0, w, h):
        labels.fill(0)
    box = (slice(y0, y1), slice(x0, x1))
    count, got, stats, centroids = cv2.connectedComponentsWithStatsWithAlgorithm(
        mask[box], 8, ltype, cv2.CCL_SPAGHETTI, labels=labels[box])
    if not np.shares_memory(got, labels):
        labels[box] = got
    if x0 or y0:
        stats[:, 0] += x0
        stats[:, 1] += y0
        area = stats[1:, cv2.CC_STAT_AREA, None].astype(np.float64)
        # the whole sum each centroid is (exact in float64), moved, over the area again
        centroids[1:] = (np.rint(centroids[1:] * area) + (x0, y0) * area) / area
    return count, labels, stats, centroids


def die_masks(image: np.ndarray, floor: np.ndarray, scratch: bool = False
              ) -> tuple[np.ndarray, np.ndarray]:
    """Where a pixel is not the floor as a die is not (255): lighter than it (`LIGHTER`) or
    of a colour it has not however lit (`TINTED`: a shadow only darkens the floor's colour,
    the grain of wood only shades it); and apart, far darker than it (`DARKER`: a black die,
    and shadows, which are kept out of the first mask so they never join a die's blob).
    ``scratch``: both masks and every step in this thread's buffers (`_scratch`), valid
    until its next such call (the tray's one reading; a patch's masks are fresh arrays)."""
    h, w = image.shape[:2]
    buffer = _scratch if scratch else _fresh
    lighter, darker, tinted = (buffer(name, (h, w)) for name in ("lighter", "darker", "tinted"))
    rows = max(1, BAND // w)
    for y in range(0, h, rows):
        band = slice(y, y + rows)
        _band_masks(image[band], floor[band], lighter[band], darker[band], tinted[band])
    # each opening as its erosion then dilation (the same pixels as MORPH_OPEN) into the
    # buffers: OpenCV's own takes a whole-tray temporary of its own
    standing = _open(cv2.bitwise_or(lighter, tinted, dst=lighter), tinted,
                     buffer("standing", (h, w)))
    darker = _open(darker, lighter, buffer("dark", (h, w)))
    pips = _pips_of(standing, darker, tinted, buffer("pips", (h, w)))
    standing = cv2.bitwise_or(standing, pips, dst=standing)
    return _fill_squares(_fill_pips(standing)), _fill_pips(darker)


def _open(mask: np.ndarray, between: np.ndarray, out: np.ndarray) -> np.ndarray:
    """``mask`` opened by a 3x3 square into ``out`` (``between``: a buffer for the step)."""
    cv2.erode(mask, _SQUARE, dst=between)
    return cv2.dilate(between, _SQUARE, dst=out)


BAND = 96 * 1024  # pixels of a band of rows read at a time (a 480x360 tray in two): its float
# planes are this thread's buffers, and fewer bands make fewer calls: 0.9 of 24K px's CPU


def _band_masks(image: np.ndarray, floor: np.ndarray, lighter: np.ndarray,
                darker: np.ndarray, tinted: np.ndarray) -> None:
    """`die_masks`' lighter, darker and tinted pixels in a band of the image's rows (`BAND`),
    written into the band's rows of the three masks; its float planes are this thread's
    buffers (`_scratch`: reused, not faulted in anew under the app's malloc). The same
    float32 figures as whole planes: sums are of whole levels (or halves: the ring's
    median), exact; the division and the floor's lit colour as before."""
    shape = image.shape[:2]
    # OpenCV's calls on split planes, not numpy's on strided ones: the same float32 figures,
    # half the CPU
    planes = cv2.split(image, [_scratch(f"band plane {c}", shape) for c in range(3)])
    floor_planes = cv2.split(floor, [_scratch(f"band floor {c}", shape, floor.dtype)
                                     for c in range(3)])
    total = _channel_sum(planes, _scratch("band total", shape, np.float32))
    floor_total = _channel_sum(floor_planes, _scratch("band floor", shape, np.float32))
    np.maximum(floor_total, 1.0, out=floor_total)
    off = np.subtract(total, floor_total, out=_scratch("band off", shape, np.float32))
    cv2.compare(off, LIGHTER, cv2.CMP_GT, dst=lighter)
    np.multiply(floor_total, DARKER, out=off)
    np.subtract(off, 20, out=off)
    cv2.compare(total, off, cv2.CMP_LT, dst=darker)
    # numpy's division, not cv2.divide: OpenCV's on arm64 (the Pi) is not correctly rounded
    # (130/130 gave 0.99999994 there), and a pixel exactly TINTED off the floor's colour
    # then counted as tinted on the Pi only (issue 66, tests/arm64/check.py)
    scale = np.divide(total, floor_total, out=floor_total)
    # any channel far off the floor's as lit here
    level, side = _scratch("band level", shape, np.float32), _scratch("band side", shape)
    for c, (plane, floor_plane) in enumerate(zip(planes, floor_planes, strict=True)):
        cv2.multiply(floor_plane, scale, dst=off, dtype=cv2.CV_32F)
        np.copyto(level, plane)
        cv2.absdiff(level, off, dst=off)
        cv2.compare(off, TINTED, cv2.CMP_GT, dst=tinted if c == 0 else side)
        if c:
            cv2.bitwise_or(tinted, side, dst=tinted)
    cv2.compare(total, 90, cv2.CMP_GT, dst=side)
    cv2.bitwise_and(tinted, side, dst=tinted)


def _fill_squares(mask: np.ndarray) -> np.ndarray:
    """A die's print (a numeral in a ring, a large pip on its edge) may cut into its blob,
    or through it, down to the floor's colour: a blob that is a rounded square but for
    that is filled to its hull."""
    outlines, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    h, w = mask.shape
    for outline in outlines:
        x, y, bw, bh = cv2.boundingRect(outline)
        if len(outline) < 8 or x == 0 or y == 0 or x + bw == w or y + bh == h:
            continue  # the walls
        area = cv2.contourArea(outline)
        if area < 100:
            continue  # a speck: its rectangle not wanted
        (_, _), (rw, rh), _ = cv2.minAreaRect(outline)
        if max(rw, rh) <= 1.3 * min(rw, rh) and _square_enough(outline, area):
            hull = cv2.convexHull(outline)
            pixels = cv2.countNonZero(mask[y:y + bh, x:x + bw])  # holes left out
            if pixels < 0.92 * cv2.contourArea(hull):  # a bite, not the blur of its edge
                cv2.fillConvexPoly(mask, hull, 255)
    return mask


def _pips_of(standing: np.ndarray, darker: np.ndarray, parts: np.ndarray, out: np.ndarray
             ) -> np.ndarray:
    """The dark pips of light dice (255): what of the darker mask lies inside the hull of the
    light parts it touches. Large pips cut a die's light body apart, and are inside it; a
    shadow beside a die lies outside its hull and stays out.
    Only the parts with a dark pixel are wanted (grain has none): each is flood-filled from
    a dark pixel (8-connected, as labelling the whole mask would find it; a few dice's
    pixels, not the whole tray's), one of every dark spot: an outline's first point (every
    outline, a spot inside another's hole too), not every dark pixel in turn (a shadow's
    thousands). The parts are apart, so the order they are filled in changes nothing.
    Into ``out``; ``parts``: a buffer for the parts."""
    cv2.bitwise_or(standing, darker, dst=parts)
    out.fill(0)
    outlines, _ = cv2.findContours(darker, cv2.RETR_LIST, cv2.CHAIN_APPROX_SIMPLE)
    for sx, sy in [outline[0, 0].tolist() for outline in outlines]:
        if parts[sy, sx] != 255:
            continue  # in a part filled already
        area, _, _, (x, y, w, h) = cv2.floodFill(parts, None, (sx, sy), 1, flags=8)
        part = parts[y:y + h, x:x + w] == 1
        parts[y:y + h, x:x + w][part] = 0  # done: no other part is marked 1 with it
        if area < 40:
            continue
        dark = part & (darker[y:y + h, x:x + w] > 0)
        light = part & (standing[y:y + h, x:x + w] > 0)
        if not dark.any() or light.sum() < 20:
            continue
        inside = np.zeros((h, w), np.uint8)
        # the hull of the light pixels is their outlines' (a few points, not thousands)
        edges, _ = cv2.findContours(light.view(np.uint8), cv2.RETR_EXTERNAL,
                                    cv2.CHAIN_APPROX_SIMPLE)
        cv2.fillConvexPoly(inside, cv2.convexHull(np.concatenate(edges)), 1)
        out[y:y + h, x:x + w][dark & (inside > 0)] = 255
    return out


def _square_enough(outline: np.ndarray, area: float) -> bool:
    """A rounded square, its pips or print maybe biting its edge: its hull fills its
    minimum-area rectangle (`MIN_FILL`; a disc or an ellipse of glare does not) and it fills
    half its hull at least."""
    return _hull_fill(outline, area)[1]


def _hull_fill(outline: np.ndarray, area: float) -> tuple[float, bool]:
    """The outline's hull's area, and `_square_enough`'s verdict."""
    hull = cv2.convexHull(outline)
    (_, _), (rw, rh), _ = cv2.minAreaRect(hull)
    hull_area = cv2.contourArea(hull)
    return hull_area, hull_area >= MIN_FILL * (rw + 1) * (rh + 1) and area >= 0.5 * hull_area


def _good_shape(blob: _Blob) -> bool:
    (_, _), (rw, rh), _ = cv2.minAreaRect(blob.outline)
    return max(rw, rh) <= 1.3 * max(1.0, min(rw, rh)) and blob.area >= 60 and blob.square


def _solid(blob: _Blob) -> bool:
    """Dice pressed together fill their outline's hull; grain and shadows do not."""
    return blob.area >= 0.85 * blob.hull_area


_SQUARE = np.ones((3, 3), np.uint8)
_CROSS = cv2.getStructuringElement(cv2.MORPH_CROSS, (3, 3))


def _erode(mask: np.ndarray, dst: np.ndarray | None = None) -> np.ndarray:
    """``mask`` eroded by `ERODE` (2) px (into ``dst``)."""
    return cv2.erode(mask, _SQUARE, dst=dst, iterations=ERODE)


LIKE_SIZE = 1.5  # blob areas this far apart at most are of one size (the dice's)


def _typical(blobs: list[_Blob], die_px: float | None, image: np.ndarray | None = None
             ) -> float | None:
    """The area of one die's eroded blob: from a known size, else the median blob shaped
    like a die. When such blobs are of other sizes too (a pale felt lit unevenly leaves
    square patches as many as the dice seen obliquely, which are no squares), only those
    marked like a die (`_marked`: pips, print) tell the size, if any are."""
    if die_px:
        return (die_px - 2 * ERODE) ** 2
    shaped = [b for b in blobs if b.area >= 150 and _good_shape(b)]
    if not shaped:
        return None
    median = _median_of([b.area for b in shaped])
    if image is not None and any(not median / LIKE_SIZE <= b.area <= median * LIKE_SIZE
                                 for b in shaped):
        marked = [b.area for b in shaped if _marked(_square_up(image, _grown(b.outline)))]
        if marked:
            return _median_of(marked)
    return median


def _grown(outline: np.ndarray):
    """The minimum-area rectangle of an eroded blob's outline, grown back by `ERODE`."""
    (cx, cy), (rw, rh), angle = cv2.minAreaRect(outline)
    return (cx, cy), (rw + 2 * ERODE, rh + 2 * ERODE), angle


def _trimmed(blob: _Blob, typical: float) -> tuple[np.ndarray, int] | None:
    """A die's blob with a neighbour's corner hanging on (it fills its rectangle poorly):
    eroded further until its main part is square, as (pixels, px eroded); None when the
    blob is square already or does not come apart."""
    (_, _), (rw, rh), _ = cv2.minAreaRect(blob.outline)
    if blob.area >= 0.85 * (rw + 1) * (rh + 1):
        return None
    part = blob.filled
    for extra in (1, 2):
        part = cv2.erode(part, _SQUARE)
        count, labels, stats, _ = cv2.connectedComponentsWithStats(part, connectivity=8)
        if count < 3:
            continue
        main = 1 + int(np.argmax(stats[1:, cv2.CC_STAT_AREA]))
        if stats[main, cv2.CC_STAT_AREA] >= 0.4 * typical:
            pixels = cv2.findNonZero((labels == main).astype(np.uint8)) + (blob.x, blob.y)
            return pixels, ERODE + extra
    return None


def _pip_spots(gray: np.ndarray, blob: _Blob, typical: float) -> int:
    """How many pip-like spots (dark or light, round, smaller than a pip can be; as
    `_local_pips` finds them) lie on the blob: a block of dice pressed together shows one
    at least a die, a brighter patch of floor none."""
    h, w = blob.filled.shape
    return _spots(gray[blob.y:blob.y + h, blob.x:blob.x + w], blob.filled, typical)


def _spots_in(gray: np.ndarray, rect, typical: float) -> int:
    """`_pip_spots` in a die's square (a minimum-area rectangle) seen with its surroundings,
    counting the spots centred in its middle 0.8, where a die has its pips (a neighbour's
    pip near its side is not one)."""
    (cx, cy), (w, h), angle = rect
    box = cv2.boxPoints(rect)
    margin = int(np.sqrt(typical) * 0.5) + 2
    x0, y0 = np.maximum(np.floor(box.min(axis=0)).astype(int) - margin, 0)
    x1, y1 = np.ceil(box.max(axis=0)).astype(int) + margin
    middle = cv2.boxPoints(((cx - x0, cy - y0), (0.8 * w, 0.8 * h), angle))
    return _spots(gray[y0:y1, x0:x1], None, typical, middle)


def _spots(crop: np.ndarray, inside: np.ndarray | None, typical: float,
           middle: np.ndarray | None = None) -> int:
    """Round spots (`_pip_spots`) in ``crop``: on its ``inside`` pixels, or centred in the
    polygon ``middle``."""
    size = max(5, int(0.4 * (np.sqrt(typical) + 2 * ERODE)) | 1)
    kernel = np.ones((size, size), np.uint8)
    smallest = 8 if middle is None else max(8.0, 0.015 * typical)  # 2/3 of a small pip
    found = 0
    for hat in (cv2.MORPH_BLACKHAT, cv2.MORPH_TOPHAT):
        spots = cv2.compare(cv2.morphologyEx(crop, hat, kernel), LOCAL_PIP[0], cv2.CMP_GT)
        if inside is not None:
            spots &= inside * 255
        count, _, stats, centres = cv2.connectedComponentsWithStats(spots, connectivity=8)
        w_, h_, area = (stats[1:, cv2.CC_STAT_WIDTH], stats[1:, cv2.CC_STAT_HEIGHT],
                        stats[1:, cv2.CC_STAT_AREA])
        round_ = ((area >= smallest) & (area <= 0.15 * typical) & (area >= 0.5 * w_ * h_)
                  & (np.maximum(w_, h_) <= 1.6 * np.minimum(w_, h_)))
        if middle is not None:  # a die's own pips, not a speck
            round_ &= np.array([cv2.pointPolygonTest(middle, (float(x), float(y)), False) >= 0
                                for x, y in centres[1:]], bool).reshape(-1)
        found += int(round_.sum())
    return found


def _read_mask(image: np.ndarray, blobs: list[_Blob], typical: float, taught: Sequence,
               gray: Callable[[], np.ndarray] | None = None) -> list[DieReading]:
    """The dice of these blobs. ``gray``: the image in grey, when asked (made here if not
    given: most trays need none here)."""
    gray = gray or _Once(lambda: cv2.cvtColor(image, cv2.COLOR_BGR2GRAY))
    dice = []
    for blob in blobs:
        area = blob.area
        if not 0.5 * typical <= area <= PATCH * typical:
            continue  # a crumb, a speck of glare; a cup (a hand reaches from the wall)
        many = int(round(area / typical))
        if many < 2:
            trimmed = _trimmed(blob, typical)
            if trimmed is not None:  # a neighbour's corner joined by a thin bridge
                dice.append(_read_blob(image, *trimmed, typical, taught=taught))
                continue
            dice.append(_read_blob(image, blob.outline, ERODE, typical, area, taught,
                                   blob.square))
            continue
        if not _solid(blob):
            # dice touching at an angle (or a shadow, grain joined on) fill no hull: their
            # parts, kept only when read, as grain and shadows read no face
            dice += [d for part, grown in _split(blob.pixels(), typical, gray()) or ()
                     for d in _read_part(image, part, grown, typical, taught)
                     if d is not None and (d.face is not None or d.die is not None)]
            continue
        halves = _halves(blob.outline, many) if many <= 3 else None
        if halves:  # dice side by side, a clean 2:1 (3:1) rectangle: cut in squares
            for rect in halves:
                die = _read_square(image, rect, taught)
                # unread, it must show pips: the floor between a wall and a shadow, lit
                # brighter than the floor judged there (rim and shadow in it), shows none
                if die is not None and (die.face is not None or die.die is not None
                                        or _spots_in(gray(), rect, typical)):
                    dice.append(die)
            continue
        cut = []
        (_, _), (rw, rh), _ = cv2.minAreaRect(blob.outline)
        row = int(round((max(rw, rh) + 2 * ERODE) / (min(rw, rh) + 2 * ERODE)))
        if row != many and 2 <= row <= 3 and area <= 1.4 * row * typical:
            # dice in a row keep less seam, so more area, than lying apart: cut by shape
            cut = [d for d in (_read_square(image, rect, taught)
                               for rect in _halves(blob.outline, row) or ())
                   if d is not None and d.face is not None]
        parts = _split(blob.pixels(), typical, gray())
        if parts is None and cut:
            dice += cut
            continue
        if parts is None:  # dice pressed together: seen, not read
            if blob.area < 0.85 * (rw + 1) * (rh + 1):
                continue  # no block of dice: glare, a shadow's edge
            if _pip_spots(gray(), blob, typical) < many:
                continue  # no die's pips on it: a lamp's light on the floor
            cx, cy = blob.pixels().reshape(-1, 2).mean(axis=0)
            dice += [DieReading(None, "unknown", (float(cx), float(cy)),
                                float(np.sqrt(typical)), 0.0)] * many
            continue
        dice += _agreed([d for part, grown in parts
                         for d in _read_part(image, part, grown, typical, taught)], cut)
    return [d for d in dice if d is not None]


def _read_part(image: np.ndarray, part: np.ndarray, grown: int, typical: float,
               taught: Sequence) -> list[DieReading | None]:
    """A part `_split` made of a blob of dice, read as a die; unread, and two dice long
    (two dice in a row whose seam the split did not find: of one colour, or lit alike),
    cut in two squares, those read with a face kept."""
    die = _read_blob(image, part, grown, typical, taught=taught)
    if die is None or (die.face is None and die.die is None):
        cut = [d for d in (_read_square(image, rect, taught)
                           for rect in _halves(part, 2, grown) or ())
               if d is not None and d.face is not None]
        if cut:
            return cut
    return [die]


def _agreed(parted: list[DieReading | None], cut: list[DieReading]) -> list[DieReading | None]:
    """Dice of one blob read two ways (``parted`` by its bright cores, ``cut`` into squares
    by its shape): a die read only one way, or unread the other, is kept; read as two
    faces, it is unreadable (a wrong face is worse than none)."""
    parted = list(parted)
    for die in cut:
        same = [k for k, d in enumerate(parted) if d is not None and np.hypot(
            die.centre[0] - d.centre[0], die.centre[1] - d.centre[1]) <= 0.6 * d.side]
        if not same:
            parted.append(die)
        elif len(same) == 1 and parted[same[0]].face is None:
            parted[same[0]] = die
        elif any(parted[k].face not in (None, die.face) for k in same):
            for k in same:
                parted[k] = replace(parted[k], face=None, score=0.0)
    return parted


def _pip_clusters(image: np.ndarray, dark: np.ndarray, read: Sequence[DieReading] = (),
                  typical: float | None = None, light_body: bool = True, runs: bool = True,
                  components: tuple | None = None) -> list[DieReading]:
    """Dice whose body hardly stands out from their floor (a white die on a light lid, a
    purple one on purple felt), found by their pips (``dark`` ones on a light body, else
    light ones on a dark body: ``light_body``):
    two to six round spots of one size close together make a square (their spread is
    the pips' part of the side), read as any die is; kept only when that square reads as a
    face with nothing where that face has no pip, no other dark spot near (a cocked six
    shows a row of three), and of the dice's size where that is known (``typical``, the
    eroded blob's area). Spots on dice ``read`` already are left. ``runs``: pips run
    together are parted (`_parted_runs`), not where the spots are a die's body cut up by
    its pips (``masks[0]``: its many pieces cost much, and part into no pips).
    ``components``: ``dark``'s, labelled already."""
    count, labels, stats, centroids = components or _components(dark, scratch=True)
    largest = 0.15 * typical if typical else 900  # a pip, not a die
    if runs:
        stats, centroids = _parted_runs(labels, stats, centroids, largest,
                                        max(24.0, 0.03 * typical) if typical else 24.0)
    w, h, area = (stats[:, cv2.CC_STAT_WIDTH], stats[:, cv2.CC_STAT_HEIGHT],
                  stats[:, cv2.CC_STAT_AREA])
    round_spot = ((area >= 8) & (area <= largest) & (area >= 0.5 * w * h)
                  & (np.maximum(w, h) <= 1.6 * np.minimum(w, h)))
    round_spot[0] = False
    # before those on dice read are left out; with the pieces runs part into, of any size (a
    # six's row of large pips parted in two is no three's company)
    pip_like = round_spot | (np.arange(len(stats)) >= count)
    faced = [d for d in read if d.face is not None]
    pitch = float(_median([d.pitch for d in faced if d.face < 6 and d.pitch > 0] or [0.0]))
    if faced and round_spot.any():
        centres = np.array([d.centre for d in faced], np.float32)
        sides = np.array([d.side for d in faced], np.float32)
        apart = np.hypot(*(centroids[:, None, :] - centres[None, :, :]).transpose(2, 0, 1))
        round_spot &= ~(apart < 0.6 * sides).any(axis=1)
    spots = np.flatnonzero(round_spot).tolist()
    if len(spots) < 2 or len(spots) > 60:
        return []
    size = {i: float(np.sqrt(area[i])) for i in spots}
    group = {i: i for i in spots}

    def root(i):
        while group[i] != i:
            i = group[i]
        return i

    # neighbouring pips of a die lie 0.54 of its side apart: small pips, far for their size
    near = 0.58 * (np.sqrt(typical) + 2 * ERODE) if typical else 0.0
    sizes = np.array([size[i] for i in spots])
    at = centroids[spots]
    ratio = sizes[:, None] / sizes[None, :]
    step = at[:, None] - at[None, :]
    reach = np.maximum(near, 3.4 * (sizes[:, None] + sizes[None, :]) / 2)
    linked = (ratio >= 0.5) & (ratio <= 2.0) & (np.hypot(step[..., 0], step[..., 1]) <= reach)
    for a, b in zip(*np.nonzero(np.triu(linked, 1)), strict=True):
        group[root(spots[a])] = root(spots[b])
    clusters: dict[int, list[int]] = {}
    for i in spots:
        clusters.setdefault(root(i), []).append(i)
    groups = list(clusters.values())
    parted, centred = [], []  # centred: groups round a die's middle, parted no further
    if typical:  # pips of dice lying close, linked into one group: parted die by die
        side = np.sqrt(typical) + 2 * ERODE
        for members in [m for m in groups if len(m) > 6]:
            # a six whose large pips spread its rows is wider than a standard six (0.76)
            for reach in (0.8, 0.95):
                parted += [g for g in _part(members, centroids, reach * side)
                           if sorted(g) not in map(sorted, parted)]
            centred += [g for g in _centred(members, centroids, side)
                        if sorted(g) not in map(sorted, parted + centred)]
        parted += centred
        groups += parted
    if typical:  # a two's pips lie a diagonal apart, too far for the link above
        groups += _twos([m[0] for m in groups if len(m) == 1], centroids, size,
                        np.sqrt(typical) + 2 * ERODE)
    dice = []
    tried = [sorted(m) for m in groups]
    for members in groups:  # grows as groups unread are parted
        if not 2 <= len(members) <= 6:
            continue
        before = len(dice)
        points = centroids[members].astype(np.float32)
        (cx, cy), (rw, rh), angle = cv2.minAreaRect(points)
        if members in centred and not _die_sized(min(rw, rh), typical):
            continue  # (tested first: grain's spots make many such groups)
        if len(members) in (4, 5) and _rows_of_a_six(dark, points):
            continue  # four pips of a six (two of its rows, the rest hidden), not a four
        spread = min(rw, rh)  # a six's rows may spread further than its columns
        if len(members) <= 3:  # pips on a diagonal: the die's sides lie at 45 degrees
            spread = max(rw, rh) / np.sqrt(2)
            angle += 45
        other = pip_like.copy()  # a blot of another shape is no pip: a neighbour's edge
        other[members] = False
        others = np.flatnonzero(other)
        # nor a spot under half its pips' size (as spots link): a die's edge cut into specks
        others = others[np.sqrt(area[others]) >= 0.5 * _median([size[i] for i in members])]
        for offset in (0.25, 0.29, 0.22):  # the pips' part of the side varies between dice
            side = spread / (2 * offset)
            if side < 12:
                break
            low = 0.9 if members in parted else 0.8  # spots of two dice square up small
            if typical and not low <= side / (np.sqrt(typical) + 2 * ERODE) <= 1.3:
                continue
            # a neighbour's pips lie beyond the die's side: only spots within its reach count
            if len(others) and (_reach(centroids[others] - (cx, cy), angle)
                                < 0.62 * side).any():
                break  # more dark spots than its pips: part of another die
            reading = _read_square(image, ((cx, cy), (side, side), angle), (), light_body,
                                   False, wanted=functools.partial(operator.eq, len(members)))
            if reading is not None and (
                    not typical or _pitch_fits(reading, typical, pitch)):
                if reading.face == 2 and _side_of_more(image, points, light_body):
                    break
                if reading.face is not None and reading.face < 6 and not _one_body(
                        image, points, _median([size[i] for i in members])):
                    break  # spots of two dice: a one's pip and a cocked neighbour's top
                dice.append(reading)
                break
        if typical and len(members) >= 4 and len(dice) == before and members not in centred:
            # unread: a neighbour's pip linked in (dice touching); parted as larger groups
            side = np.sqrt(typical) + 2 * ERODE
            round_middles = _centred(members, centroids, side) if members not in parted else []
            centred += round_middles
            for g in [*_part(members, centroids, 0.8 * side),
                      *_part(members, centroids, 0.95 * side), *round_middles]:
                if sorted(g) not in tried:
                    tried.append(sorted(g))
                    parted.append(g)
                    groups.append(g)
    return dice


BODY_ONE_COLOUR = 150.0  # B+G+R levels: most the body round one corner pip of a die may
# differ from that round another (dice read by their pips, two to five: at most 80 on 154
# read right, all their pips; a blue one's pip and a spot on an orange die beside it: 300)


def _one_body(image: np.ndarray, points: np.ndarray, size: float) -> bool:
    """The pips (``points``, ``size`` px across) lie on one body: the median colour of a
    thin ring round each corner pip (`BODY_ONE_COLOUR`). Not the middle pip's: on real dice
    (../shared/data/dice-photos) a five's is shaded, 150-280 levels off its corners'."""
    corners = points[np.argsort(-np.hypot(*(points - points.mean(axis=0)).T))[
        :2 if len(points) <= 3 else 4]]
    inner = 0.6 * size + 1.5
    reach = int(np.ceil(inner + 2.5))
    yy, xx = np.mgrid[-reach:reach + 1, -reach:reach + 1]
    apart = np.hypot(xx, yy)
    ring = (apart >= inner) & (apart <= inner + 2.5)
    h, w = image.shape[:2]
    xs = np.clip(np.rint(corners[:, 0, None] + xx[ring]).astype(int), 0, w - 1)
    ys = np.clip(np.rint(corners[:, 1, None] + yy[ring]).astype(int), 0, h - 1)
    colours = np.median(image[ys, xs].astype(np.float32), axis=1)  # corners x BGR
    return float(np.abs(colours[:, None] - colours[None]).sum(axis=2).max()) <= BODY_ONE_COLOUR


def _die_sized(spread: float, typical: float) -> bool:
    """Whether pips spread so far across (four to six of them) square up as a die of the
    dice's size at some pip offset `_pip_clusters` tries, as a parted group must."""
    for offset in (0.25, 0.29, 0.22):
        side = spread / (2 * offset)
        if side < 12:
            return False
        if 0.9 <= side / (np.sqrt(typical) + 2 * ERODE) <= 1.3:
            return True
    return False


FOUR_SQUARE = 1.3  # how much longer than wide a four's or five's corners may lie


def _rows_of_a_six(dark: np.ndarray, points: np.ndarray) -> bool:
    """Four pips making an oblong (longer than `FOUR_SQUARE` times its width; a cocked
    four's is too) with two more dark spots a row further on along its short side: two
    rows of two of a six whose third row is not a spot of its own (joined to its shadow,
    a blot), read as a four on a square too small, off the six's middle."""
    middle = points.mean(axis=0)
    centred = points - middle
    spread, axes = np.linalg.eigh(centred.T @ centred)  # the layout's short axis first
    if spread[1] <= FOUR_SQUARE ** 2 * spread[0]:
        return False
    corners = np.abs(centred @ axes)  # a five's middle pip at 0, its corners as a four's
    short, long = _median_rows(corners[corners[:, 1] > 0.5 * corners[:, 1].max()])
    # both ends' two places at once (ends x sides x 2), in float32 as one by one
    places = (middle + (_ENDS * short) * axes[:, 0]) + (_SIDES * long) * axes[:, 1]
    spots = np.trunc(places).astype(int)  # as int() of each: toward zero
    h, w = dark.shape
    inside = ((spots[..., 0] >= 0) & (spots[..., 0] < w) & (spots[..., 1] >= 0)
              & (spots[..., 1] < h))
    spots[~inside] = 0
    return bool((inside & (dark[spots[..., 1], spots[..., 0]] > 0)).all(axis=1).any())


_ENDS = np.array([3, -3], np.float32)[:, None, None]  # three pip rows on, either end
_SIDES = np.array([1, -1], np.float32)[None, :, None]


def _side_of_more(image: np.ndarray, pair: np.ndarray, light_body: bool) -> bool:
    """Two pips that are a side of a four, five or six (two more pips complete a square
    with them), not a two's diagonal: the square they would be a side of reads 4-6."""
    step = pair[1] - pair[0]
    apart = float(np.hypot(*step))
    across = np.array([-step[1], step[0]]) / 2
    angle = float(np.degrees(np.arctan2(step[1], step[0])))
    side = apart / (2 * PIP_OFFSET)
    for sign in (1, -1):
        cx, cy = pair.mean(axis=0) + sign * across
        beside = _read_square(image, ((float(cx), float(cy)), (side, side), angle), (),
                              light_body, False, wanted=lambda face: face is not None and face >= 4)
        if beside is not None:
            return True
    return False


PITCH = (0.215, 0.38)  # of the dice's side: how far a die's pips lie from its centre
PITCH_READ = (0.75, 1.35)  # of the pitch of the dice read already


def _pitch_fits(reading: DieReading, typical: float, pitch: float) -> bool:
    """The pips of a die found by its pips lie as far apart as on the dice read already
    (``pitch``, their median; `PITCH_READ`), or, before any, as a die of the dice's size
    has them (`PITCH`: the spacings of `SCALES`, with room for the dice's spread in size):
    two neighbouring pips of a four (0.7 of its pitch), or a five's corner and middle pip
    (0.5), squared up small and read as a two, are not."""
    if reading.face == 1:
        return True
    if pitch > 0:
        return PITCH_READ[0] <= reading.pitch / pitch <= PITCH_READ[1]
    return PITCH[0] <= reading.pitch / (np.sqrt(typical) + 2 * ERODE) <= PITCH[1]


def _parted_runs(labels: np.ndarray, stats: np.ndarray, centroids: np.ndarray, largest: float,
                 smallest: float = 24.0) -> tuple[np.ndarray, np.ndarray]:
    """Large pips lying close run together into one spot (a six's column of three): such a
    run (``smallest`` to three ``largest`` pips' area), eroded at its necks, falls into two
    or three round pieces of one size; those are added as spots (each of an equal share of
    the run's area), the run itself kept."""
    w, h, area = (stats[:, cv2.CC_STAT_WIDTH], stats[:, cv2.CC_STAT_HEIGHT],
                  stats[:, cv2.CC_STAT_AREA])
    runs = np.flatnonzero((area >= smallest) & (area <= 3 * largest)
                          & (area >= 0.3 * w * h)
                          & ((np.maximum(w, h) > 1.6 * np.minimum(w, h)) | (area < 0.5 * w * h))
                          & (np.maximum(w, h) <= 3.6 * np.minimum(w, h)))
    runs = runs[runs > 0]
    if not len(runs) or len(runs) > 40:
        return stats, centroids
    extra_stats, extra_centres = [], []
    for i in runs:
        x, y, bw, bh = stats[i, :4]
        run = (labels[y:y + bh, x:x + bw] == i).astype(np.uint8)
        for _ in range(4):
            run = cv2.erode(run, _CROSS)
            count, _, part_stats, part_centres = cv2.connectedComponentsWithStats(run)
            pieces = part_stats[1:, cv2.CC_STAT_AREA]
            if count - 1 == 0:
                break  # eroded away: no run of pips
            if count - 1 in (2, 3) and pieces.min() >= 0.4 * pieces.max():
                pw, ph = part_stats[1:, cv2.CC_STAT_WIDTH], part_stats[1:, cv2.CC_STAT_HEIGHT]
                # round within a pixel: a small six's pieces are a few pixels (3 by 5)
                if ((np.maximum(pw, ph) <= 1.6 * np.minimum(pw, ph) + 1)
                        & (pieces >= 0.5 * pw * ph)).all():
                    share = area[i] / (count - 1)
                    side = int(round(np.sqrt(share)))
                    for centre in part_centres[1:]:
                        extra_stats.append((0, 0, side, side, int(share)))
                        extra_centres.append(centre + (x, y))
                    break
    if not extra_stats:
        return stats, centroids
    return (np.vstack([stats, np.array(extra_stats, stats.dtype)]),
            np.vstack([centroids, np.array(extra_centres, centroids.dtype)]))


BODY_APART = 45.0  # B+G+R levels between a one's body and the floor round it, at least (a purple
# one on greyish purple felt: 53)
BODY_LARGEST = 1.3  # of the dice's side: a one's body square (its shadow may join it)
ONE_ALONE = 0.7  # of the dice's side: no spot of a pip's size nearer a one's pip


def _ones(image: np.ndarray, spots: np.ndarray, read: Sequence[DieReading], typical: float,
          light_body: bool, components: tuple | None = None) -> list[DieReading]:
    """Ones whose body hardly stands out from the floor's colour (a purple one on a lavender
    lid): a lone round spot, no other spot of its size within `ONE_ALONE` of a die's side,
    in the middle of a rounded square of the body's colour (`_body_square`) of the dice's
    size; kept when that square reads a one (nothing at any spacing a die has pips).
    ``components``: ``spots``' labelled already."""
    side = np.sqrt(typical) + 2 * ERODE
    count, _, stats, centroids = components or _components(spots)
    w, h, area = (stats[:, cv2.CC_STAT_WIDTH], stats[:, cv2.CC_STAT_HEIGHT],
                  stats[:, cv2.CC_STAT_AREA])
    round_spot = ((area >= 8) & (area <= 0.15 * typical) & (area >= 0.5 * w * h)
                  & (np.maximum(w, h) <= 1.6 * np.minimum(w, h)))
    round_spot[0] = False
    found = np.flatnonzero(round_spot)
    if not len(found) or len(found) > 60:
        return []
    dice = []
    read = [d for d in read if d.face is not None]  # a die seen unread may be this one
    centres = np.array([d.centre for d in read], np.float64).reshape(-1, 2)
    reach = 0.8 * np.array([d.side for d in read], np.float64)
    # a spot on a die read, or beside it, is none (all spots measured at once)
    on_read = (np.hypot(centroids[found, 0, None] - centres[:, 0],
                        centroids[found, 1, None] - centres[:, 1]) < reach).any(axis=1)
    for i in found[~on_read]:
        x, y = centroids[i]
        # a pip of a die with more: a spot of its size near it (a glint is smaller, and a
        # neighbour's pips lie further off)
        others = found[found != i]
        alike = others[np.abs(np.log(area[others] / area[i])) <= 2 * np.log(1.6)]
        if len(alike) and (np.hypot(*(centroids[alike] - (x, y)).T) < ONE_ALONE * side).any():
            continue
        rect = _body_square(image, (float(x), float(y)), side)
        if rect is None:
            continue
        reading = _read_square(image, rect, (), light_body, False, wanted=lambda face: face == 1)
        if reading is not None:
            dice.append(reading)
    return dice


def _body_square(image: np.ndarray, pip: tuple[float, float], side: float):
    """The rounded square of one colour around a pip, about ``side`` across and centred on
    it (a minimum-area rectangle), or None: the body's colour is that of a ring round the
    pip, the floor's that of a window's rim; a pixel is body within a third of their
    difference (B+G+R levels apart) of the first (a shadow, darker still, and the floor stay
    out). By colour, not grey: a purple die on blue felt or a blue one on wood is as grey as
    its floor, and lighter or darker than it whatever its pips."""
    x, y = pip
    reach = int(side)
    x0, y0 = int(x) - reach, int(y) - reach
    if x0 < 0 or y0 < 0 or x0 + 2 * reach >= image.shape[1] or y0 + 2 * reach >= image.shape[0]:
        return None
    window = image[y0:y0 + 2 * reach + 1, x0:x0 + 2 * reach + 1].astype(np.float32)
    yy, xx = np.mgrid[0:window.shape[0], 0:window.shape[1]]
    far = np.hypot(xx - (x - x0), yy - (y - y0))
    body = _median_rows(window[(far >= 0.22 * side) & (far <= 0.35 * side)])
    floor = _median_rows(window[far >= 0.95 * side])
    apart = float(np.abs(body - floor).sum())
    if apart < BODY_APART:
        return None
    mask = (np.abs(window - body).sum(axis=2) < 0.35 * apart).astype(np.uint8)
    mask[far <= 0.22 * side] = 1  # the pip itself
    mask = cv2.morphologyEx(mask, cv2.MORPH_OPEN, _SQUARE)
    count, labels, _, _ = cv2.connectedComponentsWithStats(mask, connectivity=4)
    own = labels[reach, reach]
    if own == 0:
        return None
    points = cv2.findNonZero((labels == own).astype(np.uint8))
    (cx, cy), (rw, rh), angle = cv2.minAreaRect(points)
    if not (0.85 * side <= min(rw, rh) and max(rw, rh) <= BODY_LARGEST * side
            and np.hypot(cx - reach, cy - reach) <= 0.1 * side
            and len(points) >= 0.85 * rw * rh):
        return None
    return (float(cx + x0), float(cy + y0)), (float(rw), float(rh)), float(angle)


def _reach(offsets: np.ndarray, angle: float) -> np.ndarray:
    """How far spots lie from a die's centre along its square's axes (the larger): a
    neighbour's pips lie beyond its side, out of its reach however it is turned; a cocked
    die's side showing pips just beyond its top, and the rest of a six whose column was
    taken for a three's diagonal, within it."""
    theta = np.radians(angle)
    along = offsets[:, 0] * np.cos(theta) + offsets[:, 1] * np.sin(theta)
    across = offsets[:, 1] * np.cos(theta) - offsets[:, 0] * np.sin(theta)
    return np.maximum(np.abs(along), np.abs(across))


LOCAL_PIP = (50.0, 85.0)  # grey levels a pip lies below (or above) the die's body around it


def _local_pips(gray: np.ndarray, typical: float) -> list[tuple[np.ndarray, bool]]:
    """Pips by their contrast with what is around them, whatever the floor (255), as masks
    and whether they are dark (on a light body): dark spots (black hat) and light ones (top
    hat) smaller than 0.4 of a die, at each level of `LOCAL_PIP`. A die whose body joins a
    glint or its neighbours, or hardly stands out from its floor, still shows its pips; large
    pips a blurred camera runs together stand apart at the higher level, by their cores.
    ``gray``: the tray image in grey."""
    size = max(5, int(0.4 * (np.sqrt(typical) + 2 * ERODE)) | 1)
    kernel = np.ones((size, size), np.uint8)  # a square: five times cheaper than a disc
    # black and top hat step by step (the same pixels as MORPH_BLACKHAT and MORPH_TOPHAT)
    # in this thread's buffers (`_scratch`), as are the masks (valid until the next call)
    step, shape = _scratch("hat step", gray.shape), gray.shape
    dark = cv2.erode(cv2.dilate(gray, kernel, dst=step), kernel, dst=_scratch("dark hat", shape))
    cv2.subtract(dark, gray, dst=dark)
    light = cv2.dilate(cv2.erode(gray, kernel, dst=step), kernel, dst=_scratch("light hat", shape))
    cv2.subtract(gray, light, dst=light)
    levels = [(level, hat, is_dark) for level in LOCAL_PIP
              for hat, is_dark in ((dark, True), (light, False))]
    return [(cv2.compare(hat, level, cv2.CMP_GT, dst=_scratch(f"spots {k}", shape)), is_dark)
            for k, (level, hat, is_dark) in enumerate(levels)]


def _part(members: list[int], centroids: np.ndarray, reach: float) -> list[list[int]]:
    """Spots parted into groups no wider than ``reach`` (complete linkage: the nearest two
    groups joined first while the joined group stays that narrow), for the pips of dice
    lying close together."""
    groups = [[i] for i in members]
    points = centroids[members]
    # the width of every two groups joined, kept as groups join (the larger of two widths):
    # no pair of groups measured again pip by pip
    # In plain floats: a few spots (mostly 4-6), where numpy's calls cost ten times the work
    width = np.hypot(*(points[:, None, :] - points[None, :, :]).transpose(2, 0, 1)).tolist()
    while len(groups) > 1:
        # the last pair of the narrowest, in the order pairs were once tried one by one
        best, pair = math.inf, (0, 1)
        for a, row in enumerate(width):
            for b in range(a + 1, len(row)):
                if row[b] <= best:
                    best, pair = row[b], (a, b)
        if not best <= reach:
            break
        a, b = pair
        groups[a] += groups.pop(b)
        joined = [max(x, y) for x, y in zip(width[a], width[b], strict=True)]
        width[a] = joined
        for row, value in zip(width, joined, strict=True):
            row[a] = value
        del width[b]
        for row in width:
            del row[b]
    return [g for g in groups if 3 <= len(g) <= 6]  # two spots of two dice make a "two"


def _centred(members: list[int], centroids: np.ndarray, side: float) -> list[list[int]]:
    """Spots of dice touching parted by the die each lies on: round every place a die's
    middle may be (halfway between two spots a die's diagonal apart: a three's or five's
    middle pip lies there too), the spots within half a side of it. A die's own pips lie
    within 0.47 of its side of its middle, a touching neighbour's 0.67 away at least;
    `_part` joins the nearest spots first, which may be two dice's."""
    points = centroids[members]
    apart = np.hypot(*(points[:, None, :] - points[None, :, :]).transpose(2, 0, 1))
    a, b = np.nonzero(np.triu((apart >= 0.6 * side) & (apart <= side), 1))
    middles = (points[a] + points[b]) / 2
    within = np.hypot(*(middles[:, None, :] - points[None, :, :]).transpose(2, 0, 1)) <= side / 2
    groups: list[list[int]] = []
    for row in within:
        group = [members[i] for i in np.flatnonzero(row)]
        if 4 <= len(group) <= 6 and group not in groups:  # a three: a large six's column
            groups.append(group)
    return groups


def _twos(lone: list[int], centroids: np.ndarray, size: dict, side: float) -> list[list[int]]:
    """Pairs of lone spots of one size as far apart as a two's pips on a die ``side`` px
    across (0.76 of the side, a standard d6), each spot in one pair at most."""
    pairs, used = [], set()
    for a in lone:
        for b in lone:
            if a < b and a not in used and b not in used and 0.6 <= size[a] / size[b] <= 1.6 \
                    and 0.6 * side <= np.hypot(*(centroids[a] - centroids[b])) <= 0.9 * side:
                pairs.append([a, b])
                used.update((a, b))
    return pairs


def _read_floor(image: np.ndarray, floor: np.ndarray, die_px: float | None, taught: Sequence
                ) -> TrayReading:
    # eroding parts dice that touch (their rounded edges leave a dark seam); the squares are
    # grown back by as much before reading
    shape = image.shape[:2]
    masks = die_masks(image, floor, scratch=True)
    standing = _erode(masks[0], _scratch("standing eroded", shape))
    dark = _erode(masks[1], _scratch("dark eroded", shape))
    blobs, clear = _blobs(standing)
    dark_blobs, dark_clear = _blobs(dark)
    typical = _typical(blobs, die_px, image) or _typical(dark_blobs, die_px, image)
    if typical is None:
        dice = _pip_clusters(image, masks[1])
        return TrayReading(sorted(dice, key=lambda d: (d.centre[1], d.centre[0])), clear)
    # the tray in grey, made once when first asked (the blobs' reading, the local pips)
    gray = _Once(lambda: cv2.cvtColor(image, cv2.COLOR_BGR2GRAY, dst=_scratch("gray", shape)))
    dice = _read_mask(image, blobs, typical, taught, gray)
    dice += [d for d in _read_mask(image, dark_blobs, typical, taught, gray) if all(
        np.hypot(d.centre[0] - e.centre[0], d.centre[1] - e.centre[1]) > 0.6 * e.side
        for e in dice)]  # a black die (not one seen already, with its shadow)
    known = None if die_px is None and len(blobs) < 3 else typical
    # a patch is a blob off the walls (its pixels those its outline fills, its area at least
    # those): none near `PATCH` dice (a tenth to spare), no patch to label the mask for
    if known and any(b.area > 0.9 * PATCH * known for b in blobs):
        dice += [d for d in _on_patches(image, standing, known, taught) if all(
            np.hypot(d.centre[0] - e.centre[0], d.centre[1] - e.centre[1]) > 0.6 * e.side
            for e in dice)]
    # dark pips of a light die, found in the darker-than-floor mask; where the dice's size
    # is known the local dark passes below find them (darker than the body around them)
    clusters = [] if known else _pip_clusters(image, masks[1], dice, known)
    if known:  # light pips on a die the floor's colour: only where the dice's size is known
        local = _local_pips(gray(), known)
        spotted = []  # labelled once, for both uses (the ones below need no labels)
        for k, (spots, dark) in enumerate(local):
            part = _components(spots, scratch=True)
            spotted.append((part[0], None, *part[2:]))
            # at the higher level pips run together stand apart by their cores already: no
            # runs parted there
            clusters += _pip_clusters(image, spots, dice + clusters, known, light_body=dark,
                                      runs=k < 2, components=part)
        clusters += _pip_clusters(image, masks[0], dice + clusters, known, light_body=False,
                                  runs=False)
        for (spots, dark), part in zip(local[:2], spotted[:2], strict=True):
            clusters += _ones(image, spots, dice + clusters, known, dark, part)
    for die in clusters:
        # a light die told by its pips alone; it stands for a die seen there already only
        # when it reads a face where that one read none
        same = [k for k, d in enumerate(dice) if np.hypot(die.centre[0] - d.centre[0],
                                                          die.centre[1] - d.centre[1])
                <= 0.6 * d.side]
        if not same:
            dice.append(die)
        elif len(same) == 1 and dice[same[0]].face is None and dice[same[0]].die is None \
                and die.face is not None:
            dice[same[0]] = die
    read = [d for d in dice if d.face is not None]
    dice = [d for d in dice if d.face is not None or d.die is not None or all(
        np.hypot(d.centre[0] - e.centre[0], d.centre[1] - e.centre[1]) >= APART * e.side
        for e in read)]  # no die lies within another: a glint or shadow cut off a die read
    dice.sort(key=lambda d: (d.centre[1], d.centre[0]))
    return TrayReading(dice, clear)


def _on_patches(image: np.ndarray, standing: np.ndarray, typical: float, taught: Sequence
                ) -> list[DieReading]:
    """Dice lying on a patch of floor lighter than the floor judged round it (a pale plank
    of wood, a lamp's light), which joins them into one blob far larger than a die: against
    the patch's own colour (the median of its pixels) they stand out again. Kept only when
    read: grain left in the patch makes no die."""
    count, labels, stats, _ = _components(standing)
    h, w = standing.shape
    x, y, bw, bh, area = stats.T
    walls = (x == 0) | (y == 0) | (x + bw == w) | (y + bh == h)  # the rim: no patch
    patches = np.flatnonzero((area > PATCH * typical) & ~walls)
    margin = int(np.sqrt(typical)) + 2 * ERODE
    dice = []
    for i in patches[patches > 0][:4]:
        x, y, bw, bh = stats[i, :4]
        x0, y0 = max(0, x - margin), max(0, y - margin)
        x1, y1 = min(w, x + bw + margin), min(h, y + bh + margin)
        crop = image[y0:y1, x0:x1]
        region = (labels[y0:y1, x0:x1] == i).astype(np.uint8)
        colour = _median_rows(crop[region > 0]).astype(np.float32)
        region = cv2.dilate(region, _SQUARE, iterations=2 * ERODE)
        inside = die_masks(crop, np.full(crop.shape, colour, np.float32))[0] & (region * 255)
        blobs, _ = _blobs(_erode(inside))
        dice += [replace(d, centre=(d.centre[0] + x0, d.centre[1] + y0))
                 for d in _read_mask(crop, blobs, typical, taught) if d.face is not None]
    return dice


def _hand(image: np.ndarray) -> bool:
    """A hand (an arm, a cup) over the tray: something far from the tray's colour (the
    median of its middle, in a small copy), thick, reaching in over part of the walls (a
    die seen close fills the middle: then the floor all round is far from it), and large
    (`HAND_SHARE` of the tray: dice against a wall with their dark shadows, or a dark plank
    of wood along it, join the rim too).
    The floor around a die is judged locally, where a hand would pass for floor."""
    h, w = image.shape[:2]
    scale = 64.0 / max(h, w)
    if scale <= 0.25:  # halved first: OpenCV's area averaging by two is fast, by 7.5 slow
        image = cv2.resize(image, (w // 2, h // 2), interpolation=cv2.INTER_AREA)
    small = cv2.resize(image, (max(8, int(w * scale)), max(8, int(h * scale))),
                       interpolation=cv2.INTER_AREA).astype(np.float32)
    sh, sw = small.shape[:2]
    middle = small[sh // 6: sh - sh // 6, sw // 6: sw - sw // 6].reshape(-1, 3)
    far = cv2.transform(np.abs(small - _median_rows(middle)), _SUM) > HAND_DISTANCE
    core = cv2.erode(far.astype(np.uint8), np.ones((3, 3), np.uint8), iterations=2)
    if not core.any():
        return False
    count, labels, stats, _ = cv2.connectedComponentsWithStats(core, connectivity=8)
    reach = int(min(sh, sw) * 0.15)
    border = np.concatenate([labels[0], labels[-1], labels[1:-1, 0], labels[1:-1, -1]])
    for i in range(1, count):
        along = float((border == i).mean())  # a hand comes in over part of one wall
        inside = labels[reach:sh - reach, reach:sw - reach] == i
        if 0 < along < 0.5 and inside.any() and stats[i, cv2.CC_STAT_AREA] >= (
                HAND_SHARE * sh * sw):
            return True
    return False


def read_tray(image: np.ndarray, die_px: float | None = None, taught: Sequence = ()
              ) -> TrayReading:
    """Every die in a tray image (the whole image is the tray). ``die_px``: the dice's side
    in pixels if known (calibration); otherwise the typical blob size stands for it.
    ``taught``: dice read by their taught pictures (`taught_faces.TaughtDie`).

    A die is found by what it is, not by the floor it lies on: a rounded square standing out
    from the floor around it (`die_masks`), read by its pips. When the floor around is
    mostly die (a die seen close), the tray's outer ring is the floor instead."""
    if _hand(image):
        return TrayReading([], False)
    floor = floor_colour(image, dst=_scratch("floor", image.shape))
    reading = _read_floor(image, floor, die_px, taught)
    if reading.dice or not reading.clear:
        return reading
    reading = _read_floor(image, floor_colour(image, 0), die_px, taught)
    if reading.dice or die_px is not None:
        return reading
    # no blob told the dice's size (small dice crowded on a pale floor under dark shadows,
    # the floor between them judged too dark joins them): the sizes the reader reads
    tries = [_read_floor(image, floor, size, taught) for size in GUESSED_SIZES]
    return max(tries, key=lambda tried: sum(d.face is not None for d in tried.dice))


def lone_die(image: np.ndarray) -> np.ndarray:
    """The top of the one die lying flat in a tray image, squared up (to teach its face).
    Raises ValueError("hand" | "no_die" | "several_dice" | "not_flat") otherwise.
    Read on a web request's thread, one of hundreds kept all evening: its buffers
    (`release_buffers`) are not kept for a next reading that may never come there."""
    try:
        reading = read_tray(image)
    finally:
        release_buffers()
    if not reading.clear:
        raise ValueError("hand")
    if not reading.dice:
        raise ValueError("no_die")
    if len(reading.dice) > 1:
        raise ValueError("several_dice")
    if reading.dice[0].square is None:
        raise ValueError("not_flat")
    return reading.dice[0].square
